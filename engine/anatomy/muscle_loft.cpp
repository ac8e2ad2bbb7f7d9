#include "engine/anatomy/muscle_loft.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace engine {
namespace {

constexpr double kLoftPi = 3.14159265358979323846;

glm::dvec3 catmull(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2, const glm::dvec3& p3, double t) {
    double t2 = t * t, t3 = t2 * t;
    return 0.5 * ((2.0 * p1) + (-p0 + p2) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2 +
                  (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * t3);
}

struct Frame {
    glm::dvec3 c, t, e1, e2;  // centre, tangent, thickness axis, width axis (e1 × e2 = t)
};

std::vector<Frame> frames(const std::vector<glm::vec3>& st, glm::vec3 width_dir) {
    const size_t n = st.size();
    std::vector<Frame> f(n);
    glm::dvec3 prev_e2(width_dir);
    for (size_t i = 0; i < n; ++i) {
        glm::dvec3 a = st[i > 0 ? i - 1 : 0], b = st[i + 1 < n ? i + 1 : n - 1];
        glm::dvec3 t = glm::normalize(b - a);
        glm::dvec3 w(width_dir);
        glm::dvec3 e2 = w - glm::dot(w, t) * t;
        if (glm::length(e2) < 1e-6) e2 = prev_e2 - glm::dot(prev_e2, t) * t;
        if (glm::length(e2) < 1e-9) e2 = std::fabs(t.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
        e2 = glm::normalize(e2 - glm::dot(e2, t) * t);
        f[i] = {glm::dvec3(st[i]), t, glm::cross(e2, t), e2};
        prev_e2 = e2;
    }
    return f;
}

float profile(const LoftShape& s, double u) {
    const double end = u < 0.5 ? s.tendon_origin : s.tendon_insertion;
    const double rt = (end >= 0.0 ? end : s.tendon) * s.r_max;
    return float(rt + (s.r_max - rt) * std::pow(std::max(0.0, std::sin(kLoftPi * u)), double(s.power)));
}

glm::vec3 ringPoint(const Frame& f, double r, double ellipse, double theta) {
    return glm::vec3(f.c + r * ellipse * std::cos(theta) * f.e1 + r * std::sin(theta) * f.e2);
}

// Quad strip between ring a and ring b (same size, same orientation; b
// further along the path). Outward for CCW rings around the tangent.
void strip(std::vector<glm::uvec3>& tris, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    const size_t n = a.size();
    for (size_t j = 0; j < n; ++j) {
        size_t k = (j + 1) % n;
        tris.emplace_back(a[j], a[k], b[k]);
        tris.emplace_back(a[j], b[k], b[j]);
    }
}

// Fan from a pole to a ring. `start`: pole before the ring along the path.
void cap(std::vector<glm::uvec3>& tris, uint32_t pole, const std::vector<uint32_t>& ring, bool start) {
    const size_t n = ring.size();
    for (size_t j = 0; j < n; ++j) {
        size_t k = (j + 1) % n;
        if (start)
            tris.emplace_back(pole, ring[k], ring[j]);
        else
            tris.emplace_back(pole, ring[j], ring[k]);
    }
}

AxisStation station(const Frame& f, double r, double ellipse, double belly) {
    return AxisStation{glm::vec3(f.c), glm::vec3(f.e1), glm::vec3(f.e2), float(r * ellipse), float(r), float(belly)};
}

// A vertex on no ring (a pole is its own station's centre: (chain, station)).
uint32_t addVertex(MeshData& m, glm::vec3 p, glm::ivec2 st = glm::ivec2(-1)) {
    m.vertices.push_back(p);
    m.vertex_station.push_back(st);
    return uint32_t(m.vertices.size() - 1);
}

std::vector<uint32_t> addRing(MeshData& m, const Frame& f, double r, double ellipse, int segs, glm::ivec2 st) {
    std::vector<uint32_t> ring;
    for (int j = 0; j < segs; ++j) ring.push_back(addVertex(m, ringPoint(f, r, ellipse, 2.0 * kLoftPi * j / segs), st));
    return ring;
}

}  // namespace

std::vector<glm::vec3> resampleCurve(const std::vector<glm::vec3>& pts, int n) {
    std::vector<glm::dvec3> p(pts.begin(), pts.end());
    std::vector<glm::dvec3> dense;
    const int sub = 64;
    for (size_t i = 0; i + 1 < p.size(); ++i) {
        glm::dvec3 p0 = i > 0 ? p[i - 1] : 2.0 * p[i] - p[i + 1];
        glm::dvec3 p3 = i + 2 < p.size() ? p[i + 2] : 2.0 * p[i + 1] - p[i];
        for (int k = 0; k < sub; ++k) dense.push_back(catmull(p0, p[i], p[i + 1], p3, double(k) / sub));
    }
    dense.push_back(p.back());
    std::vector<double> acc(dense.size(), 0.0);
    for (size_t i = 1; i < dense.size(); ++i) acc[i] = acc[i - 1] + glm::length(dense[i] - dense[i - 1]);
    std::vector<glm::vec3> out;
    size_t seg = 0;
    for (int k = 0; k <= n; ++k) {
        double target = acc.back() * k / n;
        while (seg + 2 < dense.size() && acc[seg + 1] < target) ++seg;
        double len = acc[seg + 1] - acc[seg];
        double t = len > 0 ? std::clamp((target - acc[seg]) / len, 0.0, 1.0) : 0.0;
        out.push_back(glm::vec3(dense[seg] + t * (dense[seg + 1] - dense[seg])));
    }
    return out;
}

MeshData loftProfile(const std::vector<glm::vec3>& path, const std::function<float(float)>& radius, float ellipse,
                     glm::vec3 width_dir, int rings, int segments) {
    MeshData m;
    std::vector<glm::vec3> st = resampleCurve(path, rings + 1);
    std::vector<Frame> f = frames(st, width_dir);
    std::vector<AxisStation> chain;
    float widest = 0.0f;
    for (int k = 0; k <= rings + 1; ++k) {
        const double r = (k == 0 || k == rings + 1) ? 0.0 : double(radius(float(k) / float(rings + 1)));
        chain.push_back(station(f[size_t(k)], r, ellipse, 0.0));
        widest = std::max(widest, float(r));
    }
    for (AxisStation& a : chain) a.belly = widest > 0.0f ? a.b / widest : 0.0f;
    m.chains = {chain};
    addVertex(m, st.front(), {0, 0});
    std::vector<std::vector<uint32_t>> rs;
    for (int k = 1; k <= rings; ++k)
        rs.push_back(addRing(m, f[size_t(k)], radius(float(k) / float(rings + 1)), ellipse, segments, {0, k}));
    addVertex(m, st.back(), {0, rings + 1});
    cap(m.triangles, 0, rs.front(), true);
    for (size_t k = 0; k + 1 < rs.size(); ++k) strip(m.triangles, rs[k], rs[k + 1]);
    cap(m.triangles, uint32_t(m.vertices.size() - 1), rs.back(), false);
    return m;
}

MeshData loftMuscle(const std::vector<glm::vec3>& path, const LoftShape& s) {
    MeshData m = loftProfile(
        path, [&](float u) { return profile(s, u); }, s.ellipse, s.width_dir, s.rings, s.segments);
    // Sizing grows the belly, not the tendons: belly = (r − r_t)/(r_max − r_t).
    const double rt = s.tendon * s.r_max;
    for (AxisStation& a : m.chains[0]) a.belly = float(std::clamp((double(a.b) - rt) / std::max(1e-9, s.r_max - rt), 0.0, 1.0));
    const uint32_t last = uint32_t(m.vertices.size() - 1);
    std::vector<uint32_t> o{0}, i{last};
    for (int r = 0; r < s.root_rings; ++r)
        for (int j = 0; j < s.segments; ++j) {
            o.push_back(uint32_t(1 + r * s.segments + j));
            i.push_back(uint32_t(1 + (s.rings - 1 - r) * s.segments + j));
        }
    std::sort(o.begin(), o.end());
    std::sort(i.begin(), i.end());
    m.origin_sets = {o};
    m.insertion_sets = {i};
    return m;
}

MeshData loftTwoHeaded(const std::vector<glm::vec3>& head_a, const std::vector<glm::vec3>& head_b,
                       const std::vector<glm::vec3>& belly, const LoftShape& s, float r_head, int head_rings) {
    MeshData m;
    const int S = s.segments - s.segments % 2, M = S / 2;
    // Belly: the merge ring W (u = 0) … insertion pole. Its width axis
    // separates the heads: points with sin θ > 0 lie on head A's side.
    std::vector<glm::vec3> bst = resampleCurve(belly, s.rings + 1);
    glm::vec3 sep = head_a.front() - head_b.front();
    std::vector<Frame> bf = frames(bst, sep);
    auto bellyR = [&](double u) {  // from r_max at the merge down to the tendon
        double rt = s.tendon * s.r_max;
        return rt + (s.r_max - rt) * std::pow(std::max(0.0, std::sin(kLoftPi * (0.5 + 0.5 * u))), double(s.power));
    };
    std::vector<AxisStation> belly_chain;
    std::vector<std::vector<uint32_t>> rings;
    for (int k = 0; k <= s.rings; ++k) {
        const double r = bellyR(double(k) / (s.rings + 1));
        // Sizing grows the belly most a third of the way from the merge to
        // the insertion, where a biceps is thickest, and the heads little
        // (they begin as tendons).
        const double u = double(k) / (s.rings + 1);
        belly_chain.push_back(station(bf[size_t(k)], r, s.ellipse, std::pow(std::sin(kLoftPi * (0.15 + 0.85 * u)), 0.8)));
        rings.push_back(addRing(m, bf[size_t(k)], r, s.ellipse, S, {0, k}));
    }
    belly_chain.push_back(station(bf.back(), 0.0, s.ellipse, 0.0));
    m.chains.push_back(belly_chain);
    const uint32_t ins_pole = addVertex(m, bst.back(), {0, s.rings + 1});
    for (size_t k = 0; k + 1 < rings.size(); ++k) strip(m.triangles, rings[k], rings[k + 1]);
    cap(m.triangles, ins_pole, rings.back(), false);
    // Crotch vertex: the merge centre, pulled back toward the heads.
    const std::vector<uint32_t>& W = rings.front();
    const Frame& f0 = bf.front();
    const uint32_t c = addVertex(m, glm::vec3(f0.c - 0.6 * s.r_max * f0.t));
    std::vector<uint32_t> loop_a, loop_b;
    for (int j = 0; j <= M; ++j) loop_a.push_back(W[size_t(j)]);
    loop_a.push_back(c);
    for (int j = M; j < S; ++j) loop_b.push_back(W[size_t(j)]);
    loop_b.push_back(W[0]);
    loop_b.push_back(c);
    auto head = [&](const std::vector<glm::vec3>& path, const std::vector<uint32_t>& loop) {
        glm::dvec3 centroid(0.0);
        for (uint32_t v : loop) centroid += glm::dvec3(m.vertices[v]);
        centroid /= double(loop.size());
        std::vector<glm::vec3> hp = path;
        hp.back() = glm::vec3(centroid - 1.0 * s.r_max * f0.t);  // ends just before the D-shaped loop
        hp.push_back(glm::vec3(centroid));
        std::vector<glm::vec3> st = resampleCurve(hp, head_rings + 1);
        std::vector<Frame> hf = frames(st, glm::vec3(f0.e2));
        const int chain = int(m.chains.size());
        const uint32_t pole = addVertex(m, st.front(), {chain, 0});
        std::vector<std::vector<uint32_t>> hr;
        const double rt = s.tendon * r_head;
        std::vector<AxisStation> head_chain{station(hf[0], 0.0, s.ellipse, 0.0)};
        for (int k = 1; k <= head_rings; ++k) {
            const double u = double(k) / (head_rings + 1);
            const double r = rt + (r_head - rt) * std::pow(std::sin(0.5 * kLoftPi * u), double(s.power));
            const double blend = std::clamp((u - 0.55) / 0.45, 0.0, 1.0);
            const double b = blend * blend * (3.0 - 2.0 * blend);
            const Frame& f = hf[size_t(k)];
            head_chain.push_back(station(f, r, s.ellipse, 0.35 * (r - rt) / std::max(1e-9, r_head - rt)));
            std::vector<uint32_t> ring;
            for (uint32_t v : loop) {
                glm::dvec3 d = glm::dvec3(m.vertices[v]) - centroid;
                glm::dvec3 dp = d - glm::dot(d, f.t) * f.t;
                double l = glm::length(dp);
                glm::dvec3 dir = l > 1e-12 ? dp / l : f.e2;
                // Elliptic in the head's own frame, blended into the D shape.
                double x = glm::dot(dir, f.e1), y = glm::dot(dir, f.e2);
                glm::dvec3 round = r * (s.ellipse * x * f.e1 + y * f.e2);
                ring.push_back(addVertex(m, glm::vec3(f.c + (1.0 - b) * round + b * d), {chain, k}));
            }
            hr.push_back(ring);
        }
        m.chains.push_back(head_chain);
        cap(m.triangles, pole, hr.front(), true);
        for (size_t k = 0; k + 1 < hr.size(); ++k) strip(m.triangles, hr[k], hr[k + 1]);
        strip(m.triangles, hr.back(), loop);
        std::vector<uint32_t> set{pole};
        set.insert(set.end(), hr.front().begin(), hr.front().end());
        std::sort(set.begin(), set.end());
        m.origin_sets.push_back(set);
    };
    head(head_a, loop_a);
    head(head_b, loop_b);
    std::vector<uint32_t> ins{ins_pole};
    ins.insert(ins.end(), rings.back().begin(), rings.back().end());
    std::sort(ins.begin(), ins.end());
    m.insertion_sets = {ins};
    return m;
}

}  // namespace engine

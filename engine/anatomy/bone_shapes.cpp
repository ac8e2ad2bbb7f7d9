#include "engine/anatomy/bone_shapes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "engine/mesh/mesh_simplify.h"

namespace engine {

namespace {

constexpr float kPiF = 3.14159265358979323846f;

// ------------------------------------------------------------ primitives

float smin(float a, float b, float k) {
    if (k <= 0.0f) return std::min(a, b);
    const float h = std::max(k - std::fabs(a - b), 0.0f) / k;
    return std::min(a, b) - h * h * k * 0.25f;
}
float smax(float a, float b, float k) { return -smin(-a, -b, k); }

struct Prim {
    enum Type { Sphere, Ellipsoid, RoundCone, RoundBox, Triangle, Cylinder } type = Sphere;
    glm::vec3 a{0.0f}, b{0.0f}, c{0.0f};
    float ra = 0.0f, rb = 0.0f;
    glm::vec3 half{0.0f};    // ellipsoid semi-axes / box half extents (local)
    glm::mat3 frame{1.0f};   // columns: local axes in world (orthonormal)
    glm::vec3 lo{0.0f}, hi{0.0f};

    float eval(glm::vec3 p) const {
        switch (type) {
        case Sphere:
            return glm::length(p - a) - ra;
        case Ellipsoid: {
            const glm::vec3 q = glm::transpose(frame) * (p - a);
            const float k0 = glm::length(q / half);
            const float k1 = glm::length(q / (half * half));
            return k1 > 1e-12f ? k0 * (k0 - 1.0f) / k1 : -std::min({half.x, half.y, half.z});
        }
        case RoundCone: {  // Quílez, sdRoundCone(p, a, b, r1, r2)
            const glm::vec3 ba = b - a;
            const float l2 = glm::dot(ba, ba), rr = ra - rb, a2 = l2 - rr * rr;
            if (a2 <= 1e-12f) return std::min(glm::length(p - a) - ra, glm::length(p - b) - rb);
            const float il2 = 1.0f / l2;
            const glm::vec3 pa = p - a;
            const float y = glm::dot(pa, ba), z = y - l2;
            const glm::vec3 xv = pa * l2 - ba * y;
            const float x2 = glm::dot(xv, xv), y2 = y * y * l2, z2 = z * z * l2;
            const float k = (rr > 0 ? 1.0f : (rr < 0 ? -1.0f : 0.0f)) * rr * rr * x2;
            if ((z > 0 ? 1.0f : -1.0f) * a2 * z2 > k) return std::sqrt(x2 + z2) * il2 - rb;
            if ((y > 0 ? 1.0f : -1.0f) * a2 * y2 < k) return std::sqrt(x2 + y2) * il2 - ra;
            return (std::sqrt(x2 * a2 * il2) + y * rr) * il2 - ra;
        }
        case RoundBox: {
            const glm::vec3 q = glm::abs(glm::transpose(frame) * (p - a)) - half + ra;
            return glm::length(glm::max(q, 0.0f)) + std::min(std::max({q.x, q.y, q.z}), 0.0f) - ra;
        }
        case Triangle: {  // Quílez, udTriangle, minus a half thickness
            const glm::vec3 ba = b - a, pa = p - a, cb = c - b, pb = p - b, ac = a - c, pc = p - c;
            const glm::vec3 nor = glm::cross(ba, ac);
            auto sgn = [](float v) { return v > 0 ? 1.0f : (v < 0 ? -1.0f : 0.0f); };
            auto d2 = [](glm::vec3 v) { return glm::dot(v, v); };
            float d;
            if (sgn(glm::dot(glm::cross(ba, nor), pa)) + sgn(glm::dot(glm::cross(cb, nor), pb)) +
                    sgn(glm::dot(glm::cross(ac, nor), pc)) <
                2.0f) {
                d = std::min({d2(ba * std::clamp(glm::dot(ba, pa) / d2(ba), 0.0f, 1.0f) - pa),
                              d2(cb * std::clamp(glm::dot(cb, pb) / d2(cb), 0.0f, 1.0f) - pb),
                              d2(ac * std::clamp(glm::dot(ac, pc) / d2(ac), 0.0f, 1.0f) - pc)});
            } else {
                d = glm::dot(nor, pa) * glm::dot(nor, pa) / d2(nor);
            }
            return std::sqrt(d) - ra;
        }
        case Cylinder: {  // Quílez, sdCappedCylinder(p, a, b, r), rounded by rb
            const glm::vec3 ba = b - a, pa = p - a;
            const float baba = glm::dot(ba, ba), paba = glm::dot(pa, ba);
            const float x = glm::length(pa * baba - ba * paba) - (ra - rb) * baba;
            const float y = std::fabs(paba - baba * 0.5f) - baba * 0.5f + rb * std::sqrt(baba);
            const float x2 = x * x, y2 = y * y * baba;
            const float d = std::max(x, y) < 0.0f ? -std::min(x2, y2 * 1.0f) : (x > 0 ? x2 : 0.0f) + (y > 0 ? y2 : 0.0f);
            return (d > 0 ? 1.0f : -1.0f) * std::sqrt(std::fabs(d)) / baba - rb;
        }
        }
        return 1.0f;
    }
};

// A group of primitives joined by a plain min, then added to (or cut from)
// everything before it with a smooth blend of radius k.
struct Group {
    bool subtract = false;
    float k = 0.0f;
    std::vector<Prim> prims;
};

// The field of one bone: groups in order. Evaluation skips primitives whose
// bounding box (padded by the blend radius and a few cells) is away from the
// point, through a coarse grid of bins: exact near the surface, where the
// polygoniser interpolates, and of the right sign everywhere.
class Field {
public:
    float side = 1.0f;
    // World offset from anatomical (lateral, up, anterior) components.
    glm::vec3 L(float lat, float up, float ant) const { return {side * lat, up, ant}; }

    void begin(float k, bool subtract = false) { groups_.push_back({subtract, k, {}}); }
    void sphere(glm::vec3 c, float r) {
        Prim p;
        p.type = Prim::Sphere;
        p.a = c;
        p.ra = r;
        p.lo = c - r;
        p.hi = c + r;
        add(p);
    }
    void ellipsoid(glm::vec3 c, glm::vec3 semi, glm::mat3 frame = glm::mat3(1.0f)) {
        Prim p;
        p.type = Prim::Ellipsoid;
        p.a = c;
        p.half = semi;
        p.frame = frame;
        const float r = std::max({semi.x, semi.y, semi.z});
        p.lo = c - r;
        p.hi = c + r;
        add(p);
    }
    void cone(glm::vec3 a, float ra, glm::vec3 b, float rb) {
        Prim p;
        p.type = Prim::RoundCone;
        p.a = a;
        p.b = b;
        p.ra = ra;
        p.rb = rb;
        p.lo = glm::min(a - ra, b - rb);
        p.hi = glm::max(a + ra, b + rb);
        add(p);
    }
    void box(glm::vec3 c, glm::vec3 half, float round, glm::mat3 frame = glm::mat3(1.0f)) {
        Prim p;
        p.type = Prim::RoundBox;
        p.a = c;
        p.half = half;
        p.ra = std::min({round, half.x, half.y, half.z});
        p.frame = frame;
        const float r = glm::length(half);
        p.lo = c - r;
        p.hi = c + r;
        add(p);
    }
    void triangle(glm::vec3 a, glm::vec3 b, glm::vec3 c, float half_thickness) {
        Prim p;
        p.type = Prim::Triangle;
        p.a = a;
        p.b = b;
        p.c = c;
        p.ra = half_thickness;
        p.lo = glm::min(glm::min(a, b), c) - half_thickness;
        p.hi = glm::max(glm::max(a, b), c) + half_thickness;
        add(p);
    }
    void cylinder(glm::vec3 a, glm::vec3 b, float r, float round) {
        Prim p;
        p.type = Prim::Cylinder;
        p.a = a;
        p.b = b;
        p.ra = r;
        p.rb = round;
        p.lo = glm::min(a, b) - r;
        p.hi = glm::max(a, b) + r;
        add(p);
    }
    // A bent bar: round cones through a Catmull-Rom curve of the points, the
    // radius interpolated linearly along it.
    void bar(const std::vector<glm::vec3>& pts, const std::vector<float>& radii, int samples = 4) {
        std::vector<glm::vec3> c;
        std::vector<float> r;
        const size_t n = pts.size();
        for (size_t i = 0; i + 1 < n; ++i) {
            const glm::vec3 p0 = pts[i == 0 ? 0 : i - 1], p1 = pts[i], p2 = pts[i + 1], p3 = pts[std::min(i + 2, n - 1)];
            for (int s = 0; s < samples; ++s) {
                const float t = float(s) / float(samples), t2 = t * t, t3 = t2 * t;
                c.push_back(0.5f * ((2.0f * p1) + (-p0 + p2) * t + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                                    (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * t3));
                r.push_back(radii[i] + (radii[i + 1] - radii[i]) * t);
            }
        }
        c.push_back(pts.back());
        r.push_back(radii.back());
        for (size_t i = 0; i + 1 < c.size(); ++i) cone(c[i], r[i], c[i + 1], r[i + 1]);
    }

    // Bounds of everything added (not cut).
    void bounds(glm::vec3& lo, glm::vec3& hi) const {
        lo = glm::vec3(1e9f);
        hi = glm::vec3(-1e9f);
        for (const Group& g : groups_)
            if (!g.subtract)
                for (const Prim& p : g.prims) {
                    lo = glm::min(lo, p.lo);
                    hi = glm::max(hi, p.hi);
                }
    }

    void prepare(float cell) {
        bounds(lo_, hi_);
        const float pad_base = 4.0f * cell;
        lo_ -= 0.02f;
        hi_ += 0.02f;
        bin_ = 0.012f;
        for (int a = 0; a < 3; ++a) dim_[a] = std::max(1, int(std::ceil((hi_[a] - lo_[a]) / bin_)));
        bins_.assign(size_t(dim_.x) * size_t(dim_.y) * size_t(dim_.z), {});
        for (uint32_t gi = 0; gi < groups_.size(); ++gi) {
            const float pad = pad_base + groups_[gi].k;
            for (uint32_t pi = 0; pi < groups_[gi].prims.size(); ++pi) {
                const Prim& p = groups_[gi].prims[pi];
                glm::ivec3 a = binOf(p.lo - pad), b = binOf(p.hi + pad);
                for (int z = a.z; z <= b.z; ++z)
                    for (int y = a.y; y <= b.y; ++y)
                        for (int x = a.x; x <= b.x; ++x) bins_[index(x, y, z)].push_back({gi, pi});
            }
        }
    }

    float operator()(glm::vec3 p) const {
        constexpr float kFar = 1.0f;
        const glm::ivec3 b = binOf(p);
        const auto& list = bins_[index(b.x, b.y, b.z)];
        float acc = kFar, g = kFar;
        uint32_t cur = UINT32_MAX;
        auto flush = [&]() {
            if (cur == UINT32_MAX) return;
            const Group& gr = groups_[cur];
            acc = gr.subtract ? smax(acc, -g, gr.k) : smin(acc, g, gr.k);
        };
        for (const auto& [gi, pi] : list) {
            if (gi != cur) {
                flush();
                cur = gi;
                g = kFar;
            }
            g = std::min(g, groups_[gi].prims[pi].eval(p));
        }
        flush();
        return acc;
    }

private:
    std::vector<Group> groups_;
    glm::vec3 lo_{0.0f}, hi_{0.0f};
    float bin_ = 0.01f;
    glm::ivec3 dim_{1};
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> bins_;

    void add(const Prim& p) {
        if (groups_.empty()) begin(0.0f);
        groups_.back().prims.push_back(p);
    }
    glm::ivec3 binOf(glm::vec3 p) const {
        glm::ivec3 r;
        for (int a = 0; a < 3; ++a) r[a] = std::clamp(int(std::floor((p[a] - lo_[a]) / bin_)), 0, dim_[a] - 1);
        return r;
    }
    size_t index(int x, int y, int z) const {
        return (size_t(z) * size_t(dim_.y) + size_t(y)) * size_t(dim_.x) + size_t(x);
    }
};

// Point at fraction u of the bone's axis.
struct Axis {
    glm::vec3 head, tail;
    glm::vec3 at(float u) const { return head + u * (tail - head); }
    glm::vec3 dir() const { return glm::normalize(tail - head); }
    float length() const { return glm::length(tail - head); }
};

// ------------------------------------------------------------ arm
// Landmarks follow docs/anatomy.md (shoulder SH, elbow E, wrist W); offsets
// are (lateral, up, anterior) in metres.

void humerus(Field& f, const BoneShapeInput& b) {
    const Axis ax{b.head, b.tail};
    const glm::vec3 SH = b.head, E = b.tail;
    const float r = b.radius;
    // Shaft: exactly the capsule from 12 % to 80 % of the length.
    f.begin(0.0f);
    f.cone(ax.at(0.12f), r, ax.at(0.80f), r);
    f.cone(SH + f.L(0.006f, -0.03f, 0.0f), 0.017f, ax.at(0.12f), r);  // surgical neck
    // Head (r 2.2 cm) facing the glenoid, greater and lesser tubercles.
    f.begin(0.006f);
    f.sphere(SH, 0.022f);
    f.begin(0.006f);
    f.ellipsoid(SH + f.L(0.016f, -0.01f, 0.0f), {0.010f, 0.017f, 0.013f});
    f.begin(0.004f);
    f.sphere(SH + f.L(0.004f, -0.013f, 0.016f), 0.0065f);
    // Intertubercular (bicipital) groove.
    f.begin(0.002f, true);
    f.cone(SH + f.L(0.011f, 0.005f, 0.021f), 0.0032f, SH + f.L(0.007f, -0.05f, 0.013f), 0.0025f);
    // Distal end: flattened supracondylar flare, trochlea (spool, medial),
    // capitulum (lateral, above the radial head), epicondyles.
    f.begin(0.010f);
    f.ellipsoid(E + glm::vec3(0.0f, 0.027f, -0.002f), {0.026f, 0.034f, 0.0085f});
    f.begin(0.003f);
    f.cylinder(E + f.L(-0.019f, 0.0f, 0.0f), E + f.L(-0.013f, 0.0f, 0.0f), 0.0122f, 0.002f);
    f.cylinder(E + f.L(-0.005f, 0.0f, 0.0f), E + f.L(0.001f, 0.0f, 0.0f), 0.0115f, 0.002f);
    f.cylinder(E + f.L(-0.015f, 0.0f, 0.0f), E + f.L(-0.003f, 0.0f, 0.0f), 0.0095f, 0.001f);
    f.begin(0.003f);
    f.sphere(E + f.L(0.0125f, 0.001f, 0.004f), 0.0095f);
    f.begin(0.006f);
    f.ellipsoid(E + f.L(-0.030f, 0.007f, -0.004f), {0.010f, 0.009f, 0.008f});
    f.begin(0.005f);
    f.sphere(E + f.L(0.025f, 0.009f, -0.002f), 0.0065f);
    // Olecranon fossa (posterior) and coronoid fossa (anterior).
    f.begin(0.003f, true);
    f.ellipsoid(E + f.L(-0.005f, 0.021f, -0.012f), {0.009f, 0.012f, 0.0045f});
    f.begin(0.003f, true);
    f.ellipsoid(E + f.L(-0.006f, 0.017f, 0.0105f), {0.007f, 0.007f, 0.003f});
}

// The radial head's disc (shared by the radius and the ulna's radial notch).
struct RadialHead {
    glm::vec3 top, bottom;
    float r;
};
RadialHead radialHead(glm::vec3 head, glm::vec3 dir) { return {head - 0.0005f * dir, head + 0.0085f * dir, 0.0105f}; }

void ulna(Field& f, const BoneShapeInput& b) {
    const Axis ax{b.head, b.tail};
    const glm::vec3 E = b.head, Wu = b.tail;
    const float r = b.radius;
    // Proximal block: olecranon behind, coronoid in front; the trochlear
    // notch is cut around the flexion axis (X through E).
    f.begin(0.0f);
    f.cone(E + glm::vec3(0.0f, -0.036f, -0.006f), 0.0095f, E + glm::vec3(0.0f, 0.015f, -0.016f), 0.0085f);
    f.begin(0.004f);
    f.cone(E + glm::vec3(0.0f, -0.027f, -0.002f), 0.008f, E + f.L(-0.002f, -0.011f, 0.012f), 0.005f);
    // Shaft: the capsule from 30 % to 75 %, thinning to the head.
    f.begin(0.006f);
    f.bar({E + glm::vec3(0.0f, -0.03f, -0.006f), ax.at(0.3f), ax.at(0.75f), ax.at(0.94f)}, {0.0095f, r, r, 0.006f});
    f.begin(0.004f);
    f.sphere(Wu + glm::vec3(0.0f, 0.008f, 0.0f), 0.0085f);
    f.cone(Wu + f.L(-0.003f, 0.006f, -0.004f), 0.004f, Wu + f.L(-0.004f, -0.008f, -0.004f), 0.0025f);
    f.begin(0.002f, true);
    f.cylinder(E + f.L(-0.03f, 0.0f, 0.0f), E + f.L(0.012f, 0.0f, 0.0f), 0.0128f, 0.0f);
}

void radius(Field& f, const BoneShapeInput& b, glm::vec3 capitulum) {
    const Axis ax{b.head, b.tail};
    const glm::vec3 d = ax.dir(), Rt = b.tail;
    const float r = b.radius;
    const RadialHead h = radialHead(b.head, d);
    f.begin(0.0f);
    f.cylinder(h.top, h.bottom, h.r, 0.0018f);
    f.begin(0.003f);
    f.cone(b.head + 0.008f * d, 0.0065f, b.head + 0.03f * d, 0.006f);
    // Radial tuberosity (medial, anterior), shaft, distal widening.
    f.begin(0.004f);
    f.ellipsoid(b.head + 0.04f * d + f.L(-0.0045f, 0.0f, 0.0025f), {0.005f, 0.009f, 0.005f});
    f.begin(0.004f);
    f.bar({b.head + 0.03f * d, ax.at(0.3f), ax.at(0.7f), ax.at(0.88f)}, {0.006f, r, r, 0.0105f});
    // The distal end ~3.2 cm across, flaring medially to meet the ulna's
    // head: its styloid's tip ~5.1 cm from the ulna's edge, the bistyloid
    // breadth of a wrist 16.5 cm round (at 6.8 cm the styloid stood 9 mm
    // out of the wrist's skin and a skin fitted over it was 19 cm round).
    f.begin(0.008f);
    f.box(Rt + glm::vec3(0.0f, 0.009f, 0.0f) + f.L(-0.012f, 0.0f, 0.0f), {0.0145f, 0.010f, 0.008f}, 0.006f);
    f.begin(0.004f);
    f.cone(Rt + f.L(0.003f, 0.006f, 0.0f), 0.006f, Rt + f.L(0.007f, -0.008f, 0.0f), 0.003f);  // styloid
    // Fovea: the disc's top is dished under the capitulum.
    f.begin(0.002f, true);
    f.sphere(capitulum, 0.0112f);
}

// Elbow landmarks shared by the humerus and the forearm bones.
glm::vec3 capitulumOf(glm::vec3 elbow, float side) { return elbow + glm::vec3(side * 0.0125f, 0.001f, 0.004f); }

void ulnaWithNotch(Field& f, const BoneShapeInput& b) {
    ulna(f, b);
    // Radial notch: room for the radial head (radius head 1.5 cm lateral of E).
    const glm::vec3 rh = b.head + f.L(0.015f, -0.01f, 0.005f);
    const RadialHead h = radialHead(rh, glm::vec3(0, -1, 0));
    f.begin(0.002f, true);
    f.cylinder(h.top + glm::vec3(0, 0.002f, 0), h.bottom - glm::vec3(0, 0.002f, 0), h.r + 0.0012f, 0.0f);
}

void hand(Field& f, const BoneShapeInput& b) {
    const glm::vec3 W = b.head;
    // Carpals: two rows of four, blended into a knobbly block.
    const float prox[4] = {0.015f, 0.004f, -0.007f, -0.016f};
    for (int i = 0; i < 4; ++i) {
        f.begin(0.003f);
        f.sphere(W + f.L(prox[i], -0.011f, i == 3 ? 0.006f : 0.0f), i == 3 ? 0.0055f : 0.0075f);
    }
    const float dist[4] = {0.019f, 0.008f, -0.002f, -0.013f};
    for (int i = 0; i < 4; ++i) {
        f.begin(0.003f);
        f.sphere(W + f.L(dist[i], -0.027f, 0.001f), i == 2 ? 0.0082f : 0.0072f);
    }
    // Metacarpals 2–5 fanning out, fingers (three phalanges) slightly flexed.
    struct Ray {
        float lat_base, lat_head, len_mc, ph[3];
    };
    const Ray rays[4] = {{0.012f, 0.021f, 0.062f, {0.040f, 0.024f, 0.017f}},
                         {0.003f, 0.006f, 0.064f, {0.045f, 0.028f, 0.018f}},
                         {-0.005f, -0.009f, 0.059f, {0.042f, 0.026f, 0.018f}},
                         {-0.013f, -0.023f, 0.053f, {0.033f, 0.019f, 0.016f}}};
    // A fist: the joints flex ~85°, 100° and 65° (knuckle, middle, end), so
    // the fingertips come back against the palm; open, ~12° each.
    const float fist_flex[3] = {1.48f, 1.75f, 1.13f};
    for (const Ray& ry : rays) {
        const glm::vec3 base = W + f.L(ry.lat_base, -0.034f, 0.001f);
        glm::vec3 head = W + f.L(ry.lat_head, -0.034f - ry.len_mc, 0.004f);
        f.begin(0.003f);
        f.cone(base, 0.0052f, base + 0.25f * (head - base), 0.0036f);
        f.cone(base + 0.25f * (head - base), 0.0036f, head, 0.0036f);
        f.sphere(head, 0.0056f);
        glm::vec3 dir = glm::normalize(head - base);
        glm::vec3 p = head;
        const float rad[3][2] = {{0.0048f, 0.0038f}, {0.0040f, 0.0032f}, {0.0033f, 0.0026f}};
        // The flexion axis: across the finger, so it curls towards the palm (+Z).
        const glm::vec3 across = glm::normalize(glm::cross(dir, glm::vec3(0, 0, 1)));
        for (int k = 0; k < 3; ++k) {
            // Each joint flexes ~12° towards the palm (anterior, +Z), or a fist's.
            if (b.fist)
                dir = glm::normalize(glm::angleAxis(fist_flex[k], across) * dir);
            else
                dir = glm::normalize(dir + 0.21f * glm::vec3(0, 0, 1));
            const glm::vec3 q = p + ry.ph[k] * dir;
            f.cone(p + 0.004f * dir, rad[k][0], q - 0.002f * dir, rad[k][1]);
            f.sphere(q - 0.002f * dir, rad[k][1] + 0.0006f);
            p = q;
        }
    }
    // Thumb: metacarpal and two phalanges, lateral and forward of the palm.
    {
        const glm::vec3 base = W + f.L(0.022f, -0.030f, 0.006f);
        // In a fist the thumb lies forward, across the middle phalanges of
        // the index and middle fingers.
        glm::vec3 dir = glm::normalize(b.fist ? f.L(0.2f, -0.75f, 0.65f) : f.L(0.45f, -1.0f, 0.45f));
        const glm::vec3 curl = b.fist ? f.L(-0.55f, 0.0f, 0.1f) : f.L(-0.25f, 0.0f, 0.12f);
        const float len[3] = {0.042f, 0.030f, 0.022f};
        const float rad[3][2] = {{0.0055f, 0.0042f}, {0.0048f, 0.0038f}, {0.0040f, 0.0030f}};
        glm::vec3 p = base;
        f.begin(0.003f);
        for (int k = 0; k < 3; ++k) {
            const glm::vec3 q = p + len[k] * dir;
            f.cone(p + (k ? 0.004f : 0.0f) * dir, rad[k][0], q - 0.002f * dir, rad[k][1]);
            f.sphere(q - 0.002f * dir, rad[k][1] + 0.0008f);
            p = q;
            dir = glm::normalize(dir + curl);  // curls towards the palm
        }
    }
}

void clavicle(Field& f, const BoneShapeInput& b) {
    // S-curve: the medial two thirds bow forward, the lateral third back.
    const Axis ax{b.head, b.tail};
    const glm::vec3 A(0, 0, 1);
    std::vector<glm::vec3> pts = {ax.at(0.0f), ax.at(0.33f) + 0.007f * A, ax.at(0.68f) + 0.0005f * A,
                                  ax.at(0.88f) - 0.0055f * A, ax.at(1.0f) - 0.002f * A};
    f.begin(0.0f);
    f.bar(pts, {0.0088f, 0.0066f, 0.0058f, 0.0062f, 0.0055f}, 5);
    f.begin(0.004f);
    f.ellipsoid(ax.at(0.94f) - 0.004f * A, {0.008f, 0.0045f, 0.009f});  // flattened acromial end
    f.begin(0.003f);
    f.ellipsoid(ax.at(0.02f), {0.008f, 0.009f, 0.009f});  // sternal end
}

void scapula(Field& f, const BoneShapeInput& b, glm::vec3 SH) {
    // Blade: two thick triangles (lateral angle, superior angle, spine root,
    // inferior angle) on the back of the rib cage; lateral border thicker.
    const glm::vec3 LA = SH + f.L(-0.040f, -0.022f, -0.030f), SA = SH + f.L(-0.100f, 0.022f, -0.068f),
                    RS = SH + f.L(-0.108f, -0.020f, -0.075f), IA = SH + f.L(-0.088f, -0.148f, -0.084f);
    (void)b;
    glm::vec3 n = glm::normalize(glm::cross(SA - LA, IA - LA));
    if (n.z > 0) n = -n;  // posterior
    f.begin(0.0f);
    f.triangle(LA, SA, RS, 0.0019f);
    f.triangle(LA, RS, IA, 0.0019f);
    f.begin(0.004f);
    f.bar({LA, 0.5f * (LA + IA) + 0.002f * n, IA}, {0.0055f, 0.0042f, 0.0048f});  // lateral border
    f.bar({SA, RS, IA}, {0.003f, 0.0028f, 0.0035f});                              // medial border
    // Glenoid (faces lateral) on its neck; the humeral head's sphere is cut
    // out of it below.
    const glm::vec3 G = SH + f.L(-0.027f, -0.002f, -0.003f);
    f.begin(0.005f);
    f.ellipsoid(G, {0.006f, 0.018f, 0.0125f});
    f.cone(G + f.L(-0.006f, 0.0f, -0.002f), 0.0095f, LA, 0.006f);
    // Spine: a ridge standing off the blade from the root to the acromion.
    const glm::vec3 AB = SH + f.L(-0.012f, 0.026f, -0.040f);
    const glm::vec3 s0 = RS + 0.004f * n, s1 = 0.5f * (RS + AB) + 0.012f * n + glm::vec3(0, 0.004f, 0);
    f.begin(0.004f);
    f.bar({s0, s1, AB}, {0.0025f, 0.0035f, 0.0055f});
    // The spine's plate: from the crest down onto the blade (points projected on it).
    auto onBlade = [&](glm::vec3 p) { return p - glm::dot(p - LA, n) * n; };
    f.triangle(onBlade(RS + f.L(0.008f, 0.0f, 0.0f)), s1, onBlade(SH + f.L(-0.042f, 0.002f, -0.036f)), 0.0016f);
    f.triangle(onBlade(SH + f.L(-0.042f, 0.002f, -0.036f)), s1, AB, 0.0018f);
    // Acromion: a flat roof over the humeral head, meeting the clavicle.
    f.begin(0.005f);
    f.ellipsoid(SH + f.L(0.0f, 0.032f, -0.010f), {0.016f, 0.0045f, 0.013f});
    f.cone(AB, 0.0055f, SH + f.L(0.0f, 0.032f, -0.012f), 0.005f);
    // Coracoid: a hook from the glenoid's top, forward and lateral.
    f.begin(0.004f);
    f.bar({G + f.L(-0.006f, 0.014f, 0.004f), SH + f.L(-0.032f, 0.026f, 0.018f), SH + f.L(-0.026f, 0.019f, 0.034f)},
          {0.0055f, 0.0048f, 0.0038f});
    f.begin(0.002f, true);
    f.sphere(SH, 0.0232f);
}

// ------------------------------------------------------------ leg

void femur(Field& f, const BoneShapeInput& b) {
    const Axis ax{b.head, b.tail};
    const glm::vec3 H = b.head, K = b.tail;
    const float r = b.radius;
    f.begin(0.0f);
    f.sphere(H, 0.023f);  // head
    f.begin(0.008f);
    f.cone(H + f.L(0.01f, -0.006f, 0.0f), 0.015f, H + f.L(0.040f, -0.032f, 0.0f), 0.016f);  // neck
    // Shaft: from under the greater trochanter back onto the capsule's axis
    // by 27 % of the length; the capsule from there to 75 %.
    f.begin(0.006f);
    f.bar({H + f.L(0.044f, -0.030f, 0.0f), H + f.L(0.032f, -0.085f, 0.003f), ax.at(0.27f), ax.at(0.4f), ax.at(0.75f),
           ax.at(0.9f) + glm::vec3(0, 0, -0.003f)},
          {0.0175f, 0.0155f, r, r, r, 0.018f});
    f.begin(0.008f);
    f.ellipsoid(H + f.L(0.052f, -0.021f, -0.008f), {0.013f, 0.022f, 0.016f});  // greater trochanter
    f.begin(0.005f);
    f.sphere(H + f.L(0.022f, -0.07f, -0.013f), 0.0075f);  // lesser trochanter
    // Condyles, the patellar surface in front, intercondylar notch behind.
    f.begin(0.008f);
    f.ellipsoid(K + f.L(-0.021f, 0.017f, -0.008f), {0.0155f, 0.020f, 0.026f});
    f.ellipsoid(K + f.L(0.021f, 0.017f, -0.007f), {0.0145f, 0.020f, 0.025f});
    f.begin(0.012f);
    f.ellipsoid(K + glm::vec3(0.0f, 0.04f, 0.002f), {0.030f, 0.035f, 0.016f});
    f.begin(0.003f, true);
    f.ellipsoid(K + glm::vec3(0.0f, 0.004f, -0.016f), {0.0065f, 0.016f, 0.02f});
}

void tibia(Field& f, const BoneShapeInput& b) {
    const Axis ax{b.head, b.tail};
    const glm::vec3 K = b.head, A = b.tail;
    const float r = b.radius;
    // Plateau, tuberosity, shaft, distal end with the medial malleolus.
    f.begin(0.0f);
    f.box(K + glm::vec3(0.0f, -0.020f, -0.004f), {0.036f, 0.0105f, 0.024f}, 0.008f);
    f.begin(0.010f);
    f.bar({K + glm::vec3(0.0f, -0.028f, -0.002f), K + glm::vec3(0.0f, -0.06f, 0.003f), ax.at(0.25f), ax.at(0.78f),
           ax.at(0.93f)},
          {0.024f, 0.017f, r, r, 0.0165f});
    f.begin(0.006f);
    f.ellipsoid(K + glm::vec3(0.0f, -0.05f, 0.018f), {0.009f, 0.014f, 0.006f});
    f.begin(0.010f);
    f.ellipsoid(A + glm::vec3(0.0f, 0.019f, 0.0f), {0.021f, 0.022f, 0.018f});
    f.begin(0.004f);
    f.cone(A + f.L(-0.016f, 0.01f, 0.002f), 0.008f, A + f.L(-0.019f, -0.011f, 0.002f), 0.0055f);
    // Fibula (its own piece, lateral and behind, clear of the tibia).
    f.begin(0.0f);
    f.ellipsoid(K + f.L(0.037f, -0.048f, -0.019f), {0.0085f, 0.009f, 0.0085f});
    f.begin(0.005f);
    f.bar({K + f.L(0.037f, -0.052f, -0.019f), ax.at(0.5f) + f.L(0.033f, 0.0f, -0.013f), A + f.L(0.034f, 0.02f, -0.009f)},
          {0.0062f, 0.0055f, 0.006f});
    f.begin(0.005f);
    f.ellipsoid(A + f.L(0.035f, -0.004f, -0.009f), {0.0065f, 0.017f, 0.009f});
}

// The kneecap, its own bone (body_plan.cpp): an oval plate centred on its
// joint, its apex (lower pole) a little narrower.
void patella(Field& f, const BoneShapeInput& b) {
    f.begin(0.0f);
    f.ellipsoid(b.head, {kPatellaHalfWidth, 0.021f, kPatellaHalfThickness});
    f.begin(0.004f);
    f.ellipsoid(b.head + glm::vec3(0.0f, -0.014f, 0.0f), {0.013f, 0.012f, 0.8f * kPatellaHalfThickness});
}

void foot(Field& f, const BoneShapeInput& b) {
    const glm::vec3 A = b.head;
    // Tarsals: talus, calcaneus, navicular, cuboid, cuneiforms blended.
    f.begin(0.0f);
    f.ellipsoid(A + glm::vec3(0.0f, -0.019f, 0.006f), {0.016f, 0.0125f, 0.021f});
    f.ellipsoid(A + glm::vec3(0.0f, -0.023f, 0.026f), {0.011f, 0.0095f, 0.012f});  // talar head
    f.begin(0.006f);
    f.cone(A + f.L(0.002f, -0.036f, 0.004f), 0.0135f, A + f.L(0.005f, -0.050f, -0.045f), 0.0135f);
    f.cone(A + f.L(0.002f, -0.036f, 0.004f), 0.0135f, A + f.L(0.010f, -0.042f, 0.032f), 0.0105f);
    const glm::vec3 tars[5] = {f.L(-0.008f, -0.028f, 0.038f), f.L(0.018f, -0.042f, 0.045f), f.L(-0.014f, -0.035f, 0.058f),
                               f.L(-0.003f, -0.036f, 0.059f), f.L(0.007f, -0.038f, 0.058f)};
    const glm::vec3 semi[5] = {{0.015f, 0.010f, 0.008f}, {0.011f, 0.010f, 0.014f}, {0.0065f, 0.011f, 0.009f},
                               {0.0055f, 0.010f, 0.008f}, {0.0055f, 0.010f, 0.008f}};
    for (int i = 0; i < 5; ++i) {
        f.begin(0.004f);
        f.ellipsoid(A + tars[i], semi[i]);
    }
    // Metatarsals and toes (big toe medial: two phalanges, the others three).
    const float lat_b[5] = {-0.015f, -0.004f, 0.005f, 0.013f, 0.022f}, lat_h[5] = {-0.022f, -0.007f, 0.005f, 0.016f, 0.027f};
    const float z_b[5] = {0.066f, 0.068f, 0.066f, 0.063f, 0.056f}, z_h[5] = {0.150f, 0.148f, 0.142f, 0.135f, 0.127f};
    for (int i = 0; i < 5; ++i) {
        const float big = i == 0 ? 1.45f : 1.0f;
        const glm::vec3 base = A + f.L(lat_b[i], -0.044f, z_b[i]), head = A + f.L(lat_h[i], -0.060f, z_h[i]);
        f.begin(0.003f);
        f.cone(base, 0.0055f * big, base + 0.3f * (head - base), 0.0037f * big);
        f.cone(base + 0.3f * (head - base), 0.0037f * big, head, 0.0042f * big);
        f.sphere(head, 0.0052f * big);
        glm::vec3 dir = glm::normalize(glm::vec3(f.side * (lat_h[i] - lat_b[i]) * 0.5f, -0.1f, 1.0f));
        glm::vec3 p = head;
        const int n = i == 0 ? 2 : 3;
        const float len[3] = {i == 0 ? 0.028f : 0.018f, i == 0 ? 0.024f : 0.011f, 0.009f};
        for (int k = 0; k < n; ++k) {
            const glm::vec3 q = p + len[k] * dir;
            f.cone(p + 0.004f * dir, 0.0036f * big, q - 0.0015f * dir, 0.0028f * big);
            f.sphere(q - 0.0015f * dir, 0.0031f * big);
            p = q;
            dir = glm::normalize(dir + glm::vec3(0, -0.15f, 0));
        }
    }
}

// ------------------------------------------------------------ trunk

void pelvis(Field& f, const BoneShapeInput& b) {
    const glm::vec3 P = b.head;
    for (float s : {-1.0f, 1.0f}) {
        f.side = s;
        const glm::vec3 H = P + f.L(0.084f, -0.066f, -0.021f);  // hip joint (docs/anatomy.md)
        // Acetabulum: a thick cup around the femoral head (cut below).
        f.begin(0.006f);
        f.sphere(H + f.L(-0.003f, 0.002f, 0.0f), 0.031f);
        // Ilium: a thin flaring wing fanned from the acetabular roof to the
        // crest (ASIS → crest → PSIS) and down the sciatic notch.
        const glm::vec3 AR = P + f.L(0.078f, -0.036f, -0.022f);
        const std::vector<glm::vec3> crest = {P + f.L(0.112f, 0.040f, 0.046f), P + f.L(0.134f, 0.085f, 0.016f),
                                              P + f.L(0.132f, 0.108f, -0.028f), P + f.L(0.100f, 0.098f, -0.066f),
                                              P + f.L(0.062f, 0.072f, -0.086f)};
        const glm::vec3 si = P + f.L(0.060f, 0.028f, -0.078f), notch = P + f.L(0.068f, -0.042f, -0.058f);
        f.begin(0.005f);
        for (size_t i = 0; i + 1 < crest.size(); ++i) f.triangle(AR, crest[i], crest[i + 1], 0.0026f);
        f.triangle(AR, crest.back(), si, 0.0028f);
        f.triangle(AR, si, notch, 0.0032f);
        f.triangle(AR, P + f.L(0.098f, 0.01f, 0.05f), crest[0], 0.003f);  // AIIS region
        f.begin(0.004f);
        f.bar(crest, {0.005f, 0.0055f, 0.006f, 0.0055f, 0.006f});
        f.bar({crest.back(), si, notch}, {0.006f, 0.0055f, 0.004f});
        // Ischium to its tuberosity; pubic rami around the obturator foramen.
        const glm::vec3 IT = P + f.L(0.062f, -0.138f, -0.045f);
        f.begin(0.006f);
        f.bar({H + f.L(-0.004f, -0.024f, -0.018f), P + f.L(0.068f, -0.115f, -0.05f), IT}, {0.0085f, 0.009f, 0.0105f});
        const glm::vec3 SY = P + f.L(0.0085f, -0.085f, 0.053f);
        f.begin(0.005f);
        f.bar({H + f.L(-0.016f, -0.004f, 0.016f), P + f.L(0.035f, -0.068f, 0.048f), SY}, {0.0075f, 0.0068f, 0.007f});
        f.ellipsoid(SY, {0.0055f, 0.018f, 0.008f});
        f.bar({SY + glm::vec3(0, -0.014f, -0.004f), P + f.L(0.036f, -0.125f, 0.01f), IT + f.L(-0.004f, 0.004f, 0.018f)},
              {0.006f, 0.0055f, 0.007f});
    }
    f.side = 1.0f;
    // Sacrum: a thick curved wedge between the ilia, the coccyx below.
    f.begin(0.006f);
    const glm::vec3 top = P + glm::vec3(0.0f, 0.052f, -0.064f);
    f.triangle(top + glm::vec3(-0.038f, -0.004f, 0.0f), top + glm::vec3(0.038f, -0.004f, 0.0f),
               P + glm::vec3(0.0f, -0.045f, -0.094f), 0.0085f);
    f.ellipsoid(top + glm::vec3(0.0f, 0.003f, 0.012f), {0.024f, 0.009f, 0.017f});  // S1 body
    f.begin(0.003f);
    f.cone(P + glm::vec3(0.0f, -0.045f, -0.094f), 0.006f, P + glm::vec3(0.0f, -0.068f, -0.09f), 0.0035f);
    // Sockets for the femoral heads (r 2.3 cm), open laterally and down.
    for (float s : {-1.0f, 1.0f}) {
        f.side = s;
        const glm::vec3 H = P + f.L(0.084f, -0.066f, -0.021f);
        f.begin(0.002f, true);
        f.sphere(H, 0.0245f);
        f.sphere(H + f.L(0.030f, -0.012f, 0.008f), 0.0235f);
    }
    f.side = 1.0f;
}

// Spine centre line (up, anterior) from the torso bone's head, docs/anatomy.md.
void torso(Field& f, const BoneShapeInput& b) {
    const glm::vec3 T = b.head;
    const float scale = glm::length(b.tail - b.head) / 0.42f;
    auto S = [&](float up, float ant) { return T + scale * glm::vec3(0.0f, up, ant); };
    // Dense centre line by Catmull-Rom.
    const std::vector<glm::vec3> ctrl = {S(-0.022f, -0.026f), S(0.06f, -0.012f), S(0.16f, -0.026f), S(0.28f, -0.044f),
                                         S(0.40f, -0.034f),   S(0.47f, -0.02f),  S(0.55f, -0.014f)};
    std::vector<glm::vec3> line;
    for (size_t i = 0; i + 1 < ctrl.size(); ++i) {
        const glm::vec3 p0 = ctrl[i ? i - 1 : 0], p1 = ctrl[i], p2 = ctrl[i + 1], p3 = ctrl[std::min(i + 2, ctrl.size() - 1)];
        for (int s = 0; s < 40; ++s) {
            const float t = float(s) / 40.0f, t2 = t * t, t3 = t2 * t;
            line.push_back(0.5f * ((2.0f * p1) + (-p0 + p2) * t + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                                   (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * t3));
        }
    }
    line.push_back(ctrl.back());
    auto atY = [&](float y) {  // point of the line at height y
        for (size_t i = 1; i < line.size(); ++i)
            if (line[i].y >= y) {
                const float t = (y - line[i - 1].y) / std::max(1e-6f, line[i].y - line[i - 1].y);
                return glm::mix(line[i - 1], line[i], t);
            }
        return line.back();
    };
    // 24 vertebrae, bottom (L5) to top (C1): body, disc below, spinous and
    // transverse processes. Rib k leaves thoracic vertebra T_k.
    struct Level {
        float y0, y1;  // body bottom, top (up from T)
        float r;       // body radius
        int kind;      // 0 lumbar, 1 thoracic, 2 cervical
        int rib;       // 1–12 for T1–T12
    };
    std::vector<Level> lv;
    {
        float y = -0.022f;
        for (int i = 0; i < 5; ++i, y += 0.037f) lv.push_back({y, y + 0.028f, 0.021f - 0.0008f * float(i), 0, 0});
        y = 0.163f;
        for (int i = 0; i < 12; ++i, y += 0.0215f) lv.push_back({y, y + 0.0165f, 0.0175f - 0.0005f * float(i), 1, 12 - i});
        y = 0.4225f;
        for (int i = 0; i < 7; ++i, y += 0.0182f) lv.push_back({y, y + 0.0128f, i == 6 ? 0.0085f : 0.0105f, 2, 0});
    }
    std::vector<std::pair<glm::vec3, int>> rib_roots;  // transverse tip, rib number
    for (size_t i = 0; i < lv.size(); ++i) {
        const Level& l = lv[i];
        const glm::vec3 c0 = atY(T.y + scale * l.y0), c1 = atY(T.y + scale * l.y1);
        const glm::vec3 up = glm::normalize(c1 - c0), mid = 0.5f * (c0 + c1);
        const glm::vec3 back = glm::normalize(glm::vec3(0, 0, -1) - glm::dot(glm::vec3(0, 0, -1), up) * up);
        f.begin(0.0f);
        f.cylinder(c0, c1, l.r * scale, 0.003f);
        if (i + 1 < lv.size()) {  // disc up to the next body
            const glm::vec3 n0 = atY(T.y + scale * lv[i + 1].y0);
            f.cylinder(c1 - 0.001f * up, n0 + 0.001f * up, 0.82f * std::min(l.r, lv[i + 1].r) * scale, 0.002f);
        }
        // Arch and spinous process (thoracic ones point steeply down).
        const float len = l.kind == 0 ? 0.034f : (l.kind == 1 ? 0.036f : (i + 1 == lv.size() ? 0.012f : 0.020f));
        const float droop = l.kind == 0 ? 0.004f : (l.kind == 1 ? 0.018f : 0.006f);
        const glm::vec3 arch = mid + (l.r * scale + 0.006f) * back;
        const glm::vec3 tip = arch + len * scale * back - droop * scale * up;
        f.begin(0.004f);
        const float ar = l.kind == 0 ? 0.0065f : (l.kind == 1 ? 0.0055f : 0.0042f);
        f.cone(mid + 0.5f * l.r * scale * back, ar, arch, ar);
        if (l.kind == 0)
            f.triangle(arch - 0.006f * up, arch + 0.006f * up, tip, 0.003f);
        f.cone(arch, 0.0045f, tip, l.kind == 0 ? 0.005f : 0.003f);
        // Transverse processes.
        const float tl = l.kind == 0 ? 0.036f : (l.kind == 1 ? 0.030f : 0.022f);
        for (float s : {-1.0f, 1.0f}) {
            const glm::vec3 tt = mid + (l.kind == 1 ? 0.6f : 0.3f) * (l.r * scale + 0.012f) * back +
                                 glm::vec3(s * tl * scale, 0.0f, 0.0f) - 0.002f * up;
            f.cone(arch - 0.004f * back, 0.0042f, tt, 0.0035f);
            if (l.rib) rib_roots.push_back({tt, l.rib * int(s)});
        }
    }
    // Ribs: curved bars around an ellipse per level, descending forward;
    // true ribs end short of the sternum (their costal cartilage below),
    // 11 and 12 float.
    const float a_k[12] = {0.038f, 0.056f, 0.070f, 0.080f, 0.088f, 0.093f, 0.096f, 0.097f, 0.096f, 0.093f, 0.086f, 0.076f};
    const float b_k[12] = {0.046f, 0.056f, 0.064f, 0.070f, 0.075f, 0.078f, 0.080f, 0.080f, 0.079f, 0.077f, 0.072f, 0.066f};
    const float drop_k[12] = {0.030f, 0.050f, 0.060f, 0.068f, 0.074f, 0.080f, 0.086f, 0.090f, 0.094f, 0.094f, 0.06f, 0.04f};
    const float xend_k[12] = {0.040f, 0.043f, 0.045f, 0.047f, 0.051f, 0.058f, 0.068f, 0.088f, 0.100f, 0.110f, 0.f, 0.f};
    glm::vec3 front[12], ends[2][12];  // the left ribs' front ends; both sides' (right first)
    for (const auto& [root, sk] : rib_roots) {
        const int k = std::abs(sk) - 1;
        const float s = sk < 0 ? -1.0f : 1.0f;
        const float a = a_k[k] * scale, bb = b_k[k] * scale, drop = drop_k[k] * scale, x0 = std::fabs(root.x - T.x);
        float th_end = k == 10 ? 2.0f : (k == 11 ? 1.6f : kPiF - std::asin(std::clamp((xend_k[k] * scale - x0) / a, 0.0f, 1.0f)));
        std::vector<glm::vec3> pts;
        std::vector<float> rad;
        const int n = 14;
        for (int i = 0; i <= n; ++i) {
            const float th = th_end * float(i) / float(n);
            pts.push_back({T.x + s * (x0 + a * std::sin(th)), root.y - drop * 0.5f * (1.0f - std::cos(th)),
                           root.z + bb * (1.0f - std::cos(th))});
            rad.push_back((k == 0 ? 0.0055f : 0.0042f) - 0.001f * float(i) / float(n) + (i == 0 ? 0.001f : 0.0f));
        }
        f.begin(0.003f);
        for (int i = 0; i < n; ++i) f.cone(pts[size_t(i)], rad[size_t(i)], pts[size_t(i) + 1], rad[size_t(i) + 1]);
        if (s > 0) front[k] = pts.back();
        ends[s > 0 ? 1 : 0][k] = pts.back();
    }
    // Costal cartilage: the true ribs' (1–7) from their ends up and in to
    // the sternum's edge, the false ribs' (8–10) up to the cartilage above.
    for (int side = 0; side < 2; ++side) {
        const float s = side ? 1.0f : -1.0f;
        for (int k = 0; k < 10; ++k) {
            const glm::vec3 e = ends[side][k];
            const glm::vec3 to = k < 7 ? glm::vec3(T.x + s * (k == 0 ? 0.024f : 0.015f) * scale,
                                                   e.y + (0.004f + 0.003f * float(k)) * scale, e.z + 0.003f * scale)
                                       : glm::mix(ends[side][k - 1], glm::vec3(T.x, ends[side][k - 1].y, ends[side][k - 1].z), 0.35f);
            f.begin(0.003f);
            f.cone(e - 0.002f * glm::normalize(to - e), 0.0038f, to, k < 7 ? 0.0042f : 0.0034f);
        }
    }
    // Sternum: manubrium (level with rib 1–2), body (ribs 2–7), xiphoid.
    {
        const glm::vec3 m0(T.x, front[0].y + 0.012f * scale, front[0].z + 0.004f * scale);
        const glm::vec3 m1(T.x, front[1].y - 0.004f * scale, front[1].z + 0.002f * scale);
        const glm::vec3 b1(T.x, front[6].y - 0.004f * scale, front[6].z + 0.002f * scale);
        const glm::vec3 x1 = b1 + scale * glm::vec3(0.0f, -0.035f, 0.002f);
        auto plate = [&](glm::vec3 p, glm::vec3 q, float halfw) {
            const glm::vec3 ax = glm::normalize(q - p);
            const glm::vec3 x(1, 0, 0), n = glm::normalize(glm::cross(x, ax));
            f.box(0.5f * (p + q), {halfw, 0.5f * glm::length(q - p), 0.0055f}, 0.004f, glm::mat3(x, ax, n));
        };
        f.begin(0.004f);
        plate(m0, m1, 0.026f * scale);
        f.begin(0.004f);
        plate(m1 - 0.004f * glm::normalize(b1 - m1), b1, 0.016f * scale);
        f.begin(0.003f);
        f.cone(b1, 0.006f, x1, 0.0035f);
    }
    // Skull: cranium, face (orbits and nasal aperture cut), cheekbones,
    // skull base; the jaw (mandible) a separate U-shaped bar below.
    const glm::vec3 top = line.back();
    const glm::vec3 C = top + scale * glm::vec3(0.0f, 0.112f, 0.018f);
    f.begin(0.0f);
    f.ellipsoid(C, scale * glm::vec3(0.070f, 0.080f, 0.092f));
    f.begin(0.014f);
    f.box(C + scale * glm::vec3(0.0f, -0.052f, 0.058f), scale * glm::vec3(0.038f, 0.030f, 0.030f), 0.014f * scale);
    f.begin(0.01f);
    f.ellipsoid(C + scale * glm::vec3(0.0f, -0.05f, -0.025f), scale * glm::vec3(0.046f, 0.03f, 0.05f));
    for (float s : {-1.0f, 1.0f}) {
        f.begin(0.004f);
        f.cone(C + scale * glm::vec3(s * 0.044f, -0.036f, 0.066f), 0.0065f * scale, C + scale * glm::vec3(s * 0.062f, -0.04f, 0.008f),
               0.0045f * scale);
    }
    for (float s : {-1.0f, 1.0f}) {
        f.begin(0.004f, true);
        f.sphere(C + scale * glm::vec3(s * 0.031f, -0.022f, 0.088f), 0.0175f * scale);
    }
    f.begin(0.003f, true);
    f.ellipsoid(C + scale * glm::vec3(0.0f, -0.052f, 0.094f), scale * glm::vec3(0.011f, 0.015f, 0.012f));
    // Mandible: rami from the condyles (clear of the skull at the jaw joint)
    // down to the angles, the body forward to the chin.
    f.begin(0.0f);
    f.bar({C + scale * glm::vec3(-0.054f, -0.066f, 0.006f), C + scale * glm::vec3(-0.050f, -0.108f, 0.014f),
           C + scale * glm::vec3(-0.034f, -0.117f, 0.058f), C + scale * glm::vec3(0.0f, -0.122f, 0.086f),
           C + scale * glm::vec3(0.034f, -0.117f, 0.058f), C + scale * glm::vec3(0.050f, -0.108f, 0.014f),
           C + scale * glm::vec3(0.054f, -0.066f, 0.006f)},
          {0.0055f * scale, 0.0065f * scale, 0.007f * scale, 0.0085f * scale, 0.007f * scale, 0.0065f * scale,
           0.0055f * scale},
          5);
}

struct KindInfo {
    BoneKind kind;
    const char* name;
    float cell;     // polygonisation grid (m)
    size_t budget;  // triangles after decimation
};
constexpr KindInfo kKinds[] = {
    {BoneKind::Clavicle, "clavicle", 0.0010f, 900}, {BoneKind::Scapula, "scapula", 0.0010f, 2400},
    {BoneKind::Humerus, "humerus", 0.0014f, 2800},  {BoneKind::Ulna, "ulna", 0.0011f, 2000},
    {BoneKind::Radius, "radius", 0.0011f, 1800},    {BoneKind::Hand, "hand", 0.0010f, 3000},
    {BoneKind::Pelvis, "pelvis", 0.0018f, 3600},    {BoneKind::Torso, "torso", 0.0019f, 11000},
    {BoneKind::Femur, "femur", 0.0018f, 2800},      {BoneKind::Tibia, "tibia", 0.0016f, 3000},
    {BoneKind::Foot, "foot", 0.0012f, 2600},       {BoneKind::Patella, "patella", 0.0008f, 700},
};

const KindInfo* info(BoneKind k) {
    for (const KindInfo& i : kKinds)
        if (i.kind == k) return &i;
    return nullptr;
}

std::unique_ptr<Field> makeField(const BoneShapeInput& b, BoneKind kind) {
    auto f = std::make_unique<Field>();
    f->side = boneSide(b.name, b.head);
    switch (kind) {
    case BoneKind::Clavicle: clavicle(*f, b); break;
    case BoneKind::Scapula: {
        // The shoulder joint: scapula head is SH + (−1 cm lateral, 4 cm up, −3.5 cm anterior).
        scapula(*f, b, b.head - f->L(-0.01f, 0.04f, -0.035f));
        break;
    }
    case BoneKind::Humerus: humerus(*f, b); break;
    case BoneKind::Ulna: ulnaWithNotch(*f, b); break;
    case BoneKind::Radius: {
        // Radius head: E + (1.5 cm lateral, −1 cm, 0.5 cm anterior).
        const glm::vec3 E = b.head - f->L(0.015f, -0.01f, 0.005f);
        radius(*f, b, capitulumOf(E, f->side));
        break;
    }
    case BoneKind::Hand: hand(*f, b); break;
    case BoneKind::Pelvis: pelvis(*f, b); break;
    case BoneKind::Torso: torso(*f, b); break;
    case BoneKind::Femur: femur(*f, b); break;
    case BoneKind::Tibia: tibia(*f, b); break;
    case BoneKind::Foot: foot(*f, b); break;
    case BoneKind::Patella: patella(*f, b); break;
    case BoneKind::Unknown: return nullptr;
    }
    return f;
}

}  // namespace

BoneKind boneKind(const std::string& name) {
    std::string base = name;
    if (base.size() > 2 && (base.compare(base.size() - 2, 2, "_r") == 0 || base.compare(base.size() - 2, 2, "_l") == 0))
        base.resize(base.size() - 2);
    for (const KindInfo& i : kKinds)
        if (base == i.name) return i.kind;
    return BoneKind::Unknown;
}

float boneSide(const std::string& name, glm::vec3 head) {
    if (name.size() > 2 && name.compare(name.size() - 2, 2, "_r") == 0) return -1.0f;
    if (name.size() > 2 && name.compare(name.size() - 2, 2, "_l") == 0) return 1.0f;
    return head.x < 0.0f ? -1.0f : 1.0f;
}

size_t boneTriangleBudget(BoneKind kind) {
    const KindInfo* i = info(kind);
    return i ? i->budget : 0;
}

std::function<float(glm::vec3)> boneField(const BoneShapeInput& bone) {
    const BoneKind kind = boneKind(bone.name);
    const KindInfo* i = info(kind);
    if (!i) return nullptr;
    std::shared_ptr<Field> f = makeField(bone, kind);
    f->prepare(i->cell);
    return [f](glm::vec3 p) { return (*f)(p); };
}

namespace {

MeshData dense(const Field& f, float cell) {
    glm::vec3 lo, hi;
    f.bounds(lo, hi);
    lo -= 3.0f * cell;
    hi += 3.0f * cell;
    return polygonize([&f](glm::vec3 p) { return f(p); }, lo, hi, cell);
}

}  // namespace

MeshData buildBoneMeshDense(const BoneShapeInput& bone) {
    const BoneKind kind = boneKind(bone.name);
    const KindInfo* i = info(kind);
    if (!i) return {};
    std::unique_ptr<Field> f = makeField(bone, kind);
    f->prepare(i->cell);
    return dense(*f, i->cell);
}

BoneMesh buildBoneMesh(const BoneShapeInput& bone) {
    BoneMesh out;
    const BoneKind kind = boneKind(bone.name);
    const KindInfo* i = info(kind);
    if (!i) return out;
    // The scenes share bones (T2–T6, P3/P4 and T7 have the same right arm):
    // each distinct input is built once per process. A pure function of
    // the input, so the cache changes no bytes.
    static std::mutex cache_mutex;
    static std::map<std::string, BoneMesh> cache;
    std::string key = bone.name;
    for (float v : {bone.head.x, bone.head.y, bone.head.z, bone.tail.x, bone.tail.y, bone.tail.z, bone.radius}) {
        char buf[sizeof(float)];
        std::memcpy(buf, &v, sizeof(float));
        key.append(buf, sizeof(float));
    }
    key += bone.fist ? "+fist" : "";  // every field of the input is in the key
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        auto it = cache.find(key);
        if (it != cache.end()) return it->second;
    }
    std::unique_ptr<Field> f = makeField(bone, kind);
    f->prepare(i->cell);
    out.mesh = simplifyMesh(dense(*f, i->cell), i->budget);
    // Normals: the field's gradient (central differences), which shades the
    // decimated mesh as the smooth surface it approximates.
    const float h = 0.25f * i->cell;
    out.normals.reserve(out.mesh.vertices.size());
    for (const glm::vec3& p : out.mesh.vertices) {
        const glm::vec3 g((*f)(p + glm::vec3(h, 0, 0)) - (*f)(p - glm::vec3(h, 0, 0)),
                          (*f)(p + glm::vec3(0, h, 0)) - (*f)(p - glm::vec3(0, h, 0)),
                          (*f)(p + glm::vec3(0, 0, h)) - (*f)(p - glm::vec3(0, 0, h)));
        const float len = glm::length(g);
        out.normals.push_back(len > 1e-12f ? g / len : glm::vec3(0, 1, 0));
    }
    std::lock_guard<std::mutex> lock(cache_mutex);
    cache.emplace(key, out);
    return out;
}

}  // namespace engine

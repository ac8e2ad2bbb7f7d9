#include "engine/anatomy/sheet_muscle.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "engine/anatomy/loft_untangle.h"
#include "engine/anatomy/muscle_loft.h"
#include "engine/mesh/mesh_quality.h"
#include "sim/mesh_topology.h"

namespace engine {
namespace {

glm::vec3 gradient(const std::function<float(glm::vec3)>& f, glm::vec3 p) {
    constexpr float h = 5e-4f;
    const glm::vec3 g((f(p + glm::vec3(h, 0, 0)) - f(p - glm::vec3(h, 0, 0))) / (2 * h),
                      (f(p + glm::vec3(0, h, 0)) - f(p - glm::vec3(0, h, 0))) / (2 * h),
                      (f(p + glm::vec3(0, 0, h)) - f(p - glm::vec3(0, 0, h))) / (2 * h));
    const float l = glm::length(g);
    return l > 1e-6f ? g / l : glm::vec3(0, 0, 1);
}

// Moves p onto the level set f = level along the gradient (damped Newton
// steps, none longer than 1 cm, so a point never jumps across the neck).
glm::vec3 onLevel(const std::function<float(glm::vec3)>& f, glm::vec3 p, float level) {
    for (int it = 0; it < 8; ++it) {
        const float v = f(p) - level;
        if (std::fabs(v) < 2e-5f) break;
        glm::vec3 step = v * gradient(f, p);
        const float l = glm::length(step);
        if (l > 0.01f) step *= 0.01f / l;
        p -= step;
    }
    return p;
}

// From p (on the level set) a distance `dist` along the surface, starting
// in direction `dir`: short steps, each put back on the level, staying in
// the plane through p spanned by `dir` and the surface normal there (a
// normal section), so a sheet's width follows the wall's curve as a tape
// laid across it would and does not veer where the trunk narrows.
glm::vec3 walk(const std::function<float(glm::vec3)>& f, glm::vec3 p, glm::vec3 dir, float dist, float level) {
    constexpr float kStep = 0.005f;
    const int steps = int(std::ceil(std::fabs(dist) / kStep));
    if (steps == 0) return p;
    const glm::vec3 p0 = p;
    glm::vec3 pn = glm::cross(dir, gradient(f, p));
    if (glm::length(pn) < 1e-6f) return p;
    pn = glm::normalize(pn);
    const float h = dist / float(steps);
    for (int i = 0; i < steps; ++i) {
        const glm::vec3 n = gradient(f, p);
        glm::vec3 t = dir - glm::dot(dir, n) * n;
        t -= glm::dot(t, pn) * pn;
        if (glm::length(t) < 1e-6f) break;
        dir = glm::normalize(t);
        p = onLevel(f, p + h * dir, level);
        p -= glm::dot(p - p0, pn) * pn;
    }
    return onLevel(f, p, level);
}

// A ring's `segs` angles, spaced (mostly) evenly along the ellipse with
// semi-axes a (thickness) and b (width) rather than evenly in angle: on a
// sheet 20 times wider than thick, even angles crowd the vertices round the
// thin edges and leave slivers there and in the end fans.
std::vector<double> evenAngles(int segs, double a, double b) {
    constexpr int kSamples = 720;
    constexpr double kTwoPi = 6.283185307179586;
    std::vector<double> acc(kSamples + 1, 0.0);
    for (int i = 1; i <= kSamples; ++i) {
        const double t = kTwoPi * (i - 0.5) / kSamples;
        acc[size_t(i)] = acc[size_t(i) - 1] + std::hypot(a * std::sin(t), b * std::cos(t));
    }
    std::vector<double> out(static_cast<size_t>(segs));
    for (int j = 0; j < segs; ++j) {
        const double target = acc.back() * j / segs;
        const auto it = std::lower_bound(acc.begin(), acc.end(), target);
        const size_t i = size_t(std::max<std::ptrdiff_t>(1, it - acc.begin()));
        const double f = (target - acc[i - 1]) / std::max(1e-300, acc[i] - acc[i - 1]);
        const double even = kTwoPi * (double(i - 1) + f) / kSamples;
        out[size_t(j)] = 0.15 * kTwoPi * j / segs + 0.85 * even;  // a little of the even angles: the edges stay round
    }
    return out;
}

}  // namespace

MeshData loftSheet(const std::vector<glm::vec3>& path, const SheetShape& s,
                   const std::function<float(glm::vec3)>& wall) {
    // The loft fixes the topology; ellipse 1 keeps each ring's sin/cos
    // parameter readable: thickness share x = cos θ, width offset y.
    const int segs = s.segments - s.segments % 2;
    MeshData m = loftProfile(path, s.half_width, 1.0f, s.width_dir, s.rings, segs);
    std::vector<AxisStation>& chain = m.chains[0];
    const int n = int(chain.size());  // rings + 2 stations, poles included
    std::vector<AxisStation> laid(chain.size());
    std::vector<float> level(chain.size()), half_t(chain.size()), lay(chain.size());
    for (int k = 0; k < n; ++k) {
        const float u = float(k) / float(n - 1);
        half_t[size_t(k)] = 0.5f * s.thickness(u);
        level[size_t(k)] = -(s.depth(u) + half_t[size_t(k)]);
        laid[size_t(k)].c = onLevel(wall, chain[size_t(k)].c, level[size_t(k)]);
        lay[size_t(k)] = std::clamp(s.laid(u), 0.0f, 1.0f);
    }
    std::vector<float> sign(chain.size());
    for (int k = 0; k < n; ++k) {
        AxisStation& a = laid[size_t(k)];
        const glm::vec3 nrm = gradient(wall, a.c);
        // The loft's own tangent (e1 × e2), made tangent to the wall.
        glm::vec3 t = glm::cross(chain[size_t(k)].e1, chain[size_t(k)].e2);
        t -= glm::dot(t, nrm) * nrm;
        t = glm::length(t) > 1e-6f ? glm::normalize(t) : glm::normalize(glm::cross(chain[size_t(k)].e2, nrm));
        // The loft's ring turned about the path onto the wall: thickness
        // along ±normal, width along the wall. Either half turn keeps the
        // ring's orientation (e1 = e2 × t), so the mesh stays outward; it is
        // chosen once, at the origin, and kept from station to station (a
        // per-station choice could twist a band between two rings where the
        // loft's thickness axis turns tangent to a curving wall).
        if (k == 0)
            sign[0] = glm::dot(chain[0].e1, nrm) >= 0.0f ? 1.0f : -1.0f;
        else
            sign[size_t(k)] = glm::dot(nrm, laid[size_t(k) - 1].e1) >= 0.0f ? 1.0f : -1.0f;
        a.e1 = sign[size_t(k)] * nrm;
        a.e2 = sign[size_t(k)] * glm::normalize(glm::cross(t, nrm));
        a.a = half_t[size_t(k)];
        a.b = chain[size_t(k)].b;
        a.belly = chain[size_t(k)].belly;
    }
    std::vector<std::vector<double>> angles(chain.size());  // per station with a ring
    for (int k = 0; k < n; ++k)
        if (chain[size_t(k)].b > 0.0f) angles[size_t(k)] = evenAngles(segs, double(laid[size_t(k)].a), double(chain[size_t(k)].b));
    for (size_t v = 0; v < m.vertices.size(); ++v) {
        const glm::ivec2 st = m.vertex_station[v];
        if (st.x < 0) continue;
        const AxisStation& from = chain[size_t(st.y)];
        const AxisStation& to = laid[size_t(st.y)];
        if (from.b <= 0.0f) {  // a pole
            m.vertices[v] = glm::mix(from.c, to.c, lay[size_t(st.y)]);
            continue;
        }
        const int j = int(v) - 1 - (st.y - 1) * segs;  // the vertex's place in its ring
        const double theta = angles[size_t(st.y)][size_t(j)];
        const float x = float(std::cos(theta));            // share of the half thickness
        const float y = from.b * float(std::sin(theta));   // metres across the sheet
        const float w = lay[size_t(st.y)];
        const glm::vec3 free = from.c + x * to.a * from.e1 + y * from.e2;
        if (w <= 0.0f) {
            m.vertices[v] = free;
            continue;
        }
        const glm::vec3 q = walk(wall, to.c, to.e2, y, level[size_t(st.y)]);
        m.vertices[v] = glm::mix(free, q + x * to.a * sign[size_t(st.y)] * gradient(wall, q), w);
    }
    for (size_t k = 0; k < chain.size(); ++k) {
        const float w = lay[k];
        AxisStation& a = laid[k];
        a.c = glm::mix(chain[k].c, a.c, w);
        a.e1 = glm::normalize(glm::mix(chain[k].e1, a.e1, w) + glm::vec3(1e-9f));
        a.e2 = glm::normalize(glm::mix(chain[k].e2, a.e2, w) + glm::vec3(1e-9f));
    }
    if (s.side != 0.0f) {
        constexpr float kMidlineGap = 0.003f;
        for (glm::vec3& p : m.vertices)
            if (s.side * p.x < kMidlineGap) p.x = s.side * kMidlineGap;
    }
    chain = laid;
    // Root sets as a muscle loft's: each pole with its end ring.
    const uint32_t last = uint32_t(m.vertices.size() - 1);
    std::vector<uint32_t> o{0}, i;
    for (int j = 0; j < segs; ++j) {
        o.push_back(uint32_t(1 + j));
        i.push_back(uint32_t(1 + (s.rings - 1) * segs + j));
    }
    i.push_back(last);
    m.origin_sets = {o};
    m.insertion_sets = {i};
    return m;
}

MeshData sizedSheet(const std::vector<glm::vec3>& path, SheetShape s, const std::function<float(glm::vec3)>& wall,
                    double target_volume) {
    // Sized by its thickness (a sheet's volume is its area times its thickness).
    auto thicken = [](SheetShape& shape, float f) {
        const auto th = shape.thickness;
        shape.thickness = [th, f](float u) { return th(u) * f; };
    };
    auto sized = [&](SheetShape& shape) {
        MeshData m = loftSheet(path, shape, wall);
        for (int it = 0; it < 3 && target_volume > 0.0; ++it) {
            const double v = sim::signedVolume(m.vertices, m.triangles);
            if (!(v > 0.0)) break;
            const float f = float(target_volume / v);
            if (std::fabs(f - 1.0f) < 0.002f) break;
            thicken(shape, f);
            m = loftSheet(path, shape, wall);
        }
        return m;
    };
    MeshData m = sized(s);
    // Laid round a tight curve of the wall (the serratus under the scapula,
    // the trapezius over the shoulder's slope) a sheet's faces can cross
    // where its rings crowd: smoothed out, which takes a little of its
    // volume; made up once by thickness if the result is then as clean
    // (a mesh that crosses itself has no true volume to size by).
    if (selfIntersections(m.vertices, m.triangles) == 0) return m;
    untangleLoft(m, {}, {});
    const double v = sim::signedVolume(m.vertices, m.triangles);
    if (target_volume <= 0.0 || !(v > 0.0) || std::fabs(v / target_volume - 1.0) < 0.01) return m;
    thicken(s, float(target_volume / v));
    MeshData thicker = loftSheet(path, s, wall);
    const size_t left = selfIntersections(m.vertices, m.triangles);
    if (selfIntersections(thicker.vertices, thicker.triangles) > 0) untangleLoft(thicker, {}, {});
    if (selfIntersections(thicker.vertices, thicker.triangles) <= left) return thicker;
    return m;
}

}  // namespace engine

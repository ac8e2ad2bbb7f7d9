#include "engine/anatomy/anatomy_measures.h"

#include "engine/mesh/mesh_quality.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/geometry.h"

namespace engine {
namespace {

struct Box {
    glm::vec3 lo{1e9f}, hi{-1e9f};
    void add(glm::vec3 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    bool contains(glm::vec3 p, float pad) const {
        for (int k = 0; k < 3; ++k)
            if (p[k] < lo[k] - pad || p[k] > hi[k] + pad) return false;
        return true;
    }
};

struct Capsule {
    glm::vec3 a, b;
    float r;
};

float surfaceDistance(glm::vec3 p, const sim::MuscleDesc& m, float limit) {
    float best = limit;
    for (const glm::uvec3& t : m.triangles) {
        const glm::vec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
        const glm::vec3 lo = glm::min(a, glm::min(b, c)), hi = glm::max(a, glm::max(b, c));
        bool far = false;
        for (int k = 0; k < 3; ++k) far = far || p[k] < lo[k] - best || p[k] > hi[k] + best;
        if (far) continue;
        sim::TriFeature f;
        best = std::min(best, glm::length(p - sim::closestPointOnTriangle(p, a, b, c, f)));
    }
    return best;
}

std::vector<Capsule> capsules(const sim::SceneDesc& s) {
    std::vector<Capsule> out;
    for (const sim::BodyDesc& b : s.bodies)
        if (b.triangles.empty() && b.capsule_radius > 0.0f)
            out.push_back({glm::vec3(b.transform * glm::vec4(b.capsule_a, 1.0f)),
                           glm::vec3(b.transform * glm::vec4(b.capsule_b, 1.0f)), b.capsule_radius});
    return out;
}

// The capsule body named `bone`, its axis's ends at rest in world space; null
// when there is none.
const sim::BodyDesc* capsuleBody(const sim::SceneDesc& scene, const std::string& bone, glm::vec3& a, glm::vec3& c) {
    for (const sim::BodyDesc& b : scene.bodies) {
        if (b.name != bone || !b.triangles.empty() || b.capsule_radius <= 0.0f) continue;
        a = glm::vec3(b.transform * glm::vec4(b.capsule_a, 1.0f));
        c = glm::vec3(b.transform * glm::vec4(b.capsule_b, 1.0f));
        return &b;
    }
    return nullptr;
}

// A plane's own axes about its normal `n` (the same for every caller, so a ray
// index means the same direction in each).
void planeAxes(glm::dvec3 n, glm::dvec3& e1, glm::dvec3& e2) {
    e1 = glm::normalize(glm::cross(n, std::fabs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0)));
    e2 = glm::cross(n, e1);
}

// Segment (a, b) of a section in the plane's axes about point o: (ax, ay, bx, by).
glm::dvec4 planeSegment(glm::dvec3 a, glm::dvec3 b, glm::dvec3 o, glm::dvec3 e1, glm::dvec3 e2) {
    return {glm::dot(a - o, e1), glm::dot(a - o, e2), glm::dot(b - o, e1), glm::dot(b - o, e2)};
}

// Where the ray from the plane's origin along (dx, dy) meets segment c: its
// distance t along the ray, or -1 when it misses (o + t (dx, dy) = a + s (b − a),
// t > 0, s in [0, 1]).
double rayMeetsSegment(double dx, double dy, const glm::dvec4& c) {
    const double ex = c.z - c.x, ey = c.w - c.y;
    const double den = dx * ey - dy * ex;
    if (std::fabs(den) < 1e-18) return -1.0;
    const double t = (c.x * ey - c.y * ex) / den, s = (c.x * dy - c.y * dx) / den;
    return t > 0.0 && s >= 0.0 && s <= 1.0 ? t : -1.0;
}

}  // namespace

std::vector<MuscleMeasure> measureMuscles(const sim::SceneDesc& scene, float near) {
    const size_t n = scene.muscles.size();
    std::vector<Box> boxes(n);
    for (size_t i = 0; i < n; ++i)
        for (const glm::vec3& v : scene.muscles[i].vertices) boxes[i].add(v);
    const std::vector<Capsule> bones = capsules(scene);
    // Bones are the capsule bodies (what the generated scenes collide with,
    // docs/anatomy.md); mesh bodies are not measured against.
    std::vector<MuscleMeasure> out(n);
#pragma omp parallel for schedule(dynamic, 1)
    for (long li = 0; li < long(n); ++li) {
        const size_t i = size_t(li);
        const sim::MuscleDesc& m = scene.muscles[i];
        MuscleMeasure& r = out[i];
        r.name = m.name;
        r.reference = referenceVolume(m.name);
        double vol = 0.0;
        for (const glm::uvec3& t : m.triangles) {
            const glm::dvec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
            vol += glm::dot(a, glm::cross(b, c)) / 6.0;
        }
        r.volume = vol;
        size_t touching = 0;
        for (const glm::vec3& p : m.vertices) {
            bool near_any = false;
            for (const Capsule& c : bones)
                if (sim::closestOnCapsule(p, c.a, c.b, c.r).signed_distance <= near) {
                    near_any = true;
                    break;
                }
            for (size_t j = 0; j < n; ++j) {
                if (j == i || !boxes[j].contains(p, near)) continue;
                const sim::MuscleDesc& o = scene.muscles[j];
                const bool in = boxes[j].contains(p, 0.0f) && sim::insideByCrossings(p, o.vertices, o.triangles);
                const float d = surfaceDistance(p, o, in ? 1.0f : near * 1.0001f);
                if (in || d <= near) near_any = true;
                if (in && d > r.overlap) {
                    r.overlap = d;
                    r.overlap_with = o.name;
                }
            }
            touching += near_any ? 1 : 0;
        }
        r.touching = m.vertices.empty() ? 0.0 : double(touching) / double(m.vertices.size());
        r.min_angle_deg = minTriangleAngle(m.vertices, m.triangles);
        r.self_intersections = selfIntersections(m.vertices, m.triangles);
    }
    return out;
}

namespace {

// Every segment where the plane (o, n) cuts a triangle, from the edge going
// up through the plane to the edge going down: with outward winding this runs
// the section's boundary counter-clockwise about n.
template <class F>
void forEachCut(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles, glm::dvec3 o,
                glm::dvec3 n, F&& segment) {
    for (const glm::uvec3& t : triangles) {
        const glm::dvec3 p[3] = {vertices[t.x], vertices[t.y], vertices[t.z]};
        double d[3];
        for (int k = 0; k < 3; ++k) d[k] = glm::dot(p[k] - o, n);
        glm::dvec3 up{0.0}, down{0.0};
        int found = 0;
        for (int k = 0; k < 3; ++k) {
            const int l = (k + 1) % 3;
            const bool a_below = d[k] < 0.0, b_below = d[l] < 0.0;
            if (a_below == b_below) continue;
            const glm::dvec3 x = p[k] + (p[l] - p[k]) * (d[k] / (d[k] - d[l]));
            if (a_below) {
                up = x;
            } else {
                down = x;
            }
            ++found;
        }
        if (found == 2) segment(up, down);
    }
}

}  // namespace

double sectionArea(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles, glm::vec3 point,
                   glm::vec3 normal, float reach, const EnclosingSection* within) {
    const glm::dvec3 o(point), n = glm::normalize(glm::dvec3(normal));
    double area = 0.0;
    forEachCut(vertices, triangles, o, n, [&](glm::dvec3 up, glm::dvec3 down) {
        const glm::dvec3 mid = 0.5 * (up + down);
        if (glm::length(mid - o) > double(reach)) return;
        if (within && !within->contains(glm::vec3(mid))) return;
        area += 0.5 * glm::dot(glm::cross(down - o, up - o), n);
    });
    return std::fabs(area);
}

bool EnclosingSection::contains(glm::vec3 p) const {
    if (radius.empty()) return false;
    const glm::dvec3 d = glm::dvec3(p) - glm::dvec3(point);
    const double x = glm::dot(d, e1), y = glm::dot(d, e2);
    const double pi = 3.14159265358979;
    double th = std::atan2(y, x);
    if (th < 0.0) th += 2.0 * pi;
    const size_t i = std::min(radius.size() - 1, size_t(th / (2.0 * pi) * double(radius.size())));
    return std::sqrt(x * x + y * y) <= radius[i];
}

EnclosingSection enclosingSection(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles,
                                  glm::vec3 point, glm::vec3 normal, int rays) {
    EnclosingSection out;
    out.point = point;
    const glm::dvec3 o(point), n = glm::normalize(glm::dvec3(normal));
    // The plane's own axes; each cut as a 2D segment about the point.
    planeAxes(n, out.e1, out.e2);
    std::vector<glm::dvec4> cuts;
    forEachCut(vertices, triangles, o, n,
               [&](glm::dvec3 a, glm::dvec3 b) { cuts.push_back(planeSegment(a, b, o, out.e1, out.e2)); });
    // Ray by ray, the nearest cut: the boundary that encloses the point, not
    // the other limb's or the trunk's further out. ½ r² dθ summed.
    const double pi = 3.14159265358979, dt = 2.0 * pi / double(rays);
    std::vector<double> radius(size_t(std::max(rays, 0)));
    double area = 0.0;
    for (int i = 0; i < rays; ++i) {
        const double th = (double(i) + 0.5) * dt, dx = std::cos(th), dy = std::sin(th);
        double r = -1.0;
        for (const glm::dvec4& c : cuts)
            if (const double t = rayMeetsSegment(dx, dy, c); t > 0.0 && (r < 0.0 || t < r)) r = t;
        if (r < 0.0) return out;  // open on this side: the point is not enclosed
        radius[size_t(i)] = r;
        area += 0.5 * r * r * dt;
    }
    out.radius = std::move(radius);
    out.area = area;
    return out;
}

bool measureSection(const sim::SceneDesc& scene, const std::string& bone, float reach, SectionMeasure& out) {
    glm::vec3 a, c;
    const sim::BodyDesc* b = capsuleBody(scene, bone, a, c);
    if (!b) return false;
    out = SectionMeasure{};
    out.bone = bone;
    out.point = 0.5f * (a + c);
    out.normal = glm::normalize(c - a);
    out.bone_area = 3.14159265358979 * double(b->capsule_radius) * double(b->capsule_radius);
    // The skin's section around the bone first: muscles count where they
    // lie inside it (not the trunk's or the other limb's nearby).
    EnclosingSection skin;
    if (!scene.envelope.empty())
        skin = enclosingSection(scene.envelope.vertices, scene.envelope.triangles, out.point, out.normal);
    out.skin_area = skin.area;
    for (const sim::MuscleDesc& m : scene.muscles) {
        const double s =
            sectionArea(m.vertices, m.triangles, out.point, out.normal, reach, skin.area > 0.0 ? &skin : nullptr);
        if (s <= 0.0) continue;
        out.muscle_area += s;
        out.muscles.push_back(m.name);
    }
    return true;
}

bool measureCover(const sim::SceneDesc& scene, const std::string& bone, float from, float to, float reach, CoverMeasure& out,
                  int levels, int rays) {
    glm::vec3 a, c;
    const sim::BodyDesc* b = capsuleBody(scene, bone, a, c);
    if (!b) return false;
    out = CoverMeasure{};
    out.bone = bone;
    const double pi = 3.14159265358979, dt = 2.0 * pi / double(rays), r0 = double(b->capsule_radius);
    const glm::dvec3 n = glm::normalize(glm::dvec3(c - a));
    glm::dvec3 e1, e2;
    planeAxes(n, e1, e2);
    size_t covered = 0, total = 0;
    std::vector<char> hit(static_cast<size_t>(rays), 0);
    std::vector<glm::dvec4> cuts;  // (ax, ay, bx, by) in the plane's axes
    for (int l = 0; l < levels; ++l) {
        const float f = levels > 1 ? from + (to - from) * float(l) / float(levels - 1) : 0.5f * (from + to);
        const glm::dvec3 o(a + f * (c - a));
        cuts.clear();
        for (const sim::MuscleDesc& m : scene.muscles)
            forEachCut(m.vertices, m.triangles, o, n, [&](glm::dvec3 p, glm::dvec3 q) {
                if (glm::length(0.5 * (p + q) - o) <= double(reach)) cuts.push_back(planeSegment(p, q, o, e1, e2));
            });
        for (int i = 0; i < rays; ++i) {
            const double th = (double(i) + 0.5) * dt, dx = std::cos(th), dy = std::sin(th);
            hit[size_t(i)] = 0;
            for (const glm::dvec4& s : cuts)
                if (const double t = rayMeetsSegment(dx, dy, s); t > r0 && t < double(reach)) {  // past the bone
                    hit[size_t(i)] = 1;
                    break;
                }
            covered += size_t(hit[size_t(i)]);
            ++total;
        }
        // The widest run of uncovered rays, round the circle.
        int best = 0, best_end = 0;
        if (std::none_of(hit.begin(), hit.end(), [](char h) { return h != 0; })) best = best_end = rays;
        for (int start = 0; start < rays; ++start) {
            if (hit[size_t(start)] || !hit[size_t((start + rays - 1) % rays)]) continue;  // a run starts after a hit
            int len = 0;
            while (!hit[size_t((start + len) % rays)]) ++len;
            if (len > best) best = len, best_end = start + len;
        }
        const double deg = double(best) * 360.0 / double(rays);
        if (deg > out.widest_gap_deg) {
            out.widest_gap_deg = deg;
            out.widest_gap_mm = double(best) * dt * r0 * 1e3;
            out.widest_at = f;
            out.widest_dir = std::fmod((double(best_end) - 0.5 * double(best)) * 360.0 / double(rays), 360.0);
        }
    }
    out.covered = total ? double(covered) / double(total) : 0.0;
    return true;
}

}  // namespace engine

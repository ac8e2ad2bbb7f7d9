#include "engine/mesh/mesh_quality.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>

namespace engine {
namespace {

constexpr double kRadToDeg = 57.29577951308232;

double angleAt(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& r) {
    const glm::dvec3 a = q - p, b = r - p;
    const double la = glm::length(a), lb = glm::length(b);
    if (la <= 0.0 || lb <= 0.0) return 0.0;
    return std::acos(std::clamp(glm::dot(a, b) / (la * lb), -1.0, 1.0)) * kRadToDeg;
}

// Segment pq crosses the interior of triangle abc (Möller–Trumbore, strict).
bool segmentCrosses(const glm::dvec3& p, const glm::dvec3& q, const glm::dvec3& a, const glm::dvec3& b,
                    const glm::dvec3& c) {
    const glm::dvec3 d = q - p, e1 = b - a, e2 = c - a;
    const glm::dvec3 h = glm::cross(d, e2);
    const double det = glm::dot(e1, h);
    if (std::fabs(det) < 1e-18) return false;
    const double f = 1.0 / det;
    const glm::dvec3 s = p - a;
    const double u = f * glm::dot(s, h);
    if (u <= 0.0 || u >= 1.0) return false;
    const glm::dvec3 qv = glm::cross(s, e1);
    const double v = f * glm::dot(d, qv);
    if (v <= 0.0 || u + v >= 1.0) return false;
    const double t = f * glm::dot(e2, qv);
    return t > 0.0 && t < 1.0;
}

bool trianglesIntersect(const std::array<glm::dvec3, 3>& x, const std::array<glm::dvec3, 3>& y) {
    for (int i = 0; i < 3; ++i) {
        if (segmentCrosses(x[size_t(i)], x[size_t((i + 1) % 3)], y[0], y[1], y[2])) return true;
        if (segmentCrosses(y[size_t(i)], y[size_t((i + 1) % 3)], x[0], x[1], x[2])) return true;
    }
    return false;
}

}  // namespace

double triangleMinAngle(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c) {
    return std::min({angleAt(a, b, c), angleAt(b, c, a), angleAt(c, a, b)});
}

float minTriangleAngle(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
    double m = 180.0;
    for (const glm::uvec3& t : tris) m = std::min(m, triangleMinAngle(v[t.x], v[t.y], v[t.z]));
    return float(m);
}

std::vector<std::pair<uint32_t, uint32_t>> crossingPairs(const std::vector<glm::vec3>& v,
                                                         const std::vector<glm::uvec3>& tris) {
    // Sweep along x over the triangles' bounds.
    struct Box {
        glm::dvec3 lo, hi;
        size_t t;
    };
    std::vector<Box> boxes;
    boxes.reserve(tris.size());
    for (size_t i = 0; i < tris.size(); ++i) {
        const glm::dvec3 a = v[tris[i].x], b = v[tris[i].y], c = v[tris[i].z];
        boxes.push_back({glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c)), i});
    }
    std::sort(boxes.begin(), boxes.end(), [](const Box& p, const Box& q) { return p.lo.x != q.lo.x ? p.lo.x < q.lo.x : p.t < q.t; });
    std::vector<std::pair<uint32_t, uint32_t>> hits;
    for (size_t i = 0; i < boxes.size(); ++i) {
        const glm::uvec3 ti = tris[boxes[i].t];
        for (size_t j = i + 1; j < boxes.size() && boxes[j].lo.x <= boxes[i].hi.x; ++j) {
            if (boxes[j].lo.y > boxes[i].hi.y || boxes[j].hi.y < boxes[i].lo.y || boxes[j].lo.z > boxes[i].hi.z ||
                boxes[j].hi.z < boxes[i].lo.z)
                continue;
            const glm::uvec3 tj = tris[boxes[j].t];
            bool shared = false;
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b) shared = shared || ti[a] == tj[b];
            if (shared) continue;
            if (trianglesIntersect({glm::dvec3(v[ti.x]), glm::dvec3(v[ti.y]), glm::dvec3(v[ti.z])},
                                   {glm::dvec3(v[tj.x]), glm::dvec3(v[tj.y]), glm::dvec3(v[tj.z])}))
                hits.emplace_back(uint32_t(std::min(boxes[i].t, boxes[j].t)), uint32_t(std::max(boxes[i].t, boxes[j].t)));
        }
    }
    std::sort(hits.begin(), hits.end());
    return hits;
}

size_t selfIntersections(const std::vector<glm::vec3>& v, const std::vector<glm::uvec3>& tris) {
    return crossingPairs(v, tris).size();
}

}  // namespace engine

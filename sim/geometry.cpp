#include "sim/geometry.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "sim/world.h"

namespace sim {

glm::vec3 closestPointOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c, TriFeature& feature) {
    glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) {
        feature = TriFeature::VertexA;
        return a;
    }
    glm::vec3 bp = p - b;
    float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) {
        feature = TriFeature::VertexB;
        return b;
    }
    float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
        feature = TriFeature::EdgeAB;
        return a + ab * (d1 / (d1 - d3));
    }
    glm::vec3 cp = p - c;
    float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) {
        feature = TriFeature::VertexC;
        return c;
    }
    float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
        feature = TriFeature::EdgeCA;
        return a + ac * (d2 / (d2 - d6));
    }
    float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
        feature = TriFeature::EdgeBC;
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    feature = TriFeature::Face;
    float denom = 1.0f / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

ClosestPoint closestOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c, const TriNormals* normals) {
    ClosestPoint r;
    // The search's triangles carry their unit face normal already (computed
    // the same way, so the same bits); a zero one marks a degenerate triangle.
    glm::vec3 n;
    if (normals) {
        n = normals->face;
        if (!(glm::dot(n, n) > 0.0f)) return r;
    } else {
        n = glm::cross(b - a, c - a);
        const float nl = glm::length(n);
        if (!(nl > 0.0f)) return r;
        n /= nl;
    }
    TriFeature feature;
    r.point = closestPointOnTriangle(p, a, b, c, feature);
    glm::vec3 d = p - r.point;
    r.distance = glm::length(d);
    glm::vec3 pseudo = n;
    if (normals) {
        switch (feature) {
            case TriFeature::Face: pseudo = normals->face; break;
            case TriFeature::VertexA: pseudo = normals->vertex[0]; break;
            case TriFeature::VertexB: pseudo = normals->vertex[1]; break;
            case TriFeature::VertexC: pseudo = normals->vertex[2]; break;
            case TriFeature::EdgeAB: pseudo = normals->edge[0]; break;
            case TriFeature::EdgeBC: pseudo = normals->edge[1]; break;
            case TriFeature::EdgeCA: pseudo = normals->edge[2]; break;
        }
    }
    float side = glm::dot(d, pseudo);
    if (feature == TriFeature::Face || !(r.distance > 1e-9f)) {
        r.normal = n;
        r.signed_distance = glm::dot(d, n);
    } else {
        float s = side < 0.0f ? -1.0f : 1.0f;
        r.normal = s * d / r.distance;
        r.signed_distance = s * r.distance;
    }
    r.valid = true;
    return r;
}

glm::vec3 barycentric(glm::vec3 q, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 v0 = b - a, v1 = c - a, v2 = q - a;
    const float d00 = glm::dot(v0, v0), d01 = glm::dot(v0, v1), d11 = glm::dot(v1, v1);
    const float d20 = glm::dot(v2, v0), d21 = glm::dot(v2, v1);
    const float den = d00 * d11 - d01 * d01;
    if (!(std::fabs(den) > 0.0f)) return glm::vec3(1.0f / 3.0f);
    float v = std::clamp((d11 * d20 - d01 * d21) / den, 0.0f, 1.0f);
    float w = std::clamp((d00 * d21 - d01 * d20) / den, 0.0f, 1.0f - v);
    return {1.0f - v - w, v, w};
}

glm::vec3 skewRayDirection() { return glm::normalize(glm::vec3(0.5773f, 0.6129f, 0.5394f)); }

bool skewRayCrosses(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 dir = skewRayDirection();
    const glm::vec3 e1 = b - a, e2 = c - a, h = glm::cross(dir, e2);
    const float det = glm::dot(e1, h);
    if (std::fabs(det) < 1e-14f) return false;
    const float inv = 1.0f / det;
    const glm::vec3 sv = p - a;
    const float u = inv * glm::dot(sv, h);
    if (u < 0.0f || u > 1.0f) return false;
    const glm::vec3 q = glm::cross(sv, e1);
    const float v = inv * glm::dot(dir, q);
    if (v < 0.0f || u + v > 1.0f) return false;
    return inv * glm::dot(e2, q) > 0.0f;
}

bool insideByCrossings(glm::vec3 p, const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles) {
    int hits = 0;
    for (const glm::uvec3& t : triangles) hits += skewRayCrosses(p, vertices[t.x], vertices[t.y], vertices[t.z]) ? 1 : 0;
    return hits % 2 == 1;
}

int skewRaySignedCrossing(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    // Watertight (Woop, Benthin and Wald, "Watertight Ray/Triangle
    // Intersection", JCGT 2013), in double: the vertices are sheared into
    // the ray's frame one by one, so the edge function of an edge two
    // triangles share is computed from the same numbers in both and comes
    // out exactly negated. A ray through that edge then crosses exactly one
    // of them; the barycentric test in float could count both or neither,
    // and the winding number of a closed skin came out 0 for a point deep
    // inside it (T7, a run's frame: a muscle vertex read 63 mm outside).
    const glm::dvec3 d(skewRayDirection());
    // Sheared along the direction's largest component (y), the other two
    // in cyclic order (Woop's choice, fixed here since the ray's is).
    const int kz = 1, kx = 2, ky = 0;
    const double sx = d[kx] / d[kz], sy = d[ky] / d[kz], sz = 1.0 / d[kz];
    const glm::dvec3 A = glm::dvec3(a) - glm::dvec3(p), B = glm::dvec3(b) - glm::dvec3(p), C = glm::dvec3(c) - glm::dvec3(p);
    const double ax = A[kx] - sx * A[kz], ay = A[ky] - sy * A[kz];
    const double bx = B[kx] - sx * B[kz], by = B[ky] - sy * B[kz];
    const double cx = C[kx] - sx * C[kz], cy = C[ky] - sy * C[kz];
    const double u = cx * by - cy * bx, v = ax * cy - ay * cx, w = bx * ay - by * ax;
    if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0)) return 0;
    const double det = u + v + w;
    if (det == 0.0) return 0;
    const double t = u * sz * A[kz] + v * sz * B[kz] + w * sz * C[kz];
    if (!(det > 0.0 ? t > 0.0 : t < 0.0)) return 0;  // behind p
    // Leaving through the outward (CCW) side: the ray runs along the normal.
    return glm::dot(d, glm::cross(glm::dvec3(b) - glm::dvec3(a), glm::dvec3(c) - glm::dvec3(a))) > 0.0 ? 1 : -1;
}

ClosestPoint closestOnCapsule(glm::vec3 p, glm::vec3 a, glm::vec3 b, float radius) {
    ClosestPoint r;
    const glm::vec3 axis = closestOnSegment(p, a, b);
    glm::vec3 d = p - axis;
    float dl = glm::length(d);
    if (dl > 1e-9f) {
        r.normal = d / dl;
    } else {
        // On the axis: any direction perpendicular to it.
        const glm::vec3 ab = b - a;
        const float len2 = glm::dot(ab, ab);
        glm::vec3 ref = std::abs(ab.x) < 0.9f * std::sqrt(len2) ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
        r.normal = len2 > 0.0f ? glm::normalize(glm::cross(ab, ref)) : glm::vec3(0, 1, 0);
    }
    r.point = axis + r.normal * radius;
    r.signed_distance = dl - radius;
    r.distance = std::abs(r.signed_distance);
    r.valid = true;
    return r;
}

ClosestPoint closestOnBodyCapsule(glm::vec3 p, const Body& b) {
    return closestOnCapsule(p, b.capsule_now_a, b.capsule_now_b, b.capsule_radius);
}

ContactPlane contactPlane(const World& w, const Contact& c, glm::vec3 p) {
    if (c.capsule_body >= 0) {
        const ClosestPoint cp = closestOnBodyCapsule(p, w.bodies[size_t(c.capsule_body)]);
        if (cp.valid) return {cp.point, cp.normal};
    }
    return {c.q, c.n};
}

ClosestPoint closestPointOnTarget(const World& w, const TargetDesc& t, glm::vec3 p, bool rest) {
    ClosestPoint best;
    auto consider = [&](const ClosestPoint& c) {
        if (c.valid && (!best.valid || c.distance < best.distance)) best = c;
    };
    if (t.kind == TargetDesc::Kind::Body) {
        const Body& b = w.bodies[size_t(t.index)];
        const glm::mat4& T = rest ? b.curr : b.now;
        auto world = [&](glm::vec3 v) { return glm::vec3(T * glm::vec4(v, 1.0f)); };
        if (b.triangles.empty()) {
            if (b.capsule_radius > 0.0f)
                consider(closestOnCapsule(p, world(b.capsule_a), world(b.capsule_b), b.capsule_radius));
        } else {
            for (const auto& tri : b.triangles)
                consider(closestOnTriangle(p, world(b.vertices[tri.x]), world(b.vertices[tri.y]),
                                           world(b.vertices[tri.z])));
        }
    } else {
        const Muscle& m = w.muscles[size_t(t.index)];
        const auto& X = rest ? w.particles.rest : w.particles.p;
        for (uint32_t k = m.tri_begin; k < m.tri_begin + m.tri_count; ++k) {
            const auto& tri = w.triangles[k];
            consider(closestOnTriangle(p, X[tri.x], X[tri.y], X[tri.z]));
        }
    }
    return best;
}

}  // namespace sim

// Closest-point queries on triangles, capsules and contact targets (the
// geometric half of docs/model.md §3.5–3.7), as small pure functions.
#pragma once

#include <vector>

#include <cstdint>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "sim/scene_desc.h"

namespace sim {

struct World;
struct Body;

struct ClosestPoint {
    bool valid = false;
    glm::vec3 point{0.0f};
    glm::vec3 normal{0.0f};        // outward normal of the target at `point`
    float distance = 0.0f;         // |p − point|
    float signed_distance = 0.0f;  // (p − point)·normal: negative inside the target
};

// Which feature of triangle abc a closest point lies on.
enum class TriFeature : uint8_t { Face, VertexA, VertexB, VertexC, EdgeAB, EdgeBC, EdgeCA };

// Closest point on triangle abc to p (Ericson, Real-Time Collision Detection
// 5.1.5), and the feature it lies on.
glm::vec3 closestPointOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c, TriFeature& feature);

// Angle-weighted pseudo-normals of a triangle's features (Bærentzen & Aanæs
// 2005): the sign of (p − q)·N(feature) tells inside from outside a closed
// mesh reliably, also when q is on an edge or a vertex.
struct TriNormals {
    glm::vec3 face;
    glm::vec3 vertex[3];  // a, b, c
    glm::vec3 edge[3];    // ab, bc, ca
};

// Closest point on a triangle with an outward normal and signed distance.
// On the face interior: the face normal. On an edge or a vertex: the
// direction to p, signed by the feature's pseudo-normal (or by the face normal
// when no pseudo-normals are given).
ClosestPoint closestOnTriangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c,
                               const TriNormals* normals = nullptr);

// Closest point to p on segment ab (a when the segment is a point): a
// capsule's axis point, shared by closestOnCapsule and the contact
// projection's cheap "clear of the capsule" test, so both see the same bits.
inline glm::vec3 closestOnSegment(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
    const glm::vec3 ab = b - a;
    const float len2 = glm::dot(ab, ab);
    const float t = len2 > 0.0f ? glm::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    return a + t * ab;
}

// Barycentric coordinates of q, a point on triangle abc (clamped to it,
// summing to 1; the centroid's for a degenerate triangle): where a contact
// plane or a drawn-skin push lies on its triangle.
glm::vec3 barycentric(glm::vec3 q, glm::vec3 a, glm::vec3 b, glm::vec3 c);

// Capsule around segment ab with radius r.
ClosestPoint closestOnCapsule(glm::vec3 p, glm::vec3 a, glm::vec3 b, float r);

// Whether the ray from p in one fixed skew direction (no axis-aligned
// degeneracies on lofted rings) crosses triangle abc: the parity of the
// crossings over a closed mesh tells whether p is inside it (Möller–Trumbore).
bool skewRayCrosses(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c);
glm::vec3 skewRayDirection();  // that direction (unit)
// Inside the closed mesh by that parity, over every triangle (no grid: for
// one-off tests; sim/skew_ray_grid.h bins them for many points).
bool insideByCrossings(glm::vec3 p, const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles);
// The same ray's crossing of triangle abc, signed: +1 where it leaves
// through the triangle's outward (CCW) side, −1 where it enters, 0 where it
// misses. Summed over a closed surface: its winding number at p, exactly,
// also where the ray runs through an edge two triangles share (watertight:
// one of them counts it). The parity test above is not (it decides inside
// for packing and the measures; changing it would regenerate every scene).
int skewRaySignedCrossing(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c);

// A body's collision capsule in its current (substep) transform.
ClosestPoint closestOnBodyCapsule(glm::vec3 p, const Body& b);

// Where contact c projects a vertex at p: the point q and outward normal n of
// its target surface (C = (p − q)·n − r).
struct Contact;
struct ContactPlane {
    glm::vec3 q, n;
};
ContactPlane contactPlane(const World& w, const Contact& c, glm::vec3 p);

// Brute-force closest point on a whole target (a body's collision shape in its
// current transform, or a muscle's surface). `rest`: use the bind pose
// (muscles) / the initial transform (bodies). Used at setup; the per-substep
// contact search uses a spatial hash.
ClosestPoint closestPointOnTarget(const World& w, const TargetDesc& t, glm::vec3 p, bool rest);

}  // namespace sim

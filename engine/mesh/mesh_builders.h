// Procedural closed triangle meshes for muscles and simple bodies. Every
// builder returns a closed, manifold, outward-wound mesh (CCW seen from
// outside), plus the root vertex sets (tendon ends) where that makes sense.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace engine {

// One ring centre of a lofted mesh: the frame the ring was built in and its
// semi-axes (a along e1, b along e2). `belly` is 0 at a tendon end and 1 at
// the widest ring: the share of the ring that grows when the muscle is sized
// (engine/anatomy/muscle_packing.h).
struct AxisStation {
    glm::vec3 c{0.0f}, e1{1, 0, 0}, e2{0, 1, 0};
    float a = 0.0f, b = 0.0f;
    float belly = 0.0f;
};

struct MeshData {
    std::vector<glm::vec3> vertices;
    std::vector<glm::uvec3> triangles;
    // Tendon ends: vertex sets near the origin(s) and insertion(s).
    std::vector<std::vector<uint32_t>> origin_sets;
    std::vector<std::vector<uint32_t>> insertion_sets;
    // Lofted meshes only: the chains of ring centres (one per head and one
    // for the belly) and, per vertex, its (chain, station), or (−1, −1) for a
    // vertex on no ring. Ring vertices lie in their station's e1/e2 plane.
    std::vector<std::vector<AxisStation>> chains;
    std::vector<glm::ivec2> vertex_station;
};

// Ellipsoid centred at `center` with its long axis along `axis` (unit),
// half-length `half_length`, equatorial radius `radius`. `rings` latitude
// rings between the two pole vertices, `segments` vertices per ring.
// Root sets: the pole plus the first `root_rings` rings at each tip
// (origin at center − axis·half_length, insertion at the other tip).
MeshData makeOval(glm::vec3 center, glm::vec3 axis, float half_length, float radius, int rings,
                  int segments, int root_rings = 1);

// Axis-aligned box centred at `center` with half extents `half`, each face
// split into n×n quads (shared edges welded). Root sets: the −X face vertices
// (origin) and the +X face vertices (insertion).
MeshData makeBox(glm::vec3 center, glm::vec3 half, int n);

// Surface of revolution along a polyline path from origin to insertion:
// radius(u) = r_t + (r_max − r_t)·sin^p(πu), elliptic cross-section with
// ratio `ellipse`, capped at both ends by a pole vertex.
MeshData makeFusiform(const std::vector<glm::vec3>& path, float r_max, float r_tendon, float power,
                      float ellipse, int rings, int segments);

// A two-headed muscle as one closed manifold: two heads starting at
// head_a / head_b merge into one belly ending at `insertion`. Built from a
// smooth-union distance field polygonised on a grid of spacing `cell`
// (non-uniform triangulation, a few thousand vertices for biceps-sized input).
// Origin sets: one per head tip; insertion set: the insertion tip.
MeshData makeTwoHeaded(glm::vec3 head_a, glm::vec3 head_b, glm::vec3 merge, glm::vec3 insertion,
                       float r_head, float r_belly, float cell);

// Polygonises the zero level set {f < 0 inside} of a field over the box
// [lo, hi] with grid spacing `cell` (marching tetrahedra, welded vertices).
MeshData polygonize(const std::function<float(glm::vec3)>& f, glm::vec3 lo, glm::vec3 hi, float cell);

}  // namespace engine

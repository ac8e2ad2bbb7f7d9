// Anatomical lofts (docs/anatomy.md "Building a muscle mesh"): a path through
// origin, via points and insertion → Catmull-Rom → arc-length stations →
// elliptic rings with r(u) = r_t + (r_max − r_t)·sin^p(πu) → quads, each end
// capped at a pole. Two-headed muscles: two heads lofted into the two halves
// of a shared belly ring, stitched into ONE closed manifold.
#pragma once

#include <functional>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

struct LoftShape {
    float r_max = 0.02f;
    float tendon = 0.2f;       // r_t = tendon·r_max
    // Per end (< 0: `tendon`): a fleshy attachment (brachialis' origin along
    // the humerus) ends in a broad ring, not a tendon.
    float tendon_origin = -1.0f, tendon_insertion = -1.0f;
    float power = 0.8f;
    float ellipse = 0.7f;      // thickness / width
    glm::vec3 width_dir{1, 0, 0};  // direction of the wide axis (projected ⟂ path)
    int rings = 24;            // rings between the two poles
    int segments = 16;         // vertices per ring
    int root_rings = 1;        // rings (plus the pole) in each root set
};

// Catmull-Rom through the points, resampled to n+1 points equally spaced in arc length.
std::vector<glm::vec3> resampleCurve(const std::vector<glm::vec3>& pts, int n);

// Single-bellied muscle along `path` (≥ 2 points, origin first).
MeshData loftMuscle(const std::vector<glm::vec3>& path, const LoftShape& s);

// General surface of revolution with a radius profile r(u), u ∈ [0, 1] (used
// for bones: shafts with wider joint ends). No root sets.
MeshData loftProfile(const std::vector<glm::vec3>& path, const std::function<float(float)>& radius, float ellipse,
                     glm::vec3 width_dir, int rings, int segments);

// Two heads (paths from each origin to the merge point) and one belly (path
// from the merge point to the insertion). Origin sets: one per head;
// insertion set: the belly's end. `s.segments` is the belly ring size (even).
MeshData loftTwoHeaded(const std::vector<glm::vec3>& head_a, const std::vector<glm::vec3>& head_b,
                       const std::vector<glm::vec3>& belly, const LoftShape& s, float r_head, int head_rings);

}  // namespace engine

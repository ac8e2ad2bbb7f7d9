// Muscle into muscle, measured over every surface vertex (docs/model.md §8):
// the deepest vertex of any muscle inside one of its muscle contact targets,
// exactly (ray parity for inside, nearest triangle for the depth). A
// diagnostic for reports and tests, not part of the step.
//
// Measuring only the vertices that hold a tissue contact (what the run
// report did before) misses exactly the worst ones: a vertex pushed deeper
// than the contact search's muscle depth has no contact any more. On T6 at
// frame 36 that measure said 3.3 mm while 514 vertices were more than 3 mm
// inside a neighbour, the deepest 15.9 mm.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/skew_ray_grid.h"

namespace sim {

struct World;

// One ordered pair of muscles (a vertex of `muscle` inside `into`) with its
// vertices past the counting depth.
struct TissuePairOverlap {
    int muscle = -1, into = -1;
    int vertices = 0;     // surface vertices of `muscle` inside `into` by more than `count_beyond`
    float deepest = 0.0f;  // the deepest of them, m inside
};

struct TissueOverlapResult {
    float depth = 0.0f;  // m inside the other surface (0 when no vertex is inside)
    int muscle = -1;     // whose vertex went in
    int into = -1;       // the muscle it went into
    int particle = -1;
    int vertices_inside = 0;  // surface vertices inside some target muscle by more than `count_beyond`
    // Those vertices by pair (each counted with the muscle it is deepest
    // in), ordered by (muscle, into).
    std::vector<TissuePairOverlap> pairs;
};

class TissueOverlap {
public:
    // `X`: the positions to measure (normally World::particles.x);
    // `count_beyond`: the depth past which a vertex is counted in
    // vertices_inside (m).
    TissueOverlapResult measure(const World& w, const std::vector<glm::vec3>& X, float count_beyond);
    // Per particle, from the last measure: how deep it lies inside the
    // target muscle it is deepest in (m; 0 outside every one, and for
    // attached vertices and branch points, which are not measured).
    const std::vector<float>& vertexDepth() const { return depth_; }

private:
    // Per muscle: its triangles binned by their projection on the plane
    // across the parity ray, so a vertex tests only the triangles its ray
    // can cross.
    std::vector<SkewRayGrid> grids_;
    std::vector<uint8_t> is_target_;
    std::vector<float> depth_;
};

}  // namespace sim

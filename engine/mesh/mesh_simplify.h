// Quadric-error edge-collapse decimation (Garland & Heckbert 1997) of a
// closed, manifold, outward-wound triangle mesh. Used to make the polygonised
// bone shapes (engine/anatomy/bone_shapes.h, docs/anatomy.md "Bone shapes") light
// enough for real-time drawing.
#pragma once

#include <cstddef>

#include "engine/mesh/mesh_builders.h"

namespace engine {

struct SimplifyStats {
    size_t collapses = 0;
    double max_cost = 0.0;  // largest quadric cost accepted (area-weighted squared distance)
};

// Collapses edges, cheapest first, until the mesh has at most
// `target_triangles` triangles or no edge can be collapsed safely. A collapse
// is refused when it would break the topology (link condition, valence < 3),
// fold a triangle over (its normal turns by more than ~70°) or create a
// needle triangle worse than the ones it replaces. Each merged vertex goes
// to the point minimising its quadric (or the best of the two ends and the
// midpoint where that point is ill-defined). The result stays closed,
// manifold and outward wound with the same genus; vertices keep their
// relative order, so the output is a pure function of the input
// (deterministic: ties break on vertex indices). Root sets are dropped.
MeshData simplifyMesh(const MeshData& in, size_t target_triangles, SimplifyStats* stats = nullptr);

}  // namespace engine

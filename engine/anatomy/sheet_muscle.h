// Sheet muscles of the body wall (docs/anatomy.md "Trunk muscles"): the
// abdominal wall, the chest and the back are thin, wide muscles that follow
// the trunk's curve, where a loft's straight elliptic rings would either be
// thick tubes or flat plates that cut through the ribs at their edges.
//
// A sheet is lofted along its fibres as every muscle is (rings around the
// path, a pole at each end, the root sets at the ends, so the solver's
// internal structure is built from it as from any muscle), then each ring is
// laid onto the wall: its centre moves to the sheet's mid-surface, a fixed
// depth under the trunk's outline; its width runs along that surface (each
// vertex walked along it, so a 20 cm sheet bends round the flank);
// its thickness runs along the surface normal. The mid-surface is a level
// set of the outline's signed distance, so layered sheets (external oblique
// over internal oblique over transversus) stay parallel to the skin and to
// each other.
#pragma once

#include <functional>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

struct SheetShape {
    // Along the fibres, u ∈ [0, 1] from origin to insertion (m).
    std::function<float(float)> half_width;
    std::function<float(float)> thickness;
    std::function<float(float)> depth;  // from the wall's surface to the sheet's outer face
    // 1: laid on the wall; 0: the plain loft (a fan leaving the trunk for
    // the humerus, as the pectoralis and latissimus do); blends between.
    std::function<float(float)> laid = [](float) { return 1.0f; };
    glm::vec3 width_dir{0, 1, 0};       // roughly across the fibres (made tangent to the wall)
    // −1 / +1: a muscle of the right (−X) / left side, kept 3 mm clear of
    // the midline x = 0 (the linea alba, the spines): a sheet walked over a
    // narrowing neck or back may otherwise cross onto its twin; 0: no bound.
    float side = 0.0f;
    int rings = 16;                     // rings between the two poles
    int segments = 20;                  // vertices per ring (even)
};

// `wall`: signed distance to the trunk's outline (< 0 inside). `path` runs
// from origin to insertion near the wall (≥ 2 points); it is projected to
// the mid-surface. Root sets: each pole with its end ring.
MeshData loftSheet(const std::vector<glm::vec3>& path, const SheetShape& shape,
                   const std::function<float(glm::vec3)>& wall);

// The sheet at a measured volume (m³; ≤ 0: as shaped): its thickness
// scaled (a sheet's volume is its area times its thickness), its outline kept.
MeshData sizedSheet(const std::vector<glm::vec3>& path, SheetShape shape, const std::function<float(glm::vec3)>& wall,
                    double target_volume);

}  // namespace engine

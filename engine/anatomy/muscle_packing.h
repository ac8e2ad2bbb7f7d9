// Packing lofted muscles into a limb (docs/anatomy.md "Packed muscles"):
// every muscle is sized to its measured volume and fills its own region —
// inside the limb's fascia, outside the bones by a contact gap, and on its
// side of the boundary with each neighbour, half a gap back from it.
// Neighbours end up sharing faces a gap apart, as compartments do, instead of
// tubes in air.
//
// The regions are grown, not assigned by distance: on a voxel grid every
// muscle floods outward from its own loft through free space, at a speed
// that grows with its size, until it holds its volume or meets bone, fascia
// or a neighbour. A region therefore never wraps around a bone or behind
// another muscle, and every part of it can be seen from the muscle's axis.
//
// The loft's topology (rings, poles, root sets) never changes: each ring
// vertex moves along the ray from its ring's centre (MeshData::chains) to the
// edge of its region, so fibre rings, tendon ends and vertex sets stay as built.
#pragma once

#include <functional>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

struct PackingCapsule {
    glm::vec3 a{0.0f}, b{0.0f};
    float radius = 0.0f;
};

struct PackingMuscle {
    MeshData* mesh = nullptr;     // a lofted mesh (chains filled); reshaped in place
    double target_volume = 0.0;  // m³; ≤ 0: the loft's own volume
    bool in_fascia = true;        // bounded by PackingOptions::fascia
    int group = 0;                // muscles pack against the others of their group only
    // Shaped already (a sheet laid on the body wall, engine/anatomy/sheet_muscle.h):
    // neither flooded nor moved; the others' vertices move out of it.
    bool fixed = false;
};

struct PackingOptions {
    float muscle_gap = 0.002f;   // between neighbours (each gives half)
    float bone_gap = 0.0022f;    // from a capsule's surface
    // A muscle's region stays within `reach` × its loft's radius at the belly,
    // shrinking to the loft's own radius at a tendon end: muscles keep their
    // span and their tendons.
    float reach = 6.0f;
    // Ring centres are kept this far inside the fascia (at most the ring's
    // own radius) and outside the bones.
    float fascia_margin = 0.008f;
    float voxel = 0.00125f;          // finest grid spacing (m)
    size_t max_voxels = 8u << 20;    // per group: coarser spacing beyond this
    int passes = 8;                  // flood → measure the meshes → correct the quotas
    // Signed distance to the limb's fascia (< 0 inside); empty: no bound.
    std::function<float(glm::vec3)> fascia;
};

struct PackingResult {
    std::vector<double> volume;  // m³ after packing
};

// Closed-mesh volume (divergence theorem), m³.
double meshVolume(const MeshData& m);

// Sizes and packs all muscles together. Deterministic: single-threaded
// floods in a fixed order; the result depends on nothing but the input.
PackingResult packMuscles(std::vector<PackingMuscle>& muscles, const std::vector<PackingCapsule>& bones,
                          const PackingOptions& opt);

}  // namespace engine

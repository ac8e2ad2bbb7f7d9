// The body plan of the generated anatomy (docs/anatomy.md): where the bones
// of an arm, a leg and the trunk lie, the muscles lofted along their
// anatomical paths with their sensors, and the limb fascia that the muscles
// are packed into at their measured volumes. One side at a time: Side
// mirrors the right (−X) to the left (+X).
#pragma once

#include <string>
#include <vector>

#include "engine/anatomy/generator_spec.h"

namespace engine::generator {

struct Side {
    float s;  // −1 right (−X), +1 left
    std::string suf;
    glm::vec3 V(glm::vec3 base, float lat, float up, float ant) const { return base + glm::vec3(s * lat, up, ant); }
};

// The pelvis and the root of the torso (metres, rest pose).
inline const glm::vec3 kPelvis(0.0f, 0.97f, 0.0f);
inline const glm::vec3 kTorso = kPelvis + glm::vec3(0.0f, 0.09f, -0.03f);

// Bones: clavicle, scapula, humerus, ulna, radius, hand under `torso`.
void addArmBones(SceneSpec& sc, const Side& d, int torso);
// The 17 arm muscles of docs/anatomy.md. `fast`: T6 adds velocity terms.
void addArmMuscles(SceneSpec& sc, const Side& d, bool fast, bool only_biceps_brachialis = false);
// Femur, tibia and foot under `pelvis`, and the leg's muscles with their sensors.
void addLeg(SceneSpec& sc, const Side& d, int pelvis);
// The trunk's muscles of one side, on the pelvis and torso bones.
void addTrunkMuscles(SceneSpec& sc, const Side& d);

// The limb's fascia (docs/anatomy.md "Packed muscles"): tapered round pieces
// around the bones, smooth-unioned. Radii: the muscle compartment, inside
// the skin and subcutaneous fat (ANSUR girths less a fat layer), sized so the
// measured volumes fill it.
struct FasciaPiece {
    glm::vec3 a, b;
    float ra, rb;
};
void addArmFascia(std::vector<FasciaPiece>& f, const Side& d);
void addLegFascia(std::vector<FasciaPiece>& f, const Side& d);
// Sizes every muscle that has a reference volume to it and packs the
// muscles against each other, the bones and the fascia (engine/anatomy/muscle_packing.h).
// `free_muscles`: name prefixes of the muscles not bounded by the fascia (the trunk's sheets and the
// hip's deep muscles, which lie outside the limb pieces).
void packScene(SceneSpec& sc, const std::vector<FasciaPiece>& fascia, const std::vector<std::string>& free_muscles);

// The folds packing left (or a loft's own bends) taken out of every muscle
// mesh, the two-headed ones' heads kept apart (loft_untangle.h);
// `only_two_headed`: the folds of the two-headed muscles only (the others
// still guard and are guarded against).
void untangleScene(SceneSpec& sc, bool only_two_headed = false);

}  // namespace engine::generator

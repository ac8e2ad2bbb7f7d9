// Anatomical bone shapes for the generated scenes' skeleton mesh
// (docs/anatomy.md "Bone shapes"): each bone is a signed distance field
// (spheres, ellipsoids, rounded boxes, round cones, thick triangles and bent
// bars joined by smooth unions) built in the bone's world rest frame,
// polygonised with engine::polygonize and decimated with engine::simplifyMesh.
// The shapes are visual only: the bones still collide as the capsules of
// their joint nodes (extras.msxpbd_body.capsule, docs/scene-format.md).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

enum class BoneKind { Unknown, Clavicle, Scapula, Humerus, Ulna, Radius, Hand, Pelvis, Torso, Femur, Tibia, Foot, Patella };

// The kind from a generator bone name ("humerus_r", "torso"); the side
// suffix (_r: right, −X; _l: left, +X) is ignored. Unknown for other names.
BoneKind boneKind(const std::string& name);

// −1 for a right bone (name ends in _r), +1 for a left one (_l); otherwise
// the sign of head.x (+1 on the midline).
float boneSide(const std::string& name, glm::vec3 head);

// A bone as the generator has it: world rest positions of its joint (head)
// and far end (tail), and its contact capsule radius.
struct BoneShapeInput {
    std::string name;
    glm::vec3 head{0.0f}, tail{0.0f};
    float radius = 0.01f;
    bool fist = false;  // a hand: the fingers closed into a fist, the thumb across them
};

// The kneecap's half width and half thickness (m): the walk glides its back
// along the femur's groove (knee_track.h).
constexpr float kPatellaHalfWidth = 0.021f;
constexpr float kPatellaHalfThickness = 0.0095f;

struct BoneMesh {
    MeshData mesh;                  // world rest positions; closed, manifold, outward wound
    std::vector<glm::vec3> normals;  // unit, one per vertex (the field's gradient)
};

// Triangle budget the decimation aims at for a kind (0 for Unknown).
size_t boneTriangleBudget(BoneKind kind);

// The anatomical mesh of a bone; empty for BoneKind::Unknown (the caller
// draws those otherwise). Deterministic: a pure function of the input.
// What each bone is made of is described in docs/anatomy.md "Bone shapes".
// Torso: spine (lumbar to cervical, partly below the head), rib cage,
// sternum, skull and jaw. Tibia: tibia with the fibula. Patella: the kneecap.
BoneMesh buildBoneMesh(const BoneShapeInput& bone);

// The same shape before decimation (the polygonised field), for tests.
MeshData buildBoneMeshDense(const BoneShapeInput& bone);

// The bone's signed distance field (negative inside, metres; close to a true
// distance only near the surface), for tests. Null for BoneKind::Unknown.
std::function<float(glm::vec3)> boneField(const BoneShapeInput& bone);

}  // namespace engine

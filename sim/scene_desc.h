// Plain description of a scene handed to sim::World: what engine (glTF loader,
// built-in scenes, generators) produces and what the solver consumes.
// No I/O, no graphics: positions are world-space rest (bind-pose) positions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"

namespace sim {

// A kinematic body (a bone or a fixed anchor). Its transform is supplied every
// frame by the caller (World::setBodyTransform). Its shape, in body-local
// coordinates, is what muscles collide with: a triangle mesh or a capsule.
struct BodyDesc {
    std::string name;
    glm::mat4 transform{1.0f};  // body → world at rest / first frame
    // Collision shape (body-local). Either a closed triangle mesh ...
    std::vector<glm::vec3> vertices;
    std::vector<glm::uvec3> triangles;
    // ... or, when `triangles` is empty and capsule_radius > 0, a capsule
    // around the segment capsule_a–capsule_b.
    glm::vec3 capsule_a{0.0f}, capsule_b{0.0f};
    float capsule_radius = 0.0f;
};

// Vertex `vertex` of the muscle is held on body `body` at the body-local point
// that coincides with its rest position (computed by World from the rest pose).
struct AttachmentDesc {
    uint32_t vertex = 0;  // muscle-local vertex index
    int32_t body = -1;    // index into SceneDesc::bodies
};

// A contact / sliding target of a muscle: another muscle or a body.
struct TargetDesc {
    enum class Kind : uint8_t { Body, Muscle } kind = Kind::Body;
    int32_t index = -1;  // into SceneDesc::bodies or SceneDesc::muscles
};

struct MuscleDesc {
    std::string name;
    std::vector<glm::vec3> vertices;    // world-space rest positions
    std::vector<glm::uvec3> triangles;  // closed, manifold, outward (CCW) winding
    // Root vertex sets (tendon ends), muscle-local vertex indices. A two-headed
    // muscle has two origin sets and one insertion set.
    std::vector<std::vector<uint32_t>> origin_sets;
    std::vector<std::vector<uint32_t>> insertion_sets;
    std::vector<AttachmentDesc> attachments;
    std::vector<TargetDesc> contact_targets;  // non-penetration (docs/model.md §3.5)
    std::vector<TargetDesc> sliding_targets;  // sliding connections (docs/model.md §3.7)
    float initial_activation = 0.0f;  // a0 ∈ [0, 0.95]
    float overpressure = 0.0f;        // κ ≥ 0
    float density = 1060.0f;          // kg/m³ (skeletal muscle)
    // Per-family stiffness overrides for this muscle; negative = scene default.
    FamilyStiffness stiffness = FamilyStiffness::unset();
};

struct PlaneDesc {
    glm::vec3 origin{0.0f};
    glm::vec3 normal{0.0f, 1.0f, 0.0f};
};

// The envelope that keeps the muscles inside the limb (docs/model.md §3.8): the
// skin's surface in the bind pose (world space), posed by the caller every
// frame (Simulation::setEnvelopePose). Muscle surface vertices are held at
// least `thickness` (the subcutaneous layer) inside it, or as deep as they lie
// at rest when that is less. No triangles: no envelope (the scene behaves as
// without one).
// The subcutaneous layer the muscles stay under by default (m): a thin adult
// layer over the arm and thigh; the generator fits its skins with it.
inline constexpr float kDefaultEnvelopeThickness = 0.003f;

struct EnvelopeDesc {
    std::string name;                   // the skin node's name ("skin" in the generated scenes)
    std::vector<glm::vec3> vertices;    // bind pose, world space, one per position (welded)
    std::vector<glm::uvec3> triangles;  // outward (CCW) winding
    // Per vertex: the body (index into SceneDesc::bodies) whose bone weighs
    // most in its skinning, −1 where none is known; empty: none known at
    // all. A muscle is held only by the skin its own bones carry.
    std::vector<int32_t> vertex_body;
    float thickness = kDefaultEnvelopeThickness;  // m: the subcutaneous layer the muscles stay under
    // Multiplies the fascia family's stiffness (the Solver panel's, a
    // preset's, --stiffness) for this skin: a character whose layer under
    // the skin is softer says so here, and the family's setting still tunes it.
    float stiffness_scale = 1.0f;
    bool empty() const { return triangles.empty(); }
};

struct SceneDesc {
    std::string name;
    std::vector<BodyDesc> bodies;
    std::vector<MuscleDesc> muscles;
    std::vector<PlaneDesc> planes;
    EnvelopeDesc envelope;
    float sliding_radius = 0.01f;  // m: setup radius for sliding connections
    // Multiplies SolverParams::gravity for this scene: 0 makes a scene
    // weightless (the built-in T1 and P2 float like the thesis' test scenes,
    // so activation is seen alone; hanging studies use builtin:hang).
    float gravity_scale = 1.0f;
};

}  // namespace sim

// An engine scene: what the solver needs (sim::SceneDesc) plus what the
// viewer and the time loop need around it: skeleton, animations, sensors and
// render geometry for non-muscle nodes (bones, plain skinned characters).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "engine/scene/animation.h"
#include "engine/scene/sensors.h"
#include "sim/params.h"
#include "sim/scene_desc.h"

namespace engine {

struct Joint {
    std::string name;
    int parent = -1;  // index into Skeleton::joints, −1 for a root
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 scale{1.0f};
};

// The node hierarchy that animations drive (every glTF node that is a joint
// or an ancestor of one, plus the nodes bodies follow). Parents come before
// children.
struct Skeleton {
    std::vector<Joint> joints;
    int find(const std::string& name) const;
    // Global transforms for the given local poses (size = joints.size()).
    void globals(const std::vector<glm::mat4>& locals, std::vector<glm::mat4>& out) const;
    std::vector<glm::mat4> restLocals() const;
};

// A base colour texture decoded from the file (RGBA8, rows top to bottom as
// glTF's UV origin is the image's top-left corner) with its sampler, in
// glTF's (= OpenGL's) enum values; −1 filter: the renderer's default.
struct Texture {
    std::string name;
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // width × height × 4, sRGB
    int wrap_s = 10497, wrap_t = 10497;  // REPEAT
    int min_filter = -1, mag_filter = -1;
};

// A skin of the file, for reports (`run --json`).
struct SkinInfo {
    std::string name;
    size_t joints = 0;
};

// Non-muscle geometry for the renderer: rigid (follows one joint) or skinned.
// One per drawn glTF primitive (each keeps its own material); the morph
// targets are added before skinning (glTF 2.0, 3.7.2.2).
struct RenderMesh {
    std::string name;
    std::vector<glm::vec3> positions;  // in the space of `joint` (rigid) or bind space (skinned)
    std::vector<glm::vec3> normals;
    std::vector<uint32_t> indices;
    glm::vec3 color{0.85f, 0.82f, 0.75f};
    float alpha = 1.0f;                    // material alpha (used when blend)
    bool blend = false;                    // material alphaMode BLEND: drawn translucent (docs/scene-format.md)
    float alpha_cutoff = -1.0f;            // MASK with a texture: texels below it are not drawn (−1: none)
    int joint = -1;                        // rigid: follows this joint (−1: static, world space)
    // The node's extras.msxpbd_envelope: 1 it is the envelope around the
    // muscles, −1 it is not, 0 unsaid (a translucent skinned mesh around
    // the muscles is taken: engine/scene/envelope_source.h).
    int envelope = 0;
    float envelope_thickness = -1.0f;      // m; < 0: the default
    float envelope_stiffness_scale = 1.0f;  // multiplies the fascia family's stiffness for this skin
    // Skinned: `influence_sets` groups of four (joint, weight) per vertex
    // (JOINTS_n/WEIGHTS_n), the set s of vertex v at [v · influence_sets + s];
    // weights renormalised to sum 1 where a file's do not.
    std::vector<glm::uvec4> skin_joints;   // skin joint slots
    std::vector<glm::vec4> skin_weights;
    int influence_sets = 1;
    std::vector<glm::mat4> inverse_bind;   // per skin joint slot
    std::vector<int> skin_joint_map;       // skin slot → Skeleton joint
    int skin = -1;                         // the file's skin index (−1: not skinned)
    bool skinned() const { return !skin_weights.empty(); }
    // Morph targets: per target, a position offset per vertex; their
    // weights by default (node or mesh "weights") and the skeleton joint
    // (the mesh's node) whose "weights" animation channel drives them.
    std::vector<std::vector<glm::vec3>> morph_targets;
    std::vector<float> morph_weights;
    int morph_node = -1;
    // Base colour texture: index into Scene::textures (−1: none) and its
    // coordinates per vertex (KHR_texture_transform applied).
    int texture = -1;
    std::vector<glm::vec2> uvs;
    std::string mesh;                      // the file's mesh name (or "mesh N"), and which primitive
    int primitive = 0;
};

// Solver settings a scene asks for (extras.msxpbd_scene.substeps and .carry).
// `run`, `bench` and the viewer apply them unless the user gave their own.
struct SceneSolverSettings {
    int substeps = 0;     // 0: no preference
    float carry = -1.0f;  // < 0: no preference
    // Writes the scene's preferences into p, except the ones the user gave.
    void applyTo(sim::SolverParams& p, bool substeps_given = false, bool carry_given = false) const {
        if (!substeps_given && substeps > 0) p.substeps = substeps;
        if (!carry_given && carry >= 0.0f) p.carry = carry;
    }
};

struct Scene {
    std::string source;   // file path or "builtin:NAME"
    sim::SceneDesc desc;  // muscles, bodies, planes for the solver
    Skeleton skeleton;
    std::vector<Animation> animations;
    std::vector<int> body_joint;   // sim body i follows skeleton joint body_joint[i] (−1: fixed)
    std::vector<glm::mat4> body_offset;  // body i = global(joint) · body_offset[i]
    std::vector<RenderMesh> meshes;
    std::vector<Texture> textures;
    std::vector<SkinInfo> skins;
    // What the loader skipped or changed without failing (primitives it
    // cannot draw, images it cannot decode, muscle properties that did not
    // export ...): printed by `run` and the viewer.
    std::vector<std::string> warnings;
    std::vector<MuscleSensors> sensors;  // per muscle (may be empty = no sensors)
    // The mesh that is the solver's envelope (desc.envelope; −1: none) and,
    // per envelope vertex, the mesh vertex it was welded from.
    int envelope_mesh = -1;
    std::vector<uint32_t> envelope_source;
    // Per vertex of that mesh: its envelope vertex (the drawn skin that
    // wraps the muscles, sim/skin_wrap.h, comes back to the mesh through it).
    std::vector<uint32_t> envelope_weld;
    // The envelope's vertices at time t of an animation (−1: rest pose), in
    // desc.envelope's order, into `out` (empty when there is no envelope).
    void envelopePose(int animation, double t, std::vector<glm::vec3>& out) const;
    SceneSolverSettings solver;

    bool hasSensors() const;
    int findAnimation(const std::string& name) const;  // −1 when absent
    // t wrapped into [0, duration) for looping playback (t itself when duration is 0).
    double loopTime(int animation, double t) const;
    // Local rotation of a joint at time t (rest rotation where no channel drives it).
    glm::quat jointRotation(int joint, int animation, double t) const;
    double duration(int animation) const;  // 0 when there is no animation
    // Local poses of the skeleton at time t (seconds) of an animation (−1: rest pose).
    std::vector<glm::mat4> localPoses(int animation, double t) const;
    // Morph weights at time t of every mesh with morph targets, one after the
    // other in mesh order (the defaults where no channel drives them).
    void morphWeights(int animation, double t, std::vector<float>& out) const;
    // Body transforms (one per sim body) at time t.
    std::vector<glm::mat4> bodyTransforms(int animation, double t) const;
    // Sensor-driven activation of muscle m at time t (nullopt: no sensors).
    std::optional<float> sensorActivation(size_t muscle, int animation, double t) const;
};

// T·R·S as a matrix (glTF node transform).
glm::mat4 composeTRS(const glm::vec3& t, const glm::quat& r, const glm::vec3& s);

// glTF morphing then skinning of a RenderMesh with the skeleton's global
// transforms: p = base + Σ_i w_i · target_i, then
// x = Σ_k w_k · global(joint_k) · inverseBind_k · p over every influence (the
// mesh node's own transform is ignored, glTF spec). Rigid meshes:
// global(joint) · p. `morph` holds this mesh's weights (empty: its defaults).
std::vector<glm::vec3> posedPositions(const RenderMesh& mesh, const std::vector<glm::mat4>& globals,
                                      std::span<const float> morph = {});

}  // namespace engine

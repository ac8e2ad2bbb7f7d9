// The generator's description of a scene before it is written (docs/anatomy.md,
// docs/scene-format.md "The scenes"): bones as capsules with display shapes,
// muscles as lofted meshes with their attachments and sensors, animations as
// functions of time. The body plan (body_plan.h) and the motions (motions.h)
// fill it; scene_catalogue.cpp assembles one per scene id; scene_writer.cpp
// writes it as glTF.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "engine/anatomy/muscle_loft.h"
#include "engine/anatomy/skin_outline.h"
#include "engine/gltf/gltf_writer.h"
#include "engine/mesh/mesh_builders.h"

namespace engine::generator {

using json = GltfWriter::json;
constexpr double kPi = 3.14159265358979323846;
inline float deg(double d) { return float(d * kPi / 180.0); }
inline glm::quat axisAngle(glm::vec3 axis, double a) { return glm::angleAxis(float(a), glm::normalize(axis)); }

struct Bone {
    std::string name;
    int parent = -1;
    glm::vec3 head{0.0f}, tail{0.0f};  // world rest positions (joint, far end)
    float radius = 0.01f;
    float knob = 1.8f;     // joint-end radius factor
    float ellipse = 1.0f;
    glm::vec3 width{1, 0, 0};
    bool visible = true;
    // False: drawn only; muscles neither pack against it nor list it as a
    // contact (the kneecap, which the quadriceps' tendon carries).
    bool solid = true;
    // A hand drawn closed into a fist (T6's fighting hand; bone_shapes.cpp,
    // skin_outline.cpp): fingers and thumb are part of the one hand bone.
    bool fist = false;
};

struct MuscleSpec {
    std::string name;
    MeshData mesh;
    std::vector<std::string> origin_bones;  // one per origin set
    std::string insertion_bone;
    json holds;  // explicit attachments instead of origin/insertion bones
    json sensors = json::array();
    std::vector<std::string> sliding;
    float overpressure = 0.2f;
    int group = 0;  // packing group (engine/anatomy/muscle_packing.h): one per limb, one for the trunk
    std::vector<std::string> along;  // further bones it slides along (besides its insertion bone)
    // A sheet laid on the body wall (engine/anatomy/sheet_muscle.h), sized
    // already: packing leaves its shape and moves its neighbours out of it.
    bool sheet = false;
};

struct Channel {
    int bone;
    std::function<glm::quat(double)> rotation;
    // The bone's translation in its parent's frame at time t; empty: its
    // rest offset from the parent (a bone that glides, as the kneecap does).
    std::function<glm::vec3(double)> translation = {};
};
struct AnimSpec {
    std::string name;
    double duration;
    double fps;
    std::vector<Channel> channels;
    // The writer solves the root bone's height at every sample so that the
    // lowest drawn point lies on the scene's first plane (grounding.h); the
    // root then has no Channel::translation of its own (one translation
    // channel per node).
    bool grounded = false;
};

struct SceneSpec {
    std::string id, file, title;
    std::vector<Bone> bones;
    std::vector<MuscleSpec> muscles;
    std::vector<AnimSpec> animations;
    json planes = json::array();
    int res = 1;  // 0: coarse (T7), 1: normal
    // Muscles in a limb (T2, T3, T5, T6, T7, P4) are weightless: skin and
    // fascia, which the model does not simulate, carry them
    // (docs/scene-format.md). T4 and P3 keep gravity: their plane is the test.
    float gravity_scale = 1.0f;
    bool packed = false;  // muscles packed against each other (packScene): contacts from touching
    int substeps = 0;     // suggested substeps per frame (0: the solver's default)
    float carry = -1.0f;  // suggested SolverParams::carry (−1: the solver's default)
    int find(const std::string& n) const {
        for (size_t i = 0; i < bones.size(); ++i)
            if (bones[i].name == n) return int(i);
        return -1;
    }
};

// The rig as the skin outline reads it (engine/anatomy/skin_outline.h).
inline std::vector<OutlineBone> outlineBones(const SceneSpec& sc) {
    std::vector<OutlineBone> ob;
    for (const Bone& b : sc.bones) ob.push_back({b.name, b.head, b.tail, b.parent, b.fist});
    return ob;
}

// Resolution: rings from the path length, ring size from the radius.
LoftShape shapeFor(const std::vector<glm::vec3>& path, float r, float ellipse, glm::vec3 width, int res);

}  // namespace engine::generator

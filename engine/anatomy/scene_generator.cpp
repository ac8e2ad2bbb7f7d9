// The generated scenes (docs/scene-format.md (the scenes)) built from docs/anatomy.md landmarks: a skeleton
// (glTF skin + joint hierarchy, one skinned bone mesh), muscles lofted along
// anatomical paths, animations sampled into LINEAR glTF samplers, and the
// msxpbd extras (docs/scene-format.md). Pure functions of the code: the same
// build writes the same bytes.
#include "engine/anatomy/scene_generator.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include <glm/gtc/quaternion.hpp>

#include "engine/anatomy/anatomy_reference.h"
#include "engine/anatomy/bone_shapes.h"
#include "engine/gltf/gltf_writer.h"
#include "engine/anatomy/muscle_loft.h"
#include "engine/anatomy/muscle_packing.h"
#include "engine/anatomy/skin_outline.h"
#include "sim/geometry.h"

namespace engine {
namespace {

using json = GltfWriter::json;
constexpr double kPi = 3.14159265358979323846;
float deg(double d) { return float(d * kPi / 180.0); }

// ------------------------------------------------------------------ model

struct Bone {
    std::string name;
    int parent = -1;
    glm::vec3 head{0.0f}, tail{0.0f};  // world rest positions (joint, far end)
    float radius = 0.01f;
    float knob = 1.8f;     // joint-end radius factor
    float ellipse = 1.0f;
    glm::vec3 width{1, 0, 0};
    bool visible = true;
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
};

struct Channel {
    int bone;
    std::function<glm::quat(double)> rotation;
};
struct AnimSpec {
    std::string name;
    double duration;
    double fps;
    std::vector<Channel> channels;
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

glm::quat axisAngle(glm::vec3 axis, double a) { return glm::angleAxis(float(a), glm::normalize(axis)); }

// Resolution: rings from the path length, ring size from the radius.
LoftShape shapeFor(const std::vector<glm::vec3>& path, float r, float ellipse, glm::vec3 width, int res) {
    float len = 0;
    for (size_t i = 1; i < path.size(); ++i) len += glm::length(path[i] - path[i - 1]);
    LoftShape s;
    s.r_max = r;
    s.ellipse = ellipse;
    s.width_dir = width;
    const float step = res ? 0.008f : 0.015f;
    s.rings = std::clamp(int(std::lround(len / step)), res ? 12 : 10, res ? 40 : 28);
    s.segments = res ? (r > 0.015f ? 20 : 16) : (r > 0.015f ? 14 : 12);
    s.power = 0.8f;
    s.tendon = 0.22f;
    return s;
}

// ------------------------------------------------------------------ anatomy

struct Side {
    float s;  // −1 right (−X), +1 left
    std::string suf;
    glm::vec3 V(glm::vec3 base, float lat, float up, float ant) const { return base + glm::vec3(s * lat, up, ant); }
};

const glm::vec3 kPelvis(0.0f, 0.97f, 0.0f);
const glm::vec3 kTorso = kPelvis + glm::vec3(0.0f, 0.09f, -0.03f);
glm::vec3 shoulder(const Side& d) { return kTorso + glm::vec3(d.s * 0.17f, 0.37f, 0.0f); }

void addArmBones(SceneSpec& sc, const Side& d, int torso) {
    const glm::vec3 SH = shoulder(d), E = SH - glm::vec3(0, 0.29f, 0), W = E - glm::vec3(0, 0.24f, 0);
    auto add = [&](Bone b) {
        sc.bones.push_back(b);
        return int(sc.bones.size()) - 1;
    };
    Bone clav{"clavicle" + d.suf, torso, d.V(SH, -0.15f, 0.01f, 0.05f), d.V(SH, -0.01f, 0.045f, 0.01f), 0.007f, 1.5f};
    clav.width = {0, 0, 1};
    add(clav);
    Bone scap{"scapula" + d.suf, torso, d.V(SH, -0.01f, 0.04f, -0.035f), d.V(SH, -0.08f, -0.14f, -0.08f), 0.012f, 1.3f, 0.35f};
    scap.width = {1, 0, 0};
    int sc_i = add(scap);
    int hum = add(Bone{"humerus" + d.suf, sc_i, SH, E, 0.011f, 2.0f});
    int uln = add(Bone{"ulna" + d.suf, hum, E, d.V(W, -0.02f, 0.0f, -0.005f), 0.008f, 1.7f});
    int rad = add(Bone{"radius" + d.suf, uln, d.V(E, 0.015f, -0.01f, 0.005f), d.V(W, 0.02f, 0.0f, 0.005f), 0.008f, 1.7f});
    Bone hand{"hand" + d.suf, rad, W, W - glm::vec3(0, 0.17f, 0), 0.022f, 1.0f, 0.4f};
    hand.width = {1, 0, 0};
    add(hand);
}

struct MDef {
    const char* name;
    std::vector<glm::vec3> path;
    float r;
    float ellipse;
    glm::vec3 width;
    const char* origin;
    const char* insertion;
    // End radii as a share of r_max (< 0: a tendon, LoftShape::tendon); a
    // fleshy attachment is broad (docs/anatomy.md "Packed muscles").
    float origin_end = -1.0f, insertion_end = -1.0f;
};

MeshData loft(const MDef& m, int res) {
    LoftShape shape = shapeFor(m.path, m.r, m.ellipse, m.width, res);
    shape.tendon_origin = m.origin_end;
    shape.tendon_insertion = m.insertion_end;
    return loftMuscle(m.path, shape);
}

void addMuscle(SceneSpec& sc, const std::string& suf, const MDef& m, float overpressure = 0.2f) {
    MuscleSpec ms;
    ms.name = std::string(m.name) + suf;
    ms.mesh = loft(m, sc.res);
    ms.origin_bones = {std::string(m.origin) + suf};
    ms.insertion_bone = std::string(m.insertion) + suf;
    ms.overpressure = overpressure;
    ms.group = suf == "_l" ? 1 : 0;
    // The wrist's long muscles also slide along the forearm bone they lie on.
    const std::string base(m.name);
    if (base == "extensor_carpi_radialis_longus" || base == "extensor_carpi_radialis_brevis")
        ms.along = {"radius" + suf};
    else if (base == "flexor_carpi_radialis")
        ms.along = {"ulna" + suf};
    sc.muscles.push_back(std::move(ms));
}

json sensor(const std::string& joint, glm::vec3 axis, float offset, float angle_gain, float vel_gain, float acc_gain) {
    return {{"joint", joint},
            {"axis", {double(axis.x), double(axis.y), double(axis.z)}},
            {"angle_offset", double(offset)},
            {"angle_gain", double(angle_gain)},
            {"velocity_gain", double(vel_gain)},
            {"acceleration_gain", double(acc_gain)}};
}

// The 17 arm muscles of docs/anatomy.md. `fast`: T6 adds velocity terms.
void addArmMuscles(SceneSpec& sc, const Side& d, bool fast, bool only_biceps_brachialis = false) {
    const glm::vec3 SH = shoulder(d), E = SH - glm::vec3(0, 0.29f, 0), W = E - glm::vec3(0, 0.24f, 0);
    const glm::vec3 X(1, 0, 0), Z(0, 0, 1);
    const std::string& u = d.suf;
    // Biceps: two heads merged into one manifold.
    {
        const glm::vec3 merge = d.V(SH, 0.0f, -0.11f, 0.046f);
        std::vector<glm::vec3> a = {d.V(SH, -0.02f, 0.03f, 0.005f), d.V(SH, 0.005f, 0.035f, 0.025f),
                                    d.V(SH, 0.012f, -0.04f, 0.032f), merge + glm::vec3(d.s * 0.01f, 0, 0)};
        std::vector<glm::vec3> b = {d.V(SH, -0.03f, 0.015f, 0.045f), d.V(SH, -0.022f, -0.06f, 0.048f),
                                    merge - glm::vec3(d.s * 0.01f, 0, 0)};
        std::vector<glm::vec3> belly = {merge, d.V(E, 0.0f, 0.08f, 0.05f), d.V(E, 0.0f, 0.015f, 0.032f),
                                        d.V(E, 0.005f, -0.035f, 0.012f)};
        LoftShape s = shapeFor(belly, 0.021f, 0.68f, X, sc.res);
        s.segments = sc.res ? 20 : 14;
        MuscleSpec ms;
        ms.name = "biceps" + u;
        ms.mesh = loftTwoHeaded(a, b, belly, s, 0.012f, sc.res ? 20 : 12);
        ms.origin_bones = {"scapula" + u, "scapula" + u};
        ms.insertion_bone = "radius" + u;
        ms.group = u == "_l" ? 1 : 0;
        sc.muscles.push_back(std::move(ms));
    }
    addMuscle(sc, u, {"brachialis", {d.V(SH, 0.0f, -0.10f, 0.016f), d.V(E, 0.0f, 0.1f, 0.024f), d.V(E, 0.0f, 0.0f, 0.02f), d.V(E, -0.005f, -0.03f, 0.008f)}, 0.016f, 0.6f, X, "humerus", "ulna", 0.7f});
    if (only_biceps_brachialis) return;
    addMuscle(sc, u, {"deltoid_anterior", {d.V(SH, -0.03f, 0.045f, 0.035f), d.V(SH, 0.01f, 0.025f, 0.048f), d.V(SH, 0.03f, -0.06f, 0.03f), d.V(SH, 0.02f, -0.13f, 0.004f)}, 0.013f, 0.5f, X, "clavicle", "humerus", 0.6f});
    addMuscle(sc, u, {"deltoid_middle", {d.V(SH, 0.015f, 0.05f, 0.0f), d.V(SH, 0.048f, 0.0f, 0.0f), d.V(SH, 0.036f, -0.07f, 0.0f), d.V(SH, 0.022f, -0.13f, 0.0f)}, 0.014f, 0.5f, Z, "scapula", "humerus", 0.6f});
    addMuscle(sc, u, {"deltoid_posterior", {d.V(SH, -0.02f, 0.045f, -0.05f), d.V(SH, 0.01f, 0.02f, -0.048f), d.V(SH, 0.03f, -0.06f, -0.03f), d.V(SH, 0.02f, -0.13f, -0.004f)}, 0.012f, 0.5f, X, "scapula", "humerus", 0.6f});
    addMuscle(sc, u, {"brachioradialis", {d.V(E, 0.025f, 0.07f, 0.0f), d.V(E, 0.036f, 0.0f, 0.016f), d.V(E, 0.03f, -0.1f, 0.016f), d.V(W, 0.03f, 0.005f, 0.005f)}, 0.011f, 0.6f, Z, "humerus", "radius", 0.6f});
    addMuscle(sc, u, {"triceps_long", {d.V(SH, -0.02f, -0.03f, -0.02f), d.V(SH, -0.01f, -0.09f, -0.045f), d.V(E, 0.0f, 0.09f, -0.045f), d.V(E, 0.0f, 0.008f, -0.02f)}, 0.017f, 0.65f, X, "scapula", "ulna"});
    addMuscle(sc, u, {"triceps_lateral", {d.V(SH, 0.015f, -0.07f, -0.018f), d.V(SH, 0.024f, -0.16f, -0.028f), d.V(E, 0.012f, 0.06f, -0.034f), d.V(E, 0.004f, 0.008f, -0.02f)}, 0.013f, 0.6f, X, "humerus", "ulna", 0.6f});
    addMuscle(sc, u, {"triceps_medial", {d.V(SH, -0.005f, -0.12f, -0.016f), d.V(E, -0.005f, 0.08f, -0.021f), d.V(E, -0.004f, 0.008f, -0.02f)}, 0.012f, 0.6f, X, "humerus", "ulna", 0.7f});
    addMuscle(sc, u, {"coracobrachialis", {d.V(SH, -0.036f, 0.01f, 0.04f), d.V(SH, -0.028f, -0.06f, 0.03f), d.V(SH, -0.016f, -0.15f, 0.008f)}, 0.009f, 0.7f, X, "scapula", "humerus"});
    addMuscle(sc, u, {"anconeus", {d.V(E, 0.028f, 0.004f, -0.005f), d.V(E, 0.02f, -0.03f, -0.02f), d.V(E, 0.008f, -0.05f, -0.02f)}, 0.007f, 0.6f, Z, "humerus", "ulna", 0.5f});
    addMuscle(sc, u, {"pronator_teres", {d.V(E, -0.035f, 0.01f, 0.008f), d.V(E, -0.02f, -0.05f, 0.022f), d.V(E, 0.015f, -0.12f, 0.014f)}, 0.009f, 0.65f, X, "humerus", "radius"});
    addMuscle(sc, u, {"supinator", {d.V(E, 0.03f, -0.01f, 0.005f), d.V(E, 0.022f, -0.035f, 0.01f), d.V(E, 0.012f, -0.07f, 0.012f)}, 0.008f, 0.6f, Z, "ulna", "radius", 0.6f, 0.5f});
    addMuscle(sc, u, {"flexor_carpi_radialis", {d.V(E, -0.033f, -0.008f, 0.012f), d.V(E, -0.02f, -0.08f, 0.026f), d.V(W, 0.005f, 0.04f, 0.016f), d.V(W, 0.02f, -0.035f, 0.01f)}, 0.009f, 0.65f, X, "humerus", "hand"});
    addMuscle(sc, u, {"extensor_carpi_radialis_longus", {d.V(E, 0.03f, 0.04f, -0.008f), d.V(E, 0.028f, -0.06f, -0.012f), d.V(W, 0.022f, 0.04f, -0.014f), d.V(W, 0.02f, -0.035f, -0.01f)}, 0.009f, 0.65f, Z, "humerus", "hand"});
    addMuscle(sc, u, {"extensor_carpi_radialis_brevis", {d.V(E, 0.03f, -0.005f, -0.014f), d.V(E, 0.018f, -0.08f, -0.022f), d.V(W, 0.01f, 0.04f, -0.018f), d.V(W, 0.0f, -0.035f, -0.01f)}, 0.008f, 0.65f, Z, "humerus", "hand"});

    // Sensors: flexors by elbow flexion, extensors by extension velocity.
    const std::string elbow = "ulna" + u;
    const glm::vec3 flex(-1, 0, 0), ext(1, 0, 0);
    const float vg = fast ? 0.06f : 0.0f, ag = fast ? 0.0015f : 0.0f;
    std::map<std::string, json> s = {
        {"biceps", sensor(elbow, flex, 0.15f, 0.5f, vg, ag)},
        {"brachialis", sensor(elbow, flex, 0.1f, 0.55f, vg, ag)},
        {"brachioradialis", sensor(elbow, flex, 0.3f, 0.4f, vg, ag)},
        {"triceps_long", sensor(elbow, ext, 3.0f, 0.0f, fast ? 0.12f : 0.15f, ag)},
        {"triceps_lateral", sensor(elbow, ext, 3.0f, 0.0f, fast ? 0.12f : 0.15f, ag)},
        {"triceps_medial", sensor(elbow, ext, 3.0f, 0.0f, fast ? 0.12f : 0.15f, ag)},
        {"anconeus", sensor(elbow, ext, 3.0f, 0.0f, 0.08f, 0.0f)},
    };
    for (MuscleSpec& m : sc.muscles) {
        if (m.name.size() < u.size() || m.name.compare(m.name.size() - u.size(), u.size(), u) != 0) continue;
        auto it = s.find(m.name.substr(0, m.name.size() - u.size()));
        if (it != s.end()) m.sensors = json::array({it->second});
    }
}

void addLeg(SceneSpec& sc, const Side& d, int pelvis) {
    const glm::vec3 P = kPelvis, H = d.V(P, 0.084f, -0.066f, -0.071f + 0.05f), K = H - glm::vec3(0, 0.40f, 0),
                    A = K - glm::vec3(0, 0.43f, 0);
    const std::string& u = d.suf;
    sc.bones.push_back(Bone{"femur" + u, pelvis, H, K, 0.014f, 1.9f});
    int fem = int(sc.bones.size()) - 1;
    sc.bones.push_back(Bone{"tibia" + u, fem, K, A, 0.012f, 2.0f});
    int tib = int(sc.bones.size()) - 1;
    Bone foot{"foot" + u, tib, A, d.V(A, 0.01f, -0.05f, 0.18f), 0.022f, 1.2f, 0.45f};
    foot.width = {1, 0, 0};
    sc.bones.push_back(foot);
    const glm::vec3 X(1, 0, 0), Z(0, 0, 1);
    const glm::vec3 GT = d.V(H, 0.05f, -0.02f, -0.005f), IT = d.V(P, 0.06f, -0.10f, -0.05f),
                    FH = d.V(K, 0.04f, -0.04f, -0.015f), LT = d.V(H, -0.02f, -0.06f, -0.01f),
                    CAL = d.V(A, 0.0f, -0.03f, -0.05f);
    std::vector<MDef> m = {
        {"glut_med1", {d.V(P, 0.12f, 0.07f, 0.06f), GT + glm::vec3(0, 0.01f, 0.01f)}, 0.018f, 0.55f, Z, "pelvis", "femur", 0.6f},
        {"glut_med2", {d.V(P, 0.125f, 0.09f, 0.0f), GT + glm::vec3(0, 0.015f, 0)}, 0.018f, 0.55f, Z, "pelvis", "femur", 0.6f},
        {"glut_med3", {d.V(P, 0.09f, 0.07f, -0.06f), GT + glm::vec3(0, 0.01f, -0.012f)}, 0.018f, 0.55f, Z, "pelvis", "femur", 0.6f},
        {"glut_min1", {d.V(P, 0.10f, 0.03f, 0.04f), GT + glm::vec3(0, 0.02f, 0.012f)}, 0.011f, 0.6f, Z, "pelvis", "femur", 0.6f},
        {"glut_min2", {d.V(P, 0.105f, 0.035f, 0.01f), GT + glm::vec3(0, 0.025f, 0.0f)}, 0.011f, 0.6f, Z, "pelvis", "femur", 0.6f},
        {"glut_min3", {d.V(P, 0.09f, 0.03f, -0.03f), GT + glm::vec3(0, 0.02f, -0.01f)}, 0.011f, 0.6f, Z, "pelvis", "femur", 0.6f},
        {"semimem", {IT, d.V(H, -0.005f, -0.2f, -0.06f), d.V(K, -0.025f, -0.03f, -0.02f)}, 0.018f, 0.7f, X, "pelvis", "tibia"},
        {"semiten", {IT + glm::vec3(0, -0.01f, -0.012f), d.V(H, -0.02f, -0.22f, -0.075f), d.V(K, -0.03f, -0.02f, -0.03f), d.V(K, -0.02f, -0.07f, 0.01f)}, 0.014f, 0.7f, X, "pelvis", "tibia"},
        {"bifemlh", {IT + glm::vec3(d.s * 0.012f, -0.005f, -0.01f), d.V(H, 0.03f, -0.22f, -0.07f), FH}, 0.017f, 0.7f, X, "pelvis", "tibia"},
        {"bifemsh", {d.V(H, 0.02f, -0.2f, -0.025f), d.V(K, 0.035f, 0.05f, -0.035f), FH + glm::vec3(0, 0.01f, -0.005f)}, 0.013f, 0.7f, X, "femur", "tibia", 0.6f},
        {"sartorius", {d.V(P, 0.11f, 0.02f, 0.09f), d.V(H, -0.02f, -0.2f, 0.06f), d.V(K, -0.045f, 0.0f, -0.01f), d.V(K, -0.02f, -0.07f, 0.015f)}, 0.01f, 0.5f, X, "pelvis", "tibia"},
        {"add_long", {d.V(P, 0.03f, -0.06f, 0.08f), d.V(H, -0.03f, -0.12f, 0.02f), d.V(H, -0.01f, -0.22f, -0.01f)}, 0.016f, 0.6f, X, "pelvis", "femur"},
        {"add_brev", {d.V(P, 0.035f, -0.08f, 0.065f), d.V(H, -0.03f, -0.08f, 0.0f), d.V(H, -0.006f, -0.12f, -0.012f)}, 0.014f, 0.6f, X, "pelvis", "femur"},
        {"add_mag1", {d.V(P, 0.04f, -0.1f, 0.04f), d.V(H, -0.04f, -0.1f, -0.02f), d.V(H, -0.01f, -0.15f, -0.02f)}, 0.016f, 0.6f, Z, "pelvis", "femur", 0.5f},
        {"add_mag2", {d.V(P, 0.045f, -0.11f, 0.0f), d.V(H, -0.045f, -0.18f, -0.03f), d.V(H, -0.01f, -0.25f, -0.02f)}, 0.018f, 0.6f, Z, "pelvis", "femur", 0.5f},
        {"add_mag3", {d.V(P, 0.05f, -0.11f, -0.04f), d.V(H, -0.05f, -0.25f, -0.04f), d.V(K, -0.03f, 0.04f, -0.01f)}, 0.018f, 0.6f, Z, "pelvis", "femur", 0.5f},
        {"tfl", {d.V(P, 0.13f, 0.04f, 0.07f), d.V(H, 0.08f, -0.12f, 0.02f), d.V(K, 0.06f, -0.02f, 0.01f)}, 0.011f, 0.5f, Z, "pelvis", "tibia"},
        {"pectineus", {d.V(P, 0.035f, -0.07f, 0.085f), d.V(H, -0.015f, -0.06f, -0.008f)}, 0.012f, 0.6f, X, "pelvis", "femur"},
        {"gracilis", {d.V(P, 0.02f, -0.09f, 0.07f), d.V(H, -0.07f, -0.2f, 0.0f), d.V(K, -0.045f, 0.02f, -0.015f), d.V(K, -0.022f, -0.065f, 0.012f)}, 0.009f, 0.6f, Z, "pelvis", "tibia"},
        {"glut_max1", {d.V(P, 0.08f, 0.08f, -0.1f), d.V(H, 0.06f, -0.02f, -0.07f), d.V(H, 0.04f, -0.08f, -0.03f)}, 0.026f, 0.55f, X, "pelvis", "femur", 0.6f},
        {"glut_max2", {d.V(P, 0.05f, 0.02f, -0.12f), d.V(H, 0.05f, -0.06f, -0.09f), d.V(H, 0.035f, -0.1f, -0.03f)}, 0.026f, 0.55f, X, "pelvis", "femur", 0.6f},
        {"glut_max3", {d.V(P, 0.025f, -0.05f, -0.11f), d.V(H, 0.03f, -0.1f, -0.08f), d.V(H, 0.03f, -0.12f, -0.03f)}, 0.024f, 0.55f, X, "pelvis", "femur", 0.6f},
        {"iliacus", {d.V(P, 0.09f, 0.06f, 0.03f), d.V(P, 0.07f, -0.04f, 0.08f), LT}, 0.018f, 0.6f, X, "pelvis", "femur", 0.6f},
        {"psoas", {d.V(P, 0.03f, 0.15f, 0.0f), d.V(P, 0.05f, -0.04f, 0.085f), LT + glm::vec3(0, -0.01f, 0)}, 0.018f, 0.8f, X, "pelvis", "femur"},
        {"quad_fem", {d.V(P, 0.07f, -0.10f, -0.04f), d.V(H, 0.03f, -0.04f, -0.04f)}, 0.011f, 0.6f, Z, "pelvis", "femur"},
        {"gemelli", {d.V(P, 0.07f, -0.06f, -0.05f), d.V(H, 0.04f, 0.0f, -0.03f)}, 0.008f, 0.6f, Z, "pelvis", "femur"},
        {"piriformis", {d.V(P, 0.03f, 0.02f, -0.09f), d.V(H, 0.045f, 0.012f, -0.02f)}, 0.011f, 0.6f, Z, "pelvis", "femur"},
        {"rect_fem", {d.V(P, 0.09f, -0.02f, 0.08f), d.V(H, 0.01f, -0.2f, 0.065f), d.V(K, 0.0f, 0.04f, 0.06f), d.V(K, 0.0f, -0.06f, 0.035f)}, 0.02f, 0.7f, X, "pelvis", "tibia"},
        {"vas_med", {d.V(H, -0.02f, -0.15f, 0.01f), d.V(K, -0.045f, 0.1f, 0.03f), d.V(K, -0.015f, 0.02f, 0.05f), d.V(K, -0.005f, -0.055f, 0.035f)}, 0.02f, 0.7f, Z, "femur", "tibia", 0.6f},
        {"vas_int", {d.V(H, 0.0f, -0.10f, 0.018f), d.V(K, 0.0f, 0.15f, 0.022f), d.V(K, 0.0f, 0.05f, 0.03f), d.V(K, 0.0f, -0.05f, 0.03f)}, 0.014f, 0.6f, X, "femur", "tibia", 0.6f},
        {"vas_lat", {d.V(H, 0.045f, -0.08f, 0.0f), d.V(K, 0.05f, 0.12f, 0.015f), d.V(K, 0.02f, 0.03f, 0.048f), d.V(K, 0.005f, -0.055f, 0.035f)}, 0.022f, 0.65f, Z, "femur", "tibia", 0.6f},
        {"med_gas", {d.V(K, -0.025f, 0.02f, -0.03f), d.V(K, -0.022f, -0.12f, -0.055f), CAL - glm::vec3(d.s * 0.004f, 0, 0)}, 0.02f, 0.6f, X, "femur", "foot"},
        {"lat_gas", {d.V(K, 0.025f, 0.02f, -0.03f), d.V(K, 0.022f, -0.12f, -0.05f), CAL + glm::vec3(d.s * 0.004f, 0, 0)}, 0.018f, 0.6f, X, "femur", "foot"},
        {"soleus", {d.V(K, 0.01f, -0.08f, -0.02f), d.V(K, 0.0f, -0.24f, -0.03f), CAL + glm::vec3(0, 0.012f, 0.004f)}, 0.02f, 0.55f, X, "tibia", "foot", 0.6f},
        {"tib_post", {d.V(K, 0.0f, -0.10f, -0.008f), d.V(A, -0.02f, 0.06f, -0.012f), d.V(A, -0.03f, -0.04f, 0.03f)}, 0.011f, 0.6f, X, "tibia", "foot", 0.5f},
        {"flex_dig", {d.V(K, -0.016f, -0.15f, -0.012f), d.V(A, -0.026f, 0.0f, -0.02f), d.V(A, 0.0f, -0.055f, 0.16f)}, 0.008f, 0.6f, X, "tibia", "foot", 0.5f},
        {"flex_hal", {d.V(K, 0.022f, -0.19f, -0.004f), d.V(A, -0.016f, 0.0f, -0.016f), d.V(A, -0.03f, -0.055f, 0.17f)}, 0.009f, 0.6f, X, "tibia", "foot", 0.5f},
        {"tib_ant", {d.V(K, 0.02f, -0.06f, 0.022f), d.V(A, -0.005f, 0.08f, 0.032f), d.V(A, -0.02f, -0.03f, 0.05f)}, 0.013f, 0.6f, Z, "tibia", "foot", 0.5f},
        {"per_brev", {d.V(K, 0.03f, -0.25f, -0.004f), d.V(A, 0.036f, -0.01f, -0.016f), d.V(A, 0.04f, -0.04f, 0.06f)}, 0.008f, 0.6f, Z, "tibia", "foot", 0.5f},
        {"per_long", {d.V(K, 0.037f, -0.05f, 0.0f), d.V(A, 0.042f, 0.0f, -0.022f), d.V(A, 0.02f, -0.05f, 0.05f)}, 0.01f, 0.6f, Z, "tibia", "foot", 0.5f},
        {"per_tert", {d.V(K, 0.03f, -0.3f, 0.016f), d.V(A, 0.03f, 0.0f, 0.036f), d.V(A, 0.04f, -0.04f, 0.08f)}, 0.007f, 0.6f, Z, "tibia", "foot", 0.5f},
        {"ext_dig", {d.V(K, 0.026f, -0.05f, 0.024f), d.V(A, 0.012f, 0.02f, 0.042f), d.V(A, 0.01f, -0.03f, 0.16f)}, 0.009f, 0.6f, Z, "tibia", "foot", 0.5f},
        {"ext_hal", {d.V(K, 0.012f, -0.18f, 0.024f), d.V(A, 0.0f, 0.02f, 0.044f), d.V(A, -0.025f, -0.03f, 0.17f)}, 0.008f, 0.6f, Z, "tibia", "foot", 0.5f},
    };
    for (MDef& x : m) {
        // "pelvis" is shared by both legs (no side suffix).
        MuscleSpec ms;
        ms.name = std::string(x.name) + u;
        ms.mesh = loft(x, sc.res);
        ms.origin_bones = {std::string(x.origin) == "pelvis" ? "pelvis" : x.origin + u};
        ms.insertion_bone = x.insertion + u;
        ms.group = u == "_l" ? 3 : 2;
        // Sensors (docs/anatomy.md "Leg sensors"): the gait's prime movers
        // activate with the joint motion they produce, so a walking or
        // running body shows them working. Hip flexion is about −X at the
        // femur, knee flexion about +X at the tibia, dorsiflexion about −X at
        // the foot.
        const std::string n(x.name);
        auto starts = [&](const char* p) { return n.rfind(p, 0) == 0; };
        if (starts("vas_") || n == "rect_fem")
            ms.sensors = json::array({sensor("tibia" + u, {1, 0, 0}, 0.35f, 0.9f, 0.0f, 0.0f)});
        else if (n == "semimem" || n == "semiten" || starts("bifem"))
            ms.sensors = json::array({sensor("tibia" + u, {1, 0, 0}, 3.0f, 0.0f, 0.12f, 0.0f)});
        else if (starts("glut_max"))
            ms.sensors = json::array({sensor("femur" + u, {1, 0, 0}, -0.05f, 1.5f, 0.0f, 0.0f)});
        else if (n == "iliacus" || n == "psoas")
            ms.sensors = json::array({sensor("femur" + u, {-1, 0, 0}, 0.3f, 1.2f, 0.0f, 0.0f)});
        else if (n == "med_gas" || n == "lat_gas" || n == "soleus")
            ms.sensors = json::array({sensor("foot" + u, {1, 0, 0}, 0.0f, 2.0f, 0.0f, 0.0f)});
        else if (n == "tib_ant")
            ms.sensors = json::array({sensor("foot" + u, {-1, 0, 0}, 0.0f, 2.0f, 0.0f, 0.0f)});
        sc.muscles.push_back(std::move(ms));
    }
}

void addTrunkMuscles(SceneSpec& sc, const Side& d) {
    const glm::vec3 P = kPelvis, T = kTorso, SH = shoulder(d);
    const std::string& u = d.suf;
    const glm::vec3 X(1, 0, 0), Z(0, 0, 1);
    std::vector<MDef> m = {
        {"erector_spinae", {d.V(P, 0.035f, 0.02f, -0.11f), d.V(T, 0.04f, 0.15f, -0.11f), d.V(T, 0.03f, 0.34f, -0.09f)}, 0.02f, 0.7f, X, "pelvis", "torso"},
        {"int_oblique", {d.V(P, 0.125f, 0.07f, 0.02f), d.V(T, 0.11f, 0.1f, 0.08f), d.V(T, 0.05f, 0.2f, 0.12f)}, 0.012f, 0.4f, Z, "pelvis", "torso"},
        {"ext_oblique", {d.V(T, 0.15f, 0.25f, 0.05f), d.V(T, 0.14f, 0.1f, 0.1f), d.V(P, 0.06f, 0.0f, 0.13f)}, 0.013f, 0.4f, Z, "torso", "pelvis"},
        {"pec_major", {d.V(T, 0.03f, 0.3f, 0.12f), d.V(SH, -0.08f, -0.04f, 0.09f), d.V(SH, 0.0f, -0.08f, 0.03f)}, 0.02f, 0.4f, glm::vec3(0, 1, 0), "torso", "humerus"},
        {"lat_dorsi", {d.V(T, 0.04f, 0.08f, -0.12f), d.V(T, 0.14f, 0.2f, -0.08f), d.V(SH, -0.03f, -0.08f, -0.02f)}, 0.02f, 0.4f, glm::vec3(0, 1, 0), "torso", "humerus"},
        {"trapezius", {d.V(T, 0.0f, 0.5f, -0.06f), d.V(T, 0.09f, 0.42f, -0.07f), d.V(SH, -0.03f, 0.05f, -0.04f)}, 0.018f, 0.4f, Z, "torso", "scapula"},
    };
    for (MDef& x : m) {
        MuscleSpec ms;
        ms.name = std::string(x.name) + u;
        ms.mesh = loft(x, sc.res);
        auto bone = [&](const std::string& b) { return (b == "pelvis" || b == "torso") ? b : b + u; };
        ms.origin_bones = {bone(x.origin)};
        ms.insertion_bone = bone(x.insertion);
        ms.group = 4;
        sc.muscles.push_back(std::move(ms));
    }
}

// ------------------------------------------------------------------ packing

// The limb's fascia (docs/anatomy.md "Packed muscles"): tapered round pieces
// around the bones, smooth-unioned. Radii: the muscle compartment, inside
// the skin and subcutaneous fat (ANSUR girths less a fat layer), sized so the
// measured volumes fill it.
struct FasciaPiece {
    glm::vec3 a, b;
    float ra, rb;
};

float fasciaDistance(const std::vector<FasciaPiece>& pieces, glm::vec3 p) {
    const float k = 0.015f;  // smooth-union blend (m)
    float d = 1e9f;
    for (const FasciaPiece& f : pieces) {
        const glm::vec3 ab = f.b - f.a;
        const float t = std::clamp(glm::dot(p - f.a, ab) / std::max(1e-12f, glm::dot(ab, ab)), 0.0f, 1.0f);
        const float di = glm::length(p - (f.a + t * ab)) - (f.ra + t * (f.rb - f.ra));
        const float h = std::clamp(0.5f + 0.5f * (di - d) / k, 0.0f, 1.0f);
        d = d >= 1e8f ? di : di * (1.0f - h) + d * h - k * h * (1.0f - h);
    }
    return d;
}

void addArmFascia(std::vector<FasciaPiece>& f, const Side& d) {
    const glm::vec3 SH = shoulder(d), E = SH - glm::vec3(0, 0.29f, 0), W = E - glm::vec3(0, 0.24f, 0);
    f.push_back({d.V(SH, 0.0f, 0.0f, 0.0f), d.V(SH, 0.005f, -0.07f, 0.0f), 0.0475f, 0.043f});    // shoulder, under the deltoid
    f.push_back({d.V(SH, 0.0f, -0.07f, 0.0f), d.V(SH, 0.0f, -0.17f, 0.006f), 0.0475f, 0.0475f});  // upper arm, bellies
    f.push_back({d.V(SH, 0.0f, -0.17f, 0.006f), d.V(E, 0.0f, 0.04f, 0.006f), 0.0475f, 0.0295f});  // upper arm, to the elbow
    f.push_back({d.V(E, 0.0f, 0.04f, 0.006f), d.V(E, 0.0f, -0.06f, 0.004f), 0.0295f, 0.032f});    // elbow
    f.push_back({d.V(E, 0.0f, -0.06f, 0.004f), d.V(W, 0.0f, 0.0f, 0.0f), 0.032f, 0.018f});        // forearm
}

void addLegFascia(std::vector<FasciaPiece>& f, const Side& d) {
    const glm::vec3 P = kPelvis, H = d.V(P, 0.084f, -0.066f, -0.071f + 0.05f), K = H - glm::vec3(0, 0.40f, 0),
                    A = K - glm::vec3(0, 0.43f, 0);
    f.push_back({d.V(P, 0.03f, -0.07f, 0.03f), d.V(H, 0.0f, -0.02f, -0.01f), 0.085f, 0.085f});  // groin and hip
    f.push_back({d.V(H, -0.01f, -0.05f, 0.0f), d.V(K, 0.0f, 0.08f, -0.005f), 0.083f, 0.057f});  // thigh
    f.push_back({d.V(K, 0.0f, 0.08f, -0.005f), d.V(K, 0.0f, -0.05f, -0.02f), 0.057f, 0.05f});   // knee
    f.push_back({d.V(K, 0.0f, -0.05f, -0.02f), d.V(K, 0.0f, -0.15f, -0.025f), 0.05f, 0.056f});  // calf
    f.push_back({d.V(K, 0.0f, -0.15f, -0.025f), d.V(A, 0.0f, 0.02f, -0.01f), 0.056f, 0.027f});  // shank to ankle
    f.push_back({d.V(A, 0.0f, 0.02f, -0.01f), d.V(A, 0.0f, -0.05f, 0.12f), 0.03f, 0.025f});     // foot
}

// Sizes every muscle that has a reference volume to it and packs the
// muscles against each other, the bones and the fascia (engine/anatomy/muscle_packing.h).
// `trunk`: muscle names not bounded by the fascia (the trunk's sheets and the
// hip's deep muscles, which lie outside the limb pieces).
void packScene(SceneSpec& sc, const std::vector<FasciaPiece>& fascia, const std::vector<std::string>& free_muscles) {
    std::vector<PackingMuscle> pm;
    for (MuscleSpec& m : sc.muscles) {
        PackingMuscle p;
        p.mesh = &m.mesh;
        const ReferenceVolume* ref = referenceVolume(m.name);
        p.target_volume = ref ? ref->cm3 * 1e-6 : 0.0;
        for (const std::string& f : free_muscles)
            if (m.name.rfind(f, 0) == 0) p.in_fascia = false;
        p.group = m.group;
        pm.push_back(p);
    }
    std::vector<PackingCapsule> bones;
    for (const Bone& b : sc.bones)
        if (b.visible) bones.push_back({b.head, b.tail, b.radius});
    PackingOptions opt;
    opt.fascia = [&fascia](glm::vec3 p) { return fasciaDistance(fascia, p); };
    packMuscles(pm, bones, opt);
    sc.packed = true;
}

double smooth(double x) {
    x = std::clamp(x, 0.0, 1.0);
    return x * x * (3.0 - 2.0 * x);
}

// ------------------------------------------------------------------ scenes

// A torso root and one right arm (T3–T6, P3/P4).
SceneSpec armScene(bool all_muscles, bool fast) {
    SceneSpec sc;
    sc.bones.push_back(Bone{"torso", -1, kTorso, kTorso + glm::vec3(0, 0.38f, 0), 0.02f, 1.0f});
    sc.bones.back().visible = false;
    Side r{-1.0f, "_r"};
    addArmBones(sc, r, 0);
    addArmMuscles(sc, r, fast, !all_muscles);
    return sc;
}

void elbowFlexion(SceneSpec& sc, const std::string& name, double period) {
    AnimSpec a{name, period, 10.0, {}};
    a.channels.push_back({sc.find("ulna_r"), [period](double t) {
                              return axisAngle({-1, 0, 0}, deg(130.0) * 0.5 * (1.0 - std::cos(2 * kPi * t / period)));
                          }});
    sc.animations.push_back(a);
}

struct ArmPose {
    double flex, abd, elbow;  // degrees
};

void fighting(SceneSpec& sc) {
    // Guard, then jabs, crosses, hooks and uppercuts: each strike reaches out
    // in ~0.15 s and returns in ~0.2 s.
    const ArmPose guard{35, 15, 130}, jab{88, 10, 20}, hook{45, 80, 90}, upper{70, 5, 100}, low{10, 5, 140};
    struct Key {
        double t;
        ArmPose p;
    };
    std::vector<Key> keys = {{0.0, {0, 0, 0}}, {0.8, guard}};
    double t = 1.2;
    // Eleven strikes leave 0.8 s, as long as the opening rise to the guard,
    // to lower the arm back to the rest pose, so the loop has no snap.
    const ArmPose seq[] = {jab, jab, hook, upper, jab, hook, low, jab, upper, jab, hook};
    for (const ArmPose& p : seq) {
        keys.push_back({t, guard});
        keys.push_back({t + 0.15, p});
        keys.push_back({t + 0.22, p});
        keys.push_back({t + 0.42, guard});
        t += 0.7;
    }
    keys.push_back({t + 0.3, guard});
    keys.push_back({10.0, {0, 0, 0}});
    auto pose = [keys](double time) {
        size_t k = 0;
        while (k + 2 < keys.size() && keys[k + 1].t <= time) ++k;
        double s = smooth((time - keys[k].t) / std::max(1e-9, keys[k + 1].t - keys[k].t));
        const ArmPose &a = keys[k].p, &b = keys[k + 1].p;
        return ArmPose{a.flex + (b.flex - a.flex) * s, a.abd + (b.abd - a.abd) * s, a.elbow + (b.elbow - a.elbow) * s};
    };
    AnimSpec an{"fighting", 10.0, 30.0, {}};
    an.channels.push_back({sc.find("humerus_r"), [pose](double time) {
                               ArmPose p = pose(time);
                               return axisAngle({-1, 0, 0}, deg(p.flex)) * axisAngle({0, 0, -1}, deg(p.abd));
                           }});
    an.channels.push_back({sc.find("ulna_r"), [pose](double time) { return axisAngle({-1, 0, 0}, deg(pose(time).elbow)); }});
    sc.animations.push_back(an);
}

void walkRun(SceneSpec& sc) {
    const double dur = 8.0, fps = 30.0;
    // Gait phase: 1 stride/s walking, 1.4 strides/s running. Walk to 3 s,
    // speed up to a run over 3–4 s, run, slow down over 5.5–6.5 s, walk to
    // the end: the loop closes on the pose it starts from (running 1.5 s
    // makes the whole loop 8 + 0.4·2.5 = 9 strides), so looping does not
    // snap from a run back to a walk.
    auto intSmooth = [](double x) {  // ∫₀ˣ smoothstep
        if (x <= 0.0) return 0.0;
        return x < 1.0 ? x * x * x - 0.5 * x * x * x * x : 0.5 + (x - 1.0);
    };
    auto w = [](double t) { return smooth(t - 3.0) - smooth(t - 5.5); };
    auto phase = [intSmooth](double t) {
        // ∫ (1 + 0.4 w) dt in closed form.
        return 2.0 * kPi * (t + 0.4 * (intSmooth(t - 3.0) - intSmooth(t - 5.5)));
    };
    auto lerp = [](double a, double b, double s) { return a + (b - a) * s; };
    AnimSpec an{"walk_run", dur, fps, {}};
    for (int side = 0; side < 2; ++side) {
        const std::string u = side ? "_l" : "_r";
        const double off = side ? kPi : 0.0;
        an.channels.push_back({sc.find("femur" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off;
                                   double mid = lerp(10, 15, s), amp = lerp(20, 30, s);
                                   return axisAngle({-1, 0, 0}, deg(mid + amp * std::sin(ph)));
                               }});
        an.channels.push_back({sc.find("tibia" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off;
                                   double kmax = lerp(60, 100, s);
                                   double k = 0.5 * (1.0 - std::cos(ph - 0.6 * kPi));
                                   return axisAngle({1, 0, 0}, deg(5 + (kmax - 5) * k * k));
                               }});
        an.channels.push_back({sc.find("foot" + u), [=](double t) {
                                   double ph = phase(t) + off;
                                   return axisAngle({-1, 0, 0}, deg(15 * std::sin(ph + 0.5 * kPi)));
                               }});
        an.channels.push_back({sc.find("humerus" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off + kPi;  // opposite the leg
                                   return axisAngle({-1, 0, 0}, deg(lerp(15, 30, s) * std::sin(ph)));
                               }});
        an.channels.push_back({sc.find("ulna" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off + kPi;
                                   return axisAngle({-1, 0, 0}, deg(lerp(20 + 10 * std::sin(ph), 90, s)));
                               }});
    }
    sc.animations.push_back(an);
}

// Holders for the lab scenes (T1, T2, P1–P3): fixed anchors, visible bars.
int anchor(SceneSpec& sc, const std::string& name, glm::vec3 at) {
    Bone b{name, sc.bones.empty() ? -1 : 0, at, at + glm::vec3(0, 0.03f, 0), 0.006f, 1.0f};
    sc.bones.push_back(b);
    return int(sc.bones.size()) - 1;
}

MuscleSpec oval(const std::string& name, glm::vec3 a, glm::vec3 b, float r, const std::string& ob, const std::string& ib) {
    MuscleSpec m;
    m.name = name;
    LoftShape s = shapeFor({a, b}, r, 0.8f, {1, 0, 0}, 1);
    s.tendon = 0.35f;
    s.power = 0.6f;
    m.mesh = loftMuscle({a, b}, s);
    m.origin_bones = {ob};
    m.insertion_bone = ib;
    return m;
}

MuscleSpec box(const std::string& name, glm::vec3 c, glm::vec3 h, int n) {
    MuscleSpec m;
    m.name = name;
    // Grid box: each face n×n quads, shared edges welded through a vertex map.
    std::map<std::tuple<int, int, int>, uint32_t> ids;
    auto vid = [&](int i, int j, int k) {
        auto key = std::make_tuple(i, j, k);
        auto it = ids.find(key);
        if (it != ids.end()) return it->second;
        uint32_t id = uint32_t(m.mesh.vertices.size());
        m.mesh.vertices.push_back(c + h * (glm::vec3(float(i), float(j), float(k)) * (2.0f / float(n)) - 1.0f));
        ids.emplace(key, id);
        return id;
    };
    for (int axis = 0; axis < 3; ++axis)
        for (int side = 0; side < 2; ++side)
            for (int a = 0; a < n; ++a)
                for (int b = 0; b < n; ++b) {
                    auto p = [&](int da, int db) {
                        int q[3];
                        q[axis] = side * n;
                        q[(axis + 1) % 3] = a + da;
                        q[(axis + 2) % 3] = b + db;
                        return vid(q[0], q[1], q[2]);
                    };
                    uint32_t v00 = p(0, 0), v10 = p(1, 0), v11 = p(1, 1), v01 = p(0, 1);
                    if (side == 1) {
                        m.mesh.triangles.emplace_back(v00, v10, v11);
                        m.mesh.triangles.emplace_back(v00, v11, v01);
                    } else {
                        m.mesh.triangles.emplace_back(v00, v11, v10);
                        m.mesh.triangles.emplace_back(v00, v01, v11);
                    }
                }
    std::vector<uint32_t> o, i;
    for (const auto& [k, id] : ids) {
        if (std::get<0>(k) == 0) o.push_back(id);
        if (std::get<0>(k) == n) i.push_back(id);
    }
    std::sort(o.begin(), o.end());
    std::sort(i.begin(), i.end());
    m.mesh.origin_sets = {o};
    m.mesh.insertion_sets = {i};
    return m;
}

json plane(float y) { return {{"origin", {0.0, double(y), 0.0}}, {"normal", {0.0, 1.0, 0.0}}}; }

float lowestMuscleY(const SceneSpec& sc) {
    float y = 1e9f;
    for (const MuscleSpec& m : sc.muscles)
        for (const glm::vec3& v : m.mesh.vertices) y = std::min(y, v.y);
    return y;
}

SceneSpec build(const std::string& id) {
    SceneSpec sc;
    if (id == "t1" || id == "p1") {
        anchor(sc, "anchor_a", {-0.08f, 0.3f, 0});
        anchor(sc, "anchor_b", {0.08f, 0.3f, 0});
        sc.muscles.push_back(oval("oval", {-0.08f, 0.3f, 0}, {0.08f, 0.3f, 0}, 0.025f, "anchor_a", "anchor_b"));
        if (id == "t1") {
            sc.file = "t1-oval.glb";
            sc.muscles[0].sensors = json::array();
        } else {
            sc.file = "p1-oval-plane.glb";
            sc.planes.push_back(plane(0.3f - 0.045f));
        }
    } else if (id == "p2") {
        sc.file = "p2-oval-cube-plane.glb";
        anchor(sc, "anchor", {0, 0.3f, 0});
        sc.muscles.push_back(oval("oval", {-0.1f, 0.3f, 0}, {0.0f, 0.3f, 0}, 0.022f, "anchor", "anchor"));
        sc.muscles.push_back(box("cube", {0.03f, 0.3f, 0}, glm::vec3(0.03f), 8));
        // Held at one vertex each (the oval's origin pole, a cube corner).
        for (MuscleSpec* m : {&sc.muscles[0], &sc.muscles[1]}) {
            m->holds = json::array({{{"bone", "anchor"}, {"vertices", {m->mesh.origin_sets[0][0]}}}});
        }
        sc.planes.push_back(plane(0.3f - 0.05f));
    } else if (id == "t2") {
        sc.file = "t2-biceps.glb";
        SceneSpec arm = armScene(false, false);
        sc.bones = arm.bones;
        sc.muscles = {arm.muscles[0]};
        sc.muscles[0].sensors = json::array();
        sc.gravity_scale = 0.0f;
    } else if (id == "t3") {
        sc = armScene(false, false);
        sc.file = "t3-biceps-elbow.glb";
        sc.muscles.resize(1);
        sc.gravity_scale = 0.0f;
        elbowFlexion(sc, "elbow_flexion", 4.0);
    } else if (id == "t4" || id == "p3") {
        sc = armScene(false, false);
        sc.planes.push_back(plane(lowestMuscleY(sc) - 0.004f));
        if (id == "t4") {
            sc.file = "t4-biceps-brachialis-plane.glb";
            elbowFlexion(sc, "elbow_flexion", 4.0);
        } else {
            sc.file = "p3-biceps-brachialis-plane.glb";
            // Biceps: 4 holds (both origin poles, insertion pole, one belly
            // vertex); brachialis: 2 holds (its poles).
            MuscleSpec& b = sc.muscles[0];
            b.holds = json::array({{{"bone", "scapula_r"}, {"vertices", {b.mesh.origin_sets[0][0], b.mesh.origin_sets[1][0]}}},
                                   {{"bone", "radius_r"}, {"vertices", {b.mesh.insertion_sets[0][0]}}},
                                   {{"bone", "humerus_r"}, {"vertices", {b.mesh.insertion_sets[0][0] - 1}}}});
            MuscleSpec& c = sc.muscles[1];
            c.holds = json::array({{{"bone", "humerus_r"}, {"vertices", {c.mesh.origin_sets[0][0]}}},
                                   {{"bone", "ulna_r"}, {"vertices", {c.mesh.insertion_sets[0].back()}}}});
        }
    } else if (id == "t5" || id == "p4") {
        sc = armScene(true, false);
        sc.file = id == "t5" ? "t5-arm-flexion.glb" : "p4-arm-profile.glb";
        std::vector<FasciaPiece> f;
        addArmFascia(f, Side{-1.0f, "_r"});
        packScene(sc, f, {});
        elbowFlexion(sc, "elbow_flexion", 4.0);
        sc.gravity_scale = 0.0f;
    } else if (id == "t6") {
        sc = armScene(true, true);
        std::vector<FasciaPiece> f;
        addArmFascia(f, Side{-1.0f, "_r"});
        packScene(sc, f, {});
        sc.gravity_scale = 0.0f;
        // Strikes swing the forearm ~120° in 0.15 s (25° a frame): the
        // muscles must take on the bones' acceleration (carry), and at one
        // substep vertices squeezed between the elbow's bones still end up
        // a few mm inside them. With the packed forearm sliding along radius
        // and ulna, 2 substeps left the flexor carpi radialis 4 mm inside the
        // ulna in a strike; 3 substeps none (README, "Model choices").
        sc.substeps = 3;
        sc.carry = 1.0f;
        sc.file = "t6-arm-fighting.glb";
        fighting(sc);
    } else if (id == "t7") {
        sc.res = 0;
        sc.gravity_scale = 0.0f;
        // Walking and running swing the shanks fast: at 1 substep without
        // carry lower-leg muscles went 19 mm into the foot and their volumes
        // swung between -3.5 and 3.6. With the packed calf (docs/anatomy.md),
        // 240 frames at 2 substeps put the soleus and long flexors 13 mm into
        // the foot while running; at 3 substeps 4.5 mm (README, "Status").
        sc.substeps = 3;
        sc.carry = 1.0f;
        sc.file = "t7-body-walk-run.glb";
        sc.bones.push_back(Bone{"pelvis", -1, kPelvis, kTorso, 0.045f, 1.0f, 0.6f});
        sc.bones.push_back(Bone{"torso", 0, kTorso, kTorso + glm::vec3(0, 0.42f, 0), 0.035f, 1.0f, 0.7f});
        Side r{-1.0f, "_r"}, l{1.0f, "_l"};
        for (const Side& d : {r, l}) addArmBones(sc, d, 1);
        for (const Side& d : {r, l}) addLeg(sc, d, 0);
        for (const Side& d : {r, l}) addArmMuscles(sc, d, false);
        for (const Side& d : {r, l}) addTrunkMuscles(sc, d);
        std::vector<FasciaPiece> f;
        for (const Side& d : {r, l}) {
            addArmFascia(f, d);
            addLegFascia(f, d);
        }
        packScene(sc, f,
                  {"erector_spinae", "int_oblique", "ext_oblique", "pec_major", "lat_dorsi", "trapezius", "glut_",
                   "iliacus", "psoas", "piriformis", "gemelli", "quad_fem"});
        sc.planes.push_back(plane(0.0f));
        walkRun(sc);
    }
    sc.id = id;
    return sc;
}

// ------------------------------------------------------------------ writing

std::vector<glm::vec3> vertexNormals(const MeshData& m) {
    std::vector<glm::dvec3> n(m.vertices.size(), glm::dvec3(0.0));
    for (const glm::uvec3& t : m.triangles) {
        glm::dvec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
        glm::dvec3 f = glm::cross(b - a, c - a);
        n[t.x] += f;
        n[t.y] += f;
        n[t.z] += f;
    }
    std::vector<glm::vec3> out;
    for (const glm::dvec3& x : n) {
        double l = glm::length(x);
        out.push_back(l > 0 ? glm::vec3(x / l) : glm::vec3(0, 1, 0));
    }
    return out;
}

struct Aabb {
    glm::vec3 lo{1e9f}, hi{-1e9f};
    void add(glm::vec3 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    bool overlaps(const Aabb& o, float pad) const {
        for (int k = 0; k < 3; ++k)
            if (lo[k] - pad > o.hi[k] || o.lo[k] - pad > hi[k]) return false;
        return true;
    }
};


// Rest-pose overlap tests used to keep only contact targets the muscle does
// not already penetrate (an initial overlap would be resolved violently).
float capsuleDepth(glm::vec3 p, const Bone& b) {
    glm::vec3 ab = b.tail - b.head;
    float t = std::clamp(glm::dot(p - b.head, ab) / std::max(1e-12f, glm::dot(ab, ab)), 0.0f, 1.0f);
    return b.radius - glm::length(p - (b.head + t * ab));
}

bool insideMesh(glm::vec3 p, const MeshData& m) {
    // Parity of crossings of a +X ray (Möller–Trumbore, deterministic).
    int hits = 0;
    const glm::vec3 dir(1.0f, 0.0f, 0.0f);
    for (const glm::uvec3& t : m.triangles) {
        glm::vec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
        if (std::max({a.x, b.x, c.x}) < p.x) continue;
        if (std::min({a.y, b.y, c.y}) > p.y || std::max({a.y, b.y, c.y}) < p.y) continue;
        if (std::min({a.z, b.z, c.z}) > p.z || std::max({a.z, b.z, c.z}) < p.z) continue;
        glm::vec3 e1 = b - a, e2 = c - a, h = glm::cross(dir, e2);
        float det = glm::dot(e1, h);
        if (std::fabs(det) < 1e-14f) continue;
        float f = 1.0f / det;
        glm::vec3 sv = p - a;
        float u = f * glm::dot(sv, h);
        if (u < 0.0f || u > 1.0f) continue;
        glm::vec3 q = glm::cross(sv, e1);
        float v = f * glm::dot(dir, q);
        if (v < 0.0f || u + v > 1.0f) continue;
        if (f * glm::dot(e2, q) > 0.0f) ++hits;
    }
    return hits % 2 == 1;
}

std::vector<uint8_t> writeScene(const SceneSpec& sc, GeneratedScene& stats) {
    GltfWriter w;
    const int mat_bone = w.addMaterial("bone", {0.89f, 0.86f, 0.78f, 1.0f}, 0.6f);
    const int mat_muscle = w.addMaterial("muscle", {0.72f, 0.2f, 0.18f, 1.0f}, 0.5f);
    const size_t nb = sc.bones.size();
    // Joint nodes: bone i = node i; rest rotations are identity.
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = sc.bones[i];
        glm::vec3 t = b.parent >= 0 ? b.head - sc.bones[size_t(b.parent)].head : b.head;
        glm::vec3 tip = b.tail - b.head;
        json node = {{"name", b.name}, {"translation", {double(t.x), double(t.y), double(t.z)}}};
        node["extras"] = {{"msxpbd_body",
                           {{"capsule",
                             {{"a", {0.0, 0.0, 0.0}},
                              {"b", {double(tip.x), double(tip.y), double(tip.z)}},
                              {"radius", double(b.radius)}}}}}};
        w.addNode(node);
    }
    for (size_t i = 0; i < nb; ++i) {
        json children = json::array();
        for (size_t k = 0; k < nb; ++k)
            if (sc.bones[k].parent == int(i)) children.push_back(k);
        if (!children.empty()) w.node(int(i))["children"] = children;
    }
    // One skinned mesh for all bones (each vertex bound to its bone).
    std::vector<glm::vec3> bpos, bnrm;
    std::vector<glm::u8vec4> bj;
    std::vector<glm::vec4> bw;
    std::vector<uint32_t> bidx;
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = sc.bones[i];
        if (!b.visible) continue;
        // Anatomical shapes (docs/anatomy.md "Bone shapes"); other bones (the
        // lab scenes' anchors) stay lofted sticks with knobs.
        BoneMesh shaped = buildBoneMesh({b.name, b.head, b.tail, b.radius});
        MeshData& m = shaped.mesh;
        std::vector<glm::vec3>& n = shaped.normals;
        if (m.triangles.empty()) {
            const float r = b.radius, knob = b.knob;
            auto prof = [r, knob](float u) {
                float e = std::min(u, 1.0f - u);
                float k = e < 0.12f ? 1.0f + (knob - 1.0f) * float(std::cos(kPi * 0.5 * e / 0.12)) : 1.0f;
                return r * k;
            };
            m = loftProfile({b.head, b.tail}, prof, b.ellipse, b.width, 16, 12);
            n = vertexNormals(m);
        }
        uint32_t base = uint32_t(bpos.size());
        for (size_t v = 0; v < m.vertices.size(); ++v) {
            bpos.push_back(m.vertices[v]);
            bnrm.push_back(n[v]);
            bj.push_back(glm::u8vec4(uint8_t(i), 0, 0, 0));
            bw.push_back(glm::vec4(1, 0, 0, 0));
        }
        for (const glm::uvec3& t : m.triangles)
            for (int k = 0; k < 3; ++k) bidx.push_back(base + t[k]);
    }
    std::vector<int> scene_nodes;
    for (size_t i = 0; i < nb; ++i)
        if (sc.bones[i].parent < 0) scene_nodes.push_back(int(i));
    if (!bpos.empty()) {
        std::vector<glm::mat4> ib;
        json joints = json::array();
        for (size_t i = 0; i < nb; ++i) {
            glm::mat4 m(1.0f);
            m[3] = glm::vec4(-sc.bones[i].head, 1.0f);
            ib.push_back(m);
            joints.push_back(i);
        }
        json prim = {{"attributes",
                      {{"POSITION", w.addVec3(bpos, true)},
                       {"NORMAL", w.addVec3(bnrm, false)},
                       {"JOINTS_0", w.addJoints(bj)},
                       {"WEIGHTS_0", w.addVec4(bw)}}},
                     {"indices", w.addIndices(bidx)},
                     {"material", mat_bone}};
        int mesh = w.addMesh({{"name", "skeleton"}, {"primitives", json::array({prim})}});
        w.addSkin({{"name", "skeleton"}, {"inverseBindMatrices", w.addMat4(ib)}, {"joints", joints}, {"skeleton", scene_nodes[0]}});
        scene_nodes.push_back(w.addNode({{"name", "skeleton_mesh"}, {"mesh", mesh}, {"skin", 0}}));
    }
    // Muscles: rest positions in world space, identity node transform.
    std::vector<Aabb> boxes;
    for (const MuscleSpec& m : sc.muscles) {
        Aabb bx;
        for (const glm::vec3& v : m.mesh.vertices) bx.add(v);
        boxes.push_back(bx);
    }
    auto boneBox = [&](size_t i) {
        Aabb bx;
        bx.add(sc.bones[i].head - glm::vec3(sc.bones[i].radius * 2));
        bx.add(sc.bones[i].head + glm::vec3(sc.bones[i].radius * 2));
        bx.add(sc.bones[i].tail - glm::vec3(sc.bones[i].radius * 2));
        bx.add(sc.bones[i].tail + glm::vec3(sc.bones[i].radius * 2));
        return bx;
    };
    stats = GeneratedScene{};
    // Which packed muscles touch: a vertex of one within kTouch of the
    // other's surface, either way round (docs/anatomy.md "Packed muscles").
    const size_t nm = sc.muscles.size();
    std::vector<uint8_t> touching(sc.packed ? nm * nm : 0, 0);
    if (sc.packed) {
        const float kTouch = 0.0035f;
        for (size_t a = 0; a < nm; ++a)
            for (size_t b = 0; b < nm; ++b) {
                if (a == b || !boxes[a].overlaps(boxes[b], kTouch)) continue;
                const MeshData& ma = sc.muscles[a].mesh;
                const MeshData& mb = sc.muscles[b].mesh;
                bool near_b = false;
                for (size_t v = 0; v < ma.vertices.size() && !near_b; ++v) {
                    const glm::vec3 p = ma.vertices[v];
                    bool in_box = true;
                    for (int k = 0; k < 3; ++k) in_box = in_box && p[k] >= boxes[b].lo[k] - kTouch && p[k] <= boxes[b].hi[k] + kTouch;
                    if (!in_box) continue;
                    for (const glm::uvec3& t : mb.triangles) {
                        sim::TriFeature f;
                        const glm::vec3 q = sim::closestPointOnTriangle(p, mb.vertices[t.x], mb.vertices[t.y], mb.vertices[t.z], f);
                        if (glm::dot(p - q, p - q) <= kTouch * kTouch) {
                            near_b = true;
                            break;
                        }
                    }
                }
                if (near_b) touching[a * nm + b] = touching[b * nm + a] = 1;
            }
    }
    for (size_t mi = 0; mi < sc.muscles.size(); ++mi) {
        const MuscleSpec& m = sc.muscles[mi];
        std::vector<uint32_t> idx;
        for (const glm::uvec3& t : m.mesh.triangles) idx.insert(idx.end(), {t.x, t.y, t.z});
        json prim = {{"attributes",
                      {{"POSITION", w.addVec3(m.mesh.vertices, true)}}},  // normals: computed on load
                     {"indices", w.addIndices(idx)},
                     {"material", mat_muscle}};
        int mesh = w.addMesh({{"name", m.name}, {"primitives", json::array({prim})}});
        json x = json::object();
        // Root sets by the rest positions of their vertices, not by index:
        // an editor's round trip (Blender) reorders and splits the vertices,
        // and positions are what survives it (docs/scene-format.md).
        auto bypoints = [&](const std::vector<std::vector<uint32_t>>& sets) {
            json out = json::array();
            for (const auto& set : sets) {
                json pts = json::array();
                for (uint32_t i : set) {
                    const glm::vec3 p = m.mesh.vertices[i];
                    pts.push_back({p.x, p.y, p.z});
                }
                out.push_back({{"points", pts}});
            }
            return out;
        };
        x["origins"] = bypoints(m.mesh.origin_sets);
        x["insertions"] = bypoints(m.mesh.insertion_sets);
        if (m.holds.is_null()) {
            if (m.origin_bones.size() == 1)
                x["origin_bone"] = m.origin_bones[0];
            else
                x["origin_bone"] = m.origin_bones;
            x["insertion_bone"] = m.insertion_bone;
        } else {
            x["attachments"] = m.holds;
        }
        // Contacts: bones it overlaps (with a margin) and up to 4 nearest
        // overlapping muscles; sliding along its origin bone.
        // Targets already penetrated at rest (beyond the tendon ends, which
        // are attached) are left out.
        std::vector<bool> root(m.mesh.vertices.size(), false);
        for (const auto& set : m.mesh.origin_sets)
            for (uint32_t v : set) root[v] = true;
        for (const auto& set : m.mesh.insertion_sets)
            for (uint32_t v : set) root[v] = true;
        json contacts = json::array();
        for (size_t b = 0; b < nb; ++b) {
            if (!sc.bones[b].visible || !boxes[mi].overlaps(boneBox(b), 0.005f)) continue;
            bool inside = false;
            for (size_t v = 0; v < m.mesh.vertices.size() && !inside; ++v)
                inside = !root[v] && capsuleDepth(m.mesh.vertices[v], sc.bones[b]) > 0.0f;
            if (!inside) contacts.push_back(sc.bones[b].name);
        }
        std::vector<std::pair<float, size_t>> near;
        glm::vec3 cm = 0.5f * (boxes[mi].lo + boxes[mi].hi);
        auto overlapping = [&](size_t a, size_t b) {
            for (const glm::vec3& v : sc.muscles[a].mesh.vertices) {
                bool in_box = true;
                for (int k = 0; k < 3; ++k) in_box = in_box && v[k] >= boxes[b].lo[k] && v[k] <= boxes[b].hi[k];
                if (in_box && insideMesh(v, sc.muscles[b].mesh)) return true;
            }
            return false;
        };
        if (sc.packed) {
            // Packed muscles touch their neighbours along shared faces: every
            // muscle that comes within a touching distance is a contact.
            for (size_t o = 0; o < sc.muscles.size(); ++o)
                if (o != mi && touching[mi * sc.muscles.size() + o]) contacts.push_back(sc.muscles[o].name);
        } else {
            for (size_t o = 0; o < sc.muscles.size(); ++o)
                if (o != mi && boxes[mi].overlaps(boxes[o], 0.003f) && !overlapping(mi, o) && !overlapping(o, mi))
                    near.emplace_back(glm::length(cm - 0.5f * (boxes[o].lo + boxes[o].hi)), o);
            std::sort(near.begin(), near.end());
            for (size_t k = 0; k < near.size() && k < 4; ++k) contacts.push_back(sc.muscles[near[k].second].name);
        }
        x["contacts"] = contacts;
        if (!m.holds.is_null() || m.origin_bones.empty()) {
            x["sliding"] = json::array();
        } else {
            json sliding = json::array({m.insertion_bone});
            // The wrist's long muscles also slide along a forearm bone: held
            // at their rest distance from it, they follow the forearm in
            // flexion instead of bowstringing across the elbow.
            for (const std::string& bone : m.along)
                if (bone != m.insertion_bone) sliding.push_back(bone);
            x["sliding"] = sliding;
        }
        x["initial_activation"] = 0.0;
        x["overpressure"] = double(m.overpressure);
        if (!m.sensors.empty()) x["sensors"] = m.sensors;
        scene_nodes.push_back(w.addNode({{"name", m.name}, {"mesh", mesh}, {"extras", {{"msxpbd_muscle", x}}}}));
        stats.muscles++;
        stats.muscle_vertices += m.mesh.vertices.size();
        stats.muscle_triangles += m.mesh.triangles.size();
    }
    // Skin (T5, T6: the arm; T7: the whole body): the translucent outline
    // over the muscles, a skinned mesh on the skeleton's skin (skin 0) with a
    // BLEND material (engine/anatomy/skin_outline.h, docs/scene-format.md).
    if (const bool body = sc.id == "t7"; (body || sc.id == "t5" || sc.id == "t6") &&
                                         std::any_of(sc.bones.begin(), sc.bones.end(), [](const Bone& b) { return b.visible; })) {
        std::vector<OutlineBone> ob;
        for (const Bone& b : sc.bones) ob.push_back({b.name, b.head, b.tail, b.parent});
        const SkinMesh skin = buildSkin(ob, body ? 0.012f : 0.008f, body ? 18000 : 6000);
        std::vector<glm::u8vec4> sj;
        for (const glm::uvec4& j : skin.weights.joints) sj.emplace_back(j);
        std::vector<uint32_t> idx;
        for (const glm::uvec3& t : skin.triangles) idx.insert(idx.end(), {t.x, t.y, t.z});
        const int mat_skin = w.addMaterial("skin", {0.87f, 0.69f, 0.58f, 0.25f}, 0.6f, "BLEND");
        json prim = {{"attributes",
                      {{"POSITION", w.addVec3(skin.positions, true)},
                       {"NORMAL", w.addVec3(skin.normals, false)},
                       {"JOINTS_0", w.addJoints(sj)},
                       {"WEIGHTS_0", w.addVec4(skin.weights.weights)}}},
                     {"indices", w.addIndices(idx)},
                     {"material", mat_skin}};
        const int mesh = w.addMesh({{"name", "skin"}, {"primitives", json::array({prim})}});
        scene_nodes.push_back(w.addNode({{"name", "skin"}, {"mesh", mesh}, {"skin", 0}}));
    }
    // Animations: rotations sampled at the spec's rate, LINEAR.
    for (const AnimSpec& a : sc.animations) {
        const int n = int(std::lround(a.duration * a.fps));
        std::vector<float> times;
        for (int k = 0; k <= n; ++k) times.push_back(float(double(k) / a.fps));
        int input = w.addScalars(times, true);
        json samplers = json::array(), channels = json::array();
        for (const Channel& c : a.channels) {
            std::vector<glm::vec4> q;
            glm::dvec4 prev(0, 0, 0, 1);
            for (int k = 0; k <= n; ++k) {
                glm::quat r = c.rotation(double(k) / a.fps);
                glm::dvec4 v(r.x, r.y, r.z, r.w);
                if (glm::dot(v, prev) < 0.0) v = -v;  // keep neighbours in one hemisphere
                v /= glm::length(v);
                prev = v;
                q.push_back(glm::vec4(v));
            }
            samplers.push_back({{"input", input}, {"output", w.addVec4(q, 0)}, {"interpolation", "LINEAR"}});
            channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", c.bone}, {"path", "rotation"}}}});
        }
        w.addAnimation({{"name", a.name}, {"samplers", samplers}, {"channels", channels}});
    }
    json scene = {{"name", sc.file.substr(0, sc.file.size() - 4)}, {"nodes", scene_nodes}};
    json sx = {{"sliding_radius", 0.004}};
    if (sc.gravity_scale != 1.0f) sx["gravity_scale"] = double(sc.gravity_scale);
    if (sc.substeps > 0) sx["substeps"] = sc.substeps;
    if (sc.carry >= 0.0f) sx["carry"] = double(sc.carry);
    if (!sc.planes.empty()) sx["planes"] = sc.planes;
    scene["extras"] = {{"msxpbd_scene", sx}};
    w.setScene(scene);
    std::vector<uint8_t> glb = w.glb();
    stats.id = sc.id;
    stats.file = sc.file;
    return glb;
}

}  // namespace

std::vector<std::string> generatedSceneIds() { return {"t1", "t2", "t3", "t4", "t5", "t6", "t7", "p1", "p2", "p3", "p4"}; }

std::string generateScene(const std::string& id, GeneratedScene& out) {
    auto ids = generatedSceneIds();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        std::string all;
        for (const std::string& i : ids) all += (all.empty() ? "" : ", ") + i;
        return "unknown scene '" + id + "' (valid: " + all + ")";
    }
    SceneSpec sc = build(id);
    GeneratedScene st;
    std::vector<uint8_t> glb = writeScene(sc, st);
    out = st;
    out.glb = std::move(glb);
    return {};
}

std::string writeGeneratedScenes(const std::string& dir, std::vector<GeneratedScene>* summary, const std::string& only) {
    if (!only.empty()) {
        auto ids = generatedSceneIds();
        if (std::find(ids.begin(), ids.end(), only) == ids.end()) return "unknown scene '" + only + "'";
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return dir + ": cannot create directory: " + ec.message();
    for (const std::string& id : generatedSceneIds()) {
        if (!only.empty() && id != only) continue;
        GeneratedScene g;
        std::string err = generateScene(id, g);
        if (!err.empty()) return err;
        const std::string path = dir + "/" + g.file;
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(g.glb.data()), std::streamsize(g.glb.size()));
        if (!f) return path + ": write failed";
        if (summary) summary->push_back(std::move(g));
    }
    return {};
}

}  // namespace engine

// The body plan (body_plan.h): bone landmarks, muscle paths and radii,
// sensors, and the limb fascia with the packing call.
#include "engine/anatomy/body_plan.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/anatomy/anatomy_reference.h"
#include "engine/anatomy/knee_track.h"
#include "engine/anatomy/loft_untangle.h"
#include "engine/anatomy/muscle_packing.h"
#include "engine/anatomy/sheet_muscle.h"
#include "engine/anatomy/skin_outline.h"
#include "engine/mesh/mesh_quality.h"

namespace engine::generator {

namespace {

glm::vec3 shoulder(const Side& d) { return kTorso + glm::vec3(d.s * 0.17f, 0.37f, 0.0f); }

// A muscle path's length along its points (m).
float pathLength(const std::vector<glm::vec3>& path) {
    float len = 0.0f;
    for (size_t i = 1; i < path.size(); ++i) len += glm::length(path[i] - path[i - 1]);
    return len;
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
    // Ring spacing along the path (m); 0: shapeFor's. The forearm's long
    // muscles use coarser rings: contact search grows with their vertices.
    float ring_step = 0.0f;
};

MeshData loft(const MDef& m, int res) {
    LoftShape shape = shapeFor(m.path, m.r, m.ellipse, m.width, res);
    if (m.ring_step > 0.0f) shape.rings = std::clamp(int(std::lround(pathLength(m.path) / m.ring_step)), 10, shape.rings);
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
    if (base == "extensor_carpi_radialis_longus" || base == "extensor_carpi_radialis_brevis" ||
        base == "extensor_digitorum")
        ms.along = {"radius" + suf};
    else if (base == "flexor_carpi_radialis" || base == "flexor_carpi_ulnaris" ||
             base == "flexor_digitorum_superficialis" || base == "extensor_carpi_ulnaris")
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

}  // namespace

LoftShape shapeFor(const std::vector<glm::vec3>& path, float r, float ellipse, glm::vec3 width, int res) {
    const float len = pathLength(path);
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

void addArmMuscles(SceneSpec& sc, const Side& d, bool fast, bool only_biceps_brachialis) {
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
    // The brachialis lies a little lateral on the humerus's front and the
    // triceps' medial head arises along its back and medial side from below
    // the radial groove, the lateral head reaching forward: centred on the
    // bone's front and back they left 6-9 mm of humerus showing between them
    // (`msxpbd measure`'s cover line, docs/anatomy.md "Bone cover").
    addMuscle(sc, u, {"brachialis", {d.V(SH, 0.006f, -0.10f, 0.013f), d.V(E, 0.006f, 0.1f, 0.019f), d.V(E, 0.0f, 0.0f, 0.02f), d.V(E, -0.005f, -0.03f, 0.008f)}, 0.016f, 0.5f, X, "humerus", "ulna", 0.7f});
    if (only_biceps_brachialis) return;
    addMuscle(sc, u, {"deltoid_anterior", {d.V(SH, -0.03f, 0.045f, 0.035f), d.V(SH, 0.01f, 0.025f, 0.048f), d.V(SH, 0.03f, -0.06f, 0.03f), d.V(SH, 0.02f, -0.13f, 0.004f)}, 0.013f, 0.5f, X, "clavicle", "humerus", 0.6f});
    addMuscle(sc, u, {"deltoid_middle", {d.V(SH, 0.015f, 0.05f, 0.0f), d.V(SH, 0.048f, 0.0f, 0.0f), d.V(SH, 0.036f, -0.07f, 0.0f), d.V(SH, 0.022f, -0.13f, 0.0f)}, 0.014f, 0.5f, Z, "scapula", "humerus", 0.6f});
    addMuscle(sc, u, {"deltoid_posterior", {d.V(SH, -0.02f, 0.045f, -0.05f), d.V(SH, 0.01f, 0.02f, -0.048f), d.V(SH, 0.03f, -0.06f, -0.03f), d.V(SH, 0.02f, -0.13f, -0.004f)}, 0.012f, 0.5f, X, "scapula", "humerus", 0.6f});
    addMuscle(sc, u, {"brachioradialis", {d.V(E, 0.025f, 0.07f, 0.0f), d.V(E, 0.036f, 0.0f, 0.016f), d.V(E, 0.03f, -0.1f, 0.016f), d.V(W, 0.03f, 0.005f, 0.005f)}, 0.011f, 0.6f, Z, "humerus", "radius", 0.6f});
    addMuscle(sc, u, {"triceps_long", {d.V(SH, -0.02f, -0.03f, -0.02f), d.V(SH, -0.01f, -0.09f, -0.045f), d.V(E, 0.0f, 0.09f, -0.045f), d.V(E, 0.0f, 0.008f, -0.02f)}, 0.017f, 0.65f, X, "scapula", "ulna"});
    addMuscle(sc, u, {"triceps_lateral", {d.V(SH, 0.015f, -0.07f, -0.018f), d.V(SH, 0.025f, -0.16f, -0.022f), d.V(E, 0.015f, 0.06f, -0.029f), d.V(E, 0.004f, 0.008f, -0.02f)}, 0.013f, 0.6f, X, "humerus", "ulna", 0.6f});
    addMuscle(sc, u, {"triceps_medial", {d.V(SH, -0.008f, -0.08f, -0.014f), d.V(SH, -0.016f, -0.14f, -0.012f), d.V(E, -0.018f, 0.08f, -0.013f), d.V(E, -0.004f, 0.008f, -0.02f)}, 0.012f, 0.6f, X, "humerus", "ulna", 0.7f});
    addMuscle(sc, u, {"coracobrachialis", {d.V(SH, -0.036f, 0.01f, 0.04f), d.V(SH, -0.028f, -0.06f, 0.03f), d.V(SH, -0.016f, -0.15f, 0.008f)}, 0.009f, 0.7f, X, "scapula", "humerus"});
    addMuscle(sc, u, {"anconeus", {d.V(E, 0.028f, 0.004f, -0.005f), d.V(E, 0.02f, -0.03f, -0.02f), d.V(E, 0.008f, -0.05f, -0.02f)}, 0.007f, 0.6f, Z, "humerus", "ulna", 0.5f});
    addMuscle(sc, u, {"pronator_teres", {d.V(E, -0.035f, 0.01f, 0.008f), d.V(E, -0.02f, -0.05f, 0.022f), d.V(E, 0.015f, -0.12f, 0.014f)}, 0.009f, 0.65f, X, "humerus", "radius"});
    addMuscle(sc, u, {"supinator", {d.V(E, 0.03f, -0.01f, 0.005f), d.V(E, 0.022f, -0.035f, 0.01f), d.V(E, 0.012f, -0.07f, 0.012f)}, 0.008f, 0.6f, Z, "ulna", "radius", 0.6f, 0.5f});
    addMuscle(sc, u, {"flexor_carpi_radialis", {d.V(E, -0.033f, -0.008f, 0.012f), d.V(E, -0.02f, -0.08f, 0.026f), d.V(W, 0.005f, 0.04f, 0.016f), d.V(W, 0.02f, -0.035f, 0.01f)}, 0.009f, 0.65f, X, "humerus", "hand"});
    addMuscle(sc, u, {"extensor_carpi_radialis_longus", {d.V(E, 0.03f, 0.04f, -0.008f), d.V(E, 0.028f, -0.06f, -0.012f), d.V(W, 0.022f, 0.04f, -0.014f), d.V(W, 0.02f, -0.035f, -0.01f)}, 0.009f, 0.65f, Z, "humerus", "hand"});
    addMuscle(sc, u, {"extensor_carpi_radialis_brevis", {d.V(E, 0.03f, -0.005f, -0.014f), d.V(E, 0.018f, -0.08f, -0.022f), d.V(W, 0.01f, 0.04f, -0.018f), d.V(W, 0.0f, -0.035f, -0.01f)}, 0.008f, 0.65f, Z, "humerus", "hand"});
    constexpr float kForearmRingStep = 0.013f;
    // The forearm's finger and wrist muscles (docs/anatomy.md "Forearm"):
    // flexors in front (+ant), extensors behind, the deep layer on the bones
    // and the membrane between them. The packing fills the forearm's fascia
    // with them; without them the forearm's skin held ~15 % muscle.
    addMuscle(sc, u, {"flexor_carpi_ulnaris", {d.V(E, -0.036f, 0.0f, -0.012f), d.V(E, -0.034f, -0.09f, -0.006f), d.V(W, -0.026f, 0.04f, 0.002f), d.V(W, -0.024f, -0.025f, 0.004f)}, 0.01f, 0.65f, Z, "humerus", "hand", -1.0f, -1.0f, kForearmRingStep});
    addMuscle(sc, u, {"flexor_digitorum_superficialis", {d.V(E, -0.028f, -0.015f, 0.004f), d.V(E, -0.01f, -0.1f, 0.012f), d.V(W, -0.004f, 0.05f, 0.008f), d.V(W, -0.002f, -0.05f, 0.012f)}, 0.017f, 0.6f, X, "humerus", "hand", -1.0f, -1.0f, kForearmRingStep});
    addMuscle(sc, u, {"flexor_digitorum_profundus", {d.V(E, -0.016f, -0.04f, -0.004f), d.V(E, -0.014f, -0.12f, 0.006f), d.V(W, -0.008f, 0.04f, 0.005f), d.V(W, -0.004f, -0.05f, 0.006f)}, 0.017f, 0.65f, X, "ulna", "hand", 0.6f, -1.0f, kForearmRingStep});
    addMuscle(sc, u, {"extensor_digitorum", {d.V(E, 0.024f, -0.02f, -0.024f), d.V(E, 0.004f, -0.09f, -0.032f), d.V(W, 0.002f, 0.05f, -0.02f), d.V(W, 0.0f, -0.05f, -0.014f)}, 0.011f, 0.6f, Z, "humerus", "hand", -1.0f, -1.0f, kForearmRingStep});
    addMuscle(sc, u, {"extensor_carpi_ulnaris", {d.V(E, 0.024f, -0.018f, -0.024f), d.V(E, -0.016f, -0.1f, -0.022f), d.V(W, -0.022f, 0.04f, -0.012f), d.V(W, -0.022f, -0.025f, -0.006f)}, 0.009f, 0.65f, Z, "humerus", "hand", -1.0f, -1.0f, kForearmRingStep});
    addMuscle(sc, u, {"abductor_pollicis_longus", {d.V(E, -0.004f, -0.08f, -0.014f), d.V(W, 0.018f, 0.07f, -0.012f), d.V(W, 0.03f, -0.02f, 0.004f)}, 0.008f, 0.65f, Z, "ulna", "hand", 0.6f, -1.0f, kForearmRingStep});

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
    // The kneecap: a bone of its own on the femur that the motion glides
    // along the femur's groove (knee_track.h); drawn only, the quadriceps'
    // tendon carries it.
    Bone patella{"patella" + u, fem, glm::vec3(0.0f), glm::vec3(0.0f), 0.012f, 1.0f};
    patella.head = patellaCentre(sc.bones[size_t(fem)], 0.0);
    patella.tail = patella.head + glm::vec3(0.0f, -0.02f, 0.0f);
    patella.solid = false;
    sc.bones.push_back(patella);
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

namespace {

// The trunk's outline (engine/anatomy/skin_outline.h) without the limbs: the
// surface the body wall's sheets are laid under.
std::function<float(glm::vec3)> trunkWall(const SceneSpec& sc) {
    const int pelvis = sc.find("pelvis"), torso = sc.find("torso");
    std::vector<OutlinePiece> trunk;
    for (const OutlinePiece& p : limbOutline(outlineBones(sc)))
        if (p.bone == pelvis || p.bone == torso) trunk.push_back(p);
    return [trunk](glm::vec3 p) { return outlineSdf(trunk, p); };
}

// A sheet muscle of the trunk (docs/anatomy.md "Trunk muscles").
struct SheetDef {
    const char* name;
    std::vector<glm::vec3> path;  // origin → insertion, on or near the skin
    glm::vec3 width;              // across the fibres
    float w0, w1;                 // half widths at origin and insertion (m)
    float thickness;              // m (scaled to the reference volume where there is one)
    float d0, d1;                 // depth of the outer face under the skin at origin, insertion (m)
    const char* origin;
    const char* insertion;
    // < 1: from this share of its length on, it leaves the wall for the
    // limb; < 0: never laid (a strap muscle, lofted along its path).
    float leaves = 1.0f;
};

float lerp(float a, float b, float u) { return a + (b - a) * u; }

}  // namespace

void addTrunkMuscles(SceneSpec& sc, const Side& d) {
    const glm::vec3 P = kPelvis, T = kTorso, SH = shoulder(d);
    const std::string& u = d.suf;
    const std::function<float(glm::vec3)> wall = trunkWall(sc);
    const glm::vec3 X(1, 0, 0), Y(0, 1, 0);
    // Layers under 1 cm of subcutaneous fat, each 2.5 mm from the next (the
    // contact gap): external oblique, internal oblique, transversus; on the
    // chest pectoralis over serratus; on the back latissimus and trapezius
    // over the erector spinae and (under the scapula) serratus.
    constexpr float fat = 0.010f, gap = 0.0025f;
    const float eo = 0.007f, io = 0.010f, ta = 0.005f;  // lateral wall thicknesses (docs/anatomy.md)
    const float io_d = fat + eo + gap, ta_d = io_d + io + gap;
    const std::vector<SheetDef> m = {
        // Rectus abdominis: pubic crest to the 5th–7th costal cartilages and xiphoid.
        {"rect_abd", {d.V(P, 0.02f, -0.06f, 0.12f), d.V(P, 0.04f, 0.08f, 0.14f), d.V(T, 0.06f, 0.2f, 0.16f)}, X,
         0.012f, 0.036f, 0.009f, fat, fat, "pelvis", "torso"},
        // External oblique: lower eight ribs, down and forward to the iliac
        // crest and the rectus sheath (its fleshy part lateral to the rectus).
        {"ext_oblique", {d.V(T, 0.16f, 0.21f, 0.02f), d.V(T, 0.15f, 0.06f, 0.10f), d.V(P, 0.125f, 0.05f, 0.12f)},
         glm::vec3(0, 1, 1), 0.09f, 0.05f, eo, fat, fat, "torso", "pelvis"},
        // Internal oblique: iliac crest up and forward to the lower ribs and rectus sheath.
        {"int_oblique", {d.V(P, 0.14f, 0.03f, 0.0f), d.V(P, 0.13f, 0.12f, 0.10f), d.V(T, 0.11f, 0.13f, 0.15f)},
         glm::vec3(0, -1, 1), 0.065f, 0.055f, io, io_d, io_d, "pelvis", "torso"},
        // Transversus abdominis: thoracolumbar fascia round to the rectus sheath.
        {"transversus", {d.V(T, 0.08f, 0.03f, -0.10f), d.V(T, 0.15f, 0.03f, 0.0f), d.V(T, 0.10f, 0.03f, 0.15f)}, Y,
         0.06f, 0.06f, ta, ta_d, ta_d, "pelvis", "torso"},
        // Serratus anterior: ribs 1–8 on the side of the chest, round under
        // the scapula to its medial border.
        {"serratus_ant", {d.V(T, 0.12f, 0.19f, 0.07f), d.V(T, 0.16f, 0.24f, -0.04f), d.V(T, 0.10f, 0.30f, -0.14f)}, Y,
         0.10f, 0.07f, 0.006f, 0.018f, 0.03f, "torso", "scapula"},
        // Pectoralis major: clavicle and sternum, a fan to the humerus (it
        // leaves the chest wall for the arm as the front of the armpit).
        {"pec_major", {d.V(T, 0.045f, 0.315f, 0.16f), d.V(SH, -0.005f, -0.07f, 0.015f)}, Y,
         0.14f, 0.022f, 0.012f, 0.008f, 0.012f, "torso", "humerus", 0.45f},
        // Latissimus dorsi: lower thoracic and lumbar spines, iliac crest, a
        // fan up and round to the humerus (the back of the armpit).
        {"lat_dorsi", {d.V(T, 0.06f, 0.06f, -0.16f), d.V(SH, -0.015f, -0.08f, -0.01f)},
         glm::vec3(-1, 1, 0), 0.11f, 0.022f, 0.007f, 0.008f, 0.014f, "torso", "humerus", 0.55f},
        // Trapezius in its three parts (one wide fan's rings would cross where
        // it bends over the neck): the descending part from the occiput and
        // the nuchal ligament down to the clavicle's outer third, the
        // transverse part from C7–T3 across to the acromion, the ascending
        // part from T4–T12 up to the root of the scapula's spine.
        {"trapezius1", {d.V(T, 0.015f, 0.52f, -0.09f), d.V(T, 0.06f, 0.44f, -0.08f), d.V(SH, -0.045f, 0.035f, -0.01f)},
         glm::vec3(0, 0, 1), 0.03f, 0.025f, 0.008f, 0.005f, 0.007f, "torso", "clavicle"},
        {"trapezius2", {d.V(T, 0.015f, 0.39f, -0.15f), d.V(T, 0.08f, 0.395f, -0.14f), d.V(SH, -0.03f, 0.03f, -0.045f)}, Y,
         0.05f, 0.03f, 0.008f, 0.006f, 0.008f, "torso", "scapula"},
        {"trapezius3", {d.V(T, 0.03f, 0.22f, -0.16f), d.V(SH, -0.09f, 0.0f, -0.08f)},
         glm::vec3(-1, 1, 0), 0.055f, 0.025f, 0.008f, 0.006f, 0.008f, "torso", "scapula"},
        // Erector spinae: sacrum and iliac crest up beside the spine to the ribs' angles.
        {"erector_spinae", {d.V(P, 0.035f, 0.0f, -0.13f), d.V(T, 0.04f, 0.12f, -0.15f), d.V(T, 0.035f, 0.33f, -0.15f)}, X,
         0.032f, 0.022f, 0.024f, 0.022f, 0.022f, "pelvis", "torso"},
        // Sternocleidomastoid: sternum and clavicle up and back to the
        // mastoid; a strap, not a sheet: lofted along its path in the neck,
        // 1 cm under the skin (the neck's concave junction with the jaw
        // folded a laid sheet through itself).
        {"sternocleidomastoid", {d.V(T, 0.022f, 0.38f, 0.065f), d.V(T, 0.036f, 0.46f, 0.03f), d.V(T, 0.045f, 0.55f, -0.005f)},
         glm::vec3(-1, 0, 0), 0.014f, 0.011f, 0.011f, 0.0f, 0.0f, "torso", "torso", -1.0f},
    };
    for (const SheetDef& x : m) {
        SheetShape shape;
        const float w0 = x.w0, w1 = x.w1, d0 = x.d0, d1 = x.d1, th = x.thickness;
        // Aponeurotic ends: broad, thinning to 40 % of the belly's thickness.
        shape.half_width = [w0, w1](float t) { return lerp(w0, w1, t) * (0.85f + 0.15f * std::max(0.0f, std::sin(float(kPi) * t))); };
        shape.thickness = [th](float t) { return th * (0.4f + 0.6f * std::sqrt(std::max(0.0f, std::sin(float(kPi) * t)))); };
        shape.depth = [d0, d1](float t) { return lerp(d0, d1, t); };
        shape.width_dir = glm::vec3(d.s * x.width.x, x.width.y, x.width.z);
        shape.side = d.s;
        const float leaves = x.leaves;
        shape.laid = [leaves](float t) {
            if (leaves < 0.0f) return 0.0f;  // a strap: the plain loft
            const float k = std::clamp((t - leaves) / std::max(1e-3f, 1.0f - leaves), 0.0f, 1.0f);
            return 1.0f - k * k * (3.0f - 2.0f * k);
        };
        shape.rings = std::clamp(int(std::lround(pathLength(x.path) / 0.02f)), 8, 20);
        shape.segments = std::max(w0, w1) > 0.05f ? 20 : 12;
        MuscleSpec ms;
        ms.name = std::string(x.name) + u;
        const ReferenceVolume* ref = referenceVolume(ms.name);
        ms.mesh = sizedSheet(x.path, shape, wall, ref ? ref->cm3 * 1e-6 : 0.0);
        auto bone = [&](const std::string& b) { return (b == "pelvis" || b == "torso") ? b : b + u; };
        ms.origin_bones = {bone(x.origin)};
        ms.insertion_bone = bone(x.insertion);
        ms.group = 4;
        ms.sheet = true;
        sc.muscles.push_back(std::move(ms));
    }
}

void addArmFascia(std::vector<FasciaPiece>& f, const Side& d) {
    const glm::vec3 SH = shoulder(d), E = SH - glm::vec3(0, 0.29f, 0), W = E - glm::vec3(0, 0.24f, 0);
    f.push_back({d.V(SH, 0.0f, 0.0f, 0.0f), d.V(SH, 0.005f, -0.07f, 0.0f), 0.0475f, 0.043f});    // shoulder, under the deltoid
    f.push_back({d.V(SH, 0.0f, -0.07f, 0.0f), d.V(SH, 0.0f, -0.17f, 0.006f), 0.0475f, 0.0475f});  // upper arm, bellies
    f.push_back({d.V(SH, 0.0f, -0.17f, 0.006f), d.V(E, 0.0f, 0.04f, 0.006f), 0.0475f, 0.0295f});  // upper arm, to the elbow
    // The forearm's fascia: 5 mm inside the skin 6 cm below the elbow, 3.8 mm
    // at the ulna's middle (12 cm), 3.2 mm at 15 cm where the bellies end
    // (skin_outline.cpp: r 4.5 cm at 6 cm, 3.6 cm at 15 cm), narrowing to the
    // wrist's tendons (the wrist's skin is flattened front to back).
    f.push_back({d.V(E, 0.0f, 0.04f, 0.006f), d.V(E, 0.0f, -0.06f, 0.004f), 0.0295f, 0.040f});    // elbow
    f.push_back({d.V(E, 0.0f, -0.06f, 0.004f), d.V(E, 0.0f, -0.15f, 0.002f), 0.040f, 0.0328f});   // forearm, bellies
    f.push_back({d.V(E, 0.0f, -0.15f, 0.002f), d.V(W, 0.0f, 0.0f, 0.0f), 0.0328f, 0.019f});       // forearm, to the wrist
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
        p.fixed = m.sheet;
        pm.push_back(p);
    }
    std::vector<PackingCapsule> bones;
    for (const Bone& b : sc.bones)
        if (b.visible && b.solid) bones.push_back({b.head, b.tail, b.radius});
    PackingOptions opt;
    opt.fascia = [&fascia](glm::vec3 p) { return fasciaDistance(fascia, p); };
    packMuscles(pm, bones, opt);
    sc.packed = true;
}

void untangleScene(SceneSpec& sc, bool only_two_headed) {
    for (MuscleSpec& m : sc.muscles) separateHeads(m.mesh.vertices, m.mesh);
    // A mesh that crosses itself has no inside: the first pass guards each
    // muscle's moves only against the muscles clean at the time (a muscle
    // joins them once clean) and against sweeping over the vertices of the
    // muscles that were clean from the start (a winding test, valid for any
    // mesh). Then, all clean, what the folds had hidden shows: rings still
    // inside a neighbour move out whole, and whatever that folds is smoothed
    // again, guarded against every muscle.
    const size_t n = sc.muscles.size();
    std::vector<char> crossing(n);
    Obstacles clean, all;
    for (size_t i = 0; i < n; ++i) {
        const bool folded = selfIntersections(sc.muscles[i].mesh.vertices, sc.muscles[i].mesh.triangles) > 0;
        crossing[i] = folded && (!only_two_headed || sc.muscles[i].mesh.chains.size() == 3);
        if (!folded) clean.muscles.push_back(&sc.muscles[i].mesh);
        all.muscles.push_back(&sc.muscles[i].mesh);
    }
    const Obstacles untouched = clean;
    const std::vector<char> touched = crossing;
    for (size_t i = 0; i < n; ++i)
        if (crossing[i] && untangleLoft(sc.muscles[i].mesh, clean, untouched) == 0) clean.muscles.push_back(&sc.muscles[i].mesh);
    constexpr int kWithdrawPasses = 3;
    for (int pass = 0; pass < kWithdrawPasses; ++pass) {
        bool any = false;
        for (size_t i = 0; i < n; ++i) {
            // A touched muscle leaves every neighbour; the others leave the
            // touched ones (what they were in, their folds had hidden).
            Obstacles from;
            for (size_t j = 0; j < n; ++j)
                if (j != i && (touched[i] || touched[j])) from.muscles.push_back(&sc.muscles[j].mesh);
            const size_t moved = withdrawFrom(sc.muscles[i].mesh, from);
            if (moved == 0 && !touched[i]) continue;
            const size_t left = untangleLoft(sc.muscles[i].mesh, all, all);
            any = any || moved > 0 || left > 0;
        }
        if (!any) break;
    }
    // T7 (untangled above for its biceps only): every other folded muscle
    // but the sheets (smoothed as they are laid) is smoothed on its own and
    // kept so only where it then lies no deeper than the packing bar in a
    // clean neighbour and keeps 85 % of its volume; a clean neighbour the
    // smoothed mesh holds deeper than that steps out of it (docs/anatomy.md
    // "Mesh quality"; smoothing them all and moving rings out of each other
    // did not settle: docs/lab/mesh-untangle.md).
    if (only_two_headed) {
        constexpr float kOverlapBar = 0.002f;  // AnatomyPacking's bar for limb muscles
        std::vector<char> clean_now(n);
        for (size_t j = 0; j < n; ++j)
            clean_now[j] = selfIntersections(sc.muscles[j].mesh.vertices, sc.muscles[j].mesh.triangles) == 0;
        // Twice: a muscle refused for a folded neighbour inside it may be
        // cleared once that neighbour is.
        for (int sweep = 0; sweep < 2; ++sweep) {
            for (size_t i = 0; i < n; ++i) {
                if (clean_now[i] || sc.muscles[i].sheet) continue;
                Obstacles around;
                std::vector<MeshData*> yielding;  // the clean neighbours, which may step out of it
                for (size_t j = 0; j < n; ++j)
                    if (j != i && clean_now[j]) around.muscles.push_back(&sc.muscles[j].mesh), yielding.push_back(&sc.muscles[j].mesh);
                if (untangleIfClear(sc.muscles[i].mesh, around, all, kOverlapBar, yielding))
                    clean_now[i] = selfIntersections(sc.muscles[i].mesh.vertices, sc.muscles[i].mesh.triangles) == 0;
            }
        }
    }
    // Last, the flat triangles this can leave (a vertex laid on its
    // neighbour ring's edge: T7's biceps, 179.9°) lifted and the needles
    // packing left (two ring vertices 0.05 mm apart) widened to the
    // mesh-quality bound (docs/anatomy.md "Mesh quality").
    constexpr float kFlatTriangleBoundDeg = 0.2f;
    for (MuscleSpec& m : sc.muscles) {
        liftFlatTriangles(m.mesh, kFlatTriangleBoundDeg);
        widenNeedles(m.mesh, kFlatTriangleBoundDeg);
    }
}

}  // namespace engine::generator

// The catalogue (scene_catalogue.h).
#include "engine/anatomy/scene_catalogue.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "engine/anatomy/body_plan.h"
#include "engine/anatomy/motions.h"

namespace engine::generator {

namespace {

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

}  // namespace

SceneSpec buildSceneSpec(const std::string& id) {
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
        // ulna in a strike; 3 substeps none (docs/model.md §7).
        sc.substeps = 3;
        sc.carry = 1.0f;
        sc.file = "t6-arm-fighting.glb";
        // The fighting hand is a fist (guard and strikes alike).
        sc.bones[size_t(sc.find("hand_r"))].fist = true;
        fighting(sc);
    } else if (id == "t7") {
        sc.res = 0;
        sc.gravity_scale = 0.0f;
        // Walking and running swing the shanks fast: at 1 substep without
        // carry lower-leg muscles went 19 mm into the foot and their volumes
        // swung between -3.5 and 3.6. With the packed calf (docs/anatomy.md),
        // 240 frames at 2 substeps put the soleus and long flexors 13 mm into
        // the foot while running; at 3 substeps 4.5 mm (docs/model.md §7).
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
                  {"glut_", "iliacus", "psoas", "piriformis", "gemelli", "quad_fem"});
        sc.planes.push_back(plane(0.0f));
        walkRun(sc);
    }
    // T7: only the biceps (its heads, separated in packing, would otherwise
    // be left flattened into slivers): smoothing every fold of T7 showed
    // overlaps the folds had hidden (the hamstrings' two heads 2.6 mm, the
    // trunk's sheets) that moving rings out of each other did not settle
    // (docs/lab/mesh-untangle.md).
    untangleScene(sc, id == "t7");
    sc.id = id;
    return sc;
}

}  // namespace engine::generator

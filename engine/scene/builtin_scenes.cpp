// Built-in scenes made in code: the thesis' T1, P1 and P2 (docs/scene-format.md (the scenes)). The glTF
// versions of every scene are written by `msxpbd gen`.
//
// Our choices:
// - T1 (the thesis' oval that rests, activates and relaxes) is held by its
//   origin tip only, so activation visibly shortens it, and is weightless:
//   a soft body hanging from one tip converges slowly under Gauss-Seidel at
//   one substep (the classic long-chain problem), which would hide the
//   activation loop behind solver sag. P2 (held by one vertex each) is
//   weightless for the same reason.
// - P1 holds the same oval at both tips over a plane, with gravity.
// - "hang" is the students' Study (docs/study.md): a coarse oval hanging
//   under gravity from its top. Where the material's compliance dominates
//   (soft, or enough substeps) XPBD's elongation does not depend on the
//   iteration count and PBD's does; at stiff settings every millimetre of
//   stretch is convergence error for both, which the Study also shows.
#include "engine/scene/builtin_scenes.h"

#include <glm/geometric.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

namespace {

// Oval muscle: 0.2 m long, 3 cm equatorial radius (about a biceps belly),
// 48 rings × 48 segments = 2306 vertices.
constexpr float kOvalHalfLength = 0.10f;
constexpr float kOvalRadius = 0.03f;
constexpr int kOvalRings = 48;
constexpr int kOvalSegments = 48;

sim::MuscleDesc muscleFromMesh(const std::string& name, const MeshData& mesh) {
    sim::MuscleDesc m;
    m.name = name;
    m.vertices = mesh.vertices;
    m.triangles = mesh.triangles;
    m.origin_sets = mesh.origin_sets;
    m.insertion_sets = mesh.insertion_sets;
    return m;
}

void attachSets(sim::MuscleDesc& m, const std::vector<std::vector<uint32_t>>& sets, int body) {
    for (const auto& set : sets)
        for (uint32_t v : set) m.attachments.push_back({v, body});
}

int addAnchor(Scene& s, const std::string& name) {
    sim::BodyDesc b;
    b.name = name;
    s.desc.bodies.push_back(b);
    s.body_joint.push_back(-1);
    s.body_offset.push_back(glm::mat4(1.0f));
    return int(s.desc.bodies.size()) - 1;
}

// Index of the vertex with the largest projection on `dir` (ties: lowest index).
uint32_t extremeVertex(const std::vector<glm::vec3>& v, glm::vec3 dir) {
    uint32_t best = 0;
    for (uint32_t i = 1; i < v.size(); ++i)
        if (glm::dot(v[i], dir) > glm::dot(v[best], dir)) best = i;
    return best;
}

void makeT1(Scene& s) {
    s.desc.name = "t1";
    s.desc.gravity_scale = 0.0f;
    int anchor = addAnchor(s, "anchor");
    // Hanging vertically: origin tip at the top (y = 0.45), insertion at the bottom.
    MeshData oval = makeOval({0.0f, 0.35f, 0.0f}, {0.0f, -1.0f, 0.0f}, kOvalHalfLength, kOvalRadius, kOvalRings,
                             kOvalSegments, 1);
    sim::MuscleDesc m = muscleFromMesh("oval", oval);
    attachSets(m, oval.origin_sets, anchor);
    s.desc.muscles.push_back(std::move(m));
}

void makeP1(Scene& s) {
    s.desc.name = "p1";
    int anchor = addAnchor(s, "anchor");
    // Horizontal, 5 mm above the plane at its lowest point, held at both tips.
    MeshData oval = makeOval({0.0f, kOvalRadius + 0.005f, 0.0f}, {1.0f, 0.0f, 0.0f}, kOvalHalfLength, kOvalRadius,
                             kOvalRings, kOvalSegments, 1);
    sim::MuscleDesc m = muscleFromMesh("oval", oval);
    attachSets(m, oval.origin_sets, anchor);
    attachSets(m, oval.insertion_sets, anchor);
    s.desc.muscles.push_back(std::move(m));
    s.desc.planes.push_back({{0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});
}

void makeP2(Scene& s) {
    s.desc.name = "p2";
    s.desc.gravity_scale = 0.0f;
    int anchor = addAnchor(s, "anchor");
    // An oval hanging from its top pole and a cube hanging from the top corner
    // nearest to it, side by side and touching once the cube swings in; a
    // plane just under the oval's lower tip.
    MeshData oval = makeOval({0.0f, 0.25f, 0.0f}, {0.0f, -1.0f, 0.0f}, kOvalHalfLength, kOvalRadius, kOvalRings,
                             kOvalSegments, 1);
    MeshData cube = makeBox({0.062f, 0.30f, 0.0f}, glm::vec3(0.03f), 16);
    sim::MuscleDesc mo = muscleFromMesh("oval", oval);
    sim::MuscleDesc mc = muscleFromMesh("cube", cube);
    mo.attachments.push_back({extremeVertex(oval.vertices, {0.0f, 1.0f, 0.0f}), anchor});
    mc.attachments.push_back({extremeVertex(cube.vertices, glm::normalize(glm::vec3(-1.0f, 1.0f, -1.0f))), anchor});
    mo.contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 1});
    mc.contact_targets.push_back({sim::TargetDesc::Kind::Muscle, 0});
    s.desc.muscles.push_back(std::move(mo));
    s.desc.muscles.push_back(std::move(mc));
    s.desc.planes.push_back({{0.0f, 0.14f, 0.0f}, {0.0f, 1.0f, 0.0f}});
}

void makeHang(Scene& s) {
    s.desc.name = "hang";
    int anchor = addAnchor(s, "anchor");
    MeshData oval = makeOval({0.0f, 0.35f, 0.0f}, {0.0f, -1.0f, 0.0f}, kOvalHalfLength, kOvalRadius, 16, 12, 1);
    sim::MuscleDesc m = muscleFromMesh("oval", oval);
    attachSets(m, oval.origin_sets, anchor);
    s.desc.muscles.push_back(std::move(m));
}

struct Builtin {
    const char* name;
    void (*make)(Scene&);
};
constexpr Builtin kBuiltins[] = {{"t1", makeT1}, {"p1", makeP1}, {"p2", makeP2}, {"hang", makeHang}};

}  // namespace

std::vector<std::string> builtinSceneNames() {
    std::vector<std::string> names;
    for (const auto& b : kBuiltins) names.push_back(b.name);
    return names;
}

std::string makeBuiltinScene(const std::string& name, Scene& out) {
    for (const auto& b : kBuiltins) {
        if (name != b.name) continue;
        out = Scene{};
        out.source = "builtin:" + name;
        b.make(out);
        return {};
    }
    std::string valid;
    for (const auto& b : kBuiltins) valid += std::string(valid.empty() ? "" : ", ") + "builtin:" + b.name;
    return "unknown built-in scene 'builtin:" + name + "' (valid: " + valid + ")";
}

}  // namespace engine

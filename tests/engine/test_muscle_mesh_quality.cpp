// Mesh quality of the generated muscles (issue 32; engine/anatomy/loft_untangle.h,
// docs/anatomy.md "Mesh quality"): every muscle mesh of every committed scene is
// closed and outward, has no sliver below the stated bound and does not cut
// through itself.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/anatomy/loft_untangle.h"
#include "engine/anatomy/muscle_loft.h"
#include "engine/anatomy/muscle_packing.h"
#include "engine/anatomy/scene_generator.h"
#include "engine/gltf/gltf_loader.h"
#include "engine/load_scene.h"
#include "engine/mesh/mesh_quality.h"
#include "sim/mesh_topology.h"

using namespace engine;
namespace fs = std::filesystem;

namespace {

// Smallest triangle angle of every generated scene: the thinnest triangles
// are the forearm's tendon ends (rings 1.3 mm thin, 13 mm apart) and needles
// packing left, widened to this bound (widenNeedles).
constexpr float kMinAngleDeg = 0.2f;

std::vector<std::pair<std::string, sim::SceneDesc>> committedScenes() {
    std::vector<std::pair<std::string, sim::SceneDesc>> out;
    for (const auto& e : fs::directory_iterator(fs::path(MSXPBD_SOURCE_DIR) / "assets" / "scenes")) {
        if (e.path().extension() != ".glb") continue;
        Scene s;
        EXPECT_EQ(loadGltfScene(e.path().string(), s), "") << e.path();
        out.emplace_back(e.path().filename().string(), s.desc);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return out;
}

// Closed and consistently wound: every directed edge once, and its reverse once.
std::string closedAndWound(const std::vector<glm::uvec3>& tris) {
    std::map<std::pair<uint32_t, uint32_t>, int> edges;
    for (const glm::uvec3& t : tris)
        for (int k = 0; k < 3; ++k) ++edges[{t[k], t[(k + 1) % 3]}];
    for (const auto& [e, n] : edges) {
        if (n != 1) return "edge " + std::to_string(e.first) + "-" + std::to_string(e.second) + " used " + std::to_string(n) + " times one way";
        if (!edges.count({e.second, e.first})) return "edge " + std::to_string(e.first) + "-" + std::to_string(e.second) + " is on a hole";
    }
    return {};
}

}  // namespace

TEST(MuscleMeshQuality, EveryGeneratedMuscleIsClosedOutwardAndUncrossed) {
    const auto scenes = committedScenes();
    ASSERT_GE(scenes.size(), 11u) << "assets/scenes holds the generated scenes (msxpbd gen)";
    for (const auto& [file, desc] : scenes)
        for (const sim::MuscleDesc& m : desc.muscles) {
            EXPECT_EQ(closedAndWound(m.triangles), "") << file << " " << m.name;
            EXPECT_GT(sim::signedVolume(m.vertices, m.triangles), 0.0) << file << " " << m.name << " is inside out";
            EXPECT_EQ(selfIntersections(m.vertices, m.triangles), 0u) << file << " " << m.name << " cuts through itself";
            EXPECT_GE(minTriangleAngle(m.vertices, m.triangles), kMinAngleDeg) << file << " " << m.name;
        }
}

// The biceps's two heads, lofted into one mesh, overlap where they merge
// (the signed volume counts the overlap twice): separated and untangled, the
// mesh crosses nowhere and keeps most of its volume.
TEST(LoftUntangle, TwoHeadsMergeWithoutCuttingThroughEachOther) {
    const std::vector<glm::vec3> a = {{-0.02f, 0.03f, 0.0f}, {-0.012f, -0.05f, 0.006f}, {-0.004f, -0.11f, 0.01f}};
    const std::vector<glm::vec3> b = {{0.02f, 0.03f, 0.0f}, {0.012f, -0.05f, 0.006f}, {0.004f, -0.11f, 0.01f}};
    const std::vector<glm::vec3> belly = {{0.0f, -0.11f, 0.01f}, {0.0f, -0.2f, 0.02f}, {0.0f, -0.3f, 0.0f}};
    LoftShape s;
    s.r_max = 0.021f;
    s.segments = 14;
    MeshData m = loftTwoHeaded(a, b, belly, s, 0.016f, 12);
    ASSERT_GT(selfIntersections(m.vertices, m.triangles), 0u) << "the heads should overlap before";
    const double before = meshVolume(m);
    separateHeads(m.vertices, m);
    EXPECT_EQ(untangleLoft(m, {}, {}), 0u);
    EXPECT_EQ(selfIntersections(m.vertices, m.triangles), 0u);
    EXPECT_GT(meshVolume(m), 0.6 * before);
}

namespace {

// Generalised winding number of a closed mesh about p (0 outside, 1 inside;
// defined for a mesh that crosses itself too).
double windingAbout(glm::dvec3 p, const MeshData& m) {
    double w = 0.0;
    for (const glm::uvec3& t : m.triangles) {
        const glm::dvec3 a = glm::dvec3(m.vertices[t.x]) - p, b = glm::dvec3(m.vertices[t.y]) - p, c = glm::dvec3(m.vertices[t.z]) - p;
        const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
        w += 2.0 * std::atan2(glm::dot(a, glm::cross(b, c)),
                              la * lb * lc + glm::dot(a, b) * lc + glm::dot(b, c) * la + glm::dot(c, a) * lb);
    }
    return w / (4.0 * 3.14159265358979323846);
}

// How many of `points` (outside the mesh before) the untangled mesh swallows.
size_t untangledBendSwallows(bool guard) {
    LoftShape s;
    s.r_max = 0.03f;
    s.tendon = 0.5f;
    s.ellipse = 1.0f;
    MeshData m = loftMuscle({{0.0f, 0.0f, 0.0f}, {0.1f, 0.0f, 0.0f}, {0.1f, 0.1f, 0.0f}}, s);
    EXPECT_GT(selfIntersections(m.vertices, m.triangles), 0u) << "the bend should fold before";
    // A neighbour's vertices: a grid over the bend, those outside the mesh.
    MeshData neighbour;
    for (float x = 0.04f; x <= 0.16f; x += 0.004f)
        for (float y = -0.06f; y <= 0.06f; y += 0.004f)
            for (float z = -0.03f; z <= 0.03f; z += 0.006f)
                if (std::fabs(windingAbout({x, y, z}, m)) < 0.5) neighbour.vertices.emplace_back(x, y, z);
    Obstacles swept;
    if (guard) swept.muscles = {&neighbour};
    EXPECT_EQ(untangleLoft(m, {}, swept), 0u);
    EXPECT_EQ(selfIntersections(m.vertices, m.triangles), 0u);
    size_t n = 0;
    for (const glm::vec3& p : neighbour.vertices) n += std::fabs(windingAbout(glm::dvec3(p), m)) >= 0.5 ? 1 : 0;
    return n;
}

}  // namespace

// A loft bent sharper than it is thick folds on the inside of the bend;
// untangled it crosses nowhere, and where a neighbour's vertices lie beside
// the fold the smoothing goes round them instead of over them (the fold
// hides them from an inside test, so nothing else would see them).
TEST(LoftUntangle, ABendIsSmoothedWithoutSwallowingANeighbour) {
    EXPECT_GT(untangledBendSwallows(false), 0u) << "unguarded, the smoothing should sweep over some of the grid";
    EXPECT_EQ(untangledBendSwallows(true), 0u);
}

namespace {

// A loft bent sharper than it is thick (it folds on the inside of the bend;
// smoothed, it keeps 91 % of its volume).
MeshData foldedBend() {
    LoftShape s;
    s.r_max = 0.02f;
    s.tendon = 0.5f;
    s.ellipse = 1.0f;
    return loftMuscle({{0.0f, 0.0f, 0.0f}, {0.1f, 0.0f, 0.0f}, {0.1f, 0.1f, 0.0f}}, s);
}

}  // namespace

// T7's folded limb muscles are smoothed one by one and kept so only where the
// smoothed mesh shows no neighbour deeper than the packing bar: a fold alone
// is taken out; a fold whose smoothing would hold a neighbour 2 cm inside it
// (a box in the tube, hidden from an inside test while the tube crossed
// itself) is left exactly as it was.
TEST(LoftUntangle, AFoldIsSmoothedOnlyWhereNoNeighbourShowsInside) {
    constexpr float kBar = 0.002f;
    MeshData alone = foldedBend();
    ASSERT_GT(selfIntersections(alone.vertices, alone.triangles), 0u);
    EXPECT_TRUE(untangleIfClear(alone, {}, {}, kBar));
    EXPECT_EQ(selfIntersections(alone.vertices, alone.triangles), 0u);

    MeshData hiding = foldedBend();
    const std::vector<glm::vec3> before = hiding.vertices;
    const MeshData box = makeBox({0.04f, 0.0f, 0.0f}, glm::vec3(0.004f), 2);
    Obstacles around;
    around.muscles = {&box};
    EXPECT_FALSE(untangleIfClear(hiding, around, around, kBar));
    EXPECT_EQ(hiding.vertices, before);
    EXPECT_GT(deepestInside(box, alone), kBar) << "smoothed, the tube holds the box deeper than the bar";
}

// A neighbour that may yield steps out of the smoothed tube where it lies
// deeper than the bar, and the smoothing is kept: the fold is gone, the
// neighbour still closed and uncrossed and no deeper than the bar in it.
// A neighbour wholly inside cannot step out cleanly (flattened onto the
// tube's wall it would cross itself): both stay exactly as they were.
TEST(LoftUntangle, ANeighbourTheFoldHidStepsOutOfTheSmoothedMesh) {
    constexpr float kBar = 0.002f;
    MeshData tube = foldedBend();
    // A box over the tube (radius 11.9 mm there) with a spike 3.9 mm into
    // it: no tube vertex lies in the spike, so the tube cannot withdraw.
    MeshData box = makeBox({0.05f, 0.02f, 0.0f}, glm::vec3(0.004f), 2);
    size_t tip = 0;
    for (size_t i = 0; i < box.vertices.size(); ++i)
        if (glm::length(box.vertices[i] - glm::vec3(0.05f, 0.016f, 0.0f)) < glm::length(box.vertices[tip] - glm::vec3(0.05f, 0.016f, 0.0f))) tip = i;
    box.vertices[tip] = {0.05f, 0.008f, 0.0f};
    Obstacles around;
    around.muscles = {&box};
    ASSERT_FALSE(untangleIfClear(tube, around, around, kBar)) << "without yielding the box holds the smoothing back";
    EXPECT_TRUE(untangleIfClear(tube, around, around, kBar, {&box}));
    EXPECT_EQ(selfIntersections(tube.vertices, tube.triangles), 0u);
    EXPECT_EQ(selfIntersections(box.vertices, box.triangles), 0u);
    EXPECT_LE(deepestInside(box, tube), kBar);
    EXPECT_LE(deepestInside(tube, box), kBar);

    MeshData hiding = foldedBend();
    MeshData inner = makeBox({0.04f, 0.0f, 0.0f}, glm::vec3(0.004f), 2);
    const std::vector<glm::vec3> tube_before = hiding.vertices, box_before = inner.vertices;
    around.muscles = {&inner};
    EXPECT_FALSE(untangleIfClear(hiding, around, around, kBar, {&inner}));
    EXPECT_EQ(hiding.vertices, tube_before);
    EXPECT_EQ(inner.vertices, box_before);
}

// A needle (two vertices of a ring laid 0.02 mm apart) is widened past the
// bound by moving its corners along the surface; the mesh stays uncrossed.
TEST(LoftUntangle, NeedlesAreWidenedToTheBound) {
    LoftShape s;
    s.r_max = 0.015f;
    MeshData m = loftMuscle({{0.0f, 0.0f, 0.0f}, {0.0f, 0.1f, 0.0f}, {0.0f, 0.2f, 0.0f}}, s);
    ASSERT_EQ(m.vertex_station.size(), m.vertices.size());
    // Pull one mid-belly ring vertex to 0.02 mm from its ring neighbour.
    uint32_t v = 0;
    for (; v < m.vertices.size(); ++v)
        if (m.vertex_station[v].x >= 0 && m.vertex_station[v].y == int(m.chains[0].size() / 2)) break;
    ASSERT_LT(v, m.vertices.size());
    m.vertices[v] = m.vertices[v + 1] + 0.00002f * glm::normalize(m.vertices[v] - m.vertices[v + 1]);
    ASSERT_LT(minTriangleAngle(m.vertices, m.triangles), 0.2f);
    EXPECT_GT(widenNeedles(m, 0.2f), 0u);
    EXPECT_GE(minTriangleAngle(m.vertices, m.triangles), 0.2f);
    EXPECT_EQ(selfIntersections(m.vertices, m.triangles), 0u);
}

// Bone shapes (engine/bone_shapes, docs/anatomy.md "Bone shapes") and the
// decimator under them (engine/mesh_simplify): closed outward manifolds of
// the expected topology, light enough, shafts on their contact capsules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include <glm/geometric.hpp>

#include "engine/anatomy/bone_shapes.h"
#include "engine/mesh/mesh_simplify.h"
#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "sim/geometry.h"
#include "sim/mesh_topology.h"

using namespace engine;
namespace fs = std::filesystem;

namespace {

long eulerCharacteristic(const MeshData& m) {
    std::set<uint32_t> verts;
    for (const glm::uvec3& t : m.triangles) verts.insert({t.x, t.y, t.z});
    return long(verts.size()) - long(sim::uniqueEdges(m.triangles).size()) + long(m.triangles.size());
}

size_t components(const MeshData& m) {
    std::vector<uint32_t> p(m.vertices.size());
    for (uint32_t i = 0; i < p.size(); ++i) p[i] = i;
    auto find = [&](uint32_t x) {
        while (p[x] != x) x = p[x] = p[p[x]];
        return x;
    };
    for (const glm::uvec3& t : m.triangles) {
        p[find(t.x)] = find(t.y);
        p[find(t.y)] = find(t.z);
    }
    std::set<uint32_t> roots;
    for (const glm::uvec3& t : m.triangles) roots.insert(find(t.x));
    return roots.size();
}

float pointTriangleDistance(glm::vec3 p, const MeshData& m) {
    float best = INFINITY;
    for (const glm::uvec3& t : m.triangles) {
        sim::TriFeature f;
        const glm::vec3 q = sim::closestPointOnTriangle(p, m.vertices[t.x], m.vertices[t.y], m.vertices[t.z], f);
        best = std::min(best, glm::length(p - q));
    }
    return best;
}

// One bone of a committed scene: its part of the skinned skeleton mesh
// (world rest positions) and its contact capsule in world space.
struct SceneBone {
    std::string name;
    MeshData mesh;
    glm::vec3 a{0.0f}, b{0.0f};
    float radius = 0.0f;
};

std::map<std::string, SceneBone> sceneBones(const std::string& file) {
    std::map<std::string, SceneBone> out;
    Scene s;
    const std::string path = (fs::path(MSXPBD_SOURCE_DIR) / "assets" / "scenes" / file).string();
    EXPECT_EQ(loadScene(path, s), "") << path;
    const RenderMesh* skel = nullptr;
    for (const RenderMesh& m : s.meshes)
        if (m.skinned() && !m.blend) skel = &m;  // the skeleton, not the translucent skin
    EXPECT_NE(skel, nullptr) << file;
    if (!skel) return out;
    std::vector<int> joint_of(skel->positions.size());
    for (size_t v = 0; v < joint_of.size(); ++v) joint_of[v] = skel->skin_joint_map[skel->skin_joints[v].x];
    std::map<int, std::vector<uint32_t>> remap;
    for (size_t i = 0; i + 2 < skel->indices.size(); i += 3) {
        const int j = joint_of[skel->indices[i]];
        SceneBone& bone = out[s.skeleton.joints[size_t(j)].name];
        std::vector<uint32_t>& r = remap[j];
        if (r.empty()) r.assign(skel->positions.size(), UINT32_MAX);
        glm::uvec3 t;
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = skel->indices[i + size_t(k)];
            EXPECT_EQ(joint_of[v], j) << "a triangle spans two bones";
            if (r[v] == UINT32_MAX) {
                r[v] = uint32_t(bone.mesh.vertices.size());
                bone.mesh.vertices.push_back(skel->positions[v]);
            }
            t[k] = r[v];
        }
        bone.mesh.triangles.push_back(t);
    }
    for (const sim::BodyDesc& b : s.desc.bodies) {
        auto it = out.find(b.name);
        if (it == out.end()) continue;
        it->second.name = b.name;
        it->second.a = glm::vec3(b.transform * glm::vec4(b.capsule_a, 1.0f));
        it->second.b = glm::vec3(b.transform * glm::vec4(b.capsule_b, 1.0f));
        it->second.radius = b.capsule_radius;
    }
    return out;
}

// Components and Euler characteristic each kind is built with: one genus-0
// piece, except the tibia (with the fibula and the patella: three pieces),
// the pelvis (two hip bones, each with its obturator foramen, genus 1, where the ball meets the shaft), and
// the sacrum) and the torso (spine with ribs and sternum, joined by the
// costal cartilage, skull, jaw: the rib cage's piece has genus 13, the loops
// that the ribs close through the sternum and neighbouring processes that
// meet at the grid's scale).
struct Topology {
    size_t components;
    long euler;
};
Topology expectedTopology(BoneKind k) {
    switch (k) {
    case BoneKind::Tibia: return {2, 4};  // tibia and fibula
    case BoneKind::Pelvis: return {3, 2};
    case BoneKind::Torso: return {3, -20};
    default: return {1, 2};
    }
}

}  // namespace

TEST(MeshSimplify, ReachesBudgetAndStaysOnTheSurface) {
    // A capsule with a ball on one end: the analytic surface to compare with.
    const glm::vec3 a(0.0f, 0.0f, 0.0f), b(0.0f, 0.2f, 0.0f), c(0.01f, 0.2f, 0.0f);
    auto field = [&](glm::vec3 p) {
        const glm::vec3 ab = b - a;
        const float t = std::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
        return std::min(glm::length(p - (a + t * ab)) - 0.01f, glm::length(p - c) - 0.02f);
    };
    const MeshData dense = polygonize(field, glm::vec3(-0.04f, -0.02f, -0.03f), glm::vec3(0.04f, 0.23f, 0.03f), 0.001f);
    ASSERT_GT(dense.triangles.size(), 50000u);
    SimplifyStats st;
    const MeshData m = simplifyMesh(dense, 1500, &st);
    EXPECT_LE(m.triangles.size(), 1500u);
    EXPECT_GE(m.triangles.size(), 1400u);
    EXPECT_GT(st.collapses, 0u);
    EXPECT_EQ(sim::checkClosedManifold(m.vertices, m.triangles), "");
    EXPECT_EQ(eulerCharacteristic(m), 2);
    const double v0 = sim::signedVolume(dense.vertices, dense.triangles), v1 = sim::signedVolume(m.vertices, m.triangles);
    EXPECT_GT(v1, 0.0);
    EXPECT_NEAR(v1 / v0, 1.0, 0.02);
    // Tolerance: every kept vertex within 1 mm of the true surface (the
    // worst at the crease where the ball meets the shaft), and the dense
    // surface within 0.6 mm of the decimated one.
    float worst = 0.0f;
    for (const glm::vec3& v : m.vertices) worst = std::max(worst, std::fabs(field(v)));
    EXPECT_LT(worst, 0.001f);
    float back = 0.0f;
    for (size_t i = 0; i < dense.vertices.size(); i += 97) back = std::max(back, pointTriangleDistance(dense.vertices[i], m));
    EXPECT_LT(back, 0.0006f);
}

TEST(MeshSimplify, Deterministic) {
    const BoneShapeInput in{"clavicle_r", {-0.04f, 1.44f, 0.02f}, {-0.18f, 1.475f, -0.02f}, 0.007f};
    const MeshData d1 = buildBoneMeshDense(in), d2 = buildBoneMeshDense(in);
    const MeshData m1 = simplifyMesh(d1, 500), m2 = simplifyMesh(d2, 500);
    ASSERT_EQ(m1.triangles, m2.triangles);
    ASSERT_EQ(m1.vertices.size(), m2.vertices.size());
    EXPECT_EQ(std::memcmp(m1.vertices.data(), m2.vertices.data(), m1.vertices.size() * sizeof(glm::vec3)), 0);
}

TEST(BoneShapes, KindsAndSides) {
    EXPECT_EQ(boneKind("humerus_r"), BoneKind::Humerus);
    EXPECT_EQ(boneKind("tibia_l"), BoneKind::Tibia);
    EXPECT_EQ(boneKind("torso"), BoneKind::Torso);
    EXPECT_EQ(boneKind("anchor_a"), BoneKind::Unknown);
    EXPECT_EQ(boneSide("hand_r", {1, 0, 0}), -1.0f);
    EXPECT_EQ(boneSide("hand_l", {-1, 0, 0}), 1.0f);
    EXPECT_TRUE(buildBoneMesh({"anchor_a", {0, 0, 0}, {0, 0.03f, 0}, 0.006f}).mesh.triangles.empty());
}

TEST(BoneShapes, EveryBoneIsAClosedOutwardManifoldOfItsTopology) {
    for (const char* file : {"t5-arm-flexion.glb", "t7-body-walk-run.glb"}) {
        const auto bones = sceneBones(file);
        size_t shaped = 0;
        for (const auto& [name, b] : bones) {
            const BoneKind kind = boneKind(name);
            if (kind == BoneKind::Unknown) continue;
            ++shaped;
            EXPECT_EQ(sim::checkClosedManifold(b.mesh.vertices, b.mesh.triangles), "") << file << " " << name;
            EXPECT_GT(sim::signedVolume(b.mesh.vertices, b.mesh.triangles), 0.0) << file << " " << name;
            const Topology t = expectedTopology(kind);
            EXPECT_EQ(components(b.mesh), t.components) << file << " " << name;
            EXPECT_EQ(eulerCharacteristic(b.mesh), t.euler) << file << " " << name;
        }
        EXPECT_EQ(shaped, std::string(file)[1] == '5' ? 6u : 22u) << file;
    }
}

TEST(BoneShapes, LongBoneShaftsRestOnTheirCapsules) {
    // Along the middle of each long bone (35–65 % of the capsule), the
    // surface near the axis lies within 1.5 mm of the capsule radius, all
    // around (8 sectors).
    for (const char* file : {"t5-arm-flexion.glb", "t7-body-walk-run.glb"}) {
        for (const auto& [name, b] : sceneBones(file)) {
            const BoneKind kind = boneKind(name);
            if (kind != BoneKind::Humerus && kind != BoneKind::Ulna && kind != BoneKind::Radius &&
                kind != BoneKind::Femur && kind != BoneKind::Tibia)
                continue;
            const glm::vec3 ax = b.b - b.a;
            const glm::vec3 d = glm::normalize(ax);
            const glm::vec3 e1 = glm::normalize(glm::cross(d, glm::vec3(0, 0, 1))), e2 = glm::cross(d, e1);
            std::set<int> sectors;
            float worst = 0.0f;
            for (const glm::vec3& v : b.mesh.vertices) {
                const float u = glm::dot(v - b.a, ax) / glm::dot(ax, ax);
                if (u < 0.35f || u > 0.65f) continue;
                const glm::vec3 radial = v - (b.a + u * ax);
                const float dist = glm::length(radial);
                if (dist > 1.8f * b.radius) continue;  // another piece (the fibula)
                worst = std::max(worst, std::fabs(dist - b.radius));
                sectors.insert(int(std::floor((std::atan2(glm::dot(radial, e2), glm::dot(radial, e1)) + 3.1415927f) / 0.7853982f)) % 8);
            }
            EXPECT_LE(worst, 0.0015f) << file << " " << name;
            EXPECT_EQ(sectors.size(), 8u) << file << " " << name;
        }
    }
}

TEST(BoneShapes, TriangleBudgets) {
    auto count = [](const std::map<std::string, SceneBone>& bones) {
        size_t n = 0;
        for (const auto& [name, b] : bones) {
            if (boneKind(name) == BoneKind::Unknown) continue;
            EXPECT_LE(b.mesh.triangles.size(), boneTriangleBudget(boneKind(name))) << name;
            n += b.mesh.triangles.size();
        }
        return n;
    };
    const size_t arm = count(sceneBones("t5-arm-flexion.glb"));
    EXPECT_GT(arm, 5000u);
    EXPECT_LE(arm, 15000u);
    const size_t body = count(sceneBones("t7-body-walk-run.glb"));
    EXPECT_GT(body, 20000u);
    EXPECT_LE(body, 60000u);
}

// Internal structure on small hand-made meshes (sim links no mesh builders;
// the builder meshes are covered in tests/engine/test_mesh_builders.cpp).
#include "sim/internal_structure.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "sim/mesh_topology.h"

namespace {

struct Mesh {
    std::vector<glm::vec3> v;
    std::vector<glm::uvec3> t;
    std::vector<uint32_t> origin, insertion;
};

// UV ellipsoid along +X: pole 0 at −a, rings, pole last at +a. Roots: pole + first ring.
Mesh uvOval(float a, float r, int rings, int seg, glm::vec3 offset = glm::vec3(0)) {
    Mesh m;
    const float pi = 3.14159265f;
    m.v.push_back(offset + glm::vec3(-a, 0, 0));
    for (int i = 1; i <= rings; ++i) {
        const float th = pi * static_cast<float>(i) / static_cast<float>(rings + 1);
        for (int j = 0; j < seg; ++j) {
            const float ph = 2 * pi * static_cast<float>(j) / static_cast<float>(seg);
            m.v.push_back(offset + glm::vec3(-a * std::cos(th), r * std::sin(th) * std::cos(ph),
                                             r * std::sin(th) * std::sin(ph)));
        }
    }
    m.v.push_back(offset + glm::vec3(a, 0, 0));
    const uint32_t last = static_cast<uint32_t>(m.v.size() - 1), S = static_cast<uint32_t>(seg);
    auto at = [&](int i, uint32_t j) { return 1 + static_cast<uint32_t>(i) * S + j % S; };
    for (uint32_t j = 0; j < S; ++j) m.t.push_back({0u, at(0, j + 1), at(0, j)});
    for (int i = 0; i + 1 < rings; ++i)
        for (uint32_t j = 0; j < S; ++j) {
            m.t.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
            m.t.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
        }
    for (uint32_t j = 0; j < S; ++j) m.t.push_back({last, at(rings - 1, j), at(rings - 1, j + 1)});
    m.origin.push_back(0);
    m.insertion.push_back(last);
    for (uint32_t j = 0; j < S; ++j) {
        m.origin.push_back(at(0, j));
        m.insertion.push_back(at(rings - 1, j));
    }
    return m;
}

TEST(InternalStructure, HandMadeMeshIsClosed) {
    const Mesh m = uvOval(0.1f, 0.03f, 24, 24);
    EXPECT_EQ(sim::checkClosedManifold(m.v, m.t), "");
}

TEST(InternalStructure, OvalAlongXHasOneChainAndAxialFibres) {
    const Mesh m = uvOval(0.1f, 0.03f, 24, 24);
    sim::InternalStructure s;
    ASSERT_EQ(sim::buildInternalStructure(m.v, m.t, {m.origin}, {m.insertion}, s), "");
    EXPECT_GE(s.levels, 4);
    ASSERT_EQ(s.vertex_branch.size(), m.v.size());
    ASSERT_EQ(s.vertex_fiber.size(), m.v.size());
    ASSERT_EQ(s.u.size(), m.v.size());
    // One branch point per used level: a single chain, links between consecutive ones.
    for (size_t b = 1; b < s.branch_level.size(); ++b) EXPECT_LT(s.branch_level[b - 1], s.branch_level[b]);
    EXPECT_EQ(s.medulla.size() + 1, s.branch_positions.size());
    for (uint32_t i : m.origin) EXPECT_EQ(s.u[i], 0.0f);
    for (uint32_t i : m.insertion) EXPECT_EQ(s.u[i], 1.0f);
    for (size_t b = 0; b < s.branch_positions.size(); ++b) {
        EXPECT_NEAR(s.branch_positions[b].y, 0.0f, 1e-4f);  // on the axis
        EXPECT_NEAR(s.branch_positions[b].z, 0.0f, 1e-4f);
        EXPECT_GT(std::abs(s.branch_tangent[b].x), 0.999f);
    }
    for (const glm::vec3& f : s.vertex_fiber) EXPECT_GT(std::abs(f.x), std::cos(glm::radians(10.0f)));
}

TEST(InternalStructure, RejectsBadRootSets) {
    const Mesh m = uvOval(0.1f, 0.03f, 12, 12);
    sim::InternalStructure s;
    EXPECT_NE(sim::buildInternalStructure(m.v, m.t, {}, {m.insertion}, s).find("no origin root set"),
              std::string::npos);
    EXPECT_NE(sim::buildInternalStructure(m.v, m.t, {m.origin}, {{}}, s).find("insertion root set 0 is empty"),
              std::string::npos);
    const std::string range = sim::buildInternalStructure(m.v, m.t, {m.origin, {5000}}, {m.insertion}, s);
    EXPECT_NE(range.find("origin root set 1 names vertex 5000"), std::string::npos) << range;
    const std::string both = sim::buildInternalStructure(m.v, m.t, {m.origin}, {m.insertion, {0}}, s);
    EXPECT_NE(both.find("both an origin and an insertion"), std::string::npos) << both;
    EXPECT_TRUE(s.vertex_branch.empty());  // nothing half-built is left behind
}

TEST(InternalStructure, RejectsUnreachableRoots) {
    // Two separate ovals, roots only on the first one.
    Mesh a = uvOval(0.1f, 0.03f, 12, 12);
    const Mesh b = uvOval(0.1f, 0.03f, 12, 12, {0, 0.5f, 0});
    const uint32_t base = static_cast<uint32_t>(a.v.size());
    a.v.insert(a.v.end(), b.v.begin(), b.v.end());
    for (glm::uvec3 t : b.t) a.t.push_back(t + base);
    sim::InternalStructure s;
    const std::string msg = sim::buildInternalStructure(a.v, a.t, {a.origin}, {a.insertion}, s);
    EXPECT_NE(msg.find("cannot reach"), std::string::npos) << msg;
    EXPECT_NE(msg.find("vertex " + std::to_string(base)), std::string::npos) << msg;
}

TEST(InternalStructure, IsDeterministic) {
    const Mesh m = uvOval(0.1f, 0.03f, 20, 16);
    sim::InternalStructure s1, s2;
    ASSERT_EQ(sim::buildInternalStructure(m.v, m.t, {m.origin}, {m.insertion}, s1), "");
    ASSERT_EQ(sim::buildInternalStructure(m.v, m.t, {m.origin}, {m.insertion}, s2), "");
    EXPECT_EQ(s1.levels, s2.levels);
    EXPECT_EQ(s1.vertex_branch, s2.vertex_branch);
    EXPECT_EQ(s1.medulla, s2.medulla);
    ASSERT_EQ(s1.branch_positions.size(), s2.branch_positions.size());
    EXPECT_EQ(0, std::memcmp(s1.branch_positions.data(), s2.branch_positions.data(),
                             s1.branch_positions.size() * sizeof(glm::vec3)));
    EXPECT_EQ(0, std::memcmp(s1.vertex_fiber.data(), s2.vertex_fiber.data(), s1.vertex_fiber.size() * sizeof(glm::vec3)));
}

}  // namespace

#include "sim/mesh_topology.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using Verts = std::vector<glm::vec3>;
using Tris = std::vector<glm::uvec3>;

// Unit cube [0,1]³, 12 outward (CCW) triangles.
void unitCube(Verts& v, Tris& t) {
    v = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
    t = {{0, 2, 1}, {0, 3, 2},  // z = 0, normal −z
         {4, 5, 6}, {4, 6, 7},  // z = 1
         {0, 1, 5}, {0, 5, 4},  // y = 0
         {3, 7, 6}, {3, 6, 2},  // y = 1
         {0, 4, 7}, {0, 7, 3},  // x = 0
         {1, 2, 6}, {1, 6, 5}};  // x = 1
}

// Tetrahedron with vertices o, o+x, o+y, o+z.
void tetra(glm::vec3 o, uint32_t base, Verts& v, Tris& t) {
    v.insert(v.end(), {o, o + glm::vec3(1, 0, 0), o + glm::vec3(0, 1, 0), o + glm::vec3(0, 0, 1)});
    t.push_back({base + 0, base + 2, base + 1});
    t.push_back({base + 0, base + 1, base + 3});
    t.push_back({base + 0, base + 3, base + 2});
    t.push_back({base + 1, base + 2, base + 3});
}

TEST(MeshTopology, UniqueEdgesAreSortedAndDeduplicated) {
    Verts v;
    Tris t;
    tetra({0, 0, 0}, 0, v, t);
    const auto e = sim::uniqueEdges(t);
    const std::vector<std::pair<uint32_t, uint32_t>> expected = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    EXPECT_EQ(e, expected);
}

TEST(MeshTopology, AdjacencyIsSymmetricAndSorted) {
    Verts v;
    Tris t;
    unitCube(v, t);
    const auto e = sim::uniqueEdges(t);
    EXPECT_EQ(e.size(), 18u);  // Euler: V − E + F = 8 − 18 + 12 = 2
    const sim::Adjacency adj = sim::vertexAdjacency(v.size(), e);
    ASSERT_EQ(adj.offset.size(), v.size() + 1);
    EXPECT_EQ(adj.index.size(), 36u);
    for (uint32_t a = 0; a < v.size(); ++a) {
        for (uint32_t k = adj.offset[a]; k < adj.offset[a + 1]; ++k) {
            if (k + 1 < adj.offset[a + 1]) {
                EXPECT_LT(adj.index[k], adj.index[k + 1]);
            }
            const uint32_t b = adj.index[k];
            bool back = false;
            for (uint32_t m = adj.offset[b]; m < adj.offset[b + 1]; ++m) back |= adj.index[m] == a;
            EXPECT_TRUE(back) << a << "-" << b;
        }
    }
    EXPECT_EQ(adj.degree(0), 6u);  // corner 0 touches 3 cube edges + 3 face diagonals (0-2, 0-5, 0-7)
}

TEST(MeshTopology, SignedVolumeOfCubeAndTetra) {
    Verts v;
    Tris t;
    unitCube(v, t);
    EXPECT_NEAR(sim::signedVolume(v, t), 1.0, 1e-12);
    for (glm::vec3& p : v) p += glm::vec3(3, -2, 5);  // translation invariant for a closed mesh
    EXPECT_NEAR(sim::signedVolume(v, t), 1.0, 1e-6);
    Verts tv;
    Tris tt;
    tetra({0, 0, 0}, 0, tv, tt);
    EXPECT_NEAR(sim::signedVolume(tv, tt), 1.0 / 6.0, 1e-12);
}

TEST(MeshTopology, ClosedCubePasses) {
    Verts v;
    Tris t;
    unitCube(v, t);
    EXPECT_EQ(sim::checkClosedManifold(v, t), "");
}

TEST(MeshTopology, RefusesOpenMesh) {
    Verts v;
    Tris t;
    unitCube(v, t);
    t.erase(t.begin() + 4);  // (0,1,5) gone: edges (0,1), (1,5), (0,5) lose a side
    const std::string msg = sim::checkClosedManifold(v, t);
    EXPECT_NE(msg.find("edge (0,1) is used by only 1 triangle"), std::string::npos) << msg;
}

TEST(MeshTopology, RefusesFlippedTriangle) {
    Verts v;
    Tris t;
    unitCube(v, t);
    std::swap(t[2].y, t[2].z);  // (4,6,5): inward
    const std::string msg = sim::checkClosedManifold(v, t);
    EXPECT_NE(msg.find("same direction"), std::string::npos) << msg;
    EXPECT_NE(msg.find("edge (4,5)"), std::string::npos) << msg;
}

TEST(MeshTopology, RefusesNonManifoldEdge) {
    // Two tetrahedra glued along edge (0,1) only: that edge has 4 triangles.
    Verts v;
    Tris t;
    tetra({0, 0, 0}, 0, v, t);
    v.push_back({0, -1, 0});
    v.push_back({0, 0, -1});
    // Tetrahedron (0, 1, 4, 5) is positively oriented like (0, 1, 2, 3).
    t.push_back({0, 4, 1});
    t.push_back({0, 1, 5});
    t.push_back({0, 5, 4});
    t.push_back({1, 4, 5});
    const std::string msg = sim::checkClosedManifold(v, t);
    EXPECT_NE(msg.find("edge (0,1) is used by 4 triangles"), std::string::npos) << msg;
}

TEST(MeshTopology, RefusesInvertedMesh) {
    Verts v;
    Tris t;
    unitCube(v, t);
    for (glm::uvec3& f : t) std::swap(f.y, f.z);  // consistent but inside-out
    const std::string msg = sim::checkClosedManifold(v, t);
    EXPECT_NE(msg.find("signed volume"), std::string::npos) << msg;
}

TEST(MeshTopology, RefusesBadIndexAndDegenerateTriangle) {
    Verts v;
    Tris t;
    unitCube(v, t);
    Tris bad = t;
    bad[3].z = 99;
    EXPECT_NE(sim::checkClosedManifold(v, bad).find("vertex 99"), std::string::npos);
    Verts flat = v;
    flat[6] = flat[5];  // triangles (4,5,6) and (1,6,5) collapse
    const std::string msg = sim::checkClosedManifold(flat, t);
    EXPECT_NE(msg.find("degenerate"), std::string::npos) << msg;
    EXPECT_NE(sim::checkClosedManifold({}, {}), "");
}

TEST(MeshTopology, TwoSeparateClosedPiecesPass) {
    Verts v;
    Tris t;
    tetra({0, 0, 0}, 0, v, t);
    tetra({5, 0, 0}, 4, v, t);
    EXPECT_EQ(sim::checkClosedManifold(v, t), "");
    EXPECT_NEAR(sim::signedVolume(v, t), 2.0 / 6.0, 1e-9);
}

}  // namespace

namespace {

// A muscle must be one closed surface: two separate pieces pass
// checkClosedManifold (a bone may have several) but not checkOneClosedSurface;
// two pieces touching at one vertex (a bow-tie) pass neither.
TEST(MeshTopology, AMuscleSurfaceIsOnePieceWithoutBowTies) {
    Verts v;
    Tris t;
    tetra({0, 0, 0}, 0, v, t);
    EXPECT_EQ(sim::checkOneClosedSurface(v, t), "");
    tetra({5, 0, 0}, 4, v, t);
    EXPECT_NE(sim::checkOneClosedSurface(v, t).find("2 separate closed parts"), std::string::npos);
    // The second tetrahedron's first corner moved onto the first's vertex 1.
    Verts w;
    Tris u;
    tetra({0, 0, 0}, 0, w, u);
    tetra({1, 0, 0}, 4, w, u);
    for (auto& tri : u)
        for (int k = 0; k < 3; ++k)
            if (tri[k] == 4) tri[k] = 1;
    w.erase(w.begin() + 4);
    for (auto& tri : u)
        for (int k = 0; k < 3; ++k)
            if (tri[k] > 4) --tri[k];
    EXPECT_NE(sim::checkClosedManifold(w, u).find("vertex 1 joins two separate fans"), std::string::npos)
        << sim::checkClosedManifold(w, u);
}

}  // namespace

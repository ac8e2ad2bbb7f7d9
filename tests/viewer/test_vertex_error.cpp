// The error heat map shows the XPBD residual |C + α̃·λ| / L of the distance
// constraints at each vertex (L: the bind-pose edge length).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "app/run/scene_driver.h"
#include "app/viewer/vertex_error.h"

namespace {

// T1 activated at 0.5 for 3 s with `iterations` per substep; its heat map.
std::vector<float> settledMap(int iterations, app::SceneDriver& d) {
    EXPECT_EQ(d.load("builtin:t1"), "");
    sim::SolverParams p;
    p.threads = 1;
    p.iterations = iterations;
    EXPECT_EQ(d.setParams(p), "");
    d.setActivationSource({app::ActivationSource::Kind::Constant, 0.5f});
    for (int f = 0; f < 90; ++f) EXPECT_TRUE(d.step().ok);
    std::vector<float> e;
    app::viewer::computeVertexError(d.sim().world(), e);
    EXPECT_EQ(e.size(), d.sim().world().particles.size());
    return e;
}

float median(std::vector<float> v) {
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// The soft internal structure is stretched by design but balanced: its
// branch points read near 0 (measured as plain strain |C| / σ̂ they lit the
// whole map, median 0.66). The map cools with more iterations.
TEST(VertexError, BalancedSoftConstraintsReadLowAndTheMapCoolsWithIterations) {
    app::SceneDriver d10, d1;
    const std::vector<float> e10 = settledMap(10, d10);
    const sim::Muscle& m = d10.sim().world().muscles[0];
    ASSERT_GT(m.branch_count, 0u);
    const std::vector<float> branch(e10.begin() + long(m.first + m.surface_count), e10.begin() + long(m.particleEnd()));
    EXPECT_LT(median(branch), 0.05f);
    const std::vector<float> e1 = settledMap(1, d1);
    const double mean10 = std::accumulate(e10.begin(), e10.end(), 0.0) / double(e10.size());
    const double mean1 = std::accumulate(e1.begin(), e1.end(), 0.0) / double(e1.size());
    EXPECT_GT(mean1, 2.0 * mean10);
}

// An edge stretched by hand by half its rest length lights up its two vertices.
TEST(VertexError, AStretchedEdgeLightsUpItsVertices) {
    app::SceneDriver d;
    settledMap(10, d);
    sim::World& w = d.sim().mutableWorld();
    const sim::DistanceConstraint c = w.distances.c[0];  // a surface edge (fibre family first)
    const glm::vec3 mid = 0.5f * (w.particles.x[c.i] + w.particles.x[c.j]);
    const glm::vec3 dir = glm::normalize(w.particles.x[c.j] - w.particles.x[c.i]);
    w.particles.x[c.i] = mid - dir * (0.75f * c.rest);
    w.particles.x[c.j] = mid + dir * (0.75f * c.rest);
    std::vector<float> e;
    app::viewer::computeVertexError(w, e);
    const float bind = glm::length(w.particles.rest[c.i] - w.particles.rest[c.j]);
    EXPECT_GT(e[c.i], 0.4f * c.rest / bind);
    EXPECT_GT(e[c.j], 0.4f * c.rest / bind);
}

}  // namespace

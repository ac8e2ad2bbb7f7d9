// docs/model.md §3.1: the two forms of the activated rest length σ̂.
#include <cmath>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "sim/fiber_rest_length.h"

namespace {

TEST(FiberRestLength, PaperFormContractsAxisAlignedEdgeByA) {
    glm::vec3 e(0.01f, 0.0f, 0.0f);
    glm::vec3 f(1.0f, 0.0f, 0.0f);
    glm::vec3 phi = sim::fiberPhi(f, f);
    EXPECT_NEAR(sim::paperRestLength(e, phi, 0.0f, 0.5f), 0.005f, 1e-7f);
    EXPECT_NEAR(sim::paperRestLength(e, phi, 0.0f, 0.0f), 0.01f, 1e-7f);
}

TEST(FiberRestLength, PaperFormDependsOnTheAxis) {
    // An edge along (1,1,0)/√2 with fibres along it contracts by 1 − 0.71·a,
    // not 1 − a (the seed formula works per world axis).
    const float a = 0.5f;
    glm::vec3 f = glm::normalize(glm::vec3(1.0f, 1.0f, 0.0f));
    glm::vec3 e = 0.01f * f;
    glm::vec3 phi = sim::fiberPhi(f, f);
    float ratio = sim::paperRestLength(e, phi, 0.0f, a) / 0.01f;
    EXPECT_NEAR(ratio, 1.0f - std::sqrt(0.5f) * a, 1e-5f);
    EXPECT_GT(ratio, 1.0f - a + 0.1f);  // clearly less contraction than along an axis
}

TEST(FiberRestLength, ProjectedFormContractsAlignedEdgesByExactlyAAtAnyOrientation) {
    const glm::vec3 dirs[] = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 1, 1}, {-0.3f, 0.2f, 0.9f}};
    for (float a : {0.1f, 0.5f, 0.9f})
        for (glm::vec3 d : dirs) {
            glm::vec3 f = glm::normalize(d);
            glm::vec3 e = 0.02f * f;
            EXPECT_NEAR(sim::projectedRestLength(e, f, 0.0f, a), 0.02f * (1.0f - a), 1e-6f) << a;
        }
}

TEST(FiberRestLength, ProjectedFormKeepsEdgesAcrossTheFibres) {
    glm::vec3 f = glm::normalize(glm::vec3(1, 2, 3));
    glm::vec3 across = glm::normalize(glm::cross(f, glm::vec3(0, 0, 1))) * 0.01f;
    EXPECT_NEAR(sim::projectedRestLength(across, f, 0.0f, 0.8f), 0.01f, 1e-7f);
}

TEST(FiberRestLength, InitialActivationIsTheRestState) {
    // At a = a0 both forms give back the bind-pose length.
    glm::vec3 f = glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f));
    glm::vec3 e(0.004f, 0.01f, 0.002f);
    glm::vec3 phi = sim::fiberPhi(f, f);
    for (float a0 : {0.0f, 0.2f, 0.6f}) {
        EXPECT_NEAR(sim::paperRestLength(e, phi, a0, a0), glm::length(e), 1e-6f);
        EXPECT_NEAR(sim::projectedRestLength(e, f, a0, a0), glm::length(e), 1e-6f);
    }
}

TEST(FiberRestLength, OppositeFibreDirectionsAreTheSameFibre) {
    glm::vec3 f(0, 1, 0);
    EXPECT_NEAR(glm::length(sim::edgeFiberDirection(f, -f) - f), 0.0f, 1e-7f);
}

}  // namespace

// XPBD kernels (docs/model.md §3): a single distance constraint and a unilateral one.
#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include "sim/constraint_kernels.h"

namespace {

TEST(ConstraintKernels, HardDistanceIsSatisfiedInOneProjection) {
    glm::vec3 a(0, 0, 0), b(0.03f, 0, 0);
    glm::vec3 n;
    float dl = sim::distanceDelta(a, b, 1.0f, 1.0f, 0.02f, 0.0f, 1.0f, 0.0f, n);
    a += dl * n;
    b -= dl * n;
    EXPECT_NEAR(glm::length(a - b), 0.02f, 1e-7f);
    EXPECT_NEAR(a.x, 0.005f, 1e-7f);  // equal masses share the correction: a moves toward b
}

TEST(ConstraintKernels, CompliantDistanceMovesPartway) {
    glm::vec3 a(0, 0, 0), b(0.03f, 0, 0);
    glm::vec3 n;
    float dl = sim::distanceDelta(a, b, 1.0f, 1.0f, 0.02f, 2.0f, 1.0f, 0.0f, n);
    // Δλ = −C / (w1 + w2 + α̃) = −0.01 / 4
    EXPECT_NEAR(dl, -0.0025f, 1e-8f);
}

TEST(ConstraintKernels, KinematicParticleDoesNotMove) {
    glm::vec3 a(0, 0, 0), b(0.03f, 0, 0);
    glm::vec3 n;
    float dl = sim::distanceDelta(a, b, 0.0f, 1.0f, 0.02f, 0.0f, 1.0f, 0.0f, n);
    b -= 1.0f * dl * n;
    EXPECT_NEAR(b.x, 0.02f, 1e-7f);
}

TEST(ConstraintKernels, UnilateralOnlyPushes) {
    EXPECT_EQ(sim::unilateralDelta(0.01f, 1.0f, 0.0f, 1.0f, 0.0f), 0.0f);   // satisfied: nothing
    EXPECT_NEAR(sim::unilateralDelta(-0.01f, 1.0f, 0.0f, 1.0f, 0.0f), 0.01f, 1e-8f);  // violated: push out
    // A satisfied constraint holding λ releases it, but never pulls.
    EXPECT_NEAR(sim::unilateralDelta(0.05f, 1.0f, 0.0f, 1.0f, 0.02f), -0.02f, 1e-8f);
}

TEST(ConstraintKernels, PbdScaleIsAFractionOfTheCorrection) {
    float dl = sim::equalityDelta(-0.1f, 2.0f, 0.0f, 0.25f, 0.0f);
    EXPECT_NEAR(dl, 0.0125f, 1e-8f);
}

}  // namespace

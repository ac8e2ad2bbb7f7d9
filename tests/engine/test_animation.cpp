// Animation sampling against hand-computed values (glTF 2.0 Appendix C).
#include <cmath>

#include <gtest/gtest.h>

#include "engine/scene/animation.h"
#include "engine/scene/scene.h"
#include "engine/scene/sensors.h"

using namespace engine;

namespace {

AnimationChannel channel(ChannelPath path, Interpolation in, std::vector<float> t, std::vector<glm::vec4> v) {
    AnimationChannel c;
    c.joint = 0;
    c.path = path;
    c.interpolation = in;
    c.times = std::move(t);
    c.values = std::move(v);
    return c;
}

void expectVec(glm::vec4 a, glm::vec4 b, float tol = 1e-6f) {
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], tol) << "component " << i;
}

glm::vec4 axisAngle(glm::vec3 axis, float angle) {
    axis = glm::normalize(axis);
    return glm::vec4(axis * std::sin(angle / 2), std::cos(angle / 2));
}

}  // namespace

TEST(Animation, LinearTranslationAtKeysBetweenAndOutside) {
    auto c = channel(ChannelPath::Translation, Interpolation::Linear, {1.0f, 3.0f},
                     {glm::vec4(0, 0, 0, 0), glm::vec4(2, 4, 6, 0)});
    expectVec(sampleChannel(c, -5.0), {0, 0, 0, 0});  // before the first key
    expectVec(sampleChannel(c, 1.0), {0, 0, 0, 0});
    expectVec(sampleChannel(c, 2.0), {1, 2, 3, 0});
    expectVec(sampleChannel(c, 2.5), {1.5f, 3, 4.5f, 0});
    expectVec(sampleChannel(c, 3.0), {2, 4, 6, 0});
    expectVec(sampleChannel(c, 10.0), {2, 4, 6, 0});  // after the last key
}

TEST(Animation, StepHoldsTheValueUntilTheNextKey) {
    auto c = channel(ChannelPath::Scale, Interpolation::Step, {0.0f, 1.0f, 2.0f},
                     {glm::vec4(1, 1, 1, 0), glm::vec4(2, 2, 2, 0), glm::vec4(3, 3, 3, 0)});
    expectVec(sampleChannel(c, -1.0), {1, 1, 1, 0});
    expectVec(sampleChannel(c, 0.99), {1, 1, 1, 0});
    expectVec(sampleChannel(c, 1.0), {2, 2, 2, 0});
    expectVec(sampleChannel(c, 1.5), {2, 2, 2, 0});
    expectVec(sampleChannel(c, 2.0), {3, 3, 3, 0});
    expectVec(sampleChannel(c, 7.0), {3, 3, 3, 0});
}

TEST(Animation, CubicSplineUsesInValueOutWithTangentsScaledByTheInterval) {
    // Two keys 2 s apart: p0 = 0, out-tangent 1; p1 = 1, in-tangent −1.
    // The Hermite tangents are m0 = 2·1, m1 = 2·(−1) (scaled by t1 − t0).
    auto c = channel(ChannelPath::Translation, Interpolation::CubicSpline, {0.0f, 2.0f},
                     {glm::vec4(9), glm::vec4(0), glm::vec4(1, 0, 0, 0),     // key 0: in, value, out
                      glm::vec4(-1, 0, 0, 0), glm::vec4(1, 0, 0, 0), glm::vec4(9)});  // key 1
    EXPECT_NEAR(sampleChannel(c, -1.0).x, 0.0f, 1e-6f);
    EXPECT_NEAR(sampleChannel(c, 0.0).x, 0.0f, 1e-6f);
    // s = 0.5: h00 = .5, h10 = .125, h01 = .5, h11 = −.125 → .125·2 + .5 + (−.125)(−2) = 1
    EXPECT_NEAR(sampleChannel(c, 1.0).x, 1.0f, 1e-6f);
    // s = 0.25: .140625·2 + .15625·1 + (−.046875)(−2) = 0.53125
    EXPECT_NEAR(sampleChannel(c, 0.5).x, 0.53125f, 1e-6f);
    EXPECT_NEAR(sampleChannel(c, 2.0).x, 1.0f, 1e-6f);
    EXPECT_NEAR(sampleChannel(c, 5.0).x, 1.0f, 1e-6f);
}

TEST(Animation, CubicSplineIndexesTheRightKeysInLaterIntervals) {
    // Keys at 0, 1, 3 with values 0, 1, 3; interval [1, 3] uses out-tangent of
    // key 1 (2) and in-tangent of key 2 (0): s = .5 → .5·1 + .125·(2·2) + .5·3 = 2.5
    auto c = channel(ChannelPath::Translation, Interpolation::CubicSpline, {0.0f, 1.0f, 3.0f},
                     {glm::vec4(0), glm::vec4(0), glm::vec4(0), glm::vec4(0), glm::vec4(1, 0, 0, 0),
                      glm::vec4(2, 0, 0, 0), glm::vec4(0), glm::vec4(3, 0, 0, 0), glm::vec4(0)});
    EXPECT_NEAR(sampleChannel(c, 2.0).x, 2.5f, 1e-6f);
    EXPECT_NEAR(sampleChannel(c, 1.0).x, 1.0f, 1e-6f);
    EXPECT_NEAR(sampleChannel(c, 3.0).x, 3.0f, 1e-6f);
}

TEST(Animation, LinearRotationSlerps) {
    auto c = channel(ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.0f},
                     {glm::vec4(0, 0, 0, 1), axisAngle({1, 0, 0}, float(M_PI / 2))});
    expectVec(sampleChannel(c, 0.25), axisAngle({1, 0, 0}, float(M_PI / 8)), 1e-5f);
    expectVec(sampleChannel(c, 0.5), axisAngle({1, 0, 0}, float(M_PI / 4)), 1e-5f);
}

TEST(Animation, SlerpTakesTheShortPath) {
    // The second key is −q(90° about z): the same rotation, opposite hemisphere.
    glm::vec4 q90 = axisAngle({0, 0, 1}, float(M_PI / 2));
    auto c = channel(ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.0f}, {glm::vec4(0, 0, 0, 1), -q90});
    glm::vec4 q = sampleChannel(c, 0.5);
    glm::quat g(q.w, q.x, q.y, q.z);
    glm::vec3 x = g * glm::vec3(1, 0, 0);
    EXPECT_NEAR(x.x, std::cos(M_PI / 4), 1e-5);  // 45°, not 135°
    EXPECT_NEAR(x.y, std::sin(M_PI / 4), 1e-5);
    EXPECT_NEAR(glm::length(glm::vec4(q)), 1.0f, 1e-6f);
}

TEST(Animation, DurationIsTheLastKeyOverAllChannels) {
    Animation a;
    a.channels.push_back(channel(ChannelPath::Translation, Interpolation::Linear, {0.0f, 2.0f}, {glm::vec4(0), glm::vec4(1)}));
    a.channels.push_back(channel(ChannelPath::Scale, Interpolation::Step, {0.5f, 3.5f}, {glm::vec4(1), glm::vec4(2)}));
    EXPECT_DOUBLE_EQ(a.duration(), 3.5);
    Scene s;
    s.animations.push_back(a);
    EXPECT_DOUBLE_EQ(s.duration(0), 3.5);
    EXPECT_DOUBLE_EQ(s.duration(1), 0.0);
    EXPECT_NEAR(s.loopTime(0, 4.0), 0.5, 1e-12);
    EXPECT_NEAR(s.loopTime(0, -1.0), 2.5, 1e-12);
}

TEST(Skeleton, GlobalsComposeParentsFirst) {
    Skeleton sk;
    Joint a;
    a.name = "a";
    a.translation = {1, 0, 0};
    a.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    sk.joints.push_back(a);
    Joint b;
    b.name = "b";
    b.parent = 0;
    b.translation = {0, 2, 0};
    sk.joints.push_back(b);
    std::vector<glm::mat4> g;
    sk.globals(sk.restLocals(), g);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_NEAR(g[1][3].x, 1.0f, 1e-6f);
    EXPECT_NEAR(g[1][3].y, 2.0f, 1e-6f);
    EXPECT_EQ(sk.find("b"), 1);
    EXPECT_EQ(sk.find("zz"), -1);
}

TEST(Sensors, TwistAngleAndStatelessEvaluation) {
    glm::quat rest(1, 0, 0, 0);
    glm::quat r = glm::angleAxis(0.8f, glm::vec3(1, 0, 0));
    EXPECT_NEAR(twistAngle(rest, r, {1, 0, 0}), 0.8f, 1e-5f);
    EXPECT_NEAR(twistAngle(rest, r, {-1, 0, 0}), -0.8f, 1e-5f);
    EXPECT_NEAR(twistAngle(rest, r, {0, 1, 0}), 0.0f, 1e-5f);

    // A joint whose angle is 2·t rad: angle gain 0.5 past 0.2 rad plus a
    // velocity gain of 0.1 per rad/s.
    Scene s;
    Joint j;
    j.name = "elbow";
    s.skeleton.joints.push_back(j);
    Animation an;
    an.channels.push_back(channel(ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.0f},
                                  {glm::vec4(0, 0, 0, 1), axisAngle({1, 0, 0}, 2.0f)}));
    s.animations.push_back(an);
    MuscleSensors ms;
    Sensor sn;
    sn.joint = 0;
    sn.axis = {1, 0, 0};
    sn.angle_offset = 0.2f;
    sn.angle_gain = 0.5f;
    sn.velocity_gain = 0.1f;
    ms.sensors.push_back(sn);
    s.sensors.push_back(ms);
    EXPECT_TRUE(s.hasSensors());
    auto a = s.sensorActivation(0, 0, 0.5);  // angle 1.0, velocity 2.0
    ASSERT_TRUE(a.has_value());
    EXPECT_NEAR(*a, 0.5f * 0.8f + 0.1f * 2.0f, 1e-3f);
    // Same value when evaluated again (stateless: scrubbing works).
    EXPECT_EQ(*a, *s.sensorActivation(0, 0, 0.5));
    EXPECT_FLOAT_EQ(*s.sensorActivation(0, 0, 0.99), 1.0f);  // 0.5·1.78 + 0.2 clamped
    EXPECT_FALSE(s.sensorActivation(1, 0, 0.5).has_value());
}

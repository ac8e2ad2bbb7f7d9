// The motions (motions.h).
#include "engine/anatomy/motions.h"

#include "engine/anatomy/knee_track.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace engine::generator {

namespace {

double smooth(double x) {
    x = std::clamp(x, 0.0, 1.0);
    return x * x * (3.0 - 2.0 * x);
}

struct ArmPose {
    double flex, abd, elbow;  // degrees
};

}  // namespace

void elbowFlexion(SceneSpec& sc, const std::string& name, double period) {
    AnimSpec a{name, period, 10.0, {}};
    a.channels.push_back({sc.find("ulna_r"), [period](double t) {
                              return axisAngle({-1, 0, 0}, deg(130.0) * 0.5 * (1.0 - std::cos(2 * kPi * t / period)));
                          }});
    sc.animations.push_back(a);
}


void fighting(SceneSpec& sc) {
    // Guard, then jabs, crosses, hooks and uppercuts: each strike reaches out
    // in ~0.15 s and returns in ~0.2 s.
    const ArmPose guard{35, 15, 130}, jab{88, 10, 20}, hook{45, 80, 90}, upper{70, 5, 100}, low{10, 5, 140};
    struct Key {
        double t;
        ArmPose p;
    };
    std::vector<Key> keys = {{0.0, {0, 0, 0}}, {0.8, guard}};
    double t = 1.2;
    // Eleven strikes leave 0.8 s, as long as the opening rise to the guard,
    // to lower the arm back to the rest pose, so the loop has no snap.
    const ArmPose seq[] = {jab, jab, hook, upper, jab, hook, low, jab, upper, jab, hook};
    for (const ArmPose& p : seq) {
        keys.push_back({t, guard});
        keys.push_back({t + 0.15, p});
        keys.push_back({t + 0.22, p});
        keys.push_back({t + 0.42, guard});
        t += 0.7;
    }
    keys.push_back({t + 0.3, guard});
    keys.push_back({10.0, {0, 0, 0}});
    auto pose = [keys](double time) {
        size_t k = 0;
        while (k + 2 < keys.size() && keys[k + 1].t <= time) ++k;
        double s = smooth((time - keys[k].t) / std::max(1e-9, keys[k + 1].t - keys[k].t));
        const ArmPose &a = keys[k].p, &b = keys[k + 1].p;
        return ArmPose{a.flex + (b.flex - a.flex) * s, a.abd + (b.abd - a.abd) * s, a.elbow + (b.elbow - a.elbow) * s};
    };
    AnimSpec an{"fighting", 10.0, 30.0, {}};
    an.channels.push_back({sc.find("humerus_r"), [pose](double time) {
                               ArmPose p = pose(time);
                               return axisAngle({-1, 0, 0}, deg(p.flex)) * axisAngle({0, 0, -1}, deg(p.abd));
                           }});
    an.channels.push_back({sc.find("ulna_r"), [pose](double time) { return axisAngle({-1, 0, 0}, deg(pose(time).elbow)); }});
    sc.animations.push_back(an);
}

void walkRun(SceneSpec& sc) {
    const double dur = 8.0, fps = 30.0;
    // Gait phase: 1 stride/s walking, 1.4 strides/s running. Walk to 3 s,
    // speed up to a run over 3–4 s, run, slow down over 5.5–6.5 s, walk to
    // the end: the loop closes on the pose it starts from (running 1.5 s
    // makes the whole loop 8 + 0.4·2.5 = 9 strides), so looping does not
    // snap from a run back to a walk.
    auto intSmooth = [](double x) {  // ∫₀ˣ smoothstep
        if (x <= 0.0) return 0.0;
        return x < 1.0 ? x * x * x - 0.5 * x * x * x * x : 0.5 + (x - 1.0);
    };
    auto w = [](double t) { return smooth(t - 3.0) - smooth(t - 5.5); };
    auto phase = [intSmooth](double t) {
        // ∫ (1 + 0.4 w) dt in closed form.
        return 2.0 * kPi * (t + 0.4 * (intSmooth(t - 3.0) - intSmooth(t - 5.5)));
    };
    auto lerp = [](double a, double b, double s) { return a + (b - a) * s; };
    AnimSpec an{"walk_run", dur, fps, {}};
    an.grounded = true;  // the lowest foot on the floor (grounding.h)
    for (int side = 0; side < 2; ++side) {
        const std::string u = side ? "_l" : "_r";
        const double off = side ? kPi : 0.0;
        an.channels.push_back({sc.find("femur" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off;
                                   double mid = lerp(10, 15, s), amp = lerp(20, 30, s);
                                   return axisAngle({-1, 0, 0}, deg(mid + amp * std::sin(ph)));
                               }});
        auto knee = [=](double t) {  // flexion, radians
            double s = w(t), ph = phase(t) + off;
            double kmax = lerp(60, 100, s);
            double k = 0.5 * (1.0 - std::cos(ph - 0.6 * kPi));
            return double(deg(5 + (kmax - 5) * k * k));
        };
        an.channels.push_back({sc.find("tibia" + u), [=](double t) { return axisAngle({1, 0, 0}, knee(t)); }});
        // The kneecap glides in the femur's groove (knee_track.h).
        const Bone femur = sc.bones[size_t(sc.find("femur" + u))];
        an.channels.push_back({sc.find("patella" + u), [=](double t) { return patellaRotation(knee(t)); },
                               [=](double t) { return patellaCentre(femur, knee(t)) - femur.head; }});
        an.channels.push_back({sc.find("foot" + u), [=](double t) {
                                   double ph = phase(t) + off;
                                   return axisAngle({-1, 0, 0}, deg(15 * std::sin(ph + 0.5 * kPi)));
                               }});
        // The arms swing opposite the legs, held a little away from the
        // body (abducted 10° walking, 16° running) so the hands pass beside
        // the hips and, with the elbow bent in the run, in front of the
        // ribs' side, never across the trunk.
        const float abduct_axis = side ? 1.0f : -1.0f;  // +Z lifts the left arm outward, −Z the right
        an.channels.push_back({sc.find("humerus" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off + kPi;  // opposite the leg
                                   return axisAngle({-1, 0, 0}, deg(lerp(15, 30, s) * std::sin(ph))) *
                                          axisAngle({0, 0, abduct_axis}, deg(lerp(10, 16, s)));
                               }});
        an.channels.push_back({sc.find("ulna" + u), [=](double t) {
                                   double s = w(t), ph = phase(t) + off + kPi;
                                   return axisAngle({-1, 0, 0}, deg(lerp(20 + 10 * std::sin(ph), 90, s)));
                               }});
    }
    sc.animations.push_back(an);
}

}  // namespace engine::generator

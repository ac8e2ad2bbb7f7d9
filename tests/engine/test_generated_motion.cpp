// The generated motions as a presenter shows them (docs/anatomy.md
// "Grounded motion"): the committed scene's animation sampled at every
// frame and its drawn meshes posed by the loader's skinning (an
// implementation of glTF skinning independent of the generator's).
#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "engine/load_scene.h"
#include "engine/scene/scene.h"
#include "sim/scene_desc.h"
#include "sim/geometry.h"
#include "sim/skew_ray_grid.h"

using namespace engine;

namespace {

// The lowest drawn point of the left (x > 0) and right (x < 0) half of the
// figure at time t: its feet, since the hands never reach lower.
struct Lowest {
    float left = std::numeric_limits<float>::max(), right = std::numeric_limits<float>::max();
};

// The skinned, opaque mesh the generated scenes draw their bones with, and
// the indices of its vertices that follow one joint.
const RenderMesh* skeletonMesh(const Scene& s) {
    const RenderMesh* skeleton = nullptr;
    for (const RenderMesh& m : s.meshes)
        if (m.skinned() && !m.blend) skeleton = &m;
    return skeleton;
}

std::vector<size_t> verticesOf(const RenderMesh& mesh, int joint) {
    std::vector<size_t> out;
    for (size_t v = 0; v < mesh.positions.size(); ++v)
        if (mesh.skin_joint_map[mesh.skin_joints[v][0]] == joint) out.push_back(v);
    return out;
}

Lowest lowestPoints(const Scene& s, int animation, double t) {
    std::vector<glm::mat4> globals;
    s.skeleton.globals(s.localPoses(animation, t), globals);
    Lowest out;
    for (const RenderMesh& m : s.meshes)
        for (const glm::vec3& p : posedPositions(m, globals))
            (p.x > 0.0f ? out.left : out.right) = std::min(p.x > 0.0f ? out.left : out.right, p.y);
    return out;
}

}  // namespace

// T7 walks and runs on its floor: in every frame the lower foot (stance)
// touches the plane within ±1 cm, neither foot sinks through it, and each
// foot swings clear of it in its swing phase.
TEST(GeneratedMotion, TheWalkKeepsTheStanceFootOnTheFloorAndLiftsTheSwingFoot) {
    Scene s;
    ASSERT_EQ(loadScene("t7", s), "");
    ASSERT_FALSE(s.desc.planes.empty());
    ASSERT_FALSE(s.animations.empty());
    const float floor_y = s.desc.planes[0].origin.y;
    const double fps = 30.0, duration = s.duration(0);
    const int frames = int(std::lround(duration * fps));
    ASSERT_GE(frames, 200);
    float left_clear = 0.0f, right_clear = 0.0f, worst_stance = 0.0f, deepest = 0.0f;
    for (int k = 0; k <= frames; ++k) {
        const Lowest low = lowestPoints(s, 0, double(k) / fps);
        const float stance = std::min(low.left, low.right) - floor_y;
        if (std::fabs(stance) > std::fabs(worst_stance)) worst_stance = stance;
        deepest = std::min(deepest, std::min(low.left, low.right) - floor_y);
        left_clear = std::max(left_clear, low.left - floor_y);
        right_clear = std::max(right_clear, low.right - floor_y);
    }
    EXPECT_LE(std::fabs(worst_stance), 0.01f) << "stance foot " << worst_stance * 1e3f << " mm off the floor";
    EXPECT_GE(deepest, -0.01f) << "a foot " << -deepest * 1e3f << " mm under the floor";
    EXPECT_GE(left_clear, 0.03f) << "the left foot never swings clear of the floor";
    EXPECT_GE(right_clear, 0.03f) << "the right foot never swings clear of the floor";
}

// The arms swing beside the trunk: at no frame of T7's walk and run does a
// hand enter the trunk's skin (a point of the hand's bone axis on the inner
// side of the nearest skin vertex that the pelvis or torso carries, within
// 6 cm of it: the skin's trunk is not closed on its own, so "inside" is
// read locally against the posed surface's normal).
TEST(GeneratedMotion, NoHandEntersTheTrunk) {
    Scene s;
    ASSERT_EQ(loadScene("t7", s), "");
    const sim::EnvelopeDesc& e = s.desc.envelope;
    ASSERT_FALSE(e.empty());
    ASSERT_EQ(e.vertex_body.size(), e.vertices.size());
    std::vector<int> hands;
    std::vector<uint8_t> trunk_body(s.desc.bodies.size(), 0);
    for (size_t b = 0; b < s.desc.bodies.size(); ++b) {
        const std::string& n = s.desc.bodies[b].name;
        if (n == "hand_l" || n == "hand_r") hands.push_back(int(b));
        if (n == "pelvis" || n == "torso") trunk_body[b] = 1;
    }
    ASSERT_EQ(hands.size(), 2u);
    const int frames = int(std::lround(s.duration(0) * 30.0));
    std::vector<glm::vec3> posed;
    float deepest = 0.0f;
    int deepest_frame = -1;
    for (int k = 0; k <= frames; ++k) {
        const double t = double(k) / 30.0;
        s.envelopePose(0, t, posed);
        std::vector<glm::vec3> normals(posed.size(), glm::vec3(0.0f));
        for (const glm::uvec3& tri : e.triangles) {
            const glm::vec3 n = glm::cross(posed[tri.y] - posed[tri.x], posed[tri.z] - posed[tri.x]);
            for (int c = 0; c < 3; ++c) normals[tri[c]] += n;
        }
        const std::vector<glm::mat4> bodies = s.bodyTransforms(0, t);
        for (int h : hands) {
            const sim::BodyDesc& b = s.desc.bodies[size_t(h)];
            for (int i = 0; i <= 8; ++i) {
                const glm::vec3 local = b.capsule_a + (b.capsule_b - b.capsule_a) * (float(i) / 8.0f);
                const glm::vec3 p(bodies[size_t(h)] * glm::vec4(local, 1.0f));
                size_t nearest = SIZE_MAX;
                float best = 0.06f;
                for (size_t v = 0; v < posed.size(); ++v) {
                    const int body = e.vertex_body[v];
                    if (body < 0 || !trunk_body[size_t(body)]) continue;
                    const float d = glm::length(p - posed[v]);
                    if (d < best) best = d, nearest = v;
                }
                if (nearest == SIZE_MAX) continue;
                const float side = glm::dot(p - posed[nearest], glm::normalize(normals[nearest]));
                if (side < deepest) deepest = side, deepest_frame = k;
            }
        }
    }
    EXPECT_GE(deepest, 0.0f) << "a hand " << -deepest * 1e3f << " mm inside the trunk's skin at frame " << deepest_frame;
}

// The kneecap glides in the femur's groove: at every frame of T7's walk
// and run (the knee bent up to 100°) its nearest point lies within 5 mm of
// the femur's drawn surface and its centre outside the femur (it neither
// floats in front of the bent knee nor sinks into it), and it glides down
// the groove as the knee bends instead of staying put on the femur.
TEST(GeneratedMotion, TheKneecapStaysOnTheFemur) {
    Scene s;
    ASSERT_EQ(loadScene("t7", s), "");
    const RenderMesh* skeleton = skeletonMesh(s);
    ASSERT_NE(skeleton, nullptr);
    const int frames = int(std::lround(s.duration(0) * 30.0));
    for (const char* side : {"_r", "_l"}) {
        const int patella = s.skeleton.find(std::string("patella") + side);
        const int femur = s.skeleton.find(std::string("femur") + side);
        ASSERT_GE(patella, 0) << side;
        ASSERT_GE(femur, 0) << side;
        const std::vector<size_t> on_patella = verticesOf(*skeleton, patella), on_femur = verticesOf(*skeleton, femur);
        ASSERT_GT(on_patella.size(), 20u) << side;
        ASSERT_GT(on_femur.size(), 100u) << side;
        float widest_gap = 0.0f, travel = 0.0f;
        int widest_frame = -1, sunk_frame = -1;
        glm::vec3 rest_in_femur(0.0f);
        for (int k = 0; k <= frames; ++k) {
            std::vector<glm::mat4> globals;
            s.skeleton.globals(s.localPoses(0, double(k) / 30.0), globals);
            const std::vector<glm::vec3> posed = posedPositions(*skeleton, globals);
            const glm::mat3 femur_turn(globals[size_t(femur)]);
            float gap = std::numeric_limits<float>::max();
            glm::vec3 centre(0.0f);
            for (size_t p : on_patella) {
                centre += posed[p] / float(on_patella.size());
                for (size_t f : on_femur) gap = std::min(gap, glm::length(posed[p] - posed[f]));
            }
            if (gap > widest_gap) widest_gap = gap, widest_frame = k;
            // How far it has glided along the femur since the first frame.
            const glm::vec3 in_femur(glm::inverse(globals[size_t(femur)]) * glm::vec4(centre, 1.0f));
            if (k == 0) rest_in_femur = in_femur;
            travel = std::max(travel, glm::length(in_femur - rest_in_femur));
            // The centre lies outside the femur: in front of the femur
            // vertex nearest it, along that vertex's (posed) normal.
            size_t nearest = on_femur[0];
            for (size_t f : on_femur)
                if (glm::length(posed[f] - centre) < glm::length(posed[nearest] - centre)) nearest = f;
            if (glm::dot(centre - posed[nearest], femur_turn * skeleton->normals[nearest]) <= 0.0f && sunk_frame < 0)
                sunk_frame = k;
        }
        EXPECT_LE(widest_gap, 0.005f) << side << ": kneecap " << widest_gap * 1e3f << " mm off the femur at frame "
                                      << widest_frame;
        EXPECT_EQ(sunk_frame, -1) << side << ": kneecap inside the femur at frame " << sunk_frame;
        EXPECT_GE(travel, 0.015f) << side << ": the kneecap glides only " << travel * 1e3f << " mm as the knee bends";
    }
}

namespace {

// How far the drawn vertices of one bone lie outside the skin over a
// scene's animation (every `every`-th frame at 30 Hz): outside = not
// enclosed by the posed skin (winding number 0), by the distance to the
// skin's surface.
struct BoneOutside {
    float farthest = 0.0f;
    int frame = -1;
};

BoneOutside boneOutsideSkin(const Scene& s, const std::string& bone, int every) {
    BoneOutside out;
    const RenderMesh* skeleton = skeletonMesh(s);
    const int joint = s.skeleton.find(bone);
    if (!skeleton || s.desc.envelope.empty() || joint < 0) return out;
    const std::vector<size_t> on_bone = verticesOf(*skeleton, joint);
    const std::vector<glm::uvec3>& tris = s.desc.envelope.triangles;
    const int animation = s.animations.empty() ? -1 : 0;
    const int frames = animation < 0 ? 0 : int(std::lround(s.duration(0) * 30.0));
    std::vector<glm::vec3> skin;
    sim::SkewRayGrid rays;
    for (int k = 0; k <= frames; k += every) {
        const double t = double(k) / 30.0;
        s.envelopePose(animation, t, skin);
        rays.build(skin, tris, 0, uint32_t(tris.size()));
        std::vector<glm::mat4> globals;
        s.skeleton.globals(s.localPoses(animation, t), globals);
        const std::vector<glm::vec3> posed = posedPositions(*skeleton, globals);
        for (size_t v : on_bone) {
            const glm::vec3 p = posed[v];
            if (rays.inBounds(p) && rays.winding(skin, tris, p) != 0) continue;
            // Its distance to the skin's surface: the nearest triangle among
            // those with a corner near the nearest vertex. Behind that
            // triangle's face it is not outside: where the skin folds over
            // itself in a crease (a bent elbow's inside) the winding number
            // can read 0 deep inside the limb.
            float dv = std::numeric_limits<float>::max();
            for (const glm::vec3& q : skin) dv = std::min(dv, glm::length(p - q));
            float d = dv;
            glm::vec3 nearest(0.0f), normal(0.0f);
            for (const glm::uvec3& t : tris) {
                if (glm::length(p - skin[t.x]) > dv + 0.03f) continue;
                sim::TriFeature feature;
                const glm::vec3 c = sim::closestPointOnTriangle(p, skin[t.x], skin[t.y], skin[t.z], feature);
                if (glm::length(p - c) < d)
                    d = glm::length(p - c), nearest = c,
                    normal = glm::cross(skin[t.y] - skin[t.x], skin[t.z] - skin[t.x]);
            }
            if (d < dv && glm::dot(p - nearest, normal) < 0.0f) continue;
            if (d > out.farthest) out.farthest = d, out.frame = k;
        }
    }
    return out;
}

}  // namespace

// The skin follows the fingers and the thumb, and the toes: no bone of a
// hand or a foot shows through it in any sampled frame (every 4th) of T5,
// T6 and T7. The arm's skin is polygonised at 8 mm, the body's at 12 mm:
// T7's bar is half its cell, as far as its flat faces can cut across a
// round knuckle or toe.
TEST(GeneratedMotion, NoHandOrFootBoneShowsThroughTheSkin) {
    for (const char* id : {"t5", "t6", "t7"}) {
        Scene s;
        ASSERT_EQ(loadScene(id, s), "") << id;
        const float bar = std::string(id) == "t7" ? 0.006f : 0.002f;
        size_t checked = 0;
        for (const char* bone : {"hand_r", "hand_l", "foot_r", "foot_l"}) {
            if (s.skeleton.find(bone) < 0) continue;
            ++checked;
            const BoneOutside o = boneOutsideSkin(s, bone, 4);
            EXPECT_LE(o.farthest, bar) << id << ": " << bone << " " << o.farthest * 1e3f
                                       << " mm outside the skin at frame " << o.frame;
        }
        EXPECT_GE(checked, 1u) << id;
    }
}


// No bone of the skeleton shows through the skin in any sampled frame (every
// 4th) of T5, T6 and T7: the clavicle and the scapula (covered on the arm
// scenes by their shoulder piece, on the body by the upper back's), the
// olecranon of a fully flexed elbow (the skin's weights fitted to the
// motions), the styloids and malleoli. The bar, 6 mm, is half the body's
// skin cell: what is left is where linear blending pulls the skin in on the
// inside of a bent elbow or knee (docs/anatomy.md "Skin outline").
TEST(GeneratedMotion, NoBoneShowsThroughTheSkin) {
    for (const char* id : {"t5", "t6", "t7"}) {
        Scene s;
        ASSERT_EQ(loadScene(id, s), "") << id;
        const RenderMesh* skeleton = skeletonMesh(s);
        ASSERT_NE(skeleton, nullptr) << id;
        size_t checked = 0;
        for (const Joint& j : s.skeleton.joints) {
            if (verticesOf(*skeleton, s.skeleton.find(j.name)).empty()) continue;
            ++checked;
            const BoneOutside o = boneOutsideSkin(s, j.name, 4);
            EXPECT_LE(o.farthest, 0.006f) << id << ": " << j.name << " " << o.farthest * 1e3f
                                          << " mm outside the skin at frame " << o.frame;
        }
        EXPECT_GE(checked, std::string(id) == "t7" ? 20u : 6u) << id;
    }
}

// The fighting hand (T6) is a fist: its fingers curl back against the palm,
// so no part of the hand's bones lies more than 12 cm beyond the wrist (the
// open hand of T5 reaches 18 cm) and the fingertips come forward of the palm.
TEST(GeneratedMotion, TheFightingHandIsAFist) {
    auto reach = [](const char* id) {
        Scene s;
        EXPECT_EQ(loadScene(id, s), "") << id;
        const RenderMesh* skeleton = skeletonMesh(s);
        const int hand = s.skeleton.find("hand_r");
        EXPECT_TRUE(skeleton && hand >= 0) << id;
        if (!skeleton || hand < 0) return 0.0f;
        std::vector<glm::mat4> rest;
        s.skeleton.globals(s.skeleton.restLocals(), rest);
        const glm::vec3 wrist(rest[size_t(hand)][3]);
        float far = 0.0f;
        for (size_t v : verticesOf(*skeleton, hand)) far = std::max(far, wrist.y - skeleton->positions[v].y);
        return far;
    };
    const float fist = reach("t6"), open = reach("t5");
    EXPECT_LT(fist, 0.12f);
    EXPECT_GT(open, 0.15f);
}

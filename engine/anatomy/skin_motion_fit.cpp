// The skin's weights fitted to the scene's motions (skin_motion_fit.h).
#include "engine/anatomy/skin_motion_fit.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>

#include "engine/anatomy/grounding.h"
#include "sim/geometry.h"
#include "sim/skew_ray_grid.h"

namespace engine::generator {

namespace {
// Bone points farther than this under the rest skin are never checked: no
// frame of the generated motions folds the skin that deep.
constexpr float kCheckDepth = 0.03f;
// A bone point outside the skin pulls the weights of the skin vertices
// within this (posed) distance of it, fully at half of it.
constexpr float kPullRadius = 0.03f;
// How far one pass moves a fully pulled vertex's weights towards the bone.
constexpr float kPullRate = 0.25f;
constexpr int kPasses = 12;
// Passes without a new best before giving up (the body's run folds the skin
// at the groin, which no weight moves, and the passes only cost time).
constexpr int kPatience = 3;

// Only a bone that moves with the vertex already, or is the parent or a
// child of one it follows, may take it over (a rib does not take the arm's
// skin, nor a thigh the hand's).
bool related(const SceneSpec& sc, uint32_t bone, const glm::uvec4& joints, const glm::vec4& weights) {
    for (int k = 0; k < 4; ++k) {
        if (weights[k] == 0.0f) continue;
        const uint32_t j = joints[k];
        if (j == bone || sc.bones[bone].parent == int(j) || sc.bones[j].parent == int(bone)) return true;
    }
    return false;
}

// w ← (1 − t)·w + t·(this bone alone), the four largest kept, sorted and
// normalised as skinWeights leaves them.
void pullTowards(glm::uvec4& joints, glm::vec4& weights, uint32_t bone, float t) {
    std::vector<std::pair<float, uint32_t>> candidates;
    bool found = false;
    for (int k = 0; k < 4; ++k) {
        if (weights[k] == 0.0f) continue;
        candidates.emplace_back(weights[k] * (1.0f - t) + (joints[k] == bone ? t : 0.0f), joints[k]);
        found = found || joints[k] == bone;
    }
    if (!found) candidates.emplace_back(t, bone);
    keepFourLargest(candidates, joints, weights);
}
}  // namespace

float fitSkinWeightsToMotion(const SceneSpec& sc, SkinMesh& skin, const std::vector<BonePoint>& bones) {
    if (sc.animations.empty() || skin.positions.empty()) return 0.0f;
    // The bone points near the rest skin (nearest skin vertex within kCheckDepth).
    std::vector<uint32_t> checked;
    for (uint32_t i = 0; i < bones.size(); ++i) {
        const glm::vec3 p = bones[i].position;
        if (std::any_of(skin.positions.begin(), skin.positions.end(),
                        [&](const glm::vec3& q) { return glm::length(q - p) < kCheckDepth; }))
            checked.push_back(i);
    }
    std::vector<std::vector<glm::mat4>> poses;  // per checked frame: rest point of bone i → posed
    for (const AnimSpec& a : sc.animations) {
        const int n = int(std::lround(a.duration * a.fps));
        for (int k = 0; k <= n; k += 2) {
            std::vector<glm::mat4> g = boneGlobals(sc, a, double(k) / a.fps, glm::vec3(0.0f));
            for (size_t b = 0; b < g.size(); ++b) g[b] = g[b] * glm::translate(glm::mat4(1.0f), -sc.bones[b].head);
            poses.push_back(std::move(g));
        }
    }
    std::vector<glm::vec3> posed(skin.positions.size());
    std::vector<float> demand(skin.positions.size());
    std::vector<uint32_t> demand_bone(skin.positions.size());
    sim::SkewRayGrid rays;
    float farthest = 0.0f, best = 1e9f;
    int since_best = 0;
    SkinWeights best_weights = skin.weights;
    for (int pass = 0; pass <= kPasses; ++pass) {
        std::fill(demand.begin(), demand.end(), 0.0f);
        farthest = 0.0f;
        for (const std::vector<glm::mat4>& g : poses) {
            for (size_t v = 0; v < posed.size(); ++v) {
                glm::vec4 acc(0.0f);
                for (int k = 0; k < 4; ++k)
                    if (skin.weights.weights[v][k] != 0.0f)
                        acc += skin.weights.weights[v][k] * (g[skin.weights.joints[v][k]] * glm::vec4(skin.positions[v], 1.0f));
                posed[v] = glm::vec3(acc);
            }
            rays.build(posed, skin.triangles, 0, uint32_t(skin.triangles.size()));
            for (uint32_t i : checked) {
                const BonePoint& b = bones[i];
                const glm::vec3 p(g[b.bone] * glm::vec4(b.position, 1.0f));
                if (rays.inBounds(p) && rays.winding(posed, skin.triangles, p) != 0) continue;
                float nearest = 1e9f;
                for (size_t v = 0; v < posed.size(); ++v) {
                    const float d = glm::length(posed[v] - p);
                    nearest = std::min(nearest, d);
                    if (d >= kPullRadius) continue;
                    const float pull = 1.0f - glm::smoothstep(0.5f * kPullRadius, kPullRadius, d);
                    if (pull > demand[v] && related(sc, b.bone, skin.weights.joints[v], skin.weights.weights[v]))
                        demand[v] = pull, demand_bone[v] = b.bone;
                }
                // Its distance to the surface (the nearest triangle among
                // those with a corner near the nearest vertex): the nearest
                // vertex alone ranks the passes wrongly.
                float d = nearest;
                for (const glm::uvec3& t : skin.triangles) {
                    if (glm::length(p - posed[t.x]) > nearest + kPullRadius) continue;
                    sim::TriFeature feature;
                    d = std::min(d, glm::length(p - sim::closestPointOnTriangle(p, posed[t.x], posed[t.y], posed[t.z], feature)));
                }
                farthest = std::max(farthest, d);
            }
        }
        // Passes can trade one bone's point for another's: keep the best.
        if (farthest < best)
            best = farthest, best_weights = skin.weights, since_best = 0;
        else if (++since_best == kPatience)
            break;
        if (farthest == 0.0f || pass == kPasses) break;
        for (size_t v = 0; v < demand.size(); ++v)
            if (demand[v] > 0.0f)
                pullTowards(skin.weights.joints[v], skin.weights.weights[v], demand_bone[v], kPullRate * demand[v]);
    }
    skin.weights = best_weights;
    return best;
}

}  // namespace engine::generator

// Posing one non-muscle mesh on the CPU: morph targets first, then glTF
// linear-blend skinning over any number of influence sets, or one rigid
// transform. engine::posedPositions (reports, tests) and the renderer's
// bone posing both go through it, so what is drawn is what is reported.
#pragma once

#include <span>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine {

// The vertex arrays posing reads (views into a RenderMesh or a BoneMesh).
struct PoseSource {
    std::span<const glm::vec3> positions;
    std::span<const std::vector<glm::vec3>> morph_targets;  // per target, an offset per vertex
    std::span<const glm::uvec4> skin_joints;                // influence_sets per vertex
    std::span<const glm::vec4> skin_weights;                // empty: rigid
    int influence_sets = 1;
};

// Appends the posed vertices to `out`: p = base + Σ_i w_i · target_i (weights
// past the end of `morph` count 0), then Σ w_k · skin_mats[joint_k] · p when
// skinned (a joint slot past skin_mats is ignored), else rigid · p.
void appendPosed(const PoseSource& m, std::span<const float> morph, std::span<const glm::mat4> skin_mats,
                 const glm::mat4& rigid, std::vector<glm::vec3>& out);

}  // namespace engine

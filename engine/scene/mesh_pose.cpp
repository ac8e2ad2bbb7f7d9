#include "engine/scene/mesh_pose.h"

#include <algorithm>

namespace engine {

void appendPosed(const PoseSource& m, std::span<const float> morph, std::span<const glm::mat4> skin_mats,
                 const glm::mat4& rigid, std::vector<glm::vec3>& out) {
    const size_t targets = std::min(m.morph_targets.size(), morph.size());
    bool morphed = false;
    for (size_t t = 0; t < targets; ++t) morphed = morphed || morph[t] != 0.0f;
    const bool skinned = !m.skin_weights.empty();
    const size_t sets = size_t(std::max(1, m.influence_sets));
    for (size_t v = 0; v < m.positions.size(); ++v) {
        glm::vec3 base = m.positions[v];
        if (morphed)
            for (size_t t = 0; t < targets; ++t)
                if (morph[t] != 0.0f && v < m.morph_targets[t].size()) base += morph[t] * m.morph_targets[t][v];
        const glm::vec4 p(base, 1.0f);
        if (!skinned) {
            out.emplace_back(rigid * p);
            continue;
        }
        glm::vec4 acc(0.0f);
        for (size_t s = 0; s < sets; ++s) {
            const size_t i = v * sets + s;
            const glm::vec4 w = i < m.skin_weights.size() ? m.skin_weights[i] : glm::vec4(s == 0 ? 1.0f : 0.0f, 0, 0, 0);
            const glm::uvec4 j = i < m.skin_joints.size() ? m.skin_joints[i] : glm::uvec4(0);
            for (int k = 0; k < 4; ++k)
                if (w[k] != 0.0f && j[k] < skin_mats.size()) acc += w[k] * (skin_mats[j[k]] * p);
        }
        out.emplace_back(acc);
    }
}

}  // namespace engine

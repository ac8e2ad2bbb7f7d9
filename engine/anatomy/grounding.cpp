// Grounded motion (grounding.h).
#include "engine/anatomy/grounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat4x4.hpp>

namespace engine::generator {

std::vector<glm::mat4> boneGlobals(const SceneSpec& sc, const AnimSpec& a, double t, glm::vec3 root_offset) {
    const size_t nb = sc.bones.size();
    std::vector<glm::quat> rot(nb, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    std::vector<const Channel*> moved(nb, nullptr);
    for (const Channel& c : a.channels)
        if (c.bone >= 0 && size_t(c.bone) < nb) {
            rot[size_t(c.bone)] = c.rotation(t);
            if (c.translation) moved[size_t(c.bone)] = &c;
        }
    std::vector<glm::mat4> g(nb);
    // Parents come before their children (the body plan adds them so).
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = sc.bones[i];
        glm::vec3 local = b.parent >= 0 ? b.head - sc.bones[size_t(b.parent)].head : b.head + root_offset;
        if (moved[i]) local = moved[i]->translation(t) + (b.parent >= 0 ? glm::vec3(0.0f) : root_offset);
        const glm::mat4 l = glm::translate(glm::mat4(1.0f), local) * glm::mat4_cast(rot[i]);
        g[i] = b.parent >= 0 ? g[size_t(b.parent)] * l : l;
    }
    return g;
}

glm::vec3 posedPoint(const SceneSpec& sc, const std::vector<glm::mat4>& globals, const DrawnPoint& p) {
    glm::vec3 out(0.0f);
    for (int k = 0; k < 4; ++k) {
        const float w = p.weights[k];
        if (w == 0.0f) continue;
        const size_t b = p.bones[k];
        out += w * glm::vec3(globals[b] * glm::vec4(p.rest - sc.bones[b].head, 1.0f));
    }
    return out;
}

std::vector<float> groundedRootHeights(const SceneSpec& sc, const AnimSpec& a, const std::vector<DrawnPoint>& drawn,
                                       float floor_y) {
    const int n = int(std::lround(a.duration * a.fps));
    std::vector<float> dy(size_t(n) + 1, 0.0f);
    if (drawn.empty()) return dy;
    for (int k = 0; k <= n; ++k) {
        const std::vector<glm::mat4> g = boneGlobals(sc, a, double(k) / a.fps, glm::vec3(0.0f));
        float lowest = std::numeric_limits<float>::max();
        for (const DrawnPoint& p : drawn) lowest = std::min(lowest, posedPoint(sc, g, p).y);
        dy[size_t(k)] = floor_y - lowest;
    }
    return dy;
}

}  // namespace engine::generator

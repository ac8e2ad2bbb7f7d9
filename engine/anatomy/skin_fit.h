// Fits the generated skin around the generated muscles in the rest pose: the
// outline (engine/anatomy/skin_outline.h) follows measured girths, the
// muscles their own measured volumes, and where a muscle reaches past the
// outline the skin is pushed out over it, so no muscle starts outside the
// skin and the fascia envelope (docs/model.md §3.8) starts from a body
// whose muscles all lie under it.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <glm/vec3.hpp>


namespace engine {

// Moves skin vertices outward along their normals (with a smooth fall-off
// around each push, so the skin bulges rather than tents) until every point
// of `inside` lies at least `clearance` inside the closed skin mesh, or the
// iterations run out. Deterministic. Returns the largest remaining shortfall
// (m; 0 when every point is enclosed). A point enclosed by the skin but
// nearest the outer face of another part of it (a rib under the inner arm)
// pushes nothing; `covers(point, triangle)`, where given, says whether that
// triangle of skin is the one to push out over that point. A push spreads
// over `spread` mean skin edges around it (about two rings by default).
float fitSkinAround(std::vector<glm::vec3>& skin, const std::vector<glm::uvec3>& triangles,
                    const std::vector<glm::vec3>& inside, float clearance,
                    const std::function<bool(size_t, uint32_t)>& covers = nullptr, float spread = 2.0f);

// A point of a bone's drawn surface and the bone (joint index) it follows.
struct BonePoint {
    glm::vec3 position{0.0f};
    uint32_t bone = 0;
};

}  // namespace engine

#include "engine/render/bone_pose.h"

#include "engine/scene/mesh_pose.h"

namespace engine::render {

namespace {
glm::mat4 rigidTransform(const BoneMesh& b, const DrawFrame& f) {
    if (b.follow == BoneMesh::Follow::Joint && b.index >= 0 && size_t(b.index) < f.joint_globals.size())
        return f.joint_globals[size_t(b.index)];
    if (b.follow == BoneMesh::Follow::Body && b.index >= 0 && size_t(b.index) < f.body_transforms.size())
        return f.body_transforms[size_t(b.index)];
    return glm::mat4(1.0f);
}

glm::mat4 skinMatrix(const BoneMesh& b, const DrawFrame& f, uint32_t slot) {
    if (slot >= b.skin_joint_map.size()) return glm::mat4(1.0f);
    int j = b.skin_joint_map[slot];
    glm::mat4 g = j >= 0 && size_t(j) < f.joint_globals.size() ? f.joint_globals[size_t(j)] : glm::mat4(1.0f);
    glm::mat4 ib = slot < b.inverse_bind.size() ? b.inverse_bind[slot] : glm::mat4(1.0f);
    return g * ib;
}

// Appends the posed vertices of one mesh (engine::appendPosed: morph, then
// skin or rigid).
void appendPosed(const BoneMesh& b, const DrawFrame& f, std::vector<glm::vec3>& positions, std::vector<glm::mat4>& mats) {
    std::span<const float> morph;
    if (!b.morph_targets.empty())
        morph = b.morph_first + b.morph_targets.size() <= f.morph_weights.size()
                    ? f.morph_weights.subspan(b.morph_first, b.morph_targets.size())
                    : std::span<const float>(b.morph_defaults);
    mats.clear();
    if (b.skinned()) {
        mats.resize(b.skin_joint_map.size());
        for (uint32_t s = 0; s < mats.size(); ++s) mats[s] = skinMatrix(b, f, s);
    }
    engine::appendPosed({b.positions, b.morph_targets, b.skin_joints, b.skin_weights, b.influence_sets}, morph, mats,
                        b.skinned() ? glm::mat4(1.0f) : rigidTransform(b, f), positions);
}
}  // namespace

std::vector<uint32_t> boneIndices(const std::vector<BoneMesh>& bones) {
    std::vector<uint32_t> out;
    uint32_t base = 0;
    for (const auto& b : bones) {
        if (b.ownDraw()) continue;
        for (uint32_t i : b.indices) out.push_back(base + i);
        base += uint32_t(b.positions.size());
    }
    return out;
}

void poseBones(const std::vector<BoneMesh>& bones, const DrawFrame& f, std::vector<glm::vec3>& positions,
               std::vector<glm::vec3>& colors, std::vector<glm::mat4>& mats) {
    positions.clear();
    colors.clear();
    for (const auto& b : bones) {
        if (b.ownDraw()) continue;
        appendPosed(b, f, positions, mats);
        colors.insert(colors.end(), b.positions.size(), b.color);
    }
}

void poseMesh(const BoneMesh& mesh, const DrawFrame& f, std::vector<glm::vec3>& positions, std::vector<glm::mat4>& mats) {
    positions.clear();
    appendPosed(mesh, f, positions, mats);
}

}  // namespace engine::render

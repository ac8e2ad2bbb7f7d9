#include "app/run/scene_content.h"

#include <sstream>

#include "sim/printable.h"

#include <glm/common.hpp>

namespace app {

namespace {
nlohmann::json vec(const glm::vec3& v) { return {v.x, v.y, v.z}; }
}  // namespace

nlohmann::json sceneContent(const engine::Scene& s, int animation, double time) {
    using nlohmann::json;
    json meshes = json::array();
    for (const engine::RenderMesh& m : s.meshes) {
        json x = {{"name", m.name},
                  {"mesh", m.mesh},
                  {"primitive", m.primitive},
                  {"vertices", m.positions.size()},
                  {"triangles", m.indices.size() / 3},
                  {"skinned", m.skinned()},
                  {"influences_per_vertex", m.skinned() ? 4 * m.influence_sets : 0},
                  {"morph_targets", m.morph_targets.size()},
                  {"color", vec(m.color)},
                  {"translucent", m.blend},
                  {"texture", m.texture >= 0 ? json(s.textures[size_t(m.texture)].name) : json()}};
        if (m.skin >= 0) x["skin"] = m.skin;
        meshes.push_back(std::move(x));
    }
    json skins = json::array();
    for (const engine::SkinInfo& k : s.skins) skins.push_back({{"name", k.name}, {"joints", k.joints}});
    json animations = json::array();
    for (size_t a = 0; a < s.animations.size(); ++a)
        animations.push_back({{"name", s.animations[a].name}, {"duration", s.duration(int(a))}});
    json textures = json::array();
    for (const engine::Texture& t : s.textures) textures.push_back({{"name", t.name}, {"width", t.width}, {"height", t.height}});
    // Every mesh posed at `time`: the skeleton's globals, the morph weights.
    std::vector<glm::mat4> globals;
    s.skeleton.globals(s.localPoses(animation, time), globals);
    std::vector<float> weights;
    s.morphWeights(animation, time, weights);
    glm::vec3 lo(1e30f), hi(-1e30f);
    size_t first = 0;
    for (const engine::RenderMesh& m : s.meshes) {
        const size_t n = m.morph_targets.size();
        const std::span<const float> mw = n ? std::span<const float>(weights).subspan(first, n) : std::span<const float>();
        first += n;
        for (const glm::vec3& p : engine::posedPositions(m, globals, mw)) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
    }
    json j = {{"meshes", meshes},
              {"skins", skins},
              {"animations", animations},
              {"textures", textures},
              {"warnings", s.warnings}};
    j["posed"] = {{"animation", animation >= 0 ? json(s.animations[size_t(animation)].name) : json()},
                  {"time", time},
                  {"bounds", lo.x <= hi.x ? json{{"min", vec(lo)}, {"max", vec(hi)}} : json()}};
    return j;
}

std::string describeContent(const nlohmann::json& c) {
    std::ostringstream os;
    size_t skinned = 0, morphed = 0, textured = 0;
    for (const auto& m : c["meshes"]) {
        skinned += m["skinned"].get<bool>() ? 1 : 0;
        morphed += m["morph_targets"].get<size_t>() > 0 ? 1 : 0;
        textured += m["texture"].is_null() ? 0 : 1;
    }
    const size_t nm = c["meshes"].size();
    os << nm << (nm == 1 ? " mesh" : " meshes");
    if (nm > 0) {
        os << " (" << skinned << " skinned, " << morphed << " with morph targets, " << textured << " textured)";
    }
    const size_t ns = c["skins"].size();
    os << ", " << ns << (ns == 1 ? " skin" : " skins");
    if (ns > 0) {
        os << " (";
        for (size_t i = 0; i < ns; ++i) os << (i ? ", " : "") << c["skins"][i]["joints"].get<size_t>() << " joints";
        os << ")";
    }
    const size_t na = c["animations"].size();
    os << ", " << na << (na == 1 ? " animation" : " animations");
    if (na > 0) {
        os << " (";
        for (size_t i = 0; i < na && i < 8; ++i)
            os << (i ? ", " : "") << c["animations"][i]["name"].get<std::string>() << " " << c["animations"][i]["duration"].get<double>() << " s";
        if (na > 8) os << ", ...";
        os << ")";
    }
    return sim::printable(os.str());  // animation names come from the file
}

}  // namespace app

#include "engine/scene/envelope_source.h"

#include <cstring>
#include <map>
#include <tuple>

namespace engine {

namespace {

// Share of the muscles' surface vertices that must lie within a translucent
// skinned mesh's bounds for it to be taken as their envelope unasked: a
// character's skin holds all of them, a prop or a hair card does not.
constexpr double kEnclosedShare = 0.9;

bool holdsMuscles(const std::vector<glm::vec3>& posed, const sim::SceneDesc& desc) {
    if (posed.empty()) return false;
    glm::vec3 lo = posed[0], hi = posed[0];
    for (const glm::vec3& p : posed) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    size_t inside = 0, total = 0;
    for (const sim::MuscleDesc& m : desc.muscles)
        for (const glm::vec3& v : m.vertices) {
            ++total;
            inside += glm::all(glm::greaterThanEqual(v, lo)) && glm::all(glm::lessThanEqual(v, hi));
        }
    return total > 0 && double(inside) >= kEnclosedShare * double(total);
}

}  // namespace

void attachEnvelope(Scene& s) {
    s.envelope_mesh = -1;
    s.envelope_source.clear();
    s.envelope_weld.clear();
    s.desc.envelope = {};
    if (s.desc.muscles.empty()) return;
    std::vector<glm::mat4> globals;
    s.skeleton.globals(s.skeleton.restLocals(), globals);
    int chosen = -1;
    std::vector<glm::vec3> posed;
    for (size_t k = 0; k < s.meshes.size() && chosen < 0; ++k)
        if (s.meshes[k].envelope > 0) chosen = int(k);
    if (chosen >= 0) {
        posed = posedPositions(s.meshes[size_t(chosen)], globals);
    } else {
        for (size_t k = 0; k < s.meshes.size(); ++k) {
            const RenderMesh& m = s.meshes[k];
            if (m.envelope < 0 || !m.blend || !m.skinned()) continue;
            posed = posedPositions(m, globals);
            if (holdsMuscles(posed, s.desc)) {
                chosen = int(k);
                break;
            }
        }
    }
    if (chosen < 0) return;
    const RenderMesh& m = s.meshes[size_t(chosen)];
    // One envelope vertex per distinct bind-pose position, in first-seen order.
    auto bits = [](glm::vec3 v) {
        uint32_t b[3];
        std::memcpy(b, &v, sizeof b);
        return std::make_tuple(b[0], b[1], b[2]);
    };
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> index;
    std::vector<uint32_t> weld(posed.size());
    sim::EnvelopeDesc& e = s.desc.envelope;
    for (size_t v = 0; v < posed.size(); ++v) {
        auto [it, fresh] = index.emplace(bits(posed[v]), uint32_t(e.vertices.size()));
        if (fresh) {
            e.vertices.push_back(posed[v]);
            s.envelope_source.push_back(uint32_t(v));
        }
        weld[v] = it->second;
    }
    for (size_t i = 0; i + 2 < m.indices.size(); i += 3) {
        const glm::uvec3 t(weld[m.indices[i]], weld[m.indices[i + 1]], weld[m.indices[i + 2]]);
        if (t.x == t.y || t.y == t.z || t.z == t.x) continue;
        e.triangles.push_back(t);
    }
    if (e.triangles.empty()) {
        s.desc.envelope = {};
        s.envelope_source.clear();
        s.envelope_weld.clear();
        return;
    }
    e.name = m.name;
    if (m.envelope_thickness >= 0.0f) e.thickness = m.envelope_thickness;
    s.envelope_mesh = chosen;
    s.envelope_weld = std::move(weld);
}

}  // namespace engine

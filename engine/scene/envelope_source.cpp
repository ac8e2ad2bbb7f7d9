#include "engine/scene/envelope_source.h"

#include <algorithm>
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

// Per vertex of skinned mesh m: the body whose bone weighs most in its
// skinning (a joint without a body of its own speaks for the nearest
// ancestor that has one), −1 where none.
std::vector<int32_t> dominantBodies(const Scene& s, const RenderMesh& m) {
    std::vector<int32_t> body_of_joint(s.skeleton.joints.size(), -1);
    for (size_t b = 0; b < s.body_joint.size(); ++b) {
        const int j = s.body_joint[b];
        if (j >= 0 && size_t(j) < body_of_joint.size() && body_of_joint[size_t(j)] < 0) body_of_joint[size_t(j)] = int32_t(b);
    }
    // Joints need not be listed parents first: each walks up to its body.
    std::vector<int32_t> resolved(body_of_joint.size(), -1);
    for (size_t j = 0; j < body_of_joint.size(); ++j) {
        int k = int(j);
        for (size_t guard = 0; k >= 0 && body_of_joint[size_t(k)] < 0 && guard < body_of_joint.size(); ++guard)
            k = s.skeleton.joints[size_t(k)].parent;
        resolved[j] = k >= 0 ? body_of_joint[size_t(k)] : -1;
    }
    const size_t sets = size_t(std::max(1, m.influence_sets));
    const size_t nv = m.positions.size();
    std::vector<int32_t> out(nv, -1);
    if (m.skin_weights.size() < nv * sets || m.skin_joints.size() < nv * sets) return out;
    for (size_t v = 0; v < nv; ++v) {
        float best = 0.0f;
        for (size_t q = 0; q < sets; ++q)
            for (int c = 0; c < 4; ++c) {
                const float wgt = m.skin_weights[v * sets + q][c];
                const uint32_t slot = m.skin_joints[v * sets + q][c];
                if (!(wgt > best) || slot >= m.skin_joint_map.size()) continue;
                const int j = m.skin_joint_map[slot];
                if (j < 0 || size_t(j) >= resolved.size()) continue;
                best = wgt;
                out[v] = resolved[size_t(j)];
            }
    }
    return out;
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
    const std::vector<int32_t> bodies = dominantBodies(s, m);
    for (size_t v = 0; v < posed.size(); ++v) {
        auto [it, fresh] = index.emplace(bits(posed[v]), uint32_t(e.vertices.size()));
        if (fresh) {
            e.vertices.push_back(posed[v]);
            e.vertex_body.push_back(bodies[v]);
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
    e.stiffness_scale = m.envelope_stiffness_scale;
    s.envelope_mesh = chosen;
    s.envelope_weld = std::move(weld);
}

}  // namespace engine

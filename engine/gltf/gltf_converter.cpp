// The converter's skeleton (the node tree as joints, parents first), the
// scene's extras (msxpbd_scene), the bodies bones collide as, node lookup by
// name, and the warnings it hands back.
#include "engine/gltf/gltf_converter.h"

#include <algorithm>
#include <cmath>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_extras.h"
#include "engine/gltf/gltf_input.h"
#include "engine/gltf/gltf_nodes.h"
#include "engine/gltf/gltf_primitives.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

std::string nodeName(const tinygltf::Model& m, int i) {
    std::string s = "node " + std::to_string(i);
    if (i >= 0 && size_t(i) < m.nodes.size() && !m.nodes[size_t(i)].name.empty())
        s += " '" + m.nodes[size_t(i)].name + "'";
    return s;
}

void Converter::finishWarnings() {
    constexpr size_t kMaxWarnings = 32;
    std::vector<std::string> out;
    for (const std::string& w : warnings_)
        if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
    if (out.size() > kMaxWarnings) {
        const size_t more = out.size() - kMaxWarnings;
        out.resize(kMaxWarnings);
        out.push_back("... and " + std::to_string(more) + " more warnings");
    }
    s_.warnings = std::move(out);
}

void Converter::buildSkeleton() {
    const size_t n = m_.nodes.size();
    std::vector<int> parent(n, -1);
    for (size_t i = 0; i < n; ++i)
        for (int c : m_.nodes[i].children) {
            if (c < 0 || size_t(c) >= n)
                fail(nodeName(m_, int(i)) + ": child " + std::to_string(c) + " out of range (" +
                     std::to_string(n) + " nodes)");
            if (size_t(c) == i) fail(nodeName(m_, int(i)) + " is its own child");
            if (parent[size_t(c)] >= 0) fail(nodeName(m_, c) + " has two parents");
            parent[size_t(c)] = int(i);
        }
    std::vector<int> roots;
    if (!m_.scenes.empty()) {
        int si = m_.defaultScene >= 0 ? m_.defaultScene : 0;
        if (size_t(si) >= m_.scenes.size()) fail("default scene " + std::to_string(si) + " out of range");
        for (int r : m_.scenes[size_t(si)].nodes) {
            if (r < 0 || size_t(r) >= n) fail("scene lists node " + std::to_string(r) + " out of range");
            if (parent[size_t(r)] >= 0) fail("scene lists " + nodeName(m_, r) + " which is not a root");
            roots.push_back(r);
        }
    } else {
        for (size_t i = 0; i < n; ++i)
            if (parent[i] < 0) roots.push_back(int(i));
    }
    node_joint_.assign(n, -1);
    node_extras_.assign(n, json::object());
    // Depth-first, parents before children; a cycle cannot be reached from
    // a root because every node has at most one parent and roots have none.
    std::vector<std::pair<int, int>> stack;  // (node, parent joint)
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, -1);
    while (!stack.empty()) {
        auto [ni, pj] = stack.back();
        stack.pop_back();
        if (node_joint_[size_t(ni)] >= 0) fail(nodeName(m_, ni) + " is listed twice in the scene");
        const tinygltf::Node& node = m_.nodes[size_t(ni)];
        Joint j;
        j.name = node.name.empty() ? "node" + std::to_string(ni) : node.name;
        j.parent = pj;
        glm::mat4 local = nodeLocal(node, nodeName(m_, ni), j);
        const int ji = int(s_.skeleton.joints.size());
        s_.skeleton.joints.push_back(j);
        rest_global_.push_back(pj >= 0 ? rest_global_[size_t(pj)] * local : local);
        checkGlobal(rest_global_.back(), nodeName(m_, ni));
        node_joint_[size_t(ni)] = ji;
        node_extras_[size_t(ni)] = parseExtras(node.extras_json_string, nodeName(m_, ni));
        for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) stack.emplace_back(*c, ji);
    }
}

void Converter::readSceneExtras() {
    if (m_.scenes.empty()) return;
    int si = m_.defaultScene >= 0 ? m_.defaultScene : 0;
    const auto& sc = m_.scenes[size_t(si)];
    s_.desc.name = sc.name;
    const std::string where = "scene " + std::to_string(si);
    json o = schemaObject(parseExtras(sc.extras_json_string, where), kSceneKey, where);
    if (o.is_null()) return;
    s_.desc.sliding_radius =
        float(getBounded(o, "sliding_radius", s_.desc.sliding_radius, 0.0, lim::kMaxSlidingRadius, where));
    s_.desc.gravity_scale = float(getNumber(o, "gravity_scale", s_.desc.gravity_scale, where));
    if (!(s_.desc.gravity_scale >= 0.0f && s_.desc.gravity_scale <= 10.0f))
        fail(where + ": 'gravity_scale' must be in [0, 10]");
    if (o.contains("substeps")) {
        const json& n = o.at("substeps");
        if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > 100)
            fail(where + ": 'substeps' must be an integer in [1, 100]");
        s_.solver.substeps = int(n.get<long long>());
    }
    if (o.contains("carry")) {
        const double c = getNumber(o, "carry", 0.0, where);
        if (!(c >= 0.0 && c <= 1.0)) fail(where + ": 'carry' must be a number in [0, 1]");
        s_.solver.carry = float(c);
    }
    if (o.contains("planes")) {
        const json& ps = o.at("planes");
        if (!ps.is_array()) fail(where + ": 'planes' must be an array");
        requireArrayAtMost(ps, lim::kMaxPlanes, where + ": 'planes'");
        for (size_t i = 0; i < ps.size(); ++i) {
            const std::string pw = where + " plane " + std::to_string(i);
            if (!ps[i].is_object()) fail(pw + " must be an object");
            sim::PlaneDesc p;
            if (ps[i].contains("origin")) p.origin = getVec3(ps[i].at("origin"), pw + " 'origin'");
            if (ps[i].contains("normal")) p.normal = getDirection(ps[i].at("normal"), pw + " 'normal'");
            else p.normal /= glm::length(p.normal);
            s_.desc.planes.push_back(p);
        }
    }
}

int Converter::jointByName(const json& v, const std::string& where) {
    if (v.is_number_integer()) {
        long long i = v.get<long long>();
        if (i < 0 || size_t(i) >= m_.nodes.size() || node_joint_[size_t(i)] < 0)
            fail(where + ": node " + std::to_string(i) + " is not in the scene");
        return node_joint_[size_t(i)];
    }
    std::string name = getName(v, where);
    int j = s_.skeleton.find(name);
    if (j < 0) fail(where + ": no node named '" + name + "'");
    return j;
}

int Converter::bodyFor(int joint) {
    auto it = body_of_joint_.find(joint);
    if (it != body_of_joint_.end()) return it->second;
    int ni = -1;
    for (size_t i = 0; i < node_joint_.size(); ++i)
        if (node_joint_[i] == joint) ni = int(i);
    const std::string where = nodeName(m_, ni);
    if (s_.desc.bodies.size() >= lim::kMaxBodies)
        fail(where + ": more than " + std::to_string(lim::kMaxBodies) + " bodies");
    sim::BodyDesc b;
    b.name = s_.skeleton.joints[size_t(joint)].name;
    b.transform = rest_global_[size_t(joint)];
    json o = schemaObject(node_extras_[size_t(ni)], kBodyKey, where);
    bool shaped = false;
    if (!o.is_null() && o.contains("capsule")) {
        const json& c = o.at("capsule");
        if (!c.is_object()) fail(where + ": extras.msxpbd_body.capsule must be an object");
        b.capsule_a = getVec3(c.contains("a") ? c.at("a") : json::array({0, 0, 0}), where + " capsule 'a'");
        b.capsule_b = getVec3(c.contains("b") ? c.at("b") : json::array({0, 0, 0}), where + " capsule 'b'");
        const double r = getNumber(c, "radius", 0.0, where + " capsule");
        if (!(r >= 1e-6 && r <= lim::kMaxRadius))
            fail(where + ": capsule 'radius' = " + fmt(r) + " is out of range [1e-06, " + fmt(lim::kMaxRadius) +
                 "] m");
        b.capsule_radius = float(r);
        shaped = true;
    }
    const tinygltf::Node& node = m_.nodes[size_t(ni)];
    // The bone's own unskinned mesh, or else the first unskinned mesh
    // parented to it that is neither a muscle nor a skin: in Blender a bone
    // cannot hold a mesh, so an artist parents the bone's mesh to the bone
    // (Ctrl+P > Bone), which exports as a child node of the joint.
    int shape_node = node.mesh >= 0 && node.skin < 0 ? ni : -1;
    for (int c : node.children) {
        if (shape_node >= 0) break;
        if (c < 0 || size_t(c) >= m_.nodes.size() || node_joint_[size_t(c)] < 0) continue;
        const tinygltf::Node& child = m_.nodes[size_t(c)];
        const json& ex = node_extras_[size_t(c)];
        const bool other_role = ex.is_object() && (ex.contains(kMuscleKey) || ex.contains(kEnvelopeKey));
        if (child.mesh >= 0 && child.skin < 0 && !other_role) shape_node = c;
    }
    if (!shaped && shape_node >= 0) {
        const std::string mesh_where = shape_node == ni ? where : where + " (its child " + nodeName(m_, shape_node) + ")";
        Geometry g = readMesh(m_, m_.nodes[size_t(shape_node)].mesh, false, mesh_where, budget_, warnings_);
        // A child's mesh in the bone's frame.
        if (shape_node != ni) {
            const glm::mat4 local =
                glm::inverse(rest_global_[size_t(joint)]) * rest_global_[size_t(node_joint_[size_t(shape_node)])];
            for (glm::vec3& v : g.positions) v = glm::vec3(local * glm::vec4(v, 1.0f));
        }
        std::vector<glm::vec3> welded;
        std::vector<uint32_t> map = weld(g.positions, welded);
        checkWorld(welded, b.transform, mesh_where + " body mesh");
        b.vertices = welded;
        for (size_t t = 0; t + 2 < g.indices.size(); t += 3) {
            glm::uvec3 tri(map[g.indices[t]], map[g.indices[t + 1]], map[g.indices[t + 2]]);
            if (tri.x != tri.y && tri.y != tri.z && tri.x != tri.z) b.triangles.push_back(tri);
        }
        shaped = !b.triangles.empty();
    }
    if (!shaped) {  // capsule to the first child (or a small sphere)
        glm::vec3 tip(0.0f);
        for (size_t k = size_t(joint) + 1; k < s_.skeleton.joints.size(); ++k)
            if (s_.skeleton.joints[k].parent == joint) {
                tip = s_.skeleton.joints[k].translation;
                break;
            }
        float len = glm::length(tip);
        b.capsule_a = glm::vec3(0.0f);
        b.capsule_b = tip;
        b.capsule_radius = len > 0.0f ? std::max(0.005f, 0.12f * len) : 0.02f;
        // The fallback, said (docs/scene-format.md, "Bodies").
        warnings_.push_back(
            where + ": no shape (extras.msxpbd_body.capsule or an unskinned mesh): collides as " +
            (len > 0.0f ? "a capsule to its first child, radius " + fmt(b.capsule_radius) + " m (12% of the bone's " +
                              fmt(len) + " m, at least 5 mm)"
                        : std::string("a 2 cm sphere (it has no child to reach)")));
    }
    int bi = int(s_.desc.bodies.size());
    s_.desc.bodies.push_back(std::move(b));
    s_.body_joint.push_back(joint);
    s_.body_offset.push_back(glm::mat4(1.0f));
    body_of_joint_.emplace(joint, bi);
    return bi;
}

}  // namespace engine::gltf_detail

// The converter's muscles: the nodes with extras.msxpbd_muscle, each read as
// one closed mesh in the world with its origins, insertions, attachments,
// contact and sliding targets, stiffness and sensors (docs/scene-format.md).
#include "engine/gltf/gltf_converter.h"

#include <algorithm>
#include <cmath>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_extras.h"
#include "engine/gltf/gltf_input.h"
#include "engine/gltf/gltf_nodes.h"
#include "engine/gltf/gltf_primitives.h"
#include "sim/mesh_topology.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

void Converter::collectMuscles() {
    for (size_t ni = 0; ni < m_.nodes.size(); ++ni) {
        if (node_joint_[ni] < 0) continue;
        json o = schemaObject(node_extras_[ni], kMuscleKey, nodeName(m_, int(ni)));
        if (o.is_null()) continue;
        if (m_.nodes[ni].mesh < 0) fail(nodeName(m_, int(ni)) + ": muscle node has no mesh");
        if (m_.nodes[ni].skin >= 0)
            fail(nodeName(m_, int(ni)) + ": muscle is skinned (its node has skin " + std::to_string(m_.nodes[ni].skin) +
                 "; in Blender: parented with Armature Deform, or an Armature modifier): a muscle is a plain mesh "
                 "parented to its bone (Object or Bone parent) that the simulation moves, and its vertex sets are "
                 "read in its own bind space (docs/scene-format.md)");
        if (muscle_nodes_.size() >= lim::kMaxMuscles)
            fail(nodeName(m_, int(ni)) + ": more than " + std::to_string(lim::kMaxMuscles) + " muscles");
        muscle_by_name_.emplace(s_.skeleton.joints[size_t(node_joint_[ni])].name, int(muscle_nodes_.size()));
        muscle_nodes_.push_back(int(ni));
    }
    if (!muscle_nodes_.empty()) return;
    // No muscle: say so, and where the properties went when an exporter
    // put them somewhere else (Blender: Mesh data properties land on the
    // glTF mesh, not on the node).
    std::string misplaced;
    for (size_t mi = 0; mi < m_.meshes.size() && misplaced.empty(); ++mi)
        if (m_.meshes[mi].extras_json_string.find(kMuscleKey) != std::string::npos)
            misplaced = "mesh " + std::to_string(mi) + (m_.meshes[mi].name.empty() ? "" : " '" + m_.meshes[mi].name + "'");
    if (!misplaced.empty())
        warnings_.push_back("0 muscles: " + misplaced + " carries '" + kMuscleKey +
                            "' in its extras, but muscles are read from node extras (in Blender: an Object custom "
                            "property, not a Mesh data one; docs/scene-format.md)");
    else if (!m_.meshes.empty())
        warnings_.push_back(std::string("0 muscles: no node has extras.") + kMuscleKey +
                            " (drawn as a character only; to simulate muscles, give their nodes that property and "
                            "export custom properties: docs/scene-format.md)");
}

std::vector<uint32_t> Converter::vertexSet(const json& v, const std::vector<uint32_t>& weld_map,
                                           const std::vector<glm::vec3>& local, const std::string& where) {
    std::vector<uint32_t> out;
    if (v.is_array()) {
        for (const json& e : v) {
            if (!e.is_number_integer() && !e.is_number_unsigned())
                fail(where + " must be an array of vertex indices (integers)");
            long long i = e.get<long long>();
            if (i < 0 || size_t(i) >= weld_map.size())
                fail(where + ": vertex index " + std::to_string(i) + " out of range (" +
                     std::to_string(weld_map.size()) + " vertices)");
            out.push_back(weld_map[size_t(i)]);
        }
    } else if (v.is_object() && v.contains("points")) {
        // Vertices named by their rest position in the muscle's frame:
        // positions survive an editor's round trip (which reorders and
        // splits vertices, so indices do not), and every exporter writes
        // them back bit for bit.
        const json& pts = v.at("points");
        if (!pts.is_array() || pts.empty()) fail(where + " 'points' must be a non-empty array of [x, y, z]");
        requireArrayAtMost(pts, std::max<size_t>(local.size(), 1), where + " 'points'");
        const PositionIndex index(local);
        for (size_t k = 0; k < pts.size(); ++k) {
            const std::string pw = where + " 'points'[" + std::to_string(k) + "]";
            const glm::vec3 c = getVec3(pts[k], pw);
            const PositionIndex::Match m = index.nearest(c);
            if (!m.found)
                fail(pw + " matches no vertex of the mesh (nearest " +
                     (std::isfinite(m.distance) ? std::to_string(m.distance * 1e3) + " mm away" : std::string("none")) +
                     "; points must be the rest positions of mesh vertices, in the muscle's frame)");
            out.push_back(m.index);
        }
    } else if (v.is_object()) {
        if (!v.contains("near") && !v.contains("marker"))
            fail(where + ": object form needs 'near' (or 'marker') and 'radius', or 'points'");
        glm::vec3 c;
        if (v.contains("marker")) {
            // A named node (a Blender empty parented to the muscle): its
            // rest position in the muscle mesh's local frame. Names survive
            // an editor's round trip; vertex indices do not.
            const int mj = jointByName(v.at("marker"), where + " 'marker'");
            const glm::vec3 world(rest_global_[size_t(mj)][3]);
            c = glm::vec3(glm::inverse(muscle_global_) * glm::vec4(world, 1.0f));
            if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z))
                fail(where + " 'marker': its position in the muscle's frame is not finite");
        } else {
            c = getVec3(v.at("near"), where + " 'near'");
        }
        if (!v.contains("radius")) fail(where + ": object form needs 'near' and 'radius'");
        float r = float(getBounded(v, "radius", 0.0, 0.0, lim::kMaxRadius, where));
        if (!(r > 0.0f)) fail(where + ": 'radius' must be > 0");
        for (size_t i = 0; i < local.size(); ++i)
            if (glm::length(local[i] - c) <= r) out.push_back(uint32_t(i));
    } else {
        fail(where + " must be an array of vertex indices, {\"points\": [[x,y,z], ...]} or {\"near\": [x,y,z], \"radius\": r}");
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    if (out.empty()) fail(where + " selects no vertex");
    return out;
}

std::vector<std::vector<uint32_t>> Converter::vertexSets(const json& o, const char* key,
                                                         const std::vector<uint32_t>& map,
                                                         const std::vector<glm::vec3>& local,
                                                         const std::string& where) {
    if (!o.contains(key)) fail(where + ": '" + key + "' is required");
    const json& a = o.at(key);
    // One set: a flat array of vertex indices or a {"near", "radius"} object.
    if (a.is_object() || (a.is_array() && !a.empty() && a[0].is_number()))
        return {vertexSet(a, map, local, where + " '" + key + "'")};
    if (!a.is_array() || a.empty())
        fail(where + ": '" + key + "' must be a vertex set or a non-empty array of vertex sets");
    requireArrayAtMost(a, lim::kMaxRootSets, where + ": '" + key + "'");
    std::vector<std::vector<uint32_t>> sets;
    for (size_t i = 0; i < a.size(); ++i)
        sets.push_back(vertexSet(a[i], map, local, where + " '" + key + "'[" + std::to_string(i) + "]"));
    return sets;
}

std::vector<sim::TargetDesc> Converter::targets(const json& o, const char* key, int self, const std::string& where) {
    std::vector<sim::TargetDesc> out;
    if (!o.contains(key)) return out;
    const json& a = o.at(key);
    if (!a.is_array()) fail(where + ": '" + key + "' must be an array of node names");
    requireArrayAtMost(a, lim::kMaxTargetsPerMuscle, where + ": '" + key + "'");
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string tw = where + " '" + key + "'[" + std::to_string(i) + "]";
        sim::TargetDesc t;
        if (a[i].is_string() && muscle_by_name_.count(a[i].get<std::string>())) {
            t.kind = sim::TargetDesc::Kind::Muscle;
            t.index = muscle_by_name_.at(a[i].get<std::string>());
            if (t.index == self) fail(tw + ": a muscle cannot target itself");
        } else {
            t.kind = sim::TargetDesc::Kind::Body;
            t.index = bodyFor(jointByName(a[i], tw));
        }
        out.push_back(t);
    }
    return out;
}

void Converter::readMuscles() {
    for (size_t mi = 0; mi < muscle_nodes_.size(); ++mi) {
        const int ni = muscle_nodes_[mi];
        const tinygltf::Node& node = m_.nodes[size_t(ni)];
        const std::string where = nodeName(m_, ni);
        const json o = schemaObject(node_extras_[size_t(ni)], kMuscleKey, where);
        const std::string ow = where + " extras." + kMuscleKey;
        const int joint = node_joint_[size_t(ni)];
        Geometry g = readMesh(m_, node.mesh, false, where, budget_, warnings_);
        sim::MuscleDesc md;
        md.name = s_.skeleton.joints[size_t(joint)].name;
        std::vector<glm::vec3> local;
        std::vector<uint32_t> map = weld(g.positions, local);
        const glm::mat4& G = rest_global_[size_t(joint)];
        muscle_global_ = G;
        checkWorld(local, G, where + " muscle mesh");
        for (const glm::vec3& p : local) md.vertices.push_back(glm::vec3(G * glm::vec4(p, 1.0f)));
        for (size_t t = 0; t + 2 < g.indices.size(); t += 3)
            md.triangles.emplace_back(map[g.indices[t]], map[g.indices[t + 1]], map[g.indices[t + 2]]);
        if (glm::determinant(glm::mat3(G)) < 0.0f)
            for (glm::uvec3& t : md.triangles) std::swap(t.y, t.z);
        std::string topo = sim::checkOneClosedSurface(md.vertices, md.triangles);
        if (!topo.empty()) fail(where + ": muscle mesh: " + topo);

        md.origin_sets = vertexSets(o, "origins", map, local, ow);
        md.insertion_sets = vertexSets(o, "insertions", map, local, ow);
        auto bonesFor = [&](const char* key, size_t count) {
            std::vector<int> bodies;
            if (!o.contains(key)) return bodies;
            const json& b = o.at(key);
            const std::string bw = ow + " '" + key + "'";
            if (b.is_array()) {
                if (b.size() != count) fail(bw + ": needs one bone per vertex set (" + std::to_string(count) + ")");
                for (size_t i = 0; i < b.size(); ++i) bodies.push_back(bodyFor(jointByName(b[i], bw)));
            } else {
                bodies.assign(count, bodyFor(jointByName(b, bw)));
            }
            return bodies;
        };
        std::vector<int> ob = bonesFor("origin_bone", md.origin_sets.size());
        std::vector<int> ib = bonesFor("insertion_bone", md.insertion_sets.size());
        std::map<uint32_t, int> attach;  // vertex → body (explicit entries win)
        for (size_t i = 0; i < ob.size(); ++i)
            for (uint32_t v : md.origin_sets[i]) attach[v] = ob[i];
        for (size_t i = 0; i < ib.size(); ++i)
            for (uint32_t v : md.insertion_sets[i]) attach[v] = ib[i];
        if (o.contains("attachments")) {
            const json& a = o.at("attachments");
            if (!a.is_array()) fail(ow + ": 'attachments' must be an array");
            requireArrayAtMost(a, lim::kMaxAttachmentEntries, ow + ": 'attachments'");
            for (size_t i = 0; i < a.size(); ++i) {
                const std::string aw = ow + " 'attachments'[" + std::to_string(i) + "]";
                if (!a[i].is_object() || !a[i].contains("bone") || !a[i].contains("vertices"))
                    fail(aw + " must be an object with 'bone' and 'vertices'");
                int body = bodyFor(jointByName(a[i].at("bone"), aw + " 'bone'"));
                for (uint32_t v : vertexSet(a[i].at("vertices"), map, local, aw + " 'vertices'")) attach[v] = body;
            }
        }
        for (auto [v, b] : attach) md.attachments.push_back({v, b});
        md.contact_targets = targets(o, "contacts", int(mi), ow);
        md.sliding_targets = targets(o, "sliding", int(mi), ow);
        md.initial_activation = float(getNumber(o, "initial_activation", 0.0, ow));
        if (md.initial_activation < 0.0f || md.initial_activation > 0.95f)
            fail(ow + ": 'initial_activation' must be in [0, 0.95]");
        md.overpressure = float(getNumber(o, "overpressure", 0.0, ow));
        if (md.overpressure < 0.0f || md.overpressure > 10.0f) fail(ow + ": 'overpressure' must be in [0, 10]");
        md.density = float(getBounded(o, "density", md.density, lim::kMinDensity, lim::kMaxDensity, ow));
        if (o.contains("stiffness")) {
            const json& st = o.at("stiffness");
            if (!st.is_object()) fail(ow + ": 'stiffness' must be an object {family: k}");
            for (auto it = st.begin(); it != st.end(); ++it) {
                auto fam = sim::parseFamily(it.key());
                const std::string sw = ow + " 'stiffness." + it.key() + "'";
                if (!fam) fail(sw + ": unknown family (" + sim::familyList() + ")");
                float k;
                if (it.value().is_string() && it.value().get<std::string>() == "inf")
                    k = sim::kInfiniteStiffness;
                else if (it.value().is_number() && std::isfinite(it.value().get<double>())) {
                    // The range the command line and presets enforce too.
                    const double d = it.value().get<double>();
                    if (!sim::validateStiffness(sim::ConstraintMode::Xpbd, *fam, d).empty())
                        fail(sw + " = " + fmt(d) + " is out of range " +
                             sim::describeStiffnessRange(sim::ConstraintMode::Xpbd, *fam));
                    k = float(d);
                } else
                    fail(sw + " must be a number or \"inf\"");
                md.stiffness[*fam] = k;
            }
        }
        MuscleSensors ms;
        if (o.contains("sensors")) {
            const json& a = o.at("sensors");
            if (!a.is_array()) fail(ow + ": 'sensors' must be an array");
            requireArrayAtMost(a, lim::kMaxSensorsPerMuscle, ow + ": 'sensors'");
            for (size_t i = 0; i < a.size(); ++i) {
                const std::string sw = ow + " 'sensors'[" + std::to_string(i) + "]";
                if (!a[i].is_object() || !a[i].contains("joint")) fail(sw + " must be an object with 'joint'");
                Sensor s;
                s.joint = jointByName(a[i].at("joint"), sw + " 'joint'");
                if (a[i].contains("axis")) s.axis = getDirection(a[i].at("axis"), sw + " 'axis'");
                else s.axis /= glm::length(s.axis);
                const double G = lim::kMaxSensorGain;
                s.angle_offset = float(getBounded(a[i], "angle_offset", 0.0, -lim::kMaxAngle, lim::kMaxAngle, sw));
                s.angle_gain = float(getBounded(a[i], "angle_gain", 0.0, -G, G, sw));
                s.velocity_gain = float(getBounded(a[i], "velocity_gain", 0.0, -G, G, sw));
                s.acceleration_gain = float(getBounded(a[i], "acceleration_gain", 0.0, -G, G, sw));
                ms.sensors.push_back(s);
            }
        }
        s_.desc.muscles.push_back(std::move(md));
        s_.sensors.push_back(std::move(ms));
    }
}

}  // namespace engine::gltf_detail

// glTF 2.0 → engine::Scene. tinygltf parses the JSON and the buffers; every
// index, offset and count is validated here before any buffer is read, sparse
// accessors are applied here, and the msxpbd extras schema
// (docs/scene-format.md) is interpreted here.
#include "engine/gltf_loader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include <tiny_gltf.h>
#include <nlohmann/json.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/mesh_topology.h"

namespace engine {
namespace {

using json = nlohmann::json;

struct LoadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& msg) { throw LoadError(msg); }

constexpr const char* kMuscleKey = "msxpbd_muscle";
constexpr const char* kBodyKey = "msxpbd_body";
constexpr const char* kSceneKey = "msxpbd_scene";
constexpr uint64_t kMaxElements = uint64_t(1) << 26;

std::string nodeName(const tinygltf::Model& m, int i) {
    std::string s = "node " + std::to_string(i);
    if (i >= 0 && size_t(i) < m.nodes.size() && !m.nodes[size_t(i)].name.empty())
        s += " '" + m.nodes[size_t(i)].name + "'";
    return s;
}

// ---------------------------------------------------------------- accessors

int componentSize(int ct) {
    switch (ct) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
        default: return 0;
    }
}

int componentCount(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return 1;
        case TINYGLTF_TYPE_VEC2: return 2;
        case TINYGLTF_TYPE_VEC3: return 3;
        case TINYGLTF_TYPE_VEC4: return 4;
        case TINYGLTF_TYPE_MAT2: return 4;
        case TINYGLTF_TYPE_MAT3: return 9;
        case TINYGLTF_TYPE_MAT4: return 16;
        default: return 0;
    }
}

double readComponent(const unsigned char* p, int ct, bool normalized) {
    switch (ct) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            int8_t v;
            std::memcpy(&v, p, 1);
            return normalized ? std::max(double(v) / 127.0, -1.0) : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : double(p[0]);
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? std::max(double(v) / 32767.0, -1.0) : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? v / 65535.0 : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return normalized ? v / 4294967295.0 : double(v);
        }
        default: return 0.0;
    }
}

// Bytes [offset, offset + length) of a buffer view, validated.
const unsigned char* viewBytes(const tinygltf::Model& m, int view_index, const std::string& where,
                               size_t* length) {
    if (view_index < 0 || size_t(view_index) >= m.bufferViews.size())
        fail(where + ": bufferView " + std::to_string(view_index) + " out of range (" +
             std::to_string(m.bufferViews.size()) + " buffer views)");
    const tinygltf::BufferView& v = m.bufferViews[size_t(view_index)];
    const std::string vw = "bufferView " + std::to_string(view_index);
    if (v.buffer < 0 || size_t(v.buffer) >= m.buffers.size())
        fail(where + ": " + vw + " refers to buffer " + std::to_string(v.buffer) + " out of range");
    const auto& data = m.buffers[size_t(v.buffer)].data;
    if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
        fail(where + ": " + vw + " (offset " + std::to_string(v.byteOffset) + ", length " +
             std::to_string(v.byteLength) + ") exceeds buffer " + std::to_string(v.buffer) + " (" +
             std::to_string(data.size()) + " bytes)");
    *length = v.byteLength;
    return data.data() + v.byteOffset;
}

struct AccessorData {
    std::vector<double> v;  // count × comps
    size_t count = 0;
    int comps = 0;
    int component_type = 0;
};

AccessorData readAccessor(const tinygltf::Model& m, int index, const std::string& what) {
    if (index < 0 || size_t(index) >= m.accessors.size())
        fail(what + ": accessor " + std::to_string(index) + " out of range (" + std::to_string(m.accessors.size()) +
             " accessors)");
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const std::string where = what + ": accessor " + std::to_string(index);
    const int cs = componentSize(a.componentType);
    const int nc = componentCount(a.type);
    if (cs == 0) fail(where + ": invalid componentType " + std::to_string(a.componentType));
    if (nc == 0) fail(where + ": invalid type");
    if (nc > 4 && cs < 4) fail(where + ": matrices of 8/16-bit components are not supported");
    if (a.count > kMaxElements) fail(where + ": count " + std::to_string(a.count) + " is too large");
    AccessorData out;
    out.count = a.count;
    out.comps = nc;
    out.component_type = a.componentType;
    out.v.assign(a.count * size_t(nc), 0.0);
    const size_t elem = size_t(cs) * size_t(nc);
    if (a.bufferView >= 0) {
        size_t len = 0;
        const unsigned char* base = viewBytes(m, a.bufferView, where, &len);
        const tinygltf::BufferView& view = m.bufferViews[size_t(a.bufferView)];
        int stride_i = a.ByteStride(view);
        if (stride_i <= 0) fail(where + ": invalid byteStride " + std::to_string(view.byteStride));
        const size_t stride = size_t(stride_i);
        if (stride < elem) fail(where + ": byteStride " + std::to_string(stride) + " smaller than the element");
        if (a.count > 0) {
            const uint64_t need = uint64_t(a.byteOffset) + uint64_t(stride) * (a.count - 1) + elem;
            if (a.byteOffset > len || need > len)
                fail(where + ": out of range: needs " + std::to_string(need) + " bytes, bufferView " +
                     std::to_string(a.bufferView) + " has " + std::to_string(len));
        }
        for (size_t i = 0; i < a.count; ++i) {
            const unsigned char* p = base + a.byteOffset + i * stride;
            for (int c = 0; c < nc; ++c) out.v[i * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    if (a.sparse.isSparse) {
        const auto& sp = a.sparse;
        if (sp.count < 1 || size_t(sp.count) > a.count)
            fail(where + ": sparse count " + std::to_string(sp.count) + " out of range");
        const int ics = componentSize(sp.indices.componentType);
        if (sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            fail(where + ": sparse indices componentType must be unsigned");
        if (sp.indices.byteOffset < 0 || sp.values.byteOffset < 0) fail(where + ": negative sparse byteOffset");
        size_t ilen = 0, vlen = 0;
        const unsigned char* ib = viewBytes(m, sp.indices.bufferView, where + " sparse indices", &ilen);
        const unsigned char* vb = viewBytes(m, sp.values.bufferView, where + " sparse values", &vlen);
        const uint64_t ineed = uint64_t(sp.indices.byteOffset) + uint64_t(ics) * uint64_t(sp.count);
        const uint64_t vneed = uint64_t(sp.values.byteOffset) + uint64_t(elem) * uint64_t(sp.count);
        if (ineed > ilen) fail(where + ": sparse indices out of range of their bufferView");
        if (vneed > vlen) fail(where + ": sparse values out of range of their bufferView");
        for (int k = 0; k < sp.count; ++k) {
            double di = readComponent(ib + sp.indices.byteOffset + size_t(k) * size_t(ics), sp.indices.componentType, false);
            size_t target = size_t(di);
            if (target >= a.count)
                fail(where + ": sparse index " + std::to_string(target) + " out of range (count " +
                     std::to_string(a.count) + ")");
            const unsigned char* p = vb + sp.values.byteOffset + size_t(k) * elem;
            for (int c = 0; c < nc; ++c)
                out.v[target * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    for (double d : out.v)
        if (!std::isfinite(d)) fail(where + ": contains a non-finite value");
    return out;
}

void requireComps(const AccessorData& d, int comps, const std::string& what) {
    if (d.comps != comps)
        fail(what + ": expected " + std::to_string(comps) + " components per element, got " + std::to_string(d.comps));
}

// ---------------------------------------------------------------- extras

json parseExtras(const std::string& s, const std::string& where) {
    if (s.empty()) return json::object();
    json j = json::parse(s, nullptr, false);
    if (j.is_discarded()) fail(where + ": extras are not valid JSON");
    return j;
}

// The value of `key` in `extras`: an object, or a string holding a JSON object
// (Blender custom properties are easiest to edit as strings).
json schemaObject(const json& extras, const char* key, const std::string& where) {
    if (!extras.is_object() || !extras.contains(key)) return json();
    json v = extras.at(key);
    if (v.is_string()) {
        json p = json::parse(v.get<std::string>(), nullptr, false);
        if (p.is_discarded()) fail(where + ": extras." + key + " is a string but not valid JSON");
        v = p;
    }
    if (!v.is_object()) fail(where + ": extras." + key + " must be an object");
    return v;
}

double getNumber(const json& o, const char* key, double def, const std::string& where) {
    if (!o.contains(key)) return def;
    const json& v = o.at(key);
    if (!v.is_number()) fail(where + ": '" + key + "' must be a number");
    double d = v.get<double>();
    if (!std::isfinite(d)) fail(where + ": '" + key + "' must be finite");
    return d;
}

glm::vec3 getVec3(const json& v, const std::string& where) {
    if (!v.is_array() || v.size() != 3) fail(where + " must be an array of 3 numbers");
    glm::vec3 r;
    for (int i = 0; i < 3; ++i) {
        if (!v[size_t(i)].is_number()) fail(where + " must be an array of 3 numbers");
        double d = v[size_t(i)].get<double>();
        if (!std::isfinite(d)) fail(where + " must be finite");
        r[i] = float(d);
    }
    return r;
}

std::string getName(const json& v, const std::string& where) {
    if (!v.is_string()) fail(where + " must be a string (a node name)");
    return v.get<std::string>();
}

// ---------------------------------------------------------------- geometry

struct Geometry {
    std::vector<glm::vec3> positions, normals;
    std::vector<uint32_t> indices;
    std::vector<glm::uvec4> joints;
    std::vector<glm::vec4> weights;
    glm::vec3 color{0.85f, 0.82f, 0.75f};
    bool has_normals = true;
};

Geometry readMesh(const tinygltf::Model& m, int mesh_index, bool skinned, const std::string& where) {
    if (mesh_index < 0 || size_t(mesh_index) >= m.meshes.size())
        fail(where + ": mesh " + std::to_string(mesh_index) + " out of range");
    const tinygltf::Mesh& mesh = m.meshes[size_t(mesh_index)];
    Geometry g;
    bool color_set = false;
    for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
        const tinygltf::Primitive& prim = mesh.primitives[pi];
        const std::string pw = where + ", mesh " + std::to_string(mesh_index) + " primitive " + std::to_string(pi);
        if (prim.mode != -1 && prim.mode != TINYGLTF_MODE_TRIANGLES) continue;  // points/lines/strips: skipped
        auto it = prim.attributes.find("POSITION");
        if (it == prim.attributes.end()) fail(pw + ": no POSITION attribute");
        AccessorData pos = readAccessor(m, it->second, pw + " POSITION");
        requireComps(pos, 3, pw + " POSITION");
        const size_t base = g.positions.size();
        if (base + pos.count > kMaxElements) fail(pw + ": too many vertices");
        for (size_t i = 0; i < pos.count; ++i)
            g.positions.emplace_back(pos.v[3 * i], pos.v[3 * i + 1], pos.v[3 * i + 2]);
        auto nit = prim.attributes.find("NORMAL");
        if (nit != prim.attributes.end()) {
            AccessorData n = readAccessor(m, nit->second, pw + " NORMAL");
            requireComps(n, 3, pw + " NORMAL");
            if (n.count != pos.count) fail(pw + ": NORMAL count differs from POSITION count");
            for (size_t i = 0; i < n.count; ++i) g.normals.emplace_back(n.v[3 * i], n.v[3 * i + 1], n.v[3 * i + 2]);
        } else {
            g.has_normals = false;
            g.normals.resize(g.positions.size(), glm::vec3(0.0f));
        }
        if (skinned) {
            auto jit = prim.attributes.find("JOINTS_0");
            auto wit = prim.attributes.find("WEIGHTS_0");
            if (jit == prim.attributes.end() || wit == prim.attributes.end())
                fail(pw + ": skinned mesh without JOINTS_0/WEIGHTS_0");
            AccessorData j = readAccessor(m, jit->second, pw + " JOINTS_0");
            AccessorData w = readAccessor(m, wit->second, pw + " WEIGHTS_0");
            requireComps(j, 4, pw + " JOINTS_0");
            requireComps(w, 4, pw + " WEIGHTS_0");
            if (j.count != pos.count || w.count != pos.count) fail(pw + ": JOINTS_0/WEIGHTS_0 count differs from POSITION");
            if (j.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT) fail(pw + " JOINTS_0: must be an integer type");
            for (size_t i = 0; i < pos.count; ++i) {
                glm::uvec4 ji;
                for (int c = 0; c < 4; ++c) {
                    double d = j.v[4 * i + size_t(c)];
                    if (d < 0 || d > 65535) fail(pw + " JOINTS_0: joint index out of range");
                    ji[c] = uint32_t(d);
                }
                g.joints.push_back(ji);
                g.weights.emplace_back(w.v[4 * i], w.v[4 * i + 1], w.v[4 * i + 2], w.v[4 * i + 3]);
            }
        }
        if (prim.indices >= 0) {
            AccessorData idx = readAccessor(m, prim.indices, pw + " indices");
            requireComps(idx, 1, pw + " indices");
            if (idx.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT || idx.component_type == TINYGLTF_COMPONENT_TYPE_BYTE ||
                idx.component_type == TINYGLTF_COMPONENT_TYPE_SHORT)
                fail(pw + " indices: componentType must be an unsigned integer type");
            if (idx.count % 3 != 0) fail(pw + " indices: count is not a multiple of 3");
            for (double d : idx.v) {
                if (d >= double(pos.count))
                    fail(pw + " indices: vertex index " + std::to_string(uint64_t(d)) + " out of range (" +
                         std::to_string(pos.count) + " vertices)");
                g.indices.push_back(uint32_t(base + size_t(d)));
            }
        } else {
            if (pos.count % 3 != 0) fail(pw + ": non-indexed triangle count is not a multiple of 3");
            for (size_t i = 0; i < pos.count; ++i) g.indices.push_back(uint32_t(base + i));
        }
        if (!color_set && prim.material >= 0 && size_t(prim.material) < m.materials.size()) {
            const auto& f = m.materials[size_t(prim.material)].pbrMetallicRoughness.baseColorFactor;
            if (f.size() >= 3) g.color = glm::vec3(float(f[0]), float(f[1]), float(f[2]));
            color_set = true;
        }
    }
    if (!g.has_normals) {  // area-weighted vertex normals
        std::fill(g.normals.begin(), g.normals.end(), glm::vec3(0.0f));
        for (size_t t = 0; t + 2 < g.indices.size(); t += 3) {
            glm::vec3 a = g.positions[g.indices[t]], b = g.positions[g.indices[t + 1]], c = g.positions[g.indices[t + 2]];
            glm::vec3 n = glm::cross(b - a, c - a);
            for (int k = 0; k < 3; ++k) g.normals[g.indices[t + size_t(k)]] += n;
        }
        for (glm::vec3& n : g.normals) {
            float l = glm::length(n);
            n = l > 0.0f ? n / l : glm::vec3(0, 1, 0);
        }
    }
    return g;
}

// Exact-position welding (exporters split vertices at UV / normal seams).
std::vector<uint32_t> weld(const std::vector<glm::vec3>& in, std::vector<glm::vec3>& out) {
    std::map<std::tuple<float, float, float>, uint32_t> seen;
    std::vector<uint32_t> map(in.size());
    out.clear();
    for (size_t i = 0; i < in.size(); ++i) {
        auto key = std::make_tuple(in[i].x, in[i].y, in[i].z);
        auto [it, inserted] = seen.emplace(key, uint32_t(out.size()));
        if (inserted) out.push_back(in[i]);
        map[i] = it->second;
    }
    return map;
}

glm::mat4 nodeLocal(const tinygltf::Node& n, const std::string& where, Joint& j) {
    auto finite = [&](const std::vector<double>& v) {
        for (double d : v)
            if (!std::isfinite(d)) fail(where + ": non-finite transform");
    };
    finite(n.matrix);
    finite(n.translation);
    finite(n.rotation);
    finite(n.scale);
    if (!n.matrix.empty()) {
        if (n.matrix.size() != 16) fail(where + ": matrix must have 16 numbers");
        glm::mat4 m;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) m[c][r] = float(n.matrix[size_t(c * 4 + r)]);
        j.translation = glm::vec3(m[3]);
        glm::vec3 s(glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2])));
        if (glm::determinant(glm::mat3(m)) < 0.0f) s.x = -s.x;
        glm::mat3 r(glm::vec3(m[0]) / (s.x != 0 ? s.x : 1.0f), glm::vec3(m[1]) / (s.y != 0 ? s.y : 1.0f),
                    glm::vec3(m[2]) / (s.z != 0 ? s.z : 1.0f));
        j.rotation = glm::normalize(glm::quat_cast(r));
        j.scale = s;
    } else {
        if (!n.translation.empty()) {
            if (n.translation.size() != 3) fail(where + ": translation must have 3 numbers");
            j.translation = glm::vec3(float(n.translation[0]), float(n.translation[1]), float(n.translation[2]));
        }
        if (!n.rotation.empty()) {
            if (n.rotation.size() != 4) fail(where + ": rotation must have 4 numbers");
            glm::quat q(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
            float l = glm::length(q);
            j.rotation = l > 0.0f ? q / l : glm::quat(1, 0, 0, 0);
        }
        if (!n.scale.empty()) {
            if (n.scale.size() != 3) fail(where + ": scale must have 3 numbers");
            j.scale = glm::vec3(float(n.scale[0]), float(n.scale[1]), float(n.scale[2]));
        }
    }
    return composeTRS(j.translation, j.rotation, j.scale);
}

// ---------------------------------------------------------------- the model

class Converter {
public:
    Converter(const tinygltf::Model& m, Scene& s) : m_(m), s_(s) {}

    void run() {
        buildSkeleton();
        readSceneExtras();
        collectMuscles();
        readMuscles();
        readRenderMeshes();
        readAnimations();
    }

private:
    const tinygltf::Model& m_;
    Scene& s_;
    std::vector<int> node_joint_;   // glTF node → skeleton joint (−1: not in the scene)
    std::vector<glm::mat4> rest_global_;  // per skeleton joint
    std::vector<json> node_extras_;
    std::vector<int> muscle_nodes_;
    std::map<std::string, int> muscle_by_name_;
    std::map<int, int> body_of_joint_;

    void buildSkeleton() {
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
            node_joint_[size_t(ni)] = ji;
            node_extras_[size_t(ni)] = parseExtras(node.extras_json_string, nodeName(m_, ni));
            for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) stack.emplace_back(*c, ji);
        }
    }

    void readSceneExtras() {
        if (m_.scenes.empty()) return;
        int si = m_.defaultScene >= 0 ? m_.defaultScene : 0;
        const auto& sc = m_.scenes[size_t(si)];
        s_.desc.name = sc.name;
        const std::string where = "scene " + std::to_string(si);
        json o = schemaObject(parseExtras(sc.extras_json_string, where), kSceneKey, where);
        if (o.is_null()) return;
        s_.desc.sliding_radius = float(getNumber(o, "sliding_radius", s_.desc.sliding_radius, where));
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
            for (size_t i = 0; i < ps.size(); ++i) {
                const std::string pw = where + " plane " + std::to_string(i);
                if (!ps[i].is_object()) fail(pw + " must be an object");
                sim::PlaneDesc p;
                if (ps[i].contains("origin")) p.origin = getVec3(ps[i].at("origin"), pw + " 'origin'");
                if (ps[i].contains("normal")) p.normal = getVec3(ps[i].at("normal"), pw + " 'normal'");
                float l = glm::length(p.normal);
                if (!(l > 0.0f)) fail(pw + ": 'normal' must not be zero");
                p.normal /= l;
                s_.desc.planes.push_back(p);
            }
        }
    }

    void collectMuscles() {
        for (size_t ni = 0; ni < m_.nodes.size(); ++ni) {
            if (node_joint_[ni] < 0) continue;
            json o = schemaObject(node_extras_[ni], kMuscleKey, nodeName(m_, int(ni)));
            if (o.is_null()) continue;
            if (m_.nodes[ni].mesh < 0) fail(nodeName(m_, int(ni)) + ": muscle node has no mesh");
            muscle_by_name_.emplace(s_.skeleton.joints[size_t(node_joint_[ni])].name, int(muscle_nodes_.size()));
            muscle_nodes_.push_back(int(ni));
        }
    }

    int jointByName(const json& v, const std::string& where) {
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

    // Body index for a skeleton joint, created on first use.
    int bodyFor(int joint) {
        auto it = body_of_joint_.find(joint);
        if (it != body_of_joint_.end()) return it->second;
        int ni = -1;
        for (size_t i = 0; i < node_joint_.size(); ++i)
            if (node_joint_[i] == joint) ni = int(i);
        const std::string where = nodeName(m_, ni);
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
            b.capsule_radius = float(getNumber(c, "radius", 0.0, where + " capsule"));
            if (!(b.capsule_radius > 0.0f)) fail(where + ": capsule 'radius' must be > 0");
            shaped = true;
        }
        const tinygltf::Node& node = m_.nodes[size_t(ni)];
        if (!shaped && node.mesh >= 0 && node.skin < 0) {
            Geometry g = readMesh(m_, node.mesh, false, where);
            std::vector<glm::vec3> welded;
            std::vector<uint32_t> map = weld(g.positions, welded);
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
        }
        int bi = int(s_.desc.bodies.size());
        s_.desc.bodies.push_back(std::move(b));
        s_.body_joint.push_back(joint);
        s_.body_offset.push_back(glm::mat4(1.0f));
        body_of_joint_.emplace(joint, bi);
        return bi;
    }

    std::vector<uint32_t> vertexSet(const json& v, const std::vector<uint32_t>& weld_map,
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
        } else if (v.is_object()) {
            if (!v.contains("near")) fail(where + ": object form needs 'near' and 'radius'");
            glm::vec3 c = getVec3(v.at("near"), where + " 'near'");
            float r = float(getNumber(v, "radius", 0.0, where));
            if (!(r > 0.0f)) fail(where + ": 'radius' must be > 0");
            for (size_t i = 0; i < local.size(); ++i)
                if (glm::length(local[i] - c) <= r) out.push_back(uint32_t(i));
        } else {
            fail(where + " must be an array of vertex indices or {\"near\": [x,y,z], \"radius\": r}");
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        if (out.empty()) fail(where + " selects no vertex");
        return out;
    }

    std::vector<std::vector<uint32_t>> vertexSets(const json& o, const char* key, const std::vector<uint32_t>& map,
                                                  const std::vector<glm::vec3>& local, const std::string& where) {
        if (!o.contains(key)) fail(where + ": '" + key + "' is required");
        const json& a = o.at(key);
        // One set: a flat array of vertex indices or a {"near", "radius"} object.
        if (a.is_object() || (a.is_array() && !a.empty() && a[0].is_number()))
            return {vertexSet(a, map, local, where + " '" + key + "'")};
        if (!a.is_array() || a.empty())
            fail(where + ": '" + key + "' must be a vertex set or a non-empty array of vertex sets");
        std::vector<std::vector<uint32_t>> sets;
        for (size_t i = 0; i < a.size(); ++i)
            sets.push_back(vertexSet(a[i], map, local, where + " '" + key + "'[" + std::to_string(i) + "]"));
        return sets;
    }

    std::vector<sim::TargetDesc> targets(const json& o, const char* key, int self, const std::string& where) {
        std::vector<sim::TargetDesc> out;
        if (!o.contains(key)) return out;
        const json& a = o.at(key);
        if (!a.is_array()) fail(where + ": '" + key + "' must be an array of node names");
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

    void readMuscles() {
        for (size_t mi = 0; mi < muscle_nodes_.size(); ++mi) {
            const int ni = muscle_nodes_[mi];
            const tinygltf::Node& node = m_.nodes[size_t(ni)];
            const std::string where = nodeName(m_, ni);
            const json o = schemaObject(node_extras_[size_t(ni)], kMuscleKey, where);
            const std::string ow = where + " extras." + kMuscleKey;
            const int joint = node_joint_[size_t(ni)];
            Geometry g = readMesh(m_, node.mesh, false, where);
            sim::MuscleDesc md;
            md.name = s_.skeleton.joints[size_t(joint)].name;
            std::vector<glm::vec3> local;
            std::vector<uint32_t> map = weld(g.positions, local);
            const glm::mat4& G = rest_global_[size_t(joint)];
            for (const glm::vec3& p : local) md.vertices.push_back(glm::vec3(G * glm::vec4(p, 1.0f)));
            for (size_t t = 0; t + 2 < g.indices.size(); t += 3)
                md.triangles.emplace_back(map[g.indices[t]], map[g.indices[t + 1]], map[g.indices[t + 2]]);
            if (glm::determinant(glm::mat3(G)) < 0.0f)
                for (glm::uvec3& t : md.triangles) std::swap(t.y, t.z);
            std::string topo = sim::checkClosedManifold(md.vertices, md.triangles);
            if (!topo.empty()) fail(where + ": muscle mesh is not a closed manifold: " + topo);

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
            md.density = float(getNumber(o, "density", md.density, ow));
            if (!(md.density > 0.0f)) fail(ow + ": 'density' must be > 0");
            if (o.contains("stiffness")) {
                const json& st = o.at("stiffness");
                if (!st.is_object()) fail(ow + ": 'stiffness' must be an object {family: k}");
                for (auto it = st.begin(); it != st.end(); ++it) {
                    auto fam = sim::parseFamily(it.key());
                    const std::string sw = ow + " 'stiffness." + it.key() + "'";
                    if (!fam) fail(sw + ": unknown family (fiber, structure, volume, contact, sliding, plane)");
                    float k;
                    if (it.value().is_string() && it.value().get<std::string>() == "inf")
                        k = sim::kInfiniteStiffness;
                    else if (it.value().is_number() && std::isfinite(it.value().get<double>()))
                        k = float(it.value().get<double>());
                    else
                        fail(sw + " must be a number or \"inf\"");
                    if (!(k > 0.0f)) fail(sw + " must be > 0");
                    md.stiffness[*fam] = k;
                }
            }
            MuscleSensors ms;
            if (o.contains("sensors")) {
                const json& a = o.at("sensors");
                if (!a.is_array()) fail(ow + ": 'sensors' must be an array");
                for (size_t i = 0; i < a.size(); ++i) {
                    const std::string sw = ow + " 'sensors'[" + std::to_string(i) + "]";
                    if (!a[i].is_object() || !a[i].contains("joint")) fail(sw + " must be an object with 'joint'");
                    Sensor s;
                    s.joint = jointByName(a[i].at("joint"), sw + " 'joint'");
                    if (a[i].contains("axis")) s.axis = getVec3(a[i].at("axis"), sw + " 'axis'");
                    float l = glm::length(s.axis);
                    if (!(l > 0.0f)) fail(sw + ": 'axis' must not be zero");
                    s.axis /= l;
                    s.angle_offset = float(getNumber(a[i], "angle_offset", 0.0, sw));
                    s.angle_gain = float(getNumber(a[i], "angle_gain", 0.0, sw));
                    s.velocity_gain = float(getNumber(a[i], "velocity_gain", 0.0, sw));
                    s.acceleration_gain = float(getNumber(a[i], "acceleration_gain", 0.0, sw));
                    ms.sensors.push_back(s);
                }
            }
            s_.desc.muscles.push_back(std::move(md));
            s_.sensors.push_back(std::move(ms));
        }
    }

    void readRenderMeshes() {
        for (size_t ni = 0; ni < m_.nodes.size(); ++ni) {
            const tinygltf::Node& node = m_.nodes[ni];
            if (node_joint_[ni] < 0 || node.mesh < 0) continue;
            if (std::find(muscle_nodes_.begin(), muscle_nodes_.end(), int(ni)) != muscle_nodes_.end()) continue;
            const std::string where = nodeName(m_, int(ni));
            const bool skinned = node.skin >= 0;
            Geometry g = readMesh(m_, node.mesh, skinned, where);
            if (g.indices.empty()) continue;
            RenderMesh rm;
            rm.name = s_.skeleton.joints[size_t(node_joint_[ni])].name;
            rm.color = g.color;
            if (skinned) {
                if (size_t(node.skin) >= m_.skins.size()) fail(where + ": skin " + std::to_string(node.skin) + " out of range");
                const tinygltf::Skin& skin = m_.skins[size_t(node.skin)];
                const std::string sw = where + ", skin " + std::to_string(node.skin);
                if (skin.joints.empty()) fail(sw + ": no joints");
                for (int jn : skin.joints) {
                    if (jn < 0 || size_t(jn) >= m_.nodes.size() || node_joint_[size_t(jn)] < 0)
                        fail(sw + ": joint node " + std::to_string(jn) + " is not in the scene");
                    rm.skin_joint_map.push_back(node_joint_[size_t(jn)]);
                }
                rm.inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));  // spec: identity when absent
                if (skin.inverseBindMatrices >= 0) {
                    AccessorData ib = readAccessor(m_, skin.inverseBindMatrices, sw + " inverseBindMatrices");
                    requireComps(ib, 16, sw + " inverseBindMatrices");
                    if (ib.count < skin.joints.size()) fail(sw + ": fewer inverseBindMatrices than joints");
                    for (size_t k = 0; k < skin.joints.size(); ++k)
                        for (int c = 0; c < 4; ++c)
                            for (int r = 0; r < 4; ++r) rm.inverse_bind[k][c][r] = float(ib.v[16 * k + size_t(c * 4 + r)]);
                }
                for (size_t i = 0; i < g.joints.size(); ++i)
                    for (int c = 0; c < 4; ++c)
                        if (g.weights[i][c] != 0.0f && g.joints[i][c] >= skin.joints.size())
                            fail(where + ": JOINTS_0 refers to skin joint " + std::to_string(g.joints[i][c]) +
                                 " out of range (" + std::to_string(skin.joints.size()) + " joints)");
                rm.skin_joints = std::move(g.joints);
                rm.skin_weights = std::move(g.weights);
            } else {
                rm.joint = node_joint_[ni];
            }
            rm.positions = std::move(g.positions);
            rm.normals = std::move(g.normals);
            rm.indices = std::move(g.indices);
            s_.meshes.push_back(std::move(rm));
        }
    }

    void readAnimations() {
        for (size_t ai = 0; ai < m_.animations.size(); ++ai) {
            const tinygltf::Animation& an = m_.animations[ai];
            const std::string where = "animation " + std::to_string(ai) + (an.name.empty() ? "" : " '" + an.name + "'");
            Animation out;
            out.name = an.name.empty() ? "animation" + std::to_string(ai) : an.name;
            for (size_t ci = 0; ci < an.channels.size(); ++ci) {
                const tinygltf::AnimationChannel& ch = an.channels[ci];
                const std::string cw = where + " channel " + std::to_string(ci);
                if (ch.target_node < 0 || size_t(ch.target_node) >= m_.nodes.size())
                    fail(cw + ": target node " + std::to_string(ch.target_node) + " out of range");
                if (ch.sampler < 0 || size_t(ch.sampler) >= an.samplers.size())
                    fail(cw + ": sampler " + std::to_string(ch.sampler) + " out of range");
                AnimationChannel c;
                int comps;
                if (ch.target_path == "translation") c.path = ChannelPath::Translation, comps = 3;
                else if (ch.target_path == "rotation") c.path = ChannelPath::Rotation, comps = 4;
                else if (ch.target_path == "scale") c.path = ChannelPath::Scale, comps = 3;
                else continue;  // morph weights: not used
                c.joint = node_joint_[size_t(ch.target_node)];
                if (c.joint < 0) continue;
                const tinygltf::AnimationSampler& sm = an.samplers[size_t(ch.sampler)];
                if (sm.interpolation == "STEP") c.interpolation = Interpolation::Step;
                else if (sm.interpolation == "CUBICSPLINE") c.interpolation = Interpolation::CubicSpline;
                else if (sm.interpolation == "LINEAR" || sm.interpolation.empty()) c.interpolation = Interpolation::Linear;
                else fail(cw + ": unknown interpolation '" + sm.interpolation + "'");
                AccessorData in = readAccessor(m_, sm.input, cw + " input");
                requireComps(in, 1, cw + " input");
                AccessorData outv = readAccessor(m_, sm.output, cw + " output");
                requireComps(outv, comps, cw + " output");
                const size_t per = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
                if (in.count == 0) fail(cw + ": no keyframes");
                if (outv.count != in.count * per)
                    fail(cw + ": output count " + std::to_string(outv.count) + " does not match " +
                         std::to_string(in.count * per) + " for " + std::to_string(in.count) + " keys");
                for (size_t k = 0; k < in.count; ++k) {
                    if (k > 0 && !(in.v[k] > in.v[k - 1])) fail(cw + ": key times are not strictly increasing");
                    c.times.push_back(float(in.v[k]));
                }
                for (size_t k = 0; k < outv.count; ++k) {
                    glm::vec4 v(0.0f);
                    for (int q = 0; q < comps; ++q) v[q] = float(outv.v[k * size_t(comps) + size_t(q)]);
                    c.values.push_back(v);
                }
                out.channels.push_back(std::move(c));
            }
            s_.animations.push_back(std::move(out));
        }
    }
};

bool noImageLoader(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                   void*) {
    return true;  // images are not needed (no textures are rendered)
}

std::string baseDirOf(const std::string& path) {
    size_t p = path.find_last_of('/');
    return p == std::string::npos ? std::string(".") : path.substr(0, p);
}

}  // namespace

std::string loadGltfSceneFromMemory(const std::vector<uint8_t>& bytes, const std::string& name,
                                    const std::string& base_dir, Scene& out) {
    out = Scene{};
    const std::string prefix = name + ": ";
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    const bool glb_name = name.size() >= 4 && name.compare(name.size() - 4, 4, ".glb") == 0;
    if (glb_name && !binary) return prefix + "not a glTF binary (wrong magic; expected \"glTF\")";
    if (bytes.empty()) return prefix + "empty file";
    if (bytes.size() > 0xFFFFFFF0ull) return prefix + "file too large";
    if (binary) {
        if (bytes.size() < 20) return prefix + "truncated glTF binary (" + std::to_string(bytes.size()) + " bytes)";
        uint32_t version, length, json_len, json_type;
        std::memcpy(&version, bytes.data() + 4, 4);
        std::memcpy(&length, bytes.data() + 8, 4);
        std::memcpy(&json_len, bytes.data() + 12, 4);
        std::memcpy(&json_type, bytes.data() + 16, 4);
        if (version != 2) return prefix + "unsupported glTF binary version " + std::to_string(version);
        if (length > bytes.size())
            return prefix + "truncated glTF binary: header says " + std::to_string(length) + " bytes, file has " +
                   std::to_string(bytes.size());
        if (json_type != 0x4E4F534Au) return prefix + "first chunk is not JSON";
        if (uint64_t(json_len) + 20 > length) return prefix + "truncated glTF binary: JSON chunk exceeds the file";
        uint64_t bin_at = 20ull + json_len;
        if (bin_at + 8 <= length) {
            uint32_t bin_len;
            std::memcpy(&bin_len, bytes.data() + bin_at, 4);
            if (bin_at + 8 + bin_len > length) return prefix + "truncated glTF binary: BIN chunk exceeds the file";
        }
    }
    tinygltf::Model model;
    std::string err, warn;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(noImageLoader, nullptr);
    loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
    bool ok = false;
    try {
        if (binary)
            ok = loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(bytes.size()), base_dir);
        else
            ok = loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                            unsigned(bytes.size()), base_dir);
    } catch (const std::exception& e) {
        return prefix + "glTF parse error: " + e.what();
    }
    // tinygltf 2.7 reports a skin without inverseBindMatrices in `err` but
    // still succeeds; the spec says identity, so only the result counts.
    if (!ok) {
        while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
        return prefix + (err.empty() ? std::string("invalid glTF") : err);
    }
    try {
        Converter(model, out).run();
    } catch (const LoadError& e) {
        out = Scene{};
        return prefix + e.what();
    } catch (const std::exception& e) {
        out = Scene{};
        return prefix + "error: " + e.what();
    }
    return {};
}

std::string loadGltfScene(const std::string& path, Scene& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return path + ": cannot open file";
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (f.bad()) return path + ": read error";
    return loadGltfSceneFromMemory(bytes, path, baseDirOf(path), out);
}

}  // namespace engine

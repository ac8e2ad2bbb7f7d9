// glTF 2.0 → engine::Scene. tinygltf parses the JSON and the buffers; every
// index, offset and count is validated here before any buffer is read, sparse
// accessors are applied here, and the msxpbd extras schema
// (docs/scene-format.md) is interpreted here. Every bound applied is listed in
// engine/gltf/gltf_input.h and docs/scene-format.md ("Limits"): the JSON is scanned
// for depth before any recursive parser sees it, tinygltf reads files only
// through the callbacks below (buffers inside the scene's folder; images are
// read by the converter, inside the folder too, and decoded only when a drawn
// material uses them), and every decoded array counts against a per-file
// budget.
#include "engine/gltf/gltf_loader.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <new>
#include <sstream>
#include <stdexcept>

#include <tiny_gltf.h>
#include <nlohmann/json.hpp>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/gltf/gltf_input.h"
#include "engine/gltf/image_decode.h"
#include "sim/mesh_topology.h"
#include "sim/printable.h"

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
namespace lim = gltf_limits;

std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}
std::string fmtVec(const std::vector<double>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + fmt(v[i]);
    return s + "]";
}

// The per-file budget of decoded bytes (docs/scene-format.md, "Limits"):
// charged before each allocation sized from the file, never refunded, so a
// sampler shared by many channels is counted each time it is read.
struct Budget {
    uint64_t total = 0, left = 0;
    void charge(uint64_t bytes, const std::string& where) {
        if (bytes > left)
            fail(where + ": decoded data would exceed the file's budget of " + std::to_string(total >> 20) +
                 " MiB (64 MiB + 16 bytes per byte of input; docs/scene-format.md, Limits)");
        left -= bytes;
    }
};

// A number as the float it becomes: finite after conversion.
bool finiteFloat(double d) { return std::isfinite(d) && std::isfinite(float(d)); }

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

AccessorData readAccessor(const tinygltf::Model& m, int index, const std::string& what, Budget& budget) {
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
    if (a.count > lim::kMaxAccessorElements)
        fail(where + ": count " + std::to_string(a.count) + " exceeds the limit of " +
             std::to_string(lim::kMaxAccessorElements) + " elements");
    // Every byte range is checked (64-bit: count ≤ 2^24, stride < 2^31)
    // before anything is allocated.
    const uint64_t elem = uint64_t(cs) * uint64_t(nc);
    const unsigned char* base = nullptr;
    size_t stride = size_t(elem);
    if (a.bufferView >= 0) {
        size_t len = 0;
        base = viewBytes(m, a.bufferView, where, &len);
        const tinygltf::BufferView& view = m.bufferViews[size_t(a.bufferView)];
        int stride_i = a.ByteStride(view);
        if (stride_i <= 0) fail(where + ": invalid byteStride " + std::to_string(view.byteStride));
        stride = size_t(stride_i);
        if (stride < elem) fail(where + ": byteStride " + std::to_string(stride) + " smaller than the element");
        if (a.byteOffset > len)
            fail(where + ": byteOffset " + std::to_string(a.byteOffset) + " out of range of bufferView " +
                 std::to_string(a.bufferView) + " (" + std::to_string(len) + " bytes)");
        if (a.count > 0) {
            const uint64_t need = uint64_t(a.byteOffset) + uint64_t(stride) * (uint64_t(a.count) - 1) + elem;
            if (need > len)
                fail(where + ": out of range: needs " + std::to_string(need) + " bytes, bufferView " +
                     std::to_string(a.bufferView) + " has " + std::to_string(len));
        }
    }
    const unsigned char* ib = nullptr;
    const unsigned char* vb = nullptr;
    int ics = 0;
    if (a.sparse.isSparse) {
        const auto& sp = a.sparse;
        if (sp.count < 1 || uint64_t(sp.count) > a.count)
            fail(where + ": sparse count " + std::to_string(sp.count) + " out of range");
        ics = componentSize(sp.indices.componentType);
        if (sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            fail(where + ": sparse indices componentType must be unsigned");
        if (sp.indices.byteOffset < 0 || sp.values.byteOffset < 0) fail(where + ": negative sparse byteOffset");
        size_t ilen = 0, vlen = 0;
        ib = viewBytes(m, sp.indices.bufferView, where + " sparse indices", &ilen);
        vb = viewBytes(m, sp.values.bufferView, where + " sparse values", &vlen);
        const uint64_t ineed = uint64_t(sp.indices.byteOffset) + uint64_t(ics) * uint64_t(sp.count);
        const uint64_t vneed = uint64_t(sp.values.byteOffset) + elem * uint64_t(sp.count);
        if (ineed > ilen) fail(where + ": sparse indices out of range of their bufferView");
        if (vneed > vlen) fail(where + ": sparse values out of range of their bufferView");
    }
    budget.charge(uint64_t(a.count) * uint64_t(nc) * sizeof(double), where);
    AccessorData out;
    out.count = a.count;
    out.comps = nc;
    out.component_type = a.componentType;
    out.v.assign(a.count * size_t(nc), 0.0);
    if (base) {
        for (size_t i = 0; i < a.count; ++i) {
            const unsigned char* p = base + a.byteOffset + i * stride;
            for (int c = 0; c < nc; ++c) out.v[i * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    if (a.sparse.isSparse) {
        const auto& sp = a.sparse;
        for (int k = 0; k < sp.count; ++k) {
            double di = readComponent(ib + sp.indices.byteOffset + size_t(k) * size_t(ics), sp.indices.componentType, false);
            size_t target = size_t(di);
            if (target >= a.count)
                fail(where + ": sparse index " + std::to_string(target) + " out of range (count " +
                     std::to_string(a.count) + ")");
            const unsigned char* p = vb + sp.values.byteOffset + size_t(k) * size_t(elem);
            for (int c = 0; c < nc; ++c)
                out.v[target * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    for (size_t i = 0; i < out.v.size(); ++i)
        if (!std::isfinite(out.v[i]))
            fail(where + ": element " + std::to_string(i / size_t(nc)) + " is not finite (" + fmt(out.v[i]) + ")");
    return out;
}

void requireComps(const AccessorData& d, int comps, const std::string& what) {
    if (d.comps != comps)
        fail(what + ": expected " + std::to_string(comps) + " components per element, got " + std::to_string(d.comps));
}

// ---------------------------------------------------------------- extras

json parseExtras(const std::string& s, const std::string& where) {
    if (s.empty()) return json::object();
    if (std::string e = gltf_input::checkJsonBounds(s); !e.empty()) fail(where + ": extras: " + e);
    json j;
    if (std::string e = gltf_input::parseJson(s, j); !e.empty()) fail(where + ": extras are " + e);
    return j;
}

// The value of `key` in `extras`: an object, or a string holding a JSON object
// (Blender custom properties are easiest to edit as strings).
json schemaObject(const json& extras, const char* key, const std::string& where) {
    if (!extras.is_object() || !extras.contains(key)) return json();
    json v = extras.at(key);
    if (v.is_string()) {
        if (std::string e = gltf_input::checkJsonBounds(v.get_ref<const std::string&>()); !e.empty())
            fail(where + ": extras." + key + ": " + e);
        json p;
        if (std::string e = gltf_input::parseJson(v.get_ref<const std::string&>(), p); !e.empty())
            fail(where + ": extras." + key + " is a string but " + e);
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
    if (!finiteFloat(d)) fail(where + ": '" + key + "' = " + fmt(d) + " must be finite (as a 32-bit float)");
    return d;
}

// A number in [lo, hi] (and, for a physical quantity with lo > 0, not denormal
// as a float: lo is far above FLT_MIN).
double getBounded(const json& o, const char* key, double def, double lo, double hi, const std::string& where) {
    const double d = getNumber(o, key, def, where);
    if (!(d >= lo && d <= hi))
        fail(where + ": '" + key + "' = " + fmt(d) + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]");
    return d;
}

// Three numbers, each |x| ≤ bound (default: the coordinate bound, metres).
glm::vec3 getVec3(const json& v, const std::string& where, double bound = lim::kMaxCoordinate) {
    if (!v.is_array() || v.size() != 3) fail(where + " must be an array of 3 numbers");
    glm::vec3 r;
    for (int i = 0; i < 3; ++i) {
        if (!v[size_t(i)].is_number()) fail(where + " must be an array of 3 numbers");
        double d = v[size_t(i)].get<double>();
        if (!finiteFloat(d)) fail(where + " must be finite (as a 32-bit float), got " + fmt(d));
        if (std::fabs(d) > bound) fail(where + ": " + fmt(d) + " is out of range (|x| <= " + fmt(bound) + ")");
        r[i] = float(d);
    }
    return r;
}

// A direction: bounded components, length well above zero; returned unit.
glm::vec3 getDirection(const json& v, const std::string& where) {
    glm::vec3 d = getVec3(v, where);
    const float l = glm::length(d);
    if (!(l >= 1e-6f)) fail(where + " must not be zero");
    return d / l;
}

// An array with at most `max` entries.
void requireArrayAtMost(const json& a, size_t max, const std::string& where) {
    if (a.is_array() && a.size() > max)
        fail(where + " has " + std::to_string(a.size()) + " entries; the limit is " + std::to_string(max));
}

std::string getName(const json& v, const std::string& where) {
    if (!v.is_string()) fail(where + " must be a string (a node name)");
    return v.get<std::string>();
}

// ---------------------------------------------------------------- geometry

struct Geometry {
    std::vector<glm::vec3> positions, normals;
    std::vector<uint32_t> indices;
    std::vector<glm::uvec4> joints;   // `sets` per vertex
    std::vector<glm::vec4> weights;
    int sets = 0;
    std::vector<glm::vec2> uvs;       // base colour texture coordinates (render primitives only)
    std::vector<std::vector<glm::vec3>> targets;  // morph target position offsets (render primitives only)
    glm::vec3 color{0.85f, 0.82f, 0.75f};
    float alpha = 1.0f;   // baseColorFactor alpha (BLEND only; 1 otherwise)
    bool blend = false;   // alphaMode BLEND: drawn translucent
    bool cut = false;     // alphaMode MASK with alpha below alphaCutoff: nothing is drawn
    float alpha_cutoff = -1.0f;  // MASK with a texture: per texel
    int texture = -1;     // the file's texture index of baseColorTexture
    bool has_normals = true;
    bool drawn = false;   // a triangle primitive (points and lines are skipped)
};

// What readPrimitive reads beyond positions and triangles.
struct PrimitiveReads {
    bool skinned = false;
    bool render = false;  // texture coordinates and morph targets (drawn meshes only)
};

const char* modeName(int mode) {
    switch (mode) {
        case TINYGLTF_MODE_POINTS: return "POINTS";
        case TINYGLTF_MODE_LINE: return "LINES";
        case TINYGLTF_MODE_LINE_LOOP: return "LINE_LOOP";
        case 3: return "LINE_STRIP";
        case TINYGLTF_MODE_TRIANGLE_STRIP: return "TRIANGLE_STRIP";
        case TINYGLTF_MODE_TRIANGLE_FAN: return "TRIANGLE_FAN";
        default: return "TRIANGLES";
    }
}

// The material of a primitive: colour, how it is drawn (docs/scene-format.md,
// "Translucent meshes": OPAQUE ignores alpha, MASK with a constant colour is
// all kept or all cut (alpha against alphaCutoff), BLEND is drawn
// translucent) and its base colour texture.
void readMaterial(const tinygltf::Model& m, int material, Geometry& g) {
    if (material < 0 || size_t(material) >= m.materials.size()) return;
    const tinygltf::Material& mat = m.materials[size_t(material)];
    const auto& f = mat.pbrMetallicRoughness.baseColorFactor;
    if (f.size() >= 3 && finiteFloat(f[0]) && finiteFloat(f[1]) && finiteFloat(f[2]))
        g.color = glm::clamp(glm::vec3(float(f[0]), float(f[1]), float(f[2])), 0.0f, 1.0f);
    const float a = f.size() >= 4 && std::isfinite(f[3]) ? float(std::clamp(f[3], 0.0, 1.0)) : 1.0f;
    const double cutoff = std::isfinite(mat.alphaCutoff) ? mat.alphaCutoff : 0.5;
    g.texture = mat.pbrMetallicRoughness.baseColorTexture.index;
    if (mat.alphaMode == "BLEND") {
        g.blend = true;
        g.alpha = a;
    } else if (mat.alphaMode == "MASK") {
        g.cut = !(double(a) >= cutoff);
        if (g.texture >= 0) g.alpha_cutoff = float(std::clamp(cutoff / std::max(double(a), 1e-6), 0.0, 2.0));
    }
}

// One primitive: positions, normals, triangles (strips and fans converted),
// skin influences (every JOINTS_n/WEIGHTS_n set) and, for drawn meshes, the
// base colour texture coordinates and the morph targets. Points and lines
// come back with drawn = false and a warning.
Geometry readPrimitive(const tinygltf::Model& m, int mesh_index, size_t pi, PrimitiveReads reads,
                       const std::string& where, Budget& budget, std::vector<std::string>& warnings) {
    const tinygltf::Mesh& mesh = m.meshes[size_t(mesh_index)];
    const tinygltf::Primitive& prim = mesh.primitives[pi];
    const std::string pw = where + ", mesh " + std::to_string(mesh_index) + " primitive " + std::to_string(pi);
    Geometry g;
    const int mode = prim.mode == -1 ? TINYGLTF_MODE_TRIANGLES : prim.mode;
    if (mode < TINYGLTF_MODE_POINTS || mode > TINYGLTF_MODE_TRIANGLE_FAN) {
        warnings.push_back(pw + ": unknown mode " + std::to_string(mode) + ": skipped (not drawn)");
        return g;
    }
    if (mode < TINYGLTF_MODE_TRIANGLES) {
        warnings.push_back(pw + ": mode " + modeName(mode) +
                           " is skipped: msxpbd draws and simulates triangles only (points and lines are not drawn)");
        return g;
    }
    auto it = prim.attributes.find("POSITION");
    if (it == prim.attributes.end()) fail(pw + ": no POSITION attribute");
    AccessorData pos = readAccessor(m, it->second, pw + " POSITION", budget);
    requireComps(pos, 3, pw + " POSITION");
    for (size_t i = 0; i < pos.v.size(); ++i)
        if (!(std::fabs(pos.v[i]) <= lim::kMaxCoordinate))
            fail(pw + " POSITION: vertex " + std::to_string(i / 3) + " coordinate " + fmt(pos.v[i]) +
                 " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
    for (size_t i = 0; i < pos.count; ++i) g.positions.emplace_back(pos.v[3 * i], pos.v[3 * i + 1], pos.v[3 * i + 2]);
    auto nit = prim.attributes.find("NORMAL");
    if (nit != prim.attributes.end()) {
        AccessorData n = readAccessor(m, nit->second, pw + " NORMAL", budget);
        requireComps(n, 3, pw + " NORMAL");
        if (n.count != pos.count) fail(pw + ": NORMAL count differs from POSITION count");
        for (size_t i = 0; i < n.count; ++i) g.normals.emplace_back(n.v[3 * i], n.v[3 * i + 1], n.v[3 * i + 2]);
    } else {
        g.has_normals = false;
        g.normals.resize(g.positions.size(), glm::vec3(0.0f));
    }
    if (reads.skinned) {
        // Every JOINTS_n/WEIGHTS_n pair, n = 0, 1, ... (glTF 2.0, 3.7.3.3).
        for (int set = 0;; ++set) {
            const std::string js = "JOINTS_" + std::to_string(set), ws = "WEIGHTS_" + std::to_string(set);
            auto jit = prim.attributes.find(js);
            auto wit = prim.attributes.find(ws);
            if (jit == prim.attributes.end() && wit == prim.attributes.end()) {
                if (set == 0) fail(pw + ": skinned mesh without JOINTS_0/WEIGHTS_0");
                break;
            }
            if (jit == prim.attributes.end() || wit == prim.attributes.end())
                fail(pw + ": " + (jit == prim.attributes.end() ? ws + " without " + js : js + " without " + ws));
            if (set >= int(lim::kMaxInfluenceSets))
                fail(pw + ": more than " + std::to_string(lim::kMaxInfluenceSets) + " JOINTS_n/WEIGHTS_n sets (" +
                     std::to_string(4 * lim::kMaxInfluenceSets) + " influences per vertex)");
            AccessorData j = readAccessor(m, jit->second, pw + " " + js, budget);
            AccessorData w = readAccessor(m, wit->second, pw + " " + ws, budget);
            requireComps(j, 4, pw + " " + js);
            requireComps(w, 4, pw + " " + ws);
            if (j.count != pos.count || w.count != pos.count) fail(pw + ": " + js + "/" + ws + " count differs from POSITION");
            if (j.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT) fail(pw + " " + js + ": must be an integer type");
            budget.charge(uint64_t(pos.count) * (sizeof(glm::uvec4) + sizeof(glm::vec4)), pw + " " + js);
            g.sets = set + 1;
            std::vector<glm::uvec4> joints;
            std::vector<glm::vec4> weights;
            joints.reserve(g.positions.size() * size_t(g.sets));
            weights.reserve(g.positions.size() * size_t(g.sets));
            for (size_t i = 0; i < pos.count; ++i) {
                for (int s = 0; s < set; ++s) {
                    joints.push_back(g.joints[i * size_t(set) + size_t(s)]);
                    weights.push_back(g.weights[i * size_t(set) + size_t(s)]);
                }
                glm::uvec4 ji;
                for (int c = 0; c < 4; ++c) {
                    double d = j.v[4 * i + size_t(c)];
                    if (d < 0 || d > 65535) fail(pw + " " + js + ": joint index out of range");
                    ji[c] = uint32_t(d);
                }
                joints.push_back(ji);
                weights.emplace_back(w.v[4 * i], w.v[4 * i + 1], w.v[4 * i + 2], w.v[4 * i + 3]);
            }
            g.joints = std::move(joints);
            g.weights = std::move(weights);
        }
        // The weights of a vertex sum to 1 (glTF 2.0, 3.7.3.3); a file whose
        // do not (rounded 8-bit weights, a lost set) is renormalised, so a
        // vertex never shrinks toward the origin.
        const size_t sets = size_t(g.sets);
        size_t unweighted = 0;
        for (size_t v = 0; v < g.positions.size(); ++v) {
            double sum = 0.0;
            for (size_t s = 0; s < sets; ++s)
                for (int c = 0; c < 4; ++c) sum += std::max(0.0f, g.weights[v * sets + s][c]);
            if (!(sum > 0.0)) {
                ++unweighted;
                continue;
            }
            if (std::fabs(sum - 1.0) > 1e-3)
                for (size_t s = 0; s < sets; ++s) g.weights[v * sets + s] = glm::max(g.weights[v * sets + s], 0.0f) / float(sum);
        }
        if (unweighted > 0)
            warnings.push_back(pw + ": " + std::to_string(unweighted) +
                               " vertices have no skin weight (they are drawn at the skeleton's origin)");
    }
    if (reads.render) {
        // Morph targets: position offsets per vertex (normals are recomputed
        // from the posed triangles anyway).
        if (prim.targets.size() > lim::kMaxMorphTargets)
            fail(pw + ": " + std::to_string(prim.targets.size()) + " morph targets; the limit is " +
                 std::to_string(lim::kMaxMorphTargets));
        for (size_t t = 0; t < prim.targets.size(); ++t) {
            std::vector<glm::vec3> d;
            auto tp = prim.targets[t].find("POSITION");
            if (tp != prim.targets[t].end()) {
                const std::string tw = pw + " morph target " + std::to_string(t) + " POSITION";
                AccessorData a = readAccessor(m, tp->second, tw, budget);
                requireComps(a, 3, tw);
                if (a.count != pos.count) fail(tw + ": count differs from POSITION count");
                for (size_t i = 0; i < a.v.size(); ++i)
                    if (!(std::fabs(a.v[i]) <= lim::kMaxCoordinate))
                        fail(tw + ": offset " + fmt(a.v[i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
                d.reserve(a.count);
                for (size_t i = 0; i < a.count; ++i) d.emplace_back(a.v[3 * i], a.v[3 * i + 1], a.v[3 * i + 2]);
            } else {
                budget.charge(uint64_t(pos.count) * sizeof(glm::vec3), pw + " morph target " + std::to_string(t));
                d.assign(pos.count, glm::vec3(0.0f));
            }
            g.targets.push_back(std::move(d));
        }
    }
    readMaterial(m, prim.material, g);
    if (reads.render && g.texture >= 0) {
        // The texture's coordinate set (texCoord, or KHR_texture_transform's
        // override) with the transform applied.
        const tinygltf::TextureInfo& ti = m.materials[size_t(prim.material)].pbrMetallicRoughness.baseColorTexture;
        int set = ti.texCoord;
        glm::vec2 offset(0.0f), scale(1.0f);
        float rotation = 0.0f;
        auto ext = ti.extensions.find("KHR_texture_transform");
        if (ext != ti.extensions.end() && ext->second.IsObject()) {
            const tinygltf::Value& x = ext->second;
            auto num = [](const tinygltf::Value& v, double def) {
                const double d = v.IsNumber() ? v.GetNumberAsDouble() : def;
                return finiteFloat(d) && std::fabs(d) <= lim::kMaxCoordinate ? float(d) : float(def);
            };
            auto pair = [&](const char* key, glm::vec2 def) {
                const tinygltf::Value& v = x.Get(key);
                if (!v.IsArray() || v.ArrayLen() != 2) return def;
                return glm::vec2(num(v.Get(0), def.x), num(v.Get(1), def.y));
            };
            offset = pair("offset", offset);
            scale = pair("scale", scale);
            rotation = num(x.Get("rotation"), 0.0);
            if (x.Get("texCoord").IsInt()) set = x.Get("texCoord").GetNumberAsInt();
        }
        auto uvit = prim.attributes.find("TEXCOORD_" + std::to_string(set));
        if (set < 0 || set > 15 || uvit == prim.attributes.end()) {
            warnings.push_back(pw + ": the base colour texture uses TEXCOORD_" + std::to_string(set) +
                               ", which the primitive lacks: drawn without the texture");
            g.texture = -1;
        } else {
            const std::string uw = pw + " TEXCOORD_" + std::to_string(set);
            AccessorData uv = readAccessor(m, uvit->second, uw, budget);
            requireComps(uv, 2, uw);
            if (uv.count != pos.count) fail(uw + ": count differs from POSITION count");
            const float c = std::cos(rotation), sn = std::sin(rotation);
            for (size_t i = 0; i < uv.count; ++i) {
                const float u = float(uv.v[2 * i]), v = float(uv.v[2 * i + 1]);
                // KHR_texture_transform: T · R · S (rotation counter-clockwise in UV space).
                const float su = scale.x * u, sv = scale.y * v;
                glm::vec2 r(c * su + sn * sv + offset.x, -sn * su + c * sv + offset.y);
                if (!std::isfinite(r.x) || !std::isfinite(r.y) || std::fabs(r.x) > 1e6f || std::fabs(r.y) > 1e6f)
                    r = glm::vec2(0.0f);
                g.uvs.push_back(r);
            }
        }
    }
    // Triangles: the vertex order of the primitive, as listed or implied.
    std::vector<uint32_t> order;
    if (prim.indices >= 0) {
        AccessorData idx = readAccessor(m, prim.indices, pw + " indices", budget);
        requireComps(idx, 1, pw + " indices");
        if (idx.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT || idx.component_type == TINYGLTF_COMPONENT_TYPE_BYTE ||
            idx.component_type == TINYGLTF_COMPONENT_TYPE_SHORT)
            fail(pw + " indices: componentType must be an unsigned integer type");
        if (mode == TINYGLTF_MODE_TRIANGLES && idx.count % 3 != 0) fail(pw + " indices: count is not a multiple of 3");
        order.reserve(idx.count);
        for (double d : idx.v) {
            if (d >= double(pos.count))
                fail(pw + " indices: vertex index " + std::to_string(uint64_t(d)) + " out of range (" +
                     std::to_string(pos.count) + " vertices)");
            order.push_back(uint32_t(d));
        }
    } else {
        if (mode == TINYGLTF_MODE_TRIANGLES && pos.count % 3 != 0)
            fail(pw + ": non-indexed triangle count is not a multiple of 3");
        order.resize(pos.count);
        for (size_t i = 0; i < pos.count; ++i) order[i] = uint32_t(i);
    }
    if (mode == TINYGLTF_MODE_TRIANGLES) {
        g.indices = std::move(order);
    } else {
        // glTF 2.0, 3.7.2.1: strip triangle i is (v_i, v_{i+1+i%2}, v_{i+2−i%2}),
        // fan triangle i is (v_{i+1}, v_{i+2}, v_0); degenerate ones (strip
        // restarts) draw nothing and are dropped.
        const bool strip = mode == TINYGLTF_MODE_TRIANGLE_STRIP;
        for (size_t i = 0; i + 2 < order.size(); ++i) {
            uint32_t a, b, c;
            if (strip) {
                a = order[i];
                b = order[i + 1 + i % 2];
                c = order[i + 2 - i % 2];
            } else {
                a = order[i + 1];
                b = order[i + 2];
                c = order[0];
            }
            if (a == b || b == c || a == c) continue;
            g.indices.insert(g.indices.end(), {a, b, c});
        }
    }
    g.drawn = true;
    return g;
}

// Area-weighted vertex normals where the file gives none.
void computeMissingNormals(Geometry& g) {
    if (g.has_normals) return;
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

// Every triangle primitive of a mesh as one geometry (muscles and bone
// bodies): the first primitive with a material decides its colour.
Geometry readMesh(const tinygltf::Model& m, int mesh_index, bool skinned, const std::string& where, Budget& budget,
                  std::vector<std::string>& warnings) {
    if (mesh_index < 0 || size_t(mesh_index) >= m.meshes.size())
        fail(where + ": mesh " + std::to_string(mesh_index) + " out of range");
    const tinygltf::Mesh& mesh = m.meshes[size_t(mesh_index)];
    Geometry g;
    bool color_set = false;
    for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
        Geometry p = readPrimitive(m, mesh_index, pi, {skinned, false}, where, budget, warnings);
        if (!p.drawn) continue;
        const size_t base = g.positions.size();
        if (base + p.positions.size() > lim::kMaxAccessorElements)
            fail(where + ", mesh " + std::to_string(mesh_index) + " primitive " + std::to_string(pi) +
                 ": too many vertices");
        g.positions.insert(g.positions.end(), p.positions.begin(), p.positions.end());
        g.normals.insert(g.normals.end(), p.normals.begin(), p.normals.end());
        g.has_normals = g.has_normals && p.has_normals;
        for (uint32_t i : p.indices) g.indices.push_back(uint32_t(base + i));
        if (!color_set && mesh.primitives[pi].material >= 0 &&
            size_t(mesh.primitives[pi].material) < m.materials.size()) {
            g.color = p.color;
            g.alpha = p.alpha;
            g.blend = p.blend;
            g.cut = p.cut;
            color_set = true;
        }
        g.drawn = true;
    }
    computeMissingNormals(g);
    return g;
}

// A vertex named by its position: the welded vertex within 10 µm of a point
// (a hashed grid of 10 µm cells, so a set costs O(points), not O(points ×
// vertices)).
class PositionIndex {
public:
    static constexpr float kTolerance = 1e-5f;  // m
    struct Match {
        bool found = false;
        uint32_t index = 0;
        float distance = std::numeric_limits<float>::infinity();
    };
    explicit PositionIndex(const std::vector<glm::vec3>& p) : p_(p) {
        for (uint32_t i = 0; i < p.size(); ++i) cells_[key(cell(p[i]))].push_back(i);
    }
    Match nearest(glm::vec3 q) const {
        Match m;
        if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) return m;
        const glm::ivec3 c = cell(q);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    auto it = cells_.find(key(c + glm::ivec3(dx, dy, dz)));
                    if (it == cells_.end()) continue;
                    for (uint32_t i : it->second) {
                        const float d = glm::length(p_[i] - q);
                        if (d < m.distance || (d == m.distance && i < m.index)) m = {d <= kTolerance, i, d};
                    }
                }
        if (!m.found) {  // for the message: how far the nearest vertex is
            for (const glm::vec3& x : p_) m.distance = std::min(m.distance, glm::length(x - q));
        }
        return m;
    }

private:
    static glm::ivec3 cell(glm::vec3 x) {
        auto c = [](float v) { return int(std::clamp(std::floor(v / kTolerance), -2.0e9f, 2.0e9f)); };
        return {c(x.x), c(x.y), c(x.z)};
    }
    static uint64_t key(glm::ivec3 c) {
        return (uint64_t(uint32_t(c.x)) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(uint32_t(c.y)) * 0xC2B2AE3D27D4EB4Full) ^
               (uint64_t(uint32_t(c.z)) * 0x165667B19E3779F9ull);
    }
    const std::vector<glm::vec3>& p_;
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
};

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

// A node's local transform, refused when it is not finite as floats, places
// anything beyond the coordinate bound, or is singular (docs/scene-format.md,
// "Limits").
glm::mat4 nodeLocal(const tinygltf::Node& n, const std::string& where, Joint& j) {
    auto finite = [&](const std::vector<double>& v, const char* what) {
        for (double d : v)
            if (!finiteFloat(d)) fail(where + ": " + what + " " + fmtVec(v) + " is not finite (as 32-bit floats)");
    };
    finite(n.matrix, "matrix");
    finite(n.translation, "translation");
    finite(n.rotation, "rotation");
    finite(n.scale, "scale");
    auto checkTranslation = [&](glm::vec3 t, const char* what) {
        for (int i = 0; i < 3; ++i)
            if (!(std::fabs(t[i]) <= lim::kMaxCoordinate))
                fail(where + ": " + what + " " + fmt(t[i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) +
                     " m)");
    };
    auto checkScale = [&](glm::vec3 s, const std::string& what) {
        for (int i = 0; i < 3; ++i)
            if (!(std::fabs(s[i]) >= lim::kMinScale && std::fabs(s[i]) <= lim::kMaxScale))
                fail(where + ": " + what + " " + fmt(s[i]) + " makes the transform singular or extreme (|s| must be in [" +
                     fmt(lim::kMinScale) + ", " + fmt(lim::kMaxScale) + "])");
    };
    if (!n.matrix.empty()) {
        if (n.matrix.size() != 16) fail(where + ": matrix must have 16 numbers");
        glm::mat4 m;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) m[c][r] = float(n.matrix[size_t(c * 4 + r)]);
        const double det = glm::determinant(glm::dmat3(glm::mat3(m)));
        if (!(std::fabs(det) >= lim::kMinDeterminant))
            fail(where + ": matrix is singular (determinant " + fmt(det) + " of its 3x3 part)");
        checkTranslation(glm::vec3(m[3]), "matrix translation");
        j.translation = glm::vec3(m[3]);
        glm::vec3 s(glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2])));
        checkScale(s, "matrix column length");
        if (det < 0.0) s.x = -s.x;
        glm::mat3 r(glm::vec3(m[0]) / s.x, glm::vec3(m[1]) / s.y, glm::vec3(m[2]) / s.z);
        j.rotation = glm::normalize(glm::quat_cast(r));
        j.scale = s;
    } else {
        if (!n.translation.empty()) {
            if (n.translation.size() != 3) fail(where + ": translation must have 3 numbers");
            j.translation = glm::vec3(float(n.translation[0]), float(n.translation[1]), float(n.translation[2]));
            checkTranslation(j.translation, "translation");
        }
        if (!n.rotation.empty()) {
            if (n.rotation.size() != 4) fail(where + ": rotation must have 4 numbers");
            glm::quat q(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
            float l = glm::length(q);
            if (!(std::fabs(l - 1.0f) <= lim::kQuaternionTolerance))
                fail(where + ": rotation " + fmtVec(n.rotation) + " is not a unit quaternion (length " + fmt(l) + ")");
            j.rotation = q / l;
        }
        if (!n.scale.empty()) {
            if (n.scale.size() != 3) fail(where + ": scale must have 3 numbers");
            j.scale = glm::vec3(float(n.scale[0]), float(n.scale[1]), float(n.scale[2]));
            checkScale(j.scale, "scale");
        }
    }
    return composeTRS(j.translation, j.rotation, j.scale);
}

// A node's rest world transform: finite, translation within the coordinate
// bound, 3×3 entries and determinant within the scale bounds.
void checkGlobal(const glm::mat4& g, const std::string& where) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(g[c][r])) fail(where + ": world transform is not finite");
    for (int i = 0; i < 3; ++i)
        if (!(std::fabs(g[3][i]) <= lim::kMaxCoordinate))
            fail(where + ": world position " + fmt(g[3][i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) +
                 " m)");
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (!(std::fabs(g[c][r]) <= lim::kMaxScale))
                fail(where + ": world transform scales by more than " + fmt(lim::kMaxScale));
    const double det = glm::determinant(glm::dmat3(glm::mat3(g)));
    if (!(std::fabs(det) >= lim::kMinDeterminant))
        fail(where + ": world transform is singular (determinant " + fmt(det) + ")");
}

// Mesh vertices placed by a rest world transform stay within the coordinate bound.
void checkWorld(const std::vector<glm::vec3>& local, const glm::mat4& G, const std::string& where) {
    for (size_t i = 0; i < local.size(); ++i) {
        const glm::vec3 q = glm::vec3(G * glm::vec4(local[i], 1.0f));
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(q[k]) <= lim::kMaxCoordinate))
                fail(where + ": vertex " + std::to_string(i) + " lies at " + fmt(q[k]) +
                     " in the world, out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
    }
}

// ---------------------------------------------------------------- the model

class Converter {
public:
    // `base_dir`: where external images are read from (inside it only);
    // `external_room`: how many bytes they may take together.
    Converter(const tinygltf::Model& m, Scene& s, uint64_t budget, std::string base_dir, uint64_t external_room)
        : m_(m), s_(s), base_dir_(std::move(base_dir)), external_room_(external_room) {
        budget_.total = budget_.left = budget;
    }

    void run() {
        buildSkeleton();
        readSceneExtras();
        collectMuscles();
        readMuscles();
        readRenderMeshes();
        readAnimations();
        finishWarnings();
    }

private:
    const tinygltf::Model& m_;
    Scene& s_;
    Budget budget_;
    std::vector<int> node_joint_;   // glTF node → skeleton joint (−1: not in the scene)
    std::vector<glm::mat4> rest_global_;  // per skeleton joint
    std::vector<json> node_extras_;
    std::vector<int> muscle_nodes_;
    std::map<std::string, int> muscle_by_name_;
    std::map<int, int> body_of_joint_;
    glm::mat4 muscle_global_{1.0f};  // the rest transform of the muscle being read (marker vertex sets)
    std::string base_dir_;
    uint64_t external_room_ = 0;
    std::map<int, int> texture_of_;  // the file's texture → Scene::textures (−1: not drawable)
    std::vector<std::string> warnings_;

    // Duplicates dropped (a mesh read by several nodes warns once), at most
    // kMaxWarnings kept.
    void finishWarnings() {
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
            checkGlobal(rest_global_.back(), nodeName(m_, ni));
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

    void collectMuscles() {
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
        if (!shaped && node.mesh >= 0 && node.skin < 0) {
            Geometry g = readMesh(m_, node.mesh, false, where, budget_, warnings_);
            std::vector<glm::vec3> welded;
            std::vector<uint32_t> map = weld(g.positions, welded);
            checkWorld(welded, b.transform, where + " body mesh");
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

    std::vector<std::vector<uint32_t>> vertexSets(const json& o, const char* key, const std::vector<uint32_t>& map,
                                                  const std::vector<glm::vec3>& local, const std::string& where) {
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

    std::vector<sim::TargetDesc> targets(const json& o, const char* key, int self, const std::string& where) {
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

    void readMuscles() {
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

    // The image bytes of a file's image: a bufferView, a data: URI (kept by
    // the image callback) or a file inside the scene's folder.
    std::string imageBytes(int image, std::vector<uint8_t>& own, std::span<const uint8_t>& bytes) {
        const tinygltf::Image& im = m_.images[size_t(image)];
        if (im.bufferView >= 0) {
            size_t len = 0;
            const unsigned char* p = viewBytes(m_, im.bufferView, "image " + std::to_string(image), &len);
            bytes = std::span<const uint8_t>(p, len);
            return {};
        }
        if (im.as_is) {
            bytes = std::span<const uint8_t>(im.image.data(), im.image.size());
            return {};
        }
        if (im.uri.empty()) return "has neither a bufferView nor a uri";
        if (im.uri.rfind("data:", 0) == 0) return "its data: URI is not a base64 PNG or JPEG";
        std::string path;
        if (std::string e = gltf_input::resolveInFolder(base_dir_, im.uri, path); !e.empty())
            return "its uri is refused: it " + e + " (images must be files inside the scene's folder)";
        const uint64_t room = std::min(lim::kMaxFileBytes, external_room_);
        if (std::string e = gltf_input::readRegularFile(path, room, own); !e.empty()) return "'" + im.uri + "' " + e;
        external_room_ -= std::min<uint64_t>(external_room_, own.size());
        bytes = own;
        return {};
    }

    // Scene texture for a file's texture index, decoded on first use; −1
    // (and a warning) when it cannot be drawn.
    int textureFor(int index, const std::string& where) {
        auto it = texture_of_.find(index);
        if (it != texture_of_.end()) return it->second;
        int result = -1;
        const std::string tw = where + ": texture " + std::to_string(index);
        auto refuse = [&](const std::string& why) {
            warnings_.push_back(tw + " " + why + ": drawn with the material's colour only");
        };
        if (index < 0 || size_t(index) >= m_.textures.size()) {
            refuse("is out of range");
        } else {
            const tinygltf::Texture& tex = m_.textures[size_t(index)];
            if (tex.source < 0 || size_t(tex.source) >= m_.images.size()) {
                refuse("has no image msxpbd can read (PNG or JPEG)");
            } else {
                std::vector<uint8_t> own;
                std::span<const uint8_t> bytes;
                std::string e = imageBytes(tex.source, own, bytes);
                const std::string iw = "(image " + std::to_string(tex.source) +
                                       (m_.images[size_t(tex.source)].name.empty() ? "" : " '" + m_.images[size_t(tex.source)].name + "'") + ")";
                int w = 0, h = 0;
                if (e.empty() && imageSize(bytes, w, h, e))  // the size limit included
                    budget_.charge(uint64_t(w) * uint64_t(h) * 4u, tw + " " + iw);
                DecodedImage img;
                if (e.empty()) e = decodeImage(bytes, img);
                if (!e.empty()) {
                    refuse(iw + ": " + e);
                } else {
                    Texture t;
                    t.name = m_.images[size_t(tex.source)].name;
                    t.width = img.width;
                    t.height = img.height;
                    t.rgba = std::move(img.rgba);
                    if (tex.sampler >= 0 && size_t(tex.sampler) < m_.samplers.size()) {
                        const tinygltf::Sampler& sm = m_.samplers[size_t(tex.sampler)];
                        auto wrap = [](int v) { return v == 33071 || v == 33648 || v == 10497 ? v : 10497; };
                        t.wrap_s = wrap(sm.wrapS);
                        t.wrap_t = wrap(sm.wrapT);
                        const bool min_ok = sm.minFilter == 9728 || sm.minFilter == 9729 ||
                                            (sm.minFilter >= 9984 && sm.minFilter <= 9987);
                        t.min_filter = min_ok ? sm.minFilter : -1;
                        t.mag_filter = sm.magFilter == 9728 || sm.magFilter == 9729 ? sm.magFilter : -1;
                    }
                    result = int(s_.textures.size());
                    s_.textures.push_back(std::move(t));
                }
            }
        }
        texture_of_.emplace(index, result);
        return result;
    }

    // One RenderMesh per drawn primitive: each keeps its own material,
    // texture, morph targets and skin influences.
    void readRenderMeshes() {
        for (size_t ni = 0; ni < m_.nodes.size(); ++ni) {
            const tinygltf::Node& node = m_.nodes[ni];
            if (node_joint_[ni] < 0 || node.mesh < 0) continue;
            if (std::find(muscle_nodes_.begin(), muscle_nodes_.end(), int(ni)) != muscle_nodes_.end()) continue;
            const std::string where = nodeName(m_, int(ni));
            const bool skinned = node.skin >= 0;
            if (size_t(node.mesh) >= m_.meshes.size()) fail(where + ": mesh " + std::to_string(node.mesh) + " out of range");
            const tinygltf::Mesh& mesh = m_.meshes[size_t(node.mesh)];
            // Skin: the joint map and the inverse binds, per skinned mesh node.
            std::vector<int> joint_map;
            std::vector<glm::mat4> inverse_bind;
            if (skinned) {
                if (size_t(node.skin) >= m_.skins.size()) fail(where + ": skin " + std::to_string(node.skin) + " out of range");
                const tinygltf::Skin& skin = m_.skins[size_t(node.skin)];
                const std::string sw = where + ", skin " + std::to_string(node.skin);
                if (skin.joints.empty()) fail(sw + ": no joints");
                budget_.charge(uint64_t(skin.joints.size()) * (sizeof(int) + sizeof(glm::mat4)), sw);
                for (int jn : skin.joints) {
                    if (jn < 0 || size_t(jn) >= m_.nodes.size() || node_joint_[size_t(jn)] < 0)
                        fail(sw + ": joint node " + std::to_string(jn) + " is not in the scene");
                    joint_map.push_back(node_joint_[size_t(jn)]);
                }
                inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));  // spec: identity when absent
                if (skin.inverseBindMatrices >= 0) {
                    AccessorData ib = readAccessor(m_, skin.inverseBindMatrices, sw + " inverseBindMatrices", budget_);
                    requireComps(ib, 16, sw + " inverseBindMatrices");
                    if (ib.count < skin.joints.size()) fail(sw + ": fewer inverseBindMatrices than joints");
                    for (size_t k = 0; k < skin.joints.size(); ++k)
                        for (int c = 0; c < 4; ++c)
                            for (int r = 0; r < 4; ++r) inverse_bind[k][c][r] = float(ib.v[16 * k + size_t(c * 4 + r)]);
                }
            }
            // Default morph weights: the node's, else the mesh's (glTF 2.0, 3.7.2.2).
            const std::vector<double>& dw = !node.weights.empty() ? node.weights : mesh.weights;
            const std::string name = s_.skeleton.joints[size_t(node_joint_[ni])].name;
            int drawn = 0;
            for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
                Geometry g = readPrimitive(m_, node.mesh, pi, {skinned, true}, where, budget_, warnings_);
                if (!g.drawn || g.indices.empty() || g.cut) continue;
                computeMissingNormals(g);
                RenderMesh rm;
                rm.name = drawn == 0 ? name : name + " (primitive " + std::to_string(pi) + ")";
                rm.mesh = mesh.name.empty() ? "mesh " + std::to_string(node.mesh) : mesh.name;
                rm.primitive = int(pi);
                rm.color = g.color;
                rm.alpha = g.alpha;
                rm.blend = g.blend;
                if (skinned) {
                    const size_t slots = joint_map.size();
                    for (size_t i = 0; i < g.joints.size(); ++i)
                        for (int c = 0; c < 4; ++c)
                            if (g.weights[i][c] != 0.0f && g.joints[i][c] >= slots)
                                fail(where + ": JOINTS_" + std::to_string(i % size_t(g.sets)) + " refers to skin joint " +
                                     std::to_string(g.joints[i][c]) + " out of range (" + std::to_string(slots) +
                                     " joints)");
                    rm.skin = node.skin;
                    rm.skin_joint_map = joint_map;
                    rm.inverse_bind = inverse_bind;
                    rm.influence_sets = g.sets;
                    rm.skin_joints = std::move(g.joints);
                    rm.skin_weights = std::move(g.weights);
                } else {
                    rm.joint = node_joint_[ni];
                }
                if (!g.targets.empty()) {
                    if (!dw.empty() && dw.size() != g.targets.size())
                        warnings_.push_back(where + ", mesh " + std::to_string(node.mesh) + ": " +
                                            std::to_string(dw.size()) + " default weights for " +
                                            std::to_string(g.targets.size()) + " morph targets (missing ones are 0)");
                    for (size_t t = 0; t < g.targets.size(); ++t) {
                        const double w = t < dw.size() && finiteFloat(dw[t]) ? dw[t] : 0.0;
                        rm.morph_weights.push_back(float(std::clamp(w, -lim::kMaxScale, lim::kMaxScale)));
                    }
                    rm.morph_targets = std::move(g.targets);
                    rm.morph_node = node_joint_[ni];
                }
                if (g.texture >= 0) {
                    rm.texture = textureFor(g.texture, where + ", mesh " + std::to_string(node.mesh) + " primitive " +
                                                           std::to_string(pi));
                    if (rm.texture >= 0) {
                        rm.uvs = std::move(g.uvs);
                        rm.alpha_cutoff = g.alpha_cutoff;
                    }
                }
                rm.positions = std::move(g.positions);
                rm.normals = std::move(g.normals);
                rm.indices = std::move(g.indices);
                s_.meshes.push_back(std::move(rm));
                ++drawn;
            }
        }
        for (size_t k = 0; k < m_.skins.size(); ++k)
            s_.skins.push_back({m_.skins[k].name.empty() ? "skin " + std::to_string(k) : m_.skins[k].name,
                                m_.skins[k].joints.size()});
    }

    // An animation key as the solver will use it (docs/scene-format.md, "Limits").
    static void checkKey(ChannelPath path, glm::vec4 v, bool tangent, const std::string& where) {
        for (int q = 0; q < 4; ++q)
            if (!std::isfinite(v[q])) fail(where + ": not finite as a 32-bit float");
        if (tangent || path == ChannelPath::Translation) {
            for (int q = 0; q < 3; ++q)
                if (!(std::fabs(v[q]) <= lim::kMaxCoordinate))
                    fail(where + ": " + fmt(v[q]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + ")");
        } else if (path == ChannelPath::Rotation) {
            const float l = glm::length(v);
            if (!(std::fabs(l - 1.0f) <= lim::kQuaternionTolerance))
                fail(where + ": rotation is not a unit quaternion (length " + fmt(l) + ")");
        } else {
            for (int q = 0; q < 3; ++q)
                if (!(std::fabs(v[q]) >= lim::kMinScale && std::fabs(v[q]) <= lim::kMaxScale))
                    fail(where + ": scale " + fmt(v[q]) + " makes the transform singular or extreme (|s| must be in [" +
                         fmt(lim::kMinScale) + ", " + fmt(lim::kMaxScale) + "])");
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
                else if (ch.target_path == "weights") c.path = ChannelPath::Weights, comps = 1;
                else {
                    warnings_.push_back(cw + ": target path '" + ch.target_path + "' is not animated (ignored)");
                    continue;
                }
                c.joint = node_joint_[size_t(ch.target_node)];
                if (c.joint < 0) continue;
                if (c.path == ChannelPath::Weights) {
                    // As many weights per key as the node's mesh has morph targets.
                    const tinygltf::Node& tn = m_.nodes[size_t(ch.target_node)];
                    size_t targets = 0;
                    if (tn.mesh >= 0 && size_t(tn.mesh) < m_.meshes.size() && !m_.meshes[size_t(tn.mesh)].primitives.empty())
                        targets = m_.meshes[size_t(tn.mesh)].primitives[0].targets.size();
                    if (targets == 0 || targets > lim::kMaxMorphTargets) {
                        warnings_.push_back(cw + ": animates the morph weights of " + nodeName(m_, ch.target_node) +
                                            ", whose mesh has no morph targets (ignored)");
                        continue;
                    }
                    c.width = int(targets);
                }
                const tinygltf::AnimationSampler& sm = an.samplers[size_t(ch.sampler)];
                if (sm.interpolation == "STEP") c.interpolation = Interpolation::Step;
                else if (sm.interpolation == "CUBICSPLINE") c.interpolation = Interpolation::CubicSpline;
                else if (sm.interpolation == "LINEAR" || sm.interpolation.empty()) c.interpolation = Interpolation::Linear;
                else fail(cw + ": unknown interpolation '" + sm.interpolation + "'");
                AccessorData in = readAccessor(m_, sm.input, cw + " input", budget_);
                requireComps(in, 1, cw + " input");
                AccessorData outv = readAccessor(m_, sm.output, cw + " output", budget_);
                requireComps(outv, comps, cw + " output");
                const size_t per = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
                const size_t width = c.path == ChannelPath::Weights ? size_t(c.width) : 1;
                if (in.count == 0) fail(cw + ": no keyframes");
                if (outv.count != in.count * per * width)
                    fail(cw + ": output count " + std::to_string(outv.count) + " does not match " +
                         std::to_string(in.count * per * width) + " for " + std::to_string(in.count) + " keys" +
                         (width > 1 ? " of " + std::to_string(width) + " morph weights" : ""));
                for (size_t k = 0; k < in.count; ++k) {
                    if (!(std::fabs(in.v[k]) <= lim::kMaxKeyTime))
                        fail(cw + ": key time " + fmt(in.v[k]) + " is out of range (|t| <= " + fmt(lim::kMaxKeyTime) +
                             " s)");
                    if (k > 0 && !(float(in.v[k]) > float(in.v[k - 1])))
                        fail(cw + ": key times are not strictly increasing");
                    c.times.push_back(float(in.v[k]));
                }
                if (c.path == ChannelPath::Weights) {
                    for (size_t k = 0; k < outv.count; ++k) {
                        const double w = outv.v[k];
                        if (!finiteFloat(w) || std::fabs(w) > lim::kMaxScale)
                            fail(cw + " output " + std::to_string(k) + ": morph weight " + fmt(w) +
                                 " is out of range (|w| <= " + fmt(lim::kMaxScale) + ")");
                        c.weights.push_back(float(w));
                    }
                    out.channels.push_back(std::move(c));
                    continue;
                }
                for (size_t k = 0; k < outv.count; ++k) {
                    glm::vec4 v(0.0f);
                    for (int q = 0; q < comps; ++q) v[q] = float(outv.v[k * size_t(comps) + size_t(q)]);
                    checkKey(c.path, v, per == 3 && k % 3 != 1, cw + " output " + std::to_string(k));
                    c.values.push_back(v);
                }
                out.channels.push_back(std::move(c));
            }
            s_.animations.push_back(std::move(out));
        }
    }
};

// tinygltf hands over the bytes of a data: URI image (decoded from base64)
// and of a bufferView image; they are kept as they are (decoded later, only
// when a drawn material uses them). A bufferView image is read by the
// converter itself through its validated view: tinygltf 2.7 passes
// `&buffer.data[byteOffset]` with the view's length unchecked.
bool keepImageBytes(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                    const unsigned char* bytes, int size, void*) {
    if (image->bufferView >= 0 || !bytes || size <= 0) return true;
    image->image.assign(bytes, bytes + size);
    image->as_is = true;
    return true;
}

std::string baseDirOf(const std::string& path) {
    size_t p = path.find_last_of('/');
    return p == std::string::npos ? std::string(".") : path.substr(0, p);
}

// ------------------------------------------------ file access for tinygltf
//
// tinygltf 2.7 reads external buffers and images through FsCallbacks, looking
// for `JoinPath(base_dir, urldecode(uri))` and then `./` + the same. The
// pre-flight pass below resolves every buffer URI itself (strictly inside the
// scene's folder, gltf_input::resolveInFolder) and lists them in the order
// tinygltf asks for them (buffers are parsed before images); the callbacks
// then answer only the next expected buffer and nothing else, so image files
// and anything outside the folder are never opened.

// tinygltf's own key for a URI (dlib::urldecode and JoinPath in tiny_gltf.h
// 2.7), used only to recognise its requests.
std::string tinygltfKey(const std::string& base_dir, const std::string& uri) {
    auto hex = [](unsigned char c) -> unsigned char {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return 0;
    };
    std::string d;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '+') d += ' ';
        else if (uri[i] == '%' && uri.size() > i + 2) {
            d += char((hex(uri[i + 1]) << 4) | hex(uri[i + 2]));
            i += 2;
        } else d += uri[i];
    }
    if (base_dir.empty()) return d;
    return base_dir.back() == '/' ? base_dir + d : base_dir + "/" + d;
}

// The data: URI prefixes tinygltf 2.7 decodes (IsDataURI); any other data:
// URI it would treat as a file name.
bool isTinygltfDataUri(const std::string& uri) {
    for (const char* h : {"data:application/octet-stream;base64,", "data:image/jpeg;base64,", "data:image/png;base64,",
                          "data:image/bmp;base64,", "data:image/gif;base64,", "data:text/plain;base64,",
                          "data:application/gltf-buffer;base64,"})
        if (uri.rfind(h, 0) == 0) return true;
    return false;
}

struct ExternalFiles {
    struct File {
        std::string key, path, label;
    };
    std::vector<File> files;  // external buffers, in buffer order
    size_t next = 0;
    uint64_t bytes_read = 0;
    std::string error;  // the first refusal, reported instead of tinygltf's message
};

bool fsFileExists(const std::string& abs, void* user) {
    auto* x = static_cast<ExternalFiles*>(user);
    return x->next < x->files.size() && x->files[x->next].key == abs;
}

std::string fsExpandFilePath(const std::string& path, void*) { return path; }  // no ~ or $VAR expansion

bool fsReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& abs, void* user) {
    auto* x = static_cast<ExternalFiles*>(user);
    if (!fsFileExists(abs, user)) {
        if (err) *err = "refused";
        return false;
    }
    const ExternalFiles::File& f = x->files[x->next++];
    const uint64_t room = lim::kMaxExternalBytes - std::min(x->bytes_read, lim::kMaxExternalBytes);
    std::string e = gltf_input::readRegularFile(f.path, std::min(lim::kMaxFileBytes, room), *out);
    if (!e.empty()) {
        out->clear();
        if (x->error.empty())
            x->error = f.label + (e.rfind("is larger", 0) == 0 ? " " + e + " (all external buffers of a scene together)"
                                                              : ": " + e);
        if (err) *err = "refused";
        return false;
    }
    x->bytes_read += out->size();
    return true;
}

bool fsWriteWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err = "the loader writes no files";
    return false;
}

// Extensions msxpbd reads correctly when a file requires them: quantized
// attributes are decoded like any normalized/integer accessor,
// KHR_texture_transform is applied to the base colour texture coordinates; the
// others change only how materials and textures look beyond what msxpbd draws
// (base colour and its PNG/JPEG texture: a basisu or webp texture is left out
// with a warning).
bool supportedRequiredExtension(const std::string& name) {
    return name == "KHR_mesh_quantization" || name == "KHR_texture_transform" || name == "KHR_materials_unlit" ||
           name == "KHR_texture_basisu" || name == "EXT_texture_webp" || name.rfind("KHR_materials_", 0) == 0;
}

std::string describeExtension(const std::string& name) {
    if (name == "KHR_draco_mesh_compression") return name + " (Draco)";
    if (name == "EXT_meshopt_compression" || name == "KHR_meshopt_compression") return name + " (meshoptimizer)";
    if (name == "EXT_mesh_gpu_instancing") return name + " (GPU instancing)";
    return name;
}

// Before tinygltf sees the JSON (whose depth is already bounded): caps on the
// number of glTF objects, required extensions, and every buffer URI resolved.
std::string preflight(std::string_view text, const std::string& base_dir, ExternalFiles& ext) {
    json doc;
    if (std::string e = gltf_input::parseJson(text, doc); !e.empty()) return e;
    if (!doc.is_object()) return "the JSON is not an object";
    auto arrayOf = [](const json& o, const char* key) -> const json* {
        if (!o.is_object()) return nullptr;
        auto it = o.find(key);
        return it != o.end() && it->is_array() ? &*it : nullptr;
    };
    auto count = [&](const json& o, const char* key) { const json* a = arrayOf(o, key); return a ? a->size() : 0; };
    struct Cap {
        const char* key;
        size_t max;
    };
    for (Cap c : {Cap{"nodes", lim::kMaxNodes}, Cap{"accessors", lim::kMaxAccessors},
                  Cap{"bufferViews", lim::kMaxBufferViews}, Cap{"buffers", lim::kMaxBuffers},
                  Cap{"meshes", lim::kMaxMeshes}, Cap{"animations", lim::kMaxAnimations},
                  Cap{"materials", lim::kMaxOtherObjects}, Cap{"textures", lim::kMaxOtherObjects},
                  Cap{"images", lim::kMaxOtherObjects}, Cap{"samplers", lim::kMaxOtherObjects},
                  Cap{"skins", lim::kMaxOtherObjects}, Cap{"scenes", lim::kMaxOtherObjects},
                  Cap{"cameras", lim::kMaxOtherObjects}})
        if (count(doc, c.key) > c.max)
            return "'" + std::string(c.key) + "' has " + std::to_string(count(doc, c.key)) + " entries; the limit is " +
                   std::to_string(c.max);
    size_t prims = 0, channels = 0, samplers = 0;
    if (const json* ms = arrayOf(doc, "meshes"))
        for (const json& m : *ms) prims += count(m, "primitives");
    if (const json* as = arrayOf(doc, "animations"))
        for (const json& a : *as) {
            channels += count(a, "channels");
            samplers += count(a, "samplers");
        }
    if (prims > lim::kMaxPrimitives)
        return "the meshes have " + std::to_string(prims) + " primitives; the limit is " +
               std::to_string(lim::kMaxPrimitives);
    if (std::max(channels, samplers) > lim::kMaxChannels)
        return "the animations have " + std::to_string(std::max(channels, samplers)) +
               " channels or samplers; the limit is " + std::to_string(lim::kMaxChannels);
    if (const json* req = arrayOf(doc, "extensionsRequired"))
        for (const json& e : *req) {
            if (!e.is_string()) return "'extensionsRequired' must hold extension names";
            const std::string name = e.get<std::string>();
            if (!supportedRequiredExtension(name))
                return "requires extension " + describeExtension(name) + ", which msxpbd does not support";
        }
    if (const json* bufs = arrayOf(doc, "buffers"))
        for (size_t i = 0; i < bufs->size(); ++i) {
            const json& b = (*bufs)[i];
            if (!b.is_object() || !b.contains("uri") || !b.at("uri").is_string()) continue;  // tinygltf checks
            const std::string uri = b.at("uri").get<std::string>();
            if (uri.empty() || isTinygltfDataUri(uri)) continue;  // embedded: bounded by the file
            const std::string label = "buffer " + std::to_string(i);
            if (uri.rfind("data:", 0) == 0) return label + ": unsupported data: URI (base64 buffers only)";
            std::string path;
            if (std::string e = gltf_input::resolveInFolder(base_dir, uri, path); !e.empty())
                return label + ": its uri is refused: it " + e + " (buffers must be files inside the scene's folder)";
            ext.files.push_back({tinygltfKey(base_dir, uri), path, label + " ('" + uri + "')"});
        }
    return {};
}

std::string loadFromMemory(const std::vector<uint8_t>& bytes, const std::string& name, const std::string& base_dir,
                           Scene& out) {
    out = Scene{};
    const std::string prefix = name + ": ";
    const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    const bool glb_name = name.size() >= 4 && name.compare(name.size() - 4, 4, ".glb") == 0;
    if (glb_name && !binary) return prefix + "not a glTF binary (wrong magic; expected \"glTF\")";
    if (bytes.empty()) return prefix + "empty file";
    if (bytes.size() > lim::kMaxFileBytes)
        return prefix + "file too large (the limit is " + std::to_string(lim::kMaxFileBytes >> 20) + " MiB)";
    std::string_view json_text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
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
        json_text = json_text.substr(20, json_len);
    }
    // Depth first: tinygltf's and nlohmann's recursive code must never see
    // deeper JSON (docs/scene-format.md, "Limits").
    if (std::string e = gltf_input::checkJsonBounds(json_text); !e.empty()) return prefix + e;
    ExternalFiles ext;
    if (std::string e = preflight(json_text, base_dir, ext); !e.empty()) return prefix + e;

    tinygltf::Model model;
    std::string err, warn;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepImageBytes, nullptr);
    loader.SetStoreOriginalJSONForExtrasAndExtensions(true);
    tinygltf::FsCallbacks fs{};
    fs.FileExists = fsFileExists;
    fs.ExpandFilePath = fsExpandFilePath;
    fs.ReadWholeFile = fsReadWholeFile;
    fs.WriteWholeFile = fsWriteWholeFile;
    fs.user_data = &ext;
    loader.SetFsCallbacks(fs);
    bool ok = false;
    try {
        if (binary)
            ok = loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(bytes.size()), base_dir);
        else
            ok = loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                            unsigned(bytes.size()), base_dir);
    } catch (const std::bad_alloc&) {
        return prefix + "out of memory while parsing the glTF (too large for this machine)";
    } catch (const std::exception& e) {
        return prefix + "glTF parse error: " + e.what();
    }
    // tinygltf 2.7 reports a skin without inverseBindMatrices in `err` but
    // still succeeds; the spec says identity, so only the result counts.
    if (!ok) {
        if (!ext.error.empty()) return prefix + ext.error;
        while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
        return prefix + (err.empty() ? std::string("invalid glTF") : err);
    }
    const uint64_t input = uint64_t(bytes.size()) + ext.bytes_read;
    const uint64_t budget = lim::kDecodedBudgetBase + lim::kDecodedBudgetPerInputByte * input;
    try {
        const uint64_t external_room = lim::kMaxExternalBytes - std::min(ext.bytes_read, lim::kMaxExternalBytes);
        Converter(model, out, budget, base_dir, external_room).run();
        // What the solver would allocate for these meshes, against its budget.
        uint64_t muscle_vertices = 0, bone_triangles = 0;
        for (const auto& m : out.desc.muscles) muscle_vertices += m.vertices.size();
        for (const auto& b : out.desc.bodies) bone_triangles += b.triangles.size();
        const uint64_t sim_bytes =
            muscle_vertices * lim::kSimBytesPerMuscleVertex + bone_triangles * lim::kSimBytesPerBoneTriangle;
        const uint64_t sim_budget = lim::kSimBudgetBase + lim::kSimBudgetPerInputByte * input;
        if (sim_bytes > sim_budget)
            throw LoadError("the scene is too large to simulate from a file of this size: " +
                            std::to_string(muscle_vertices) + " muscle vertices and " + std::to_string(bone_triangles) +
                            " bone triangles need about " + std::to_string(sim_bytes >> 20) +
                            " MB, the file allows " + std::to_string(sim_budget >> 20) +
                            " MB (meshes shared by many nodes count once per node)");
    } catch (const LoadError& e) {
        out = Scene{};
        return prefix + e.what();
    } catch (const std::bad_alloc&) {
        out = Scene{};
        return prefix + "out of memory while reading the scene (too large for this machine)";
    } catch (const std::exception& e) {
        out = Scene{};
        return prefix + "error: " + e.what();
    }
    return {};
}

}  // namespace

// Every message leaves the loader through here: whatever text from the file
// it quotes (names, keys, strings, tinygltf's and the JSON parser's excerpts)
// is printed with its control characters escaped (sim::printable).
std::string loadGltfSceneFromMemory(const std::vector<uint8_t>& bytes, const std::string& name,
                                    const std::string& base_dir, Scene& out) {
    std::string e = loadFromMemory(bytes, name, base_dir, out);
    for (std::string& w : out.warnings) w = sim::printable(w);
    return sim::printable(e);
}

std::string loadGltfScene(const std::string& path, Scene& out) {
    out = Scene{};
    std::vector<uint8_t> bytes;
    if (std::string e = gltf_input::readRegularFile(path, lim::kMaxFileBytes, bytes); !e.empty())
        return sim::printable(path + ": " + e);
    return loadGltfSceneFromMemory(bytes, path, baseDirOf(path), out);
}

}  // namespace engine

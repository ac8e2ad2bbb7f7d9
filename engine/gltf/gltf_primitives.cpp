// Mesh primitives read as geometry, as named steps (positions, normals, skin
// influences, morph targets, material, texture coordinates, triangles);
// whole meshes; vertex welding and the position grid.
#include "engine/gltf/gltf_primitives.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

namespace {

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

// The POSITION attribute, every coordinate within the bound. Returns the
// vertex count, which every other attribute must match.
size_t readPositions(const tinygltf::Model& m, const tinygltf::Primitive& prim, const std::string& pw, Budget& budget,
                     Geometry& g) {
    auto it = prim.attributes.find("POSITION");
    if (it == prim.attributes.end()) fail(pw + ": no POSITION attribute");
    AccessorData pos = readAccessor(m, it->second, pw + " POSITION", budget);
    requireComps(pos, 3, pw + " POSITION");
    for (size_t i = 0; i < pos.v.size(); ++i)
        if (!(std::fabs(pos.v[i]) <= lim::kMaxCoordinate))
            fail(pw + " POSITION: vertex " + std::to_string(i / 3) + " coordinate " + fmt(pos.v[i]) +
                 " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
    for (size_t i = 0; i < pos.count; ++i) g.positions.emplace_back(pos.v[3 * i], pos.v[3 * i + 1], pos.v[3 * i + 2]);
    return pos.count;
}

// NORMAL, or zeros and has_normals = false (computed from the triangles later).
void readNormals(const tinygltf::Model& m, const tinygltf::Primitive& prim, const std::string& pw, size_t count,
                 Budget& budget, Geometry& g) {
    auto nit = prim.attributes.find("NORMAL");
    if (nit != prim.attributes.end()) {
        AccessorData n = readAccessor(m, nit->second, pw + " NORMAL", budget);
        requireComps(n, 3, pw + " NORMAL");
        if (n.count != count) fail(pw + ": NORMAL count differs from POSITION count");
        for (size_t i = 0; i < n.count; ++i) g.normals.emplace_back(n.v[3 * i], n.v[3 * i + 1], n.v[3 * i + 2]);
    } else {
        g.has_normals = false;
        g.normals.resize(g.positions.size(), glm::vec3(0.0f));
    }
}

// Every JOINTS_n/WEIGHTS_n pair, n = 0, 1, ... (glTF 2.0, 3.7.3.3).
void readSkinInfluences(const tinygltf::Model& m, const tinygltf::Primitive& prim, const std::string& pw, size_t count,
                        Budget& budget, Geometry& g) {
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
        if (j.count != count || w.count != count) fail(pw + ": " + js + "/" + ws + " count differs from POSITION");
        if (j.component_type == TINYGLTF_COMPONENT_TYPE_FLOAT) fail(pw + " " + js + ": must be an integer type");
        budget.charge(uint64_t(count) * (sizeof(glm::uvec4) + sizeof(glm::vec4)), pw + " " + js);
        g.sets = set + 1;
        std::vector<glm::uvec4> joints;
        std::vector<glm::vec4> weights;
        joints.reserve(g.positions.size() * size_t(g.sets));
        weights.reserve(g.positions.size() * size_t(g.sets));
        for (size_t i = 0; i < count; ++i) {
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
}

// The weights of a vertex sum to 1 (glTF 2.0, 3.7.3.3); a file whose
// do not (rounded 8-bit weights, a lost set) is renormalised, so a
// vertex never shrinks toward the origin.
void normaliseWeights(const std::string& pw, Geometry& g, std::vector<std::string>& warnings) {
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

// Morph targets: position offsets per vertex (normals are recomputed
// from the posed triangles anyway).
void readMorphTargets(const tinygltf::Model& m, const tinygltf::Primitive& prim, const std::string& pw, size_t count,
                      Budget& budget, Geometry& g) {
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
            if (a.count != count) fail(tw + ": count differs from POSITION count");
            for (size_t i = 0; i < a.v.size(); ++i)
                if (!(std::fabs(a.v[i]) <= lim::kMaxCoordinate))
                    fail(tw + ": offset " + fmt(a.v[i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
            d.reserve(a.count);
            for (size_t i = 0; i < a.count; ++i) d.emplace_back(a.v[3 * i], a.v[3 * i + 1], a.v[3 * i + 2]);
        } else {
            budget.charge(uint64_t(count) * sizeof(glm::vec3), pw + " morph target " + std::to_string(t));
            d.assign(count, glm::vec3(0.0f));
        }
        g.targets.push_back(std::move(d));
    }
}

// The texture's coordinate set (texCoord, or KHR_texture_transform's
// override) with the transform applied.
void readTextureCoordinates(const tinygltf::Model& m, const tinygltf::Primitive& prim, const std::string& pw,
                            size_t count, Budget& budget, Geometry& g, std::vector<std::string>& warnings) {
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
        if (uv.count != count) fail(uw + ": count differs from POSITION count");
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
std::vector<uint32_t> readVertexOrder(const tinygltf::Model& m, const tinygltf::Primitive& prim, int mode,
                                      const std::string& pw, size_t count, Budget& budget) {
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
            if (d >= double(count))
                fail(pw + " indices: vertex index " + std::to_string(uint64_t(d)) + " out of range (" +
                     std::to_string(count) + " vertices)");
            order.push_back(uint32_t(d));
        }
    } else {
        if (mode == TINYGLTF_MODE_TRIANGLES && count % 3 != 0)
            fail(pw + ": non-indexed triangle count is not a multiple of 3");
        order.resize(count);
        for (size_t i = 0; i < count; ++i) order[i] = uint32_t(i);
    }
    return order;
}

// The triangles of a vertex order: as listed, or converted from a strip or a fan.
std::vector<uint32_t> triangleList(std::vector<uint32_t> order, int mode) {
    if (mode == TINYGLTF_MODE_TRIANGLES) return order;
    std::vector<uint32_t> out;
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
        out.insert(out.end(), {a, b, c});
    }
    return out;
}

}  // namespace

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
    const size_t count = readPositions(m, prim, pw, budget, g);
    readNormals(m, prim, pw, count, budget, g);
    if (reads.skinned) {
        readSkinInfluences(m, prim, pw, count, budget, g);
        normaliseWeights(pw, g, warnings);
    }
    if (reads.render) readMorphTargets(m, prim, pw, count, budget, g);
    readMaterial(m, prim.material, g);
    if (reads.render && g.texture >= 0) readTextureCoordinates(m, prim, pw, count, budget, g, warnings);
    g.indices = triangleList(readVertexOrder(m, prim, mode, pw, count, budget), mode);
    g.drawn = true;
    return g;
}

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

PositionIndex::PositionIndex(const std::vector<glm::vec3>& p) : p_(p) {
    for (uint32_t i = 0; i < p.size(); ++i) cells_[key(cell(p[i]))].push_back(i);
}

PositionIndex::Match PositionIndex::nearest(glm::vec3 q) const {
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

glm::ivec3 PositionIndex::cell(glm::vec3 x) {
    auto c = [](float v) { return int(std::clamp(std::floor(v / kTolerance), -2.0e9f, 2.0e9f)); };
    return {c(x.x), c(x.y), c(x.z)};
}

uint64_t PositionIndex::key(glm::ivec3 c) {
    return (uint64_t(uint32_t(c.x)) * 0x9E3779B97F4A7C15ull) ^ (uint64_t(uint32_t(c.y)) * 0xC2B2AE3D27D4EB4Full) ^
           (uint64_t(uint32_t(c.z)) * 0x165667B19E3779F9ull);
}

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

}  // namespace engine::gltf_detail

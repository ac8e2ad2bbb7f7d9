#include "engine/gltf/gltf_writer.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace engine {

GltfWriter::GltfWriter() {
    doc_["asset"] = {{"version", "2.0"}, {"generator", "msxpbd gen"}};
    for (const char* k : {"scenes", "nodes", "meshes", "materials", "skins", "animations", "accessors", "bufferViews"})
        doc_[k] = json::array();
}

int GltfWriter::addView(const void* data, size_t bytes, int target) {
    while (bin_.size() % 4) bin_.push_back(0);
    size_t off = bin_.size();
    bin_.resize(off + bytes);
    if (bytes) std::memcpy(bin_.data() + off, data, bytes);
    json v = {{"buffer", 0}, {"byteOffset", off}, {"byteLength", bytes}};
    if (target) v["target"] = target;
    doc_["bufferViews"].push_back(v);
    return int(doc_["bufferViews"].size()) - 1;
}

int GltfWriter::addAccessor(json a) {
    doc_["accessors"].push_back(std::move(a));
    return int(doc_["accessors"].size()) - 1;
}

namespace {
// Bounds as the doubles of the stored floats (the validator compares exactly).
template <int N, class V>
void bounds(const std::vector<V>& v, GltfWriter::json& a) {
    double lo[N], hi[N];
    for (int c = 0; c < N; ++c) {
        lo[c] = std::numeric_limits<double>::infinity();
        hi[c] = -lo[c];
    }
    for (const V& x : v)
        for (int c = 0; c < N; ++c) {
            lo[c] = std::min(lo[c], double(x[c]));
            hi[c] = std::max(hi[c], double(x[c]));
        }
    a["min"] = GltfWriter::json::array();
    a["max"] = GltfWriter::json::array();
    for (int c = 0; c < N; ++c) {
        a["min"].push_back(lo[c]);
        a["max"].push_back(hi[c]);
    }
}
}  // namespace

int GltfWriter::addVec3(const std::vector<glm::vec3>& v, bool with_bounds, int target) {
    std::vector<float> f;
    for (const glm::vec3& x : v) f.insert(f.end(), {x.x, x.y, x.z});
    json a = {{"bufferView", addView(f.data(), f.size() * 4, target)}, {"componentType", 5126}, {"count", v.size()},
              {"type", "VEC3"}};
    if (with_bounds) bounds<3>(v, a);
    return addAccessor(a);
}

int GltfWriter::addVec4(const std::vector<glm::vec4>& v, int target) {
    std::vector<float> f;
    for (const glm::vec4& x : v) f.insert(f.end(), {x.x, x.y, x.z, x.w});
    return addAccessor({{"bufferView", addView(f.data(), f.size() * 4, target)}, {"componentType", 5126},
                        {"count", v.size()}, {"type", "VEC4"}});
}

int GltfWriter::addJoints(const std::vector<glm::u8vec4>& v) {
    std::vector<uint8_t> b;
    for (const auto& x : v) b.insert(b.end(), {x.x, x.y, x.z, x.w});
    return addAccessor({{"bufferView", addView(b.data(), b.size(), 34962)}, {"componentType", 5121},
                        {"count", v.size()}, {"type", "VEC4"}});
}

int GltfWriter::addScalars(const std::vector<float>& v, bool with_bounds) {
    json a = {{"bufferView", addView(v.data(), v.size() * 4, 0)}, {"componentType", 5126}, {"count", v.size()},
              {"type", "SCALAR"}};
    if (with_bounds) {
        auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        a["min"] = json::array({double(*lo)});
        a["max"] = json::array({double(*hi)});
    }
    return addAccessor(a);
}

int GltfWriter::addMat4(const std::vector<glm::mat4>& v) {
    std::vector<float> f;
    for (const glm::mat4& m : v)
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) f.push_back(m[c][r]);
    return addAccessor({{"bufferView", addView(f.data(), f.size() * 4, 0)}, {"componentType", 5126},
                        {"count", v.size()}, {"type", "MAT4"}});
}

int GltfWriter::addIndices(const std::vector<uint32_t>& idx) {
    uint32_t mx = idx.empty() ? 0 : *std::max_element(idx.begin(), idx.end());
    if (mx < 65535) {
        std::vector<uint16_t> s(idx.begin(), idx.end());
        return addAccessor({{"bufferView", addView(s.data(), s.size() * 2, 34963)}, {"componentType", 5123},
                            {"count", idx.size()}, {"type", "SCALAR"}});
    }
    return addAccessor({{"bufferView", addView(idx.data(), idx.size() * 4, 34963)}, {"componentType", 5125},
                        {"count", idx.size()}, {"type", "SCALAR"}});
}

int GltfWriter::addMaterial(const std::string& name, glm::vec4 color, float roughness, const char* alpha_mode) {
    doc_["materials"].push_back(
        {{"name", name},
         {"pbrMetallicRoughness",
          {{"baseColorFactor", {double(color.x), double(color.y), double(color.z), double(color.w)}},
           {"metallicFactor", 0.0},
           {"roughnessFactor", double(roughness)}}}});
    if (alpha_mode) doc_["materials"].back()["alphaMode"] = alpha_mode;
    return int(doc_["materials"].size()) - 1;
}

int GltfWriter::addMesh(json mesh) {
    doc_["meshes"].push_back(std::move(mesh));
    return int(doc_["meshes"].size()) - 1;
}
int GltfWriter::addNode(json node) {
    doc_["nodes"].push_back(std::move(node));
    return int(doc_["nodes"].size()) - 1;
}
int GltfWriter::addSkin(json skin) {
    doc_["skins"].push_back(std::move(skin));
    return int(doc_["skins"].size()) - 1;
}
int GltfWriter::addAnimation(json animation) {
    doc_["animations"].push_back(std::move(animation));
    return int(doc_["animations"].size()) - 1;
}
void GltfWriter::setScene(json scene) {
    doc_["scenes"] = json::array({std::move(scene)});
    doc_["scene"] = 0;
}

std::vector<uint8_t> GltfWriter::glb() const {
    json d = doc_;
    for (const char* k : {"skins", "animations", "materials", "meshes"})
        if (d[k].empty()) d.erase(k);
    std::vector<uint8_t> bin = bin_;
    while (bin.size() % 4) bin.push_back(0);
    d["buffers"] = json::array({{{"byteLength", bin.size()}}});
    std::string js = d.dump();
    while (js.size() % 4) js.push_back(' ');
    std::vector<uint8_t> out;
    auto u32 = [&](uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
    };
    for (char c : {'g', 'l', 'T', 'F'}) out.push_back(uint8_t(c));
    u32(2);
    u32(uint32_t(12 + 8 + js.size() + (bin.empty() ? 0 : 8 + bin.size())));
    u32(uint32_t(js.size()));
    u32(0x4E4F534Au);
    out.insert(out.end(), js.begin(), js.end());
    if (!bin.empty()) {
        u32(uint32_t(bin.size()));
        u32(0x004E4942u);
        out.insert(out.end(), bin.begin(), bin.end());
    }
    return out;
}

}  // namespace engine

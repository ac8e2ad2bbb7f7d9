// Helpers for loader tests: build small glTF files by hand (JSON + binary
// buffer) so the loader is tested against files it did not write.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

namespace gltf_test {

using json = nlohmann::json;

struct Builder {
    std::vector<uint8_t> bin;
    json doc = json::object();

    Builder() {
        doc["asset"] = {{"version", "2.0"}};
        doc["buffers"] = json::array();
        doc["bufferViews"] = json::array();
        doc["accessors"] = json::array();
        doc["nodes"] = json::array();
        doc["meshes"] = json::array();
    }
    template <class T>
    int view(const std::vector<T>& data) {
        while (bin.size() % 4) bin.push_back(0);
        size_t off = bin.size();
        bin.resize(off + data.size() * sizeof(T));
        std::memcpy(bin.data() + off, data.data(), data.size() * sizeof(T));
        doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", off}, {"byteLength", data.size() * sizeof(T)}});
        return int(doc["bufferViews"].size()) - 1;
    }
    int accessor(int view, int componentType, size_t count, const char* type, bool normalized = false) {
        json a = {{"componentType", componentType}, {"count", count}, {"type", type}};
        if (view >= 0) a["bufferView"] = view;
        if (normalized) a["normalized"] = true;
        doc["accessors"].push_back(a);
        return int(doc["accessors"].size()) - 1;
    }
    int floats(const std::vector<float>& v, const char* type, int comps) {
        return accessor(view(v), 5126, v.size() / size_t(comps), type);
    }
    int node(json n) {
        doc["nodes"].push_back(std::move(n));
        return int(doc["nodes"].size()) - 1;
    }
    int mesh(json m) {
        doc["meshes"].push_back(std::move(m));
        return int(doc["meshes"].size()) - 1;
    }
    // GLB bytes.
    std::vector<uint8_t> glb() const {
        json d = doc;
        d["buffers"] = json::array({{{"byteLength", bin.size()}}});
        std::string js = d.dump();
        while (js.size() % 4) js.push_back(' ');
        std::vector<uint8_t> b = bin;
        while (b.size() % 4) b.push_back(0);
        std::vector<uint8_t> out;
        auto u32 = [&](uint32_t v) {
            uint8_t x[4];
            std::memcpy(x, &v, 4);
            out.insert(out.end(), x, x + 4);
        };
        for (char c : {'g', 'l', 'T', 'F'}) out.push_back(uint8_t(c));
        u32(2);
        u32(uint32_t(12 + 8 + js.size() + 8 + b.size()));
        u32(uint32_t(js.size()));
        u32(0x4E4F534Au);
        out.insert(out.end(), js.begin(), js.end());
        u32(uint32_t(b.size()));
        u32(0x004E4942u);
        out.insert(out.end(), b.begin(), b.end());
        return out;
    }
    // .gltf JSON with the buffer as a data: URI (embedded) or external file.
    std::string gltf(const std::string& external_uri = "") const {
        json d = doc;
        std::string uri = external_uri.empty() ? "data:application/octet-stream;base64," + base64(bin) : external_uri;
        d["buffers"] = json::array({{{"byteLength", bin.size()}, {"uri", uri}}});
        return d.dump(1);
    }
    static std::string base64(const std::vector<uint8_t>& in) {
        static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string out;
        size_t i = 0;
        for (; i + 2 < in.size(); i += 3) {
            uint32_t v = (uint32_t(in[i]) << 16) | (uint32_t(in[i + 1]) << 8) | in[i + 2];
            for (int k = 3; k >= 0; --k) out.push_back(t[(v >> (6 * k)) & 63]);
        }
        if (i < in.size()) {
            uint32_t v = uint32_t(in[i]) << 16;
            if (i + 1 < in.size()) v |= uint32_t(in[i + 1]) << 8;
            out.push_back(t[(v >> 18) & 63]);
            out.push_back(t[(v >> 12) & 63]);
            out.push_back(i + 1 < in.size() ? t[(v >> 6) & 63] : '=');
            out.push_back('=');
        }
        return out;
    }
};

inline bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

inline std::filesystem::path tempDir(const std::string& name) {
    auto p = std::filesystem::temp_directory_path() / ("msxpbd_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(p);
    return p;
}

inline void writeFile(const std::filesystem::path& p, const void* data, size_t n) {
    std::ofstream f(p, std::ios::binary);
    f.write(static_cast<const char*>(data), std::streamsize(n));
}
inline void writeFile(const std::filesystem::path& p, const std::vector<uint8_t>& b) { writeFile(p, b.data(), b.size()); }
inline void writeFile(const std::filesystem::path& p, const std::string& s) { writeFile(p, s.data(), s.size()); }

inline std::vector<uint8_t> readFile(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// A closed tetrahedron (outward winding) for muscle tests.
inline void tetra(std::vector<float>& pos, std::vector<uint16_t>& idx) {
    pos = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    idx = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
}

// One tetrahedron muscle hanging under a bone ("bone" → "hand"), tagged with
// `extras` (msxpbd_muscle), over a plane; its mesh closed, open (one face
// missing) or wound inwards.
enum class TetraMesh { Closed, Open, Inward };
inline Builder muscleFile(json extras, TetraMesh shape = TetraMesh::Closed) {
    Builder b;
    std::vector<float> p;
    std::vector<uint16_t> i;
    tetra(p, i);
    if (shape == TetraMesh::Open) i.resize(9);
    if (shape == TetraMesh::Inward)
        for (size_t t = 0; t < i.size(); t += 3) std::swap(i[t + 1], i[t + 2]);
    int pos = b.floats(p, "VEC3", 3);
    int idx = b.accessor(b.view(i), 5123, i.size(), "SCALAR");
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}}}, {"indices", idx}}}}});
    b.node({{"name", "bone"}, {"translation", {0, 1, 0}}, {"children", {1}},
            {"extras", {{"msxpbd_body", {{"capsule", {{"a", {0, 0, 0}}, {"b", {0, -1, 0}}, {"radius", 0.05}}}}}}}});
    b.node({{"name", "hand"}, {"translation", {0, -1, 0}}});
    b.node({{"name", "muscle"}, {"mesh", mesh}, {"translation", {0.5, 0, 0}}, {"extras", {{"msxpbd_muscle", extras}}}});
    b.doc["scenes"] = json::array(
        {{{"nodes", {0, 2}}, {"extras", {{"msxpbd_scene", {{"planes", {{{"origin", {0, -2, 0}}, {"normal", {0, 2, 0}}}}}}}}}}});
    return b;
}

// A quad with TEXCOORD_0 and a base colour texture, its image embedded
// (bufferView), as a data: URI, or a file next to the scene. The quad spans
// x, y in [−1, 1] at z = 0, UV (0, 0) at its top-left corner (−1, 1).
inline Builder texturedQuad(const std::string& image_source, const std::vector<uint8_t>& png) {
    Builder b;
    int pos = b.floats({-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, "VEC3", 3);
    b.doc["accessors"][size_t(pos)]["min"] = {-1, -1, 0};
    b.doc["accessors"][size_t(pos)]["max"] = {1, 1, 0};
    int uv = b.floats({0, 1, 1, 1, 1, 0, 0, 0}, "VEC2", 2);
    int idx = b.accessor(b.view(std::vector<uint16_t>{0, 1, 2, 0, 2, 3}), 5123, 6, "SCALAR");
    json image;
    if (image_source == "bufferView") image = {{"bufferView", b.view(png)}, {"mimeType", "image/png"}};
    else if (image_source == "data") image = {{"uri", "data:image/png;base64," + Builder::base64(png)}};
    else image = {{"uri", image_source}};
    b.doc["images"] = json::array({image});
    b.doc["samplers"] = json::array({{{"magFilter", 9728}, {"minFilter", 9728}, {"wrapS", 33071}, {"wrapT", 33071}}});
    b.doc["textures"] = json::array({{{"source", 0}, {"sampler", 0}}});
    b.doc["materials"] = json::array({{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}});
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", pos}, {"TEXCOORD_0", uv}}}, {"indices", idx}, {"material", 0}}}}});
    b.node({{"name", "quad"}, {"mesh", mesh}});
    return b;
}

// A RiggedSimple-like character: a square bar (half-width 0.1) from y = 0 to
// y = 2 under a root node moved by `root_y`, skinned to J0 (the root's child,
// at the root) for the level y = 0 and to J1 (one metre up) for the levels
// y = 1 and y = 2; the animation "bend" turns J1 90° about +z over 1 s.
inline Builder riggedBar(float root_y = 0.0f) {
    Builder b;
    std::vector<float> pos;
    std::vector<uint8_t> joints;
    std::vector<float> weights;
    for (int level = 0; level < 3; ++level)
        for (int c = 0; c < 4; ++c) {
            const float x = (c == 0 || c == 3) ? -0.1f : 0.1f, z = c < 2 ? -0.1f : 0.1f;
            pos.insert(pos.end(), {x, float(level), z});
            joints.insert(joints.end(), {uint8_t(level == 0 ? 0 : 1), 0, 0, 0});
            weights.insert(weights.end(), {1, 0, 0, 0});
        }
    std::vector<uint16_t> idx;
    for (int level = 0; level < 2; ++level)
        for (int c = 0; c < 4; ++c) {
            const uint16_t a = uint16_t(4 * level + c), bb = uint16_t(4 * level + (c + 1) % 4);
            idx.insert(idx.end(), {a, bb, uint16_t(bb + 4), a, uint16_t(bb + 4), uint16_t(a + 4)});
        }
    int p = b.floats(pos, "VEC3", 3);
    b.doc["accessors"][size_t(p)]["min"] = {-0.1, 0, -0.1};
    b.doc["accessors"][size_t(p)]["max"] = {0.1, 2, 0.1};
    int j = b.accessor(b.view(joints), 5121, 12, "VEC4");
    int w = b.floats(weights, "VEC4", 4);
    int i = b.accessor(b.view(idx), 5123, idx.size(), "SCALAR");
    int mesh = b.mesh({{"primitives", {{{"attributes", {{"POSITION", p}, {"JOINTS_0", j}, {"WEIGHTS_0", w}}}, {"indices", i}}}}});
    std::vector<float> ib(32, 0.0f);
    for (int k = 0; k < 2; ++k)
        for (int d = 0; d < 4; ++d) ib[size_t(16 * k + 5 * d)] = 1.0f;
    ib[16 + 13] = -1.0f;  // J1 at (0, 1, 0) in the bind pose
    b.node({{"name", "root"}, {"translation", {0, root_y, 0}}, {"children", {1, 3}}});
    b.node({{"name", "J0"}, {"children", {2}}});
    b.node({{"name", "J1"}, {"translation", {0, 1, 0}}});
    b.node({{"name", "bar"}, {"mesh", mesh}, {"skin", 0}});
    b.doc["skins"] = json::array({{{"joints", {1, 2}}, {"inverseBindMatrices", b.accessor(b.view(ib), 5126, 2, "MAT4")}}});
    b.doc["scenes"] = json::array({{{"nodes", {0}}}});
    int t_in = b.floats({0.0f, 1.0f}, "SCALAR", 1);
    b.doc["accessors"][size_t(t_in)]["min"] = {0};
    b.doc["accessors"][size_t(t_in)]["max"] = {1};
    const float s = 0.70710678f;
    int r_out = b.floats({0, 0, 0, 1, 0, 0, s, s}, "VEC4", 4);
    b.doc["animations"] = json::array({{{"name", "bend"},
                                        {"samplers", {{{"input", t_in}, {"output", r_out}}}},
                                        {"channels", {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}}}}}});
    return b;
}

// A fresh temporary folder, unique to this process and call, removed at the
// end of the test.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) {
        static std::atomic<int> serial{0};
        path = std::filesystem::temp_directory_path() /
               ("msxpbd_test_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(serial++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

}  // namespace gltf_test

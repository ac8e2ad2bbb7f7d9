// File access for tinygltf: the pre-flight pass, the file callbacks that
// answer only the expected external buffers, and the image callback.
#include "engine/gltf/gltf_file_access.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

namespace {

using json = nlohmann::json;

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

}  // namespace

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

}  // namespace engine::gltf_detail

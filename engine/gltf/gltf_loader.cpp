// glTF 2.0 → engine::Scene. tinygltf parses the JSON and the buffers; every
// index, offset and count is validated before any buffer is read, sparse
// accessors are applied, and the msxpbd extras schema (docs/scene-format.md)
// is interpreted by the parts listed below. Every bound applied is listed in
// engine/gltf/gltf_input.h and docs/scene-format.md ("Limits"): the JSON is
// scanned for depth before any recursive parser sees it, tinygltf reads files
// only through the callbacks of gltf_file_access (buffers inside the scene's
// folder; images are read by the converter, inside the folder too, and
// decoded only when a drawn material uses them), and every decoded array
// counts against a per-file budget.
//
// This file is the orchestration: the file's header and size, the JSON's
// bounds, the pre-flight pass, tinygltf's parse, the converter and the
// simulation budget. The parts, in engine::gltf_detail: gltf_load_error
// (LoadError, fail), gltf_accessors (accessors and the budget), gltf_extras
// (the schema's getters), gltf_primitives (mesh geometry and welding),
// gltf_nodes (node transforms), gltf_converter* (model → Scene) and
// gltf_file_access (tinygltf's file access).
#include "engine/gltf/gltf_loader.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include <tiny_gltf.h>

#include "engine/gltf/gltf_converter.h"
#include "engine/gltf/gltf_file_access.h"
#include "engine/gltf/gltf_input.h"
#include "engine/gltf/gltf_load_error.h"
#include "sim/printable.h"

namespace engine {
namespace {

using namespace gltf_detail;
namespace lim = gltf_limits;

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

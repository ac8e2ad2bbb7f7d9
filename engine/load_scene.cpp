// loadScene: the built-in scenes by name, the generated scenes by their short
// name, everything else through the glTF loader.
#include "engine/load_scene.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include "engine/build_info.h"
#include "engine/gltf/gltf_loader.h"
#include "engine/scene/builtin_scenes.h"
#include "engine/scene/envelope_source.h"

namespace engine {

namespace {

namespace fs = std::filesystem;

// A letter then digits: the ids the generator gives its scenes (t1..t7, p1..p4).
bool looksLikeShorthand(const std::string& s) {
    if (s.size() < 2 || s.size() > 8 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

fs::path assetScenes() { return fs::path(sourceDirectory()) / "assets" / "scenes"; }

// Every "<id>-*.glb" in assets/scenes, as (id, path), sorted by file name so
// the answer does not depend on the directory's order.
std::vector<std::pair<std::string, fs::path>> generatedFiles() {
    std::vector<std::pair<std::string, fs::path>> out;
    std::error_code ec;
    for (fs::directory_iterator it(assetScenes(), ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        if (p.extension() != ".glb") continue;
        const std::string name = p.filename().string();
        const size_t dash = name.find('-');
        if (dash == std::string::npos || !looksLikeShorthand(name.substr(0, dash))) continue;
        out.emplace_back(name.substr(0, dash), p);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return out;
}

}  // namespace

std::string resolveSceneShorthand(const std::string& spec) {
    std::error_code ec;
    if (!looksLikeShorthand(spec) || fs::exists(spec, ec)) return spec;
    for (const auto& [id, path] : generatedFiles())
        if (id == spec) return path.string();
    return {};
}

std::vector<std::string> sceneShorthands() {
    std::vector<std::string> ids;
    for (const auto& f : generatedFiles())
        if (ids.empty() || ids.back() != f.first) ids.push_back(f.first);
    return ids;
}

std::string sceneChoices() {
    std::string ids;
    for (const std::string& id : sceneShorthands()) ids += (ids.empty() ? "" : ", ") + id;
    return "a .glb/.gltf file, a generated scene by its short name (" + (ids.empty() ? std::string("none found") : ids) +
           ") or builtin:t1, builtin:p1, builtin:p2";
}

std::string loadScene(const std::string& spec, Scene& out) {
    out = Scene{};
    const std::string prefix = "builtin:";
    if (spec.rfind(prefix, 0) == 0) {
        std::string err = makeBuiltinScene(spec.substr(prefix.size()), out);
        out.source = spec;
        return err;
    }
    const std::string path = resolveSceneShorthand(spec);
    if (path.empty())
        return spec + ": no such file, nor a generated scene of that name (--scene takes " + sceneChoices() + ")";
    std::string err = loadGltfScene(path, out);
    if (!err.empty()) {
        out = Scene{};
        return err;
    }
    out.source = path;
    attachEnvelope(out);
    return {};
}

}  // namespace engine

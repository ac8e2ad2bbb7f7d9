// loadScene: the built-in scenes by name, everything else through the glTF loader.
#include "engine/load_scene.h"

#include "engine/gltf/gltf_loader.h"
#include "engine/scene/builtin_scenes.h"

namespace engine {

std::string loadScene(const std::string& spec, Scene& out) {
    out = Scene{};
    const std::string prefix = "builtin:";
    if (spec.rfind(prefix, 0) == 0) {
        std::string err = makeBuiltinScene(spec.substr(prefix.size()), out);
        out.source = spec;
        return err;
    }
    std::string err = loadGltfScene(spec, out);
    if (!err.empty()) {
        out = Scene{};
        return err;
    }
    out.source = spec;
    return {};
}

}  // namespace engine

// glTF 2.0 (.glb / .gltf) → engine::Scene, with the msxpbd extras schema
// (docs/scene-format.md): muscles, bodies, attachments, targets, sensors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace engine {

// Loads a .glb or .gltf file. Returns an error naming the file and the
// problem (and the node / accessor involved), empty on success.
std::string loadGltfScene(const std::string& path, Scene& out);

// Same from memory: `name` is used in messages; `base_dir` resolves external
// buffers of a .gltf (binary is detected from the "glTF" magic).
std::string loadGltfSceneFromMemory(const std::vector<uint8_t>& bytes, const std::string& name,
                                    const std::string& base_dir, Scene& out);

}  // namespace engine

// `msxpbd gen`: every generated scene (docs/scene-format.md (the scenes), docs/anatomy.md) as a glTF binary.
// Deterministic: the same code gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace engine {

struct GeneratedScene {
    std::string id;        // "t5"
    std::string file;      // "t5-arm-flexion.glb"
    std::vector<uint8_t> glb;
    size_t muscles = 0;
    size_t muscle_vertices = 0;
    size_t muscle_triangles = 0;
};

// Ids in order: t1 … t7, p1 … p4.
std::vector<std::string> generatedSceneIds();
// Builds one scene; returns an error for an unknown id.
std::string generateScene(const std::string& id, GeneratedScene& out);
// Writes every scene (or only the one with id `only`) into `dir` (created if
// needed); `summary` receives one entry per file.
std::string writeGeneratedScenes(const std::string& dir, std::vector<GeneratedScene>* summary = nullptr,
                                 const std::string& only = {});

}  // namespace engine

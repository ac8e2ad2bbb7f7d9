// The converter: a parsed, validated tinygltf model → engine::Scene. The
// skeleton is built from the node tree, the msxpbd extras schema is read
// (scene settings, muscles, bodies, attachments, targets, sensors), and the
// render meshes, textures and animations follow. Its members are defined by
// topic: gltf_converter.cpp (the skeleton, scene extras, bodies, warnings),
// gltf_converter_muscles.cpp, gltf_converter_render.cpp (render meshes and
// textures) and gltf_converter_animations.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <tiny_gltf.h>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_extras.h"
#include "engine/scene/scene.h"

namespace engine::gltf_detail {

// "node I 'name'" for messages.
std::string nodeName(const tinygltf::Model& m, int i);

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

    // gltf_converter.cpp: the skeleton, scene extras, bodies, warnings.
    // Duplicates dropped (a mesh read by several nodes warns once), at most
    // kMaxWarnings kept.
    void finishWarnings();
    void buildSkeleton();
    void readSceneExtras();
    int jointByName(const json& v, const std::string& where);
    // Body index for a skeleton joint, created on first use.
    int bodyFor(int joint);

    // gltf_converter_muscles.cpp
    void collectMuscles();
    std::vector<uint32_t> vertexSet(const json& v, const std::vector<uint32_t>& weld_map,
                                    const std::vector<glm::vec3>& local, const std::string& where);
    std::vector<std::vector<uint32_t>> vertexSets(const json& o, const char* key, const std::vector<uint32_t>& map,
                                                  const std::vector<glm::vec3>& local, const std::string& where);
    std::vector<sim::TargetDesc> targets(const json& o, const char* key, int self, const std::string& where);
    void readMuscles();

    // gltf_converter_render.cpp
    // The image bytes of a file's image: a bufferView, a data: URI (kept by
    // the image callback) or a file inside the scene's folder.
    std::string imageBytes(int image, std::vector<uint8_t>& own, std::span<const uint8_t>& bytes);
    // Scene texture for a file's texture index, decoded on first use; −1
    // (and a warning) when it cannot be drawn.
    int textureFor(int index, const std::string& where);
    // One RenderMesh per drawn primitive: each keeps its own material,
    // texture, morph targets and skin influences.
    void readRenderMeshes();

    // gltf_converter_animations.cpp
    // An animation key as the solver will use it (docs/scene-format.md, "Limits").
    static void checkKey(ChannelPath path, glm::vec4 v, bool tangent, const std::string& where);
    void readAnimations();
};

}  // namespace engine::gltf_detail

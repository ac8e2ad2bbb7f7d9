// A small deterministic glTF 2.0 binary (.glb) writer: ordered JSON keys,
// shortest round-trip number formatting, 4-byte aligned chunks, no
// timestamps — the same calls give the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <nlohmann/json.hpp>

namespace engine {

class GltfWriter {
public:
    using json = nlohmann::ordered_json;
    GltfWriter();

    // Accessors (data appended to the single binary buffer). `target`: 34962
    // (vertex attributes), 34963 (indices) or 0.
    int addVec3(const std::vector<glm::vec3>& v, bool with_bounds, int target = 34962);
    int addVec4(const std::vector<glm::vec4>& v, int target = 34962);
    int addJoints(const std::vector<glm::u8vec4>& v);  // UNSIGNED_BYTE VEC4
    int addScalars(const std::vector<float>& v, bool with_bounds);
    int addMat4(const std::vector<glm::mat4>& v);
    int addIndices(const std::vector<uint32_t>& idx);  // u16 when possible

    // alpha_mode: null (OPAQUE, not written) or "BLEND" / "MASK".
    int addMaterial(const std::string& name, glm::vec4 color, float roughness, const char* alpha_mode = nullptr);
    int addMesh(json mesh);
    int addNode(json node);
    int addSkin(json skin);
    int addAnimation(json animation);
    json& node(int i) { return doc_["nodes"][size_t(i)]; }
    void setScene(json scene);

    std::vector<uint8_t> glb() const;

private:
    int addView(const void* data, size_t bytes, int target);
    int addAccessor(json a);
    json doc_;
    std::vector<uint8_t> bin_;
};

}  // namespace engine

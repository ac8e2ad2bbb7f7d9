// The converter's render meshes (one per drawn primitive, with its material,
// skin, morph targets and texture) and the textures they use, decoded on
// first use from a bufferView, a data: URI or a file inside the scene's folder.
#include "engine/gltf/gltf_converter.h"

#include <algorithm>
#include <cmath>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_extras.h"
#include "engine/gltf/gltf_input.h"
#include "engine/gltf/gltf_primitives.h"
#include "engine/gltf/image_decode.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

std::string Converter::imageBytes(int image, std::vector<uint8_t>& own, std::span<const uint8_t>& bytes) {
    const tinygltf::Image& im = m_.images[size_t(image)];
    if (im.bufferView >= 0) {
        size_t len = 0;
        const unsigned char* p = viewBytes(m_, im.bufferView, "image " + std::to_string(image), &len);
        bytes = std::span<const uint8_t>(p, len);
        return {};
    }
    if (im.as_is) {
        bytes = std::span<const uint8_t>(im.image.data(), im.image.size());
        return {};
    }
    if (im.uri.empty()) return "has neither a bufferView nor a uri";
    if (im.uri.rfind("data:", 0) == 0) return "its data: URI is not a base64 PNG or JPEG";
    std::string path;
    if (std::string e = gltf_input::resolveInFolder(base_dir_, im.uri, path); !e.empty())
        return "its uri is refused: it " + e + " (images must be files inside the scene's folder)";
    const uint64_t room = std::min(lim::kMaxFileBytes, external_room_);
    if (std::string e = gltf_input::readRegularFile(path, room, own); !e.empty()) return "'" + im.uri + "' " + e;
    external_room_ -= std::min<uint64_t>(external_room_, own.size());
    bytes = own;
    return {};
}

int Converter::textureFor(int index, const std::string& where) {
    auto it = texture_of_.find(index);
    if (it != texture_of_.end()) return it->second;
    int result = -1;
    const std::string tw = where + ": texture " + std::to_string(index);
    auto refuse = [&](const std::string& why) {
        warnings_.push_back(tw + " " + why + ": drawn with the material's colour only");
    };
    if (index < 0 || size_t(index) >= m_.textures.size()) {
        refuse("is out of range");
    } else {
        const tinygltf::Texture& tex = m_.textures[size_t(index)];
        if (tex.source < 0 || size_t(tex.source) >= m_.images.size()) {
            refuse("has no image msxpbd can read (PNG or JPEG)");
        } else {
            std::vector<uint8_t> own;
            std::span<const uint8_t> bytes;
            std::string e = imageBytes(tex.source, own, bytes);
            const std::string iw = "(image " + std::to_string(tex.source) +
                                   (m_.images[size_t(tex.source)].name.empty() ? "" : " '" + m_.images[size_t(tex.source)].name + "'") + ")";
            int w = 0, h = 0;
            if (e.empty() && imageSize(bytes, w, h, e))  // the size limit included
                budget_.charge(uint64_t(w) * uint64_t(h) * 4u, tw + " " + iw);
            DecodedImage img;
            if (e.empty()) e = decodeImage(bytes, img);
            if (!e.empty()) {
                refuse(iw + ": " + e);
            } else {
                Texture t;
                t.name = m_.images[size_t(tex.source)].name;
                t.width = img.width;
                t.height = img.height;
                t.rgba = std::move(img.rgba);
                if (tex.sampler >= 0 && size_t(tex.sampler) < m_.samplers.size()) {
                    const tinygltf::Sampler& sm = m_.samplers[size_t(tex.sampler)];
                    auto wrap = [](int v) { return v == 33071 || v == 33648 || v == 10497 ? v : 10497; };
                    t.wrap_s = wrap(sm.wrapS);
                    t.wrap_t = wrap(sm.wrapT);
                    const bool min_ok = sm.minFilter == 9728 || sm.minFilter == 9729 ||
                                        (sm.minFilter >= 9984 && sm.minFilter <= 9987);
                    t.min_filter = min_ok ? sm.minFilter : -1;
                    t.mag_filter = sm.magFilter == 9728 || sm.magFilter == 9729 ? sm.magFilter : -1;
                }
                result = int(s_.textures.size());
                s_.textures.push_back(std::move(t));
            }
        }
    }
    texture_of_.emplace(index, result);
    return result;
}

void Converter::readRenderMeshes() {
    for (size_t ni = 0; ni < m_.nodes.size(); ++ni) {
        const tinygltf::Node& node = m_.nodes[ni];
        if (node_joint_[ni] < 0 || node.mesh < 0) continue;
        if (std::find(muscle_nodes_.begin(), muscle_nodes_.end(), int(ni)) != muscle_nodes_.end()) continue;
        const std::string where = nodeName(m_, int(ni));
        const bool skinned = node.skin >= 0;
        if (size_t(node.mesh) >= m_.meshes.size()) fail(where + ": mesh " + std::to_string(node.mesh) + " out of range");
        const tinygltf::Mesh& mesh = m_.meshes[size_t(node.mesh)];
        // Skin: the joint map and the inverse binds, per skinned mesh node.
        std::vector<int> joint_map;
        std::vector<glm::mat4> inverse_bind;
        if (skinned) {
            if (size_t(node.skin) >= m_.skins.size()) fail(where + ": skin " + std::to_string(node.skin) + " out of range");
            const tinygltf::Skin& skin = m_.skins[size_t(node.skin)];
            const std::string sw = where + ", skin " + std::to_string(node.skin);
            if (skin.joints.empty()) fail(sw + ": no joints");
            budget_.charge(uint64_t(skin.joints.size()) * (sizeof(int) + sizeof(glm::mat4)), sw);
            for (int jn : skin.joints) {
                if (jn < 0 || size_t(jn) >= m_.nodes.size() || node_joint_[size_t(jn)] < 0)
                    fail(sw + ": joint node " + std::to_string(jn) + " is not in the scene");
                joint_map.push_back(node_joint_[size_t(jn)]);
            }
            inverse_bind.assign(skin.joints.size(), glm::mat4(1.0f));  // spec: identity when absent
            if (skin.inverseBindMatrices >= 0) {
                AccessorData ib = readAccessor(m_, skin.inverseBindMatrices, sw + " inverseBindMatrices", budget_);
                requireComps(ib, 16, sw + " inverseBindMatrices");
                if (ib.count < skin.joints.size()) fail(sw + ": fewer inverseBindMatrices than joints");
                for (size_t k = 0; k < skin.joints.size(); ++k)
                    for (int c = 0; c < 4; ++c)
                        for (int r = 0; r < 4; ++r) inverse_bind[k][c][r] = float(ib.v[16 * k + size_t(c * 4 + r)]);
            }
        }
        // Default morph weights: the node's, else the mesh's (glTF 2.0, 3.7.2.2).
        const std::vector<double>& dw = !node.weights.empty() ? node.weights : mesh.weights;
        const std::string name = s_.skeleton.joints[size_t(node_joint_[ni])].name;
        // Whether the node is (or is not) the envelope around the muscles.
        int envelope = 0;
        float envelope_thickness = -1.0f;
        float envelope_stiffness_scale = 1.0f;
        if (const json& ex = node_extras_[ni]; ex.is_object() && ex.contains(kEnvelopeKey)) {
            const json& v = ex[kEnvelopeKey];
            if (v.is_boolean()) {
                envelope = v.get<bool>() ? 1 : -1;
            } else {
                const json o = schemaObject(ex, kEnvelopeKey, where);
                envelope = 1;
                envelope_thickness = float(getBounded(o, "thickness", 0.003, 0.0, 0.1, where + " extras." + kEnvelopeKey));
                envelope_stiffness_scale =
                    float(getBounded(o, "stiffness_scale", 1.0, 1e-6, 1e6, where + " extras." + kEnvelopeKey));
            }
        }
        int drawn = 0;
        for (size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
            Geometry g = readPrimitive(m_, node.mesh, pi, {skinned, true}, where, budget_, warnings_);
            if (!g.drawn || g.indices.empty() || g.cut) continue;
            computeMissingNormals(g);
            RenderMesh rm;
            rm.name = drawn == 0 ? name : name + " (primitive " + std::to_string(pi) + ")";
            rm.mesh = mesh.name.empty() ? "mesh " + std::to_string(node.mesh) : mesh.name;
            rm.primitive = int(pi);
            rm.color = g.color;
            rm.alpha = g.alpha;
            rm.blend = g.blend;
            rm.envelope = envelope;
            rm.envelope_thickness = envelope_thickness;
            rm.envelope_stiffness_scale = envelope_stiffness_scale;
            if (skinned) {
                const size_t slots = joint_map.size();
                for (size_t i = 0; i < g.joints.size(); ++i)
                    for (int c = 0; c < 4; ++c)
                        if (g.weights[i][c] != 0.0f && g.joints[i][c] >= slots)
                            fail(where + ": JOINTS_" + std::to_string(i % size_t(g.sets)) + " refers to skin joint " +
                                 std::to_string(g.joints[i][c]) + " out of range (" + std::to_string(slots) +
                                 " joints)");
                rm.skin = node.skin;
                rm.skin_joint_map = joint_map;
                rm.inverse_bind = inverse_bind;
                rm.influence_sets = g.sets;
                rm.skin_joints = std::move(g.joints);
                rm.skin_weights = std::move(g.weights);
            } else {
                rm.joint = node_joint_[ni];
            }
            if (!g.targets.empty()) {
                if (!dw.empty() && dw.size() != g.targets.size())
                    warnings_.push_back(where + ", mesh " + std::to_string(node.mesh) + ": " +
                                        std::to_string(dw.size()) + " default weights for " +
                                        std::to_string(g.targets.size()) + " morph targets (missing ones are 0)");
                for (size_t t = 0; t < g.targets.size(); ++t) {
                    const double w = t < dw.size() && finiteFloat(dw[t]) ? dw[t] : 0.0;
                    rm.morph_weights.push_back(float(std::clamp(w, -lim::kMaxScale, lim::kMaxScale)));
                }
                rm.morph_targets = std::move(g.targets);
                rm.morph_node = node_joint_[ni];
            }
            if (g.texture >= 0) {
                rm.texture = textureFor(g.texture, where + ", mesh " + std::to_string(node.mesh) + " primitive " +
                                                       std::to_string(pi));
                if (rm.texture >= 0) {
                    rm.uvs = std::move(g.uvs);
                    rm.alpha_cutoff = g.alpha_cutoff;
                }
            }
            rm.positions = std::move(g.positions);
            rm.normals = std::move(g.normals);
            rm.indices = std::move(g.indices);
            s_.meshes.push_back(std::move(rm));
            ++drawn;
        }
    }
    for (size_t k = 0; k < m_.skins.size(); ++k)
        s_.skins.push_back({m_.skins[k].name.empty() ? "skin " + std::to_string(k) : m_.skins[k].name,
                            m_.skins[k].joints.size()});
}

}  // namespace engine::gltf_detail

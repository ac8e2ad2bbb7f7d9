// glTF 2.0 (.glb, or .gltf with FILE.bin beside it) of a baked clip:
//  - the scene's skeleton as nodes (rest TRS), its bone meshes (rigid ones on
//    their joint's node, skinned ones with their skin);
//  - every muscle as a mesh whose base shape is the bind pose and which has
//    one morph target per baked frame (POSITION and NORMAL deltas);
//  - one animation: each muscle's weights, one-hot at frame k's time, LINEAR
//    between keys, and the skeleton's channels resampled at the same times
//    (the poses the simulation gave the bones), so the two stay together.
// Time 0 of the animation is the first baked frame.
//
// The binary data streams to a scratch file as frames arrive; a morph
// target's POSITION accessor needs its bounds, known only once its frame is
// written, so the JSON is written at the end and the .glb assembled from it
// and the scratch file.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/export/format_writers.h"
#include "engine/mesh/mesh_normals.h"

namespace engine::bake_detail {

namespace {

using json = nlohmann::ordered_json;

constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr int kFloat = 5126, kUByte = 5121, kUShort = 5123, kUInt = 5125;
constexpr uint64_t kGlbLimit = 0xFFFFFFFFull;  // the .glb header's 32-bit length

// Bounds as the doubles of the stored floats (the validator compares exactly).
template <int N, class V>
void bounds(const V* v, size_t n, json& a) {
    json lo = json::array(), hi = json::array();
    for (int c = 0; c < N; ++c) {
        float l = std::numeric_limits<float>::infinity(), h = -l;
        for (size_t i = 0; i < n; ++i) {
            l = std::min(l, v[i][c]);
            h = std::max(h, v[i][c]);
        }
        lo.push_back(double(l));
        hi.push_back(double(h));
    }
    a["min"] = lo;
    a["max"] = hi;
}

std::string jsonString(const std::string& s) { return json(s).dump(); }

class GltfAnimWriter final : public BakeWriter {
public:
    GltfAnimWriter(const std::string& path, const BakeClip& clip, bool binary)
        : BakeWriter(path, clip.frames), clip_(clip), binary_(binary), path_(path), bin_(binary ? path + ".bin" : binPathFor(path), binary ? path : std::string()) {
        out_ = std::make_unique<OutputFile>(path_);  // the folder is checked before any work
        writeStatic();
        first_frame_view_ = views_.size();
        bounds_.reserve(size_t(clip_.frames) * clip_.muscles.size() * 6);
    }

    void writeFrame(const std::vector<glm::vec3>& x) override {
        const uint64_t off = align();
        for (size_t mi = 0; mi < clip_.muscles.size(); ++mi) {
            const BakedMuscle& m = clip_.muscles[mi];
            if (size_t(m.first) + m.count > x.size()) throw ExportError(path_ + ": a frame has too few positions");
            pos_.resize(m.count);
            for (uint32_t i = 0; i < m.count; ++i) pos_[i] = x[m.first + i];
            vertexNormals(pos_, m.triangles, nrm_);
            glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
            for (uint32_t i = 0; i < m.count; ++i) {
                pos_[i] -= m.rest[i];
                nrm_[i] -= rest_normals_[mi][i];
                lo = glm::min(lo, pos_[i]);
                hi = glm::max(hi, pos_[i]);
            }
            bounds_.insert(bounds_.end(), {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z});
            bin_.write(pos_.data(), pos_.size() * sizeof(glm::vec3));
            bin_.write(nrm_.data(), nrm_.size() * sizeof(glm::vec3));
        }
        pushView(off, bin_.size() - off, kArrayBuffer, sizeof(glm::vec3));
    }

    void complete() override {
        align();
        const uint64_t bin_bytes = bin_.size();
        json buffer = {{"byteLength", bin_bytes}};
        if (!binary_) buffer["uri"] = std::filesystem::path(bin_.finalPath()).filename().string();
        doc_["buffers"] = json::array({buffer});
        doc_["bufferViews"] = views_;
        std::string js = doc_.dump();
        js.pop_back();  // the closing brace: meshes and accessors are written as text
        js += ",\"meshes\":[" + meshesText() + "],\"accessors\":[" + accessorsText() + "]}";
        if (!binary_) {
            out_->writeString(js);
            bin_.commit();
            out_->commit();
            return;
        }
        while (js.size() % 4) js.push_back(' ');
        const uint64_t total = 12 + 8 + js.size() + 8 + bin_bytes;
        if (total > kGlbLimit)
            throw ExportError(path_ + ": " + std::to_string(total >> 20) +
                              " MiB is more than a .glb can hold (4 GiB): bake fewer frames, or to .usda or .pc2");
        auto u32 = [&](uint32_t v) { out_->write(&v, 4); };
        out_->write("glTF", 4);
        u32(2);
        u32(uint32_t(total));
        u32(uint32_t(js.size()));
        u32(0x4E4F534Au);  // JSON
        out_->writeString(js);
        u32(uint32_t(bin_bytes));
        u32(0x004E4942u);  // BIN
        std::vector<char> block(size_t(8) << 20);
        for (uint64_t at = 0; at < bin_bytes;) {
            const size_t n = size_t(std::min<uint64_t>(block.size(), bin_bytes - at));
            bin_.readAt(at, block.data(), n);
            out_->write(block.data(), n);
            at += n;
        }
        bin_.close();
        out_->commit();
    }

    std::vector<std::string> files() const override {
        if (binary_) return {path_};
        return {path_, bin_.finalPath()};
    }

private:
    static std::string binPathFor(const std::string& path) { return path.substr(0, path.find_last_of('.')) + ".bin"; }

    uint64_t align() {
        static const char zeros[4] = {};
        if (bin_.size() % 4) bin_.write(zeros, 4 - bin_.size() % 4);
        return bin_.size();
    }

    int pushView(uint64_t off, uint64_t bytes, int target, int stride = 0) {
        json v = {{"buffer", 0}, {"byteOffset", off}, {"byteLength", bytes}};
        if (stride) v["byteStride"] = stride;
        if (target) v["target"] = target;
        views_.push_back(v);
        return int(views_.size()) - 1;
    }

    int addData(const void* data, size_t bytes, int target) {
        const uint64_t off = align();
        bin_.write(data, bytes);
        return pushView(off, bytes, target);
    }

    int addAccessor(json a) {
        accessors_.push_back(std::move(a));
        return int(accessors_.size()) - 1;
    }

    int addVec3(const std::vector<glm::vec3>& v, bool with_bounds) {
        json a = {{"bufferView", addData(v.data(), v.size() * 12, kArrayBuffer)},
                  {"componentType", kFloat}, {"count", v.size()}, {"type", "VEC3"}};
        if (with_bounds) bounds<3>(v.data(), v.size(), a);
        return addAccessor(a);
    }

    int addIndices(const std::vector<uint32_t>& idx, uint32_t vertices) {
        if (vertices <= 65535) {
            std::vector<uint16_t> s(idx.begin(), idx.end());
            return addAccessor({{"bufferView", addData(s.data(), s.size() * 2, kElementArrayBuffer)},
                                {"componentType", kUShort}, {"count", s.size()}, {"type", "SCALAR"}});
        }
        return addAccessor({{"bufferView", addData(idx.data(), idx.size() * 4, kElementArrayBuffer)},
                            {"componentType", kUInt}, {"count", idx.size()}, {"type", "SCALAR"}});
    }

    int addMaterial(const std::string& name, glm::vec3 color, float alpha, bool blend) {
        json m = {{"name", name},
                  {"pbrMetallicRoughness",
                   {{"baseColorFactor", {double(color.x), double(color.y), double(color.z), double(alpha)}},
                    {"metallicFactor", 0.0},
                    {"roughnessFactor", 0.6}}}};
        if (blend) m["alphaMode"] = "BLEND";
        doc_["materials"].push_back(m);
        return int(doc_["materials"].size()) - 1;
    }

    void writeStatic() {
        const Scene& scene = *clip_.scene;
        doc_["asset"] = {{"version", "2.0"}, {"generator", "msxpbd bake"}};
        doc_["extras"] = {{"msxpbd_bake",
                           {{"source", clip_.source},
                            {"first_frame", clip_.first_frame},
                            {"frames", clip_.frames},
                            {"frame_dt", clip_.frame_dt}}}};
        doc_["scene"] = 0;
        doc_["nodes"] = json::array();
        doc_["materials"] = json::array();
        json roots = json::array();

        // The skeleton: node j is joint j.
        const auto& joints = scene.skeleton.joints;
        for (size_t j = 0; j < joints.size(); ++j) {
            const Joint& jt = joints[j];
            json n = {{"name", jt.name}};
            if (jt.translation != glm::vec3(0.0f))
                n["translation"] = {double(jt.translation.x), double(jt.translation.y), double(jt.translation.z)};
            if (jt.rotation != glm::quat(1.0f, 0.0f, 0.0f, 0.0f))
                n["rotation"] = {double(jt.rotation.x), double(jt.rotation.y), double(jt.rotation.z),
                                 double(jt.rotation.w)};
            if (jt.scale != glm::vec3(1.0f)) n["scale"] = {double(jt.scale.x), double(jt.scale.y), double(jt.scale.z)};
            doc_["nodes"].push_back(n);
        }
        std::vector<json> children(joints.size(), json::array());
        for (size_t j = 0; j < joints.size(); ++j) {
            if (joints[j].parent >= 0 && size_t(joints[j].parent) < joints.size())
                children[size_t(joints[j].parent)].push_back(j);
            else
                roots.push_back(j);
        }

        // Bone meshes.
        for (size_t k = 0; k < scene.meshes.size(); ++k) {
            const RenderMesh& rm = scene.meshes[k];
            if (clip_.replacedMesh(k)) continue;  // the drawn skin stands for it
            if (rm.positions.empty() || rm.indices.empty()) continue;
            std::vector<glm::vec3> normals = rm.normals;
            if (normals.size() != rm.positions.size()) {
                std::vector<glm::uvec3> tris;
                for (size_t i = 0; i + 2 < rm.indices.size(); i += 3)
                    tris.push_back({rm.indices[i], rm.indices[i + 1], rm.indices[i + 2]});
                vertexNormals(rm.positions, tris, normals);
            }
            json attributes = {{"POSITION", addVec3(rm.positions, true)}, {"NORMAL", addVec3(normals, false)}};
            json prim = {{"attributes", attributes},
                         {"indices", addIndices(rm.indices, uint32_t(rm.positions.size()))},
                         {"material", addMaterial(rm.name, rm.color, rm.blend ? rm.alpha : 1.0f, rm.blend)}};
            json node = {{"name", rm.name}};
            if (rm.skinned()) {
                uint32_t top = 0;
                for (const auto& j : rm.skin_joints) top = std::max({top, j.x, j.y, j.z, j.w});
                std::vector<uint16_t> js;
                for (const auto& j : rm.skin_joints) js.insert(js.end(), {uint16_t(j.x), uint16_t(j.y), uint16_t(j.z), uint16_t(j.w)});
                int ja;
                if (top < 256) {
                    std::vector<uint8_t> b(js.begin(), js.end());
                    ja = addAccessor({{"bufferView", addData(b.data(), b.size(), kArrayBuffer)},
                                      {"componentType", kUByte}, {"count", rm.skin_joints.size()}, {"type", "VEC4"}});
                } else {
                    ja = addAccessor({{"bufferView", addData(js.data(), js.size() * 2, kArrayBuffer)},
                                      {"componentType", kUShort}, {"count", rm.skin_joints.size()}, {"type", "VEC4"}});
                }
                prim["attributes"]["JOINTS_0"] = ja;
                prim["attributes"]["WEIGHTS_0"] =
                    addAccessor({{"bufferView", addData(rm.skin_weights.data(), rm.skin_weights.size() * 16, kArrayBuffer)},
                                 {"componentType", kFloat}, {"count", rm.skin_weights.size()}, {"type", "VEC4"}});
                json skin = {{"joints", rm.skin_joint_map},
                             {"inverseBindMatrices",
                              addAccessor({{"bufferView", addData(rm.inverse_bind.data(), rm.inverse_bind.size() * 64, 0)},
                                           {"componentType", kFloat}, {"count", rm.inverse_bind.size()}, {"type", "MAT4"}})}};
                if (!doc_.contains("skins")) doc_["skins"] = json::array();
                doc_["skins"].push_back(skin);
                node["skin"] = doc_["skins"].size() - 1;
            }
            bone_meshes_.push_back(json{{"name", rm.name}, {"primitives", json::array({prim})}});
            node["mesh"] = clip_.muscles.size() + bone_meshes_.size() - 1;  // after the muscles' meshes
            const bool on_joint = !rm.skinned() && rm.joint >= 0 && size_t(rm.joint) < joints.size();
            if (on_joint && !doc_["nodes"][size_t(rm.joint)].contains("mesh")) {
                doc_["nodes"][size_t(rm.joint)]["mesh"] = node["mesh"];
            } else {
                doc_["nodes"].push_back(node);
                const size_t ni = doc_["nodes"].size() - 1;
                if (on_joint)
                    children[size_t(rm.joint)].push_back(ni);
                else
                    roots.push_back(ni);
            }
        }
        for (size_t j = 0; j < joints.size(); ++j)
            if (!children[j].empty()) doc_["nodes"][j]["children"] = children[j];

        // Muscles: mesh i is muscle i (they come first in "meshes"), a root node each.
        const int muscle_material = addMaterial("muscle", glm::vec3(0.75f, 0.25f, 0.22f), 1.0f, false);
        for (size_t mi = 0; mi < clip_.muscles.size(); ++mi) {
            const BakedMuscle& m = clip_.muscles[mi];
            std::vector<glm::vec3> n;
            vertexNormals(m.rest, m.triangles, n);
            rest_normals_.push_back(n);
            MuscleAccessors a;
            a.position = addVec3(m.rest, true);
            a.normal = addVec3(n, false);
            std::vector<uint32_t> idx;
            for (const auto& t : m.triangles) idx.insert(idx.end(), {t.x, t.y, t.z});
            a.indices = addIndices(idx, m.count);
            muscle_acc_.push_back(a);
            doc_["nodes"].push_back({{"name", m.name}, {"mesh", mi}});
            roots.push_back(doc_["nodes"].size() - 1);
            muscle_nodes_.push_back(int(doc_["nodes"].size()) - 1);
        }
        muscle_material_ = muscle_material;
        doc_["scenes"] = json::array({{{"nodes", roots}}});

        writeAnimation();
    }

    void writeAnimation() {
        const Scene& scene = *clip_.scene;
        const size_t n = size_t(clip_.frames);
        std::vector<float> times(n);
        for (size_t k = 0; k < n; ++k) times[k] = float(double(k) * clip_.frame_dt);
        json ta = {{"bufferView", addData(times.data(), n * 4, 0)}, {"componentType", kFloat}, {"count", n},
                   {"type", "SCALAR"}, {"min", {double(times.front())}}, {"max", {double(times.back())}}};
        const int input = addAccessor(ta);
        json samplers = json::array(), channels = json::array();
        if (!clip_.muscles.empty()) {
            // One-hot weights: at key k, target k has weight 1 (shared by every muscle).
            const uint64_t off = align();
            std::vector<float> row(n, 0.0f);
            for (size_t k = 0; k < n; ++k) {
                row[k] = 1.0f;
                bin_.write(row.data(), n * 4);
                row[k] = 0.0f;
            }
            const int view = pushView(off, uint64_t(n) * n * 4, 0);
            const int output = addAccessor({{"bufferView", view}, {"componentType", kFloat}, {"count", n * n},
                                            {"type", "SCALAR"}});
            samplers.push_back({{"input", input}, {"interpolation", "LINEAR"}, {"output", output}});
            for (int node : muscle_nodes_)
                channels.push_back({{"sampler", 0}, {"target", {{"node", node}, {"path", "weights"}}}});
        }
        // The skeleton's channels resampled at the baked frames (a later
        // channel on the same joint and path wins, as in Scene::localPoses).
        if (clip_.animation >= 0 && size_t(clip_.animation) < scene.animations.size()) {
            const Animation& anim = scene.animations[size_t(clip_.animation)];
            std::map<std::pair<int, int>, size_t> last;
            for (size_t c = 0; c < anim.channels.size(); ++c)
                if (anim.channels[c].joint >= 0 && size_t(anim.channels[c].joint) < scene.skeleton.joints.size())
                    last[{anim.channels[c].joint, int(anim.channels[c].path)}] = c;
            for (const auto& [key, c] : last) {
                const AnimationChannel& ch = anim.channels[c];
                const bool rotation = ch.path == ChannelPath::Rotation;
                std::vector<float> out;
                for (size_t k = 0; k < n; ++k) {
                    glm::vec4 v = sampleChannel(ch, clip_.animation_times[k]);
                    if (rotation) {
                        const float l = std::sqrt(glm::dot(v, v));
                        v = l > 0.0f ? v / l : glm::vec4(0, 0, 0, 1);
                        out.insert(out.end(), {v.x, v.y, v.z, v.w});
                    } else {
                        out.insert(out.end(), {v.x, v.y, v.z});
                    }
                }
                const int output = addAccessor({{"bufferView", addData(out.data(), out.size() * 4, 0)},
                                                {"componentType", kFloat}, {"count", n},
                                                {"type", rotation ? "VEC4" : "VEC3"}});
                samplers.push_back({{"input", input}, {"interpolation", "LINEAR"}, {"output", output}});
                const char* path = rotation ? "rotation" : ch.path == ChannelPath::Scale ? "scale" : "translation";
                channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", key.first}, {"path", path}}}});
            }
        }
        if (!channels.empty())
            doc_["animations"] = json::array({{{"name", "bake"}, {"channels", channels}, {"samplers", samplers}}});
    }

    std::string meshesText() const {
        std::string s;
        const size_t n = size_t(clip_.frames), nm = clip_.muscles.size();
        const size_t first_frame_accessor = accessors_.size();
        for (size_t mi = 0; mi < nm; ++mi) {
            const MuscleAccessors& a = muscle_acc_[mi];
            if (mi) s += ',';
            s += "{\"name\":" + jsonString(clip_.muscles[mi].name) + ",\"primitives\":[{\"attributes\":{\"POSITION\":" +
                 std::to_string(a.position) + ",\"NORMAL\":" + std::to_string(a.normal) +
                 "},\"indices\":" + std::to_string(a.indices) + ",\"material\":" + std::to_string(muscle_material_) +
                 ",\"targets\":[";
            for (size_t k = 0; k < n; ++k) {
                const size_t acc = first_frame_accessor + 2 * (k * nm + mi);
                if (k) s += ',';
                s += "{\"POSITION\":" + std::to_string(acc) + ",\"NORMAL\":" + std::to_string(acc + 1) + "}";
            }
            s += "]}],\"extras\":{\"targetNames\":[";
            for (size_t k = 0; k < n; ++k) {
                if (k) s += ',';
                s += "\"frame " + std::to_string(clip_.first_frame + int64_t(k)) + "\"";
            }
            s += "]}}";
        }
        for (const json& m : bone_meshes_) {
            if (!s.empty()) s += ',';
            s += m.dump();
        }
        return s;
    }

    std::string accessorsText() const {
        std::string s;
        for (const json& a : accessors_) {
            if (!s.empty()) s += ',';
            s += a.dump();
        }
        // Two per muscle and frame, in the frame's view: position deltas,
        // then normal deltas.
        const size_t n = size_t(clip_.frames), nm = clip_.muscles.size();
        for (size_t k = 0; k < n; ++k) {
            uint64_t off = 0;
            const std::string view = std::to_string(first_frame_view_ + k);
            for (size_t mi = 0; mi < nm; ++mi) {
                const uint32_t count = clip_.muscles[mi].count;
                const float* b = &bounds_[(k * nm + mi) * 6];
                s += ",{\"bufferView\":" + view + ",\"byteOffset\":" + std::to_string(off) +
                     ",\"componentType\":5126,\"count\":" + std::to_string(count) + ",\"type\":\"VEC3\",\"min\":[";
                for (int c = 0; c < 3; ++c) {
                    if (c) s += ',';
                    appendNumber(s, double(b[c]));
                }
                s += "],\"max\":[";
                for (int c = 0; c < 3; ++c) {
                    if (c) s += ',';
                    appendNumber(s, double(b[3 + c]));
                }
                s += "]}";
                off += uint64_t(count) * 12;
                s += ",{\"bufferView\":" + view + ",\"byteOffset\":" + std::to_string(off) +
                     ",\"componentType\":5126,\"count\":" + std::to_string(count) + ",\"type\":\"VEC3\"}";
                off += uint64_t(count) * 12;
            }
        }
        if (s.size() && s[0] == ',') s.erase(0, 1);
        return s;
    }

    struct MuscleAccessors {
        int position = -1, normal = -1, indices = -1;
    };

    const BakeClip clip_;
    const bool binary_;
    const std::string path_;
    OutputFile bin_;                     // .glb: scratch; .gltf: FILE.bin
    std::unique_ptr<OutputFile> out_;
    json doc_ = json::object();
    json views_ = json::array();
    std::vector<json> accessors_;        // everything but the frames'
    std::vector<json> bone_meshes_;
    std::vector<MuscleAccessors> muscle_acc_;
    std::vector<int> muscle_nodes_;
    std::vector<std::vector<glm::vec3>> rest_normals_;
    int muscle_material_ = 0;
    size_t first_frame_view_ = 0;
    std::vector<float> bounds_;          // per frame and muscle: min xyz, max xyz of the position deltas
    std::vector<glm::vec3> pos_, nrm_;   // one muscle of the current frame
};

}  // namespace

std::unique_ptr<BakeWriter> openGltfWriter(const std::string& path, const BakeClip& clip, bool binary) {
    if (binary && estimatedBakeBytes(BakeFormat::Glb, clip) > kGlbLimit)
        throw ExportError(path + ": about " + std::to_string(estimatedBakeBytes(BakeFormat::Glb, clip) >> 20) +
                          " MiB is more than a .glb can hold (4 GiB): bake fewer frames, or to .usda or .pc2");
    return std::make_unique<GltfAnimWriter>(path, clip, binary);
}

}  // namespace engine::bake_detail

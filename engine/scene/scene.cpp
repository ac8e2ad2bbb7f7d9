// Skeleton and Scene queries.
#include "engine/scene/scene.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/scene/mesh_pose.h"

namespace engine {

glm::mat4 composeTRS(const glm::vec3& t, const glm::quat& r, const glm::vec3& s) {
    glm::mat4 m = glm::mat4_cast(r);
    m[0] *= s.x;
    m[1] *= s.y;
    m[2] *= s.z;
    m[3] = glm::vec4(t, 1.0f);
    return m;
}

int Skeleton::find(const std::string& name) const {
    for (size_t i = 0; i < joints.size(); ++i)
        if (joints[i].name == name) return int(i);
    return -1;
}

void Skeleton::globals(const std::vector<glm::mat4>& locals, std::vector<glm::mat4>& out) const {
    out.assign(joints.size(), glm::mat4(1.0f));
    for (size_t i = 0; i < joints.size() && i < locals.size(); ++i) {
        int p = joints[i].parent;
        out[i] = (p >= 0 && size_t(p) < i) ? out[size_t(p)] * locals[i] : locals[i];
    }
}

std::vector<glm::mat4> Skeleton::restLocals() const {
    std::vector<glm::mat4> l(joints.size());
    for (size_t i = 0; i < joints.size(); ++i)
        l[i] = composeTRS(joints[i].translation, joints[i].rotation, joints[i].scale);
    return l;
}

bool Scene::hasSensors() const {
    for (const MuscleSensors& s : sensors)
        if (!s.empty()) return true;
    return false;
}

int Scene::findAnimation(const std::string& name) const {
    for (size_t i = 0; i < animations.size(); ++i)
        if (animations[i].name == name) return int(i);
    return -1;
}

double Scene::duration(int animation) const {
    if (animation < 0 || size_t(animation) >= animations.size()) return 0.0;
    return animations[size_t(animation)].duration();
}

double Scene::loopTime(int animation, double t) const {
    double d = duration(animation);
    if (!(d > 0.0) || !std::isfinite(t)) return std::isfinite(t) ? t : 0.0;
    double r = std::fmod(t, d);
    return r < 0.0 ? r + d : r;
}

std::vector<glm::mat4> Scene::localPoses(int animation, double t) const {
    const size_t n = skeleton.joints.size();
    std::vector<glm::vec3> tr(n), sc(n);
    std::vector<glm::quat> rot(n);
    for (size_t i = 0; i < n; ++i) {
        tr[i] = skeleton.joints[i].translation;
        rot[i] = skeleton.joints[i].rotation;
        sc[i] = skeleton.joints[i].scale;
    }
    if (animation >= 0 && size_t(animation) < animations.size()) {
        for (const AnimationChannel& c : animations[size_t(animation)].channels) {
            if (c.joint < 0 || size_t(c.joint) >= n || c.path == ChannelPath::Weights) continue;
            glm::vec4 v = sampleChannel(c, t);
            switch (c.path) {
                case ChannelPath::Translation: tr[size_t(c.joint)] = glm::vec3(v); break;
                case ChannelPath::Scale: sc[size_t(c.joint)] = glm::vec3(v); break;
                case ChannelPath::Rotation: rot[size_t(c.joint)] = glm::quat(v.w, v.x, v.y, v.z); break;
                case ChannelPath::Weights: break;
            }
        }
    }
    std::vector<glm::mat4> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = composeTRS(tr[i], rot[i], sc[i]);
    return out;
}

glm::quat Scene::jointRotation(int joint, int animation, double t) const {
    if (joint < 0 || size_t(joint) >= skeleton.joints.size()) return glm::quat(1, 0, 0, 0);
    glm::quat r = skeleton.joints[size_t(joint)].rotation;
    if (animation >= 0 && size_t(animation) < animations.size())
        for (const AnimationChannel& c : animations[size_t(animation)].channels)
            if (c.joint == joint && c.path == ChannelPath::Rotation) {
                glm::vec4 v = sampleChannel(c, t);
                r = glm::quat(v.w, v.x, v.y, v.z);
            }
    return r;
}

void Scene::morphWeights(int animation, double t, std::vector<float>& out) const {
    out.clear();
    for (const RenderMesh& m : meshes) {
        if (m.morph_targets.empty()) continue;
        const size_t first = out.size(), n = m.morph_targets.size();
        out.insert(out.end(), m.morph_weights.begin(), m.morph_weights.end());
        out.resize(first + n, 0.0f);
        if (animation < 0 || size_t(animation) >= animations.size() || m.morph_node < 0) continue;
        for (const AnimationChannel& c : animations[size_t(animation)].channels)
            if (c.path == ChannelPath::Weights && c.joint == m.morph_node)
                sampleWeights(c, t, std::span<float>(out).subspan(first, n));
    }
}

void Scene::envelopePose(int animation, double t, std::vector<glm::vec3>& out) const {
    out.clear();
    if (envelope_mesh < 0 || size_t(envelope_mesh) >= meshes.size()) return;
    std::vector<glm::mat4> globals;
    skeleton.globals(localPoses(animation, t), globals);
    const std::vector<glm::vec3> posed = posedPositions(meshes[size_t(envelope_mesh)], globals);
    out.reserve(envelope_source.size());
    for (uint32_t v : envelope_source) out.push_back(v < posed.size() ? posed[v] : glm::vec3(0.0f));
}

std::vector<glm::mat4> Scene::bodyTransforms(int animation, double t) const {
    std::vector<glm::mat4> globals;
    skeleton.globals(localPoses(animation, t), globals);
    std::vector<glm::mat4> out(desc.bodies.size(), glm::mat4(1.0f));
    for (size_t i = 0; i < out.size(); ++i) {
        glm::mat4 off = i < body_offset.size() ? body_offset[i] : glm::mat4(1.0f);
        int j = i < body_joint.size() ? body_joint[i] : -1;
        if (j >= 0 && size_t(j) < globals.size())
            out[i] = globals[size_t(j)] * off;
        else
            out[i] = i < body_offset.size() ? off : desc.bodies[i].transform;
    }
    return out;
}

std::optional<float> Scene::sensorActivation(size_t muscle, int animation, double t) const {
    if (muscle >= sensors.size() || sensors[muscle].empty()) return std::nullopt;
    auto angle_at = [&](const Sensor& s, double time) -> double {
        if (s.joint < 0 || size_t(s.joint) >= skeleton.joints.size()) return 0.0;
        return twistAngle(skeleton.joints[size_t(s.joint)].rotation, jointRotation(s.joint, animation, time),
                          s.axis);
    };
    return evaluateSensors(sensors[muscle], angle_at, t);
}

std::vector<glm::vec3> posedPositions(const RenderMesh& mesh, const std::vector<glm::mat4>& globals,
                                      std::span<const float> morph) {
    std::vector<glm::mat4> jm;
    glm::mat4 rigid(1.0f);
    if (mesh.skinned()) {
        jm.assign(mesh.skin_joint_map.size(), glm::mat4(1.0f));
        for (size_t k = 0; k < jm.size(); ++k) {
            int j = mesh.skin_joint_map[k];
            glm::mat4 g = (j >= 0 && size_t(j) < globals.size()) ? globals[size_t(j)] : glm::mat4(1.0f);
            jm[k] = g * (k < mesh.inverse_bind.size() ? mesh.inverse_bind[k] : glm::mat4(1.0f));
        }
    } else if (mesh.joint >= 0 && size_t(mesh.joint) < globals.size()) {
        rigid = globals[size_t(mesh.joint)];
    }
    std::vector<glm::vec3> out;
    out.reserve(mesh.positions.size());
    appendPosed({mesh.positions, mesh.morph_targets, mesh.skin_joints, mesh.skin_weights, mesh.influence_sets},
                morph.empty() ? std::span<const float>(mesh.morph_weights) : morph, jm, rigid, out);
    return out;
}

}  // namespace engine

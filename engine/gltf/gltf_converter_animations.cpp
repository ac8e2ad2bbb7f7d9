// The converter's animations: channels on translation, rotation, scale and
// morph weights, each key checked as the solver will use it.
#include "engine/gltf/gltf_converter.h"

#include <algorithm>
#include <cmath>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_extras.h"
#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

void Converter::checkKey(ChannelPath path, glm::vec4 v, bool tangent, const std::string& where) {
    for (int q = 0; q < 4; ++q)
        if (!std::isfinite(v[q])) fail(where + ": not finite as a 32-bit float");
    if (tangent || path == ChannelPath::Translation) {
        for (int q = 0; q < 3; ++q)
            if (!(std::fabs(v[q]) <= lim::kMaxCoordinate))
                fail(where + ": " + fmt(v[q]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) + ")");
    } else if (path == ChannelPath::Rotation) {
        const float l = glm::length(v);
        if (!(std::fabs(l - 1.0f) <= lim::kQuaternionTolerance))
            fail(where + ": rotation is not a unit quaternion (length " + fmt(l) + ")");
    } else {
        for (int q = 0; q < 3; ++q)
            if (!(std::fabs(v[q]) >= lim::kMinScale && std::fabs(v[q]) <= lim::kMaxScale))
                fail(where + ": scale " + fmt(v[q]) + " makes the transform singular or extreme (|s| must be in [" +
                     fmt(lim::kMinScale) + ", " + fmt(lim::kMaxScale) + "])");
    }
}

void Converter::readAnimations() {
    for (size_t ai = 0; ai < m_.animations.size(); ++ai) {
        const tinygltf::Animation& an = m_.animations[ai];
        const std::string where = "animation " + std::to_string(ai) + (an.name.empty() ? "" : " '" + an.name + "'");
        Animation out;
        out.name = an.name.empty() ? "animation" + std::to_string(ai) : an.name;
        for (size_t ci = 0; ci < an.channels.size(); ++ci) {
            const tinygltf::AnimationChannel& ch = an.channels[ci];
            const std::string cw = where + " channel " + std::to_string(ci);
            if (ch.target_node < 0 || size_t(ch.target_node) >= m_.nodes.size())
                fail(cw + ": target node " + std::to_string(ch.target_node) + " out of range");
            if (ch.sampler < 0 || size_t(ch.sampler) >= an.samplers.size())
                fail(cw + ": sampler " + std::to_string(ch.sampler) + " out of range");
            AnimationChannel c;
            int comps;
            if (ch.target_path == "translation") c.path = ChannelPath::Translation, comps = 3;
            else if (ch.target_path == "rotation") c.path = ChannelPath::Rotation, comps = 4;
            else if (ch.target_path == "scale") c.path = ChannelPath::Scale, comps = 3;
            else if (ch.target_path == "weights") c.path = ChannelPath::Weights, comps = 1;
            else {
                warnings_.push_back(cw + ": target path '" + ch.target_path + "' is not animated (ignored)");
                continue;
            }
            c.joint = node_joint_[size_t(ch.target_node)];
            if (c.joint < 0) continue;
            if (c.path == ChannelPath::Weights) {
                // As many weights per key as the node's mesh has morph targets.
                const tinygltf::Node& tn = m_.nodes[size_t(ch.target_node)];
                size_t targets = 0;
                if (tn.mesh >= 0 && size_t(tn.mesh) < m_.meshes.size() && !m_.meshes[size_t(tn.mesh)].primitives.empty())
                    targets = m_.meshes[size_t(tn.mesh)].primitives[0].targets.size();
                if (targets == 0 || targets > lim::kMaxMorphTargets) {
                    warnings_.push_back(cw + ": animates the morph weights of " + nodeName(m_, ch.target_node) +
                                        ", whose mesh has no morph targets (ignored)");
                    continue;
                }
                c.width = int(targets);
            }
            const tinygltf::AnimationSampler& sm = an.samplers[size_t(ch.sampler)];
            if (sm.interpolation == "STEP") c.interpolation = Interpolation::Step;
            else if (sm.interpolation == "CUBICSPLINE") c.interpolation = Interpolation::CubicSpline;
            else if (sm.interpolation == "LINEAR" || sm.interpolation.empty()) c.interpolation = Interpolation::Linear;
            else fail(cw + ": unknown interpolation '" + sm.interpolation + "'");
            AccessorData in = readAccessor(m_, sm.input, cw + " input", budget_);
            requireComps(in, 1, cw + " input");
            AccessorData outv = readAccessor(m_, sm.output, cw + " output", budget_);
            requireComps(outv, comps, cw + " output");
            const size_t per = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
            const size_t width = c.path == ChannelPath::Weights ? size_t(c.width) : 1;
            if (in.count == 0) fail(cw + ": no keyframes");
            if (outv.count != in.count * per * width)
                fail(cw + ": output count " + std::to_string(outv.count) + " does not match " +
                     std::to_string(in.count * per * width) + " for " + std::to_string(in.count) + " keys" +
                     (width > 1 ? " of " + std::to_string(width) + " morph weights" : ""));
            for (size_t k = 0; k < in.count; ++k) {
                if (!(std::fabs(in.v[k]) <= lim::kMaxKeyTime))
                    fail(cw + ": key time " + fmt(in.v[k]) + " is out of range (|t| <= " + fmt(lim::kMaxKeyTime) +
                         " s)");
                if (k > 0 && !(float(in.v[k]) > float(in.v[k - 1])))
                    fail(cw + ": key times are not strictly increasing");
                c.times.push_back(float(in.v[k]));
            }
            if (c.path == ChannelPath::Weights) {
                for (size_t k = 0; k < outv.count; ++k) {
                    const double w = outv.v[k];
                    if (!finiteFloat(w) || std::fabs(w) > lim::kMaxScale)
                        fail(cw + " output " + std::to_string(k) + ": morph weight " + fmt(w) +
                             " is out of range (|w| <= " + fmt(lim::kMaxScale) + ")");
                    c.weights.push_back(float(w));
                }
                out.channels.push_back(std::move(c));
                continue;
            }
            for (size_t k = 0; k < outv.count; ++k) {
                glm::vec4 v(0.0f);
                for (int q = 0; q < comps; ++q) v[q] = float(outv.v[k * size_t(comps) + size_t(q)]);
                checkKey(c.path, v, per == 3 && k % 3 != 1, cw + " output " + std::to_string(k));
                c.values.push_back(v);
            }
            out.channels.push_back(std::move(c));
        }
        s_.animations.push_back(std::move(out));
    }
}

}  // namespace engine::gltf_detail

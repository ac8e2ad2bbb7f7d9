#include "engine/render/draw_topology.h"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "engine/scene/scene.h"
#include "sim/world.h"

namespace engine::render {

namespace {
std::vector<glm::uvec2> uniqueEdges(const std::vector<glm::uvec3>& tris) {
    std::vector<glm::uvec2> e;
    e.reserve(tris.size() * 3);
    for (const auto& t : tris)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = t[k], b = t[(k + 1) % 3];
            e.emplace_back(std::min(a, b), std::max(a, b));
        }
    std::sort(e.begin(), e.end(), [](auto x, auto y) { return x.x != y.x ? x.x < y.x : x.y < y.y; });
    e.erase(std::unique(e.begin(), e.end()), e.end());
    return e;
}

// For each particle, the surface neighbour whose rest edge is most parallel
// to its fibre direction (itself when it has none).
std::vector<uint32_t> fiberNeighbors(const sim::World& w, const std::vector<glm::uvec2>& edges) {
    const auto& P = w.particles;
    std::vector<uint32_t> best(P.size());
    std::vector<float> score(P.size(), -1.0f);
    for (uint32_t i = 0; i < best.size(); ++i) best[i] = i;
    if (P.fiber.size() != P.size() || P.rest.size() != P.size()) return best;
    auto consider = [&](uint32_t i, uint32_t j) {
        glm::vec3 d = P.rest[j] - P.rest[i];
        float l = glm::length(d);
        if (l <= 0.0f) return;
        float s = std::abs(glm::dot(d / l, P.fiber[i]));
        if (s > score[i]) {
            score[i] = s;
            best[i] = j;
        }
    };
    for (const auto& e : edges) {
        consider(e.x, e.y);
        consider(e.y, e.x);
    }
    return best;
}

BoneMesh fromRenderMesh(const engine::RenderMesh& m) {
    BoneMesh b;
    b.name = m.name;
    b.positions = m.positions;
    b.normals = m.normals;
    b.indices = m.indices;
    b.color = m.color;
    b.alpha = m.alpha;
    b.blend = m.blend;
    b.follow = m.joint >= 0 ? BoneMesh::Follow::Joint : BoneMesh::Follow::Static;
    b.index = m.joint;
    b.skin_joints = m.skin_joints;
    b.skin_weights = m.skin_weights;
    b.influence_sets = m.influence_sets;
    b.inverse_bind = m.inverse_bind;
    b.skin_joint_map = m.skin_joint_map;
    b.morph_targets = m.morph_targets;
    b.morph_defaults = m.morph_weights;
    b.texture = m.texture;
    b.uvs = m.uvs;
    b.alpha_cutoff = m.alpha_cutoff;
    return b;
}

// Scenes without muscles: the meshes posed at sampled times of every
// animation (and at rest), for the floor and the framing.
void meshMotionBounds(const engine::Scene& scene, DrawTopology& t) {
    constexpr int kSamples = 48;
    std::vector<glm::mat4> globals;
    std::vector<float> weights;
    auto add = [&](int animation, double time) {
        scene.skeleton.globals(scene.localPoses(animation, time), globals);
        scene.morphWeights(animation, time, weights);
        size_t first = 0;
        for (const engine::RenderMesh& m : scene.meshes) {
            const size_t n = m.morph_targets.size();
            std::span<const float> mw = n ? std::span<const float>(weights).subspan(first, n) : std::span<const float>();
            first += n;
            for (const glm::vec3& p : engine::posedPositions(m, globals, mw)) {
                t.mesh_motion_lo = glm::min(t.mesh_motion_lo, p);
                t.mesh_motion_hi = glm::max(t.mesh_motion_hi, p);
            }
        }
    };
    if (scene.animations.empty()) add(-1, 0.0);
    for (size_t a = 0; a < scene.animations.size(); ++a) {
        const double d = scene.duration(int(a));
        for (int i = 0; i <= kSamples; ++i) add(int(a), d * i / kSamples);
    }
}

// A capsule body (a bone that collides as a capsule and has no mesh of its
// own) drawn as what it is: two hemispheres and a cylinder around a–b,
// body-local.
BoneMesh capsuleMesh(const sim::Body& body, int index) {
    constexpr int kSegments = 16, kRings = 6;  // around; per hemisphere
    BoneMesh b;
    b.name = body.name + " (capsule)";
    b.follow = BoneMesh::Follow::Body;
    b.index = index;
    const glm::vec3 a = body.capsule_a, e = body.capsule_b;
    const float r = body.capsule_radius;
    glm::vec3 w = e - a;
    const float len = glm::length(w);
    w = len > 1e-9f ? w / len : glm::vec3(0, 1, 0);
    const glm::vec3 ref = std::abs(w.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
    const glm::vec3 u = glm::normalize(glm::cross(w, ref)), v = glm::cross(w, u);
    // Rings from the pole at a (φ = −π/2) to the pole at b (φ = π/2); the
    // equator is doubled, once on each end's sphere.
    int rings = 0;
    for (int half = 0; half < 2; ++half)
        for (int k = 0; k <= kRings; ++k, ++rings) {
            const float phi = (half == 0 ? -1.0f : 0.0f) * 1.5707963f + 1.5707963f * float(k) / float(kRings);
            const glm::vec3 c = half == 0 ? a : e;
            for (int s = 0; s < kSegments; ++s) {
                const float th = 6.2831853f * float(s) / float(kSegments);
                const glm::vec3 n = std::cos(phi) * (std::cos(th) * u + std::sin(th) * v) + std::sin(phi) * w;
                b.positions.push_back(c + r * n);
                b.normals.push_back(n);
            }
        }
    for (int ring = 0; ring + 1 < rings; ++ring)
        for (int s = 0; s < kSegments; ++s) {
            const uint32_t i0 = uint32_t(ring * kSegments + s), i1 = uint32_t(ring * kSegments + (s + 1) % kSegments);
            const uint32_t j0 = i0 + kSegments, j1 = i1 + kSegments;
            b.indices.insert(b.indices.end(), {i0, i1, j1, i0, j1, j0});
        }
    return b;
}

BoneMesh fromBody(const sim::Body& body, int index) {
    BoneMesh b;
    b.name = body.name;
    b.follow = BoneMesh::Follow::Body;
    b.index = index;
    b.positions = body.vertices;
    for (const auto& t : body.triangles) {
        b.indices.push_back(t.x);
        b.indices.push_back(t.y);
        b.indices.push_back(t.z);
    }
    return b;
}
}  // namespace

bool DrawTopology::hasTranslucent() const {
    return std::any_of(bones.begin(), bones.end(), [](const BoneMesh& b) { return b.blend; });
}

DrawTopology buildDrawTopology(const sim::World& w, const engine::Scene* scene,
                               std::span<const int> distance_colors) {
    DrawTopology t;
    t.name = w.name;
    t.particle_count = w.particles.size();
    for (const auto& m : w.muscles)
        t.muscles.push_back({m.name, m.first, m.surface_count, m.branch_count, m.tri_begin, m.tri_count});
    t.triangles = w.triangles;
    t.mesh_edges = uniqueEdges(t.triangles);
    const auto& D = w.distances;
    t.distance_edges.reserve(D.size());
    for (size_t i = 0; i < D.size(); ++i) {
        t.distance_edges.emplace_back(D.c[i].i, D.c[i].j);
        auto k = i < D.kind.size() ? D.kind[i] : sim::DistanceKind::Surface;
        t.distance_kind.push_back(k == sim::DistanceKind::Spoke     ? EdgeKind::Spoke
                                  : k == sim::DistanceKind::Medulla ? EdgeKind::Medulla
                                                                    : EdgeKind::Surface);
    }
    if (distance_colors.size() == D.size()) {
        t.distance_color.assign(distance_colors.begin(), distance_colors.end());
        for (int c : t.distance_color) t.color_count = std::max(t.color_count, c + 1);
    }
    t.fiber_neighbor = fiberNeighbors(w, t.mesh_edges);
    t.tendon.assign(w.particles.size(), 0.0f);
    t.around.assign(w.particles.size(), glm::vec2(0.0f));
    for (size_t mi = 0; mi < w.muscles.size() && mi < t.muscles.size(); ++mi) {
        const auto& m = w.muscles[mi];
        const glm::vec3 o = sim::rootCentroid(w.particles.rest, m.origin_sets);
        const glm::vec3 e = sim::rootCentroid(w.particles.rest, m.insertion_sets);
        const glm::vec3 axis = e - o;
        const float len2 = glm::dot(axis, axis);
        if (!(len2 > 0.0f)) continue;
        const glm::vec3 a = axis / std::sqrt(len2);
        // A frame across the axis.
        const glm::vec3 ref = std::abs(a.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
        const glm::vec3 bu = glm::normalize(glm::cross(a, ref)), bv = glm::cross(a, bu);
        double radius = 0.0;
        for (uint32_t i = m.first; i < m.first + m.surface_count && i < t.tendon.size(); ++i) {
            const glm::vec3 r = w.particles.rest[i] - o;
            const float u = glm::dot(r, axis) / len2;  // 0 at the origin, 1 at the insertion
            const float end = std::min(u, 1.0f - u);  // distance to the nearer end
            t.tendon[i] = 1.0f - glm::smoothstep(0.03f, 0.16f, end);
            const glm::vec2 q(glm::dot(r, bu), glm::dot(r, bv));
            const float ql = glm::length(q);
            t.around[i] = ql > 0.0f ? q / ql : glm::vec2(1.0f, 0.0f);
            radius += ql;
        }
        if (m.surface_count > 0) radius /= double(m.surface_count);
        t.muscles[mi].stripes = float(std::max(8.0, std::round(2.0 * 3.14159265 * radius / 0.0015)));
    }
    for (const auto& a : w.attachments) t.attachments.push_back(a.particle);

    if (scene && !scene->meshes.empty()) {
        size_t morph_first = 0;
        for (const auto& m : scene->meshes) {
            t.bones.push_back(fromRenderMesh(m));
            t.bones.back().morph_first = morph_first;  // the order of Scene::morphWeights
            morph_first += m.morph_targets.size();
            if (t.bones.back().texture >= int(scene->textures.size())) t.bones.back().texture = -1;
        }
        t.textures = scene->textures;
        if (scene->envelope_mesh >= 0 && size_t(scene->envelope_mesh) < t.bones.size() &&
            scene->envelope_weld.size() == t.bones[size_t(scene->envelope_mesh)].positions.size()) {
            t.envelope_mesh = scene->envelope_mesh;
            t.envelope_weld = scene->envelope_weld;
        }
        if (w.muscles.empty()) meshMotionBounds(*scene, t);
    } else {
        for (size_t i = 0; i < w.bodies.size(); ++i)
            if (!w.bodies[i].triangles.empty()) t.bones.push_back(fromBody(w.bodies[i], int(i)));
    }
    // Capsule bodies no mesh of the scene shows (no rigid mesh on their
    // joint, no skin using it): drawn as capsules, so what collides is seen.
    std::vector<bool> shown;
    if (scene) {
        for (const auto& m : scene->meshes) {
            for (int j : m.skin_joint_map)
                if (j >= 0) shown.resize(std::max(shown.size(), size_t(j) + 1), false), shown[size_t(j)] = true;
            if (m.joint >= 0) shown.resize(std::max(shown.size(), size_t(m.joint) + 1), false), shown[size_t(m.joint)] = true;
        }
    }
    for (size_t i = 0; i < w.bodies.size(); ++i) {
        const sim::Body& b = w.bodies[i];
        if (!b.triangles.empty() || !(b.capsule_radius > 0.0f)) continue;
        const int j = scene && i < scene->body_joint.size() ? scene->body_joint[i] : -1;
        if (j >= 0 && size_t(j) < shown.size() && shown[size_t(j)]) continue;
        t.bones.push_back(capsuleMesh(b, int(i)));
    }

    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const auto& p : w.particles.rest) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    t.rest_radius = lo.x <= hi.x ? std::max(0.5f * glm::length(hi - lo), 1e-3f) : 0.1f;
    const bool mesh_motion = t.mesh_motion_lo.x <= t.mesh_motion_hi.x;
    if (!(lo.x <= hi.x) && mesh_motion) {  // no muscles: the size of what the meshes sweep
        lo = t.mesh_motion_lo;
        hi = t.mesh_motion_hi;
        t.rest_radius = std::max(0.5f * glm::length(hi - lo), 1e-3f);
    }
    // The ground is the first roughly horizontal plane of the scene, or a
    // floor just under the rest pose.
    bool found = false;
    for (const auto& p : w.planes)
        if (p.normal.y > 0.9f) {
            t.ground_origin = p.origin;
            t.ground_normal = glm::normalize(p.normal);
            t.ground_is_plane = true;
            found = true;
            break;
        }
    if (!found && lo.x <= hi.x) t.ground_origin = glm::vec3(0.5f * (lo.x + hi.x), lo.y - 0.15f * t.rest_radius, 0.5f * (lo.z + hi.z));
    return t;
}

}  // namespace engine::render

// The scene writer (scene_writer.h), as the steps of writeScene: skeleton,
// muscle boxes and touching pairs, muscles, skin, animations, scene extras.
// The order of the writer's calls is the order of the file's buffers and
// arrays: the steps keep it, so the bytes do not change.
#include "engine/anatomy/scene_writer.h"

#include <algorithm>
#include <cmath>

#include "engine/anatomy/bone_shapes.h"
#include "engine/anatomy/grounding.h"
#include "engine/anatomy/skin_fit.h"
#include "engine/anatomy/skin_motion_fit.h"
#include "engine/anatomy/skin_outline.h"
#include "engine/mesh/mesh_normals.h"
#include "sim/geometry.h"

namespace engine::generator {

namespace {

std::vector<glm::vec3> vertexNormals(const MeshData& m) {
    std::vector<glm::dvec3> n(m.vertices.size(), glm::dvec3(0.0));
    for (const glm::uvec3& t : m.triangles) {
        glm::dvec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
        glm::dvec3 f = glm::cross(b - a, c - a);
        n[t.x] += f;
        n[t.y] += f;
        n[t.z] += f;
    }
    std::vector<glm::vec3> out;
    for (const glm::dvec3& x : n) {
        double l = glm::length(x);
        out.push_back(l > 0 ? glm::vec3(x / l) : glm::vec3(0, 1, 0));
    }
    return out;
}

struct Aabb {
    glm::vec3 lo{1e9f}, hi{-1e9f};
    void add(glm::vec3 p) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    bool overlaps(const Aabb& o, float pad) const {
        for (int k = 0; k < 3; ++k)
            if (lo[k] - pad > o.hi[k] || o.lo[k] - pad > hi[k]) return false;
        return true;
    }
};


// Rest-pose overlap tests used to keep only contact targets the muscle does
// not already penetrate (an initial overlap would be resolved violently).
float capsuleDepth(glm::vec3 p, const Bone& b) {
    glm::vec3 ab = b.tail - b.head;
    float t = std::clamp(glm::dot(p - b.head, ab) / std::max(1e-12f, glm::dot(ab, ab)), 0.0f, 1.0f);
    return b.radius - glm::length(p - (b.head + t * ab));
}

bool insideMesh(glm::vec3 p, const MeshData& m) {
    // Parity of crossings of a +X ray (Möller–Trumbore, deterministic).
    int hits = 0;
    const glm::vec3 dir(1.0f, 0.0f, 0.0f);
    for (const glm::uvec3& t : m.triangles) {
        glm::vec3 a = m.vertices[t.x], b = m.vertices[t.y], c = m.vertices[t.z];
        if (std::max({a.x, b.x, c.x}) < p.x) continue;
        if (std::min({a.y, b.y, c.y}) > p.y || std::max({a.y, b.y, c.y}) < p.y) continue;
        if (std::min({a.z, b.z, c.z}) > p.z || std::max({a.z, b.z, c.z}) < p.z) continue;
        glm::vec3 e1 = b - a, e2 = c - a, h = glm::cross(dir, e2);
        float det = glm::dot(e1, h);
        if (std::fabs(det) < 1e-14f) continue;
        float f = 1.0f / det;
        glm::vec3 sv = p - a;
        float u = f * glm::dot(sv, h);
        if (u < 0.0f || u > 1.0f) continue;
        glm::vec3 q = glm::cross(sv, e1);
        float v = f * glm::dot(dir, q);
        if (v < 0.0f || u + v > 1.0f) continue;
        if (f * glm::dot(e2, q) > 0.0f) ++hits;
    }
    return hits % 2 == 1;
}

// Joint nodes (bone i = node i; rest rotations are identity), their
// children, and one skinned mesh for all visible bones (each vertex bound to
// its bone). Returns the scene's node list so far: the root joints and the
// skeleton mesh; the bone meshes' vertices go to `drawn`.
std::vector<int> writeSkeleton(GltfWriter& w, const SceneSpec& sc, int mat_bone, std::vector<DrawnPoint>& drawn) {
    const size_t nb = sc.bones.size();
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = sc.bones[i];
        glm::vec3 t = b.parent >= 0 ? b.head - sc.bones[size_t(b.parent)].head : b.head;
        glm::vec3 tip = b.tail - b.head;
        json node = {{"name", b.name}, {"translation", {double(t.x), double(t.y), double(t.z)}}};
        node["extras"] = {{"msxpbd_body",
                           {{"capsule",
                             {{"a", {0.0, 0.0, 0.0}},
                              {"b", {double(tip.x), double(tip.y), double(tip.z)}},
                              {"radius", double(b.radius)}}}}}};
        w.addNode(node);
    }
    for (size_t i = 0; i < nb; ++i) {
        json children = json::array();
        for (size_t k = 0; k < nb; ++k)
            if (sc.bones[k].parent == int(i)) children.push_back(k);
        if (!children.empty()) w.node(int(i))["children"] = children;
    }
    std::vector<glm::vec3> bpos, bnrm;
    std::vector<glm::u8vec4> bj;
    std::vector<glm::vec4> bw;
    std::vector<uint32_t> bidx;
    for (size_t i = 0; i < nb; ++i) {
        const Bone& b = sc.bones[i];
        if (!b.visible) continue;
        // Anatomical shapes (docs/anatomy.md "Bone shapes"); other bones (the
        // lab scenes' anchors) stay lofted sticks with knobs.
        BoneMesh shaped = buildBoneMesh({b.name, b.head, b.tail, b.radius, b.fist});
        MeshData& m = shaped.mesh;
        std::vector<glm::vec3>& n = shaped.normals;
        if (m.triangles.empty()) {
            const float r = b.radius, knob = b.knob;
            auto prof = [r, knob](float u) {
                float e = std::min(u, 1.0f - u);
                float k = e < 0.12f ? 1.0f + (knob - 1.0f) * float(std::cos(kPi * 0.5 * e / 0.12)) : 1.0f;
                return r * k;
            };
            m = loftProfile({b.head, b.tail}, prof, b.ellipse, b.width, 16, 12);
            n = vertexNormals(m);
        }
        uint32_t base = uint32_t(bpos.size());
        for (size_t v = 0; v < m.vertices.size(); ++v) {
            bpos.push_back(m.vertices[v]);
            bnrm.push_back(n[v]);
            bj.push_back(glm::u8vec4(uint8_t(i), 0, 0, 0));
            bw.push_back(glm::vec4(1, 0, 0, 0));
            drawn.push_back({m.vertices[v], glm::uvec4(uint32_t(i), 0u, 0u, 0u), glm::vec4(1, 0, 0, 0)});
        }
        for (const glm::uvec3& t : m.triangles)
            for (int k = 0; k < 3; ++k) bidx.push_back(base + t[k]);
    }
    std::vector<int> scene_nodes;
    for (size_t i = 0; i < nb; ++i)
        if (sc.bones[i].parent < 0) scene_nodes.push_back(int(i));
    if (!bpos.empty()) {
        std::vector<glm::mat4> ib;
        json joints = json::array();
        for (size_t i = 0; i < nb; ++i) {
            glm::mat4 m(1.0f);
            m[3] = glm::vec4(-sc.bones[i].head, 1.0f);
            ib.push_back(m);
            joints.push_back(i);
        }
        json prim = {{"attributes",
                      {{"POSITION", w.addVec3(bpos, true)},
                       {"NORMAL", w.addVec3(bnrm, false)},
                       {"JOINTS_0", w.addJoints(bj)},
                       {"WEIGHTS_0", w.addVec4(bw)}}},
                     {"indices", w.addIndices(bidx)},
                     {"material", mat_bone}};
        int mesh = w.addMesh({{"name", "skeleton"}, {"primitives", json::array({prim})}});
        w.addSkin({{"name", "skeleton"}, {"inverseBindMatrices", w.addMat4(ib)}, {"joints", joints}, {"skeleton", scene_nodes[0]}});
        scene_nodes.push_back(w.addNode({{"name", "skeleton_mesh"}, {"mesh", mesh}, {"skin", 0}}));
    }
    return scene_nodes;
}

std::vector<Aabb> muscleBoxes(const SceneSpec& sc) {
    std::vector<Aabb> boxes;
    for (const MuscleSpec& m : sc.muscles) {
        Aabb bx;
        for (const glm::vec3& v : m.mesh.vertices) bx.add(v);
        boxes.push_back(bx);
    }
    return boxes;
}

Aabb boneBox(const Bone& b) {
    Aabb bx;
    bx.add(b.head - glm::vec3(b.radius * 2));
    bx.add(b.head + glm::vec3(b.radius * 2));
    bx.add(b.tail - glm::vec3(b.radius * 2));
    bx.add(b.tail + glm::vec3(b.radius * 2));
    return bx;
}

// Which packed muscles touch: a vertex of one within kTouch of the other's
// surface, either way round (docs/anatomy.md "Packed muscles"). An nm × nm
// table, 1 where muscles a and b touch.
std::vector<uint8_t> touchingPairs(const SceneSpec& sc, const std::vector<Aabb>& boxes) {
    const size_t nm = sc.muscles.size();
    std::vector<uint8_t> touching(nm * nm, 0);
    const float kTouch = 0.0035f;
    for (size_t a = 0; a < nm; ++a)
        for (size_t b = 0; b < nm; ++b) {
            if (a == b || !boxes[a].overlaps(boxes[b], kTouch)) continue;
            const MeshData& ma = sc.muscles[a].mesh;
            const MeshData& mb = sc.muscles[b].mesh;
            bool near_b = false;
            for (size_t v = 0; v < ma.vertices.size() && !near_b; ++v) {
                const glm::vec3 p = ma.vertices[v];
                bool in_box = true;
                for (int k = 0; k < 3; ++k) in_box = in_box && p[k] >= boxes[b].lo[k] - kTouch && p[k] <= boxes[b].hi[k] + kTouch;
                if (!in_box) continue;
                for (const glm::uvec3& t : mb.triangles) {
                    sim::TriFeature f;
                    const glm::vec3 q = sim::closestPointOnTriangle(p, mb.vertices[t.x], mb.vertices[t.y], mb.vertices[t.z], f);
                    if (glm::dot(p - q, p - q) <= kTouch * kTouch) {
                        near_b = true;
                        break;
                    }
                }
            }
            if (near_b) touching[a * nm + b] = touching[b * nm + a] = 1;
        }
    return touching;
}

// Root sets by the rest positions of their vertices, not by index: an
// editor's round trip (Blender) reorders and splits the vertices, and
// positions are what survives it (docs/scene-format.md).
json setsByPoints(const MeshData& mesh, const std::vector<std::vector<uint32_t>>& sets) {
    json out = json::array();
    for (const auto& set : sets) {
        json pts = json::array();
        for (uint32_t i : set) {
            const glm::vec3 p = mesh.vertices[i];
            pts.push_back({p.x, p.y, p.z});
        }
        out.push_back({{"points", pts}});
    }
    return out;
}

// Contacts of muscle `mi`: the bones it overlaps (with a margin) unless it
// already lies inside them at rest (beyond its attached tendon ends), then
// its neighbours: every muscle it touches when packed, else up to the 4
// nearest overlapping muscles it does not penetrate.
json muscleContacts(const SceneSpec& sc, size_t mi, const std::vector<Aabb>& boxes, const std::vector<uint8_t>& touching) {
    const MuscleSpec& m = sc.muscles[mi];
    std::vector<bool> root(m.mesh.vertices.size(), false);
    for (const auto& set : m.mesh.origin_sets)
        for (uint32_t v : set) root[v] = true;
    for (const auto& set : m.mesh.insertion_sets)
        for (uint32_t v : set) root[v] = true;
    json contacts = json::array();
    for (size_t b = 0; b < sc.bones.size(); ++b) {
        if (!sc.bones[b].visible || !sc.bones[b].solid || !boxes[mi].overlaps(boneBox(sc.bones[b]), 0.005f)) continue;
        bool inside = false;
        for (size_t v = 0; v < m.mesh.vertices.size() && !inside; ++v)
            inside = !root[v] && capsuleDepth(m.mesh.vertices[v], sc.bones[b]) > 0.0f;
        if (!inside) contacts.push_back(sc.bones[b].name);
    }
    std::vector<std::pair<float, size_t>> near;
    glm::vec3 cm = 0.5f * (boxes[mi].lo + boxes[mi].hi);
    auto overlapping = [&](size_t a, size_t b) {
        for (const glm::vec3& v : sc.muscles[a].mesh.vertices) {
            bool in_box = true;
            for (int k = 0; k < 3; ++k) in_box = in_box && v[k] >= boxes[b].lo[k] && v[k] <= boxes[b].hi[k];
            if (in_box && insideMesh(v, sc.muscles[b].mesh)) return true;
        }
        return false;
    };
    if (sc.packed) {
        // Packed muscles touch their neighbours along shared faces: every
        // muscle that comes within a touching distance is a contact.
        for (size_t o = 0; o < sc.muscles.size(); ++o)
            if (o != mi && touching[mi * sc.muscles.size() + o]) contacts.push_back(sc.muscles[o].name);
    } else {
        for (size_t o = 0; o < sc.muscles.size(); ++o)
            if (o != mi && boxes[mi].overlaps(boxes[o], 0.003f) && !overlapping(mi, o) && !overlapping(o, mi))
                near.emplace_back(glm::length(cm - 0.5f * (boxes[o].lo + boxes[o].hi)), o);
        std::sort(near.begin(), near.end());
        for (size_t k = 0; k < near.size() && k < 4; ++k) contacts.push_back(sc.muscles[near[k].second].name);
    }
    return contacts;
}

// The msxpbd_muscle extras of muscle `mi` (docs/scene-format.md).
json muscleExtras(const SceneSpec& sc, size_t mi, const std::vector<Aabb>& boxes, const std::vector<uint8_t>& touching) {
    const MuscleSpec& m = sc.muscles[mi];
    json x = json::object();
    x["origins"] = setsByPoints(m.mesh, m.mesh.origin_sets);
    x["insertions"] = setsByPoints(m.mesh, m.mesh.insertion_sets);
    if (m.holds.is_null()) {
        if (m.origin_bones.size() == 1)
            x["origin_bone"] = m.origin_bones[0];
        else
            x["origin_bone"] = m.origin_bones;
        x["insertion_bone"] = m.insertion_bone;
    } else {
        x["attachments"] = m.holds;
    }
    x["contacts"] = muscleContacts(sc, mi, boxes, touching);
    if (!m.holds.is_null() || m.origin_bones.empty()) {
        x["sliding"] = json::array();
    } else {
        json sliding = json::array({m.insertion_bone});
        // The wrist's long muscles also slide along a forearm bone: held
        // at their rest distance from it, they follow the forearm in
        // flexion instead of bowstringing across the elbow.
        for (const std::string& bone : m.along)
            if (bone != m.insertion_bone) sliding.push_back(bone);
        x["sliding"] = sliding;
    }
    x["initial_activation"] = 0.0;
    x["overpressure"] = double(m.overpressure);
    if (!m.sensors.empty()) x["sensors"] = m.sensors;
    return x;
}

// One muscle: rest positions in world space (normals are computed on load),
// an identity node transform, its extras. Returns its node.
int writeMuscle(GltfWriter& w, const SceneSpec& sc, size_t mi, const std::vector<Aabb>& boxes,
                const std::vector<uint8_t>& touching, int mat_muscle) {
    const MuscleSpec& m = sc.muscles[mi];
    std::vector<uint32_t> idx;
    for (const glm::uvec3& t : m.mesh.triangles) idx.insert(idx.end(), {t.x, t.y, t.z});
    json prim = {{"attributes",
                  {{"POSITION", w.addVec3(m.mesh.vertices, true)}}},
                 {"indices", w.addIndices(idx)},
                 {"material", mat_muscle}};
    int mesh = w.addMesh({{"name", m.name}, {"primitives", json::array({prim})}});
    json x = muscleExtras(sc, mi, boxes, touching);
    return w.addNode({{"name", m.name}, {"mesh", mesh}, {"extras", {{"msxpbd_muscle", x}}}});
}

// T5, T6 (the arm) and T7 (the whole body) have a skin: the translucent
// outline over the muscles.
// How far under the fitted skin every muscle vertex lies at least: enough
// that none is outside it, little enough that the skin keeps its measured
// girths (the envelope holds each vertex at its rest depth where that is
// less than the subcutaneous thickness).
constexpr float kSkinFitClearance = 0.001f;

bool hasSkin(const SceneSpec& sc) {
    return (sc.id == "t7" || sc.id == "t5" || sc.id == "t6") &&
           std::any_of(sc.bones.begin(), sc.bones.end(), [](const Bone& b) { return b.visible; });
}

// How far under the skin the bones lie at least: skin and a thin layer of
// fat over the bony landmarks (olecranon, malleoli, spine of the scapula).
constexpr float kSkinOverBone = 0.002f;
// A push of the fit spreads over one mean skin edge: over two, the pushes
// over the wrist's bones and tendons made it 18.5 cm round instead of 17.5
// (ANSUR mean 16.5).
constexpr float kSkinFitSpread = 1.0f;

// The skin: the outline over the bones (engine/anatomy/skin_outline.h),
// pushed out where a bone reaches past it (the arm's also where a muscle
// does), its weights then fitted to the scene's motions so that the bones
// stay under it (skin_motion_fit.h). `bones`: the drawn bones' points.
SkinMesh sceneSkin(const SceneSpec& sc, const std::vector<BonePoint>& bones) {
    const bool body = sc.id == "t7";
    SkinMesh skin = buildSkin(outlineBones(sc), body ? 0.012f : 0.008f, body ? 18000 : 6000);
    // The arm's skin is fitted over its muscles (none starts outside it:
    // engine/anatomy/skin_fit.h). The body's is not: its trunk lies inside
    // the trunk muscles by up to 8 cm, and a fit over them threw skin
    // sheets across the body (docs/lab/body-envelope.md).
    if (!body) {
        std::vector<glm::vec3> muscle_points;
        for (const MuscleSpec& m : sc.muscles)
            muscle_points.insert(muscle_points.end(), m.mesh.vertices.begin(), m.mesh.vertices.end());
        fitSkinAround(skin.positions, skin.triangles, muscle_points, kSkinFitClearance, nullptr, kSkinFitSpread);
    }
    std::vector<glm::vec3> bone_points;
    for (const BonePoint& b : bones) bone_points.push_back(b.position);
    // A bone pushes out only skin that moves with it or with its parent
    // (the scapula the trunk's, not the arm's lying against it).
    auto covers = [&](size_t point, uint32_t tri) {
        const uint32_t bone = bones[point].bone;
        const int parent = sc.bones[bone].parent;
        for (int k = 0; k < 3; ++k) {
            const uint32_t v = skin.triangles[tri][k];
            for (int i = 0; i < 4; ++i) {
                const uint32_t j = skin.weights.joints[v][i];
                if (skin.weights.weights[v][i] >= 0.3f && (j == bone || int(j) == parent)) return true;
            }
        }
        return false;
    };
    fitSkinAround(skin.positions, skin.triangles, bone_points, kSkinOverBone, covers, kSkinFitSpread);
    engine::vertexNormals(skin.positions, skin.triangles, skin.normals);
    fitSkinWeightsToMotion(sc, skin, bones);
    return skin;
}

// The skin as a skinned mesh on the skeleton's skin (skin 0) with a BLEND
// material (docs/scene-format.md) and, for the body, its envelope extras.
// Returns its node.
int writeSkin(GltfWriter& w, const SceneSpec& sc, const SkinMesh& skin) {
    const bool body = sc.id == "t7";
    std::vector<glm::u8vec4> sj;
    for (const glm::uvec4& j : skin.weights.joints) sj.emplace_back(j);
    std::vector<uint32_t> idx;
    for (const glm::uvec3& t : skin.triangles) idx.insert(idx.end(), {t.x, t.y, t.z});
    const int mat_skin = w.addMaterial("skin", {0.87f, 0.69f, 0.58f, 0.25f}, 0.6f, "BLEND");
    json prim = {{"attributes",
                  {{"POSITION", w.addVec3(skin.positions, true)},
                   {"NORMAL", w.addVec3(skin.normals, false)},
                   {"JOINTS_0", w.addJoints(sj)},
                   {"WEIGHTS_0", w.addVec4(skin.weights.weights)}}},
                 {"indices", w.addIndices(idx)},
                 {"material", mat_skin}};
    const int mesh = w.addMesh({{"name", "skin"}, {"primitives", json::array({prim})}});
    json node = {{"name", "skin"}, {"mesh", mesh}, {"skin", 0}};
    // The body's skin holds its muscles more softly than the arm's: at the
    // fascia family's default (10³ N/m) the thin shank muscles squeezed
    // under it flap in the run (extensor hallucis longus 0.74–1.37 of its
    // volume); at 1 N/m they keep 0.84–1.21 and the legs still hold
    // together (docs/lab/body-envelope.md).
    if (body) node["extras"] = {{"msxpbd_envelope", {{"stiffness_scale", 1.0e-3}}}};
    return w.addNode(node);
}

// Animations: rotations sampled at the spec's rate, LINEAR; a grounded
// animation also moves the root bone (its height solved per sample so the
// lowest of `drawn` lies on the first plane: grounding.h).
void writeAnimations(GltfWriter& w, const SceneSpec& sc, const std::vector<DrawnPoint>& drawn) {
    for (const AnimSpec& a : sc.animations) {
        const int n = int(std::lround(a.duration * a.fps));
        std::vector<float> times;
        for (int k = 0; k <= n; ++k) times.push_back(float(double(k) / a.fps));
        int input = w.addScalars(times, true);
        json samplers = json::array(), channels = json::array();
        for (const Channel& c : a.channels) {
            std::vector<glm::vec4> q;
            glm::dvec4 prev(0, 0, 0, 1);
            for (int k = 0; k <= n; ++k) {
                glm::quat r = c.rotation(double(k) / a.fps);
                glm::dvec4 v(r.x, r.y, r.z, r.w);
                if (glm::dot(v, prev) < 0.0) v = -v;  // keep neighbours in one hemisphere
                v /= glm::length(v);
                prev = v;
                q.push_back(glm::vec4(v));
            }
            samplers.push_back({{"input", input}, {"output", w.addVec4(q, 0)}, {"interpolation", "LINEAR"}});
            channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", c.bone}, {"path", "rotation"}}}});
            if (!c.translation) continue;
            std::vector<glm::vec3> tr;
            for (int k = 0; k <= n; ++k) tr.push_back(c.translation(double(k) / a.fps));
            samplers.push_back({{"input", input}, {"output", w.addVec3(tr, false, 0)}, {"interpolation", "LINEAR"}});
            channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", c.bone}, {"path", "translation"}}}});
        }
        if (a.grounded && !sc.planes.empty()) {
            const float floor_y = float(sc.planes[0]["origin"][1].get<double>());
            const std::vector<float> dy = groundedRootHeights(sc, a, drawn, floor_y);
            for (size_t i = 0; i < sc.bones.size(); ++i) {
                if (sc.bones[i].parent >= 0) continue;
                std::vector<glm::vec3> t;
                for (float h : dy) t.push_back(sc.bones[i].head + glm::vec3(0.0f, h, 0.0f));
                samplers.push_back({{"input", input}, {"output", w.addVec3(t, false, 0)}, {"interpolation", "LINEAR"}});
                channels.push_back({{"sampler", samplers.size() - 1}, {"target", {{"node", int(i)}, {"path", "translation"}}}});
            }
        }
        w.addAnimation({{"name", a.name}, {"samplers", samplers}, {"channels", channels}});
    }
}

// The glTF scene: its nodes and the msxpbd_scene extras (the solver settings
// the scene suggests, docs/scene-format.md).
json sceneNode(const SceneSpec& sc, const std::vector<int>& scene_nodes) {
    json scene = {{"name", sc.file.substr(0, sc.file.size() - 4)}, {"nodes", scene_nodes}};
    json sx = {{"sliding_radius", 0.004}};
    if (sc.gravity_scale != 1.0f) sx["gravity_scale"] = double(sc.gravity_scale);
    if (sc.substeps > 0) sx["substeps"] = sc.substeps;
    if (sc.carry >= 0.0f) sx["carry"] = double(sc.carry);
    if (!sc.planes.empty()) sx["planes"] = sc.planes;
    scene["extras"] = {{"msxpbd_scene", sx}};
    return scene;
}

}  // namespace

std::vector<uint8_t> writeScene(const SceneSpec& sc, GeneratedScene& stats) {
    GltfWriter w;
    const int mat_bone = w.addMaterial("bone", {0.89f, 0.86f, 0.78f, 1.0f}, 0.6f);
    const int mat_muscle = w.addMaterial("muscle", {0.72f, 0.2f, 0.18f, 1.0f}, 0.5f);
    std::vector<DrawnPoint> drawn;
    std::vector<int> scene_nodes = writeSkeleton(w, sc, mat_bone, drawn);
    const std::vector<Aabb> boxes = muscleBoxes(sc);
    const std::vector<uint8_t> touching = sc.packed ? touchingPairs(sc, boxes) : std::vector<uint8_t>{};
    stats = GeneratedScene{};
    for (size_t mi = 0; mi < sc.muscles.size(); ++mi) {
        scene_nodes.push_back(writeMuscle(w, sc, mi, boxes, touching, mat_muscle));
        stats.muscles++;
        stats.muscle_vertices += sc.muscles[mi].mesh.vertices.size();
        stats.muscle_triangles += sc.muscles[mi].mesh.triangles.size();
    }
    if (hasSkin(sc)) {
        std::vector<BonePoint> bone_points;
        for (const DrawnPoint& d : drawn) bone_points.push_back({d.rest, d.bones[0]});
        const SkinMesh skin = sceneSkin(sc, bone_points);
        for (size_t v = 0; v < skin.positions.size(); ++v)
            drawn.push_back({skin.positions[v], skin.weights.joints[v], skin.weights.weights[v]});
        scene_nodes.push_back(writeSkin(w, sc, skin));
    }
    writeAnimations(w, sc, drawn);
    w.setScene(sceneNode(sc, scene_nodes));
    std::vector<uint8_t> glb = w.glb();
    stats.id = sc.id;
    stats.file = sc.file;
    return glb;
}

}  // namespace engine::generator

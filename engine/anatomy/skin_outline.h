// The body outline (a translucent skin drawn over the muscles): tapered round
// pieces along the bones, smooth-unioned as a signed distance field,
// polygonised with engine::polygonize, made light by edge collapse, and bound
// to the bones with smooth linear-blend weights. `msxpbd gen` writes the
// result as a skinned mesh node `skin` with a BLEND material
// (docs/scene-format.md, "Translucent meshes"); the renderer draws it as any
// translucent mesh (docs/architecture.md, "Renderer").
//
// Girths follow ANSUR II adult means (docs/anatomy.md, "Skin outline").
// Deterministic: the same input gives the same bits.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

// A bone of the rig in its rest pose (world space). The index in the list is
// the joint index the weights refer to.
struct OutlineBone {
    std::string name;  // "humerus_r", "femur_l", "torso", "pelvis", ...
    glm::vec3 head{0.0f}, tail{0.0f};
    int parent = -1;
    bool fist = false;  // a hand closed into a fist (its skin is a fist's)
};

// A tapered round piece: segment a→b with radii ra→rb (a round cone). With
// flatten < 1 the cross-section is an ellipse: its extent along `flat_axis`
// (made perpendicular to the segment) is `flatten` × the radius.
struct OutlinePiece {
    glm::vec3 a{0.0f}, b{0.0f};
    float ra = 0.01f, rb = 0.01f;
    float flatten = 1.0f;
    glm::vec3 flat_axis{0.0f, 0.0f, 1.0f};
    int bone = -1;  // the bone whose transform the piece follows (index into the bone list)
    // Joined to the previous piece with a plain union (the next section of
    // the same limb: no blend bulge where they meet); otherwise smooth.
    bool joined = false;
};

// The outline pieces for every limb the rig has: arms (humerus, ulna, radius,
// hand) and legs (femur, tibia, foot) of either side, and the trunk, neck and
// head when the rig has a pelvis and a torso (else an arm's clavicle and
// scapula get their own pieces). Bones are found by name.
std::vector<OutlinePiece> limbOutline(const std::vector<OutlineBone>& bones);

// Signed distance (m, < 0 inside) of one piece and of the union of all
// pieces: runs of joined pieces by plain union, the runs smooth-unioned
// with each other (blend radius kOutlineBlend).
constexpr float kOutlineBlend = 0.015f;
float pieceSdf(const OutlinePiece& piece, glm::vec3 p);
float outlineSdf(const std::vector<OutlinePiece>& pieces, glm::vec3 p);

// A closed, manifold, outward mesh of the outline: polygonised on a grid of
// spacing `cell`, then reduced by edge collapse to at most `max_triangles`
// (vertices kept on the surface), then relaxed along the surface.
MeshData outlineMesh(const std::vector<OutlinePiece>& pieces, float cell, size_t max_triangles);

struct SkinWeights {
    std::vector<glm::uvec4> joints;  // bone indices (unused slots: 0 with weight 0)
    std::vector<glm::vec4> weights;  // sorted by weight, summing to 1
};

// Of (weight, joint) candidates with positive weights, the four largest
// (ties: the lower joint first), sorted, normalised to sum to 1 exactly;
// unused slots joint 0, weight 0. Reorders and trims `candidates`.
void keepFourLargest(std::vector<std::pair<float, uint32_t>>& candidates, glm::uvec4& joints, glm::vec4& weights);

// Linear-blend weights: for each bone the distance d_j to its nearest piece;
// bones with d_j within `blend` of the nearest get w = 1 − smoothstep((d_j −
// d_min)/blend), so weights fall off smoothly across each joint; the four
// largest are kept and normalised.
SkinWeights skinWeights(const std::vector<glm::vec3>& positions, const std::vector<OutlinePiece>& pieces,
                        float blend);

struct SkinMesh {
    std::vector<glm::vec3> positions, normals;  // rest pose (bind space = world)
    std::vector<glm::uvec3> triangles;
    SkinWeights weights;
};

// The whole path for a rig: pieces, mesh and weights. The mesh is built in a
// pose with the arms and legs spread a little (so a hand hanging by the
// thigh does not merge with it) and brought back to the rest pose through
// its own weights.
SkinMesh buildSkin(const std::vector<OutlineBone>& bones, float cell, size_t max_triangles);

}  // namespace engine

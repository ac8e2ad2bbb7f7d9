// The drawn skin that wraps the muscles (docs/model.md §3.9): the envelope
// as the file poses it (linear-blend skinning), pushed out wherever a muscle surface vertex lies closer to it than a
// clearance, or outside it — so a contracting biceps bulges the skin, the
// collapsed crease of a flexed elbow is lifted over the flexors, and no
// muscle shows through.
//
// It is an output, not part of the step: the solver's envelope (§3.8) stays
// the skin as posed from the file. The wrap is a pure function of the
// particles and the envelope's pose (the same bits for any thread count),
// computed for each frame the viewer draws and `bake` writes.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/skew_ray_grid.h"

namespace sim {

struct World;

// The clearance the drawn skin keeps over every muscle surface vertex (m):
// enough that the translucent skin never z-fights the muscle under it.
inline constexpr float kSkinWrapClearance = 0.001f;

// Scratch reused from frame to frame (sized on first use).
struct SkinWrapScratch {
    std::vector<glm::vec3> normals, face_normals, required, height, next;  // per envelope vertex
    SkewRayGrid rays;                // the skin's triangles across the winding test's ray, per round
    std::vector<uint8_t> near;       // per particle: near the skin in the first round
    // Per particle not bound to the envelope: the triangle its last walk
    // ended on (−1: none yet), where the next frame's walk starts.
    std::vector<int32_t> hint;
    std::vector<int32_t> tri;        // per particle: the envelope triangle it pushes (−1: none)
    std::vector<glm::vec3> bary;     // per particle: where on it
    std::vector<float> push;         // per particle: how far out (m)
    std::vector<glm::vec3> push_normal;
};

// The wrapped skin for particle positions X and the envelope posed as
// w.envelope.curr (the frame's end), in the envelope's vertex order, into
// `out` (empty when the scene has no envelope). `clearance`: how far every
// muscle surface vertex ends up inside it at least.
// Exact: three rounds, every vertex near the skin located exactly (what
// `bake` writes and `run --json` measures). Interactive: one round of walks
// (the viewer, every frame; a walk that rests on a fold of the skin can
// leave a vertex a few mm out for that frame).
enum class SkinWrapQuality { Exact, Interactive };
void wrapSkin(const World& w, const std::vector<glm::vec3>& X, float clearance, SkinWrapScratch& s,
              std::vector<glm::vec3>& out, SkinWrapQuality quality = SkinWrapQuality::Exact);

}  // namespace sim

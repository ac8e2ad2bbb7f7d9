// Everything the renderer needs about a loaded scene that does not change
// from frame to frame: muscle index ranges and triangles, edges for the
// overlays, bone meshes. Built once per load on the thread that owns the
// world, then shared read-only (shared_ptr<const>) with the render thread,
// so a reload never changes what a frame in flight refers to.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace sim {
struct World;
}
#include "engine/scene/scene.h"

namespace engine::render {

struct MuscleDraw {
    std::string name;
    uint32_t first = 0, surface_count = 0, branch_count = 0;
    uint32_t tri_begin = 0, tri_count = 0;
    float stripes = 0.0f;  // striation: stripes around the muscle (~1.5 mm apart at rest)
};

// Bone or other non-muscle geometry, posed on the CPU every frame.
struct BoneMesh {
    enum class Follow : uint8_t { Static, Joint, Body };
    std::string name;
    std::vector<glm::vec3> positions, normals;  // local to the joint/body, or bind space when skinned
    std::vector<uint32_t> indices;
    glm::vec3 color{0.86f, 0.83f, 0.76f};
    // Material alphaMode BLEND (docs/scene-format.md, "Translucent meshes"):
    // drawn after everything opaque, see-through with this alpha, no shadow;
    // the `skin` render option shows or hides all of them.
    float alpha = 1.0f;
    bool blend = false;
    Follow follow = Follow::Static;
    int index = -1;  // joint or body index
    // Skinning (glTF: joint matrix = global(joint) · inverseBind), with
    // influence_sets groups of four per vertex (engine::RenderMesh).
    std::vector<glm::uvec4> skin_joints;
    std::vector<glm::vec4> skin_weights;
    int influence_sets = 1;
    std::vector<glm::mat4> inverse_bind;
    std::vector<int> skin_joint_map;
    bool skinned() const { return !skin_weights.empty(); }
    // Morph targets; their weights are DrawFrame::morph_weights[morph_first ...].
    std::vector<std::vector<glm::vec3>> morph_targets;
    std::vector<float> morph_defaults;  // used when a frame carries no weights
    size_t morph_first = 0;
    // Base colour texture (index into DrawTopology::textures, −1: none), its
    // coordinates, and the MASK cutoff against the texel alpha (−1: none).
    int texture = -1;
    std::vector<glm::vec2> uvs;
    float alpha_cutoff = -1.0f;
    // Drawn on its own (with its texture) rather than in the one opaque batch.
    bool ownDraw() const { return blend || texture >= 0; }
};

enum class EdgeKind : uint8_t { Surface, Spoke, Medulla };

struct DrawTopology {
    std::string name;
    size_t particle_count = 0;
    std::vector<MuscleDraw> muscles;
    std::vector<glm::uvec3> triangles;      // global particle indices
    std::vector<glm::uvec2> mesh_edges;     // unique triangle edges, for the wireframe
    std::vector<glm::uvec2> distance_edges; // one per distance constraint
    std::vector<EdgeKind> distance_kind;
    std::vector<int> distance_color;        // SMT-G colour per distance constraint (−1: none)
    int color_count = 0;
    // Per particle: the neighbour whose rest edge is best aligned with the
    // fibre; drawing the current edge direction shows how fibres deform.
    std::vector<uint32_t> fiber_neighbor;
    // Per particle: 0 in the fleshy belly, rising to 1 at the tendon ends
    // (near the origin and insertion sets along the muscle's axis), for the
    // anatomical colours.
    std::vector<float> tendon;
    // Per particle: (cos θ, sin θ) of its angle around the muscle's
    // origin–insertion axis at rest. Interpolated and turned back into an
    // angle per pixel, it places the striation (stripes of constant θ run
    // along the muscle) without a seam.
    std::vector<glm::vec2> around;
    std::vector<uint32_t> attachments;      // particle indices held on bodies
    std::vector<BoneMesh> bones;
    std::vector<engine::Texture> textures;  // the scene's base colour textures
    // The bone mesh that is the scene's skin envelope (−1: none) and, per
    // vertex of it, its envelope vertex: where the drawn skin that wraps the
    // muscles (DrawFrame::skin_wrap) replaces its skinned pose.
    int envelope_mesh = -1;
    std::vector<uint32_t> envelope_weld;
    bool hasTranslucent() const;            // any bone mesh with blend
    // Scenes without muscles: where the meshes reach over every animation
    // (sampled), so the floor and "frame all" hold the whole motion from
    // the first frame. Invalid (lo > hi) for scenes with muscles.
    glm::vec3 mesh_motion_lo{1e30f}, mesh_motion_hi{-1e30f};
    glm::vec3 ground_origin{0.0f};
    bool ground_is_plane = false;           // the scene's own plane (physics); else a floor under what is drawn
    glm::vec3 ground_normal{0.0f, 1.0f, 0.0f};
    float rest_radius = 0.1f;               // bounding radius of the rest pose
};

// `scene` may be null (bones then come from the world's collision bodies);
// `distance_colors` may be empty (no colouring solver).
DrawTopology buildDrawTopology(const sim::World& world, const engine::Scene* scene,
                               std::span<const int> distance_colors);

}  // namespace engine::render

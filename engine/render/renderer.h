// Draws one frame: shadow pass, background, ground grid, bones, shaded
// muscles, overlays, into a multisampled target that is then resolved. No
// window, no UI: the viewer draws its UI into output() and presents it.
// Nothing is re-derived or re-uploaded for what did not change: muscle
// normals, colours and overlays only for a new sim frame (DrawFrame::serial)
// or new options, bones only when their transforms moved. A software
// rasteriser gets the fast path (engine/render/render_path.h).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "engine/render/camera.h"
#include "engine/render/draw_frame.h"
#include "engine/render/draw_topology.h"
#include "engine/render/gpu_mesh.h"
#include "engine/render/overlay_builder.h"
#include "engine/render/render_options.h"
#include "engine/render/render_path.h"
#include "engine/render/render_target.h"
#include "engine/render/shader.h"
#include "engine/render/shadow_map.h"

namespace engine::render {

// What the renderer did, counted since it was made (tests and the Stats
// panel read it: a frame with nothing new uploads nothing).
struct RenderStats {
    uint64_t frames = 0;
    uint64_t muscle_uploads = 0;   // muscle normals + colours derived and uploaded
    uint64_t bone_uploads = 0;     // opaque bones posed, skinned and uploaded
    uint64_t overlay_builds = 0;   // overlay batches rebuilt
    uint64_t shadow_passes = 0;    // shadow maps drawn (again only when what casts them moved)
};

class Renderer {
public:
    Renderer();
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    // Needs a current GL 4.1 core context with loaded functions. Returns an
    // error (shader file and log) or empty.
    std::string init(const std::string& shader_dir = shaderDirectory());
    // Takes the topology of the scene the next frames belong to; GPU index
    // buffers are rebuilt only when the pointer changes.
    void setTopology(std::shared_ptr<const DrawTopology> topo);
    const DrawTopology* topology() const { return topo_.get(); }

    // Renders into the off-screen target of the given framebuffer size.
    void render(const DrawFrame& frame, const OrbitCamera& cam, const RenderOptions& opt, int fb_width,
                int fb_height);
    const RenderTarget& target() const { return target_; }
    // Bounds of what the last frame drew (visible muscles and bones), for "frame all".
    const Bounds& lastBounds() const { return bounds_; }
    // Where the ground of the last frame lay (the scene's plane, or the floor
    // under the lowest point drawn; exposed for tests).
    const glm::vec3& lastGroundOrigin() const { return last_ground_; }
    // Per-vertex muscle colours of the last frame (exposed for tests).
    const std::vector<glm::vec3>& muscleColors() const { return colors_; }
    const RenderStats& stats() const { return stats_; }
    // The path the last frame took, and the GL_RENDERER string it was chosen from.
    const RenderPath& lastPath() const { return path_; }
    const std::string& glRenderer() const { return gl_renderer_; }
    bool softwareRenderer() const { return software_; }

private:
    // The joint, body and morph state meshes were last posed with.
    struct PoseKey {
        std::vector<glm::mat4> joints, bodies;
        std::vector<float> morph;
        bool valid = false;
        bool matches(const DrawFrame& f) const;
        void take(const DrawFrame& f);
    };
    // What the muscle colours and overlays of a frame depend on besides the frame.
    struct MuscleKey {
        uint64_t serial = 0;
        std::array<bool, kOverlayCount> overlays{};
        float error_scale = 0.0f;
        int selected = -1;
        std::vector<uint8_t> visible;
        bool valid = false;
        bool matches(const DrawFrame& f, const RenderOptions& opt) const;
        void take(const DrawFrame& f, const RenderOptions& opt);
    };
    void prepareMuscles(const DrawFrame& f, const RenderOptions& opt);
    void prepareBones(const DrawFrame& f);
    void invalidateCaches();
    void updateMuscleIndices(const RenderOptions& opt);
    void computeColors(const DrawFrame& f, const RenderOptions& opt);
    void drawGround(const glm::mat4& view_proj, const glm::vec3& eye, bool shadows);
    // The passes of render(), in order.
    void prepareGeometry(const DrawFrame& f, const RenderOptions& opt);
    void shadowPass(const RenderOptions& opt);
    void drawBackground();
    void drawOpaque(const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt);
    void drawOverlays(const glm::mat4& view_proj);

    void poseTranslucent(const DrawFrame& f);
    void poseTextured(const DrawFrame& f);
    void uploadTextures();
    void releaseTextures();
    // Binds a mesh's texture to the texture unit and sets u_textured (and
    // for the mesh shader u_alpha_cutoff).
    void bindMeshTexture(Program& shader, const BoneMesh& m);
    void drawTranslucent(const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt);
    void useLit(Program& shader, const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt);

    Program mesh_, ground_, lines_, shadow_, background_, skin_;
    RenderTarget target_;
    ShadowMap shadow_map_;
    GpuMesh muscles_, bones_;
    OverlayBatches overlays_;
    GLuint empty_vao_ = 0, ground_vao_ = 0, ground_vbo_ = 0;
    std::shared_ptr<const DrawTopology> topo_;
    std::vector<uint8_t> index_visibility_;
    bool indices_dirty_ = true;
    std::vector<glm::vec3> normals_, colors_, bone_pos_, bone_nrm_, bone_col_;
    std::vector<glm::vec4> fibers_;  // muscles: fibre direction + glow (GpuMesh stream 3)
    std::vector<uint32_t> tri_scratch_;
    std::vector<glm::uvec3> bone_tris_;
    std::vector<glm::mat4> skin_mats_;  // scratch: skin matrices while posing
    // Translucent meshes (BoneMesh::blend), one GPU mesh each, drawn after
    // everything opaque. Re-posed and uploaded only when the joints or
    // bodies moved since the last upload.
    struct Translucent {
        size_t mesh = 0;  // index into DrawTopology::bones
        GpuMesh gpu;
        std::vector<glm::uvec3> tris;
        Bounds bounds;  // of the last upload
    };
    std::vector<Translucent> translucent_;
    // Opaque meshes with a base colour texture, one GPU mesh each (they
    // need their texture bound), posed every frame like the bones.
    struct Textured {
        size_t mesh = 0;  // index into DrawTopology::bones
        GpuMesh gpu;
        std::vector<glm::uvec3> tris;
    };
    std::vector<Textured> textured_;
    std::vector<GLuint> textures_;  // per DrawTopology::textures
    std::vector<glm::vec3> skin_pos_, skin_nrm_, skin_col_;
    PoseKey translucent_pose_, bone_pose_;
    uint64_t wrap_serial_ = 0;  // the frame whose wrapped skin the translucent meshes hold
    MuscleKey muscle_key_;
    Bounds muscle_bounds_, bone_bounds_;  // of the last derived muscles / posed opaque bones
    Bounds bounds_;
    RenderStats stats_;
    // Bumped whenever a shadow caster's GPU data changes (muscle or bone
    // vertices, the visible muscles, the topology): with the same light box
    // the shadow map of the last frame is still right.
    uint64_t geometry_version_ = 1;
    struct ShadowKey {
        uint64_t geometry = 0;
        bool bones = false;
        int size = 0;
        glm::vec3 lo{0.0f}, hi{0.0f};
        bool valid = false;
        bool operator==(const ShadowKey&) const = default;
    } shadow_key_;
    RenderPath path_;
    std::string gl_renderer_;
    bool software_ = false;
    // Without a plane in the scene the floor sits just under the lowest point
    // drawn since the scene was shown (it never jumps up as a figure moves).
    float lowest_drawn_ = 1e30f;
    glm::vec3 last_ground_{0.0f};
    glm::vec3 groundOrigin();
    glm::vec3 light_dir_{0.35f, 1.0f, 0.25f};
};

}  // namespace engine::render

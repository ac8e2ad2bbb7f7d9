// Draws one frame: shadow pass, background, ground grid, bones, shaded
// muscles, overlays, into a multisampled target that is then resolved. No
// window, no UI: the viewer draws its UI into output() and presents it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/render/camera.h"
#include "engine/render/draw_frame.h"
#include "engine/render/draw_topology.h"
#include "engine/render/gpu_mesh.h"
#include "engine/render/overlay_builder.h"
#include "engine/render/render_options.h"
#include "engine/render/render_target.h"
#include "engine/render/shader.h"
#include "engine/render/shadow_map.h"

namespace engine::render {

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

private:
    void updateMuscleIndices(const RenderOptions& opt);
    void computeColors(const DrawFrame& f, const RenderOptions& opt);
    void drawGround(const glm::mat4& view_proj, const glm::vec3& eye, bool shadows);

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
    std::vector<glm::mat4> posed_joints_, posed_bodies_;
    std::vector<float> posed_morph_;
    bool translucent_posed_ = false;
    Bounds bounds_;
    // Without a plane in the scene the floor sits just under the lowest point
    // drawn since the scene was shown (it never jumps up as a figure moves).
    float lowest_drawn_ = 1e30f;
    glm::vec3 last_ground_{0.0f};
    glm::vec3 groundOrigin();
    glm::vec3 light_dir_{0.35f, 1.0f, 0.25f};
};

}  // namespace engine::render

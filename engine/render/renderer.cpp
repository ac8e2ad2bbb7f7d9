#include "engine/render/renderer.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "engine/render/bone_pose.h"
#include "engine/render/colormap.h"
#include "engine/render/normals.h"

namespace engine::render {

namespace {
constexpr int kShadowUnit = 1;
constexpr int kShadowSize = 2048;  // the full path's (RenderPath::shadow_size)
constexpr int kTextureUnit = 2;
}  // namespace

Renderer::Renderer() = default;

Renderer::~Renderer() {
    if (empty_vao_) glDeleteVertexArrays(1, &empty_vao_);
    if (ground_vao_) glDeleteVertexArrays(1, &ground_vao_);
    if (ground_vbo_) glDeleteBuffers(1, &ground_vbo_);
    releaseTextures();
}

void Renderer::releaseTextures() {
    if (!textures_.empty()) glDeleteTextures(GLsizei(textures_.size()), textures_.data());
    textures_.clear();
}

// The scene's base colour textures as sRGB textures (sampled linear), with
// their glTF samplers (the enum values are OpenGL's).
void Renderer::uploadTextures() {
    releaseTextures();
    if (!topo_ || topo_->textures.empty()) return;
    textures_.assign(topo_->textures.size(), 0);
    glGenTextures(GLsizei(textures_.size()), textures_.data());
    glActiveTexture(GL_TEXTURE0 + kTextureUnit);
    for (size_t i = 0; i < textures_.size(); ++i) {
        const engine::Texture& t = topo_->textures[i];
        glBindTexture(GL_TEXTURE_2D, textures_[i]);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        const bool ok = t.width > 0 && t.height > 0 && t.rgba.size() >= size_t(t.width) * size_t(t.height) * 4;
        const uint8_t white[4] = {255, 255, 255, 255};
        glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, ok ? t.width : 1, ok ? t.height : 1, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, ok ? t.rgba.data() : white);
        const int min = t.min_filter >= 0 ? t.min_filter : GL_LINEAR_MIPMAP_LINEAR;
        const int mag = t.mag_filter >= 0 ? t.mag_filter : GL_LINEAR;
        if (min != GL_NEAREST && min != GL_LINEAR) glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, t.wrap_s);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, t.wrap_t);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
}

void Renderer::bindMeshTexture(Program& shader, const BoneMesh& m) {
    const bool has = m.texture >= 0 && size_t(m.texture) < textures_.size();
    shader.set("u_textured", has ? 1 : 0);
    if (&shader == &mesh_) shader.set("u_alpha_cutoff", has ? m.alpha_cutoff : -1.0f);
    if (!has) return;
    glActiveTexture(GL_TEXTURE0 + kTextureUnit);
    glBindTexture(GL_TEXTURE_2D, textures_[size_t(m.texture)]);
    glActiveTexture(GL_TEXTURE0);
}

std::string Renderer::init(const std::string& dir) {
    for (auto [prog, name] : {std::pair{&mesh_, "mesh"}, {&ground_, "ground"}, {&lines_, "lines"},
                              {&shadow_, "shadow"}, {&background_, "background"}, {&skin_, "skin"}})
        if (auto e = prog->load(dir, name); !e.empty()) return e;
    const GLubyte* name = glGetString(GL_RENDERER);
    gl_renderer_ = name ? reinterpret_cast<const char*>(name) : "";
    software_ = isSoftwareRenderer(gl_renderer_);
    if (!shadow_map_.create(kShadowSize)) return "shadow map framebuffer incomplete";
    glGenVertexArrays(1, &empty_vao_);
    // Ground: a unit quad in the plane's local XZ, scaled and placed per frame.
    const float quad[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    glGenVertexArrays(1, &ground_vao_);
    glGenBuffers(1, &ground_vbo_);
    glBindVertexArray(ground_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, ground_vbo_);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    glBindVertexArray(0);
    return {};
}

void Renderer::setTopology(std::shared_ptr<const DrawTopology> topo) {
    if (topo == topo_) return;
    topo_ = std::move(topo);
    indices_dirty_ = true;
    lowest_drawn_ = 1e30f;
    bone_tris_.clear();
    translucent_.clear();
    textured_.clear();
    invalidateCaches();
    uploadTextures();
    if (!topo_) return;
    // A scene without muscles: the floor under everything its meshes reach
    // over the animation from the first frame.
    if (topo_->mesh_motion_lo.x <= topo_->mesh_motion_hi.x) lowest_drawn_ = topo_->mesh_motion_lo.y;
    std::vector<uint32_t> idx = boneIndices(topo_->bones);
    bones_.setIndices(idx);
    for (size_t i = 0; i + 2 < idx.size(); i += 3) bone_tris_.emplace_back(idx[i], idx[i + 1], idx[i + 2]);
    for (size_t b = 0; b < topo_->bones.size(); ++b) {
        const BoneMesh& m = topo_->bones[b];
        if (!m.ownDraw()) continue;
        std::vector<glm::uvec3> tris;
        for (size_t i = 0; i + 2 < m.indices.size(); i += 3)
            tris.emplace_back(m.indices[i], m.indices[i + 1], m.indices[i + 2]);
        GpuMesh gpu;
        gpu.setIndices(m.indices);
        if (m.texture >= 0 && m.uvs.size() == m.positions.size()) gpu.setUVs(m.uvs);
        if (m.blend) {
            Translucent t;
            t.mesh = b;
            t.tris = std::move(tris);
            t.gpu = std::move(gpu);
            translucent_.push_back(std::move(t));
        } else {
            Textured t;
            t.mesh = b;
            t.tris = std::move(tris);
            t.gpu = std::move(gpu);
            textured_.push_back(std::move(t));
        }
    }
}

void Renderer::invalidateCaches() {
    ++geometry_version_;
    shadow_key_.valid = false;
    translucent_pose_.valid = false;
    bone_pose_.valid = false;
    muscle_key_.valid = false;
}

bool Renderer::PoseKey::matches(const DrawFrame& f) const {
    return valid && std::equal(joints.begin(), joints.end(), f.joint_globals.begin(), f.joint_globals.end()) &&
           std::equal(bodies.begin(), bodies.end(), f.body_transforms.begin(), f.body_transforms.end()) &&
           std::equal(morph.begin(), morph.end(), f.morph_weights.begin(), f.morph_weights.end());
}

void Renderer::PoseKey::take(const DrawFrame& f) {
    joints.assign(f.joint_globals.begin(), f.joint_globals.end());  // reuses the capacity
    bodies.assign(f.body_transforms.begin(), f.body_transforms.end());
    morph.assign(f.morph_weights.begin(), f.morph_weights.end());
    valid = true;
}

// A frame of unknown serial (0) never matches: it is always derived afresh.
bool Renderer::MuscleKey::matches(const DrawFrame& f, const RenderOptions& opt) const {
    return valid && f.serial != 0 && serial == f.serial && overlays == opt.overlays &&
           error_scale == opt.error_scale && selected == opt.selected_muscle && visible == opt.muscle_visible;
}

void Renderer::MuscleKey::take(const DrawFrame& f, const RenderOptions& opt) {
    serial = f.serial;
    overlays = opt.overlays;
    error_scale = opt.error_scale;
    selected = opt.selected_muscle;
    visible = opt.muscle_visible;
    valid = true;
}

// Muscle normals, colours, bounds and overlays: derived and uploaded only for
// a frame or options not drawn before (a paused view, or a renderer drawing
// faster than the sim publishes, re-derives nothing).
void Renderer::prepareMuscles(const DrawFrame& f, const RenderOptions& opt) {
    updateMuscleIndices(opt);
    if (muscle_key_.matches(f, opt)) return;
    computeVertexNormals(f.positions, topo_->triangles, normals_);
    computeColors(f, opt);
    muscles_.setVertices(f.positions, normals_, colors_, fibers_);
    ++geometry_version_;
    muscle_bounds_ = Bounds{};
    for (size_t m = 0; m < topo_->muscles.size(); ++m) {
        if (!opt.muscleVisible(m)) continue;
        const auto& md = topo_->muscles[m];
        for (uint32_t i = md.first; i < md.first + md.surface_count; ++i) muscle_bounds_.add(f.positions[i]);
    }
    buildOverlays(*topo_, f, opt, overlays_);
    muscle_key_.take(f, opt);
    ++stats_.muscle_uploads;
    ++stats_.overlay_builds;
}

// The opaque bones (and textured meshes): posed, skinned and uploaded only
// when the joints, bodies or morph weights moved since the last upload.
void Renderer::prepareBones(const DrawFrame& f) {
    if (bone_pose_.matches(f)) return;
    poseBones(topo_->bones, f, bone_pos_, bone_col_, skin_mats_);
    computeVertexNormals(bone_pos_, bone_tris_, bone_nrm_);
    bones_.setVertices(bone_pos_, bone_nrm_, bone_col_);
    ++geometry_version_;
    bone_bounds_ = Bounds{};
    for (const auto& p : bone_pos_) bone_bounds_.add(p);
    poseTextured(f);
    bone_pose_.take(f);
    ++stats_.bone_uploads;
}

// Poses and uploads the translucent meshes when the joints or bodies moved
// (a paused or scrubbed-to frame uploads nothing).
void Renderer::poseTranslucent(const DrawFrame& f) {
    // The wrapped skin changes with the muscles, not only with the joints.
    const bool wrapped = topo_->envelope_mesh >= 0 && !f.skin_wrap.empty();
    if (translucent_pose_.matches(f) && (!wrapped || (f.serial != 0 && f.serial == wrap_serial_))) return;
    wrap_serial_ = wrapped ? f.serial : 0;
    for (Translucent& t : translucent_) {
        poseMesh(topo_->bones[t.mesh], f, skin_pos_, skin_mats_);
        if (wrapped && int(t.mesh) == topo_->envelope_mesh && skin_pos_.size() == topo_->envelope_weld.size())
            for (size_t v = 0; v < skin_pos_.size(); ++v)
                if (topo_->envelope_weld[v] < f.skin_wrap.size()) skin_pos_[v] = f.skin_wrap[topo_->envelope_weld[v]];
        computeVertexNormals(skin_pos_, t.tris, skin_nrm_);
        t.bounds = Bounds{};
        for (const auto& p : skin_pos_) t.bounds.add(p);
        t.gpu.setVertices(skin_pos_, skin_nrm_, {});
    }
    translucent_pose_.take(f);
}

void Renderer::poseTextured(const DrawFrame& f) {
    for (Textured& t : textured_) {
        const BoneMesh& m = topo_->bones[t.mesh];
        poseMesh(m, f, skin_pos_, skin_mats_);
        computeVertexNormals(skin_pos_, t.tris, skin_nrm_);
        skin_col_.assign(skin_pos_.size(), m.color);
        for (const auto& p : skin_pos_) bone_bounds_.add(p);
        t.gpu.setVertices(skin_pos_, skin_nrm_, skin_col_);
    }
}

// The camera, light and shadow uniforms the lit shaders (mesh, skin) share.
void Renderer::useLit(Program& shader, const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt) {
    shader.use();
    shader.set("u_view_proj", view_proj);
    shader.set("u_light_view_proj", shadow_map_.lightViewProj());
    shader.set("u_eye", eye);
    shader.set("u_light_dir", glm::normalize(light_dir_));
    shader.set("u_shadow", kShadowUnit);
    shader.set("u_use_shadow", opt.shadows ? 1 : 0);
    shader.set("u_shadow_texel", 1.0f / float(shadow_map_.size()));
    shader.set("u_fast_shadow", path_.few_shadow_taps ? 1 : 0);
    shader.set("u_base_texture", kTextureUnit);
    shader.set("u_textured", 0);
    if (&shader == &mesh_) {
        shader.set("u_alpha_cutoff", -1.0f);
        shader.set("u_sel_first", 0);
        shader.set("u_sel_end", 0);
    }
}

// Translucent meshes after everything opaque: depth test on, depth write off,
// back faces then front faces (two culled passes), so a closed skin shows its
// far side through its near side in order (docs/architecture.md, "Renderer").
void Renderer::drawTranslucent(const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt) {
    useLit(skin_, view_proj, eye, opt);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_CULL_FACE);
    for (const Translucent& t : translucent_) {
        const BoneMesh& m = topo_->bones[t.mesh];
        skin_.set("u_color", m.color);
        skin_.set("u_alpha", std::clamp(m.alpha * opt.skin_opacity, 0.0f, 1.0f));
        bindMeshTexture(skin_, m);
        glCullFace(GL_FRONT);
        skin_.set("u_back", 1);
        t.gpu.draw();
        glCullFace(GL_BACK);
        skin_.set("u_back", 0);
        t.gpu.draw();
    }
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

void Renderer::updateMuscleIndices(const RenderOptions& opt) {
    if (!topo_) return;
    if (!indices_dirty_ && index_visibility_ == opt.muscle_visible) return;
    tri_scratch_.clear();
    for (size_t m = 0; m < topo_->muscles.size(); ++m) {
        if (!opt.muscleVisible(m)) continue;
        const auto& md = topo_->muscles[m];
        for (uint32_t t = md.tri_begin; t < md.tri_begin + md.tri_count && t < topo_->triangles.size(); ++t) {
            const auto& tri = topo_->triangles[t];
            tri_scratch_.insert(tri_scratch_.end(), {tri.x, tri.y, tri.z});
        }
    }
    muscles_.setIndices(tri_scratch_);
    ++geometry_version_;
    index_visibility_ = opt.muscle_visible;
    indices_dirty_ = false;
}

// Muscle colours: anatomical (red-brown belly, pale tendon ends, striated
// along the fibres, a warm glow with activation), or a data overlay that
// replaces them: the error heat map, the overlap map, SMT-G groups,
// activation on viridis.
void Renderer::computeColors(const DrawFrame& f, const RenderOptions& opt) {
    colors_.assign(f.positions.size(), glm::vec3(0.7f));
    fibers_.assign(f.positions.size(), glm::vec4(0.0f));
    const bool error_map = opt.overlay(Overlay::ErrorMap) && f.vertex_error.size() == f.positions.size();
    const bool overlap_map =
        !error_map && opt.overlay(Overlay::Overlap) && f.vertex_overlap.size() == f.positions.size();
    const bool drift_map = !error_map && !overlap_map && opt.overlay(Overlay::Drift) &&
                           f.vertex_drift.size() == f.positions.size();
    const bool outside_map = !error_map && !overlap_map && !drift_map && opt.overlay(Overlay::Outside) &&
                             f.vertex_outside.size() == f.positions.size();
    const bool groups = opt.overlay(Overlay::ColorGroups);
    const bool activation_map = opt.overlay(Overlay::ActivationMap);
    const bool field = error_map || overlap_map || drift_map || outside_map;
    const bool anatomical = !field && !groups && !activation_map;
    const bool glow = opt.overlay(Overlay::Glow) && !field && !groups;
    const glm::vec3 flesh(0.60f, 0.20f, 0.17f), tendon(0.86f, 0.80f, 0.68f);
    for (size_t m = 0; m < topo_->muscles.size(); ++m) {
        const auto& md = topo_->muscles[m];
        float a = m < f.muscle_activation.size() ? f.muscle_activation[m] : 0.0f;
        const glm::vec3 base = groups ? glm::vec3(0.78f) : sampleColorMap(ColorMap::Viridis, a);
        const bool selected = int(m) == opt.selected_muscle;
        for (uint32_t i = md.first; i < md.first + md.surface_count + md.branch_count && i < colors_.size(); ++i) {
            const float t = i < topo_->tendon.size() ? topo_->tendon[i] : 0.0f;
            glm::vec3 c = error_map     ? sampleColorMap(ColorMap::Inferno, f.vertex_error[i] / opt.error_scale)
                          : overlap_map ? overlapColor(f.vertex_overlap[i])
                          : drift_map   ? driftColor(f.vertex_drift[i])
                          : outside_map ? outsideColor(f.vertex_outside[i])
                          : anatomical  ? glm::mix(flesh, tendon, t)
                                        : base;
            colors_[i] = selected ? glm::mix(c, glm::vec3(1.0f, 0.95f, 0.8f), 0.35f) : c;
            if (!anatomical) continue;
            // Where the vertex lies around the muscle (striation) and the
            // glow; tendons carry neither.
            const glm::vec2 th = i < topo_->around.size() ? topo_->around[i] : glm::vec2(0.0f);
            // z: the stripe count (an integer, so the stripes close around the
            // muscle) plus 0.49 × how much of the belly this is.
            fibers_[i] = glm::vec4(th, md.stripes + 0.49f * (1.0f - t), glow ? 0.4f * a * (1.0f - t) : 0.0f);
        }
        if (!anatomical && glow)
            for (uint32_t i = md.first; i < md.first + md.surface_count && i < fibers_.size(); ++i)
                fibers_[i].w = 0.45f * a;
    }
}

// The scene's plane, or a floor just under the lowest point drawn since the
// scene was shown (it never jumps up as a figure moves), centred under what
// is drawn now.
glm::vec3 Renderer::groundOrigin() {
    const float r = std::max(bounds_.radius(), topo_ ? topo_->rest_radius : 0.1f);
    const glm::vec3 c = bounds_.valid() ? bounds_.center() : topo_->ground_origin;
    glm::vec3 origin = topo_->ground_origin;
    origin.x = c.x;
    origin.z = c.z;
    if (!topo_->ground_is_plane && bounds_.valid()) {
        lowest_drawn_ = std::min(lowest_drawn_, bounds_.lo.y);
        origin.y = lowest_drawn_ - 0.02f * r;
    }
    last_ground_ = origin;
    return origin;
}

void Renderer::drawGround(const glm::mat4& view_proj, const glm::vec3& eye, bool shadows) {
    // Grid spacing: the 1-2-5 step nearest a quarter of the scene radius, so
    // cells read as round lengths (1 cm, 5 cm, 10 cm ...).
    float r = std::max(bounds_.radius(), topo_ ? topo_->rest_radius : 0.1f);
    float want = std::max(0.25f * r, 1e-4f);
    float decade = std::pow(10.0f, std::floor(std::log10(want)));
    float spacing = decade;
    for (float step : {2.0f, 5.0f, 10.0f})
        if (std::abs(std::log(decade * step / want)) < std::abs(std::log(spacing / want))) spacing = decade * step;
    const glm::vec3 origin = groundOrigin();
    float extent = 6.0f * r;
    glm::mat4 model = glm::translate(glm::mat4(1.0f), origin) * glm::scale(glm::mat4(1.0f), glm::vec3(extent, 1, extent));
    ground_.use();
    ground_.set("u_view_proj", view_proj);
    ground_.set("u_model", model);
    ground_.set("u_light_view_proj", shadow_map_.lightViewProj());
    ground_.set("u_shadow", kShadowUnit);
    ground_.set("u_use_shadow", shadows ? 1 : 0);
    ground_.set("u_spacing", spacing);
    ground_.set("u_center", origin);
    ground_.set("u_extent", extent);
    ground_.set("u_eye", eye);
    ground_.set("u_shadow_texel", 1.0f / float(shadow_map_.size()));
    ground_.set("u_fast_shadow", path_.few_shadow_taps ? 1 : 0);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glBindVertexArray(ground_vao_);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindVertexArray(0);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}

// Uploads this frame's muscles (and the bones and skin when shown) and sets
// bounds_ to the box around all of them.
void Renderer::prepareGeometry(const DrawFrame& f, const RenderOptions& opt) {
    prepareMuscles(f, opt);
    if (muscle_bounds_.valid()) {
        bounds_.add(muscle_bounds_.lo);
        bounds_.add(muscle_bounds_.hi);
    }
    // Hidden bones keep their last upload (drawn again as soon as shown,
    // re-posed first if they moved meanwhile).
    if (opt.bones && !topo_->bones.empty()) {
        prepareBones(f);
        if (bone_bounds_.valid()) {
            bounds_.add(bone_bounds_.lo);
            bounds_.add(bone_bounds_.hi);
        }
    }
    if (opt.skin && !translucent_.empty()) {
        poseTranslucent(f);
        for (const Translucent& t : translucent_)
            if (t.bounds.valid()) {
                bounds_.add(t.bounds.lo);
                bounds_.add(t.bounds.hi);
            }
    }
}

void Renderer::shadowPass(const RenderOptions& opt) {
    // The shadow map covers the floor under the scene too (its depth
    // range would otherwise end above a floor left below a raised limb).
    Bounds lit = bounds_;
    if (opt.ground) {
        const glm::vec3 g = groundOrigin();
        lit.add(glm::vec3(bounds_.center().x, g.y, bounds_.center().z));
    }
    // The same casters in the same light box: last frame's map is still
    // right (the camera moving or a paused sim redraws no shadow map).
    const ShadowKey key{geometry_version_, opt.bones && !topo_->bones.empty(), shadow_map_.size(), lit.lo, lit.hi,
                        true};
    if (key == shadow_key_) return;
    shadow_key_ = key;
    ++stats_.shadow_passes;
    shadow_map_.begin(lit, light_dir_);
    // Slope-scaled offset in the depth pass fights acne without peter-panning.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(2.0f, 4.0f);
    shadow_.use();
    shadow_.set("u_view_proj", shadow_map_.lightViewProj());
    muscles_.draw();
    if (key.bones) {
        bones_.draw();
        for (const Textured& t : textured_) t.gpu.draw();
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
    shadow_map_.end();
}

// Clears the scene target to the background gradient (full-screen
// triangle, no depth).
void Renderer::drawBackground() {
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glDisable(GL_DEPTH_TEST);
    background_.use();
    glBindVertexArray(empty_vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
    glEnable(GL_DEPTH_TEST);
}

// The bones (when shown) and the muscles, lit and shadowed.
void Renderer::drawOpaque(const glm::mat4& view_proj, const glm::vec3& eye, const RenderOptions& opt) {
    useLit(mesh_, view_proj, eye, opt);
    if (opt.bones && !topo_->bones.empty()) {
        bones_.draw();
        for (const Textured& t : textured_) {
            bindMeshTexture(mesh_, topo_->bones[t.mesh]);
            t.gpu.draw();
        }
        mesh_.set("u_textured", 0);
        mesh_.set("u_alpha_cutoff", -1.0f);
    }
    // Push the surface back a little so wireframe and colour-group lines on it win the depth test.
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.0f, 1.0f);
    if (opt.selected_muscle >= 0 && size_t(opt.selected_muscle) < topo_->muscles.size()) {
        const MuscleDraw& md = topo_->muscles[size_t(opt.selected_muscle)];
        mesh_.set("u_sel_first", int(md.first));
        mesh_.set("u_sel_end", int(md.first + md.surface_count + md.branch_count));
    }
    muscles_.draw();
    mesh_.set("u_sel_first", 0);
    mesh_.set("u_sel_end", 0);
    glDisable(GL_POLYGON_OFFSET_FILL);
}

// The overlays' lines and points, blended over the scene.
void Renderer::drawOverlays(const glm::mat4& view_proj) {
    lines_.use();
    lines_.set("u_view_proj", view_proj);
    // The same size on screen on either path (the fast path's scene is scaled up).
    lines_.set("u_point_size", std::max(3.0f * path_.scale, float(target_.sceneHeight()) / 180.0f));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glEnable(GL_PROGRAM_POINT_SIZE);
    overlays_.surface_lines.draw(GL_LINES);
    // Internal structure, attachments and contacts lie inside or under the
    // surface: draw them without depth test (x-ray) so they are visible at all.
    glDisable(GL_DEPTH_TEST);
    overlays_.xray_lines.draw(GL_LINES);
    overlays_.xray_points.draw(GL_POINTS);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_BLEND);
}

void Renderer::render(const DrawFrame& f, const OrbitCamera& cam, const RenderOptions& opt, int fb_w, int fb_h) {
    ++stats_.frames;
    path_ = chooseRenderPath(opt.fast_render, software_, opt.msaa_samples);
    if (shadow_map_.size() != path_.shadow_size) shadow_map_.create(path_.shadow_size);
    target_.resize(fb_w, fb_h, path_.msaa_samples, path_.scale);
    const bool have = topo_ && f.positions.size() == topo_->particle_count;

    bounds_ = Bounds{};
    if (have) prepareGeometry(f, opt);

    const float aspect = float(fb_w) / float(std::max(fb_h, 1));
    const glm::mat4 view_proj = cam.projection(aspect) * cam.view();
    const glm::vec3 eye = cam.eye();

    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    if (have && opt.shadows) shadowPass(opt);

    target_.bindScene();
    drawBackground();
    if (!have) {
        target_.resolve();
        return;
    }
    shadow_map_.bindTexture(kShadowUnit);
    drawOpaque(view_proj, eye, opt);
    if (opt.ground) drawGround(view_proj, eye, opt.shadows);
    // Translucent meshes cast no shadow: a faint skin around the muscles
    // would otherwise shade every muscle inside it as if it were opaque.
    if (opt.skin && !translucent_.empty()) drawTranslucent(view_proj, eye, opt);
    drawOverlays(view_proj);
    target_.resolve();
}

}  // namespace engine::render

// Directional-light shadow map: a depth texture rendered from above the scene
// with an orthographic projection fitted to the scene's bounding sphere. The
// ground and the muscles sample it with a wide PCF kernel (soft shadows are
// the depth cue that tells a user how high a muscle hangs above the floor).
#pragma once

#include <glad/gl.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "engine/render/camera.h"

namespace engine::render {

class ShadowMap {
public:
    ShadowMap() = default;
    ~ShadowMap();
    ShadowMap(const ShadowMap&) = delete;
    ShadowMap& operator=(const ShadowMap&) = delete;

    bool create(int size);  // (re)creates the map at that edge length
    // Fits the light frustum to `scene` and binds the depth framebuffer.
    void begin(const Bounds& scene, const glm::vec3& light_dir);
    void end() const;
    void bindTexture(int unit) const;
    const glm::mat4& lightViewProj() const { return light_view_proj_; }
    int size() const { return size_; }

private:
    GLuint fbo_ = 0, depth_ = 0;
    int size_ = 0;
    glm::mat4 light_view_proj_{1.0f};
};

}  // namespace engine::render

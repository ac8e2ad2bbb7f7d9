// Off-screen targets: the scene is drawn into a multisampled framebuffer,
// resolved into a single-sample one (where the UI is drawn too), and that is
// what screenshots read and what gets blitted to the window. The scene
// framebuffer may be smaller than the output (the fast render path,
// engine/render/render_path.h): it is then single-sampled and scaled up with
// linear filtering when resolved. Reading our own
// FBO works the same for visible, hidden and Xvfb windows.
#pragma once

#include <cstdint>
#include <vector>

#include <glad/gl.h>

namespace engine::render {

class RenderTarget {
public:
    RenderTarget() = default;
    ~RenderTarget();
    RenderTarget(const RenderTarget&) = delete;
    RenderTarget& operator=(const RenderTarget&) = delete;

    // (Re)allocates when the size, sample count or scene scale changes.
    // `scene_scale` < 1 draws the scene at that fraction of the output size
    // (one sample per pixel: a multisampled blit cannot scale). Returns false
    // when the framebuffer is incomplete.
    bool resize(int width, int height, int samples, float scene_scale = 1.0f);
    void bindScene() const;     // the scene framebuffer (MSAA, or the scaled one)
    void resolve() const;       // scene → output
    void bindOutput() const;    // single-sample framebuffer (draw the UI here)
    void present(int window_fb_width, int window_fb_height) const;  // output → default framebuffer
    // RGBA8, top row first.
    std::vector<uint8_t> readOutput() const;

    int width() const { return w_; }
    int height() const { return h_; }
    int samples() const { return samples_; }
    int sceneWidth() const { return sw_; }
    int sceneHeight() const { return sh_; }

private:
    void release();
    int w_ = 0, h_ = 0, samples_ = 0, sw_ = 0, sh_ = 0;
    GLuint msaa_fbo_ = 0, msaa_color_ = 0, msaa_depth_ = 0;
    GLuint out_fbo_ = 0, out_color_ = 0, out_depth_ = 0;
};

}  // namespace engine::render

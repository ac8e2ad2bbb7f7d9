// Off-screen targets: the scene is drawn into a multisampled framebuffer,
// resolved into a single-sample one (where the UI is drawn too), and that is
// what screenshots read and what gets blitted to the window. Reading our own
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

    // (Re)allocates when the size or sample count changes. Returns false when
    // the framebuffer is incomplete.
    bool resize(int width, int height, int samples);
    void bindScene() const;     // the MSAA framebuffer
    void resolve() const;       // MSAA → output
    void bindOutput() const;    // single-sample framebuffer (draw the UI here)
    void present(int window_fb_width, int window_fb_height) const;  // output → default framebuffer
    // RGBA8, top row first.
    std::vector<uint8_t> readOutput() const;

    int width() const { return w_; }
    int height() const { return h_; }
    int samples() const { return samples_; }

private:
    void release();
    int w_ = 0, h_ = 0, samples_ = 0;
    GLuint msaa_fbo_ = 0, msaa_color_ = 0, msaa_depth_ = 0;
    GLuint out_fbo_ = 0, out_color_ = 0, out_depth_ = 0;
};

}  // namespace engine::render

#include "engine/render/render_target.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace engine::render {

RenderTarget::~RenderTarget() { release(); }

void RenderTarget::release() {
    GLuint fbos[2] = {msaa_fbo_, out_fbo_};
    GLuint rbos[4] = {msaa_color_, msaa_depth_, out_color_, out_depth_};
    if (msaa_fbo_ || out_fbo_) glDeleteFramebuffers(2, fbos);
    if (msaa_color_ || out_color_) glDeleteRenderbuffers(4, rbos);
    msaa_fbo_ = msaa_color_ = msaa_depth_ = out_fbo_ = out_color_ = out_depth_ = 0;
    w_ = h_ = samples_ = sw_ = sh_ = 0;
}

bool RenderTarget::resize(int width, int height, int samples, float scene_scale) {
    width = std::max(width, 1);
    height = std::max(height, 1);
    GLint max_samples = 1;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    samples = std::clamp(samples, 1, int(max_samples));
    scene_scale = std::clamp(scene_scale, 0.1f, 1.0f);
    const int sw = std::max(1, int(std::lround(float(width) * scene_scale)));
    const int sh = std::max(1, int(std::lround(float(height) * scene_scale)));
    if (sw != width || sh != height) samples = 1;
    if (width == w_ && height == h_ && samples == samples_ && sw == sw_ && sh == sh_) return true;
    release();
    w_ = width;
    h_ = height;
    samples_ = samples;
    sw_ = sw;
    sh_ = sh;

    glGenFramebuffers(1, &msaa_fbo_);
    glGenRenderbuffers(1, &msaa_color_);
    glGenRenderbuffers(1, &msaa_depth_);
    // One sample: plain storage (a multisample one of 1 sample may still
    // rasterise per sample, and could not be scaled by the resolve blit).
    const int stored = samples > 1 ? samples : 0;
    glBindRenderbuffer(GL_RENDERBUFFER, msaa_color_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, stored, GL_RGBA8, sw, sh);
    glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, stored, GL_DEPTH_COMPONENT24, sw, sh);
    glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msaa_color_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, msaa_depth_);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;

    glGenFramebuffers(1, &out_fbo_);
    glGenRenderbuffers(1, &out_color_);
    glGenRenderbuffers(1, &out_depth_);
    glBindRenderbuffer(GL_RENDERBUFFER, out_color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, out_depth_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, out_fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, out_color_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, out_depth_);
    ok = ok && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return ok;
}

void RenderTarget::bindScene() const {
    glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
    glViewport(0, 0, sw_, sh_);
}

void RenderTarget::resolve() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, out_fbo_);
    const bool scaled = sw_ != w_ || sh_ != h_;
    glBlitFramebuffer(0, 0, sw_, sh_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, scaled ? GL_LINEAR : GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void RenderTarget::bindOutput() const {
    glBindFramebuffer(GL_FRAMEBUFFER, out_fbo_);
    glViewport(0, 0, w_, h_);
}

void RenderTarget::present(int window_fb_width, int window_fb_height) const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, out_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glBlitFramebuffer(0, 0, w_, h_, 0, 0, window_fb_width, window_fb_height, GL_COLOR_BUFFER_BIT,
                      GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<uint8_t> RenderTarget::readOutput() const {
    std::vector<uint8_t> rows(size_t(w_) * size_t(h_) * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, out_fbo_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w_, h_, GL_RGBA, GL_UNSIGNED_BYTE, rows.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    // GL's origin is bottom-left; images are stored top row first.
    std::vector<uint8_t> out(rows.size());
    const size_t stride = size_t(w_) * 4;
    for (int y = 0; y < h_; ++y)
        std::copy_n(rows.begin() + std::ptrdiff_t(size_t(h_ - 1 - y) * stride), stride,
                    out.begin() + std::ptrdiff_t(size_t(y) * stride));
    return out;
}

}  // namespace engine::render

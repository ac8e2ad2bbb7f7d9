#include "engine/render/shadow_map.h"

#include <algorithm>

#include <glm/gtc/matrix_transform.hpp>

namespace engine::render {

ShadowMap::~ShadowMap() {
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
    if (depth_) glDeleteTextures(1, &depth_);
}

bool ShadowMap::create(int size) {
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
    if (depth_) glDeleteTextures(1, &depth_);
    fbo_ = depth_ = 0;
    size_ = size;
    glGenTextures(1, &depth_);
    glBindTexture(GL_TEXTURE_2D, depth_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, size, size, 0, GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    // Hardware depth comparison: each tap is already a 2×2 bilinear PCF.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glGenFramebuffers(1, &fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, depth_, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    return ok;
}

void ShadowMap::begin(const Bounds& scene, const glm::vec3& light_dir) {
    glm::vec3 c = scene.valid() ? scene.center() : glm::vec3(0.0f);
    float r = std::max(scene.radius(), 1e-3f);
    glm::vec3 l = glm::normalize(light_dir);
    glm::vec3 up = std::abs(l.y) > 0.99f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    glm::mat4 view = glm::lookAt(c + l * (2.0f * r), c, up);
    // A little wider than the sphere so the ground around it is covered too.
    float e = 1.6f * r;
    glm::mat4 proj = glm::ortho(-e, e, -e, e, 0.01f * r, 4.0f * r);
    light_view_proj_ = proj * view;
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(0, 0, size_, size_);
    glClear(GL_DEPTH_BUFFER_BIT);
}

void ShadowMap::end() const { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

void ShadowMap::bindTexture(int unit) const {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, depth_);
    glActiveTexture(GL_TEXTURE0);
}

}  // namespace engine::render

// Immediate-style batch of coloured lines and points for overlays (fibres,
// internal structure, colour groups, attachments, contacts). Filled on the CPU
// each frame, uploaded once, drawn with one call per primitive type.
#pragma once

#include <vector>

#include <glad/gl.h>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine::render {

struct LineVertex {
    glm::vec3 p;
    glm::vec4 c;
};

class LineBatch {
public:
    LineBatch() = default;
    ~LineBatch();
    LineBatch(const LineBatch&) = delete;
    LineBatch& operator=(const LineBatch&) = delete;

    void clear() {
        verts_.clear();
        dirty_ = true;
    }
    void line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& c) {
        verts_.push_back({a, c});
        verts_.push_back({b, c});
        dirty_ = true;
    }
    void point(const glm::vec3& a, const glm::vec4& c) {
        verts_.push_back({a, c});
        dirty_ = true;
    }
    bool empty() const { return verts_.empty(); }
    size_t size() const { return verts_.size(); }
    // Draws as GL_LINES or GL_POINTS (the caller binds the program),
    // uploading first only when the batch changed since the last upload.
    void draw(GLenum mode);

private:
    std::vector<LineVertex> verts_;
    GLuint vao_ = 0, vbo_ = 0;
    bool dirty_ = true;
};

}  // namespace engine::render

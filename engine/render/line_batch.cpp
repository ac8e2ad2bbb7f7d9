#include "engine/render/line_batch.h"

#include <cstddef>

namespace engine::render {

LineBatch::~LineBatch() {
    if (vbo_) glDeleteBuffers(1, &vbo_);
    if (vao_) glDeleteVertexArrays(1, &vao_);
}

void LineBatch::draw(GLenum mode) {
    if (verts_.empty()) return;
    if (!vao_) {
        glGenVertexArrays(1, &vao_);
        glGenBuffers(1, &vbo_);
        glBindVertexArray(vao_);
        glBindBuffer(GL_ARRAY_BUFFER, vbo_);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                              reinterpret_cast<void*>(offsetof(LineVertex, p)));
        glEnableVertexAttribArray(1);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                              reinterpret_cast<void*>(offsetof(LineVertex, c)));
    }
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    if (dirty_)
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(verts_.size() * sizeof(LineVertex)), verts_.data(),
                     GL_STREAM_DRAW);
    dirty_ = false;
    glDrawArrays(mode, 0, GLsizei(verts_.size()));
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

}  // namespace engine::render

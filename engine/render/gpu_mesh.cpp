#include "engine/render/gpu_mesh.h"

#include <utility>

namespace engine::render {

GpuMesh::~GpuMesh() { release(); }

GpuMesh::GpuMesh(GpuMesh&& o) noexcept
    : vao_(std::exchange(o.vao_, 0)), pos_(std::exchange(o.pos_, 0)), nrm_(std::exchange(o.nrm_, 0)),
      col_(std::exchange(o.col_, 0)), fib_(std::exchange(o.fib_, 0)), ebo_(std::exchange(o.ebo_, 0)),
      uv_(std::exchange(o.uv_, 0)), index_count_(std::exchange(o.index_count_, 0)) {}

GpuMesh& GpuMesh::operator=(GpuMesh&& o) noexcept {
    if (this != &o) {
        release();
        vao_ = std::exchange(o.vao_, 0);
        pos_ = std::exchange(o.pos_, 0);
        nrm_ = std::exchange(o.nrm_, 0);
        col_ = std::exchange(o.col_, 0);
        fib_ = std::exchange(o.fib_, 0);
        ebo_ = std::exchange(o.ebo_, 0);
        uv_ = std::exchange(o.uv_, 0);
        index_count_ = std::exchange(o.index_count_, 0);
    }
    return *this;
}

void GpuMesh::create() {
    if (vao_) return;
    glGenVertexArrays(1, &vao_);
    GLuint b[6];
    glGenBuffers(6, b);
    pos_ = b[0];
    nrm_ = b[1];
    col_ = b[2];
    ebo_ = b[3];
    fib_ = b[4];
    uv_ = b[5];
    glBindVertexArray(vao_);
    auto attrib = [](GLuint index, GLuint buffer) {
        glBindBuffer(GL_ARRAY_BUFFER, buffer);
        glEnableVertexAttribArray(index);
        glVertexAttribPointer(index, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), nullptr);
    };
    attrib(0, pos_);
    attrib(1, nrm_);
    attrib(2, col_);
    glBindBuffer(GL_ARRAY_BUFFER, fib_);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, sizeof(glm::vec4), nullptr);
    glDisableVertexAttribArray(3);
    glVertexAttrib4f(3, 0.0f, 0.0f, 0.0f, 0.0f);
    glBindBuffer(GL_ARRAY_BUFFER, uv_);
    glVertexAttribPointer(4, 2, GL_FLOAT, GL_FALSE, sizeof(glm::vec2), nullptr);
    glDisableVertexAttribArray(4);
    glVertexAttrib2f(4, 0.0f, 0.0f);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
    glBindVertexArray(0);
}

void GpuMesh::release() {
    if (!vao_) return;
    GLuint b[6] = {pos_, nrm_, col_, ebo_, fib_, uv_};
    glDeleteBuffers(6, b);
    glDeleteVertexArrays(1, &vao_);
    vao_ = pos_ = nrm_ = col_ = fib_ = ebo_ = uv_ = 0;
}

void GpuMesh::setIndices(std::span<const uint32_t> indices) {
    create();
    glBindVertexArray(vao_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(indices.size_bytes()), indices.data(), GL_STATIC_DRAW);
    glBindVertexArray(0);
    index_count_ = indices.size();
}

void GpuMesh::setVertices(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                          std::span<const glm::vec3> colors, std::span<const glm::vec4> fibers) {
    create();
    // Orphan-and-fill: the driver hands out fresh storage instead of stalling
    // on the previous frame's draw.
    auto upload = [](GLuint buffer, std::span<const glm::vec3> data) {
        glBindBuffer(GL_ARRAY_BUFFER, buffer);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size_bytes()), data.data(), GL_STREAM_DRAW);
    };
    upload(pos_, positions);
    upload(nrm_, normals);
    glBindVertexArray(vao_);
    if (colors.empty()) {
        glDisableVertexAttribArray(2);
        glVertexAttrib3f(2, 1.0f, 1.0f, 1.0f);
    } else {
        upload(col_, colors);
        glEnableVertexAttribArray(2);
    }
    if (fibers.empty()) {
        glDisableVertexAttribArray(3);
        glVertexAttrib4f(3, 0.0f, 0.0f, 0.0f, 0.0f);
    } else {
        glBindBuffer(GL_ARRAY_BUFFER, fib_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(fibers.size_bytes()), fibers.data(), GL_STREAM_DRAW);
        glEnableVertexAttribArray(3);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::setUVs(std::span<const glm::vec2> uvs) {
    create();
    glBindVertexArray(vao_);
    if (uvs.empty()) {
        glDisableVertexAttribArray(4);
        glVertexAttrib2f(4, 0.0f, 0.0f);
    } else {
        glBindBuffer(GL_ARRAY_BUFFER, uv_);
        glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(uvs.size_bytes()), uvs.data(), GL_STATIC_DRAW);
        glEnableVertexAttribArray(4);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GpuMesh::draw() const {
    if (!vao_ || index_count_ == 0) return;
    glBindVertexArray(vao_);
    glDrawElements(GL_TRIANGLES, GLsizei(index_count_), GL_UNSIGNED_INT, nullptr);
    glBindVertexArray(0);
}

}  // namespace engine::render

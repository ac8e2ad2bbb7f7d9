// A triangle mesh whose vertices change every frame (muscles, skinned bones):
// separate position / normal / colour streams re-uploaded each frame, and an
// index buffer uploaded only when the topology or the visible set changes.
#pragma once

#include <cstdint>
#include <span>

#include <glad/gl.h>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine::render {

class GpuMesh {
public:
    GpuMesh() = default;
    ~GpuMesh();
    GpuMesh(const GpuMesh&) = delete;
    GpuMesh& operator=(const GpuMesh&) = delete;
    GpuMesh(GpuMesh&& o) noexcept;
    GpuMesh& operator=(GpuMesh&& o) noexcept;

    void setIndices(std::span<const uint32_t> indices);
    // Colours may be empty (white). `fibers` (muscles: cos θ, sin θ around
    // the muscle, stripe count, activation glow) may be empty (no striation,
    // no glow).
    void setVertices(std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                     std::span<const glm::vec3> colors, std::span<const glm::vec4> fibers = {});
    // Texture coordinates (stream 4), uploaded once; without them the
    // stream reads (0, 0).
    void setUVs(std::span<const glm::vec2> uvs);
    void draw() const;
    size_t indexCount() const { return index_count_; }

private:
    void create();
    void release();
    GLuint vao_ = 0, pos_ = 0, nrm_ = 0, col_ = 0, fib_ = 0, ebo_ = 0, uv_ = 0;
    size_t index_count_ = 0;
};

}  // namespace engine::render

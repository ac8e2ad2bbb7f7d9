// GLSL programs loaded at run time from the shader directory, so shaders can
// be edited without rebuilding. The directory is $MSXPBD_SHADER_DIR when set,
// else the source tree's shaders/ (engine::sourceDirectory()).
#pragma once

#include <string>

#include <glad/gl.h>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace engine::render {

std::string shaderDirectory();

class Program {
public:
    Program() = default;
    ~Program();
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    Program(Program&& o) noexcept;
    Program& operator=(Program&& o) noexcept;

    // Compiles <dir>/<name>.vert and <dir>/<name>.frag; returns an error naming
    // the file and the compiler log (empty on success).
    std::string load(const std::string& dir, const std::string& name);
    void use() const { glUseProgram(id_); }
    GLuint id() const { return id_; }

    // Setters look the location up each call: a handful of uniforms per draw,
    // so a cache would cost more code than it saves.
    void set(const char* name, int v) const;
    void set(const char* name, float v) const;
    void set(const char* name, const glm::vec2& v) const;
    void set(const char* name, const glm::vec3& v) const;
    void set(const char* name, const glm::vec4& v) const;
    void set(const char* name, const glm::mat4& v) const;

private:
    GLuint id_ = 0;
};

}  // namespace engine::render

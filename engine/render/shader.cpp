#include "engine/render/shader.h"
#include "engine/build_info.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include <glm/gtc/type_ptr.hpp>

namespace engine::render {

std::string shaderDirectory() {
    if (const char* env = std::getenv("MSXPBD_SHADER_DIR"); env && *env) return env;
    return std::string(engine::sourceDirectory()) + "/shaders";
}

namespace {
bool readFile(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return false;
    std::ostringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}

std::string compile(GLenum type, const std::string& path, GLuint& shader) {
    std::string src;
    if (!readFile(path, src)) return path + ": cannot read shader source";
    shader = glCreateShader(type);
    const char* p = src.c_str();
    glShaderSource(shader, 1, &p, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok) return {};
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    shader = 0;
    return path + ": " + log;
}
}  // namespace

Program::~Program() {
    if (id_) glDeleteProgram(id_);
}

Program::Program(Program&& o) noexcept : id_(std::exchange(o.id_, 0)) {}

Program& Program::operator=(Program&& o) noexcept {
    if (this != &o) {
        if (id_) glDeleteProgram(id_);
        id_ = std::exchange(o.id_, 0);
    }
    return *this;
}

std::string Program::load(const std::string& dir, const std::string& name) {
    GLuint vs = 0, fs = 0;
    if (auto e = compile(GL_VERTEX_SHADER, dir + "/" + name + ".vert", vs); !e.empty()) return e;
    if (auto e = compile(GL_FRAGMENT_SHADER, dir + "/" + name + ".frag", fs); !e.empty()) {
        glDeleteShader(vs);
        return e;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = {};
        glGetProgramInfoLog(prog, sizeof log, nullptr, log);
        glDeleteProgram(prog);
        return dir + "/" + name + ".{vert,frag}: link failed: " + log;
    }
    if (id_) glDeleteProgram(id_);
    id_ = prog;
    return {};
}

void Program::set(const char* n, int v) const { glUniform1i(glGetUniformLocation(id_, n), v); }
void Program::set(const char* n, float v) const { glUniform1f(glGetUniformLocation(id_, n), v); }
void Program::set(const char* n, const glm::vec2& v) const {
    glUniform2fv(glGetUniformLocation(id_, n), 1, glm::value_ptr(v));
}
void Program::set(const char* n, const glm::vec3& v) const {
    glUniform3fv(glGetUniformLocation(id_, n), 1, glm::value_ptr(v));
}
void Program::set(const char* n, const glm::vec4& v) const {
    glUniform4fv(glGetUniformLocation(id_, n), 1, glm::value_ptr(v));
}
void Program::set(const char* n, const glm::mat4& v) const {
    glUniformMatrix4fv(glGetUniformLocation(id_, n), 1, GL_FALSE, glm::value_ptr(v));
}

}  // namespace engine::render

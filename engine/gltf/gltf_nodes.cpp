// Node transforms and their bounds: local TRS, rest world transforms, mesh
// vertices in the world.
#include "engine/gltf/gltf_nodes.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/gltf/gltf_accessors.h"
#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

namespace {

std::string fmtVec(const std::vector<double>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + fmt(v[i]);
    return s + "]";
}

}  // namespace

glm::mat4 nodeLocal(const tinygltf::Node& n, const std::string& where, Joint& j) {
    auto finite = [&](const std::vector<double>& v, const char* what) {
        for (double d : v)
            if (!finiteFloat(d)) fail(where + ": " + what + " " + fmtVec(v) + " is not finite (as 32-bit floats)");
    };
    finite(n.matrix, "matrix");
    finite(n.translation, "translation");
    finite(n.rotation, "rotation");
    finite(n.scale, "scale");
    auto checkTranslation = [&](glm::vec3 t, const char* what) {
        for (int i = 0; i < 3; ++i)
            if (!(std::fabs(t[i]) <= lim::kMaxCoordinate))
                fail(where + ": " + what + " " + fmt(t[i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) +
                     " m)");
    };
    auto checkScale = [&](glm::vec3 s, const std::string& what) {
        for (int i = 0; i < 3; ++i)
            if (!(std::fabs(s[i]) >= lim::kMinScale && std::fabs(s[i]) <= lim::kMaxScale))
                fail(where + ": " + what + " " + fmt(s[i]) + " makes the transform singular or extreme (|s| must be in [" +
                     fmt(lim::kMinScale) + ", " + fmt(lim::kMaxScale) + "])");
    };
    if (!n.matrix.empty()) {
        if (n.matrix.size() != 16) fail(where + ": matrix must have 16 numbers");
        glm::mat4 m;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) m[c][r] = float(n.matrix[size_t(c * 4 + r)]);
        const double det = glm::determinant(glm::dmat3(glm::mat3(m)));
        if (!(std::fabs(det) >= lim::kMinDeterminant))
            fail(where + ": matrix is singular (determinant " + fmt(det) + " of its 3x3 part)");
        checkTranslation(glm::vec3(m[3]), "matrix translation");
        j.translation = glm::vec3(m[3]);
        glm::vec3 s(glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2])));
        checkScale(s, "matrix column length");
        if (det < 0.0) s.x = -s.x;
        glm::mat3 r(glm::vec3(m[0]) / s.x, glm::vec3(m[1]) / s.y, glm::vec3(m[2]) / s.z);
        j.rotation = glm::normalize(glm::quat_cast(r));
        j.scale = s;
    } else {
        if (!n.translation.empty()) {
            if (n.translation.size() != 3) fail(where + ": translation must have 3 numbers");
            j.translation = glm::vec3(float(n.translation[0]), float(n.translation[1]), float(n.translation[2]));
            checkTranslation(j.translation, "translation");
        }
        if (!n.rotation.empty()) {
            if (n.rotation.size() != 4) fail(where + ": rotation must have 4 numbers");
            glm::quat q(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
            float l = glm::length(q);
            if (!(std::fabs(l - 1.0f) <= lim::kQuaternionTolerance))
                fail(where + ": rotation " + fmtVec(n.rotation) + " is not a unit quaternion (length " + fmt(l) + ")");
            j.rotation = q / l;
        }
        if (!n.scale.empty()) {
            if (n.scale.size() != 3) fail(where + ": scale must have 3 numbers");
            j.scale = glm::vec3(float(n.scale[0]), float(n.scale[1]), float(n.scale[2]));
            checkScale(j.scale, "scale");
        }
    }
    return composeTRS(j.translation, j.rotation, j.scale);
}

void checkGlobal(const glm::mat4& g, const std::string& where) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(g[c][r])) fail(where + ": world transform is not finite");
    for (int i = 0; i < 3; ++i)
        if (!(std::fabs(g[3][i]) <= lim::kMaxCoordinate))
            fail(where + ": world position " + fmt(g[3][i]) + " is out of range (|x| <= " + fmt(lim::kMaxCoordinate) +
                 " m)");
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (!(std::fabs(g[c][r]) <= lim::kMaxScale))
                fail(where + ": world transform scales by more than " + fmt(lim::kMaxScale));
    const double det = glm::determinant(glm::dmat3(glm::mat3(g)));
    if (!(std::fabs(det) >= lim::kMinDeterminant))
        fail(where + ": world transform is singular (determinant " + fmt(det) + ")");
}

void checkWorld(const std::vector<glm::vec3>& local, const glm::mat4& G, const std::string& where) {
    for (size_t i = 0; i < local.size(); ++i) {
        const glm::vec3 q = glm::vec3(G * glm::vec4(local[i], 1.0f));
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(q[k]) <= lim::kMaxCoordinate))
                fail(where + ": vertex " + std::to_string(i) + " lies at " + fmt(q[k]) +
                     " in the world, out of range (|x| <= " + fmt(lim::kMaxCoordinate) + " m)");
    }
}

}  // namespace engine::gltf_detail

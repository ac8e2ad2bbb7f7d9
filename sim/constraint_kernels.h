// XPBD constraint math as small pure functions (docs/model.md §3), separate from the
// bookkeeping that gathers inputs and scatters results, so every solver mode
// (Gauss-Seidel, Jacobi, colouring) shares the exact same arithmetic.
//
//   Δλ = (−s·C − α̃·λ) / (Σ w_i |∇_i C|² + α̃)
// XPBD: s = 1, α̃ = α/Δt². PBD: s = k' = 1 − (1 − k)^(1/n), α̃ = 0, λ unused.
#pragma once

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

namespace sim {

// Distance constraint C = |p_i − p_j| − rest. Returns Δλ and the unit
// gradient n (∇_i C = n, ∇_j C = −n); Δλ = 0 when degenerate.
inline float distanceDelta(glm::vec3 pi, glm::vec3 pj, float wi, float wj, float rest, float alpha_tilde,
                           float scale, float lambda, glm::vec3& n) {
    glm::vec3 d = pi - pj;
    float len2 = glm::dot(d, d);
    float W = wi + wj + alpha_tilde;
    if (!(W > 0.0f) || !(len2 > 1e-24f)) {
        n = glm::vec3(0.0f);
        return 0.0f;
    }
    float len = std::sqrt(len2);
    n = d / len;
    return (-scale * (len - rest) - alpha_tilde * lambda) / W;
}

// Unilateral constraint C ≥ 0 with gradient of unit length on one particle
// (planes, contacts). Projected only while violated or while it still holds
// a positive λ; λ never goes negative (it can push, not pull).
inline float unilateralDelta(float C, float w, float alpha_tilde, float scale, float lambda) {
    if (C >= 0.0f && lambda <= 0.0f) return 0.0f;
    float W = w + alpha_tilde;
    if (!(W > 0.0f)) return 0.0f;
    float dl = (-scale * C - alpha_tilde * lambda) / W;
    if (lambda + dl < 0.0f) dl = -lambda;
    return dl;
}

// Bilateral constraint C = 0 with gradient of unit length on one particle
// (sliding connections: the signed distance to a surface).
inline float bilateralDelta(float C, float w, float alpha_tilde, float scale, float lambda) {
    float W = w + alpha_tilde;
    if (!(W > 0.0f)) return 0.0f;
    return (-scale * C - alpha_tilde * lambda) / W;
}

// Equality constraint with a precomputed Σ w|∇C|² (volume).
inline float equalityDelta(float C, float sum_w_grad2, float alpha_tilde, float scale, float lambda) {
    float W = sum_w_grad2 + alpha_tilde;
    if (!(W > 0.0f)) return 0.0f;
    return (-scale * C - alpha_tilde * lambda) / W;
}

// Trust region of the volume constraint: on a flattened or tangled mesh
// Σw|∇C|² gets small and Δλ huge, and one projection would throw vertices
// metres away. No vertex moves more than `max_step` in one projection.
// `max_w_grad` is the largest w_i|∇_i C| over the muscle.
inline float limitVolumeStep(float dl, float max_w_grad, float max_step) {
    float move = std::abs(dl) * max_w_grad;
    return move > max_step ? dl * (max_step / move) : dl;
}
// Our choice: twice the muscle's mean edge length per projection.
constexpr float kVolumeStepPerEdge = 2.0f;

// Contribution of one triangle to the volume constraint (docs/model.md §3.2), with
// positions relative to a reference point o (volume and gradient are
// translation invariant for a closed mesh; the shift keeps float precision
// for muscles far from the world origin).
inline float triangleVolume6(glm::vec3 a, glm::vec3 b, glm::vec3 c) { return glm::dot(glm::cross(a, b), c); }

}  // namespace sim

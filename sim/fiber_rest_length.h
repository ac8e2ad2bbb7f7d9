// σ̂: the activated rest length of a fibre distance constraint (docs/model.md §3.1).
// Pure functions, shared by the world builder, the solver and the tests.
#pragma once

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "sim/params.h"

namespace sim {

// φ = abs((f̂1 + f̂2) / |f̂1 + f̂2|), component-wise; zero when the two fibre
// directions cancel (then the edge is not contracted).
inline glm::vec3 fiberPhi(glm::vec3 f1, glm::vec3 f2) {
    glm::vec3 s = f1 + f2;
    float len = glm::length(s);
    if (!(len > 1e-12f)) return glm::vec3(0.0f);
    return glm::abs(s / len);
}

// "paper" form (the seed formula, per world axis, not rotation invariant):
//   ρ = (r1 − r2) ⊘ (1 − φ a0),  σ̂ = |ρ ∘ (1 − φ a)|
inline float paperRestLength(glm::vec3 rest_edge, glm::vec3 phi, float a0, float a) {
    glm::vec3 rho = rest_edge / (glm::vec3(1.0f) - phi * a0);
    return glm::length(rho * (glm::vec3(1.0f) - phi * a));
}

// "projected" form (our choice, rotation invariant): the component of the
// relaxed rest edge along the unit fibre direction f̂ is scaled by (1 − a):
//   ρ = e⊥ + e∥/(1 − a0),  σ̂ = |ρ − a (ρ·f̂) f̂|
// so an edge aligned with the fibres has length (1 − a)/(1 − a0)·|e| at any
// orientation, and an edge across them keeps its length.
inline float projectedRestLength(glm::vec3 rest_edge, glm::vec3 fiber_dir, float a0, float a) {
    float along = glm::dot(rest_edge, fiber_dir);
    glm::vec3 perp = rest_edge - along * fiber_dir;
    float rho_along = along / (1.0f - a0);
    return std::sqrt(glm::dot(perp, perp) + (1.0f - a) * (1.0f - a) * rho_along * rho_along);
}

// Averaged fibre direction of an edge for the projected form: the normalised
// sum, with the second direction flipped onto the first's hemisphere.
inline glm::vec3 edgeFiberDirection(glm::vec3 f1, glm::vec3 f2) {
    if (glm::dot(f1, f2) < 0.0f) f2 = -f2;
    glm::vec3 s = f1 + f2;
    float len = glm::length(s);
    return len > 1e-12f ? s / len : glm::vec3(0.0f);
}

inline float fiberRestLength(FiberForm form, glm::vec3 rest_edge, glm::vec3 phi,
                             glm::vec3 edge_fiber, float a0, float a) {
    return form == FiberForm::Paper ? paperRestLength(rest_edge, phi, a0, a)
                                    : projectedRestLength(rest_edge, edge_fiber, a0, a);
}

}  // namespace sim

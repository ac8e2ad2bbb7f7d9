// The Gauss-Seidel projection of one constraint of each family: read the
// latest positions, apply the correction, update λ. Shared by the sequential
// loops (sim/projection_gs.cpp) and the parallel passes
// (sim/parallel_passes.cpp), which differ only in how they iterate.
#pragma once

#include <glm/geometric.hpp>

#include "sim/constraint_kernels.h"
#include "sim/geometry.h"
#include "sim/solver.h"
#include "sim/world.h"

namespace sim::project {

inline void distance(World& W, size_t k) {
    DistanceSet& D = W.distances;
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    const DistanceConstraint& c = D.c[k];
    glm::vec3 n;
    float dl = distanceDelta(p[c.i], p[c.j], w[c.i], w[c.j], c.rest, c.alpha_tilde, c.scale, D.lambda[k], n);
    D.lambda[k] += dl;
    p[c.i] += (w[c.i] * dl) * n;
    p[c.j] -= (w[c.j] * dl) * n;
}

// Sliding connection k: the target point is one-sided (w = 0), only the
// muscle vertex moves.
inline void sliding(World& W, size_t k, float alpha_tilde, float scale) {
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    const SlidingConnection& c = W.sliding[k];
    float dl = bilateralDelta(glm::dot(p[c.particle] - c.q, c.n) - c.d0, w[c.particle], alpha_tilde, scale,
                              W.sliding_lambda[k]);
    W.sliding_lambda[k] += dl;
    p[c.particle] += (w[c.particle] * dl) * c.n;
}

// Plane `pl` on particle i (C = (p − o)·n − r ≥ 0).
inline void plane(World& W, size_t pl, size_t i, float alpha_tilde, float scale, float r) {
    auto& p = W.particles.p;
    const float wi = W.particles.w[i];
    if (wi == 0.0f) return;
    const Plane& plane = W.planes[pl];
    float& lambda = W.plane_lambda[pl * p.size() + i];
    float dl = unilateralDelta(glm::dot(p[i] - plane.origin, plane.normal) - r, wi, alpha_tilde, scale, lambda);
    if (dl == 0.0f) return;
    lambda += dl;
    p[i] += (wi * dl) * plane.normal;
}

// The fascia envelope on particle i (docs/model.md §3.8): held at least its
// margin inside, C = (q − p)·n − margin ≥ 0, against the plane placed for the
// substep (sim/envelope.h). Only the muscle's vertex moves.
inline void fascia(World& W, size_t i, float alpha_tilde, float scale) {
    Envelope& E = W.envelope;
    // Not bound, or no plane this substep (placeEnvelope: n = 0).
    if (E.tri[i] < 0 || (E.n[i].x == 0.0f && E.n[i].y == 0.0f && E.n[i].z == 0.0f)) return;
    auto& p = W.particles.p;
    const float wi = W.particles.w[i];
    float dl = unilateralDelta(glm::dot(E.q[i] - p[i], E.n[i]) - E.margin[i], wi, alpha_tilde, scale, E.lambda[i]);
    if (dl == 0.0f) return;
    E.lambda[i] += dl;
    p[i] -= (wi * dl) * E.n[i];
}

// A capsule contact whose vertex lies clearly outside the capsule's reach
// (its radius plus r, plus kCapsuleSkipMargin) and that holds no λ: the
// projection below would return without a change (C > 0, λ ≤ 0), so its
// exact closest point, normal and square root need not be computed — the
// same bits, less work. Most contacts of a frame are such (found within the
// band, not touching).
inline bool capsuleClear(const World& W, const Contact& c, glm::vec3 x, float r) {
    const Body& b = W.bodies[size_t(c.capsule_body)];
    return b.capsuleAxisFartherThan(x, b.capsule_radius + r + kCapsuleSkipMargin);
}

// Contact k (C = (p − q)·n − r ≥ 0).
inline void contact(World& W, size_t k, float alpha_tilde, float scale, float r) {
    auto& p = W.particles.p;
    const Contact& c = W.contacts[k];
    if (c.capsule_body >= 0 && W.contact_lambda[k] <= 0.0f && capsuleClear(W, c, p[c.particle], r)) return;
    const float wi = W.particles.w[c.particle];
    const ContactPlane s = contactPlane(W, c, p[c.particle]);
    float dl = unilateralDelta(glm::dot(p[c.particle] - s.q, s.n) - r, wi, alpha_tilde, scale, W.contact_lambda[k]);
    if (dl == 0.0f) return;
    W.contact_lambda[k] += dl;
    p[c.particle] += (wi * dl) * s.n;
}

// Contact k with its family's coefficients: against a bone (Contact) or
// against another muscle (Tissue).
inline void contact(World& W, size_t k, const FamilyCoefficients& coef, float r) {
    const int f = fi(W.contacts[k].tissue ? Family::Tissue : Family::Contact);
    contact(W, k, coef.alpha_tilde[f], coef.scale[f], r);
}

}  // namespace sim::project

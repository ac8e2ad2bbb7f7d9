// Gauss-Seidel projection of each constraint family: every constraint reads
// the latest positions and writes its correction at once (SPEC §5, SST).
#include <algorithm>
#include <cmath>

#include "sim/constraint_kernels.h"
#include "sim/solver.h"

namespace sim::gs {

namespace {
inline bool report(IterationContext& ctx, Family f, size_t index, uint32_t particle, glm::vec3 value) {
    if (!ctx.check || sanePosition(value)) return false;
    *ctx.check = {f, false, int64_t(index), particle};
    return true;
}
inline int fi(Family f) { return static_cast<int>(f); }
}  // namespace

void distances(IterationContext& ctx, size_t begin, size_t end, Family family) {
    ScopedPhase timer(ctx.timers, family == Family::Fiber ? Phase::Fiber : Phase::Structure);
    auto& P = ctx.world.particles;
    auto& D = ctx.world.distances;
    glm::vec3* p = P.p.data();
    const float* w = P.w.data();
    for (size_t k = begin; k < end; ++k) {
        const DistanceConstraint& c = D.c[k];
        glm::vec3 n;
        float dl = distanceDelta(p[c.i], p[c.j], w[c.i], w[c.j], c.rest, c.alpha_tilde, c.scale, D.lambda[k], n);
        D.lambda[k] += dl;
        p[c.i] += (w[c.i] * dl) * n;
        p[c.j] -= (w[c.j] * dl) * n;
        if (ctx.check && (report(ctx, family, k, c.i, p[c.i]) || report(ctx, family, k, c.j, p[c.j]))) return;
    }
}

void volume(IterationContext& ctx, size_t vi) {
    World& W = ctx.world;
    VolumeConstraint& vc = W.volumes[vi];
    const Muscle& m = W.muscles[vc.muscle];
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    auto& grad = ctx.volume_grad;
    const glm::vec3 o = p[m.first];
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) grad[i] = glm::vec3(0.0f);
    float C = -vc.target;
    for (uint32_t k = m.tri_begin; k < m.tri_begin + m.tri_count; ++k) {
        const glm::uvec3 t = W.triangles[k];
        glm::vec3 a = p[t.x] - o, b = p[t.y] - o, c = p[t.z] - o;
        C += triangleVolume6(a, b, c);
        grad[t.x] += glm::cross(b, c);
        grad[t.y] += glm::cross(c, a);
        grad[t.z] += glm::cross(a, b);
    }
    float sum = 0.0f, max_w_grad = 0.0f;
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
        sum += w[i] * glm::dot(grad[i], grad[i]);
        max_w_grad = std::max(max_w_grad, w[i] * glm::length(grad[i]));
    }
    float dl = equalityDelta(C, sum, vc.alpha_tilde, vc.scale, W.volume_lambda[vi]);
    dl = limitVolumeStep(dl, max_w_grad, kVolumeStepPerEdge * m.mean_edge);
    W.volume_lambda[vi] += dl;
    for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
        p[i] += (w[i] * dl) * grad[i];
        if (report(ctx, Family::Volume, vi, i, p[i])) return;
    }
}

void volumes(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Volume);
    for (size_t v = 0; v < ctx.world.volumes.size(); ++v) {
        volume(ctx, v);
        if (ctx.check && ctx.check->found()) return;
    }
}

void planes(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Plane);
    World& W = ctx.world;
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    const float at = ctx.coef.alpha_tilde[fi(Family::Plane)], s = ctx.coef.scale[fi(Family::Plane)];
    const float r = ctx.params.contact_radius;
    const size_t n = p.size();
    for (size_t pl = 0; pl < W.planes.size(); ++pl) {
        const Plane& plane = W.planes[pl];
        float* lambda = &W.plane_lambda[pl * n];
        for (size_t i = 0; i < n; ++i) {
            if (w[i] == 0.0f) continue;
            float C = glm::dot(p[i] - plane.origin, plane.normal) - r;
            float dl = unilateralDelta(C, w[i], at, s, lambda[i]);
            if (dl == 0.0f) continue;
            lambda[i] += dl;
            p[i] += (w[i] * dl) * plane.normal;
            if (report(ctx, Family::Plane, pl * n + i, uint32_t(i), p[i])) return;
        }
    }
}

void contacts(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Contact);
    World& W = ctx.world;
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    const float at = ctx.coef.alpha_tilde[fi(Family::Contact)], s = ctx.coef.scale[fi(Family::Contact)];
    const float r = ctx.params.contact_radius;
    for (size_t k = 0; k < W.contacts.size(); ++k) {
        const Contact& c = W.contacts[k];
        float C = glm::dot(p[c.particle] - c.q, c.n) - r;
        float dl = unilateralDelta(C, w[c.particle], at, s, W.contact_lambda[k]);
        if (dl == 0.0f) continue;
        W.contact_lambda[k] += dl;
        p[c.particle] += (w[c.particle] * dl) * c.n;
        if (report(ctx, Family::Contact, k, c.particle, p[c.particle])) return;
    }
}

void sliding(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Sliding);
    World& W = ctx.world;
    auto& p = W.particles.p;
    const auto& w = W.particles.w;
    const float at = ctx.coef.alpha_tilde[fi(Family::Sliding)], s = ctx.coef.scale[fi(Family::Sliding)];
    for (size_t k = 0; k < W.sliding.size(); ++k) {
        const SlidingConnection& c = W.sliding[k];
        glm::vec3 n;
        // The target point is one-sided (w = 0): only the muscle vertex moves.
        float dl = distanceDelta(p[c.particle], c.q, w[c.particle], 0.0f, c.d0, at, s, W.sliding_lambda[k], n);
        W.sliding_lambda[k] += dl;
        p[c.particle] += (w[c.particle] * dl) * n;
        if (report(ctx, Family::Sliding, k, c.particle, p[c.particle])) return;
    }
}

}  // namespace sim::gs

// Gauss-Seidel projection of each constraint family: every constraint reads
// the latest positions and writes its correction at once (docs/model.md §6, SST).
#include <algorithm>
#include <cmath>

#include "sim/constraint_kernels.h"
#include "sim/projection_items.h"
#include "sim/solver.h"

namespace sim::gs {

namespace {
inline bool report(IterationContext& ctx, Family f, size_t index, uint32_t particle, glm::vec3 value) {
    if (!ctx.check || sanePosition(value)) return false;
    *ctx.check = {f, false, int64_t(index), particle};
    return true;
}

// The distance constraints index(0) .. index(n − 1), in that order; with a
// check, stops at the first that produces a non-finite position.
template <typename Index>
void sweep(IterationContext& ctx, size_t n, Family family, Index index) {
    ScopedPhase timer(ctx.timers, family == Family::Fiber ? Phase::Fiber : Phase::Structure);
    World& W = ctx.world;
    for (size_t e = 0; e < n; ++e) {
        const size_t k = index(e);
        project::distance(W, k);
        if (ctx.check) {
            const DistanceConstraint& c = W.distances.c[k];
            if (report(ctx, family, k, c.i, W.particles.p[c.i]) || report(ctx, family, k, c.j, W.particles.p[c.j])) return;
        }
    }
}
}  // namespace

void distances(IterationContext& ctx, size_t begin, size_t end, Family family) {
    sweep(ctx, end - begin, family, [begin](size_t e) { return begin + e; });
}

void distancesInOrder(IterationContext& ctx, const uint32_t* order, size_t n, Family family) {
    sweep(ctx, n, family, [order](size_t e) { return size_t(order[e]); });
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
    const float at = ctx.coef.alpha_tilde[fi(Family::Plane)], s = ctx.coef.scale[fi(Family::Plane)];
    const size_t n = W.particles.size();
    for (size_t pl = 0; pl < W.planes.size(); ++pl)
        for (size_t i = 0; i < n; ++i) {
            project::plane(W, pl, i, at, s, ctx.params.contact_radius);
            if (report(ctx, Family::Plane, pl * n + i, uint32_t(i), W.particles.p[i])) return;
        }
}

void contacts(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Contact);
    World& W = ctx.world;
    // The envelope first (each particle's before its contacts: a particle's
    // constraints here move only it, so this is the per-particle order).
    if (envelopeOn(ctx)) {
        const float at = ctx.coef.alpha_tilde[fi(Family::Fascia)], s = ctx.coef.scale[fi(Family::Fascia)];
        for (size_t i = 0; i < W.particles.size(); ++i) {
            project::fascia(W, i, at, s);
            if (report(ctx, Family::Fascia, i, uint32_t(i), W.particles.p[i])) return;
        }
    }
    for (size_t k = 0; k < W.contacts.size(); ++k) {
        project::contact(W, k, ctx.coef, ctx.params.contact_radius);
        const uint32_t i = W.contacts[k].particle;
        if (report(ctx, Family::Contact, k, i, W.particles.p[i])) return;
    }
}

void sliding(IterationContext& ctx) {
    ScopedPhase timer(ctx.timers, Phase::Sliding);
    World& W = ctx.world;
    const float at = ctx.coef.alpha_tilde[fi(Family::Sliding)], s = ctx.coef.scale[fi(Family::Sliding)];
    for (size_t k = 0; k < W.sliding.size(); ++k) {
        project::sliding(W, k, at, s);
        const uint32_t i = W.sliding[k].particle;
        if (report(ctx, Family::Sliding, k, i, W.particles.p[i])) return;
    }
}

}  // namespace sim::gs

#include "sim/parallel_passes.h"

#include <algorithm>
#include <numeric>

#include <omp.h>

#include "sim/constraint_coloring.h"
#include "sim/constraint_kernels.h"
#include "sim/projection_items.h"

namespace sim {

namespace {
// The volume's reduction chunks have a fixed size, independent of the
// thread count, so the summation order (and the bits) never depend on it
// (the same chunks as when they were the volume pass's parallel work units).
constexpr uint32_t kVolumeChunk = 256;
}  // namespace

MasterPhase::MasterPhase(PhaseTimers& t, Phase p) : t_(t), p_(p), master_(omp_get_thread_num() == 0) {
    if (master_) start_ = std::chrono::steady_clock::now();
}

MasterPhase::~MasterPhase() {
    if (!master_) return;
    auto d = std::chrono::steady_clock::now() - start_;
    t_.current_ms[static_cast<int>(p_)] += std::chrono::duration<double, std::milli>(d).count();
}

void parallelPlanes(IterationContext& ctx) {
    MasterPhase timer(ctx.timers, Phase::Plane);
    World& W = ctx.world;
    const float at = ctx.coef.alpha_tilde[fi(Family::Plane)], s = ctx.coef.scale[fi(Family::Plane)];
    const int64_t n = W.planes.empty() ? 0 : int64_t(W.particles.size());
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; ++i)
        for (size_t pl = 0; pl < W.planes.size(); ++pl) project::plane(W, pl, size_t(i), at, s, ctx.params.contact_radius);
}

void parallelContacts(IterationContext& ctx) {
    MasterPhase timer(ctx.timers, Phase::Contact);
    World& W = ctx.world;
    if (envelopeOn(ctx)) {
        const float at = ctx.coef.alpha_tilde[fi(Family::Fascia)], s = ctx.coef.scale[fi(Family::Fascia)];
        const int64_t n = int64_t(W.particles.size());
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; ++i) project::fascia(W, size_t(i), at, s);
    }
    const int64_t runs = W.contact_runs.empty() ? 0 : int64_t(W.contact_runs.size()) - 1;
    // A particle's contacts are consecutive (one run): runs are independent.
#pragma omp for schedule(static)
    for (int64_t run = 0; run < runs; ++run)
        for (uint32_t k = W.contact_runs[size_t(run)]; k < W.contact_runs[size_t(run) + 1]; ++k)
            project::contact(W, k, ctx.coef, ctx.params.contact_radius);
}

// ---------------------------------------------------------------------------

void ParallelVolume::rebuild(const World& w) {
    surface_.clear();
    chunk_begin_.clear();
    vt_offset_.assign(1, 0);
    vt_corners_.clear();
    vertex_chunks_.clear();
    // Vertex → the other two corners of each of its triangles (in winding
    // order), per muscle, in triangle order.
    for (uint32_t mi = 0; mi < w.muscles.size(); ++mi) {
        const Muscle& m = w.muscles[mi];
        std::vector<uint32_t> count(m.surface_count + 1, 0);
        for (uint32_t t = m.tri_begin; t < m.tri_begin + m.tri_count; ++t)
            for (int c = 0; c < 3; ++c) ++count[w.triangles[t][c] - m.first + 1];
        for (uint32_t v = 0; v < m.surface_count; ++v) count[v + 1] += count[v];
        const uint32_t base = uint32_t(vt_corners_.size());
        const uint32_t first_entry = uint32_t(surface_.size());
        vt_corners_.resize(base + count[m.surface_count]);
        std::vector<uint32_t> cur(count.begin(), count.end() - 1);
        for (uint32_t t = m.tri_begin; t < m.tri_begin + m.tri_count; ++t) {
            const glm::uvec3 tri = w.triangles[t];
            for (uint32_t c = 0; c < 3; ++c)
                vt_corners_[base + cur[tri[c] - m.first]++] = {tri[(c + 1) % 3], tri[(c + 2) % 3]};
        }
        for (uint32_t v = 0; v < m.surface_count; ++v) {
            surface_.push_back(m.first + v);
            vt_offset_.push_back(base + count[v + 1]);
        }
        chunk_begin_.push_back(uint32_t(vertex_chunks_.size()));
        for (uint32_t b = first_entry; b < first_entry + m.surface_count; b += kVolumeChunk)
            vertex_chunks_.push_back({mi, b, std::min(b + kVolumeChunk, first_entry + m.surface_count)});
    }
    chunk_begin_.push_back(uint32_t(vertex_chunks_.size()));
    vertex_partial_.assign(vertex_chunks_.size(), 0.0f);
    vertex_volume_.assign(vertex_chunks_.size(), 0.0f);
    vertex_max_.assign(vertex_chunks_.size(), 0.0f);
    dlambda_.assign(w.muscles.size(), 0.0f);
    volume_of_.assign(w.muscles.size(), -1);
    for (size_t v = 0; v < w.volumes.size(); ++v) volume_of_[w.volumes[v].muscle] = int32_t(v);
}

// Chunk k of one muscle's vertices (fixed chunks: the same sums for any
// thread count): each vertex's gradient, Σ over its triangles of the cross
// product of the other two corners (in winding order), relative to the
// muscle's first vertex o; and the chunk's partial sums of w|∇C|², of the
// largest w|∇C| and of the volume. Each triangle's 6V = (a−o)·((b−o)×(c−o))
// appears once at each of its corners in (x_i − o)·∇_i, so
// Σ_i (x_i − o)·∇_i = 3·6V: the volume comes with the gradient, without a
// pass over the triangles.
void ParallelVolume::chunkPartials(IterationContext& ctx, size_t k) {
    const World& W = ctx.world;
    const auto& p = W.particles.p;
    const auto& w = W.particles.w;
    auto& grad = ctx.volume_grad;
    const Chunk& ch = vertex_chunks_[k];
    const glm::vec3 o = p[W.muscles[ch.muscle].first];
    float s = 0.0f, mx = 0.0f, v = 0.0f;
    for (uint32_t e = ch.begin; e < ch.end; ++e) {
        const uint32_t i = surface_[e];
        glm::vec3 g(0.0f);
        for (uint32_t c = vt_offset_[e]; c < vt_offset_[e + 1]; ++c)
            g += glm::cross(p[vt_corners_[c].x] - o, p[vt_corners_[c].y] - o);
        grad[i] = g;
        const float gg = glm::dot(g, g);
        s += w[i] * gg;
        mx = std::max(mx, w[i] * std::sqrt(gg));
        v += glm::dot(p[i] - o, g);
    }
    vertex_partial_[k] = s;
    vertex_max_[k] = mx;
    vertex_volume_[k] = v;
}

// One muscle's Δλ from its chunks' partials, added in chunk order.
float ParallelVolume::muscleDelta(IterationContext& ctx, uint32_t muscle) {
    World& W = ctx.world;
    const int32_t vi = volume_of_[muscle];
    if (vi < 0) return 0.0f;
    VolumeConstraint& vol = W.volumes[size_t(vi)];
    float volume3 = 0.0f, sum = 0.0f, max_w_grad = 0.0f;
    for (uint32_t k = chunk_begin_[muscle]; k < chunk_begin_[muscle + 1]; ++k) {
        volume3 += vertex_volume_[k];
        sum += vertex_partial_[k];
        max_w_grad = std::max(max_w_grad, vertex_max_[k]);
    }
    const float C = volume3 / 3.0f - vol.target;
    float dl = equalityDelta(C, sum, vol.alpha_tilde, vol.scale, W.volume_lambda[size_t(vi)]);
    dl = limitVolumeStep(dl, max_w_grad, kVolumeStepPerEdge * W.muscles[muscle].mean_edge);
    W.volume_lambda[size_t(vi)] += dl;
    return dl;
}

void ParallelVolume::applyChunk(IterationContext& ctx, size_t k, float dl) const {
    auto& p = ctx.world.particles.p;
    const auto& w = ctx.world.particles.w;
    const auto& grad = ctx.volume_grad;
    for (uint32_t e = vertex_chunks_[k].begin; e < vertex_chunks_[k].end; ++e) {
        const uint32_t i = surface_[e];
        p[i] += (w[i] * dl) * grad[i];
    }
}

void ParallelVolume::project(IterationContext& ctx) {
    MasterPhase timer(ctx.timers, Phase::Volume);
    const int64_t nvc = int64_t(vertex_chunks_.size());
#pragma omp for schedule(static)
    for (int64_t k = 0; k < nvc; ++k) chunkPartials(ctx, size_t(k));
#pragma omp single
    for (uint32_t m = 0; m < uint32_t(dlambda_.size()); ++m) dlambda_[m] = muscleDelta(ctx, m);
#pragma omp for schedule(static)
    for (int64_t k = 0; k < nvc; ++k) applyChunk(ctx, size_t(k), dlambda_[vertex_chunks_[size_t(k)].muscle]);
}

void ParallelVolume::projectMuscle(IterationContext& ctx, uint32_t muscle) {
    if (volume_of_[muscle] < 0) return;
    for (uint32_t k = chunk_begin_[muscle]; k < chunk_begin_[muscle + 1]; ++k) chunkPartials(ctx, k);
    const float dl = muscleDelta(ctx, muscle);
    for (uint32_t k = chunk_begin_[muscle]; k < chunk_begin_[muscle + 1]; ++k) applyChunk(ctx, k, dl);
}

// ---------------------------------------------------------------------------

void JacobiPass::rebuild(const World& w, std::vector<uint32_t> items) {
    const size_t nm = w.muscles.size();
    std::stable_sort(items.begin(), items.end(),
                     [&](uint32_t a, uint32_t b) { return muscleOfItem(w, a) < muscleOfItem(w, b); });
    items_ = std::move(items);
    item_begin_.assign(nm + 1, 0);
    for (uint32_t item : items_) ++item_begin_[muscleOfItem(w, item) + 1];
    for (size_t m = 0; m < nm; ++m) item_begin_[m + 1] += item_begin_[m];
    slots_.assign(items_.size() * 2, glm::vec3(0.0f));
    const size_t np = w.particles.size();
    std::vector<uint32_t> count(np + 1, 0);
    auto forSlots = [&](auto&& f) {
        for (uint32_t q = 0; q < items_.size(); ++q) {
            const uint32_t item = items_[q];
            if (item & kSlidingItem) {
                f(w.sliding[item & ~kSlidingItem].particle, 2 * q);
            } else {
                f(w.distances.c[item].i, 2 * q);
                f(w.distances.c[item].j, 2 * q + 1);
            }
        }
    };
    forSlots([&](uint32_t p, uint32_t) { ++count[p + 1]; });
    // n_i: the averaged constraints touching particle i.
    auto nOf = [&](uint32_t p) { return w.particles.w[p] > 0.0f ? std::max(1u, count[p + 1]) : 1u; };
    item_inv_n_.resize(items_.size());
    for (uint32_t q = 0; q < items_.size(); ++q) {
        const uint32_t item = items_[q];
        uint32_t m = (item & kSlidingItem) ? nOf(w.sliding[item & ~kSlidingItem].particle)
                                           : std::max(nOf(w.distances.c[item].i), nOf(w.distances.c[item].j));
        item_inv_n_[q] = 1.0f / float(m);
    }
    for (size_t p = 0; p < np; ++p) count[p + 1] += count[p];
    std::vector<uint32_t> all_slots(count[np]);
    {
        std::vector<uint32_t> cur(count.begin(), count.end() - 1);
        forSlots([&](uint32_t p, uint32_t slot) { all_slots[cur[p]++] = slot; });
    }
    particles_.clear();
    offset_.assign(1, 0);
    slot_index_.clear();
    particle_begin_.assign(nm + 1, 0);
    for (uint32_t p = 0; p < np; ++p) {
        if (count[p + 1] == count[p] || w.particles.w[p] == 0.0f) continue;
        particles_.push_back(p);
        ++particle_begin_[w.particles.muscle[p] + 1];
        slot_index_.insert(slot_index_.end(), all_slots.begin() + count[p], all_slots.begin() + count[p + 1]);
        offset_.push_back(uint32_t(slot_index_.size()));
    }
    // A muscle's particles are one contiguous index range, so its entries
    // of particles_ are too.
    for (size_t m = 0; m < nm; ++m) particle_begin_[m + 1] += particle_begin_[m];
}

// Item q's correction from the current positions into its slots.
inline void JacobiPass::computeItem(IterationContext& ctx, uint32_t q) {
    World& W = ctx.world;
    const auto& p = W.particles.p;
    const auto& w = W.particles.w;
    DistanceSet& D = W.distances;
    const uint32_t item = items_[q];
    const float relax = ctx.params.omega * item_inv_n_[q];
    if (item & kSlidingItem) {
        const float sat = ctx.coef.alpha_tilde[fi(Family::Sliding)], ss = ctx.coef.scale[fi(Family::Sliding)];
        const uint32_t k = item & ~kSlidingItem;
        const SlidingConnection& c = W.sliding[k];
        float dl = relax * bilateralDelta(glm::dot(p[c.particle] - c.q, c.n) - c.d0, w[c.particle], sat, ss,
                                          W.sliding_lambda[k]);
        W.sliding_lambda[k] += dl;
        slots_[2 * size_t(q)] = (w[c.particle] * dl) * c.n;
    } else {
        const DistanceConstraint& c = D.c[item];
        glm::vec3 dir;
        float dl = relax * distanceDelta(p[c.i], p[c.j], w[c.i], w[c.j], c.rest, c.alpha_tilde, c.scale,
                                         D.lambda[item], dir);
        D.lambda[item] += dl;
        slots_[2 * size_t(q)] = (w[c.i] * dl) * dir;
        slots_[2 * size_t(q) + 1] = (-w[c.j] * dl) * dir;
    }
}

// Entry e of particles_: its slots added in CSR order.
inline void JacobiPass::gatherEntry(IterationContext& ctx, uint32_t e) const {
    glm::vec3 sum(0.0f);
    for (uint32_t k = offset_[e]; k < offset_[e + 1]; ++k) sum += slots_[slot_index_[k]];
    ctx.world.particles.p[particles_[e]] += sum;
}

void JacobiPass::compute(IterationContext& ctx) {
    MasterPhase timer(ctx.timers, Phase::Distance);
    const int64_t n = int64_t(items_.size());
#pragma omp for schedule(static)
    for (int64_t q = 0; q < n; ++q) computeItem(ctx, uint32_t(q));
}

void JacobiPass::gather(IterationContext& ctx) {
    MasterPhase timer(ctx.timers, Phase::Distance);  // the averaging is part of the distance phase
    const int64_t n = int64_t(particles_.size());
#pragma omp for schedule(static)
    for (int64_t e = 0; e < n; ++e) gatherEntry(ctx, uint32_t(e));
}

void JacobiPass::run(IterationContext& ctx, uint32_t muscle) {
    for (uint32_t q = item_begin_[muscle]; q < item_begin_[muscle + 1]; ++q) computeItem(ctx, q);
    for (uint32_t e = particle_begin_[muscle]; e < particle_begin_[muscle + 1]; ++e) gatherEntry(ctx, e);
}

void MuscleIteration::rebuild(const World& w) {
    // Each muscle's items: its distance constraints and sliding connections.
    std::vector<uint32_t> work(w.muscles.size(), 0);
    for (size_t k = 0; k < w.distances.size(); ++k) ++work[w.distances.muscle[k]];
    for (const SlidingConnection& s : w.sliding) ++work[w.particles.muscle[s.particle]];
    order_.resize(w.muscles.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) { return work[a] > work[b]; });
    total_work_ = largest_work_ = 0;
    for (uint32_t n : work) {
        total_work_ += n;
        largest_work_ = std::max<uint64_t>(largest_work_, n);
    }
}

bool MuscleIteration::balanced(int threads) const {
    return threads > 1 && total_work_ > 0 && largest_work_ * uint64_t(threads) <= total_work_;
}

void MuscleIteration::prepare(const World& w) {
    // Runs are in particle order and a muscle's particles are one range.
    const size_t nm = w.muscles.size();
    const size_t runs = w.contact_runs.empty() ? 0 : w.contact_runs.size() - 1;
    run_begin_.assign(nm + 1, uint32_t(runs));
    size_t r = 0;
    for (size_t m = 0; m < nm; ++m) {
        while (r < runs && w.contacts[w.contact_runs[r]].particle < w.muscles[m].first) ++r;
        run_begin_[m] = uint32_t(r);
    }
}

void MuscleIteration::contacts(IterationContext& ctx, uint32_t m) const {
    World& W = ctx.world;
    // The envelope first: a bone's hard contact has the last word on a
    // vertex squeezed between the two.
    if (envelopeOn(ctx)) {
        const float at = ctx.coef.alpha_tilde[fi(Family::Fascia)], s = ctx.coef.scale[fi(Family::Fascia)];
        const Muscle& mu = W.muscles[m];
        for (uint32_t i = mu.first; i < mu.first + mu.surface_count; ++i) project::fascia(W, i, at, s);
    }
    for (uint32_t run = run_begin_[m]; run < run_begin_[m + 1]; ++run)
        for (uint32_t k = W.contact_runs[run]; k < W.contact_runs[run + 1]; ++k)
            project::contact(W, k, ctx.coef, ctx.params.contact_radius);
}

void MuscleIteration::planes(IterationContext& ctx, uint32_t m) const {
    World& W = ctx.world;
    if (W.planes.empty()) return;
    const float at = ctx.coef.alpha_tilde[fi(Family::Plane)], s = ctx.coef.scale[fi(Family::Plane)];
    const Muscle& mu = W.muscles[m];
    // Particle by particle, each one's planes in order: the per-particle
    // sequence of the plane-by-plane loop (a plane moves only its particle).
    for (uint32_t i = mu.first; i < mu.first + mu.surface_count + mu.branch_count; ++i)
        for (size_t pl = 0; pl < W.planes.size(); ++pl) project::plane(W, pl, i, at, s, ctx.params.contact_radius);
}

void MuscleIteration::solve(IterationContext& ctx, const std::vector<MuscleStage>& stages, int iterations) {
    if (!ctx.on_iteration) {
#pragma omp parallel
        run(ctx, stages, iterations);
        return;
    }
#pragma omp parallel
    for (int it = 0; it < iterations; ++it) run(ctx, stages, 1);
}

void MuscleIteration::run(IterationContext& ctx, const std::vector<MuscleStage>& stages, int iterations) {
    using Clock = std::chrono::steady_clock;
    constexpr size_t kMaxStages = 8;
    const size_t ns = std::min(stages.size(), kMaxStages);
    const bool master = omp_get_thread_num() == 0;
    double stage_ms[kMaxStages] = {};
    const Clock::time_point start = master ? Clock::now() : Clock::time_point{};
    const int64_t n = int64_t(order_.size());
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < n; ++r) {
        const uint32_t m = order_[size_t(r)];
        Clock::time_point t = master ? Clock::now() : Clock::time_point{};
        for (int it = 0; it < iterations; ++it)
            for (size_t k = 0; k < ns; ++k) {
                stages[k].run(m);
                if (!master) continue;
                const Clock::time_point now = Clock::now();
                stage_ms[k] += std::chrono::duration<double, std::milli>(now - t).count();
                t = now;
            }
    }
    if (master) {
        double sum = 0.0;
        for (size_t k = 0; k < ns; ++k) sum += stage_ms[k];
        const double wall = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        const double scale = sum > 0.0 ? wall / sum : 0.0;
        for (size_t k = 0; k < ns; ++k) ctx.timers.current_ms[static_cast<int>(stages[k].phase)] += stage_ms[k] * scale;
    }
    if (!ctx.on_iteration) return;
#pragma omp single
    ctx.iterationDone();
}

void finishIteration(IterationContext& ctx, ParallelVolume& volume) {
    volume.project(ctx);
    parallelContacts(ctx);
    parallelPlanes(ctx);
    if (!ctx.on_iteration) return;
#pragma omp single
    ctx.iterationDone();
}

}  // namespace sim

// The parallel solver modes (docs/model.md §6): SMT-J (Jacobi), SMT-G (graph
// colouring) and the hybrid of Fratarcangeli et al. Each opens one OpenMP
// parallel region per substep and runs all its iterations inside it; the
// passes are in sim/parallel_passes.h.
#include <algorithm>
#include <cassert>

#include <omp.h>

#include "sim/constraint_coloring.h"
#include "sim/parallel_passes.h"
#include "sim/projection_items.h"
#include "sim/solver.h"

namespace sim {

namespace {

// Every distance constraint and sliding connection, as items.
std::vector<uint32_t> allItems(const World& w) {
    std::vector<uint32_t> items;
    items.reserve(w.distances.size() + w.sliding.size());
    for (uint32_t k = 0; k < w.distances.size(); ++k) items.push_back(k);
    for (uint32_t s = 0; s < w.sliding.size(); ++s) items.push_back(s | kSlidingItem);
    return items;
}

std::vector<uint32_t> colorSizesOf(const ConstraintColoring& c, int colors) {
    std::vector<uint32_t> sizes;
    for (int k = 0; k < colors && k < c.colorCount(); ++k) sizes.push_back(c.color_items[size_t(k)]);
    return sizes;
}

std::vector<int> distanceColorsOf(const World* w, const ConstraintColoring& c, int colors) {
    if (!w) return {};
    std::vector<int> out(w->distances.size(), -1);
    for (int col = 0; col < c.colorCount(); ++col)
        for (uint32_t e = c.color_offset[size_t(col)]; e < c.color_offset[size_t(col) + 1]; ++e) {
            const uint32_t task = c.color_tasks[e];
            for (uint32_t i = c.task_offset[task]; i < c.task_offset[task + 1]; ++i) {
                const uint32_t item = c.task_items[i];
                if (!(item & kSlidingItem)) out[item] = col < colors ? col : colors;  // overflow: one group
            }
        }
    return out;
}

// Muscle m's share of a colour sweep (sim/constraint_coloring.h), in order
// (the kernels inlined: one loop, no call per constraint).
void sweepMuscle(IterationContext& ctx, const MuscleSweep& sweep, uint32_t m) {
    World& W = ctx.world;
    const float at = ctx.coef.alpha_tilde[fi(Family::Sliding)], sc = ctx.coef.scale[fi(Family::Sliding)];
    for (uint32_t i = sweep.offset[m]; i < sweep.offset[m + 1]; ++i) {
        const uint32_t item = sweep.items[i];
        if (item & kSlidingItem)
            project::sliding(W, item & ~kSlidingItem, at, sc);
        else
            project::distance(W, item);
    }
}

constexpr uint32_t kSerialColor = 64;

// Projects items [begin, end) of a colouring's flat item list, in order
// (the kernels inlined: one loop, no call per constraint).
void projectFlat(IterationContext& ctx, const ConstraintColoring& c, uint32_t begin, uint32_t end) {
    World& W = ctx.world;
    const float at = ctx.coef.alpha_tilde[fi(Family::Sliding)], sc = ctx.coef.scale[fi(Family::Sliding)];
    for (uint32_t i = begin; i < end; ++i) {
        const uint32_t item = c.flat_items[i];
        if (item & kSlidingItem)
            project::sliding(W, item & ~kSlidingItem, at, sc);
        else
            project::distance(W, item);
    }
}

// Phase by phase: runs colours [first, last) of a colouring, each in
// parallel (or on one thread when it has fewer than kSerialColor items).
void runColors(IterationContext& ctx, const ConstraintColoring& c, int first, int last) {
    MasterPhase timer(ctx.timers, Phase::Distance);
    for (int col = first; col < last; ++col) {
        const uint32_t begin = c.color_offset[size_t(col)], end = c.color_offset[size_t(col) + 1];
        if (c.color_items[size_t(col)] < kSerialColor) {
#pragma omp single
            projectFlat(ctx, c, c.flat_task_begin[begin], c.flat_task_begin[end]);
        } else {
            // One contiguous block of tasks per thread, not interleaved chunks:
            // a colour's tasks are in particle order, so each thread writes its
            // own region of p and cache lines are not bounced between cores
            // (dynamic chunks of 16 made 2 threads slower than 1). The blocks
            // hold equal shares of the colour's items (a hub task holds
            // dozens), cut at the task boundary nearest each share. Which
            // thread runs a task changes no bit: a colour's tasks share no
            // particle.
            const uint64_t threads = uint64_t(omp_get_num_threads()), t = uint64_t(omp_get_thread_num());
            const uint32_t* tb = c.flat_task_begin.data();
            const uint64_t i0 = tb[begin], items = tb[end] - i0;
            auto cut = [&](uint64_t share) {  // first task boundary at or past item i0 + items·share/threads
                const uint32_t target = uint32_t(i0 + items * share / threads);
                return uint32_t(std::lower_bound(tb + begin, tb + end, target) - tb);
            };
            const uint32_t t0 = t == 0 ? begin : cut(t), t1 = t + 1 == threads ? end : cut(t + 1);
            projectFlat(ctx, c, tb[t0], tb[t1]);
#pragma omp barrier
        }
    }
}

// The iterations of a parallel mode: per muscle, `distance` (the mode's
// distance phase), then the volume, contacts and planes applied fully.
// `by_phase` runs the distance phase over all muscles (worksharing passes)
// for scenes the muscle loop cannot keep busy (MuscleIteration::balanced):
// then the volume, contacts and planes follow phase by phase too.
template <typename F, typename G>
void solveByMuscle(IterationContext& ctx, int iterations, MuscleIteration& iteration, ParallelVolume& volume,
                   F&& distance, G&& by_phase) {
    if (!iteration.balanced(omp_get_max_threads())) {
#pragma omp parallel
        for (int it = 0; it < iterations; ++it) {
            by_phase();
            finishIteration(ctx, volume);
        }
        return;
    }
    iteration.prepare(ctx.world);
    const std::vector<MuscleStage> stages = {
        {Phase::Distance, distance},
        {Phase::Volume, [&](uint32_t m) { volume.projectMuscle(ctx, m); }},
        {Phase::Contact, [&](uint32_t m) { iteration.contacts(ctx, m); }},
        {Phase::Plane, [&](uint32_t m) { iteration.planes(ctx, m); }},
    };
    iteration.solve(ctx, stages, iterations);
}

// SMT-J. Our choices beyond the seeds: the per-muscle volume constraint is a
// "Gauss-Seidel" constraint too (applied fully, with a parallel reduction) —
// averaged, its correction is divided by the valence of the busiest vertex it
// touches (the pole, ~50) and the P1 oval pressed on its plane lost half its
// volume at 10 iterations; and the fully applied constraints run after the
// averaged pass, so each iteration ends with the volume kept and no particle
// inside a plane or a contact target (13% volume loss on P1 the other way).
class JacobiSolver final : public Solver {
public:
    SolverKind kind() const override { return SolverKind::Jacobi; }
    void rebuild(const World& w, const SolverParams&) override {
        iteration_.rebuild(w);
        volume_.rebuild(w);
        jacobi_.rebuild(w, allItems(w));
    }
    void solve(IterationContext& ctx, int iterations) override {
        // Averaged constraints from one snapshot, then the gather; then the
        // "Gauss-Seidel" constraints, applied fully (the thesis' Algorithm 8, docs/model.md §6
        // runs them first; after the average, the iteration ends with the
        // volume kept and nothing inside a plane or a target).
        solveByMuscle(
            ctx, iterations, iteration_, volume_, [&](uint32_t m) { jacobi_.run(ctx, m); },
            [&] {
                jacobi_.compute(ctx);
                jacobi_.gather(ctx);
            });
    }

private:
    MuscleIteration iteration_;
    ParallelVolume volume_;
    JacobiPass jacobi_;
};

class ColoringSolver final : public Solver {
public:
    SolverKind kind() const override { return SolverKind::Coloring; }
    void rebuild(const World& w, const SolverParams&) override {
        coloring_ = colorConstraints(w);
        assert(verifyColoring(w, coloring_).empty());  // checked in debug builds and in the tests
        sweep_ = sweepByMuscle(w, coloring_, coloring_.colorCount());
        iteration_.rebuild(w);
        volume_.rebuild(w);
        world_ = &w;
    }
    void solve(IterationContext& ctx, int iterations) override {
        solveByMuscle(
            ctx, iterations, iteration_, volume_, [&](uint32_t m) { sweepMuscle(ctx, sweep_, m); },
            [&] { runColors(ctx, coloring_, 0, coloring_.colorCount()); });
    }
    int colorCount() const override { return coloring_.colorCount(); }
    std::vector<uint32_t> colorSizes() const override { return colorSizesOf(coloring_, coloring_.colorCount()); }
    std::vector<int> distanceColors() const override {
        return distanceColorsOf(world_, coloring_, coloring_.colorCount());
    }
    int colorsWithoutRemedy() const override { return coloring_.colors_without_remedy; }

private:
    ConstraintColoring coloring_;
    MuscleSweep sweep_;
    MuscleIteration iteration_;
    ParallelVolume volume_;
    const World* world_ = nullptr;
};

class HybridSolver final : public Solver {
public:
    SolverKind kind() const override { return SolverKind::Hybrid; }
    void rebuild(const World& w, const SolverParams& p) override {
        coloring_ = colorConstraints(w);
        assert(verifyColoring(w, coloring_).empty());
        colored_ = std::min(coloring_.colorCount(), std::max(1, p.hybrid_groups - 1));
        // The overflow: every item of the colours past the first k − 1.
        std::vector<uint32_t> overflow;
        for (int col = colored_; col < coloring_.colorCount(); ++col)
            for (uint32_t e = coloring_.color_offset[size_t(col)]; e < coloring_.color_offset[size_t(col) + 1]; ++e) {
                const uint32_t task = coloring_.color_tasks[e];
                for (uint32_t i = coloring_.task_offset[task]; i < coloring_.task_offset[task + 1]; ++i)
                    overflow.push_back(coloring_.task_items[i]);
            }
        jacobi_.rebuild(w, std::move(overflow));
        sweep_ = sweepByMuscle(w, coloring_, colored_);
        iteration_.rebuild(w);
        volume_.rebuild(w);
        world_ = &w;
    }
    void solve(IterationContext& ctx, int iterations) override {
        // A muscle's first k − 1 colours, then its overflow averaged.
        const bool has_overflow = jacobi_.size() > 0;
        solveByMuscle(
            ctx, iterations, iteration_, volume_,
            [&](uint32_t m) {
                sweepMuscle(ctx, sweep_, m);
                jacobi_.run(ctx, m);
            },
            [&] {
                runColors(ctx, coloring_, 0, colored_);
                if (has_overflow) {
                    jacobi_.compute(ctx);
                    jacobi_.gather(ctx);
                }
            });
    }
    int colorCount() const override { return colored_ + (jacobi_.size() > 0 ? 1 : 0); }
    std::vector<uint32_t> colorSizes() const override {
        auto sizes = colorSizesOf(coloring_, colored_);
        if (jacobi_.size() > 0) sizes.push_back(uint32_t(jacobi_.size()));
        return sizes;
    }
    std::vector<int> distanceColors() const override { return distanceColorsOf(world_, coloring_, colored_); }
    int colorsWithoutRemedy() const override { return coloring_.colors_without_remedy; }

private:
    ConstraintColoring coloring_;
    int colored_ = 0;
    MuscleSweep sweep_;
    JacobiPass jacobi_;
    MuscleIteration iteration_;
    ParallelVolume volume_;
    const World* world_ = nullptr;
};

}  // namespace

std::unique_ptr<Solver> makeJacobiSolver() { return std::make_unique<JacobiSolver>(); }
std::unique_ptr<Solver> makeColoringSolver() { return std::make_unique<ColoringSolver>(); }
std::unique_ptr<Solver> makeHybridSolver() { return std::make_unique<HybridSolver>(); }

}  // namespace sim

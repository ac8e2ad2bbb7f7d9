// Building blocks of the parallel solver modes (docs/model.md §6). Every pass here is
// an orphaned OpenMP worksharing construct: it must be called by all threads
// of an enclosing `#pragma omp parallel` region (the solvers open one region
// per substep), and it ends with a barrier. Every pass writes disjoint data
// or reduces in a fixed order, so results are bitwise identical for any
// thread count.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include <omp.h>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/solver.h"

namespace sim {

// The per-muscle volume constraint: gradients gathered per vertex through a
// vertex → triangle list, C and Σw|∇C|² reduced over fixed-size chunks of the
// muscle's vertices in chunk order (the sums of the pass that ran the chunks
// in parallel before session 10: the same bits).
class ParallelVolume {
public:
    void rebuild(const World& w);
    // Gauss-Seidel: every solver mode applies the volume correction fully.
    // Muscle m's constraint (no OpenMP construct: one thread runs a muscle).
    void projectMuscle(IterationContext& ctx, uint32_t muscle);

private:
    struct Chunk {
        uint32_t muscle, begin, end;
    };
    std::vector<uint32_t> chunk_begin_;       // per muscle: its chunks, + end
    std::vector<int32_t> volume_of_;          // per muscle: its volume constraint (−1: none)
    std::vector<uint32_t> surface_;           // every surface particle
    std::vector<uint32_t> vt_offset_;         // per entry of surface_: its (triangle, corner) list
    std::vector<glm::uvec2> vt_corners_;      // the other two corners of each (vertex, triangle), in winding order
    std::vector<Chunk> vertex_chunks_;
    std::vector<float> vertex_partial_;       // per vertex chunk: Σ w|∇C|²
    std::vector<float> vertex_volume_;        // per vertex chunk: Σ (x_i − o)·∇_i (3·6V)
    std::vector<float> vertex_max_;           // per vertex chunk: max w|∇C|
};

// Each parallel iteration runs muscle by muscle. Distance constraints and
// sliding connections touch one muscle's particles only; its volume
// constraint too; a contact or plane moves only its own vertex, against a
// plane or capsule fixed during the iteration. So a muscle's whole
// iteration — the mode's distance phase (its colours in order, its Jacobi
// items then their sums), its volume, its vertices' contacts and planes —
// runs on one thread, muscles shared out dynamically, largest first: one
// barrier per iteration (there were one per colour plus five), a muscle's
// particles in cache from its first constraint to its last, and the bits of
// the phase-after-phase order whichever thread runs a muscle.
//
// Phase times: the master thread's time in each stage over the muscles it
// ran, scaled so that they add up to the loop's wall time (the wait at the
// closing barrier spread over the stages).
class MuscleIteration {
public:
    void rebuild(const World& w);  // the muscle order (musclesByWork) and volume
    // Before each solve: where each muscle's vertices' contacts start (the
    // contact list is rebuilt every substep).
    void prepare(const World& w);
    // Orphaned worksharing: call from every thread of a parallel region.
    template <typename F>
    void run(IterationContext& ctx, F&& distance);

private:
    // Muscle m's volume, then its vertices' contacts and planes; adds the
    // stages' times to stage_ms[1..3] when given (the master thread).
    void finishMuscle(IterationContext& ctx, uint32_t m, double* stage_ms);
    void addTimes(IterationContext& ctx, const double (&stage_ms)[4], double wall_ms) const;
    std::vector<uint32_t> order_;
    std::vector<uint32_t> run_begin_;  // per muscle: its first contact run, + end
    ParallelVolume volume_;
};

// Muscles by their count of items (distance constraints and sliding
// connections), most first: the dynamic schedule's order.
std::vector<uint32_t> musclesByWork(const World& w);

template <typename F>
void MuscleIteration::run(IterationContext& ctx, F&& distance) {
    using Clock = std::chrono::steady_clock;
    const bool master = omp_get_thread_num() == 0;
    double stage_ms[4] = {0.0, 0.0, 0.0, 0.0};  // distance, volume, contacts, planes (master)
    const Clock::time_point start = master ? Clock::now() : Clock::time_point{};
    const int64_t n = int64_t(order_.size());
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < n; ++r) {
        const uint32_t m = order_[size_t(r)];
        const Clock::time_point t0 = master ? Clock::now() : Clock::time_point{};
        distance(m);
        if (master) stage_ms[0] += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        finishMuscle(ctx, m, master ? stage_ms : nullptr);
    }
    if (master) addTimes(ctx, stage_ms, std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    if (!ctx.on_iteration) return;
#pragma omp single
    ctx.iterationDone();
}

// The Jacobi half of SMT-J and of the hybrid (the thesis' Algorithm 8, docs/model.md §6): every item
// computes its correction from the same positions into its own slots, then
// each particle adds its slots in a fixed (CSR) order — exact floats, no
// atomics, the same bits for any thread count. Items are kept muscle by
// muscle (stable, so each particle's slots keep their order); run(m) does
// muscle m's items, then its particles' sums: other muscles' items neither
// read nor write its particles, so this is the global pass, one muscle at a
// time.
//
// Averaging, our choice: the thesis averages per particle, p_i += (ω/n_i)·ΣΔp,
// while λ accumulates the full Δλ. Under XPBD that breaks the link between
// λ and the positions (x − x̃ = M⁻¹∇Cᵀλ): the fixed point then has
// C = −α̃λ with λ about n/ω times too large, i.e. a material several times
// softer than SST's. So each constraint c scales its own Δλ by
// ω / max over its particles of n_i, and λ and the positions take that same
// step. No particle moves more than ω times its average correction, as in
// the seeds, and every mode converges to the same equilibrium.
class JacobiPass {
public:
    // `items`: distance indices, or sliding indices with the top bit set.
    void rebuild(const World& w, std::vector<uint32_t> items);
    // Muscle m's items from the current positions, then its particles' sums
    // (no OpenMP construct: called from MuscleIteration::run).
    void run(IterationContext& ctx, uint32_t muscle);
    size_t size() const { return items_.size(); }

private:
    std::vector<uint32_t> items_;
    std::vector<uint32_t> item_begin_;   // per muscle: its items, + end
    std::vector<float> item_inv_n_;      // 1 / max n_i over the item's particles
    std::vector<glm::vec3> slots_;       // two per item (i, j)
    std::vector<uint32_t> particles_;    // particles that receive corrections, in particle order
    std::vector<uint32_t> particle_begin_;  // per muscle: its entries of particles_, + end
    std::vector<uint32_t> offset_;       // per entry of particles_: its slots
    std::vector<uint32_t> slot_index_;
};

}  // namespace sim

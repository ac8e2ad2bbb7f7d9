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

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/solver.h"

namespace sim {

// Records the time of a phase on the master thread. Place it so that its
// scope ends after the worksharing construct's closing barrier.
class MasterPhase {
public:
    MasterPhase(PhaseTimers& t, Phase p);
    ~MasterPhase();
    MasterPhase(const MasterPhase&) = delete;
    MasterPhase& operator=(const MasterPhase&) = delete;

private:
    PhaseTimers& t_;
    Phase p_;
    bool master_;
    std::chrono::steady_clock::time_point start_;
};

// Gauss-Seidel collisions, parallel over particles: each particle's planes
// and contacts touch only that particle.
void parallelPlanes(IterationContext& ctx);
void parallelContacts(IterationContext& ctx);

// The per-muscle volume constraint as its own phase: gradients gathered per
// vertex through a vertex → triangle list, C and Σw|∇C|² reduced over
// fixed-size chunks in a fixed order.
class ParallelVolume {
public:
    void rebuild(const World& w);
    // Gauss-Seidel: every solver mode applies the volume correction fully.
    void project(IterationContext& ctx);

private:
    struct Chunk {
        uint32_t muscle, begin, end;
    };
    std::vector<uint32_t> surface_;           // every surface particle
    std::vector<uint32_t> vt_offset_;         // per entry of surface_: its (triangle, corner) list
    std::vector<glm::uvec2> vt_corners_;      // the other two corners of each (vertex, triangle), in winding order
    std::vector<Chunk> vertex_chunks_;
    std::vector<float> vertex_partial_;       // per vertex chunk: Σ w|∇C|²
    std::vector<float> vertex_volume_;        // per vertex chunk: Σ (x_i − o)·∇_i (3·6V)
    std::vector<float> dlambda_;              // per muscle, this iteration
    std::vector<float> vertex_max_;           // per vertex chunk: max w|∇C|
};

// The distance phase of every parallel mode runs muscle by muscle:
// distance constraints and sliding connections touch one muscle's particles
// only, so muscles are independent and each one's work (its colours in
// order, its Jacobi items then their averaging) runs on one thread, the
// muscles shared out dynamically, largest first — one barrier per iteration
// for the whole phase, and the same bits whichever thread runs a muscle.
// `order`: muscles by their count of items, most first (musclesByWork).
std::vector<uint32_t> musclesByWork(const World& w);
template <typename F>
void forEachMuscle(IterationContext& ctx, const std::vector<uint32_t>& order, F&& f) {
    MasterPhase timer(ctx.timers, Phase::Distance);
    const int64_t n = int64_t(order.size());
#pragma omp for schedule(dynamic, 1)
    for (int64_t r = 0; r < n; ++r) f(order[size_t(r)]);
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
    // (no OpenMP construct: called from forEachMuscle).
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

// The end of every parallel iteration: the volume constraint, then contacts
// and planes applied fully (so the iteration ends with nothing inside a plane
// or a target), then the convergence record.
void finishIteration(IterationContext& ctx, ParallelVolume& volume);

}  // namespace sim

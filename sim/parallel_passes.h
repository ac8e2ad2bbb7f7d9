// Building blocks of the solver modes on several threads (docs/model.md §6).
// MuscleIteration::run and the phase-by-phase passes are orphaned OpenMP
// worksharing constructs: they must be called by all threads of an enclosing
// `#pragma omp parallel` region (the solvers open one region per substep),
// and end with a barrier. The per-muscle stages (projectMuscle, JacobiPass::
// run, contacts, planes) open no OpenMP construct: one thread runs a muscle's
// stages. Everything writes disjoint data and reduces in a fixed order, so
// results are bitwise identical for any thread count and either path.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
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

// Phase by phase (scenes whose muscles cannot be shared out evenly, below):
// collisions in parallel over particles, each touching only its particle.
void parallelPlanes(IterationContext& ctx);
void parallelContacts(IterationContext& ctx);

// The per-muscle volume constraint: gradients gathered per vertex through a
// vertex → triangle list, C and Σw|∇C|² reduced over fixed-size chunks of the
// muscle's vertices in chunk order (the sums of the pass that ran the chunks
// in parallel before session 10: the same bits).
class ParallelVolume {
public:
    void rebuild(const World& w);
    // Gauss-Seidel: every solver mode applies the volume correction fully.
    // Every muscle's, in parallel over the chunks (a worksharing pass) ...
    void project(IterationContext& ctx);
    // ... or muscle m's (no OpenMP construct: one thread runs a muscle).
    // The same sums in the same order: the same bits.
    void projectMuscle(IterationContext& ctx, uint32_t muscle);

private:
    struct Chunk {
        uint32_t muscle, begin, end;
    };
    void chunkPartials(IterationContext& ctx, size_t chunk);
    float muscleDelta(IterationContext& ctx, uint32_t muscle);  // updates its λ
    void applyChunk(IterationContext& ctx, size_t chunk, float dlambda) const;
    std::vector<uint32_t> chunk_begin_;       // per muscle: its chunks, + end
    std::vector<int32_t> volume_of_;          // per muscle: its volume constraint (−1: none)
    std::vector<uint32_t> surface_;           // every surface particle
    std::vector<uint32_t> vt_offset_;         // per entry of surface_: its (triangle, corner) list
    std::vector<glm::uvec2> vt_corners_;      // the other two corners of each (vertex, triangle), in winding order
    std::vector<Chunk> vertex_chunks_;
    std::vector<float> vertex_partial_;       // per vertex chunk: Σ w|∇C|²
    std::vector<float> vertex_volume_;        // per vertex chunk: Σ (x_i − o)·∇_i (3·6V)
    std::vector<float> vertex_max_;           // per vertex chunk: max w|∇C|
    std::vector<float> dlambda_;              // per muscle, this iteration (project)
};

// A substep's iterations run muscle by muscle. Distance constraints and
// sliding connections touch one muscle's particles only; its volume
// constraint too; a contact or plane moves only its own vertex, against a
// plane or capsule fixed for the whole substep (the search or refresh placed
// it before the solve). So no muscle reads another's particles until the
// next substep, and one thread runs all of a muscle's iterations — each one
// the solver's stages in order (the parallel modes: their distance phase,
// then volume, contacts, planes; SST: fibres, structure, volume, sliding,
// contacts, planes) — muscles shared out dynamically, largest first: one
// barrier per substep (the parallel modes once had one per colour plus five
// per iteration, then one per iteration), a muscle's particles in cache from
// its first iteration to its last, and the bits of the iteration-after-
// iteration, stage-after-stage order whichever thread runs a muscle. A solve
// that reports each iteration (ctx.on_iteration: the convergence record)
// runs one iteration per call instead, with a barrier after each.
//
// A scene whose largest muscle holds more than its share of the work (one
// muscle, or two unequal ones: the built-in scenes, T2–T4) cannot be shared
// out this way: one thread would do most of the work while the others wait.
// There the solvers keep their phase-by-phase passes, each phase (and each
// colour) split over all threads — the same bits either way (balanced()).
//
// Phase times: the master thread's time in each stage over the muscles it
// ran, scaled so that they add up to the loop's wall time (the wait at the
// closing barrier spread over the stages).
struct MuscleStage {
    Phase phase;
    std::function<void(uint32_t)> run;  // one muscle; no OpenMP construct
};

class MuscleIteration {
public:
    // Each muscle's items (distance constraints and sliding connections):
    // the schedule's order (most first) and balanced()'s shares.
    void rebuild(const World& w);
    // True when no muscle holds more than 1/threads of the items (distance
    // constraints and sliding connections): the muscle loop can keep every
    // thread busy.
    bool balanced(int threads) const;
    // Before each solve: where each muscle's vertices' contacts start (the
    // contact list is rebuilt every substep).
    void prepare(const World& w);
    // A substep's iterations of every muscle in one parallel region: each
    // muscle's all on one thread, or, when the solve reports every iteration
    // (ctx.on_iteration), one iteration of every muscle at a time.
    void solve(IterationContext& ctx, const std::vector<MuscleStage>& stages, int iterations);

    // Stages of one muscle.
    void contacts(IterationContext& ctx, uint32_t m) const;
    void planes(IterationContext& ctx, uint32_t m) const;

private:
    // `iterations` iterations of every muscle, each muscle's on one thread.
    // Orphaned worksharing: called from every thread of the region.
    void run(IterationContext& ctx, const std::vector<MuscleStage>& stages, int iterations);

    std::vector<uint32_t> order_;      // muscles by their items, most first
    std::vector<uint32_t> run_begin_;  // per muscle: its first contact run, + end
    uint64_t total_work_ = 0, largest_work_ = 0;
};

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
    // Every item from one snapshot, then every particle's sum (two
    // worksharing passes) ...
    void compute(IterationContext& ctx);
    void gather(IterationContext& ctx);
    // ... or muscle m's items, then its particles' sums (no OpenMP construct:
    // called from MuscleIteration::run). The same bits either way.
    void run(IterationContext& ctx, uint32_t muscle);
    size_t size() const { return items_.size(); }

private:
    void computeItem(IterationContext& ctx, uint32_t q);
    void gatherEntry(IterationContext& ctx, uint32_t e) const;
    std::vector<uint32_t> items_;
    std::vector<uint32_t> item_begin_;   // per muscle: its items, + end
    std::vector<float> item_inv_n_;      // 1 / max n_i over the item's particles
    std::vector<glm::vec3> slots_;       // two per item (i, j)
    std::vector<uint32_t> particles_;    // particles that receive corrections, in particle order
    std::vector<uint32_t> particle_begin_;  // per muscle: its entries of particles_, + end
    std::vector<uint32_t> offset_;       // per entry of particles_: its slots
    std::vector<uint32_t> slot_index_;
};

// The end of a phase-by-phase parallel iteration: the volume constraint,
// then contacts and planes applied fully (so the iteration ends with nothing
// inside a plane or a target), then the convergence record.
void finishIteration(IterationContext& ctx, ParallelVolume& volume);

}  // namespace sim

// SST: the sequential Gauss-Seidel solver of the thesis (docs/model.md §6). Every
// constraint reads the latest positions; muscles see each other's latest
// positions through the coupling constraints within the same iteration.
//
// Run muscle by muscle on several threads (our choice, session 10): within
// an iteration no constraint reads or writes two muscles' particles (a
// contact moves its own vertex against a plane or capsule fixed during the
// iteration), so each muscle's own sequence — fibres, structure, volume,
// sliding, contacts, planes — is the sequential sweep's sequence for its
// particles, and the result is the sequential sweep's, bit for bit, at any
// thread count (sim/parallel_passes.h MuscleIteration). The sequential loop
// stays for one thread, for scenes whose largest muscle holds more than its
// share of the work (one muscle: nothing to share), and for the NaN guard's
// replay, which must stop at the first non-finite result in sweep order.
//
// At one iteration per substep over several substeps the surface fibres are
// swept in a first-fit colour order (sim/sweep_order.h): the index order,
// chain by chain along the mesh, blows up there (docs/model.md §6 "Small
// steps in SST"). Every other setting keeps the index order.
#include <algorithm>

#include <omp.h>

#include "sim/parallel_passes.h"
#include "sim/projection_items.h"
#include "sim/solver.h"
#include "sim/sweep_order.h"

namespace sim {

namespace {
class SequentialSolver final : public Solver {
public:
    SolverKind kind() const override { return SolverKind::Sst; }
    void rebuild(const World& w, const SolverParams&) override {
        iteration_.rebuild(w);
        const size_t nm = w.muscles.size();
        const DistanceSet& D = w.distances;
        // Each family's constraints come muscle by muscle (sim/world.h); a
        // muscle's range in each, or the sequential loop when they do not.
        by_muscle_ = nm > 1;
        auto ranges = [&](size_t begin, size_t end, std::vector<uint32_t>& start) {
            start.assign(nm + 1, uint32_t(begin));
            size_t k = begin;
            for (size_t m = 0; m < nm; ++m) {
                start[m] = uint32_t(k);
                while (k < end && D.muscle[k] == m) ++k;
            }
            start[nm] = uint32_t(k);
            if (k != end) by_muscle_ = false;
        };
        ranges(0, D.structure_begin, fiber_);
        ranges(D.structure_begin, D.size(), structure_);
        // Each muscle's fibres in colour order, in place of its range (or
        // all of them as one range when they are not grouped by muscle).
        fiber_order_ = firstFitColourOrder(D, by_muscle_ ? fiber_ : std::vector<uint32_t>{0, uint32_t(D.structure_begin)},
                                           w.particles.size());
        // Sliding connections of each muscle, in list order.
        sliding_start_.assign(nm + 1, 0);
        for (const SlidingConnection& s : w.sliding) ++sliding_start_[w.particles.muscle[s.particle] + 1];
        for (size_t m = 0; m < nm; ++m) sliding_start_[m + 1] += sliding_start_[m];
        sliding_.resize(w.sliding.size());
        std::vector<uint32_t> cur(sliding_start_.begin(), sliding_start_.end() - 1);
        for (uint32_t k = 0; k < w.sliding.size(); ++k) sliding_[cur[w.particles.muscle[w.sliding[k].particle]]++] = k;
        volume_of_.assign(nm, -1);
        for (size_t v = 0; v < w.volumes.size(); ++v) volume_of_[w.volumes[v].muscle] = int32_t(v);
    }
    void solve(IterationContext& ctx, int iterations) override {
        const bool coloured = colourOrder(ctx.params, iterations);
        if (ctx.check || !by_muscle_ || !iteration_.balanced(omp_get_max_threads())) {
            for (int it = 0; it < iterations; ++it) {
                iterate(ctx, coloured);
                if (ctx.check && ctx.check->found()) return;
                ctx.iterationDone();
            }
            return;
        }
        iteration_.prepare(ctx.world);
        World& W = ctx.world;
        const float sat = ctx.coef.alpha_tilde[fi(Family::Sliding)], ss = ctx.coef.scale[fi(Family::Sliding)];
        const std::vector<MuscleStage> stages = {
            {Phase::Fiber,
             [&](uint32_t m) {
                 if (coloured)
                     for (uint32_t e = fiber_[m]; e < fiber_[m + 1]; ++e) project::distance(W, fiber_order_[e]);
                 else
                     for (uint32_t k = fiber_[m]; k < fiber_[m + 1]; ++k) project::distance(W, k);
             }},
            {Phase::Structure,
             [&](uint32_t m) { for (uint32_t k = structure_[m]; k < structure_[m + 1]; ++k) project::distance(W, k); }},
            {Phase::Volume, [&](uint32_t m) { if (volume_of_[m] >= 0) gs::volume(ctx, size_t(volume_of_[m])); }},
            {Phase::Sliding,
             [&](uint32_t m) {
                 for (uint32_t e = sliding_start_[m]; e < sliding_start_[m + 1]; ++e) project::sliding(W, sliding_[e], sat, ss);
             }},
            {Phase::Contact, [&](uint32_t m) { iteration_.contacts(ctx, m); }},
            {Phase::Plane, [&](uint32_t m) { iteration_.planes(ctx, m); }},
        };
        iteration_.solve(ctx, stages, iterations);
    }

private:
    // The colour order where the index order is unstable: one iteration
    // per substep, several substeps.
    static bool colourOrder(const SolverParams& p, int iterations) { return iterations == 1 && p.substeps > 1; }

    void iterate(IterationContext& ctx, bool coloured) {
        const DistanceSet& D = ctx.world.distances;
        auto stop = [&] { return ctx.check && ctx.check->found(); };
        if (coloured)
            gs::distancesInOrder(ctx, fiber_order_.data(), fiber_order_.size(), Family::Fiber);
        else
            gs::distances(ctx, 0, D.structure_begin, Family::Fiber);
        if (stop()) return;
        gs::distances(ctx, D.structure_begin, D.size(), Family::Structure);
        if (stop()) return;
        gs::volumes(ctx);
        if (stop()) return;
        gs::sliding(ctx);
        if (stop()) return;
        // Collisions last, so they hold at the end of the iteration.
        gs::contacts(ctx);
        if (stop()) return;
        gs::planes(ctx);
    }

    MuscleIteration iteration_;
    bool by_muscle_ = false;
    std::vector<uint32_t> fiber_, structure_;   // per muscle: its range of each family, + end
    std::vector<uint32_t> fiber_order_;         // the fibres, each muscle's range in colour order
    std::vector<uint32_t> sliding_start_;       // per muscle: its entries of sliding_, + end
    std::vector<uint32_t> sliding_;             // sliding connections, muscle by muscle
    std::vector<int32_t> volume_of_;            // per muscle: its volume constraint (−1: none)
};
}  // namespace

std::unique_ptr<Solver> makeSequentialSolver() { return std::make_unique<SequentialSolver>(); }

}  // namespace sim

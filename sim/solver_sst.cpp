// SST: the sequential Gauss-Seidel solver of the thesis (docs/model.md §6). Every
// constraint reads the latest positions; muscles see each other's latest
// positions through the coupling constraints within the same iteration.
#include "sim/solver.h"

namespace sim {

namespace {
class SequentialSolver final : public Solver {
public:
    SolverKind kind() const override { return SolverKind::Sst; }
    void solve(IterationContext& ctx, int iterations) override {
        for (int it = 0; it < iterations; ++it) {
            iterate(ctx);
            if (ctx.check && ctx.check->found()) return;
            ctx.iterationDone();
        }
    }

private:
    void iterate(IterationContext& ctx) {
        const DistanceSet& D = ctx.world.distances;
        auto stop = [&] { return ctx.check && ctx.check->found(); };
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
};
}  // namespace

std::unique_ptr<Solver> makeSequentialSolver() { return std::make_unique<SequentialSolver>(); }

}  // namespace sim

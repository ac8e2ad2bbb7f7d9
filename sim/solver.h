// Solver modes (docs/model.md §6) as strategies over the same World data. One virtual
// call per iteration, never per constraint.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/timers.h"
#include "sim/world.h"

namespace sim {

// Where a non-finite value first appeared (used by the NaN guard's replay).
struct FailureSite {
    Family family = Family::Count;  // Count: none / prediction
    bool attachment = false;
    int64_t index = -1;
    uint32_t particle = 0;
    bool found() const { return index >= 0; }
};

// Positions beyond this distance from the origin (m) count as a blow-up
// even while finite: the NaN guard fires on them too.
constexpr float kBlowUpDistance = 1.0e5f;
inline bool sanePosition(glm::vec3 v) {
    return std::abs(v.x) <= kBlowUpDistance && std::abs(v.y) <= kBlowUpDistance && std::abs(v.z) <= kBlowUpDistance;
}  // false for NaN too: every comparison with NaN is false

// Per-family compliance for this substep, from the parameters.
struct FamilyCoefficients {
    float alpha_tilde[kFamilyCount];
    float scale[kFamilyCount];
};

struct IterationContext {
    World& world;
    const SolverParams& params;
    const FamilyCoefficients& coef;
    PhaseTimers& timers;
    std::vector<glm::vec3>& volume_grad;  // scratch: one gradient per particle
    FailureSite* check = nullptr;         // non-null: stop at the first non-finite result
    // Called after every iteration (by one thread, between barriers) when the
    // convergence curve is being recorded.
    const std::function<void()>* on_iteration = nullptr;
    void iterationDone() const {
        if (on_iteration) (*on_iteration)();
    }
};

// Whether the fascia envelope takes part (docs/model.md §3.8): the world has
// one and the contact model is the limb's.
inline bool envelopeOn(const World& w, const SolverParams& p) {
    return w.envelope.active() && p.contacts == ContactModel::Limb;
}
inline bool envelopeOn(const IterationContext& ctx) { return envelopeOn(ctx.world, ctx.params); }

class Solver {
public:
    virtual ~Solver() = default;
    virtual SolverKind kind() const = 0;
    // Rebuilds derived data (colours, incidence lists) for a new topology.
    virtual void rebuild(const World& /*w*/, const SolverParams& /*p*/) {}
    // `iterations` passes over every constraint for one substep (attachments
    // are applied by the caller once per substep: attached particles are
    // kinematic). Parallel modes open one parallel region for all of them.
    virtual void solve(IterationContext& ctx, int iterations) = 0;
    virtual int colorCount() const { return 0; }
    virtual std::vector<uint32_t> colorSizes() const { return {}; }
    virtual std::vector<int> distanceColors() const { return {}; }
    // Colours a plain greedy colouring needs without the hub remedy.
    virtual int colorsWithoutRemedy() const { return 0; }
};

// The shared Gauss-Seidel projections, in the sequential order SST uses; the
// parallel modes reuse the ones they do not parallelise.
namespace gs {
void distances(IterationContext& ctx, size_t begin, size_t end, Family family);
// The constraints order[0 .. n − 1], in that order.
void distancesInOrder(IterationContext& ctx, const uint32_t* order, size_t n, Family family);
void volume(IterationContext& ctx, size_t volume_index);
void volumes(IterationContext& ctx);
void planes(IterationContext& ctx);
void contacts(IterationContext& ctx);
void sliding(IterationContext& ctx);
}  // namespace gs

std::unique_ptr<Solver> makeSolver(SolverKind kind);

}  // namespace sim

// Steps a World with a solver mode (docs/model.md §2). Owns the world, the parameters,
// the solver strategy, per-phase timers and diagnostics (residuals, NaN guard).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "sim/contact_search.h"
#include "sim/limb_drift.h"
#include "sim/tissue_overlap.h"
#include "sim/params.h"
#include "sim/poke.h"
#include "sim/scene_desc.h"
#include "sim/solver.h"
#include "sim/state.h"
#include "sim/timers.h"
#include "sim/world.h"

namespace sim {

// What went wrong when the NaN/Inf guard fired.
struct NanReport {
    bool fired = false;
    std::string muscle;        // muscle whose particle went non-finite first
    std::string family;        // constraint family ("fiber", "volume", ... or "predict")
    int64_t constraint = -1;   // index within the family
    std::string message() const;
};

struct StepReport {
    bool ok = true;          // false when the NaN guard fired (state restored)
    NanReport nan;
};

struct MuscleStats {
    std::string name;
    float rest_volume, volume;   // m³
    float rest_length, length;   // origin-centroid ↔ insertion-centroid, m
    float activation;
};

struct ConstraintCounts {
    size_t fiber = 0, structure = 0, volume = 0, attachment = 0, plane = 0, contact = 0, sliding = 0;
    size_t total() const { return fiber + structure + volume + attachment + plane + contact + sliding; }
};

struct Residuals {
    float distance = 0.0f;       // max |C| over fibre + structure constraints, m
    float volume_rel = 0.0f;     // max |V − V_target| / V_target over muscles
    float penetration = 0.0f;    // max plane / contact violation, m
    float attachment = 0.0f;     // max |p − y| over attachments, m
    float max() const;           // the largest length-like residual (m)
};

// FNV-1a over the bits of a set of positions (Simulation::positionsHash).
uint64_t positionsHash(const std::vector<glm::vec3>& x);

class Simulation {
public:
    Simulation();
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    // Builds the world from a scene (rebuilds all derived data).
    std::string load(const SceneDesc& scene);

    // Parameters: validated; returns an error message and keeps the old
    // parameters when invalid. Solver kind or topology-relevant changes
    // rebuild the solver's derived data.
    std::string setParams(const SolverParams& params);
    const SolverParams& params() const { return params_; }

    // Bone transforms at the end of the next frame (one per body, in
    // SceneDesc::bodies order). Attachment targets are interpolated between the
    // previous and these transforms across substeps.
    void setBodyTransforms(const std::vector<glm::mat4>& frame_end);
    // The envelope's vertices at the end of the next frame (world space, in
    // SceneDesc::envelope's order), as the caller posed the skin; interpolated
    // across substeps. Ignored unless the size matches (no envelope: empty).
    void setEnvelopePose(const std::vector<glm::vec3>& frame_end);
    // Target activation per muscle (filtered, docs/model.md §5); clamped to [0, 1].
    void setActivation(size_t muscle, float a);
    void setAllActivations(float a);
    void setOverpressure(size_t muscle, float kappa);

    // Advances one animation frame (params().frame_dt) in params().substeps.
    StepReport stepFrame();

    // Back to the state load() built: positions, velocities, activations and
    // the bones in the bind pose, at rest.
    void reset();

    // The whole state a step depends on (sim/state.h), into `out`, reusing its
    // storage (no allocation once it has the scene's sizes).
    void captureState(State& out) const;
    // Puts a captured state back; refuses (returns an error, changes nothing)
    // a state captured from another scene.
    std::string restore(const State& s);

    const World& world() const { return world_; }
    World& mutableWorld() { return world_; }
    double time() const { return time_; }
    int64_t frame() const { return frame_; }

    ConstraintCounts constraintCounts() const;
    std::vector<MuscleStats> muscleStats() const;
    Residuals residuals() const;              // evaluated on the current positions
    // Deepest surface vertex inside a bone capsule the muscle collides with
    // (one of its contact targets), measured past the contact radius; the
    // muscle it belongs to, the bone and the vertex. Kinematic (attached)
    // vertices are not counted.
    struct BonePenetration {
        float depth = 0.0f;  // m; 0 when nothing is inside
        int muscle = -1;
        int body = -1;
        int particle = -1;
    };
    BonePenetration bonePenetration() const;
    // Deepest surface vertex inside another muscle (one of its contact
    // targets), over every free surface vertex (sim/tissue_overlap.h): depth
    // inside that muscle's surface (exact: ray parity, nearest triangle) less
    // the contact radius; and how many vertices are more than 3 mm past it.
    struct MusclePenetration {
        float depth = 0.0f;  // m; 0 when nothing is inside
        int muscle = -1;     // the muscle whose vertex went in
        int into = -1;       // the muscle it went into
        int particle = -1;
        int vertices_past_3mm = 0;
        // By raw depth inside (the contact radius not taken off): the
        // deepest, and how many of the free surface vertices measured lie
        // more than 3 mm inside.
        float deepest_raw = 0.0f;
        int vertices_past_3mm_raw = 0;
        int free_vertices = 0;
        // The vertices past 3 mm by pair (muscle into `into`), ordered by
        // (muscle, into); `deepest` less the contact radius as `depth`.
        std::vector<TissuePairOverlap> pairs_past_3mm;
    };
    MusclePenetration musclePenetration() const;
    // The same measure per particle, for the viewer's overlap map: how far
    // past the contact radius it lies inside another muscle (m; 0 where it
    // is not, and for attached vertices and branch points).
    void musclePenetrationPerVertex(std::vector<float>& out) const;
    // How far muscle surface vertices lie outside the envelope (the skin as
    // posed for the current frame; sim/envelope.h). Empty without one.
    EnvelopeOutside envelopeOutside() const;
    // Per particle, how far it lies outside the skin as posed from the file
    // (m; attached surface vertices too, 0 inside or without a skin), for
    // the viewer's outside map.
    void outsidePerVertex(std::vector<float>& out) const;
    // How far free surface vertices have moved away from the nearest surface
    // not their muscle's, over their rest distance (sim/limb_drift.h).
    DriftResult drift() const;
    // The same per particle (m), for the viewer's drift map.
    void driftPerVertex(std::vector<float>& out) const;
    uint64_t positionsHash() const;           // FNV-1a over the bits of x
    const PhaseTimers& timers() const { return timers_; }
    PhaseTimers& timers() { return timers_; }

    // Solver-specific derived data for display and reports.
    int colorCount() const;
    std::vector<uint32_t> colorSizes() const;
    // Colour of each distance constraint (−1 when the solver does not colour).
    std::vector<int> distanceColors() const;
    int colorsWithoutRemedy() const;

    // Convergence: when enabled, the residual after each iteration of the last
    // substep is recorded.
    void setRecordConvergence(bool on) { record_convergence_ = on; }
    // A spring pulling a patch of a muscle toward a point (sim/poke.h), applied
    // after each substep's solve until cleared (null). Not part of State.
    void setPoke(const Poke* p) { poke_ = p ? std::optional<Poke>(*p) : std::nullopt; }
    void setPokeTarget(glm::vec3 t) {
        if (poke_) poke_->target = t;
    }
    bool poking() const { return poke_.has_value(); }
    const std::vector<float>& convergence() const { return convergence_; }

private:
    void prepareFrame(float dt);
    void predict(float dt);
    void moveBodies(float frame_fraction);  // bones to this substep's pose (docs/model.md §2)
    void placeAttachments();                // kinematic targets on their bones
    void updateVelocities(float dt);
    void resetLambdas();
    void runFrame(FailureSite* check);
    bool finiteState() const;
    // The fascia envelope takes part in the step (the scene has one and the
    // limb contact model is chosen).
    NanReport describe(const FailureSite& site) const;
    Residuals residualsOf(const std::vector<glm::vec3>& positions) const;

    World world_;
    SolverParams params_;
    std::unique_ptr<Solver> solver_;
    ContactSearch contact_search_;
    mutable TissueOverlap tissue_overlap_;  // scratch of the muscle-into-muscle diagnostic
    mutable LimbDrift drift_;               // the drift diagnostic's rest distances and scratch
    FamilyCoefficients coef_{};
    PhaseTimers timers_;
    double time_ = 0.0;
    int64_t frame_ = 0;
    bool record_convergence_ = false;
    std::optional<Poke> poke_;
    std::vector<float> convergence_;
    std::vector<glm::vec3> volume_grad_;  // scratch for the volume constraint
    std::vector<float> volume_scratch_;   // per-muscle compliance table (prepareFrame)
    State initial_;  // as built by load(): what reset() returns to
    State saved_;    // the state before the step, restored by the NaN guard
    std::vector<glm::vec3> envelope_target_;  // the NaN guard keeps the caller's envelope pose here
};

}  // namespace sim

// The one scene driver (docs/architecture.md "The two shared pieces in app/"): loads a scene and
// steps it frame by frame — bone transforms from the animation, activations
// from one rule (below), the solver — and owns looping, reset, state capture
// and restore. `run`, `bench`, the viewer's simulation thread and the tests
// all go through it, so the same scene and settings give the same bits
// whichever of them ran it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/scene/scene.h"
#include "sim/simulation.h"
#include "sim/state.h"

namespace app {

// Where each muscle's target activation comes from, in this order:
//  1. a global source, when set: a constant for every muscle (`run
//     --activation A`, the viewer's "one activation for all"), or the
//     built-in activate/relax ramp (`run --activation ramp`);
//  2. else the muscle's sensors (docs/model.md §5), when it has them and they are
//     not switched off for it;
//  3. else the muscle's own value: the user's (viewer), or the scene's
//     initial activation a0.
struct ActivationSource {
    // SceneDefault and Sensors are the same rule (2 then 3); `run --activation
    // sensors` names it.
    enum class Kind { SceneDefault, Constant, Ramp, Sensors };
    ActivationSource() = default;
    ActivationSource(Kind k, float v = 0.0f) : kind(k), value(v) {}
    Kind kind = Kind::SceneDefault;
    float value = 0.0f;  // Constant: the activation; Ramp: the peak
    struct Muscle {
        float value = 0.0f;
        bool use_sensor = true;
    };
    // Per muscle of the loaded scene; empty (or another size): the scene's
    // defaults (sensors on, a0).
    std::vector<Muscle> muscles;
};

// The built-in activate/relax ramp: rest 0.5 s, rise to `peak` over 1 s, hold
// 1 s, relax over 1 s, then rest (a 3.5 s cycle after which a stays 0).
float rampActivation(double t, float peak);

// Which solver settings the user gave (command line): the scene's own
// substeps/carry apply to the others (engine::SceneSolverSettings).
struct ParamsGiven {
    bool substeps = false, carry = false;
};

class SceneDriver {
public:
    SceneDriver();
    ~SceneDriver();
    SceneDriver(const SceneDriver&) = delete;
    SceneDriver& operator=(const SceneDriver&) = delete;

    // Loads a scene ("builtin:NAME" or a glTF file) into a fresh simulation
    // with `params` (the scene's own substeps/carry applied where
    // `params_given` says the user gave none), at rest at t = 0. On failure
    // the driver keeps what it had and returns an error naming the file and
    // the cause; exceptions (out of memory) are turned into such errors.
    std::string load(const std::string& spec, const sim::SolverParams& params = {}, ParamsGiven given = {});
    bool loaded() const { return loaded_; }
    const std::string& source() const { return source_; }

    std::string setParams(const sim::SolverParams& p);
    const sim::SolverParams& params() const { return sim_->params(); }
    // −1: the rest pose (no animation); an index past the scene's animations
    // is refused (returns false).
    bool setAnimation(int index);
    int animation() const;  // the index in use, −1 when none
    void setLoop(bool loop) { loop_ = loop; }
    bool loop() const { return loop_; }
    void setActivationSource(ActivationSource s) { activation_ = std::move(s); }
    const ActivationSource& activationSource() const { return activation_; }
    // Overpressure κ: one muscle, or every muscle.
    void setOverpressure(size_t muscle, float kappa) { sim_->setOverpressure(muscle, kappa); }
    void setOverpressure(float kappa);

    // Simulated frames since t = 0 and the time at the end of the last one.
    int64_t frame() const { return sim_->frame(); }
    double time() const { return sim_->time(); }
    double duration() const;            // of the animation in use (0: none)
    // No muscles and no animation (a static character): nothing to step.
    bool isStatic() const;
    // The animation's time at sim time t (it loops); without an animation, t
    // (0 for a static scene: its clock does not count up).
    double animationTime(double t) const;
    double animationTime() const { return animationTime(time()); }
    // True when the animation does not loop and the next frame would pass its end.
    bool atEnd() const;

    // Advances one frame: bone targets and activations for the end of the
    // frame, then the solver.
    sim::StepReport step();
    // Exactly the state a fresh load gives (t = 0; nothing of the run before
    // the reset reaches the next step: no sweep of the bones from where the
    // animation had taken them).
    void reset();
    void captureState(sim::State& s) const { sim_->captureState(s); }
    std::string restore(const sim::State& s) { return sim_->restore(s); }

    const engine::Scene& scene() const { return scene_; }
    sim::Simulation& sim() { return *sim_; }
    const sim::Simulation& sim() const { return *sim_; }
    // Target activation of muscle m at sim time t under the current plan.
    float activationAt(size_t m, double t) const;

private:
    engine::Scene scene_;
    std::unique_ptr<sim::Simulation> sim_;
    std::string source_;
    bool loaded_ = false;
    ActivationSource activation_;
    std::vector<glm::vec3> envelope_pose_;  // scratch: the envelope posed for the next frame
    int animation_ = 0;
    bool loop_ = true;
};

}  // namespace app

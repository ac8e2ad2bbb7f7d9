// Drives a simulation from an engine scene, frame by frame: bone transforms
// from the animation, activations from a constant, the built-in
// activate/relax ramp, or the scene's sensors (SPEC §2, §6). Shared by the
// headless `run`/`bench` commands and the viewer's simulation thread.
#pragma once

#include <string>

#include "engine/scene.h"
#include "sim/simulation.h"

namespace app {

struct ActivationSource {
    enum class Kind { SceneDefault, Constant, Ramp, Sensors } kind = Kind::SceneDefault;
    float value = 0.0f;  // Constant: the activation; Ramp: the peak
};

// The built-in activate/relax ramp: rest 0.5 s, rise to `peak` over 1 s, hold
// 1 s, relax over 1 s, then rest (a 3.5 s cycle after which a stays 0).
float rampActivation(double t, float peak);

class SceneDriver {
public:
    // Loads a scene ("builtin:NAME" or a glTF file) and builds the world.
    std::string load(const std::string& spec);
    std::string setParams(const sim::SolverParams& p) { return sim_.setParams(p); }
    // The scene's own solver settings where the user gave none (whether
    // --substeps / --carry were on the line).
    void applySceneDefaults(sim::SolverParams& p, bool substeps_given, bool carry_given) const {
        scene_.solver.applyTo(p, substeps_given, carry_given);
    }
    void setActivationSource(ActivationSource s) { source_ = s; }
    void setAnimation(int index) { animation_ = index; }
    int animation() const { return animation_; }
    // Overpressure κ for every muscle.
    void setOverpressure(float kappa);

    // Advances one frame: bone targets and activations for the end of the
    // frame, then the solver.
    sim::StepReport step();
    void reset();

    const engine::Scene& scene() const { return scene_; }
    sim::Simulation& sim() { return sim_; }
    const sim::Simulation& sim() const { return sim_; }
    // Target activation of muscle m at time t under the current source.
    float activationAt(size_t m, double t) const;

private:
    engine::Scene scene_;
    sim::Simulation sim_;
    ActivationSource source_;
    int animation_ = 0;
};

}  // namespace app

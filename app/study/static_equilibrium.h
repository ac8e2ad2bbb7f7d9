// The Study's reference answer (docs/study.md): where a hanging muscle comes to
// rest, solved directly instead of by time stepping. XPBD at rest is exactly
// the minimum of the elastic energy of its constraints (docs/study.md
// "Reference"), so this is what a converged XPBD run must reach, whatever its
// iterations and substeps; PBD has no such energy (its k is not a material).
#pragma once

#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/simulation.h"

namespace app {

struct StaticEquilibrium {
    std::vector<glm::vec3> x;  // every particle at rest (attached ones where they are held)
    double elongation = 0.0;   // of muscle 0: origin–insertion length / rest length − 1
    int newton_steps = 0;
    double max_force = 0.0;    // N, the largest unbalanced force left on a particle
    std::string error;         // empty on success
};

// Minimises, over the particles with w > 0,
//   E(x) = Σ_distances ½ k (|x_i − x_j| − σ̂)² + Σ_muscles ½ k_V C_V(x)² − Σ_i m_i g·x_i
// with the XPBD stiffnesses of `s.params()` (fibre, structure, volume), the
// targets σ̂ and 6·V0 the simulation holds for the current activations, and
// gravity on the surface vertices (branch points carry no weight, as in the
// simulation). Damped Newton with a line search, in double precision, from
// the rest pose. Contacts and planes are not part of it: the Study's scene
// has neither. `s` must have stepped at least once (its targets are set then).
StaticEquilibrium solveStaticEquilibrium(const sim::Simulation& s);

}  // namespace app

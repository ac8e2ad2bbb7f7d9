#include "sim/poke.h"

#include <glm/geometric.hpp>

#include "sim/world.h"

namespace sim {

Poke grabPatch(const World& w, uint32_t particle, float radius) {
    Poke p;
    const Particles& P = w.particles;
    if (particle >= P.size() || !(P.w[particle] > 0.0f) || w.muscles.empty()) return p;
    const Muscle& m = w.muscles[P.muscle[particle]];
    const glm::vec3 c = P.x[particle];
    for (uint32_t i = m.first; i < m.particleEnd(); ++i) {
        if (!(P.w[i] > 0.0f)) continue;  // held by a bone: the spring does not tear it off
        const float d = glm::length(P.x[i] - c);
        if (d > radius) continue;
        p.particles.push_back(i);
        p.offsets.push_back(P.x[i] - c);
        p.weights.push_back(1.0f - d / radius);
    }
    p.target = c;
    return p;
}

void applyPoke(World& w, const Poke& poke, float dt) {
    Particles& P = w.particles;
    double mass = 0.0;
    for (uint32_t i : poke.particles)
        if (i < P.size() && P.w[i] > 0.0f) mass += 1.0 / double(P.w[i]);
    if (!(mass > 0.0)) return;
    const double kdt2w = double(poke.stiffness) * double(dt) * double(dt) / mass;
    const float f = float(kdt2w / (1.0 + kdt2w));
    for (size_t k = 0; k < poke.particles.size(); ++k) {
        const uint32_t i = poke.particles[k];
        if (i >= P.size() || !(P.w[i] > 0.0f)) continue;
        P.p[i] += (f * poke.weights[k]) * (poke.target + poke.offsets[k] - P.p[i]);
    }
}

}  // namespace sim

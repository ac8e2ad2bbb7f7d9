#include "app/viewer/vertex_error.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace app::viewer {

// The heat map shows how far each distance constraint (surface edges, spokes,
// medulla) is from being satisfied in XPBD's sense: the residual
// |C(x) + α̃·λ| (Macklin 2016, eq. 9), with λ as the last substep left it,
// relative to the edge's bind-pose length (σ̂ goes to 0 along a fully active
// fibre, so it cannot be the yardstick). A soft constraint that balances its
// neighbours reads 0 — the internal structure, stretched by design — so the
// map shows what has not converged and where activated fibres pull against
// the volume they must keep. It cools with more iterations. In PBD modes
// (α̃ = 0) it is the plain violation C. Measured as |C| / σ̂, the soft
// structure lit the whole map on any activated muscle.
void computeVertexError(const sim::World& w, std::vector<float>& out) {
    const auto& x = w.particles.x;
    out.assign(x.size(), 0.0f);
    const auto& D = w.distances;
    for (size_t k = 0; k < D.c.size(); ++k) {
        const auto& c = D.c[k];
        if (c.i >= x.size() || c.j >= x.size()) continue;
        const float bind = std::max(glm::length(w.particles.rest[c.i] - w.particles.rest[c.j]), 1e-9f);
        const float lambda = k < D.lambda.size() ? D.lambda[k] : 0.0f;
        const float e = std::abs(glm::length(x[c.i] - x[c.j]) - c.rest + c.alpha_tilde * lambda) / bind;
        out[c.i] = std::max(out[c.i], e);
        out[c.j] = std::max(out[c.j], e);
    }
}

}  // namespace app::viewer

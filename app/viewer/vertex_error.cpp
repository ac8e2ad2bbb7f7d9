#include "app/viewer/vertex_error.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace app::viewer {

void computeVertexError(const sim::World& w, std::vector<float>& out) {
    const auto& x = w.particles.x;
    out.assign(x.size(), 0.0f);
    for (const auto& c : w.distances.c) {
        if (c.i >= x.size() || c.j >= x.size()) continue;
        float rest = std::max(c.rest, 1e-9f);
        float e = std::abs(glm::length(x[c.i] - x[c.j]) - c.rest) / rest;
        out[c.i] = std::max(out[c.i], e);
        out[c.j] = std::max(out[c.j], e);
    }
}

}  // namespace app::viewer

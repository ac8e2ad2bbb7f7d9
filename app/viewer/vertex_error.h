// Per-vertex constraint error for the heat map: the largest XPBD residual
// |C + α̃·λ| / L (C = |x_i − x_j| − σ̂, L the bind-pose edge length) over the
// distance constraints touching a particle (vertex_error.cpp).
#pragma once

#include <vector>

#include "sim/world.h"

namespace app::viewer {

void computeVertexError(const sim::World& w, std::vector<float>& out);

}  // namespace app::viewer

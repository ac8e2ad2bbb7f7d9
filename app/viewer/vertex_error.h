// Per-vertex constraint error for the heat map: the largest relative strain
// |(|x_i − x_j| − σ̂)| / σ̂ over the distance constraints touching a particle.
#pragma once

#include <vector>

#include "sim/world.h"

namespace app::viewer {

void computeVertexError(const sim::World& w, std::vector<float>& out);

}  // namespace app::viewer

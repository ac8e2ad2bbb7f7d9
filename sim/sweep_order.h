// The order of SST's fibre sweep where the index order is unstable
// (docs/model.md §6 "Small steps in SST").
//
// A muscle's surface edges are listed mesh-wise, so consecutive constraints
// share a vertex and a Gauss-Seidel sweep runs along long chains. At one
// iteration per substep over several substeps that chain-wise sweep, with
// the volume constraint, grows from round-off until the NaN guard fires
// (P1 from 2 substeps, the oval and T4–T7 at 10). Swept in a first-fit
// colour order — each constraint takes the lowest colour neither of its
// particles holds yet, then colour by colour, index order within a colour —
// consecutive constraints rarely share a vertex and the sweep stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sim {

struct DistanceSet;

// The constraints starts.front() .. starts.back() − 1 of `d`, each range
// starts[r] .. starts[r + 1] − 1 (one muscle's, touching its own particles
// only) in first-fit colour order in its own place: a permutation, the same
// for any thread count and run.
std::vector<uint32_t> firstFitColourOrder(const DistanceSet& d, const std::vector<uint32_t>& starts, size_t particles);

}  // namespace sim

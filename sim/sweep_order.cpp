#include "sim/sweep_order.h"

#include <algorithm>

#include "sim/world.h"

namespace sim {

std::vector<uint32_t> firstFitColourOrder(const DistanceSet& d, uint32_t begin, uint32_t end, size_t particles) {
    // Colours held by each particle as a bit mask: a surface vertex meets
    // some ten edges, so 64 colours are plenty; a constraint that finds none
    // free (a vertex of degree 32 and more) takes the last one, which only
    // costs it the property, not its place in the sweep.
    constexpr int kColours = 64;
    std::vector<uint64_t> held(particles, 0);
    std::vector<uint8_t> colour(end - begin);
    std::vector<uint32_t> count(kColours + 1, 0);
    for (uint32_t k = begin; k < end; ++k) {
        const DistanceConstraint& c = d.c[k];
        const uint64_t busy = held[c.i] | held[c.j];
        const int first = busy == ~uint64_t(0) ? kColours - 1 : __builtin_ctzll(~busy);
        held[c.i] |= uint64_t(1) << first;
        held[c.j] |= uint64_t(1) << first;
        colour[k - begin] = uint8_t(first);
        ++count[size_t(first) + 1];
    }
    for (int c = 0; c < kColours; ++c) count[size_t(c) + 1] += count[size_t(c)];
    std::vector<uint32_t> order(end - begin);
    for (uint32_t k = begin; k < end; ++k) order[count[colour[k - begin]]++] = k;
    return order;
}

}  // namespace sim

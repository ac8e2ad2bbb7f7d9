#include "sim/sweep_order.h"

#include <bit>

#include "sim/world.h"

namespace sim {

std::vector<uint32_t> firstFitColourOrder(const DistanceSet& d, const std::vector<uint32_t>& starts, size_t particles) {
    // Colours held by each particle as a bit mask: a surface vertex meets
    // some ten edges, so 64 colours are plenty (first fit needs at most
    // 2·degree − 1); a constraint that finds none free (a vertex of degree
    // 33 or more) takes the last one, which only costs it the property, not
    // its place in the sweep. The ranges touch disjoint particles (one
    // muscle each), so one mask array serves them all.
    constexpr int kColours = 64;
    std::vector<uint64_t> held(particles, 0);
    const uint32_t first = starts.empty() ? 0 : starts.front(), last = starts.empty() ? 0 : starts.back();
    std::vector<uint32_t> order(last - first);
    std::vector<uint8_t> colour(last - first);
    for (size_t r = 0; r + 1 < starts.size(); ++r) {
        const uint32_t begin = starts[r], end = starts[r + 1];
        uint32_t count[kColours + 1] = {};
        for (uint32_t k = begin; k < end; ++k) {
            const DistanceConstraint& c = d.c[k];
            const uint64_t busy = held[c.i] | held[c.j];
            const int free = busy == ~uint64_t(0) ? kColours - 1 : std::countr_zero(~busy);
            held[c.i] |= uint64_t(1) << free;
            held[c.j] |= uint64_t(1) << free;
            colour[k - first] = uint8_t(free);
            ++count[free + 1];
        }
        for (int c = 0; c < kColours; ++c) count[c + 1] += count[c];
        for (uint32_t k = begin; k < end; ++k) order[begin - first + count[colour[k - first]]++] = k;
    }
    return order;
}

}  // namespace sim

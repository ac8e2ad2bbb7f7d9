// Graph colouring of the distance and sliding constraints for SMT-G and the
// hybrid solver (docs/model.md §6).
//
// Two constraints conflict when they write the same particle (kinematic
// particles, w = 0, are never written and do not conflict). A plain greedy
// colouring needs at least as many colours as the largest particle degree,
// and the internal structure has hubs: a branch point shared by a whole ring
// of spokes (48 on the built-in oval). Our remedy: every constraint touching
// a hub (degree above a threshold) joins that hub's *task*, run serially by
// one thread; tasks, not constraints, are coloured. The colour count then
// follows the surface mesh instead of the ring size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sim {

struct World;

// An item is a distance constraint index, or a sliding connection index with
// the top bit set.
constexpr uint32_t kSlidingItem = 0x80000000u;

struct ConstraintColoring {
    std::vector<uint32_t> task_offset;   // CSR: items of task t
    std::vector<uint32_t> task_items;
    std::vector<uint32_t> color_offset;  // CSR: tasks of colour c (colours sorted by size, largest first)
    std::vector<uint32_t> color_tasks;
    std::vector<uint32_t> color_items;   // constraints per colour
    // The items of every colour's tasks laid out in color_tasks order, so a
    // thread runs its share of a colour as one flat loop (the phase-by-phase
    // passes): task e of color_tasks holds
    // flat_items[flat_task_begin[e] .. flat_task_begin[e + 1]).
    std::vector<uint32_t> flat_items;
    std::vector<uint32_t> flat_task_begin;
    int colors_without_remedy = 0;       // plain greedy colouring of single constraints
    int hubs = 0;                        // particles whose constraints were grouped
    int colorCount() const { return int(color_offset.size()) - 1; }
};

// Greedy largest-degree-first colouring of tasks, then balanced so colours
// are close in size. `hub_degree`: particles with more constraints than this
// become hub tasks (0 disables the remedy).
ConstraintColoring colorConstraints(const World& w, int hub_degree = 16);

// The first `colors` colours of a colouring, muscle by muscle: muscle m's
// items are items[offset[m] .. offset[m + 1]), colour after colour (a
// colour's tasks in colour order, a task's items in task order).
//
// Distance constraints and sliding connections touch the particles of one
// muscle only, so the operations a colour-after-colour sweep applies to a
// muscle's particles are exactly its items in this order: running each
// muscle's list on one thread, muscles in parallel, gives the bits of the
// colour-after-colour sweep with one barrier per sweep instead of one per
// colour (18 on T7), and keeps a muscle's particles in cache from its first
// colour to its last.
struct MuscleSweep {
    std::vector<uint32_t> offset;
    std::vector<uint32_t> items;
};
MuscleSweep sweepByMuscle(const World& w, const ConstraintColoring& c, int colors);

// The muscle an item (distance constraint or sliding connection) belongs to.
uint32_t muscleOfItem(const World& w, uint32_t item);

// Empty when no two items of one colour write the same particle; otherwise
// a message naming the colour, the particle and the two constraints.
std::string verifyColoring(const World& w, const ConstraintColoring& c);

}  // namespace sim

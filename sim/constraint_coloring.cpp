#include "sim/constraint_coloring.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "sim/world.h"

namespace sim {

namespace {

constexpr uint32_t kNone = 0xffffffffu;

struct ItemParticles {
    uint32_t a, b;  // b = kNone for sliding connections
};

ItemParticles particlesOf(const World& w, uint32_t item) {
    if (item & kSlidingItem) return {w.sliding[item & ~kSlidingItem].particle, kNone};
    const auto& c = w.distances.c[item];
    return {c.i, c.j};
}

struct Tasks {
    std::vector<uint32_t> offset, items;
    int hubs = 0;
};

// Groups the items into tasks: one per hub particle (all its constraints),
// and one per remaining constraint.
Tasks buildTasks(const World& w, int hub_degree) {
    const size_t np = w.particles.size();
    const auto& W = w.particles.w;
    std::vector<uint32_t> all;
    all.reserve(w.distances.size() + w.sliding.size());
    for (uint32_t k = 0; k < w.distances.size(); ++k) all.push_back(k);
    for (uint32_t s = 0; s < w.sliding.size(); ++s) all.push_back(s | kSlidingItem);

    std::vector<uint32_t> degree(np, 0);
    for (uint32_t item : all) {
        auto [a, b] = particlesOf(w, item);
        if (W[a] > 0.0f) ++degree[a];
        if (b != kNone && W[b] > 0.0f) ++degree[b];
    }
    auto isHub = [&](uint32_t p) { return hub_degree > 0 && p != kNone && W[p] > 0.0f && degree[p] > uint32_t(hub_degree); };
    std::vector<uint32_t> hub_task(np, kNone);
    std::vector<std::vector<uint32_t>> task_lists;
    Tasks t;
    for (uint32_t item : all) {
        auto [a, b] = particlesOf(w, item);
        uint32_t hub = isHub(a) ? a : kNone;
        if (isHub(b) && (hub == kNone || b < hub)) hub = b;
        if (hub == kNone) {
            task_lists.push_back({item});
            continue;
        }
        if (hub_task[hub] == kNone) {
            hub_task[hub] = uint32_t(task_lists.size());
            task_lists.emplace_back();
            ++t.hubs;
        }
        task_lists[hub_task[hub]].push_back(item);
    }
    t.offset.push_back(0);
    for (const auto& l : task_lists) {
        t.items.insert(t.items.end(), l.begin(), l.end());
        t.offset.push_back(uint32_t(t.items.size()));
    }
    return t;
}

struct Coloring {
    std::vector<int> color;  // per task
    int count = 0;
};

// Greedy colouring, largest conflict degree first, then balanced by item count.
Coloring colorTasks(const World& w, const Tasks& t, bool balance) {
    const size_t np = w.particles.size();
    const size_t nt = t.offset.size() - 1;
    const auto& W = w.particles.w;
    // Writable particles of each task (deduplicated) and the particle → task incidence.
    std::vector<uint32_t> tp_offset{0}, tp;
    std::vector<uint32_t> stamp(np, kNone);
    for (uint32_t k = 0; k < nt; ++k) {
        for (uint32_t e = t.offset[k]; e < t.offset[k + 1]; ++e) {
            auto [a, b] = particlesOf(w, t.items[e]);
            for (uint32_t p : {a, b})
                if (p != kNone && W[p] > 0.0f && stamp[p] != k) {
                    stamp[p] = k;
                    tp.push_back(p);
                }
        }
        tp_offset.push_back(uint32_t(tp.size()));
    }
    std::vector<uint32_t> pt_offset(np + 1, 0), pt(tp.size());
    for (uint32_t p : tp) ++pt_offset[p + 1];
    for (size_t p = 0; p < np; ++p) pt_offset[p + 1] += pt_offset[p];
    {
        std::vector<uint32_t> cur(pt_offset.begin(), pt_offset.end() - 1);
        for (uint32_t k = 0; k < nt; ++k)
            for (uint32_t e = tp_offset[k]; e < tp_offset[k + 1]; ++e) pt[cur[tp[e]]++] = k;
    }
    auto forNeighbours = [&](uint32_t k, auto&& f) {
        for (uint32_t e = tp_offset[k]; e < tp_offset[k + 1]; ++e) {
            uint32_t p = tp[e];
            for (uint32_t q = pt_offset[p]; q < pt_offset[p + 1]; ++q)
                if (pt[q] != k) f(pt[q]);
        }
    };
    std::vector<uint32_t> degree(nt, 0);
    for (uint32_t k = 0; k < nt; ++k)
        for (uint32_t e = tp_offset[k]; e < tp_offset[k + 1]; ++e) degree[k] += pt_offset[tp[e] + 1] - pt_offset[tp[e]] - 1;
    std::vector<uint32_t> order(nt);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return degree[x] > degree[y]; });

    Coloring c;
    c.color.assign(nt, -1);
    std::vector<uint32_t> used;  // used[colour] == stamp of the task being coloured
    for (uint32_t k : order) {
        forNeighbours(k, [&](uint32_t n) {
            int col = c.color[n];
            if (col >= 0) {
                if (size_t(col) >= used.size()) used.resize(size_t(col) + 1, kNone);
                used[size_t(col)] = k;
            }
        });
        int col = 0;
        while (size_t(col) < used.size() && used[size_t(col)] == k) ++col;
        c.color[k] = col;
        c.count = std::max(c.count, col + 1);
    }
    if (!balance || c.count < 2) return c;

    // Balance: move tasks out of colours above the mean item count into the
    // smallest colour that has room and no conflicting neighbour.
    std::vector<size_t> size(size_t(c.count), 0);
    auto items = [&](uint32_t k) { return size_t(t.offset[k + 1] - t.offset[k]); };
    size_t total = 0;
    for (uint32_t k = 0; k < nt; ++k) {
        size[size_t(c.color[k])] += items(k);
        total += items(k);
    }
    const size_t target = (total + size_t(c.count) - 1) / size_t(c.count);
    std::vector<uint8_t> blocked(size_t(c.count));
    for (uint32_t k = 0; k < nt; ++k) {
        int from = c.color[k];
        if (size[size_t(from)] <= target) continue;
        std::fill(blocked.begin(), blocked.end(), 0);
        forNeighbours(k, [&](uint32_t n) { blocked[size_t(c.color[n])] = 1; });
        int best = -1;
        for (int col = 0; col < c.count; ++col)
            if (!blocked[size_t(col)] && col != from && size[size_t(col)] + items(k) <= target &&
                (best < 0 || size[size_t(col)] < size[size_t(best)]))
                best = col;
        if (best < 0) continue;
        size[size_t(from)] -= items(k);
        size[size_t(best)] += items(k);
        c.color[k] = best;
    }
    return c;
}

}  // namespace

ConstraintColoring colorConstraints(const World& w, int hub_degree) {
    ConstraintColoring out;
    Tasks plain = buildTasks(w, 0);
    out.colors_without_remedy = colorTasks(w, plain, false).count;
    Tasks tasks = hub_degree > 0 ? buildTasks(w, hub_degree) : std::move(plain);
    Coloring col = colorTasks(w, tasks, true);
    out.hubs = tasks.hubs;
    out.task_offset = std::move(tasks.offset);
    out.task_items = std::move(tasks.items);

    // Colours sorted by item count, largest first (the hybrid takes the first k − 1).
    const size_t nt = out.task_offset.size() - 1;
    std::vector<size_t> items(size_t(col.count), 0);
    for (uint32_t k = 0; k < nt; ++k) items[size_t(col.color[k])] += out.task_offset[k + 1] - out.task_offset[k];
    std::vector<int> rank(size_t(col.count));
    std::iota(rank.begin(), rank.end(), 0);
    std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) { return items[size_t(a)] > items[size_t(b)]; });
    std::vector<int> position(size_t(col.count));
    for (int r = 0; r < col.count; ++r) position[size_t(rank[size_t(r)])] = r;
    out.color_offset.assign(size_t(col.count) + 1, 0);
    for (uint32_t k = 0; k < nt; ++k) ++out.color_offset[size_t(position[size_t(col.color[k])]) + 1];
    for (int r = 0; r < col.count; ++r) out.color_offset[size_t(r) + 1] += out.color_offset[size_t(r)];
    out.color_tasks.resize(nt);
    std::vector<uint32_t> cur(out.color_offset.begin(), out.color_offset.end() - 1);
    for (uint32_t k = 0; k < nt; ++k) out.color_tasks[cur[size_t(position[size_t(col.color[k])])]++] = k;
    for (int r = 0; r < col.count; ++r) out.color_items.push_back(uint32_t(items[size_t(rank[size_t(r)])]));
    out.flat_task_begin.assign(1, 0);
    for (uint32_t task : out.color_tasks) {
        for (uint32_t i = out.task_offset[task]; i < out.task_offset[task + 1]; ++i) out.flat_items.push_back(out.task_items[i]);
        out.flat_task_begin.push_back(uint32_t(out.flat_items.size()));
    }
    return out;
}

uint32_t muscleOfItem(const World& w, uint32_t item) {
    return item & kSlidingItem ? w.particles.muscle[w.sliding[item & ~kSlidingItem].particle] : w.distances.muscle[item];
}

MuscleSweep sweepByMuscle(const World& w, const ConstraintColoring& c, int colors) {
    const size_t nm = w.muscles.size();
    const int last = std::clamp(colors, 0, c.colorCount());
    auto forItems = [&](auto&& f) {
        for (uint32_t e = 0; e < c.color_offset[size_t(last)]; ++e) {
            const uint32_t task = c.color_tasks[e];
            for (uint32_t i = c.task_offset[task]; i < c.task_offset[task + 1]; ++i) f(c.task_items[i]);
        }
    };
    MuscleSweep s;
    s.offset.assign(nm + 1, 0);
    forItems([&](uint32_t item) { ++s.offset[muscleOfItem(w, item) + 1]; });
    for (size_t m = 0; m < nm; ++m) s.offset[m + 1] += s.offset[m];
    s.items.resize(s.offset[nm]);
    std::vector<uint32_t> cur(s.offset.begin(), s.offset.end() - 1);
    forItems([&](uint32_t item) { s.items[cur[muscleOfItem(w, item)]++] = item; });
    return s;
}

std::string verifyColoring(const World& w, const ConstraintColoring& c) {
    const size_t np = w.particles.size();
    std::vector<uint32_t> owner(np, kNone), owner_item(np, kNone);
    std::vector<uint32_t> seen_color(np, kNone);
    size_t covered = 0;
    for (int col = 0; col < c.colorCount(); ++col) {
        for (uint32_t e = c.color_offset[size_t(col)]; e < c.color_offset[size_t(col) + 1]; ++e) {
            uint32_t task = c.color_tasks[e];
            for (uint32_t i = c.task_offset[task]; i < c.task_offset[task + 1]; ++i) {
                uint32_t item = c.task_items[i];
                ++covered;
                auto [a, b] = particlesOf(w, item);
                for (uint32_t p : {a, b}) {
                    if (p == kNone || w.particles.w[p] == 0.0f) continue;
                    if (seen_color[p] == uint32_t(col) && owner[p] != task) {
                        std::ostringstream os;
                        os << "colour " << col << ": particle " << p << " is written by constraint " << owner_item[p]
                           << " and constraint " << item << " of another task";
                        return os.str();
                    }
                    seen_color[p] = uint32_t(col);
                    owner[p] = task;
                    owner_item[p] = item;
                }
            }
        }
    }
    if (covered != w.distances.size() + w.sliding.size()) {
        std::ostringstream os;
        os << "the colouring covers " << covered << " constraints of " << w.distances.size() + w.sliding.size();
        return os.str();
    }
    return {};
}

}  // namespace sim

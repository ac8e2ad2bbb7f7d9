// Per-substep contact search (SPEC §4.5) and sliding re-projection (§4.6):
// a hashed uniform grid over the current triangles of every contact/sliding
// target (bone meshes in their substep transform, muscle surfaces at p), then
// an independent closest-point query per particle, run in parallel and
// written to per-particle slots so the result is the same for any thread count.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/scene_desc.h"

namespace sim {

struct World;

class ContactSearch {
public:
    // Sizes the buffers for a world (called once per topology).
    void prepare(const World& w);
    // Rebuilds the grid from the current target positions and fills
    // w.contacts (and resets their λ). `search` is the signed distance within
    // which a particle gets a contact (projected only while C < 0).
    void findContacts(World& w, float search);
    // Moves each sliding connection's q to the closest target point near p.
    void updateSliding(World& w) const;

private:
    struct Tri {
        glm::vec3 a, b, c;
        TargetDesc owner;
    };
    struct Slot {
        glm::vec3 q, n;
        float d;
        int32_t valid;
    };
    static constexpr int kSlots = 2;  // contacts kept per particle (closest targets)

    uint64_t cellKey(glm::vec3 p) const;
    void buildGrid(const World& w, float search);
    template <typename F>
    void forCandidates(glm::vec3 p, F&& f) const;

    float cell_ = 0.01f;
    std::vector<Tri> tris_;
    std::vector<std::pair<uint64_t, uint32_t>> entries_;  // (cell key, triangle), sorted
    std::vector<Slot> slots_;                             // kSlots per particle
    std::vector<uint8_t> wants_;                          // particle has contact targets
};

}  // namespace sim

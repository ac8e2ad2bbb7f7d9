// Per-substep contact search (docs/model.md §3.5) and sliding re-projection (§3.7).
//
// Every contact/sliding target (a bone mesh in its substep transform, or a
// muscle surface at the predicted positions p) contributes its triangles,
// with angle-weighted pseudo-normals so inside/outside is decided reliably
// near edges and corners. Triangles go into a hashed uniform grid built by a
// counting sort (linear time, deterministic). Each particle then queries its
// cell independently, in parallel, writing to its own slots; a sequential
// compaction in particle order gives the same contact list for any thread
// count.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/geometry.h"
#include "sim/scene_desc.h"

namespace sim {

struct World;

class ContactSearch {
public:
    // Derives the static target topology for a world (once per topology).
    void prepare(const World& w);
    // Rebuilds the grid from the current target positions and fills
    // w.contacts (their λ reset). A particle gets a contact with a target when
    // its signed distance to it is below `search` (bone capsules: 3·search,
    // and at any depth; projected only while C < 0) and, for a muscle target,
    // above −muscle_depth.
    void findContacts(World& w, float search, float muscle_depth);
    // Moves each sliding connection's q to the closest target point near p.
    void updateSliding(World& w) const;

private:
    struct Target {
        TargetDesc desc;
        std::vector<glm::uvec3> tris;       // indices into this target's vertices
        std::vector<glm::uvec3> neighbour;  // triangle across edge ab, bc, ca
        uint32_t vertex_count = 0;
        uint32_t first_particle = 0;        // muscles: particle of vertex 0
        uint32_t tri_offset = 0;            // into tris_
        glm::vec3 lo{0.0f}, hi{0.0f};       // current bounds (expanded by search)
        // A bone given as a capsule (no mesh): its closest point is exact.
        bool capsule() const { return desc.kind == TargetDesc::Kind::Body && tris.empty(); }
    };
    struct Tri {
        glm::vec3 a, b, c;
        TriNormals normals;
        uint32_t target;  // index into targets_
    };
    // What the candidate loop reads first, compact and parallel to tris_:
    // the target (most candidates in a cell belong to the particle's own
    // muscle, not a target) and a bounding sphere (a particle farther than
    // search + radius from the centre cannot be within the band).
    struct TriBound {
        glm::vec3 centre;
        float radius;
        uint32_t target;
    };
    struct Slot {
        glm::vec3 q, n;
        int32_t valid;
        uint32_t tissue;  // 0: a bone; else 1 + the index of the muscle it touches (Contact::tissue)
        int32_t capsule_body;  // a bone capsule (exact at projection) or −1
    };
    static constexpr int kSlots = 3;  // contacts kept per particle (at an elbow: three bones)

    int targetIndex(const TargetDesc& t) const;
    void buildTriangles(const World& w, float search);
    void buildGrid(float search);
    uint32_t bucketOf(glm::vec3 p) const;
    // Calls f(tri) for the triangles hashed with p's cell whose target
    // passes `wanted` and that can be within `search` of p.
    template <typename Wanted, typename F>
    void forCandidates(glm::vec3 p, float search, Wanted&& wanted, F&& f) const;

    std::vector<Target> targets_;
    std::vector<std::vector<uint32_t>> muscle_targets_;  // per muscle: its contact targets (indices)
    std::vector<std::vector<uint8_t>> muscle_wants_;     // per muscle, per target: 1 if it is one of them
    std::vector<glm::vec3> positions_;                   // scratch: one target's current vertices
    std::vector<glm::vec3> vertex_normals_;              // scratch: angle-weighted vertex normals
    std::vector<glm::vec3> face_normals_;                // scratch: one target's face normals
    std::vector<Tri> tris_;
    std::vector<TriBound> bounds_;
    float cell_ = 0.01f;
    float search_ = 0.01f;
    uint32_t bucket_mask_ = 0;
    std::vector<uint32_t> bucket_start_;  // counting-sort offsets, size buckets + 1
    std::vector<uint32_t> entries_;       // triangle indices grouped by bucket
    std::vector<glm::ivec3> tri_cells_;  // per triangle: its lowest and highest grid cell
    std::vector<uint32_t> entry_bucket_;  // scratch: bucket of each entry, in insertion order
    std::vector<uint32_t> entry_cursor_;  // scratch: fill position per bucket
    std::vector<Slot> slots_;             // kSlots per particle
};

}  // namespace sim

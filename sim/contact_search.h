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
    // The bones' band as a multiple of the search band: capsules are offered
    // within it, and bone meshes found within it by a vertex inside them.
    static constexpr float kBoneBandFactor = 3.0f;
    // Derives the static target topology for a world (once per topology).
    void prepare(const World& w);
    // Rebuilds the grid from the current target positions and fills
    // w.contacts (their λ reset). A particle gets a contact with a target when
    // its signed distance to it is below `search` (bone capsules: 3·search,
    // and at any depth; projected only while C < 0) and, for a muscle target,
    // above −muscle_depth. `anchors`: record where each plane lies on its
    // triangle, which only refresh() reads — false when the next call is a
    // search again (one substep per frame, or a search at every substep),
    // which saves a frame and a barycentric solve per contact.
    void findContacts(World& w, float search, float muscle_depth, bool anchors = true);
    // Moves each sliding connection's q to the closest target point within
    // `reach` of p (a connection holds its vertex up to the scene's sliding
    // radius away, which may be more than the contact band); `anchors` as
    // for findContacts.
    void updateSliding(World& w, float reach, bool anchors = true);
    // Between two searches (docs/model.md §3.6 "Search once per frame"): keeps
    // the contact list and the sliding connections' triangles, and moves each
    // plane (q, n) with the triangle it was found on — a bone mesh rigidly
    // with its bone, a muscle triangle with its current vertices; the bone
    // capsules are offered again from each vertex's current position.
    void refresh(World& w);

private:
    // One target's triangles in a hashed uniform grid: each triangle listed
    // in every cell its bounds padded by the search band touch, so a point
    // within the band of a triangle finds it in its own cell's bucket.
    struct Grid {
        float inv_cell = 0.0f;              // 1 / cell (0: one cell for everything)
        uint32_t mask = 0;                  // buckets − 1
        uint32_t largest = 0;               // the largest bucket's size
        std::vector<uint32_t> start;        // per bucket its first entry, size buckets + 1
        std::vector<uint32_t> entries;      // tris_ indices grouped by bucket
        std::vector<glm::ivec3> cells;      // scratch: per triangle its lowest and highest cell
        std::vector<uint32_t> bucket_of_entry;  // scratch: in triangle order
        uint32_t bucketOf(glm::vec3 p) const;
    };
    struct Target {
        TargetDesc desc;
        std::vector<glm::uvec3> tris;       // indices into this target's vertices
        std::vector<glm::uvec3> neighbour;  // triangle across edge ab, bc, ca
        uint32_t vertex_count = 0;
        uint32_t first_particle = 0;        // muscles: particle of vertex 0
        uint32_t tri_offset = 0;            // into tris_
        glm::vec3 lo{0.0f}, hi{0.0f};       // current bounds (expanded by search)
        Grid grid;
        // A bone given as a capsule (no mesh): its closest point is exact.
        bool capsule() const { return desc.kind == TargetDesc::Kind::Body && tris.empty(); }
        bool boneMesh() const { return desc.kind == TargetDesc::Kind::Body && !tris.empty(); }
        // How far from its triangles a point finds them (the grid's padding):
        // a bone mesh within the bone band, so a vertex deeper inside the
        // bone than the search band is still pushed out (docs/model.md §3.6),
        // as a capsule's is; a muscle within the search band.
        float band(float search) const { return boneMesh() ? kBoneBandFactor * search : search; }
    };
    struct Tri {
        glm::vec3 a, b, c;
        TriNormals normals;
        uint32_t target;  // index into targets_
        glm::uvec3 v;     // the target's own vertex indices
    };
    static constexpr int kSlots = 3;  // contacts kept per particle (at an elbow: three bones)
    // What the candidate loop reads first, compact and parallel to tris_: a
    // bounding sphere (a particle farther than search + radius from the
    // centre cannot be within the band) and the triangle's plane.
    struct TriBound {
        glm::vec3 centre;
        float radius;
        glm::vec3 normal;  // the face normal and the plane's offset: dot(normal, x) = offset
        float offset;
    };
    // Where a contact or sliding plane was found, so refresh() can move it
    // with its target: the triangle (global particles of a muscle, or a bone
    // mesh's own vertices), q's barycentric coordinates and n in the
    // triangle's frame (muscle) or the bone's frame (mesh).
    struct Anchor {
        enum Kind : uint8_t { Exact, MuscleTriangle, BoneMesh } kind = Exact;
        int32_t body = -1;
        glm::uvec3 v{0};
        glm::vec3 bary{0.0f};
        glm::vec3 n_local{0.0f};
    };
    struct Slot {
        glm::vec3 q, n;
        int32_t valid;
        uint32_t target;  // index into targets_ (Contact::tissue and capsule_body follow from it)
        Anchor anchor;    // where q lies (Exact for a capsule)
    };

    int targetIndex(const TargetDesc& t) const;
    // Every target's triangles, bounds and grid at the current positions.
    void buildTargets(const World& w, float search);
    void buildGrid(Target& T, float search);
    Anchor anchorOf(const World& w, const Tri& t, glm::vec3 q, glm::vec3 n) const;
    // The kSlots targets a particle keeps while they are chosen (offer()).
    struct Choice {
        uint32_t target[kSlots] = {};
        uint32_t tri[kSlots] = {};  // tris_ index; ~0u: none (a capsule, or a slot kept by refresh)
        ClosestPoint point[kSlots];
        Anchor anchor[kSlots];
    };
    // A triangle that passed the cheap tests of gatherTriangles' first pass.
    struct Candidate {
        uint32_t k;   // tris_ index
        float lower;  // a lower bound of the distance to it (first the squared distance to the centroid)
        float plane;  // the distance to the triangle's plane
    };
    void gatherTriangles(glm::vec3 p, const std::vector<uint32_t>& targets, float search, float bone_band, Choice& ch,
                         Candidate* scratch) const;
    void offer(Choice& ch, uint32_t t, const ClosestPoint& c, uint32_t tri, float search, float bone_band) const;
    // Writes the accepted choices into particle i's slots.
    // `anchors`: as for findContacts (a slot on a triangle found now gets
    // its anchor only when a refresh may follow).
    void keep(World& w, size_t i, const Choice& ch, float search, float bone_band, float muscle_depth, bool anchors);
    // The contact list from the slots, in particle order, bones last in each run.
    void compact(World& w);
    // The plane of an anchor at the current positions (q, n unchanged for Exact).
    void placeAnchor(const World& w, const Anchor& a, glm::vec3& q, glm::vec3& n) const;
    // Calls f(tri) for the triangles of `target` hashed with p's cell that
    // can be within `search` of p.
    template <typename F>
    void forCandidates(glm::vec3 p, uint32_t target, float search, F&& f) const;

    std::vector<Target> targets_;
    std::vector<std::vector<uint32_t>> muscle_targets_;  // per muscle: its contact targets (indices)
    std::vector<std::vector<uint32_t>> muscle_mesh_targets_;  // per muscle: its triangle targets, ascending
    std::vector<glm::vec3> positions_;                   // scratch: one target's current vertices
    std::vector<glm::vec3> vertex_normals_;              // scratch: angle-weighted vertex normals
    std::vector<glm::vec3> face_normals_;                // scratch: one target's face normals
    std::vector<Tri> tris_;
    std::vector<TriBound> bounds_;
    float search_ = 0.01f;
    std::vector<Candidate> scratch_;      // per thread: gatherTriangles' candidates
    size_t scratch_stride_ = 0;
    std::vector<Slot> slots_;             // kSlots per particle
    std::vector<uint32_t> first_contact_;  // compact(): per particle, its first contact (prefix of counts)
    std::vector<uint32_t> first_run_;      // compact(): per particle, its run (prefix of particles with contacts)
    std::vector<Anchor> sliding_anchors_;  // per w.sliding entry
    std::vector<glm::mat3> body_normal_;   // per body: inverse-transpose of `now`'s linear part
};

}  // namespace sim

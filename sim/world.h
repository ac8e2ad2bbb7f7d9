// The simulated world: structure-of-arrays particles for all muscles, muscles
// as index ranges, kinematic bodies, and every constraint family as a flat
// array of small PODs plus its per-constraint λ (docs/model.md §1, §3).
// This is data only; stepping lives in sim::Simulation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/envelope.h"
#include "sim/geometry.h"
#include "sim/params.h"
#include "sim/scene_desc.h"

namespace sim {

struct Particles {
    std::vector<glm::vec3> x;      // position at the start of the substep / frame
    std::vector<glm::vec3> p;      // prediction (what constraints move)
    std::vector<glm::vec3> v;      // velocity
    std::vector<glm::vec3> rest;   // bind-pose position
    std::vector<glm::vec3> fiber;  // unit fibre direction f̂ (docs/model.md §4)
    std::vector<float> w;          // inverse mass used by the solver (0 = kinematic)
    std::vector<float> w_free;     // inverse mass from the muscle's mass
    std::vector<uint32_t> muscle;  // owning muscle
    std::vector<uint8_t> branch;   // 1 for internal-structure branch points
    // The (up to) two bones that carry a particle: its muscle's attachment
    // bones nearest to it at rest (−1: none), and the first one's weight.
    std::vector<glm::ivec2> carrier;
    std::vector<float> carrier_weight;
    size_t size() const { return x.size(); }
    void resize(size_t n);
};

struct Muscle {
    std::string name;
    uint32_t first = 0;          // first particle (surface vertices first ...)
    uint32_t surface_count = 0;
    uint32_t branch_count = 0;   // ... then the internal-structure branch points
    uint32_t tri_begin = 0, tri_count = 0;  // into World::triangles
    std::vector<std::vector<uint32_t>> origin_sets, insertion_sets;  // global particle indices
    std::vector<TargetDesc> contact_targets, sliding_targets;
    float a0 = 0.0f;             // initial activation
    float overpressure = 0.0f;   // κ
    float activation = 0.0f;     // current (filtered) activation a
    float target_activation = 0.0f;
    float rest_volume = 0.0f;    // m³
    float rest_length = 0.0f;    // origin-centroid ↔ insertion-centroid, m
    float mean_edge = 0.0f;      // mean rest length of the surface edges, m
    FamilyStiffness stiffness = FamilyStiffness::unset();  // overrides (<0 = default)
    uint32_t particleEnd() const { return first + surface_count + branch_count; }
};

// What a caller of Body::capsuleAxisFartherThan adds to the distance it asks
// about so that the skipped exact evaluation would certainly have given a
// value past it: 0.1 mm, hundreds of times the rounding of a closest point on
// a capsule for positions within metres of the origin.
inline constexpr float kCapsuleSkipMargin = 1.0e-4f;

struct Body {
    std::string name;
    glm::mat4 prev{1.0f}, curr{1.0f};  // transform at frame start / frame end
    glm::mat4 now{1.0f};               // interpolated for the current substep
    std::vector<glm::vec3> vertices;   // body-local collision mesh
    std::vector<glm::uvec3> triangles;
    glm::vec3 capsule_a{0.0f}, capsule_b{0.0f};
    float capsule_radius = 0.0f;
    // Collides as its capsule: no mesh, and a radius (a NaN one is none).
    bool collidesAsCapsule() const { return triangles.empty() && capsule_radius > 0.0f; }
    // The capsule's ends in the `now` transform: the contact projections ask
    // for them at every iteration, so they are placed once per substep.
    glm::vec3 capsule_now_a{0.0f}, capsule_now_b{0.0f};
    // Sets `now` (and the capsule's placed ends): the one way to move a body.
    void setNow(const glm::mat4& m) {
        now = m;
        capsule_now_a = glm::vec3(m * glm::vec4(capsule_a, 1.0f));
        capsule_now_b = glm::vec3(m * glm::vec4(capsule_b, 1.0f));
    }
    // Whether p lies farther than `reach` from the placed capsule's axis
    // segment, by squared distances (no square root): lets a caller skip
    // the exact closest point where its answer is known to change nothing
    // (with kCapsuleSkipMargin added to the reach it asks about). False for
    // a NaN position.
    bool capsuleAxisFartherThan(glm::vec3 p, float reach) const {
        const glm::vec3 d = p - closestOnSegment(p, capsule_now_a, capsule_now_b);
        return glm::dot(d, d) > reach * reach;
    }
    // Rigid motion over the current substep (now · now_before⁻¹) and over the
    // substep before it: their difference is the bone's acceleration.
    glm::mat4 step_motion{1.0f}, last_step_motion{1.0f};
};

enum class DistanceKind : uint8_t { Surface, Spoke, Medulla };

// Hot data of a distance constraint: what the projection kernel reads.
struct DistanceConstraint {
    uint32_t i, j;
    float rest;         // σ̂ for the current activation (docs/model.md §3.1)
    float alpha_tilde;  // α/Δt² (XPBD) or 0 (PBD)
    float scale;        // 1 (XPBD) or k' (PBD)
};

// Surface-edge (fibre family) constraints of every muscle come first, then the
// spokes and medulla links (structure family), so each family is one range.
struct DistanceSet {
    std::vector<DistanceConstraint> c;
    size_t structure_begin = 0;  // first structure-family constraint
    std::vector<float> lambda;
    // Cold data used once per frame to compute `rest`.
    std::vector<glm::vec3> rest_edge;  // r_i − r_j in the bind pose
    std::vector<glm::vec3> fiber;      // averaged fibre direction of the edge ("projected")
    std::vector<glm::vec3> phi;        // φ of the edge ("paper", docs/model.md §3.1)
    std::vector<uint32_t> muscle;
    std::vector<DistanceKind> kind;
    size_t size() const { return c.size(); }
};

// One volume constraint per muscle, over the muscle's triangles (docs/model.md §3.2).
struct VolumeConstraint {
    uint32_t muscle;
    float target;       // 6·V0·(1 + κ·a)
    float alpha_tilde;
    float scale;
};

struct Attachment {
    uint32_t particle;
    uint32_t body;
    glm::vec3 local;  // body-local point that coincides with the rest position
};

struct Plane {
    glm::vec3 origin{0.0f};
    glm::vec3 normal{0.0f, 1.0f, 0.0f};
};

// A non-penetration contact found this substep: C = (p − q)·n − r ≥ 0.
struct Contact {
    uint32_t particle;
    glm::vec3 q;
    glm::vec3 n;
    // 0: the target is a bone (Family::Contact); else another muscle
    // (Family::Tissue), whose index is tissue − 1.
    uint32_t tissue;
    // A bone capsule (index into World::bodies) is re-evaluated exactly where
    // the vertex is at each projection; −1: the plane (q, n) found by the
    // search (a muscle's surface, a bone mesh) stands for the surface.
    int32_t capsule_body;
};

// A sliding connection: C = |p − q| − d0, q re-projected every substep.
// C = (p − q)·n − d0: the vertex keeps its signed distance d0 from the
// target's surface (n: the outward normal at q) and slides freely along it.
// Signed, so a connection can never pull a vertex through to the other side
// of the surface (with C = |p − q| − d0, a vertex set up just inside a bone
// could settle just outside it: the supinator, set up partly inside the
// radius, was crushed inside out in T6).
struct SlidingConnection {
    uint32_t particle;
    TargetDesc target;
    float d0;
    glm::vec3 q, n;
};

struct World {
    std::string name;
    float gravity_scale = 1.0f;  // from SceneDesc
    Particles particles;
    std::vector<Muscle> muscles;
    std::vector<glm::uvec3> triangles;  // global particle indices, all muscles
    std::vector<Body> bodies;
    std::vector<Plane> planes;

    DistanceSet distances;                 // fibre (surface) + structure (spokes, medulla)
    std::vector<VolumeConstraint> volumes;
    std::vector<float> volume_lambda;
    std::vector<Attachment> attachments;
    std::vector<Contact> contacts;         // rebuilt every substep, in particle order
    std::vector<float> contact_lambda;
    std::vector<uint32_t> contact_runs;    // start of each particle's contacts, + end
    std::vector<SlidingConnection> sliding;
    std::vector<float> sliding_lambda;
    std::vector<float> plane_lambda;       // planes.size() × particles
    Envelope envelope;                     // the fascia around the muscles (inactive: none)

    size_t surfaceVertexCount() const;
    size_t branchPointCount() const;
    int muscleIndex(std::string_view name) const;  // −1 when absent
};

// Centroid of root vertex sets (global particle indices) in positions X.
glm::vec3 rootCentroid(const std::vector<glm::vec3>& X, const std::vector<std::vector<uint32_t>>& sets);
// Six times the volume enclosed by muscle m's surface in positions X, summed
// in double relative to its first vertex (float precision far from the origin).
double muscleVolume6(const World& w, const Muscle& m, const std::vector<glm::vec3>& X);

// Builds a world from a scene description: particles, internal structure,
// every constraint family. Returns an error message (empty on success).
std::string buildWorld(const SceneDesc& scene, World& out);

}  // namespace sim

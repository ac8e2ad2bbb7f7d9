// The fascia envelope (docs/model.md §3.8): the skin's surface, posed with
// the skeleton every frame, that keeps every muscle inside the limb.
//
// Each free surface vertex of a muscle is bound to the envelope triangle it
// faces. At every substep the envelope is interpolated between the frame's
// start and end poses, each vertex walks from its triangle to the closest one
// (a local walk over the mesh, guided by the feature its closest point lies
// on: across an edge, or around a vertex), and the plane found there (q, n)
// holds it at least `margin` inside: C = (q − p)·n − margin ≥ 0, one-sided and
// compliant (Family::Fascia), moving only the muscle's own vertex against a
// surface fixed for the substep — so it fits the muscle-by-muscle solve of
// every solver mode as the contacts do.
//
// The walk starts where the last one ended (the triangle is part of the
// state, sim/state.h), so it takes one or two steps; a fresh global search
// runs only at load.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/geometry.h"
#include "sim/scene_desc.h"

namespace sim {

struct World;

struct Envelope {
    std::string name;
    float thickness = 0.0f;
    float stiffness_scale = 1.0f;            // EnvelopeDesc::stiffness_scale
    std::vector<glm::vec3> rest;             // bind pose
    std::vector<glm::vec3> prev, curr, now;  // frame start, frame end, this substep
    std::vector<glm::uvec3> triangles;
    std::vector<glm::uvec3> across;          // per triangle: the triangle across edge ab, bc, ca (~0u: a border)
    std::vector<uint32_t> ring_begin, ring;  // vertex → its triangles (CSR)
    // Per particle (−1 / unused for branch points and attached vertices).
    std::vector<int32_t> tri;     // the triangle it faces
    std::vector<float> margin;    // how deep inside it is held (m; negative: it may lie that far outside)
    std::vector<glm::vec3> q, n;  // this substep's plane: the closest point and the outward normal there
    std::vector<float> lambda;
    // Per muscle: the bones given as capsules among its contact targets
    // (CSR): where the envelope would press a vertex into one of them, it
    // yields (placeEnvelope).
    std::vector<uint32_t> capsule_begin, capsules;
    // Which skin holds which muscle: per envelope vertex the body its
    // skinning follows most (−1: unknown), and per muscle a bit set over the
    // bodies (`body_words` words each) of its own bones: those it is
    // attached to and those it touches or slides on. A muscle binds and
    // walks only on triangles with a corner carried by one of them, so where
    // the skin's pieces cross (an arm's through the trunk's, a hand's
    // through a thigh's) it is not held by another limb's skin.
    std::vector<int32_t> vertex_body;
    uint32_t body_words = 0;
    std::vector<uint64_t> muscle_bodies;
    bool active() const { return !triangles.empty(); }
    // Whether triangle t may hold muscle `muscle`'s vertices (kAnyMuscle:
    // every triangle, as the diagnostics and the drawn skin read it).
    bool holds(uint32_t muscle, uint32_t t) const;
};

inline constexpr uint32_t kAnyMuscle = ~0u;

// The envelope's geometry alone (vertices in every pose slot, triangles, the
// vertex → triangle rings, the triangles across each edge), with no
// particles bound: what the generator's skin fit measures against.
std::string buildEnvelopeGeometry(const EnvelopeDesc& desc, Envelope& e);

// Builds w.envelope from the scene's description and binds every free
// surface vertex to its closest triangle in the bind pose. Call after the
// particles exist. Returns an error message (empty on success).
std::string buildEnvelope(const EnvelopeDesc& desc, World& w);

// The closest point of the envelope in positions `V` to p on triangle t,
// with the outward normal (pseudo-normals at edges and vertices, so the sign
// is right around corners) and the signed distance (negative inside).
ClosestPoint envelopeClosestOn(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t t, glm::vec3 p,
                               TriFeature& feature);
// The exact closest triangle of the envelope in positions V, through a
// hashed grid of the triangles (built once for a pose: binding at load, the
// diagnostics). Not for the step: a vertex's walk serves it.
class EnvelopeGrid {
public:
    EnvelopeGrid(const Envelope& e, const std::vector<glm::vec3>& V);
    // The triangle closest to p (~0u when the envelope is empty or p is not
    // finite) and the closest point on it.
    uint32_t closest(glm::vec3 p, ClosestPoint& out, uint32_t muscle = kAnyMuscle) const;
    // The same over `shells` rings of grid cells around p (each about two
    // mean edges wide): the closest triangle found there (~0u: none), and
    // `proven` whether no triangle beyond them can be closer.
    // `muscle`: only the triangles that may hold that muscle (Envelope::holds).
    uint32_t closestWithin(glm::vec3 p, int shells, ClosestPoint& out, bool& proven,
                           uint32_t muscle = kAnyMuscle) const;
    // Whether p lies so far from the envelope's bounds that closest() would
    // read every triangle; `distance`: how far outside the bounds it is.
    bool far(glm::vec3 p, float& distance) const;

private:
    glm::ivec3 cellOf(glm::vec3 p) const;
    static uint64_t key(glm::ivec3 c);
    const Envelope& e_;
    const std::vector<glm::vec3>& V_;
    glm::vec3 lo_{0.0f}, hi_{0.0f};
    float cell_ = 1.0f;
    int rings_ = 0;
    // The cells that hold triangles, flat: their keys ascending, each one's
    // triangles (ascending) in tris_[begin_[c], begin_[c + 1]), and an
    // open-addressing table (slot → cell + 1, 0: empty) to find a key: one
    // probe or two per cell a search reads, no allocation per cell.
    const uint32_t* cell(uint64_t key, uint32_t& count) const;
    // Per triangle its bounding sphere (centre, radius): a triangle whose
    // sphere lies farther than the best so far is not read.
    std::vector<glm::vec4> spheres_;
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> begin_, tris_, slots_;
    uint64_t slot_mask_ = 0;
};

// Walks from triangle t to the triangle of the envelope in positions V
// closest to p (a local minimum of the distance: across the edge, or around
// the vertex, the closest point lies on, while that gets strictly closer).
// Returns the triangle; `out`: the closest point on it. `muscle`: steps only
// onto triangles that may hold that muscle (Envelope::holds).
uint32_t envelopeWalk(const Envelope& e, const std::vector<glm::vec3>& V, uint32_t t, glm::vec3 p, ClosestPoint& out,
                      uint32_t muscle = kAnyMuscle);

// The closest point c of the envelope in positions V to p as the
// diagnostics take it: exact near the skin and for an unbound vertex
// (through `grid`, built on V); deeper in, a bound vertex's walk from its
// triangle `bound` (−1: none), whose answer stands. Returns the triangle
// (~0u: none).
uint32_t locateOnEnvelope(const Envelope& e, const std::vector<glm::vec3>& V, const EnvelopeGrid& grid, int32_t bound,
                          glm::vec3 p, ClosestPoint& c);

// How far muscle surface vertices lie outside the envelope (a diagnostic:
// docs/model.md §8): for every free surface vertex, its signed distance to the
// envelope in positions V, exact (its closest triangle, signed by the
// pseudo-normals).
struct EnvelopeOutside {
    float deepest = 0.0f;  // m outside (0: none outside)
    int particle = -1;
    int muscle = -1;
    int vertices = 0;           // free surface vertices measured
    int vertices_past_1mm = 0;  // of them, more than 1 mm outside
    int vertices_past_2mm = 0;  // of them, more than 2 mm outside
    std::vector<float> muscle_deepest;  // per muscle, m outside (0: none)
};
// `attached`: measure the attached surface vertices too (the drawn skin
// covers every vertex; the envelope holds only the free ones).
// `per_vertex`: also each particle's distance outside (m; 0 where it is
// inside, not measured, or the world has no envelope), for the viewer's map.
EnvelopeOutside measureOutside(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::vec3>& V,
                               bool attached = false, std::vector<float>* per_vertex = nullptr);

// This substep's envelope (interpolated at `frame_fraction` between the
// frame's start and end poses) and every bound vertex's plane on it, from
// the predicted positions. Parallel over vertices; the same bits for any
// thread count.
// `contact_radius`: the bones' contact offset r (a plane that would hold a
// vertex within r of a bone's capsule is dropped for the substep).
void placeEnvelope(World& w, float frame_fraction, float contact_radius);

}  // namespace sim

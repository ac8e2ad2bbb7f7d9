// Taking the folds out of the generated muscle meshes (docs/anatomy.md
// "Mesh quality"). Packing moves each ring vertex along its own ray, so rings
// stay star-shaped about their centres, but where a path bends sharper than
// the muscle is thick, or a tendon end's rings were stepped off a shared
// attachment, the quads between rings fold through each other; and the two
// heads of a two-headed loft overlap where they merge.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/mesh/mesh_builders.h"

namespace engine {

// Two-headed lofts (chains: belly, head A, head B): every head vertex on the
// far side of a separating plane is set back on its own side, `gap` from it.
// Near the merge (where the heads blend into the merge loop) the plane is
// the merge ring's (its centre and width axis; the crotch vertex is put on
// it); nearer the origins, the plane halfway between the vertex's ring centre
// and the other head's nearest one. `vertices` has `topology`'s layout.
void separateHeads(std::vector<glm::vec3>& vertices, const MeshData& topology, float gap = 0.0005f);

// Muscles a moving vertex must keep out of (inside: odd parity of a skew
// ray; meaningful only for a mesh that does not cross itself). The mesh
// being moved may be listed: it is skipped.
struct Obstacles {
    std::vector<const MeshData*> muscles;
    bool blocks(glm::vec3 p) const;
};

// Smooths the corners of every pair of crossing triangles, and their
// neighbours, a step towards the mean of their neighbours, round after round
// until nothing crosses or `max_rounds` have run. A move that would enter one
// of `around` (from outside) or sweep the surface over a vertex of one of
// `swept` (the winding number changes only through the moving fan, so this
// test holds for a mesh that still crosses itself) goes a step towards the
// ring's centre instead, if that sweeps over nothing; never closer than
// 0.7 mm to it (a ring pulled to a point would weld). Poles stay. Returns the
// crossing pairs left. Deterministic (sequential).
size_t untangleLoft(MeshData& m, const Obstacles& around, const Obstacles& swept, int max_rounds = 60,
                    float step = 0.25f);

// Every ring with a vertex inside one of `around` moves whole (its shape
// kept) out along the deepest such vertex's nearest face normal, 0.5 mm
// beyond; the two rings on each side follow half and a quarter of the way.
// Returns how many (ring, neighbour) pairs moved.
size_t withdrawFrom(MeshData& m, const Obstacles& around);

// How deep (m) the deepest vertex of `a` lies inside `b` (0: none inside).
// Meaningful where `b` does not cross itself.
float deepestInside(const MeshData& a, const MeshData& b);

// Smooths a folded mesh as untangleLoft does (guarded by `around`, the
// muscles clean at the time, and sweeping over no vertex of `swept`, every
// muscle; where the guards stall it, unguarded); rings the smoothing left
// inside one of `around` move out whole (withdrawFrom) and it is smoothed
// again, up to 6 times. The result is kept only if it no longer crosses
// itself, keeps 85 % of its volume, lies no deeper than `bar` in one of
// `around` (than it already lay, where that was more) and holds no vertex of
// one of `swept` deeper than `bar`: a fold can hide a neighbour. Such a
// neighbour that is one of `yielding` (clean muscles that may move) steps out
// of it (stepOutOf), kept only if it stays clean and lies no deeper in its
// other clean neighbours than before; otherwise every mesh stays as it was.
// Returns whether it kept the smoothing.
bool untangleIfClear(MeshData& m, const Obstacles& around, const Obstacles& swept, float bar,
                     const std::vector<MeshData*>& yielding = {});

// Every vertex of `o` inside `m` moves out through m's nearest face, `gap`
// beyond it (a sheet or a neighbour draped over what it lay in). Returns how
// many moved. Meaningful where `m` does not cross itself.
size_t stepOutOf(MeshData& o, const MeshData& m, float gap);

// Flat triangles (a vertex lying on the opposite edge, where untangling laid a
// ring's vertex on its neighbour ring's edge): the vertex at the near-180°
// angle is lifted along its fan's normal just enough that the triangle's
// smallest angle reaches `min_angle_deg` (at most 0.5 mm; a lift that would
// make the mesh cross itself more is undone). Only triangles whose smallest
// angle is below `min_angle_deg` and whose largest is over 170° are touched.
// Returns how many vertices moved.
size_t liftFlatTriangles(MeshData& m, float min_angle_deg);

// Needles (a triangle with two vertices packing laid a fraction of a
// millimetre apart) whose smallest angle is below `min_angle_deg`: each
// corner, poles aside, moves half way to the mean of its neighbours where
// that makes its fan's thinnest angle wider and nothing new crosses; up to
// `max_rounds` rounds. Returns how many moves were kept.
size_t widenNeedles(MeshData& m, float min_angle_deg, int max_rounds = 8);

}  // namespace engine

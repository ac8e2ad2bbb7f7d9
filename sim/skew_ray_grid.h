// Triangles binned by their projection on the plane across the skew ray
// (sim/geometry.h, skewRayDirection): a point's ray can cross only the
// triangles listed in its cell, so inside/outside tests by ray crossings
// read a handful of triangles instead of all of them. Built per pose (a
// diagnostic's or an output's frame), never inside the step.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace sim {

class SkewRayGrid {
public:
    // Bins triangles[first, first + count) of positions X; the grid's list
    // keeps their indices into `triangles`.
    void build(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, uint32_t first, uint32_t count);

    // Whether p lies within the binned triangles' 3-D bounds (outside them
    // no closed surface holds it).
    bool inBounds(glm::vec3 p) const;

    // The parity of the ray's crossings: inside a closed surface or not.
    bool inside(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, glm::vec3 p) const;

    // The signed crossings (+1 leaving through a triangle, −1 entering): the
    // winding number of a closed outward surface at p, 2 where two pieces of
    // a self-intersecting one overlap. Exact where the ray runs through an
    // edge or a vertex too (a watertight crossing test, sim/geometry.h).
    int winding(const std::vector<glm::vec3>& X, const std::vector<glm::uvec3>& triangles, glm::vec3 p) const;

private:
    // The cell p's ray falls in (its range in tris_), false beyond the
    // projection of every triangle.
    bool cellOf(glm::vec3 p, size_t& cell) const;
    glm::vec3 lo_{0.0f}, hi_{0.0f};
    glm::vec2 origin_{0.0f};
    float cell_ = 1.0f;
    int nu_ = 0, nv_ = 0;
    std::vector<uint32_t> start_;  // CSR offsets, nu·nv + 1
    std::vector<uint32_t> tris_;   // indices into the triangle list
};

}  // namespace sim

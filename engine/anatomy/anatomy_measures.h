// How well a scene's muscles are sized and packed at rest (docs/anatomy.md
// "Measured packing"): per-muscle volume against the reference table, the
// share of each muscle's vertices that touch a neighbour or a bone, the
// deepest overlap between muscles, and the summed muscle cross-section on a
// plane through the middle of a bone. Pure geometry on the scene the loader
// built (rest pose), so it measures any file, generated or not.
#pragma once

#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/anatomy/anatomy_reference.h"
#include "sim/scene_desc.h"

namespace engine {

struct MuscleMeasure {
    std::string name;
    double volume = 0.0;           // m³, closed-mesh volume at rest
    const ReferenceVolume* reference = nullptr;  // nullptr: not in the table
    double touching = 0.0;         // share of vertices within `near` of another muscle's surface or of a bone
    double overlap = 0.0;          // m: deepest vertex of this muscle inside another muscle
    std::string overlap_with;
    // Mesh quality (engine/mesh/mesh_quality.h): the smallest triangle angle
    // (degrees) and the pairs of its own triangles that cut through each other.
    float min_angle_deg = 180.0f;
    size_t self_intersections = 0;
};

struct SectionMeasure {
    std::string bone;              // the body whose capsule's middle the plane goes through
    glm::vec3 point{0.0f}, normal{0.0f};
    double muscle_area = 0.0;      // m², summed over muscles cut by the plane near the bone
    double bone_area = 0.0;        // m², the capsule's disc
    double skin_area = 0.0;        // m², inside the skin around the plane's point (0: no skin)
    std::vector<std::string> muscles;
};

std::vector<MuscleMeasure> measureMuscles(const sim::SceneDesc& scene, float near = 0.003f);

// The plane through the middle of body `bone`'s capsule, perpendicular to it;
// only sections within `reach` of the capsule's axis count (not the other
// limb). Returns false when there is no such capsule body.
bool measureSection(const sim::SceneDesc& scene, const std::string& bone, float reach, SectionMeasure& out);

// How much of a bone the muscles hide: at `levels` planes across body
// `bone`'s capsule between fractions `from` and `to` of its length (from its
// head), `rays` rays from the axis outward in each plane; a ray is covered
// when it crosses a muscle's section between the bone's surface and `reach`
// from the axis. Not the skin: a whole body's skin can pass close to a
// hanging arm where it meets the trunk. An uncovered run of rays is bone a
// viewer sees between the muscles with the skin hidden.
struct CoverMeasure {
    std::string bone;
    double covered = 0.0;         // share of all rays covered
    double widest_gap_deg = 0.0;  // the widest run of uncovered rays in one plane
    double widest_gap_mm = 0.0;   // that run's arc on the bone's surface
    float widest_at = 0.0f;       // its plane (fraction of the length from the head)
    double widest_dir = 0.0;      // its middle direction, degrees about the axis from the plane's first axis
};
bool measureCover(const sim::SceneDesc& scene, const std::string& bone, float from, float to, float reach, CoverMeasure& out,
                  int levels = 7, int rays = 180);
// The stretch of a long bone checked for cover: its shaft, clear of the
// joints and of the armpit (whose fat and vessels are not modelled), out to
// 8 cm from its axis, a thigh's radius (the thigh's muscles lie up to 6 cm
// out from the femur on some sides; whatever lies within that hides the bone).
inline constexpr float kShaftCoverFrom = 0.35f, kShaftCoverTo = 0.8f, kShaftCoverReach = 0.08f;

// The section of a closed mesh by a plane that encloses `point`: along each
// of `rays` rays from the point in the plane, the nearest cut (exact for a
// section star-shaped about the point, as a limb's is about its bone). Empty
// (area 0) when some ray meets no cut: the point is not enclosed.
struct EnclosingSection {
    glm::vec3 point{0.0f};
    glm::dvec3 e1{0.0}, e2{0.0};   // the plane's axes
    std::vector<double> radius;    // per ray, from angle 0 (along e1) counter-clockwise
    double area = 0.0;             // m²
    bool contains(glm::vec3 p) const;
};
EnclosingSection enclosingSection(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles,
                                  glm::vec3 point, glm::vec3 normal, int rays = 720);

// Area of the section of a closed, outward-wound mesh by a plane, counting
// only section pieces within `reach` of `point` (and, given `within`, inside
// that enclosing section) (m²).
double sectionArea(const std::vector<glm::vec3>& vertices, const std::vector<glm::uvec3>& triangles, glm::vec3 point,
                   glm::vec3 normal, float reach, const EnclosingSection* within = nullptr);

}  // namespace engine

// Muscles for the solver's tests: any generated mesh as a muscle with its
// own root sets, and a box-shaped one: an 8-segment box mesh whose ends
// along z are its origin and insertion sets (tags only, nothing attached).
#pragma once

#include <string>

#include "engine/mesh/mesh_builders.h"
#include "sim/scene_desc.h"

namespace sim_test {

inline sim::MuscleDesc meshMuscle(const std::string& name, const engine::MeshData& m) {
    sim::MuscleDesc d;
    d.name = name;
    d.vertices = m.vertices;
    d.triangles = m.triangles;
    d.origin_sets = m.origin_sets;
    d.insertion_sets = m.insertion_sets;
    return d;
}

inline sim::MuscleDesc boxMuscle(const std::string& name, glm::vec3 centre, glm::vec3 half) {
    sim::MuscleDesc d = meshMuscle(name, engine::makeBox(centre, half, 8));
    d.origin_sets.assign(1, {});
    d.insertion_sets.assign(1, {});
    for (uint32_t i = 0; i < d.vertices.size(); ++i) {
        if (d.vertices[i].z <= centre.z - half.z + 1e-6f) d.origin_sets.back().push_back(i);
        if (d.vertices[i].z >= centre.z + half.z - 1e-6f) d.insertion_sets.back().push_back(i);
    }
    return d;
}

}  // namespace sim_test

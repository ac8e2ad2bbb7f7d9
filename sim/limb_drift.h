// Drift (docs/model.md §8): how far each free surface vertex of a muscle has
// moved away from the nearest surface that is not its own muscle's — a
// neighbouring muscle, a bone, or the skin from inside — over its distance
// at rest. A muscle that bows off its bone, or a belly that peels away
// from the neighbour it lay on, drifts; one that slides along them does
// not. A diagnostic for reports and tests, not part of the step.
//
// Distances are to the nearest vertex of another surface, refined over the
// triangles around it (muscles and bone meshes), exact to bone capsules,
// and along the walk of a bound vertex to the skin (sim/envelope.h; only
// bound vertices, those within 2 cm under it at rest, count the skin).
// Both are capped at kDriftReach: a vertex with nothing within it at rest
// or now counts as that far.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace sim {

struct World;

inline constexpr float kDriftReach = 0.05f;  // m

struct DriftResult {
    float p99 = 0.0f;      // 99th percentile over the free surface vertices, m
    float deepest = 0.0f;  // the largest, m
    int muscle = -1, particle = -1;
    int vertices = 0;
    std::vector<float> muscle_max;  // per muscle, m
};

class LimbDrift {
public:
    // Call at load: keeps the bodies' load transforms. The rest distances
    // (the bind pose, World::particles.rest; the bodies as loaded; the
    // envelope's rest) are measured at the first measure.
    void prepare(const World& w);
    // Drift of positions X, the bodies at `curr` and the envelope posed as
    // `envelope` (ignored unless sized to it).
    DriftResult measure(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::vec3>& envelope);
    // Per particle, from the last measure (m; 0 for attached vertices and
    // branch points).
    const std::vector<float>& vertexDrift() const { return drift_; }

private:
    // Every muscle surface vertex and bone-mesh vertex in a hashed grid
    // (counting sort: linear, deterministic).
    struct Point {
        glm::vec3 x;
        int32_t owner;  // muscle index, or −1 − body for a bone-mesh vertex
        uint32_t id;    // particle, or the body's vertex
    };
    void buildGrid(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T);
    uint32_t bucketOf(glm::ivec3 c) const;
    // Distance from particle i at p to the nearest surface not its muscle's.
    // T: every body's transform.
    float nearest(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T,
                  const std::vector<glm::vec3>* envelope, uint32_t i, glm::vec3 p) const;
    void distances(const World& w, const std::vector<glm::vec3>& X, const std::vector<glm::mat4>& T,
                   const std::vector<glm::vec3>* envelope, std::vector<float>& out) const;

    std::vector<float> rest_, now_, drift_;
    std::vector<glm::mat4> body_rest_, body_now_;  // every body's transform: as loaded, now
    std::vector<Point> points_, sorted_;
    std::vector<uint32_t> start_, bucket_;
    std::vector<glm::vec3> body_vertices_;  // per body mesh: its vertices at `curr`, concatenated
    std::vector<uint32_t> body_first_;      // per body: its first in body_vertices_
    std::vector<uint32_t> tri_begin_, tri_of_;  // particle → its surface triangles (CSR over particles)
    uint32_t mask_ = 0;
};

}  // namespace sim

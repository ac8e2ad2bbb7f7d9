#include "sim/world.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>

#include "sim/fiber_rest_length.h"
#include "sim/geometry.h"
#include "sim/internal_structure.h"
#include "sim/mesh_topology.h"
#include "sim/printable.h"

namespace sim {

void Particles::resize(size_t n) {
    x.resize(n);
    p.resize(n);
    v.resize(n);
    rest.resize(n);
    fiber.resize(n);
    w.resize(n);
    w_free.resize(n);
    muscle.resize(n);
    branch.resize(n);
    carrier.resize(n, glm::ivec2(-1));
    carrier_weight.resize(n, 1.0f);
}

size_t World::surfaceVertexCount() const {
    size_t n = 0;
    for (const auto& m : muscles) n += m.surface_count;
    return n;
}

size_t World::branchPointCount() const {
    size_t n = 0;
    for (const auto& m : muscles) n += m.branch_count;
    return n;
}

glm::vec3 rootCentroid(const std::vector<glm::vec3>& X, const std::vector<std::vector<uint32_t>>& sets) {
    glm::dvec3 s(0.0);
    size_t n = 0;
    for (const auto& set : sets)
        for (uint32_t i : set) {
            s += glm::dvec3(X[i]);
            ++n;
        }
    return n ? glm::vec3(s / double(n)) : glm::vec3(0.0f);
}

double muscleVolume6(const World& w, const Muscle& m, const std::vector<glm::vec3>& X) {
    double v6 = 0.0;
    const glm::vec3 o = X[m.first];
    for (uint32_t k = m.tri_begin; k < m.tri_begin + m.tri_count; ++k) {
        const auto& t = w.triangles[k];
        v6 += double(glm::dot(glm::cross(X[t.x] - o, X[t.y] - o), X[t.z] - o));
    }
    return v6;
}

int World::muscleIndex(std::string_view name) const {
    for (size_t i = 0; i < muscles.size(); ++i)
        if (muscles[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

std::string muscleError(const MuscleDesc& m, size_t index, const std::string& what) {
    std::ostringstream os;
    os << "muscle " << index << " '" << printable(m.name) << "': " << what;
    return os.str();
}

bool finiteVec(glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

std::string checkTargets(const SceneDesc& scene, const MuscleDesc& m, size_t mi,
                         const std::vector<TargetDesc>& targets, const char* what) {
    for (const auto& t : targets) {
        bool ok = t.kind == TargetDesc::Kind::Body
                      ? t.index >= 0 && size_t(t.index) < scene.bodies.size()
                      : t.index >= 0 && size_t(t.index) < scene.muscles.size() && size_t(t.index) != mi;
        if (!ok) {
            std::ostringstream os;
            os << what << " target " << (t.kind == TargetDesc::Kind::Body ? "body " : "muscle ") << t.index
               << " does not exist";
            return muscleError(m, mi, os.str());
        }
    }
    return {};
}

std::string validateMuscle(const SceneDesc& scene, const MuscleDesc& m, size_t mi) {
    if (m.vertices.size() < 4) return muscleError(m, mi, "needs at least 4 vertices");
    for (const auto& v : m.vertices)
        if (!finiteVec(v)) return muscleError(m, mi, "has a non-finite vertex position");
    if (auto e = checkOneClosedSurface(m.vertices, m.triangles); !e.empty())
        return muscleError(m, mi, "mesh: " + e);
    if (m.origin_sets.empty() || m.insertion_sets.empty())
        return muscleError(m, mi, "needs at least one origin and one insertion root set");
    if (!(m.initial_activation >= 0.0f && m.initial_activation <= 0.95f))
        return muscleError(m, mi, "initial activation must be in [0, 0.95]");
    if (!(m.overpressure >= 0.0f && m.overpressure <= 10.0f))
        return muscleError(m, mi, "overpressure must be in [0, 10]");
    if (!(m.density > 0.0f && std::isfinite(m.density))) return muscleError(m, mi, "density must be > 0");
    for (const auto& a : m.attachments) {
        if (a.vertex >= m.vertices.size()) return muscleError(m, mi, "attachment vertex out of range");
        if (a.body < 0 || size_t(a.body) >= scene.bodies.size())
            return muscleError(m, mi, "attachment body does not exist");
    }
    if (auto e = checkTargets(scene, m, mi, m.contact_targets, "contact"); !e.empty()) return e;
    return checkTargets(scene, m, mi, m.sliding_targets, "sliding");
}

// Pairs (u, v) of medulla neighbours of a common branch point b with
// level(u) < level(b) < level(v), each pair once, sorted.
std::vector<std::pair<uint32_t, uint32_t>> secondNeighbours(const InternalStructure& S) {
    const size_t nb = S.branch_positions.size();
    std::vector<std::vector<uint32_t>> adj(nb);
    for (const auto& [a, b] : S.medulla) {
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (uint32_t b = 0; b < nb; ++b)
        for (uint32_t u : adj[b])
            for (uint32_t v : adj[b])
                if (S.branch_level[u] < S.branch_level[b] && S.branch_level[b] < S.branch_level[v])
                    out.emplace_back(std::min(u, v), std::max(u, v));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

double branchShare(uint32_t spokes) { return spokes >= 2 ? 2.0 : 1.0; }

void addDistance(World& w, uint32_t i, uint32_t j, uint32_t muscle, DistanceKind kind) {
    const Particles& P = w.particles;
    DistanceSet& D = w.distances;
    glm::vec3 e = P.rest[i] - P.rest[j];
    D.c.push_back({i, j, glm::length(e), 0.0f, 1.0f});
    D.lambda.push_back(0.0f);
    D.rest_edge.push_back(e);
    D.fiber.push_back(edgeFiberDirection(P.fiber[i], P.fiber[j]));
    D.phi.push_back(fiberPhi(P.fiber[i], P.fiber[j]));
    D.muscle.push_back(muscle);
    D.kind.push_back(kind);
}

}  // namespace

// Carrier bones (see Particles::carrier): for every free particle, the two
// attachment bones of its muscle whose attached vertices are nearest at rest,
// weighted by inverse distance, so a muscle spanning a joint is carried by a
// blend of the bones on either side, like skinning weights.
static void assignCarriers(World& out) {
    Particles& P = out.particles;
    for (const Muscle& m : out.muscles) {
        std::vector<std::pair<uint32_t, std::vector<glm::vec3>>> anchors;  // body, attached rest positions
        for (const Attachment& a : out.attachments) {
            if (a.particle < m.first || a.particle >= m.particleEnd()) continue;
            auto it = std::find_if(anchors.begin(), anchors.end(), [&](const auto& e) { return e.first == a.body; });
            if (it == anchors.end()) {
                anchors.push_back({a.body, {}});
                it = anchors.end() - 1;
            }
            it->second.push_back(P.rest[a.particle]);
        }
        if (anchors.empty()) continue;
        for (uint32_t i = m.first; i < m.particleEnd(); ++i) {
            int best[2] = {-1, -1};
            float dist[2] = {0.0f, 0.0f};
            for (const auto& [body, points] : anchors) {
                float d = std::numeric_limits<float>::max();
                for (const glm::vec3& q : points) d = std::min(d, glm::length(P.rest[i] - q));
                if (best[0] < 0 || d < dist[0]) {
                    best[1] = best[0], dist[1] = dist[0];
                    best[0] = int(body), dist[0] = d;
                } else if (best[1] < 0 || d < dist[1]) {
                    best[1] = int(body), dist[1] = d;
                }
            }
            P.carrier[i] = glm::ivec2(best[0], best[1]);
            const float sum = dist[0] + dist[1];
            P.carrier_weight[i] = best[1] < 0 || !(sum > 0.0f) ? 1.0f : dist[1] / sum;
        }
    }
}

namespace {

// Bodies (with their collision meshes checked) and planes (normalised).
std::string addBodiesAndPlanes(const SceneDesc& scene, World& out) {
    for (const auto& b : scene.bodies) {
        Body body;
        body.name = b.name;
        body.prev = body.curr = b.transform;
        body.vertices = b.vertices;
        body.triangles = b.triangles;
        body.capsule_a = b.capsule_a;
        body.capsule_b = b.capsule_b;
        body.capsule_radius = b.capsule_radius;
        body.setNow(b.transform);
        for (const auto& t : b.triangles)
            if (t.x >= b.vertices.size() || t.y >= b.vertices.size() || t.z >= b.vertices.size())
                return "body '" + printable(b.name) + "': triangle index out of range";
        out.bodies.push_back(std::move(body));
    }
    for (const auto& pl : scene.planes) {
        float len = glm::length(pl.normal);
        if (!(len > 0.0f) || !finiteVec(pl.origin)) return "plane with a zero or non-finite normal";
        out.planes.push_back({pl.origin, pl.normal / len});
    }
    return {};
}

// Internal structures first, to know every muscle's particle count.
std::string buildStructures(const SceneDesc& scene, std::vector<InternalStructure>& structures, size_t& total) {
    structures.resize(scene.muscles.size());
    total = 0;
    for (size_t mi = 0; mi < scene.muscles.size(); ++mi) {
        const MuscleDesc& m = scene.muscles[mi];
        if (auto e = buildInternalStructure(m.vertices, m.triangles, m.origin_sets, m.insertion_sets,
                                            structures[mi]);
            !e.empty())
            return muscleError(m, mi, e);  // e starts "internal structure: "
        total += m.vertices.size() + structures[mi].branch_positions.size();
    }
    return {};
}

// The muscle's settings from its description, its particles placed from
// `first` on: surface vertices, then branch points.
Muscle describeMuscle(const MuscleDesc& md, const InternalStructure& S, uint32_t first) {
    Muscle m;
    m.name = md.name;
    m.first = first;
    m.surface_count = uint32_t(md.vertices.size());
    m.branch_count = uint32_t(S.branch_positions.size());
    m.a0 = md.initial_activation;
    m.activation = m.target_activation = md.initial_activation;
    m.overpressure = md.overpressure;
    m.stiffness = md.stiffness;
    m.contact_targets = md.contact_targets;
    m.sliding_targets = md.sliding_targets;
    return m;
}

// Rest positions, fibre directions, owner muscle and branch flag of the
// muscle's particles.
void placeParticles(Particles& P, const Muscle& m, uint32_t mi, const MuscleDesc& md, const InternalStructure& S) {
    const uint32_t base = m.first, branch_base = m.first + m.surface_count;
    for (uint32_t i = 0; i < m.surface_count; ++i) {
        P.rest[base + i] = md.vertices[i];
        P.fiber[base + i] = S.vertex_fiber[i];
    }
    for (uint32_t b = 0; b < m.branch_count; ++b) {
        P.rest[branch_base + b] = S.branch_positions[b];
        P.fiber[branch_base + b] = S.branch_tangent[b];
    }
    for (uint32_t i = base; i < m.particleEnd(); ++i) {
        P.muscle[i] = mi;
        P.branch[i] = i >= branch_base;
    }
}

// Root sets with muscle-local vertex indices made global particle indices.
std::vector<std::vector<uint32_t>> globalSets(const std::vector<std::vector<uint32_t>>& sets, uint32_t base) {
    std::vector<std::vector<uint32_t>> g = sets;
    for (auto& s : g)
        for (auto& i : s) i += base;
    return g;
}

// Mass (our choice): the muscle's mass ρ·V0 is shared by its particles;
// a surface vertex takes one share and a branch point (a hub of
// spokes, standing for the core tissue of its band) two. Hubs as light
// as one vertex, pulled by a whole ring of spokes, made Gauss-Seidel
// flutter at rest (a 1 cm residual growing from round-off on the
// built-in oval); hubs weighing one share per spoke were too heavy for
// the light surface to carry at 10 iterations (P1 flattened under
// gravity) and damped activation. Two shares keep both in check.
void assignMasses(Particles& P, const Muscle& m, float density, const InternalStructure& S) {
    const uint32_t base = m.first, branch_base = m.first + m.surface_count;
    std::vector<uint32_t> spokes(m.branch_count, 0);
    for (uint32_t i = 0; i < m.surface_count; ++i) ++spokes[S.vertex_branch[i]];
    double shares = m.surface_count;
    for (uint32_t b = 0; b < m.branch_count; ++b) shares += branchShare(spokes[b]);
    const double unit = double(density) * double(m.rest_volume) / shares;
    for (uint32_t i = 0; i < m.surface_count; ++i) P.w_free[base + i] = float(1.0 / unit);
    for (uint32_t b = 0; b < m.branch_count; ++b)
        P.w_free[branch_base + b] = float(1.0 / (unit * branchShare(spokes[b])));
}

// One muscle into the world from particle `first` on: its particles, root
// sets, triangles, rest volume, masses, volume constraint and attachments.
void addMuscle(World& out, uint32_t mi, const MuscleDesc& md, const InternalStructure& S, uint32_t first) {
    Particles& P = out.particles;
    Muscle m = describeMuscle(md, S, first);
    const uint32_t base = m.first;
    placeParticles(P, m, mi, md, S);
    m.origin_sets = globalSets(md.origin_sets, base);
    m.insertion_sets = globalSets(md.insertion_sets, base);

    m.tri_begin = uint32_t(out.triangles.size());
    for (const auto& t : md.triangles) out.triangles.push_back(t + glm::uvec3(base));
    m.tri_count = uint32_t(md.triangles.size());
    m.rest_volume = float(signedVolume(md.vertices, md.triangles));

    assignMasses(P, m, md.density, S);

    out.volumes.push_back({mi, 6.0f * m.rest_volume, 0.0f, 1.0f});

    for (const auto& a : md.attachments) {
        const Body& body = out.bodies[size_t(a.body)];
        glm::vec3 local = glm::vec3(glm::inverse(body.curr) * glm::vec4(md.vertices[a.vertex], 1.0f));
        out.attachments.push_back({base + a.vertex, uint32_t(a.body), local});
    }
    out.muscles.push_back(std::move(m));
}

// Fibre distance constraints: surface edges of every muscle (fibre family);
// each muscle's mean surface edge length on the way.
void addSurfaceDistances(const SceneDesc& scene, World& out) {
    const Particles& P = out.particles;
    for (size_t mi = 0; mi < out.muscles.size(); ++mi) {
        const Muscle& m = out.muscles[mi];
        double sum = 0.0;
        const auto edges = uniqueEdges(scene.muscles[mi].triangles);
        for (const auto& [a, b] : edges) {
            addDistance(out, m.first + a, m.first + b, uint32_t(mi), DistanceKind::Surface);
            sum += glm::length(P.rest[m.first + a] - P.rest[m.first + b]);
        }
        out.muscles[mi].mean_edge = edges.empty() ? 0.0f : float(sum / double(edges.size()));
    }
}

// Then spokes and medulla links (structure family), after every muscle's
// surface edges: structure_begin splits the two families.
void addStructureDistances(const std::vector<InternalStructure>& structures, World& out) {
    out.distances.structure_begin = out.distances.size();
    for (size_t mi = 0; mi < out.muscles.size(); ++mi) {
        const Muscle& m = out.muscles[mi];
        const InternalStructure& S = structures[mi];
        const uint32_t branch_base = m.first + m.surface_count;
        for (uint32_t i = 0; i < m.surface_count; ++i)
            addDistance(out, m.first + i, branch_base + S.vertex_branch[i], uint32_t(mi), DistanceKind::Spoke);
        for (const auto& [a, b] : S.medulla)
            addDistance(out, branch_base + a, branch_base + b, uint32_t(mi), DistanceKind::Medulla);
        // Our choice: links to second neighbours along the medulla, across
        // each branch point, so the chain resists bending; without them the
        // relaxed built-in oval stayed 10% short after a contraction (the
        // chain kinks and every link still has its rest length).
        for (const auto& [u, v] : secondNeighbours(S))
            addDistance(out, branch_base + u, branch_base + v, uint32_t(mi), DistanceKind::Medulla);
    }
}

// Sliding connections: surface vertices within the radius of a target at
// rest, outside it. A vertex set up inside a bone is left free: near the
// bone's axis the closest surface point and its normal jump from side to
// side as the vertex moves, and the connection flung it (the supinator,
// set up partly inside the radius, blew up in T6's fast strikes).
void addSlidingConnections(float sliding_radius, World& out) {
    const Particles& P = out.particles;
    for (size_t mi = 0; mi < out.muscles.size(); ++mi) {
        const Muscle& m = out.muscles[mi];
        for (const auto& t : m.sliding_targets) {
            for (uint32_t i = m.first; i < m.first + m.surface_count; ++i) {
                ClosestPoint cp = closestPointOnTarget(out, t, P.rest[i], /*rest=*/true);
                if (cp.valid && cp.signed_distance >= 0.0f && cp.signed_distance <= sliding_radius)
                    out.sliding.push_back({i, t, cp.signed_distance, cp.point, cp.normal});
            }
        }
    }
}

// Initial state: at rest.
void startAtRest(World& out) {
    Particles& P = out.particles;
    P.x = P.rest;
    P.p = P.rest;
    std::fill(P.v.begin(), P.v.end(), glm::vec3(0.0f));
    P.w = P.w_free;
    for (const auto& a : out.attachments) P.w[a.particle] = 0.0f;  // held exactly (docs/model.md §3.3)
}

}  // namespace

std::string buildWorld(const SceneDesc& scene, World& out) {
    out = World{};
    out.name = scene.name;
    if (!(scene.gravity_scale >= 0.0f && scene.gravity_scale <= 10.0f)) return "gravity scale must be in [0, 10]";
    out.gravity_scale = scene.gravity_scale;
    for (size_t mi = 0; mi < scene.muscles.size(); ++mi)
        if (auto e = validateMuscle(scene, scene.muscles[mi], mi); !e.empty()) return e;

    if (auto e = addBodiesAndPlanes(scene, out); !e.empty()) return e;

    std::vector<InternalStructure> structures;
    size_t total = 0;
    if (auto e = buildStructures(scene, structures, total); !e.empty()) return e;
    out.particles.resize(total);
    Particles& P = out.particles;

    uint32_t next = 0;
    for (size_t mi = 0; mi < scene.muscles.size(); ++mi) {
        addMuscle(out, uint32_t(mi), scene.muscles[mi], structures[mi], next);
        next = out.muscles.back().particleEnd();
    }
    addSurfaceDistances(scene, out);
    addStructureDistances(structures, out);
    for (auto& m : out.muscles)
        m.rest_length = glm::length(rootCentroid(P.rest, m.insertion_sets) - rootCentroid(P.rest, m.origin_sets));

    addSlidingConnections(scene.sliding_radius, out);
    out.sliding_lambda.assign(out.sliding.size(), 0.0f);
    out.volume_lambda.assign(out.volumes.size(), 0.0f);
    out.plane_lambda.assign(out.planes.size() * P.size(), 0.0f);

    assignCarriers(out);
    startAtRest(out);
    return buildEnvelope(scene.envelope, out);
}

}  // namespace sim

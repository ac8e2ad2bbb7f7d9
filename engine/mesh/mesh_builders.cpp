#include "engine/mesh/mesh_builders.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include <glm/geometric.hpp>

namespace engine {

namespace {

constexpr float kPiF = 3.14159265358979323846f;

glm::vec3 safeNormalize(glm::vec3 v, glm::vec3 fallback) {
    const float len = glm::length(v);
    return len > 1e-12f ? v / len : fallback;
}

// A unit vector perpendicular to unit `t`, taken from the world axis least
// aligned with t so that the choice is stable and never degenerate.
glm::vec3 perpendicular(glm::vec3 t) {
    const glm::vec3 a = glm::abs(t);
    glm::vec3 helper(1, 0, 0);
    if (a.y <= a.x && a.y <= a.z)
        helper = {0, 1, 0};
    else if (a.z <= a.x && a.z <= a.y)
        helper = {0, 0, 1};
    return glm::normalize(glm::cross(t, helper));
}

// One cross-section of a lathe: centre, unit tangent (pole_a → pole_b), unit
// normal ⟂ tangent, and the two semi-axes along normal and binormal.
struct Ring {
    glm::vec3 center, tangent, normal;
    float r_normal, r_binormal;
};

// Closed surface through pole_a, the rings in order, and pole_b. Vertex 0 is
// pole_a, then ring i's vertex j at 1 + i·segments + j, then pole_b. The ring
// parameter φ turns from the normal towards binormal = tangent × normal
// (counter-clockwise about the tangent), which fixes the outward winding below.
MeshData lathe(glm::vec3 pole_a, const std::vector<Ring>& rings, glm::vec3 pole_b, int segments,
               int root_rings) {
    MeshData m;
    const int R = static_cast<int>(rings.size());
    const uint32_t S = static_cast<uint32_t>(segments);
    m.vertices.reserve(static_cast<size_t>(R) * S + 2);
    m.vertices.push_back(pole_a);
    for (const Ring& r : rings) {
        const glm::vec3 b = glm::cross(r.tangent, r.normal);
        for (int j = 0; j < segments; ++j) {
            const float phi = 2.0f * kPiF * static_cast<float>(j) / static_cast<float>(segments);
            m.vertices.push_back(r.center + r.r_normal * std::cos(phi) * r.normal +
                                 r.r_binormal * std::sin(phi) * b);
        }
    }
    m.vertices.push_back(pole_b);
    const uint32_t last = static_cast<uint32_t>(m.vertices.size() - 1);
    auto at = [S](int ring, uint32_t j) { return 1 + static_cast<uint32_t>(ring) * S + (j % S); };

    for (uint32_t j = 0; j < S; ++j) m.triangles.push_back({0u, at(0, j + 1), at(0, j)});
    for (int i = 0; i + 1 < R; ++i) {
        for (uint32_t j = 0; j < S; ++j) {
            const uint32_t p00 = at(i, j), p01 = at(i, j + 1), p10 = at(i + 1, j), p11 = at(i + 1, j + 1);
            m.triangles.push_back({p00, p01, p11});
            m.triangles.push_back({p00, p11, p10});
        }
    }
    for (uint32_t j = 0; j < S; ++j) m.triangles.push_back({last, at(R - 1, j), at(R - 1, j + 1)});

    // Root rings never overlap: at most half the rings go to each end.
    const int rr = std::clamp(root_rings, 0, R / 2);
    m.origin_sets.emplace_back(1, 0u);
    m.insertion_sets.emplace_back(1, last);
    for (int i = 0; i < rr; ++i) {
        for (uint32_t j = 0; j < S; ++j) {
            m.origin_sets[0].push_back(at(i, j));
            m.insertion_sets[0].push_back(at(R - 1 - i, j));
        }
    }
    std::sort(m.origin_sets[0].begin(), m.origin_sets[0].end());
    std::sort(m.insertion_sets[0].begin(), m.insertion_sets[0].end());
    return m;
}

// Uniform Catmull-Rom through `pts` (ends duplicated), sampled densely.
std::vector<glm::vec3> catmullRom(const std::vector<glm::vec3>& pts, int samples_per_segment) {
    std::vector<glm::vec3> out;
    const size_t n = pts.size();
    for (size_t i = 0; i + 1 < n; ++i) {
        const glm::vec3 p0 = pts[i == 0 ? 0 : i - 1], p1 = pts[i], p2 = pts[i + 1];
        const glm::vec3 p3 = pts[std::min(i + 2, n - 1)];
        for (int s = 0; s < samples_per_segment; ++s) {
            const float t = static_cast<float>(s) / static_cast<float>(samples_per_segment);
            const float t2 = t * t, t3 = t2 * t;
            out.push_back(0.5f * ((2.0f * p1) + (-p0 + p2) * t + (2.0f * p0 - 5.0f * p1 + 4.0f * p2 - p3) * t2 +
                                  (-p0 + 3.0f * p1 - 3.0f * p2 + p3) * t3));
        }
    }
    out.push_back(pts.back());
    return out;
}

// A dense polyline queried by arc length.
struct ArcPolyline {
    std::vector<glm::vec3> p;
    std::vector<float> s;  // cumulative length
    explicit ArcPolyline(std::vector<glm::vec3> pts) : p(std::move(pts)), s(p.size(), 0.0f) {
        for (size_t i = 1; i < p.size(); ++i) s[i] = s[i - 1] + glm::length(p[i] - p[i - 1]);
    }
    float length() const { return s.back(); }
    glm::vec3 at(float arc) const {
        arc = std::clamp(arc, 0.0f, length());
        const size_t i = static_cast<size_t>(std::upper_bound(s.begin(), s.end(), arc) - s.begin());
        if (i >= p.size()) return p.back();
        if (i == 0) return p.front();
        const float seg = s[i] - s[i - 1];
        const float t = seg > 0 ? (arc - s[i - 1]) / seg : 0.0f;
        return glm::mix(p[i - 1], p[i], t);
    }
};

// --- marching tetrahedra ---------------------------------------------------

// Clamp of the edge parameter: keeps every vertex a fixed fraction of a grid
// edge away from the grid corners, so no edge or triangle of the output can
// collapse (at the cost of ≤ kClampT·cell of surface displacement).
constexpr float kClampT = 0.1f;

// Kuhn (Freudenthal) split of the unit cube into 6 tetrahedra along the main
// diagonal 0→7; corners are bit masks (bit0 x, bit1 y, bit2 z). All cubes use
// the same split, so tetrahedra of neighbouring cubes share faces exactly.
constexpr std::array<std::array<int, 4>, 6> kKuhnTets = {{{0, 1, 3, 7},
                                                         {0, 1, 5, 7},
                                                         {0, 2, 3, 7},
                                                         {0, 2, 6, 7},
                                                         {0, 4, 5, 7},
                                                         {0, 4, 6, 7}}};

// Keeps only the connected component (over shared vertices) with the most
// triangles, renumbering vertices in their original order.
void keepLargestComponent(MeshData& m) {
    const size_t n = m.vertices.size();
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0u);
    auto find = [&](uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (const glm::uvec3& t : m.triangles) {
        for (int k = 1; k < 3; ++k) {
            const uint32_t a = find(t[0]), b = find(t[k]);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
    }
    std::vector<size_t> count(n, 0);
    for (const glm::uvec3& t : m.triangles) ++count[find(t[0])];
    const uint32_t best = static_cast<uint32_t>(std::max_element(count.begin(), count.end()) - count.begin());
    std::vector<uint32_t> remap(n, UINT32_MAX);
    std::vector<glm::vec3> verts;
    for (size_t i = 0; i < n; ++i) {
        if (find(static_cast<uint32_t>(i)) == best) {
            remap[i] = static_cast<uint32_t>(verts.size());
            verts.push_back(m.vertices[i]);
        }
    }
    std::vector<glm::uvec3> tris;
    for (const glm::uvec3& t : m.triangles)
        if (remap[t.x] != UINT32_MAX) tris.push_back({remap[t.x], remap[t.y], remap[t.z]});
    m.vertices = std::move(verts);
    m.triangles = std::move(tris);
}

// Tapered capsule "distance": distance to segment a–b minus a radius that
// varies with the closest-point parameter. Not an exact SDF, but continuous
// with bounded slope, which is all the polygoniser needs.
template <typename RadiusFn>
float taperedCapsule(glm::vec3 p, glm::vec3 a, glm::vec3 b, RadiusFn radius) {
    const glm::vec3 ab = b - a;
    const float t = std::clamp(glm::dot(p - a, ab) / std::max(glm::dot(ab, ab), 1e-20f), 0.0f, 1.0f);
    return glm::length(p - (a + t * ab)) - radius(t);
}

// Polynomial smooth minimum (blend width k): fills the crotch where the heads
// meet the belly instead of leaving a crease.
float smoothMin(float a, float b, float k) {
    const float h = std::max(k - std::abs(a - b), 0.0f) / k;
    return std::min(a, b) - h * h * k * 0.25f;
}

// Vertices near one end of the mesh: those within `band` of the most extreme
// vertex along `dir`, among those within `reach` of `tip`.
std::vector<uint32_t> tipSet(const std::vector<glm::vec3>& v, glm::vec3 tip, glm::vec3 dir, float reach, float band) {
    float best = INFINITY;
    for (const glm::vec3& p : v)
        if (glm::length(p - tip) < reach) best = std::min(best, glm::dot(p - tip, dir));
    std::vector<uint32_t> set;
    for (uint32_t i = 0; i < v.size(); ++i)
        if (glm::length(v[i] - tip) < reach && glm::dot(v[i] - tip, dir) <= best + band) set.push_back(i);
    return set;
}

}  // namespace

MeshData makeOval(glm::vec3 center, glm::vec3 axis, float half_length, float radius, int rings, int segments,
                  int root_rings) {
    rings = std::max(rings, 1);
    segments = std::max(segments, 3);
    const glm::vec3 t = safeNormalize(axis, {1, 0, 0});
    const glm::vec3 n = perpendicular(t);
    std::vector<Ring> rs;
    rs.reserve(static_cast<size_t>(rings));
    for (int i = 1; i <= rings; ++i) {
        // Uniform in latitude: rings crowd near the tips where curvature is high.
        const float th = kPiF * static_cast<float>(i) / static_cast<float>(rings + 1);
        const float r = radius * std::sin(th);
        rs.push_back({center - t * (half_length * std::cos(th)), t, n, r, r});
    }
    return lathe(center - t * half_length, rs, center + t * half_length, segments, root_rings);
}

MeshData makeBox(glm::vec3 center, glm::vec3 half, int n) {
    n = std::max(n, 1);
    const int N = n + 1;
    MeshData m;
    std::vector<int32_t> id(static_cast<size_t>(N) * N * N, -1);
    auto lattice = [&](glm::ivec3 c) -> uint32_t {
        int32_t& slot = id[(static_cast<size_t>(c.z) * N + c.y) * N + c.x];
        if (slot < 0) {
            slot = static_cast<int32_t>(m.vertices.size());
            const glm::vec3 f = glm::vec3(c) * (2.0f / static_cast<float>(n)) - 1.0f;
            m.vertices.push_back(center + half * f);
        }
        return static_cast<uint32_t>(slot);
    };
    for (int a = 0; a < 3; ++a) {
        const int u = (a + 1) % 3, v = (a + 2) % 3;  // e_u × e_v = e_a
        for (int side : {0, n}) {
            for (int j = 0; j < n; ++j) {
                for (int i = 0; i < n; ++i) {
                    glm::ivec3 c(0);
                    c[a] = side;
                    auto corner = [&](int di, int dj) {
                        glm::ivec3 q = c;
                        q[u] = i + di;
                        q[v] = j + dj;
                        return lattice(q);
                    };
                    const uint32_t c00 = corner(0, 0), c10 = corner(1, 0), c11 = corner(1, 1), c01 = corner(0, 1);
                    if (side == n) {
                        m.triangles.push_back({c00, c10, c11});
                        m.triangles.push_back({c00, c11, c01});
                    } else {
                        m.triangles.push_back({c00, c11, c10});
                        m.triangles.push_back({c00, c01, c11});
                    }
                }
            }
        }
    }
    m.origin_sets.emplace_back();
    m.insertion_sets.emplace_back();
    for (int z = 0; z < N; ++z)
        for (int y = 0; y < N; ++y) {
            m.origin_sets[0].push_back(static_cast<uint32_t>(id[(static_cast<size_t>(z) * N + y) * N + 0]));
            m.insertion_sets[0].push_back(static_cast<uint32_t>(id[(static_cast<size_t>(z) * N + y) * N + n]));
        }
    std::sort(m.origin_sets[0].begin(), m.origin_sets[0].end());
    std::sort(m.insertion_sets[0].begin(), m.insertion_sets[0].end());
    return m;
}

MeshData makeFusiform(const std::vector<glm::vec3>& path, float r_max, float r_tendon, float power, float ellipse,
                      int rings, int segments) {
    if (path.size() < 2) return {};
    rings = std::max(rings, 1);
    segments = std::max(segments, 3);
    const ArcPolyline curve(catmullRom(path, 32));
    const float len = curve.length();
    if (!(len > 0.0f)) return {};
    const float h = len / (4.0f * static_cast<float>(rings + 1));  // tangent stencil
    auto tangent = [&](float arc, glm::vec3 fallback) {
        return safeNormalize(curve.at(arc + h) - curve.at(arc - h), fallback);
    };

    std::vector<Ring> rs;
    rs.reserve(static_cast<size_t>(rings));
    glm::vec3 t_prev = tangent(0.0f, glm::normalize(path.back() - path.front() + glm::vec3(1e-30f)));
    glm::vec3 n_prev = perpendicular(t_prev);
    for (int i = 1; i <= rings; ++i) {
        const float u = static_cast<float>(i) / static_cast<float>(rings + 1);
        const glm::vec3 t = tangent(u * len, t_prev);
        // Parallel transport: remove the new tangent's component from the last
        // normal, so the section does not twist along a bent path.
        const glm::vec3 n = safeNormalize(n_prev - glm::dot(n_prev, t) * t, perpendicular(t));
        const float r = r_tendon + (r_max - r_tendon) * std::pow(std::sin(kPiF * u), power);
        rs.push_back({curve.at(u * len), t, n, r, r * ellipse});
        t_prev = t;
        n_prev = n;
    }
    return lathe(curve.at(0.0f), rs, curve.at(len), segments, 1);
}

MeshData makeTwoHeaded(glm::vec3 head_a, glm::vec3 head_b, glm::vec3 merge, glm::vec3 insertion, float r_head,
                       float r_belly, float cell) {
    // Tendon ends must stay a few cells thick or the grid cannot resolve them.
    const float r_tip = std::max(0.45f * r_head, 1.2f * cell);
    auto head_radius = [&](float t) { return r_tip + (r_head - r_tip) * std::pow(std::sin(0.5f * kPiF * t), 0.8f); };
    // Belly from the merge to the insertion: widest about a third of the way
    // down, tapering to a tendon at the insertion.
    auto belly_radius = [&](float t) {
        return r_tip + (r_belly - r_tip) * std::pow(std::sin(kPiF * (0.3f + 0.7f * t)), 0.8f);
    };
    auto field = [&](glm::vec3 p) {
        const float a = taperedCapsule(p, head_a, merge, head_radius);
        const float b = taperedCapsule(p, head_b, merge, head_radius);
        const float belly = taperedCapsule(p, merge, insertion, belly_radius);
        return smoothMin(smoothMin(a, b, 0.8f * r_head), belly, r_head);
    };
    const float pad = std::max(r_head, r_belly) + 3.0f * cell;
    const glm::vec3 lo = glm::min(glm::min(head_a, head_b), glm::min(merge, insertion)) - pad;
    const glm::vec3 hi = glm::max(glm::max(head_a, head_b), glm::max(merge, insertion)) + pad;
    MeshData m = polygonize(field, lo, hi, cell);
    keepLargestComponent(m);

    const float band = std::max(0.5f * r_tip, 1.0f * cell);
    const float reach = 3.0f * r_tip + 3.0f * cell;
    m.origin_sets.push_back(tipSet(m.vertices, head_a, safeNormalize(merge - head_a, {0, -1, 0}), reach, band));
    m.origin_sets.push_back(tipSet(m.vertices, head_b, safeNormalize(merge - head_b, {0, -1, 0}), reach, band));
    m.insertion_sets.push_back(
        tipSet(m.vertices, insertion, safeNormalize(merge - insertion, {0, 1, 0}), reach, band));
    return m;
}

MeshData polygonize(const std::function<float(glm::vec3)>& f, glm::vec3 lo, glm::vec3 hi, float cell) {
    MeshData m;
    if (!(cell > 0.0f)) return m;
    glm::ivec3 dim;  // samples per axis
    for (int a = 0; a < 3; ++a) dim[a] = std::max(2, static_cast<int>(std::ceil((hi[a] - lo[a]) / cell)) + 1);
    const size_t nx = static_cast<size_t>(dim.x), nxy = nx * static_cast<size_t>(dim.y);
    auto gid = [&](int x, int y, int z) { return static_cast<size_t>(z) * nxy + static_cast<size_t>(y) * nx + x; };
    auto gpos = [&](int x, int y, int z) { return lo + cell * glm::vec3(x, y, z); };

    std::vector<float> val(nxy * static_cast<size_t>(dim.z));
    for (int z = 0; z < dim.z; ++z)
        for (int y = 0; y < dim.y; ++y)
            for (int x = 0; x < dim.x; ++x) {
                float v = f(gpos(x, y, z));
                // The box boundary counts as outside so the surface always closes.
                const bool boundary =
                    x == 0 || y == 0 || z == 0 || x == dim.x - 1 || y == dim.y - 1 || z == dim.z - 1;
                if (boundary || !std::isfinite(v)) v = std::max(std::isfinite(v) ? v : 1.0f, 1e-6f);
                val[gid(x, y, z)] = v;
            }

    // One output vertex per crossed grid edge, keyed by (lower corner, offset
    // mask). Lookups only: indices follow the fixed traversal order.
    std::unordered_map<uint64_t, uint32_t> edge_vertex;
    auto corner_of = [](glm::ivec3 base, int mask) {
        return base + glm::ivec3(mask & 1, (mask >> 1) & 1, (mask >> 2) & 1);
    };
    // Corners of a tetrahedron edge are nested masks: the smaller is the lower corner.
    auto vertex_on = [&](glm::ivec3 base, int mask_a, int mask_b) -> uint32_t {
        const int lo_mask = std::min(mask_a, mask_b), hi_mask = std::max(mask_a, mask_b);
        const glm::ivec3 c0 = corner_of(base, lo_mask), c1 = corner_of(base, hi_mask);
        const uint64_t key = static_cast<uint64_t>(gid(c0.x, c0.y, c0.z)) * 8u + static_cast<uint64_t>(hi_mask ^ lo_mask);
        auto [it, inserted] = edge_vertex.try_emplace(key, static_cast<uint32_t>(m.vertices.size()));
        if (inserted) {
            const float f0 = val[gid(c0.x, c0.y, c0.z)], f1 = val[gid(c1.x, c1.y, c1.z)];
            const float t = std::clamp(f0 / (f0 - f1), kClampT, 1.0f - kClampT);
            m.vertices.push_back(glm::mix(gpos(c0.x, c0.y, c0.z), gpos(c1.x, c1.y, c1.z), t));
        }
        return it->second;
    };
    // Midpoint of a grid edge: orientation is decided on these exact grid
    // points so that it depends only on the sign pattern, never on rounding.
    auto mid = [&](glm::ivec3 base, int a, int b) {
        return 0.5f * (glm::vec3(corner_of(base, a)) + glm::vec3(corner_of(base, b)));
    };

    for (int z = 0; z + 1 < dim.z; ++z)
        for (int y = 0; y + 1 < dim.y; ++y)
            for (int x = 0; x + 1 < dim.x; ++x) {
                const glm::ivec3 base(x, y, z);
                for (const auto& tet : kKuhnTets) {
                    std::array<int, 4> in{}, out{};
                    int n_in = 0, n_out = 0;
                    glm::vec3 c_in(0), c_out(0);
                    for (int k = 0; k < 4; ++k) {
                        const glm::ivec3 c = corner_of(base, tet[k]);
                        if (val[gid(c.x, c.y, c.z)] < 0.0f) {
                            in[n_in++] = tet[k];
                            c_in += glm::vec3(c);
                        } else {
                            out[n_out++] = tet[k];
                            c_out += glm::vec3(c);
                        }
                    }
                    if (n_in == 0 || n_out == 0) continue;
                    const glm::vec3 outward = c_out / static_cast<float>(n_out) - c_in / static_cast<float>(n_in);
                    if (n_in == 2) {
                        // Quad around the tet: (a,c) (b,c) (b,d) (a,d), a,b inside.
                        const int a = in[0], b = in[1], c = out[0], d = out[1];
                        std::array<std::pair<int, int>, 4> cyc = {{{a, c}, {b, c}, {b, d}, {a, d}}};
                        const glm::vec3 nrm = glm::cross(mid(base, b, c) - mid(base, a, c), mid(base, b, d) - mid(base, a, c));
                        if (glm::dot(nrm, outward) < 0.0f) std::reverse(cyc.begin(), cyc.end());
                        std::array<uint32_t, 4> q;
                        for (int k = 0; k < 4; ++k) q[k] = vertex_on(base, cyc[k].first, cyc[k].second);
                        // Split along the shorter diagonal for better triangles.
                        if (glm::length(m.vertices[q[0]] - m.vertices[q[2]]) <=
                            glm::length(m.vertices[q[1]] - m.vertices[q[3]])) {
                            m.triangles.push_back({q[0], q[1], q[2]});
                            m.triangles.push_back({q[0], q[2], q[3]});
                        } else {
                            m.triangles.push_back({q[1], q[2], q[3]});
                            m.triangles.push_back({q[1], q[3], q[0]});
                        }
                    } else {
                        // One corner alone on its side: a triangle across its three edges.
                        const int apex = n_in == 1 ? in[0] : out[0];
                        const std::array<int, 4>& others = n_in == 1 ? out : in;
                        std::array<int, 3> e = {others[0], others[1], others[2]};
                        const glm::vec3 nrm =
                            glm::cross(mid(base, apex, e[1]) - mid(base, apex, e[0]), mid(base, apex, e[2]) - mid(base, apex, e[0]));
                        if (glm::dot(nrm, outward) < 0.0f) std::swap(e[1], e[2]);
                        m.triangles.push_back(
                            {vertex_on(base, apex, e[0]), vertex_on(base, apex, e[1]), vertex_on(base, apex, e[2])});
                    }
                }
            }
    return m;
}

}  // namespace engine

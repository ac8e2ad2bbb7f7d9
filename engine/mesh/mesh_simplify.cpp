#include "engine/mesh/mesh_simplify.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace engine {

namespace {

// Symmetric 4×4 quadric, upper triangle: a2 ab ac ad b2 bc bd c2 cd d2.
struct Quadric {
    std::array<double, 10> q{};
    static Quadric plane(glm::dvec3 n, double d, double w) {
        Quadric r;
        r.q = {n.x * n.x, n.x * n.y, n.x * n.z, n.x * d, n.y * n.y, n.y * n.z, n.y * d, n.z * n.z, n.z * d, d * d};
        for (double& x : r.q) x *= w;
        return r;
    }
    Quadric& operator+=(const Quadric& o) {
        for (size_t i = 0; i < q.size(); ++i) q[i] += o.q[i];
        return *this;
    }
    double eval(glm::dvec3 p) const {
        const double x = p.x, y = p.y, z = p.z;
        return q[0] * x * x + 2 * q[1] * x * y + 2 * q[2] * x * z + 2 * q[3] * x + q[4] * y * y + 2 * q[5] * y * z +
               2 * q[6] * y + q[7] * z * z + 2 * q[8] * z + q[9];
    }
    // Minimiser of the quadric; false where the 3×3 part is near singular.
    bool optimum(glm::dvec3& out) const {
        const glm::dmat3 a(q[0], q[1], q[2], q[1], q[4], q[5], q[2], q[5], q[7]);
        const double det = glm::determinant(a);
        const double scale = q[0] * q[4] * q[7];
        if (!(std::fabs(det) > 1e-9 * std::max(scale, 1e-300))) return false;
        out = glm::inverse(a) * glm::dvec3(-q[3], -q[6], -q[8]);
        return std::isfinite(out.x) && std::isfinite(out.y) && std::isfinite(out.z);
    }
};

// 4√3·area / Σ edge² : 1 for an equilateral triangle, 0 for a degenerate one.
double quality(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    const double area2 = glm::length(glm::cross(b - a, c - a));  // twice the area
    const double s = glm::dot(b - a, b - a) + glm::dot(c - b, c - b) + glm::dot(a - c, a - c);
    return s > 0 ? 2.0 * std::sqrt(3.0) * area2 / s : 0.0;
}

struct Candidate {
    double cost;
    uint32_t a, b;  // a < b
    glm::dvec3 target;
    bool operator<(const Candidate& o) const {  // cheapest first, ties by vertex indices
        if (cost != o.cost) return cost < o.cost;
        if (a != o.a) return a < o.a;
        return b < o.b;
    }
};

class Decimator {
public:
    explicit Decimator(const MeshData& in) {
        pos_.reserve(in.vertices.size());
        for (const glm::vec3& v : in.vertices) pos_.emplace_back(v);
        tris_.reserve(in.triangles.size());
        for (const glm::uvec3& t : in.triangles) tris_.push_back({t.x, t.y, t.z});
        tri_alive_.assign(tris_.size(), 1);
        alive_tris_ = tris_.size();
        vtris_.resize(pos_.size());
        quad_.resize(pos_.size());
        for (uint32_t t = 0; t < tris_.size(); ++t) {
            const auto& f = tris_[t];
            const glm::dvec3 n2 = glm::cross(pos_[f[1]] - pos_[f[0]], pos_[f[2]] - pos_[f[0]]);
            const double len = glm::length(n2);
            if (len > 0) {
                const glm::dvec3 n = n2 / len;
                const Quadric k = Quadric::plane(n, -glm::dot(n, pos_[f[0]]), 0.5 * len);
                for (uint32_t v : f) quad_[v] += k;
            }
            for (uint32_t v : f) vtris_[v].push_back(t);
        }
    }

    // Passes: every edge's cost, cheapest first; an edge collapses unless
    // a collapse this pass already touched its neighbourhood (so that costs
    // stay exact within a pass). Repeats until the target or a pass that
    // collapses nothing.
    void run(size_t target, SimplifyStats* stats) {
        std::vector<Candidate> cand;
        std::vector<char> locked;
        while (alive_tris_ > target) {
            cand.clear();
            for (uint32_t t = 0; t < tris_.size(); ++t) {
                if (!tri_alive_[t]) continue;
                for (int k = 0; k < 3; ++k) {
                    const uint32_t a = tris_[t][k], b = tris_[t][(k + 1) % 3];
                    if (a < b) cand.push_back(candidate(a, b));
                }
            }
            std::sort(cand.begin(), cand.end());
            locked.assign(pos_.size(), 0);
            size_t done = 0;
            for (const Candidate& c : cand) {
                if (alive_tris_ <= target) break;
                if (locked[c.a] || locked[c.b]) continue;
                if (!collapsible(c.a, c.b, c.target)) continue;
                collapse(c.a, c.b, c.target);
                locked[c.a] = locked[c.b] = 1;
                for (uint32_t n : ring_) locked[n] = 1;
                ++done;
                if (stats) {
                    ++stats->collapses;
                    stats->max_cost = std::max(stats->max_cost, c.cost);
                }
            }
            if (done == 0) break;
        }
    }

    MeshData result() const {
        MeshData m;
        std::vector<uint32_t> remap(pos_.size(), UINT32_MAX);
        for (uint32_t t = 0; t < tris_.size(); ++t)
            if (tri_alive_[t])
                for (uint32_t v : tris_[t]) remap[v] = 0;
        for (uint32_t v = 0; v < pos_.size(); ++v)
            if (remap[v] == 0) {
                remap[v] = static_cast<uint32_t>(m.vertices.size());
                m.vertices.emplace_back(pos_[v]);
            }
        for (uint32_t t = 0; t < tris_.size(); ++t)
            if (tri_alive_[t]) m.triangles.emplace_back(remap[tris_[t][0]], remap[tris_[t][1]], remap[tris_[t][2]]);
        return m;
    }

private:
    std::vector<glm::dvec3> pos_;
    std::vector<std::array<uint32_t, 3>> tris_;
    std::vector<char> tri_alive_;
    std::vector<std::vector<uint32_t>> vtris_;
    std::vector<Quadric> quad_;
    size_t alive_tris_ = 0;
    mutable std::vector<uint32_t> scratch_a_, scratch_b_;
    std::vector<uint32_t> ring_;

    // Sorted one-ring of v into n (reused buffer, no allocation once warm).
    void neighbours(uint32_t v, std::vector<uint32_t>& n) const {
        n.clear();
        for (uint32_t t : vtris_[v])
            for (uint32_t w : tris_[t])
                if (w != v) n.push_back(w);
        std::sort(n.begin(), n.end());
        n.erase(std::unique(n.begin(), n.end()), n.end());
    }

    // Each edge of a closed oriented mesh appears once as a → b with a < b.
    Candidate candidate(uint32_t a, uint32_t b) const {
        Quadric q = quad_[a];
        q += quad_[b];
        glm::dvec3 best = 0.5 * (pos_[a] + pos_[b]);
        double cost;
        if (q.optimum(best)) {
            cost = q.eval(best);
            // A far-off optimum (nearly flat neighbourhood) is not trusted.
            const double len = glm::length(pos_[a] - pos_[b]);
            if (glm::length(best - 0.5 * (pos_[a] + pos_[b])) > 2.0 * len) cost = INFINITY;
        } else {
            cost = INFINITY;
        }
        for (const glm::dvec3& p : {pos_[a], pos_[b], 0.5 * (pos_[a] + pos_[b])}) {
            const double e = q.eval(p);
            if (e < cost) {
                cost = e;
                best = p;
            }
        }
        return {std::max(cost, 0.0), a, b, best};
    }

    bool collapsible(uint32_t a, uint32_t b, glm::dvec3 p) const {
        // On a closed manifold a vertex has as many neighbours as triangles.
        if (vtris_[a].size() + vtris_[b].size() - 4 < 3) return false;  // merged valence ≥ 3
        std::vector<uint32_t>& na = scratch_a_;
        std::vector<uint32_t>& nb = scratch_b_;
        neighbours(a, na);
        neighbours(b, nb);
        size_t common = 0;
        for (size_t i = 0, j = 0; i < na.size() && j < nb.size();) {
            if (na[i] < nb[j]) {
                ++i;
            } else if (nb[j] < na[i]) {
                ++j;
            } else {
                // The opposite vertices lose one neighbour: they must keep ≥ 3.
                if (vtris_[na[i]].size() <= 3) return false;
                ++common;
                ++i;
                ++j;
            }
        }
        if (common != 2) return false;  // link condition
        double q_old = 1.0, q_new = 1.0;
        for (uint32_t v : {a, b})
            for (uint32_t t : vtris_[v]) {
                const auto& f = tris_[t];
                const bool has_a = f[0] == a || f[1] == a || f[2] == a;
                const bool has_b = f[0] == b || f[1] == b || f[2] == b;
                q_old = std::min(q_old, quality(pos_[f[0]], pos_[f[1]], pos_[f[2]]));
                if (has_a && has_b) continue;  // removed by the collapse
                std::array<glm::dvec3, 3> x = {pos_[f[0]], pos_[f[1]], pos_[f[2]]};
                const glm::dvec3 n_old = glm::cross(x[1] - x[0], x[2] - x[0]);
                for (int k = 0; k < 3; ++k)
                    if (f[k] == v) x[k] = p;
                const glm::dvec3 n_new = glm::cross(x[1] - x[0], x[2] - x[0]);
                const double lo = glm::length(n_old), ln = glm::length(n_new);
                if (!(ln > 1e-14) || !(lo > 0)) return false;
                if (glm::dot(n_old, n_new) < 0.35 * lo * ln) return false;  // fold-over
                q_new = std::min(q_new, quality(x[0], x[1], x[2]));
            }
        return q_new >= std::min(0.1, q_old);
    }

    void collapse(uint32_t a, uint32_t b, glm::dvec3 p) {
        pos_[a] = p;
        quad_[a] += quad_[b];
        auto drop = [this](uint32_t v, uint32_t t) {
            auto& l = vtris_[v];
            l.erase(std::remove(l.begin(), l.end(), t), l.end());
        };
        for (uint32_t t : vtris_[b]) {
            auto& f = tris_[t];
            if (f[0] == a || f[1] == a || f[2] == a) {
                tri_alive_[t] = 0;
                --alive_tris_;
                for (uint32_t v : f)
                    if (v != b) drop(v, t);
            } else {
                for (uint32_t& v : f)
                    if (v == b) v = a;
                vtris_[a].push_back(t);
            }
        }
        vtris_[b].clear();
        neighbours(a, ring_);
    }
};

}  // namespace

MeshData simplifyMesh(const MeshData& in, size_t target_triangles, SimplifyStats* stats) {
    Decimator d(in);
    d.run(target_triangles, stats);
    return d.result();
}

}  // namespace engine

#include "app/study/static_equilibrium.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace app {

namespace {

using Vec = std::vector<double>;

struct Problem {
    const sim::World& w;
    std::vector<int> dof;          // particle → first of its 3 unknowns, −1 when held
    std::vector<double> dist_k;    // stiffness per distance constraint
    std::vector<double> vol_k;     // per volume constraint
    std::vector<glm::dvec3> force; // gravity per particle (N)
    int n = 0;                     // unknowns
};

double familyK(const sim::World& w, const sim::SolverParams& p, uint32_t muscle, sim::Family f) {
    float over = w.muscles[muscle].stiffness[f];
    return double(over >= 0.0f ? over : p.xpbd_stiffness[f]);
}

glm::dvec3 at(const std::vector<glm::dvec3>& x, uint32_t i) { return x[i]; }

// E, and its gradient when `grad` is given.
double energy(const Problem& P, const std::vector<glm::dvec3>& x, Vec* grad) {
    const sim::World& w = P.w;
    if (grad) grad->assign(size_t(P.n), 0.0);
    auto addGrad = [&](uint32_t i, glm::dvec3 g) {
        if (!grad || P.dof[i] < 0) return;
        for (int a = 0; a < 3; ++a) (*grad)[size_t(P.dof[i] + a)] += g[a];
    };
    double e = 0.0;
    const auto& D = w.distances;
    for (size_t c = 0; c < D.size(); ++c) {
        const auto& d = D.c[c];
        glm::dvec3 v = at(x, d.i) - at(x, d.j);
        double l = glm::length(v);
        double C = l - double(d.rest);
        e += 0.5 * P.dist_k[c] * C * C;
        if (grad && l > 1e-15) {
            glm::dvec3 g = P.dist_k[c] * C * (v / l);
            addGrad(d.i, g);
            addGrad(d.j, -g);
        }
    }
    for (size_t m = 0; m < w.volumes.size(); ++m) {
        const auto& vc = w.volumes[m];
        const sim::Muscle& mu = w.muscles[vc.muscle];
        const glm::dvec3 o = x[mu.first];
        double v6 = 0.0;
        for (uint32_t t = mu.tri_begin; t < mu.tri_begin + mu.tri_count; ++t) {
            const auto& tri = w.triangles[t];
            v6 += glm::dot(glm::cross(x[tri.x] - o, x[tri.y] - o), x[tri.z] - o);
        }
        double C = v6 - double(vc.target);
        e += 0.5 * P.vol_k[m] * C * C;
        if (grad)
            for (uint32_t t = mu.tri_begin; t < mu.tri_begin + mu.tri_count; ++t) {
                const auto& tri = w.triangles[t];
                glm::dvec3 a = x[tri.x] - o, b = x[tri.y] - o, cc = x[tri.z] - o;
                addGrad(tri.x, P.vol_k[m] * C * glm::cross(b, cc));
                addGrad(tri.y, P.vol_k[m] * C * glm::cross(cc, a));
                addGrad(tri.z, P.vol_k[m] * C * glm::cross(a, b));
            }
    }
    for (size_t i = 0; i < x.size(); ++i) {
        if (P.dof[i] < 0) continue;
        e -= glm::dot(P.force[i], x[i]);
        addGrad(uint32_t(i), -P.force[i]);
    }
    return e;
}

// The Hessian of E, with each spring's compressive part dropped (it only
// slows the solve, never moves the minimum): k (n nᵀ + max(0, C/l)(I − n nᵀ))
// per spring, and the volume term exactly, k_V (∇C ∇Cᵀ + C ∇²C). The
// pressure part C ∇²C matters: without it the nearly incompressible muscle
// took ~200 steps instead of ~10. Row-major, n × n.
void hessian(const Problem& P, const std::vector<glm::dvec3>& x, Vec& H) {
    const sim::World& w = P.w;
    const size_t n = size_t(P.n);
    H.assign(n * n, 0.0);
    auto addBlock = [&](uint32_t i, uint32_t j, const double K[3][3], double sign) {
        if (P.dof[i] < 0 || P.dof[j] < 0) return;
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) H[size_t(P.dof[i] + a) * n + size_t(P.dof[j] + b)] += sign * K[a][b];
    };
    const auto& D = w.distances;
    for (size_t c = 0; c < D.size(); ++c) {
        const auto& d = D.c[c];
        glm::dvec3 v = x[d.i] - x[d.j];
        double l = glm::length(v);
        if (l < 1e-15) continue;
        glm::dvec3 u = v / l;
        double k = P.dist_k[c];
        double t = (l - double(d.rest)) / l;
        double K[3][3];
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) K[a][b] = k * (u[a] * u[b] + t * ((a == b ? 1.0 : 0.0) - u[a] * u[b]));
        addBlock(d.i, d.i, K, 1.0);
        addBlock(d.j, d.j, K, 1.0);
        addBlock(d.i, d.j, K, -1.0);
        addBlock(d.j, d.i, K, -1.0);
    }
    for (size_t m = 0; m < w.volumes.size(); ++m) {
        const sim::Muscle& mu = w.muscles[w.volumes[m].muscle];
        const glm::dvec3 o = x[mu.first];
        Vec g(n, 0.0);
        for (uint32_t t = mu.tri_begin; t < mu.tri_begin + mu.tri_count; ++t) {
            const auto& tri = w.triangles[t];
            glm::dvec3 a = x[tri.x] - o, b = x[tri.y] - o, cc = x[tri.z] - o;
            const glm::dvec3 gs[3] = {glm::cross(b, cc), glm::cross(cc, a), glm::cross(a, b)};
            const uint32_t ids[3] = {tri.x, tri.y, tri.z};
            for (int k = 0; k < 3; ++k)
                if (P.dof[ids[k]] >= 0)
                    for (int q = 0; q < 3; ++q) g[size_t(P.dof[ids[k]] + q)] += gs[k][q];
        }
        for (size_t r = 0; r < n; ++r) {
            if (g[r] == 0.0) continue;
            const double s = P.vol_k[m] * g[r];
            double* row = &H[r * n];
            for (size_t c = 0; c < n; ++c) row[c] += s * g[c];
        }
        // C ∇²C: for f = (a × b)·c, ∂²f/∂a∂b = −[c]×, ∂²f/∂b∂c = −[a]×,
        // ∂²f/∂c∂a = −[b]× ([v]× u = v × u), and their transposes.
        double C = -double(w.volumes[m].target);
        for (uint32_t t = mu.tri_begin; t < mu.tri_begin + mu.tri_count; ++t) {
            const auto& tri = w.triangles[t];
            C += glm::dot(glm::cross(x[tri.x] - o, x[tri.y] - o), x[tri.z] - o);
        }
        const double kc = P.vol_k[m] * C;
        for (uint32_t t = mu.tri_begin; t < mu.tri_begin + mu.tri_count; ++t) {
            const auto& tri = w.triangles[t];
            const glm::dvec3 a = x[tri.x] - o, b = x[tri.y] - o, cc = x[tri.z] - o;
            auto cross = [&](uint32_t i, uint32_t j, glm::dvec3 v) {  // block (i, j) += −kc [v]×, (j, i) += kc [v]×
                const double S[3][3] = {{0.0, -v.z, v.y}, {v.z, 0.0, -v.x}, {-v.y, v.x, 0.0}};
                addBlock(i, j, S, -kc);
                double St[3][3];
                for (int p = 0; p < 3; ++p)
                    for (int q = 0; q < 3; ++q) St[p][q] = S[q][p];
                addBlock(j, i, St, -kc);
            };
            cross(tri.x, tri.y, cc);
            cross(tri.y, tri.z, a);
            cross(tri.z, tri.x, b);
        }
    }
}

// In-place Cholesky of a symmetric positive definite matrix and the solve of
// H·dx = b. Returns false when H is not positive definite.
bool choleskySolve(Vec& H, size_t n, Vec& b) {
    for (size_t j = 0; j < n; ++j) {
        double* rj = &H[j * n];
        double d = rj[j];
        for (size_t k = 0; k < j; ++k) d -= rj[k] * rj[k];
        if (!(d > 0.0)) return false;
        d = std::sqrt(d);
        rj[j] = d;
        for (size_t i = j + 1; i < n; ++i) {
            double* ri = &H[i * n];
            double s = ri[j];
            for (size_t k = 0; k < j; ++k) s -= ri[k] * rj[k];
            ri[j] = s / d;
        }
    }
    for (size_t i = 0; i < n; ++i) {  // L y = b
        double s = b[i];
        for (size_t k = 0; k < i; ++k) s -= H[i * n + k] * b[k];
        b[i] = s / H[i * n + i];
    }
    for (size_t i = n; i-- > 0;) {  // Lᵀ x = y
        double s = b[i];
        for (size_t k = i + 1; k < n; ++k) s -= H[k * n + i] * b[k];
        b[i] = s / H[i * n + i];
    }
    return true;
}

}  // namespace

StaticEquilibrium solveStaticEquilibrium(const sim::Simulation& s) {
    StaticEquilibrium out;
    const sim::World& w = s.world();
    const sim::SolverParams& params = s.params();
    Problem P{w, {}, {}, {}, {}, 0};
    const auto& parts = w.particles;
    P.dof.assign(parts.size(), -1);
    for (size_t i = 0; i < parts.size(); ++i)
        if (parts.w[i] > 0.0f) {
            P.dof[i] = P.n;
            P.n += 3;
        }
    if (P.n > 6000) {
        out.error = "the direct solve is for small scenes (" + std::to_string(P.n / 3) + " free particles; at most 2000)";
        return out;
    }
    for (size_t c = 0; c < w.distances.size(); ++c)
        P.dist_k.push_back(familyK(w, params, w.distances.muscle[c],
                                   c < w.distances.structure_begin ? sim::Family::Fiber : sim::Family::Structure));
    for (const auto& v : w.volumes) P.vol_k.push_back(familyK(w, params, v.muscle, sim::Family::Volume));
    for (double k : P.dist_k)
        if (!std::isfinite(k)) {
            out.error = "a hard (infinite) stiffness has no energy to minimise";
            return out;
        }
    const glm::dvec3 g = glm::dvec3(params.gravity) * double(w.gravity_scale);
    std::vector<glm::dvec3> weight(parts.size(), glm::dvec3(0.0));
    for (size_t i = 0; i < parts.size(); ++i)
        if (parts.w[i] > 0.0f && !parts.branch[i]) weight[i] = g / double(parts.w_free[i]);

    std::vector<glm::dvec3> x(parts.size());
    for (size_t i = 0; i < parts.size(); ++i) x[i] = parts.x[i];  // held vertices: where they are held
    const size_t n = size_t(P.n);
    Vec grad, H, step;
    std::vector<glm::dvec3> trial(x.size());
    // Levenberg damping, relative to the largest diagonal entry: the free spin
    // about the vertical axis has no stiffness, and the pressure term can make
    // the Hessian indefinite far from the minimum (then the damping grows).
    double mu = 1e-12;
    // The load in steps (a quarter of the weight at a time): from the rest
    // pose in one go, Newton lost its way on the softest material (10 N/m,
    // ~60% stretch); each step starts near its answer.
    for (int stage = 1; stage <= 4; ++stage) {
        P.force = weight;
        for (auto& f : P.force) f *= double(stage) / 4.0;
        double E = energy(P, x, &grad);
        for (int it = 0; it < 100; ++it) {
            double gmax = 0.0;
            for (double v : grad) gmax = std::max(gmax, std::abs(v));
            out.max_force = gmax;
            if (gmax < (stage < 4 ? 1e-4 : 1e-9)) break;  // the earlier stages only lead the way
            ++out.newton_steps;
            hessian(P, x, H);
            double diag = 0.0;
            for (size_t r = 0; r < n; ++r) diag = std::max(diag, H[r * n + r]);
            for (size_t r = 0; r < n; ++r) H[r * n + r] += mu * diag;
            step = grad;
            for (double& v : step) v = -v;
            if (!choleskySolve(H, n, step)) {
                mu *= 100.0;
                if (mu > 1.0) break;
                continue;
            }
            mu = std::max(1e-12, mu * 0.1);
            // Backtracking line search on E (Armijo).
            double slope = 0.0;
            for (size_t r = 0; r < n; ++r) slope += step[r] * grad[r];
            double t = 1.0;
            bool moved = false;
            for (int ls = 0; ls < 40; ++ls, t *= 0.5) {
                for (size_t i = 0; i < x.size(); ++i) {
                    trial[i] = x[i];
                    if (P.dof[i] >= 0)
                        for (int a = 0; a < 3; ++a) trial[i][a] += t * step[size_t(P.dof[i] + a)];
                }
                if (energy(P, trial, nullptr) <= E + 1e-4 * t * slope) {
                    moved = true;
                    break;
                }
            }
            if (!moved) break;  // no descent left at double precision: at the minimum
            x.swap(trial);
            E = energy(P, x, &grad);
        }
    }
    if (out.max_force > 1e-6) {
        out.error = "the equilibrium solve did not converge (unbalanced force " + std::to_string(out.max_force) + " N)";
        return out;
    }
    out.x.resize(x.size());
    for (size_t i = 0; i < x.size(); ++i) out.x[i] = glm::vec3(x[i]);
    if (!w.muscles.empty()) {
        const sim::Muscle& m = w.muscles[0];
        // Centroids in double: the elongation is a small difference of lengths.
        auto centroid = [](const auto& X, const std::vector<std::vector<uint32_t>>& sets) {
            glm::dvec3 c(0.0);
            size_t k = 0;
            for (const auto& set : sets)
                for (uint32_t v : set) {
                    c += glm::dvec3(X[v]);
                    ++k;
                }
            return k ? c / double(k) : c;
        };
        double len = glm::length(centroid(x, m.origin_sets) - centroid(x, m.insertion_sets));
        double rest = glm::length(centroid(parts.rest, m.origin_sets) - centroid(parts.rest, m.insertion_sets));
        out.elongation = rest > 0.0 ? len / rest - 1.0 : 0.0;
    }
    return out;
}

}  // namespace app

#include "app/study/study_experiment.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/run/scene_driver.h"
#include "app/study/static_equilibrium.h"

namespace app {

namespace {

constexpr const char* kScene = "builtin:hang";

sim::SolverParams paramsFor(const StudySettings& st, sim::ConstraintMode mode, int substeps, int iterations,
                            double mean_w) {
    sim::SolverParams p;
    p.solver = sim::SolverKind::Sst;
    p.threads = 1;
    p.mode = mode;
    p.substeps = substeps;
    p.iterations = iterations;
    p.damping = st.damping;
    p.xpbd_stiffness[sim::Family::Fiber] = float(st.stiffness);
    p.xpbd_stiffness[sim::Family::Structure] = float(st.stiffness);
    if (mode != sim::ConstraintMode::Xpbd) {
        const float k = float(pbdStiffnessFor(st.stiffness, p.frame_dt, substeps, mean_w));
        p.pbd_stiffness[sim::Family::Fiber] = k;
        p.pbd_stiffness[sim::Family::Structure] = k;
    }
    return p;
}

double elongationPct(const sim::Simulation& s) {
    auto st = s.muscleStats();
    if (st.empty() || st[0].rest_length <= 0.0f) return 0.0;
    return 100.0 * (double(st[0].length) / double(st[0].rest_length) - 1.0);
}

// w̄: the mean of w_i + w_j over the distance constraints with a free end.
double meanEdgeInverseMass(const sim::World& w) {
    double sum = 0.0;
    size_t n = 0;
    for (const auto& d : w.distances.c) {
        double s = double(w.particles.w[d.i]) + double(w.particles.w[d.j]);
        if (s <= 0.0) continue;
        sum += s;
        ++n;
    }
    return n ? sum / double(n) : 0.0;
}

// The surface vertices of muscle 0 out of every particle's position.
std::vector<glm::vec3> surfaceOf(const sim::World& w, const std::vector<glm::vec3>& x) {
    const sim::Muscle& m = w.muscles.front();
    return std::vector<glm::vec3>(x.begin() + m.first, x.begin() + m.first + m.surface_count);
}

}  // namespace

std::string StudySettings::validate() const {
    if (!(stiffness >= kMinStiffness && stiffness <= kMaxStiffness))
        return "--stiffness must be in [" + std::to_string(int(kMinStiffness)) + ", " +
               std::to_string(int(kMaxStiffness)) + "] N/m";
    if (substeps.empty() || iterations.empty()) return "the substep and iteration lists must not be empty";
    for (int s : substeps)
        if (s < 1 || s > 256) return "--substeps values must be in [1, 256]";
    for (int i : iterations)
        if (i < 1 || i > 1000) return "--iterations values must be in [1, 1000]";
    if (equal_cost < 1 || equal_cost > 4096) return "--equal-cost must be in [1, 4096]";
    if (frames < 1 || frames > 10000) return "--frames must be in [1, 10000]";
    if (!(damping >= 0.0f && damping <= 100.0f)) return "--damping must be in [0, 100]";
    if (threads < 0 || threads > 256) return "--threads must be in [0, 256]";
    return {};
}

double pbdStiffnessFor(double k, double frame_dt, int substeps, double mean_inverse_mass) {
    const double dt = frame_dt / double(std::max(1, substeps));
    const double alpha_tilde = 1.0 / (k * dt * dt);
    return mean_inverse_mass / (mean_inverse_mass + alpha_tilde);
}

std::vector<StudyPoint> StudyResult::curve(const std::string& view, sim::ConstraintMode mode, int substeps) const {
    std::vector<StudyPoint> out;
    for (const auto& p : points)
        if (p.view == view && p.mode == mode && (view != "iterations" || p.substeps == substeps)) out.push_back(p);
    return out;
}

const StudyPoint* StudyResult::find(const std::string& view, sim::ConstraintMode mode, int substeps, int iterations) const {
    for (const StudyPoint& p : points)
        if (p.view == view && p.mode == mode && p.substeps == substeps && (view == "equal_cost" || p.iterations == iterations))
            return &p;
    return nullptr;
}

double StudyResult::errorPct(const StudyPoint& p) const {
    return reference_pct != 0.0 ? 100.0 * (p.elongation_pct - reference_pct) / reference_pct : 0.0;
}

StudyResult runStudy(const StudySettings& st, std::atomic<float>* progress, const std::atomic<bool>* cancel) {
    StudyResult r;
    r.settings = st;
    if (progress) *progress = 0.0f;
    if (std::string e = st.validate(); !e.empty()) {
        r.error = e;
        return r;
    }
    // The reference: the rest state of the same material, solved directly.
    {
        SceneDriver probe;
        if (std::string e = probe.load(kScene, paramsFor(st, sim::ConstraintMode::Xpbd, 1, 1, 0.0), {true, true});
            !e.empty()) {
            r.error = e;
            return r;
        }
        probe.step();  // sets the targets σ̂ and 6·V0 the equilibrium uses
        probe.reset();
        r.mean_inverse_mass = meanEdgeInverseMass(probe.sim().world());
        StaticEquilibrium eq = solveStaticEquilibrium(probe.sim());
        if (!eq.error.empty()) {
            r.error = "reference: " + eq.error;
            return r;
        }
        r.reference_pct = 100.0 * eq.elongation;
        const sim::World& w = probe.sim().world();
        const sim::Muscle& m = w.muscles.front();
        for (uint32_t t = m.tri_begin; t < m.tri_begin + m.tri_count; ++t) r.triangles.push_back(w.triangles[t] - glm::uvec3(m.first));
        r.rest_shape = surfaceOf(w, w.particles.x);
        r.reference_shape = surfaceOf(w, eq.x);
        r.reference_method = "static equilibrium of the same material, solved directly (damped Newton, " +
                             std::to_string(eq.newton_steps) + " steps)";
    }
    const sim::ConstraintMode modes[] = {sim::ConstraintMode::Xpbd, sim::ConstraintMode::Pbd,
                                         sim::ConstraintMode::PbdRaw};
    for (auto m : modes)
        for (int s : st.substeps)
            for (int it : st.iterations) {
                StudyPoint p;
                p.view = "iterations";
                p.mode = m;
                p.substeps = s;
                p.iterations = it;
                r.points.push_back(p);
            }
    for (auto m : modes)
        for (int s = 1; s <= st.equal_cost; s *= 2)
            if (st.equal_cost % s == 0) {
                StudyPoint p;
                p.view = "equal_cost";
                p.mode = m;
                p.substeps = s;
                p.iterations = st.equal_cost / s;
                r.points.push_back(p);
            }
    // Runs side by side, the most expensive first; each writes its own point.
    std::vector<size_t> order(r.points.size());
    double total = 0.0;
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
        total += double(r.points[i].substeps * r.points[i].iterations + 2 * r.points[i].substeps);
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return r.points[a].substeps * r.points[a].iterations > r.points[b].substeps * r.points[b].iterations;
    });
    std::atomic<size_t> next{0};
    std::mutex mu;
    double done = 0.0;
    std::string first_error;
    auto worker = [&] {
        for (size_t k; (k = next.fetch_add(1)) < order.size();) {
            if (cancel && cancel->load()) return;
            StudyPoint& p = r.points[order[k]];
            SceneDriver d;
            std::string e = d.load(kScene, paramsFor(st, p.mode, p.substeps, p.iterations, r.mean_inverse_mass),
                                   {true, true});
            p.pbd_k = p.mode == sim::ConstraintMode::Xpbd
                          ? 0.0
                          : pbdStiffnessFor(st.stiffness, d.params().frame_dt, p.substeps, r.mean_inverse_mass);
            sim::SolverParams params = d.params();
            const int half = st.frames / 2;
            for (int f = 0; e.empty() && f < st.frames; ++f) {
                if (cancel && cancel->load()) return;
                if (f >= half) {
                    params.damping = st.frames - 1 > half ? st.damping * float(st.frames - 1 - f) / float(st.frames - 1 - half)
                                                          : 0.0f;
                    e = d.setParams(params);
                }
                if (!d.step().ok) {
                    p.ok = false;
                    break;
                }
            }
            if (e.empty() && p.ok) {
                p.elongation_pct = elongationPct(d.sim());
                p.shape = surfaceOf(d.sim().world(), d.sim().world().particles.x);
            }
            std::lock_guard lk(mu);
            if (!e.empty() && first_error.empty()) first_error = e;
            done += double(p.substeps * p.iterations + 2 * p.substeps);
            if (progress) *progress = float(done / total);
        }
    };
    int threads = st.threads > 0 ? st.threads : int(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min<int>(threads, int(order.size()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    r.cancelled = cancel && cancel->load();
    r.error = first_error;
    return r;
}

std::string studyCsv(const StudyResult& r) {
    std::ostringstream o;
    o.precision(6);
    o << "view,mode,substeps,iterations,elongation_pct,reference_pct,error_pct,pbd_k\n";
    for (const auto& p : r.points) {
        if (!p.ok) continue;
        o << p.view << "," << sim::modeName(p.mode) << "," << p.substeps << "," << p.iterations << "," << p.elongation_pct
          << "," << r.reference_pct << "," << r.errorPct(p) << "," << p.pbd_k << "\n";
    }
    return o.str();
}

std::string studyJson(const StudyResult& r) {
    using nlohmann::json;
    const auto& s = r.settings;
    json j;
    j["scene"] = kScene;
    j["settings"] = {{"stiffness_n_per_m", s.stiffness}, {"substeps", s.substeps},   {"iterations", s.iterations},
                     {"equal_cost", s.equal_cost},      {"frames", s.frames},       {"damping", s.damping},
                     {"frame_dt", 1.0 / 30.0}};
    j["reference"] = {{"elongation_pct", r.reference_pct}, {"method", r.reference_method}};
    j["pbd_stiffness_rule"] = {{"formula", "k_pbd = w / (w + 1/(k dt^2))"}, {"mean_edge_inverse_mass", r.mean_inverse_mass}};
    json pts = json::array();
    for (const auto& p : r.points) {
        json q = {{"view", p.view},          {"mode", std::string(sim::modeName(p.mode))}, {"substeps", p.substeps},
                  {"iterations", p.iterations}, {"ok", p.ok},             {"pbd_k", p.pbd_k}};
        if (p.ok) {
            q["elongation_pct"] = p.elongation_pct;
            q["error_pct"] = r.errorPct(p);
        }
        pts.push_back(q);
    }
    j["points"] = pts;
    return j.dump(2) + "\n";
}

}  // namespace app

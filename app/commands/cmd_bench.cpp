// `msxpbd bench`: scenes × solvers × thread counts × iteration counts, each
// repeated, with the median and spread of ms/frame, per-phase ms, constraints
// per second, colours and the final residual; a bare distance-kernel floor on
// the same data; and residual-vs-iteration curves for the convergence study.
// Speed is reported as measured here, with the build type and thread count.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <tuple>
#include <optional>
#include <sstream>

#include <omp.h>

#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "app/commands/commands.h"
#include "app/run/run_report.h"
#include "app/run/scene_driver.h"
#include "app/cli/solver_flags.h"
#include "sim/constraint_kernels.h"
#include "engine/export/temp_files.h"

namespace app {

namespace {
using nlohmann::json;
using Clock = std::chrono::steady_clock;
constexpr int kConvergedFactor = 4;  // --accuracy: the converged frame's iterations over the most listed

// --accuracy: the converged frame's iteration count for an iteration list.
int convergedIterations(const std::vector<int>& iterations) {
    return std::min(1000, kConvergedFactor * *std::max_element(iterations.begin(), iterations.end()));
}

std::string benchUsage() {
    return "usage: msxpbd bench [options]\n"
           "  --scenes LIST      comma-separated scenes: files, short names (t5,t7) or builtin:NAME\n"
           "                     (default builtin:t1,builtin:p1,builtin:p2)\n"
           "  --solvers LIST     " + sim::solverList(",") + " (default: all)\n"
           "  --threads LIST     thread counts (default 1,<all cores>)\n"
           "  --iterations LIST  iteration counts (default 10)\n"
           "  --frames N         frames per repeat [1, 100000] (default 60)\n"
           "  --warmup N         frames run before timing [0, 10000] (default 10)\n"
           "  --repeats N        repeats per configuration [1, 100] (default 3)\n"
           "  --activation A     constant activation [0, 1] (default: the ramp)\n"
           "  --search-every N   substeps between full contact searches (0 = once per frame,\n"
           "                     the default; 1 = every substep) [0, 100]\n"
           "  --convergence      also record residual vs iteration for each solver\n"
           "  --accuracy         also measure each row's last frame against the converged\n"
           "                     one (SST at 4x the most iterations listed): how far its\n"
           "                     muscle vertices lie from it (median, 99th percentile, mm),\n"
           "                     and name the fastest row as close as SST's fewest iterations\n"
           "  --json OUT | --csv OUT  machine-readable results\n";
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Config {
    std::string scene;
    sim::SolverKind solver;
    int threads;
    int iterations;
};

struct Result {
    Config cfg;
    double ms_median = 0, ms_min = 0, ms_max = 0;
    std::vector<double> phase_ms;
    double project_ms = 0;
    double search_ms = 0;  // the contact search (Phase::Contacts)
    double frame_dt = 1.0 / 30.0;
    double constraints_per_s = 0;
    size_t constraints = 0, vertices = 0;
    int colors = 0;
    float residual = 0;
    double off_median_mm = -1.0, off_p99_mm = -1.0;  // from the converged frame (--accuracy); < 0: not measured
    std::string hash;
    bool ok = true;
    std::string error;
};

// Constraint projections per frame: every constraint once per iteration and substep.
size_t projectionsPerFrame(const sim::Simulation& s) {
    auto c = s.constraintCounts();
    return (c.fiber + c.structure + c.volume + c.plane + c.contact + c.sliding) * size_t(s.params().iterations) *
           size_t(s.params().substeps);
}

// The muscles' surface vertices, in world order: what a viewer sees of a frame.
std::vector<glm::vec3> surfacePositions(const sim::Simulation& s) {
    std::vector<glm::vec3> out;
    const sim::World& w = s.world();
    for (const sim::Muscle& m : w.muscles)
        out.insert(out.end(), w.particles.p.begin() + m.first, w.particles.p.begin() + m.first + m.surface_count);
    return out;
}

// How far one frame's surface vertices lie from another's: median and 99th
// percentile, mm.
std::pair<double, double> offConverged(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    std::vector<double> d(a.size());
    for (size_t i = 0; i < a.size(); ++i) d[i] = double(glm::length(a[i] - b[i])) * 1e3;
    if (d.empty()) return {0.0, 0.0};
    std::sort(d.begin(), d.end());
    return {d[d.size() / 2], d[std::min(d.size() - 1, size_t(double(d.size()) * 0.99))]};
}

// The converged frame the rows are measured against (--accuracy): the same
// scene and frames under SST at `iterations` (convergedIterations) — Gauss-Seidel
// converges fastest per iteration of the four modes (docs/lab/auto-solver.md),
// and one frame for all rows lets rows at different iterations compare.
std::vector<glm::vec3> convergedFrame(const std::string& scene, int iterations, int frames, const ActivationSource& act,
                                      const sim::SolverParams& base) {
    SceneDriver d;
    sim::SolverParams p = base;
    p.solver = sim::SolverKind::Sst;
    p.threads = 0;
    p.iterations = iterations;
    if (!d.load(scene, p).empty()) return {};
    d.setActivationSource(act);
    for (int f = 0; f < frames; ++f)
        if (!d.step().ok) return {};
    return surfacePositions(d.sim());
}

Result runConfigUnguarded(const Config& cfg, int frames, int warmup, int repeats, const ActivationSource& act,
                          const sim::SolverParams& base, const std::vector<glm::vec3>* converged) {
    Result r;
    r.cfg = cfg;
    std::vector<double> medians;
    std::vector<double> phase_sum(sim::kPhaseCount, 0.0);
    double proj_per_frame = 0.0;
    for (int rep = 0; rep < repeats; ++rep) {
        SceneDriver d;
        // bench has no solver flags: the scene's own substeps/carry, as `run` uses.
        sim::SolverParams p = base;
        p.solver = cfg.solver;
        p.threads = cfg.threads;
        p.iterations = cfg.iterations;
        if (auto e = d.load(cfg.scene, p); !e.empty()) {
            r.ok = false;
            r.error = e;
            return r;
        }
        d.setActivationSource(act);
        for (int f = 0; f < warmup; ++f) d.step();
        RunRecorder rec;
        rec.measure = false;
        r.frame_dt = d.sim().params().frame_dt;
        for (int f = 0; f < frames; ++f) {
            auto t0 = Clock::now();
            auto rep_ok = d.step();
            auto t1 = Clock::now();
            if (!rep_ok.ok) {
                r.ok = false;
                r.error = rep_ok.nan.message();
                break;
            }
            rec.addFrame(std::chrono::duration<double, std::milli>(t1 - t0).count(), d.sim());
            proj_per_frame += double(projectionsPerFrame(d.sim()));
        }
        medians.push_back(rec.median());
        for (int i = 0; i < sim::kPhaseCount; ++i) phase_sum[size_t(i)] += rec.phase_ms_sum[size_t(i)];
        r.constraints = d.sim().constraintCounts().total();
        r.vertices = d.sim().world().surfaceVertexCount();
        r.colors = d.sim().colorCount();
        r.residual = d.sim().residuals().max();
        r.hash = hex64(d.sim().positionsHash());
        if (converged && r.ok && rep + 1 == repeats) {
            const std::vector<glm::vec3> last = surfacePositions(d.sim());
            if (last.size() == converged->size()) std::tie(r.off_median_mm, r.off_p99_mm) = offConverged(last, *converged);
        }
    }
    const double total_frames = double(frames) * double(repeats);
    r.ms_median = median(medians);
    r.ms_min = *std::min_element(medians.begin(), medians.end());
    r.ms_max = *std::max_element(medians.begin(), medians.end());
    r.phase_ms.resize(sim::kPhaseCount);
    for (int i = 0; i < sim::kPhaseCount; ++i) {
        r.phase_ms[size_t(i)] = phase_sum[size_t(i)] / total_frames;
        if (sim::isProjectPhase(static_cast<sim::Phase>(i))) r.project_ms += r.phase_ms[size_t(i)];
    }
    r.search_ms = r.phase_ms[size_t(sim::Phase::Contacts)];
    r.constraints_per_s = r.project_ms > 0 ? (proj_per_frame / total_frames) / (r.project_ms * 1e-3) : 0.0;
    return r;
}

// A configuration that runs out of memory (or throws) is reported as failed,
// naming its scene; the other configurations still run.
Result runConfig(const Config& cfg, int frames, int warmup, int repeats, const ActivationSource& act,
                 const sim::SolverParams& base, const std::vector<glm::vec3>* converged) {
    try {
        return runConfigUnguarded(cfg, frames, warmup, repeats, act, base, converged);
    } catch (const std::exception& e) {
        Result r;
        r.cfg = cfg;
        r.ok = false;
        r.error = cfg.scene + ": " + (dynamic_cast<const std::bad_alloc*>(&e) ? std::string("out of memory") : e.what());
        return r;
    }
}

// The bare Gauss-Seidel distance kernel over the scene's distance constraints,
// single thread, no timers or other families: the floor the solver's
// constraints per second can be read against.
double bareKernelRate(const std::string& scene, int iterations) {
    SceneDriver d;
    if (!d.load(scene).empty()) return 0.0;
    d.step();  // rest lengths and compliances prepared
    sim::World& w = d.sim().mutableWorld();
    auto& p = w.particles.p;
    const auto& wi = w.particles.w;
    auto& D = w.distances;
    const int reps = 20;
    auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r)
        for (int it = 0; it < iterations; ++it)
            for (size_t k = 0; k < D.size(); ++k) {
                const auto& c = D.c[k];
                glm::vec3 n;
                float dl = sim::distanceDelta(p[c.i], p[c.j], wi[c.i], wi[c.j], c.rest, c.alpha_tilde, c.scale,
                                              D.lambda[k], n);
                D.lambda[k] += dl;
                p[c.i] += (wi[c.i] * dl) * n;
                p[c.j] -= (wi[c.j] * dl) * n;
            }
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    return double(D.size()) * iterations * reps / s;
}

json convergenceCurves(const std::string& scene, const std::vector<sim::SolverKind>& solvers, int iterations,
                       const sim::SolverParams& base, const ActivationSource& act) {
    json curves = json::array();
    auto run = [&](sim::SolverKind k, float omega) {
        SceneDriver d;
        if (!d.load(scene).empty()) return;
        sim::SolverParams p = base;
        p.solver = k;
        p.iterations = iterations;
        p.omega = omega;
        if (!d.setParams(p).empty()) return;
        d.setActivationSource(act);
        for (int f = 0; f < 30; ++f) d.step();
        d.sim().setRecordConvergence(true);
        d.step();
        curves.push_back({{"solver", std::string(sim::solverName(k))},
                          {"omega", omega},
                          {"residual", d.sim().convergence()}});
    };
    for (auto k : solvers) {
        if (k == sim::SolverKind::Jacobi)
            for (float w : {1.0f, 1.5f, 1.9f}) run(k, w);
        else
            run(k, base.omega);
    }
    return curves;
}
// Ratios within this run (the same machine, the same minute): each parallel
// mode's speed-up from 1 to the most threads, coloring against SST at one
// thread, and each scene's fastest mode with its real-time factor.
void printSpeedups(std::ostream& os, const std::vector<Result>& results, const std::vector<std::string>& scenes,
                   const std::vector<int>& threads, const std::vector<int>& iterations) {
    auto find = [&](const std::string& scene, sim::SolverKind k, int th, int it) -> const Result* {
        for (const auto& r : results)
            if (r.ok && r.cfg.scene == scene && r.cfg.solver == k && r.cfg.threads == th && r.cfg.iterations == it)
                return &r;
        return nullptr;
    };
    const int lo = *std::min_element(threads.begin(), threads.end());
    const int hi = *std::max_element(threads.begin(), threads.end());
    os << std::fixed << std::setprecision(2);
    for (const auto& scene : scenes)
        for (int it : iterations) {
            const std::string shown = std::filesystem::path(scene).filename().string();
            os << shown << ", " << it << " iterations:";
            if (hi != lo)
                for (auto k : {sim::SolverKind::Sst, sim::SolverKind::Jacobi, sim::SolverKind::Coloring,
                               sim::SolverKind::Hybrid})
                    if (const Result *a = find(scene, k, lo, it), *b = find(scene, k, hi, it); a && b && b->ms_median > 0)
                        os << " " << sim::solverName(k) << " " << lo << "->" << hi << " threads x"
                           << a->ms_median / b->ms_median << ";";
            if (const Result *c = find(scene, sim::SolverKind::Coloring, lo, it), *s = find(scene, sim::SolverKind::Sst, lo, it);
                c && s && s->ms_median > 0)
                os << " coloring/sst at " << lo << " thread(s) " << c->ms_median / s->ms_median << ";";
            const Result* best = nullptr;
            for (const auto& r : results)
                if (r.ok && r.cfg.scene == scene && r.cfg.iterations == it && (!best || r.ms_median < best->ms_median))
                    best = &r;
            if (best && best->ms_median > 0)
                os << " fastest " << sim::solverName(best->cfg.solver) << " at " << best->cfg.threads << " thread(s) "
                   << best->ms_median << " ms = " << best->frame_dt * 1e3 / best->ms_median << "x real time";
            os << "\n";
        }
    os << std::defaultfloat;
}

// --accuracy: per scene and thread count, the fastest row (any mode, any
// iterations listed) whose last frame lies no further from the converged one
// than SST's at its fewest iterations: the speed that buys the same look.
void printEqualAccuracy(std::ostream& os, const std::vector<Result>& results, const std::vector<std::string>& scenes,
                        const std::vector<int>& threads, const std::vector<int>& iterations) {
    const int fewest = *std::min_element(iterations.begin(), iterations.end());
    os << std::fixed << std::setprecision(2);
    for (const auto& scene : scenes)
        for (int th : threads) {
            const Result* sst = nullptr;
            for (const auto& r : results)
                if (r.ok && r.off_median_mm >= 0.0 && r.cfg.scene == scene && r.cfg.threads == th &&
                    r.cfg.solver == sim::SolverKind::Sst && r.cfg.iterations == fewest)
                    sst = &r;
            if (!sst) continue;
            const Result* best = nullptr;
            for (const auto& r : results)
                if (r.ok && r.off_median_mm >= 0.0 && r.cfg.scene == scene && r.cfg.threads == th &&
                    r.off_median_mm <= sst->off_median_mm && (!best || r.ms_median < best->ms_median))
                    best = &r;
            os << std::filesystem::path(scene).filename().string() << ", " << th << " thread(s): as close to the converged frame as sst at "
               << fewest << " iterations (median " << sst->off_median_mm << " mm) or closer: fastest "
               << sim::solverName(best->cfg.solver) << " at " << best->cfg.iterations << " iterations, " << best->ms_median
               << " ms/frame\n";
        }
    os << std::defaultfloat;
}

// What `bench` was asked to run (docs/benchmarks.md).
struct BenchOptions {
    std::vector<std::string> scenes;
    std::vector<sim::SolverKind> solvers;
    std::vector<int> threads, iterations;
    int frames = 60, warmup = 10, repeats = 3;
    ActivationSource activation{ActivationSource::Kind::Ramp, 1.0f};
    sim::SolverParams base;
    bool convergence = false, accuracy = false;
    std::optional<std::string> json_out, csv_out;
};

BenchOptions parseBenchOptions(const CliArgs& args) {
    BenchOptions o;
    o.scenes = args.list("--scenes");
    if (o.scenes.empty()) o.scenes = {"builtin:t1", "builtin:p1", "builtin:p2"};
    auto solver_names = args.list("--solvers");
    if (solver_names.empty())
        for (std::string_view n : sim::solverNames()) solver_names.emplace_back(n);
    for (const auto& s : solver_names) {
        auto k = sim::parseSolver(s);
        if (!k) throw CliError("--solvers: '" + s + "' is unknown (valid: " + sim::solverList() + ")");
        o.solvers.push_back(*k);
    }
    for (const auto& t : args.list("--threads")) o.threads.push_back(int(parseInteger("--threads", t, 1, 256)));
    if (o.threads.empty()) o.threads = {1, omp_get_num_procs()};
    if (o.threads.size() == 2 && o.threads[0] == o.threads[1]) o.threads.pop_back();
    for (const auto& t : args.list("--iterations"))
        o.iterations.push_back(int(parseInteger("--iterations", t, 1, 1000)));
    if (o.iterations.empty()) o.iterations = {10};
    o.frames = int(args.integer("--frames", 60, 1, 100000));
    o.warmup = int(args.integer("--warmup", 10, 0, 10000));
    o.repeats = int(args.integer("--repeats", 3, 1, 100));
    if (auto a = args.get("--activation"))
        o.activation = {ActivationSource::Kind::Constant, float(parseNumber("--activation", *a, 0.0, 1.0))};
    o.base.search_every = int(args.integer("--search-every", o.base.search_every, 0, 100));
    o.convergence = args.flag("--convergence");
    o.accuracy = args.flag("--accuracy");
    o.json_out = args.get("--json");
    o.csv_out = args.get("--csv");
    if (o.json_out) checkOutputPath("--json", *o.json_out);
    if (o.csv_out) checkOutputPath("--csv", *o.csv_out);
    // Every scene must load: a typo or a bad file is an error, not a table
    // of skipped rows (runs that fail later, a NaN, are still reported as rows).
    for (const auto& scene : o.scenes) {
        SceneDriver probe;
        if (auto e = probe.load(scene); !e.empty()) throw CliError(e);
    }
    return o;
}

void printTableHeader(const BenchOptions& o) {
    std::cout << "msxpbd bench: " << buildType() << " build, " << omp_get_num_procs() << " cores, " << o.frames
              << " frames x " << o.repeats << " repeats per row, contact search "
              << (o.base.search_every == 0 ? std::string("once per frame")
                                           : "every " + std::to_string(o.base.search_every) + " substep(s)")
              << "\n";
    std::cout << std::left << std::setw(22) << "scene" << std::setw(10) << "solver" << std::setw(8) << "threads"
              << std::setw(6) << "iter" << std::right << std::setw(10) << "ms/frame" << std::setw(16)
              << "spread" << std::setw(11) << "project" << std::setw(9) << "search" << std::setw(8) << "RT x"
              << std::setw(12) << "Mconstr/s" << std::setw(8)
              << "colors" << std::setw(12) << "residual";
    if (o.accuracy) std::cout << std::setw(16) << "off mm med/p99";
    std::cout << "\n";
}

void printRow(const Result& r) {
    // The table shows the file name (paths overflow the column; JSON/CSV keep them).
    const std::string shown = std::filesystem::path(r.cfg.scene).filename().string();
    std::cout << std::left << std::setw(22) << (shown.size() > 21 ? shown.substr(0, 21) : shown)
              << std::setw(10)
              << sim::solverName(r.cfg.solver) << std::setw(8) << r.cfg.threads << std::setw(6) << r.cfg.iterations
              << std::right;
    if (!r.ok) {
        std::cout << "  skipped: " << r.error << "\n";
        return;
    }
    std::ostringstream spread;
    spread << std::fixed << std::setprecision(2) << r.ms_min << "-" << r.ms_max;
    std::cout << std::fixed << std::setprecision(2) << std::setw(10) << r.ms_median
              << std::setw(16) << spread.str() << std::setw(11) << r.project_ms
              << std::setw(9) << r.search_ms << std::setw(8)
              << (r.ms_median > 0 ? r.frame_dt * 1e3 / r.ms_median : 0.0) << std::setw(12) << r.constraints_per_s * 1e-6 << std::setw(8) << r.colors
              << std::setw(12) << std::scientific << std::setprecision(2) << r.residual << std::defaultfloat;
    if (r.off_median_mm >= 0.0) {
        std::ostringstream off;
        off << std::fixed << std::setprecision(2) << r.off_median_mm << "/" << std::setprecision(1) << r.off_p99_mm;
        std::cout << std::setw(16) << off.str();
    }
    std::cout << "\n";
}

// Every scene x solver x thread count x iteration count, a row each as it finishes.
std::vector<Result> runAll(const BenchOptions& o) {
    std::vector<Result> results;
    for (const auto& scene : o.scenes) {
        // --accuracy: the converged frame, before the scene's rows (not timed).
        std::vector<glm::vec3> converged;
        if (o.accuracy)
            converged = convergedFrame(scene, convergedIterations(o.iterations), o.warmup + o.frames, o.activation, o.base);
        for (auto solver : o.solvers)
            for (int th : o.threads)
                for (int it : o.iterations) {
                    const std::vector<glm::vec3>* ref = converged.empty() ? nullptr : &converged;
                    Result r = runConfig({scene, solver, th, it}, o.frames, o.warmup, o.repeats, o.activation, o.base, ref);
                    printRow(r);
                    results.push_back(std::move(r));
                }
    }
    return results;
}

json kernelFloors(const BenchOptions& o) {
    json floor = json::object();
    for (const auto& scene : o.scenes) {
        double rate = bareKernelRate(scene, o.iterations.front());
        floor[scene] = rate;
        std::cout << "bare distance kernel floor (" << scene << ", 1 thread): " << std::fixed
                  << std::setprecision(1) << rate * 1e-6 << " M constraints/s\n";
    }
    return floor;
}

json resultRows(const std::vector<Result>& results) {
    json rows = json::array();
    for (const auto& r : results) {
        json row = {{"scene", r.cfg.scene}, {"solver", std::string(sim::solverName(r.cfg.solver))},
                    {"threads", r.cfg.threads}, {"iterations", r.cfg.iterations}, {"ok", r.ok}};
        if (!r.ok) {
            row["error"] = r.error;
        } else {
            json phases = json::object();
            for (int i = 0; i < sim::kPhaseCount; ++i)
                phases[std::string(sim::phaseName(static_cast<sim::Phase>(i)))] = r.phase_ms[size_t(i)];
            phases["project"] = r.project_ms;
            row.update({{"ms_per_frame", {{"median", r.ms_median}, {"min", r.ms_min}, {"max", r.ms_max}}},
                        {"phases_ms", phases},
                        {"real_time_factor", r.ms_median > 0 ? r.frame_dt * 1e3 / r.ms_median : 0.0},
                        {"constraints_per_s", r.constraints_per_s},
                        {"constraints", r.constraints},
                        {"vertices", r.vertices},
                        {"colors", r.colors},
                        {"max_residual", r.residual},
                        {"positions_hash", r.hash}});
            if (r.off_median_mm >= 0.0)
                row["off_converged_mm"] = {{"median", r.off_median_mm}, {"p99", r.off_p99_mm}};
        }
        rows.push_back(row);
    }
    return rows;
}

// Residual against iteration for every solver on the first scene, printed
// at iterations 1, 10 and the last.
json convergence(const BenchOptions& o) {
    json curves = convergenceCurves(o.scenes.front(), o.solvers, o.iterations.back() < 20 ? 50 : o.iterations.back(),
                                    o.base, o.activation);
    std::cout << "convergence (" << o.scenes.front() << "): residual after iteration 1, 10, last\n";
    for (const auto& c : curves) {
        const auto& res = c["residual"];
        if (res.empty()) continue;
        std::cout << "  " << std::left << std::setw(10) << c["solver"].get<std::string>() << " omega "
                  << c["omega"].get<double>() << ": " << std::scientific << std::setprecision(3)
                  << res.front().get<double>() << "  " << res[std::min<size_t>(9, res.size() - 1)].get<double>()
                  << "  " << res.back().get<double>() << std::defaultfloat << "\n";
    }
    return curves;
}

void writeCsv(const std::string& path, const std::vector<Result>& results) {
    std::ostringstream f;
    f << "scene,solver,threads,iterations,ms_median,ms_min,ms_max,project_ms,search_ms,real_time_factor,"
         "constraints_per_s,colors,max_residual\n";
    for (const auto& r : results)
        if (r.ok)
            f << r.cfg.scene << "," << sim::solverName(r.cfg.solver) << "," << r.cfg.threads << ","
              << r.cfg.iterations << "," << r.ms_median << "," << r.ms_min << "," << r.ms_max << ","
              << r.project_ms << "," << r.search_ms << ","
              << (r.ms_median > 0 ? r.frame_dt * 1e3 / r.ms_median : 0.0) << "," << r.constraints_per_s << "," << r.colors << "," << r.residual << "\n";
    if (auto e = engine::writeWholeFile(path, f.str()); !e.empty()) throw CliError(e);
}

}  // namespace

int benchCommand(const Args& raw) {
    try {
        CliArgs args(raw,
                     {"--scenes", "--solvers", "--threads", "--iterations", "--frames", "--warmup", "--repeats",
                      "--activation", "--search-every", "--json", "--csv"},
                     {"--help", "--convergence", "--accuracy"});
        if (args.flag("--help")) {
            std::cout << benchUsage();
            return 0;
        }
        const BenchOptions o = parseBenchOptions(args);
        printTableHeader(o);
        const std::vector<Result> results = runAll(o);
        printSpeedups(std::cout, results, o.scenes, o.threads, o.iterations);
        if (o.accuracy) printEqualAccuracy(std::cout, results, o.scenes, o.threads, o.iterations);
        json j;
        j["build_type"] = buildType();
        j["cores"] = omp_get_num_procs();
        j["frames"] = o.frames;
        j["repeats"] = o.repeats;
        j["search_every"] = o.base.search_every;
        if (o.accuracy)
            j["converged_frame"] = {{"solver", "sst"}, {"iterations", convergedIterations(o.iterations)}};
        j["kernel_floor_constraints_per_s"] = kernelFloors(o);
        j["results"] = resultRows(results);
        if (o.convergence) j["convergence"] = convergence(o);
        if (o.json_out) {
            if (auto e = engine::writeWholeFile(*o.json_out, j.dump(2) + "\n"); !e.empty()) throw CliError(e);
        }
        if (o.csv_out) writeCsv(*o.csv_out, results);
        return 0;
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd bench: %s\n", e.what());
        return 1;
    }
}

}  // namespace app

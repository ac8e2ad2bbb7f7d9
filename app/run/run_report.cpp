#include "app/run/run_report.h"
#include "engine/build_info.h"
#include "sim/printable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include <omp.h>

namespace app {

namespace {

// A particle as its muscle's mesh vertex (the muscle's particles are its
// mesh's vertices in order, then its branch points), or −1.
int vertexOf(const sim::Simulation& s, int muscle, int particle) {
    if (muscle < 0 || particle < 0 || size_t(muscle) >= s.world().muscles.size()) return -1;
    const sim::Muscle& m = s.world().muscles[size_t(muscle)];
    return uint32_t(particle) >= m.first ? int(uint32_t(particle) - m.first) : -1;
}

// The median and the largest of per-frame values (0 when there are none).
nlohmann::json medianAndMax(std::vector<float> v) {
    if (v.empty()) return {{"median", 0.0}, {"max", 0.0}};
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    const double median = n % 2 ? double(v[n / 2]) : 0.5 * (double(v[n / 2 - 1]) + double(v[n / 2]));
    return {{"median", median}, {"max", double(v.back())}};
}

}  // namespace

void RunRecorder::addFrame(double ms, const sim::Simulation& s, const std::vector<glm::vec3>* drawn_skin_given) {
    frame_ms.push_back(ms);
    for (int p = 0; p < sim::kPhaseCount; ++p) phase_ms_sum[size_t(p)] += s.timers().last_frame_ms[size_t(p)];
    if (!measure) return;
    const sim::Simulation::BonePenetration pen = s.bonePenetration();
    if (pen.depth > bone_penetration.value || bone_penetration.frame < 0)
        bone_penetration = {pen.depth, pen.muscle, s.frame(),
                            pen.body >= 0 ? s.world().bodies[size_t(pen.body)].name : std::string(),
                            vertexOf(s, pen.muscle, pen.particle)};
    const sim::Simulation::MusclePenetration mp = s.musclePenetration();
    if (mp.depth > muscle_penetration.value || muscle_penetration.frame < 0)
        muscle_penetration = {mp.depth, mp.muscle, s.frame(),
                              mp.into >= 0 ? s.world().muscles[size_t(mp.into)].name : std::string(),
                              vertexOf(s, mp.muscle, mp.particle)};
    if (mp.deepest_raw > into_muscle.value || into_muscle.frame < 0)
        into_muscle = {mp.deepest_raw, mp.muscle, s.frame(),
                       mp.into >= 0 ? s.world().muscles[size_t(mp.into)].name : std::string(),
                       vertexOf(s, mp.muscle, mp.particle)};
    into_share_past_3mm.push_back(mp.free_vertices > 0 ? float(mp.vertices_past_3mm_raw) / float(mp.free_vertices) : 0.0f);
    const sim::DriftResult dr = s.drift();
    drift_p99.push_back(dr.p99);
    if (dr.deepest > drift.value || drift.frame < 0) drift = {dr.deepest, dr.muscle, s.frame(), {}, vertexOf(s, dr.muscle, dr.particle)};
    drift_per_muscle.resize(dr.muscle_max.size(), 0.0f);
    for (size_t m = 0; m < dr.muscle_max.size(); ++m) drift_per_muscle[m] = std::max(drift_per_muscle[m], dr.muscle_max[m]);
    if (s.world().envelope.active()) {
        has_envelope = true;
        const sim::EnvelopeOutside o = s.envelopeOutside();
        if (o.deepest > outside_skin.value || outside_skin.frame < 0)
            outside_skin = {o.deepest, o.muscle, s.frame(), {}, vertexOf(s, o.muscle, o.particle)};
        outside_share_past_2mm.push_back(o.vertices > 0 ? float(o.vertices_past_2mm) / float(o.vertices) : 0.0f);
        outside_per_muscle.resize(o.muscle_deepest.size(), 0.0f);
        for (size_t m = 0; m < o.muscle_deepest.size(); ++m)
            outside_per_muscle[m] = std::max(outside_per_muscle[m], o.muscle_deepest[m]);
        if (!drawn_skin_given) {
            const auto w0 = std::chrono::steady_clock::now();
            sim::wrapSkin(s.world(), s.world().particles.x, sim::kSkinWrapClearance, wrap_scratch, drawn_skin);
            skin_wrap_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count());
        }
        const sim::EnvelopeOutside d =
            sim::measureOutside(s.world(), s.world().particles.x, drawn_skin_given ? *drawn_skin_given : drawn_skin, true);
        if (d.deepest > outside_drawn_skin.value || outside_drawn_skin.frame < 0)
            outside_drawn_skin = {d.deepest, d.muscle, s.frame(), {}, vertexOf(s, d.muscle, d.particle)};
    }
    const std::vector<sim::MuscleStats> stats = s.muscleStats();
    if (trace) {
        trace_time.push_back(s.time());
        trace_activation.emplace_back();
        trace_volume_ratio.emplace_back();
        trace_length_ratio.emplace_back();
        trace_bone_penetration.push_back(pen.depth);
        trace_muscle_penetration.push_back(mp.depth);
        trace_muscle_vertices_past_3mm.push_back(mp.vertices_past_3mm);
    }
    most_muscle_vertices_past_3mm = std::max(most_muscle_vertices_past_3mm, mp.vertices_past_3mm);
    for (const sim::TissuePairOverlap& q : mp.pairs_past_3mm) {
        auto it = std::lower_bound(muscle_pairs.begin(), muscle_pairs.end(), q, [](const PairOverlap& a, const sim::TissuePairOverlap& b) {
            return std::make_pair(a.muscle, a.into) < std::make_pair(b.muscle, b.into);
        });
        if (it == muscle_pairs.end() || it->muscle != q.muscle || it->into != q.into)
            it = muscle_pairs.insert(it, PairOverlap{q.muscle, q.into, 0, 0.0, -1});
        it->vertex_frames += q.vertices;
        if (it->frame < 0 || double(q.deepest) > it->deepest) it->deepest = q.deepest, it->frame = s.frame();
    }
    for (size_t m = 0; m < stats.size(); ++m) {
        const sim::MuscleStats& st = stats[m];
        const double v = st.rest_volume > 0.0f ? double(st.volume) / double(st.rest_volume) : 1.0;
        if (v < min_volume_ratio.value) min_volume_ratio = {v, int(m), s.frame(), {}};
        if (v > max_volume_ratio.value) max_volume_ratio = {v, int(m), s.frame(), {}};
        if (!trace) continue;
        trace_activation.back().push_back(st.activation);
        trace_volume_ratio.back().push_back(float(v));
        trace_length_ratio.back().push_back(st.rest_length > 0.0f ? st.length / st.rest_length : 1.0f);
    }
}

double RunRecorder::percentile(double q) const {
    if (frame_ms.empty()) return 0.0;
    std::vector<double> v = frame_ms;
    std::sort(v.begin(), v.end());
    double pos = q * double(v.size() - 1);
    size_t lo = size_t(pos);
    size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
}

double RunRecorder::median() const { return percentile(0.5); }

std::string buildType() { return engine::buildType(); }

std::string hex64(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
    return buf;
}

nlohmann::json runSetup(const std::string& scene, const sim::Simulation& s) {
    using nlohmann::json;
    const sim::SolverParams& p = s.params();
    const sim::World& w = s.world();
    json j;
    j["scene"] = scene;
    j["solver"] = std::string(sim::solverName(p.solver));
    j["mode"] = std::string(sim::modeName(p.mode));
    j["fiber_form"] = std::string(sim::fiberFormName(p.fiber_form));
    j["contacts"] = std::string(sim::contactModelName(p.contacts));
    j["threads"] = p.threads > 0 ? p.threads : omp_get_num_procs();
    j["build_type"] = buildType();
    // OpenMP's waiting policy in force (the program picks passive unless told).
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    j["omp_wait_policy"] = policy && *policy ? std::string(policy) : "default";
    j["iterations"] = p.iterations;
    j["substeps"] = p.substeps;
    j["carry"] = p.carry;  // share of the bones' acceleration the muscles take on (SolverParams::carry)
    j["dt"] = p.frame_dt;
    j["vertices"] = w.surfaceVertexCount();
    j["branch_points"] = w.branchPointCount();
    j["particles"] = w.particles.size();
    j["muscles"] = w.muscles.size();
    sim::ConstraintCounts c = s.constraintCounts();
    j["constraints"] = {{"fiber", c.fiber},     {"structure", c.structure}, {"volume", c.volume},
                        {"attachment", c.attachment}, {"plane", c.plane}, {"contact", c.contact},
                        {"sliding", c.sliding}, {"total", c.total()}};
    if (w.envelope.active()) {
        // At rest: the muscles' bind pose against the skin's.
        const sim::EnvelopeOutside o = sim::measureOutside(w, w.particles.rest, w.envelope.rest);
        j["envelope"] = {{"name", w.envelope.name},
                         {"triangles", w.envelope.triangles.size()},
                         {"thickness_m", w.envelope.thickness},
                         {"outside_at_rest_m", o.deepest},
                         {"outside_at_rest_past_1mm", o.vertices_past_1mm}};

    }
    j["colors"] = s.colorCount();
    j["colors_without_hub_remedy"] = s.colorsWithoutRemedy();
    auto sizes = s.colorSizes();
    j["color_sizes"] = sizes;
    if (!sizes.empty()) {
        j["color_size_max"] = *std::max_element(sizes.begin(), sizes.end());
        j["color_size_min"] = *std::min_element(sizes.begin(), sizes.end());
    }
    return j;
}

nlohmann::json runReport(const std::string& scene, const sim::Simulation& s, const RunRecorder& rec,
                         const sim::StepReport& failure) {
    using nlohmann::json;
    json j = runSetup(scene, s);
    j["frames"] = rec.frame_ms.size();
    j["ms_per_frame"] = {{"median", rec.median()}, {"p95", rec.percentile(0.95)}};
    const double frames = double(std::max<size_t>(1, rec.frame_ms.size()));
    json phases = json::object();
    double project = 0.0;
    for (int i = 0; i < sim::kPhaseCount; ++i) {
        auto ph = static_cast<sim::Phase>(i);
        double ms = rec.phase_ms_sum[size_t(i)] / frames;
        if (sim::isProjectPhase(ph)) project += ms;
        phases[std::string(sim::phaseName(ph))] = ms;
    }
    phases["project"] = project;
    j["phases_ms"] = phases;
    sim::Residuals r = s.residuals();
    j["final"] = {{"nan", !failure.ok},
                  {"positions_hash", hex64(s.positionsHash())},
                  {"max_residual", r.max()},
                  {"residuals", {{"distance", r.distance}, {"volume_rel", r.volume_rel},
                                 {"penetration", r.penetration}, {"attachment", r.attachment}}},
                  {"time", s.time()}};
    if (!failure.ok) j["final"]["nan_report"] = failure.nan.message();
    const auto stats = s.muscleStats();
    json ms = json::array();
    for (const auto& m : stats)
        ms.push_back({{"name", m.name}, {"rest_volume", m.rest_volume}, {"volume", m.volume},
                      {"rest_length", m.rest_length}, {"length", m.length}, {"activation", m.activation}});
    j["muscle_stats"] = ms;
    // Where no muscle was involved the frame is null; so is the value of a
    // volume ratio (no muscles), while a penetration is then 0 (none).
    // A depth (penetration, drift, outside) names its vertex and, with
    // `other_key`, what the vertex lay in ("bone", "into"); a ratio names
    // neither.
    enum class Measure { Ratio, Depth };
    auto extreme = [&](const RunRecorder::Extreme& e, Measure measure, const char* other_key = nullptr) {
        const bool seen = e.frame >= 0 && e.muscle >= 0;
        const bool depth = measure == Measure::Depth;
        json x = {{"value", seen ? json(e.value) : (depth ? json(0.0) : json())},
                  {"frame", seen ? json(e.frame) : json()}};
        x["muscle"] = e.muscle >= 0 && size_t(e.muscle) < stats.size() ? json(stats[size_t(e.muscle)].name) : json();
        if (other_key && !e.into.empty()) x[other_key] = e.into;
        if (depth && seen && e.vertex >= 0) x["vertex"] = e.vertex;
        return x;
    };
    // The pairs with the most vertex-frames past 3 mm first (ties: the
    // deeper, then the pair's order), at most kPairsReported.
    constexpr size_t kPairsReported = 20;
    std::vector<RunRecorder::PairOverlap> pairs = rec.muscle_pairs;
    std::stable_sort(pairs.begin(), pairs.end(), [](const RunRecorder::PairOverlap& a, const RunRecorder::PairOverlap& b) {
        return a.vertex_frames != b.vertex_frames ? a.vertex_frames > b.vertex_frames : a.deepest > b.deepest;
    });
    json pair_list = json::array();
    auto muscleName = [&](int m) { return m >= 0 && size_t(m) < stats.size() ? json(stats[size_t(m)].name) : json(); };
    for (size_t k = 0; k < std::min(pairs.size(), kPairsReported); ++k)
        pair_list.push_back({{"muscle", muscleName(pairs[k].muscle)},
                             {"into", muscleName(pairs[k].into)},
                             {"vertex_frames_past_3mm", pairs[k].vertex_frames},
                             {"deepest_m", pairs[k].deepest},
                             {"frame", pairs[k].frame}});
    if (!rec.frame_ms.empty())
        j["over_run"] = {{"penetration_measure", "depth inside the surface less the contact radius"},
                         {"contact_radius_m", s.params().contact_radius},
                         {"bone_penetration_m", extreme(rec.bone_penetration, Measure::Depth, "bone")},
                         {"muscle_penetration_m", extreme(rec.muscle_penetration, Measure::Depth, "into")},
                         {"most_muscle_vertices_past_3mm", rec.most_muscle_vertices_past_3mm},
                         {"muscle_pairs_past_3mm", pair_list},
                         {"muscle_pairs_past_3mm_total", pairs.size()},
                         {"min_volume_ratio", extreme(rec.min_volume_ratio, Measure::Ratio)},
                         {"max_volume_ratio", extreme(rec.max_volume_ratio, Measure::Ratio)}};
    if (!rec.frame_ms.empty() && rec.measure) {
        // The limb measures (docs/model.md §8): outside the skin, and inside
        // another muscle by raw depth; shares per frame, their median frame.
        json limb = {{"into_muscle_m", extreme(rec.into_muscle, Measure::Depth, "into")},
                     {"into_share_past_3mm", medianAndMax(rec.into_share_past_3mm)}};
        limb["drift_p99_m"] = medianAndMax(rec.drift_p99);
        limb["drift_m"] = extreme(rec.drift, Measure::Depth);
        json drift_per = json::object();
        for (size_t m = 0; m < rec.drift_per_muscle.size() && m < stats.size(); ++m)
            drift_per[stats[m].name] = rec.drift_per_muscle[m];
        limb["drift_per_muscle_m"] = drift_per;
        if (rec.has_envelope) {
            limb["outside_skin_m"] = extreme(rec.outside_skin, Measure::Depth);
            limb["outside_share_past_2mm"] = medianAndMax(rec.outside_share_past_2mm);
            json per = json::object();
            for (size_t m = 0; m < rec.outside_per_muscle.size() && m < stats.size(); ++m)
                per[stats[m].name] = rec.outside_per_muscle[m];
            limb["outside_skin_per_muscle_m"] = per;
            limb["outside_drawn_skin_m"] = extreme(rec.outside_drawn_skin, Measure::Depth);
            std::vector<double> wrap = rec.skin_wrap_ms;
            std::sort(wrap.begin(), wrap.end());
            if (!wrap.empty()) limb["skin_wrap_ms_median"] = wrap[wrap.size() / 2];
        }
        j["over_run"]["limb"] = limb;
    }
    if (rec.trace) {
        json names = json::array();
        for (const auto& m : stats) names.push_back(m.name);
        j["trace"] = {{"muscles", names},
                      {"time", rec.trace_time},
                      {"activation", rec.trace_activation},
                      {"volume_ratio", rec.trace_volume_ratio},
                      {"length_ratio", rec.trace_length_ratio},
                      {"bone_penetration_m", rec.trace_bone_penetration},
                      {"muscle_penetration_m", rec.trace_muscle_penetration},
                      {"muscle_vertices_past_3mm", rec.trace_muscle_vertices_past_3mm}};
    }
    return j;
}

namespace {
// A string of the report as printed: names come from the scene file.
std::string text(const nlohmann::json& v) { return sim::printable(v.get<std::string>()); }
}  // namespace

void printRunHeader(std::ostream& os, const nlohmann::json& j) {
    os << "scene " << text(j["scene"]) << ": " << j["muscles"] << " muscles, " << j["vertices"]
       << " vertices + " << j["branch_points"] << " branch points, " << j["constraints"]["total"]
       << " constraints\n";
    os << "solver " << text(j["solver"]) << " (" << text(j["mode"]) << ", "
       << j["iterations"] << " iterations x " << j["substeps"] << " substeps"
       << (j["carry"].get<double>() > 0.0 ? ", carry " + std::to_string(j["carry"].get<double>()).substr(0, 4) : "")
       << "), " << j["threads"] << " threads (OpenMP wait " << text(j["omp_wait_policy"]) << "), "
       << text(j["build_type"]) << " build\n";
}

void printRunSummary(std::ostream& os, const nlohmann::json& j) {
    printRunHeader(os, j);
    printRunResults(os, j);
}

void printRunResults(std::ostream& os, const nlohmann::json& j) {
    os << std::fixed << std::setprecision(3);
    os << j["frames"] << " frames: " << j["ms_per_frame"]["median"].get<double>() << " ms/frame median, "
       << j["ms_per_frame"]["p95"].get<double>() << " p95\n";
    os << "final: max residual " << std::setprecision(6) << j["final"]["max_residual"].get<double>()
       << " m, hash " << text(j["final"]["positions_hash"])
       << (j["final"]["nan"].get<bool>() ? ", NaN guard fired" : "") << "\n";
    if (j.contains("over_run")) {
        const auto& o = j["over_run"];
        auto who = [](const nlohmann::json& e) {
            if (e["frame"].is_null()) return std::string("none");
            return (e["muscle"].is_string() ? text(e["muscle"]) : std::string("-")) +
                   (e.contains("bone") ? " into " + text(e["bone"]) : std::string()) +
                   (e.contains("into") ? " into " + text(e["into"]) : std::string()) + " at frame " +
                   std::to_string(e["frame"].get<long long>());
        };
        auto mm = [](const nlohmann::json& e) { return e["value"].is_null() ? 0.0 : 1000.0 * e["value"].get<double>(); };
        os << "over the run: worst penetration past the " << std::setprecision(1)
           << 1000.0 * o["contact_radius_m"].get<double>() << " mm contact radius: bone " << std::setprecision(4)
           << mm(o["bone_penetration_m"]) << " mm (" << who(o["bone_penetration_m"]) << "), muscle "
           << mm(o["muscle_penetration_m"]) << " mm (" << who(o["muscle_penetration_m"]) << ")\n";
        // The three pairs that sink most (the rest in --json).
        const auto& pairs = o["muscle_pairs_past_3mm"];
        if (!pairs.empty()) {
            os << "  muscle into muscle past 3 mm (vertex-frames, deepest):";
            for (size_t k = 0; k < std::min<size_t>(3, pairs.size()); ++k)
                os << (k ? ";" : "") << " " << text(pairs[k]["muscle"]) << " into "
                   << text(pairs[k]["into"]) << " " << pairs[k]["vertex_frames_past_3mm"].get<int64_t>()
                   << ", " << std::setprecision(3) << 1000.0 * pairs[k]["deepest_m"].get<double>() << " mm";
            const size_t total = o["muscle_pairs_past_3mm_total"].get<size_t>();
            if (total > 3) os << " (" << total << " pairs)";
            os << "\n" << std::setprecision(4);
        }
        if (j["muscles"].get<size_t>() > 0)
            os << "  volume ratio " << o["min_volume_ratio"]["value"].get<double>() << " ("
               << who(o["min_volume_ratio"]) << ") .. " << o["max_volume_ratio"]["value"].get<double>() << " ("
               << who(o["max_volume_ratio"]) << ")\n";
        else
            os << "  no muscles: no volume ratios\n";
    }
    os << std::setprecision(2);
    size_t shown = 0;
    for (const auto& m : j["muscle_stats"]) {
        if (++shown > 20) {
            os << "  ... (" << j["muscle_stats"].size() - 20 << " more muscles in --json)\n";
            break;
        }
        double rl = m["rest_length"], l = m["length"], rv = m["rest_volume"], v = m["volume"];
        os << "  " << text(m["name"]) << ": length " << 100.0 * (l / rl - 1.0) << "%, volume "
           << 100.0 * (v / rv - 1.0) << "%, activation " << m["activation"].get<double>() << "\n";
    }
}

}  // namespace app

// The students' Study (docs/study.md): what `msxpbd study` reports at its
// defaults is the lesson the Study panel draws — XPBD comes onto the reference
// (the material's own rest state), PBD raw depends on the iteration count —
// its outputs have the documented columns, and bad flags are refused.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/study/study_experiment.h"
#include "test_helpers.h"

namespace {

using nlohmann::json;

std::string readText(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// One run of the command at its defaults.
struct DefaultStudy {
    int exit_code = -1;
    std::string output;
    json j;
    std::string csv;
};

const DefaultStudy& defaultStudy() {
    static DefaultStudy d = [] {
        DefaultStudy s;
        const std::string jp = test::tempPath("study.json"), cp = test::tempPath("study.csv");
        auto r = test::runCli("study --json " + jp + " --csv " + cp);
        s.exit_code = r.exit_code;
        s.output = r.output;
        if (r.exit_code == 0) {
            s.j = json::parse(readText(jp));
            s.csv = readText(cp);
        }
        std::remove(jp.c_str());
        std::remove(cp.c_str());
        return s;
    }();
    return d;
}

// One test for the facts at the defaults: the whole experiment takes a few
// seconds, and each test runs in a process of its own.
TEST(Study, XpbdReachesTheReferencePbdRawDependsOnIterationsSubstepsAreCheaper) {
    const auto& d = defaultStudy();
    ASSERT_EQ(d.exit_code, 0) << d.output;
    const double ref = d.j["reference"]["elongation_pct"].get<double>();
    ASSERT_GT(ref, 0.5) << "at the default material the muscle visibly stretches";
    int top = 0;
    for (int s : d.j["settings"]["substeps"]) top = std::max(top, s);
    int xpbd_checked = 0, raw_checked = 0;
    for (const auto& p : d.j["points"]) {
        if (p["view"] != "iterations" || p["substeps"].get<int>() != top) continue;
        ASSERT_TRUE(p["ok"].get<bool>()) << p.dump();
        const int it = p["iterations"].get<int>();
        const double e = p["elongation_pct"].get<double>();
        if (p["mode"] == "xpbd" && it >= 8) {
            EXPECT_LT(std::abs(e - ref) / ref, 0.05) << "XPBD, " << top << " substeps, " << it << " iterations: " << e
                                                     << " % vs reference " << ref << " %";
            ++xpbd_checked;
        }
        if (p["mode"] == "pbd-raw" && it >= 5 && it <= 50) {
            EXPECT_GT(std::abs(e - ref) / ref, 0.30) << "PBD raw, " << top << " substeps, " << it << " iterations: " << e
                                                     << " % vs reference " << ref << " %";
            ++raw_checked;
        }
    }
    EXPECT_GE(xpbd_checked, 2);
    EXPECT_GE(raw_checked, 2);

    // Small Steps (Macklin et al. 2019): at equal cost, a split into several
    // substeps lands on the reference, one substep with all the iterations
    // lands far from it.
    double one_substep = -1.0, best_split = 1e9;
    for (const auto& p : d.j["points"]) {
        if (p["view"] != "equal_cost" || p["mode"] != "xpbd") continue;
        const double err = std::abs(p["elongation_pct"].get<double>() - ref) / ref;
        if (p["substeps"].get<int>() == 1) one_substep = err;
        else best_split = std::min(best_split, err);
    }
    ASSERT_GE(one_substep, 0.0);
    EXPECT_LT(best_split, 0.05);
    EXPECT_GT(one_substep, 4.0 * best_split);
}

TEST(Study, OutputsHaveTheDocumentedColumns) {
    const std::string jp = test::tempPath("cols.json"), cp = test::tempPath("cols.csv");
    auto r = test::runCli("study --substeps 1,4 --iterations 1,3 --equal-cost 2 --frames 5 --json " + jp + " --csv " + cp);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json j = json::parse(readText(jp));
    std::istringstream csv(readText(cp));
    std::remove(jp.c_str());
    std::remove(cp.c_str());
    std::string header, row;
    std::getline(csv, header);
    EXPECT_EQ(header, "view,mode,substeps,iterations,elongation_pct,reference_pct,error_pct,pbd_k");
    size_t rows = 0;
    while (std::getline(csv, row)) {
        ++rows;
        EXPECT_EQ(std::count(row.begin(), row.end(), ','), 7) << row;
    }
    EXPECT_EQ(rows, j["points"].size());
    for (const char* key : {"scene", "settings", "reference", "pbd_stiffness_rule", "points"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["scene"], "builtin:hang");
    for (const char* key : {"stiffness_n_per_m", "substeps", "iterations", "equal_cost", "frames", "damping"})
        EXPECT_TRUE(j["settings"].contains(key)) << key;
    for (const auto& p : j["points"])
        for (const char* key : {"view", "mode", "substeps", "iterations", "ok", "pbd_k", "elongation_pct", "error_pct"})
            EXPECT_TRUE(p.contains(key)) << key << " in " << p.dump();
    // The three modes at each substep count (2) and iteration count (2), and
    // at equal cost 2 (1x2, 2x1).
    EXPECT_EQ(j["points"].size(), 3u * (2 * 2 + 2));
}

TEST(Study, TheReferenceIsAMaterialProperty) {
    // Hooke: in the stiff (small-stretch) regime the reference stretch is
    // inversely proportional to the stiffness.
    app::StudySettings s;
    s.substeps = {1};
    s.iterations = {1};
    s.equal_cost = 1;
    s.frames = 1;
    s.stiffness = 1e4;
    auto a = app::runStudy(s);
    s.stiffness = 1e5;
    auto b = app::runStudy(s);
    ASSERT_EQ(a.error, "");
    ASSERT_EQ(b.error, "");
    ASSERT_GT(b.reference_pct, 0.0);
    EXPECT_NEAR(a.reference_pct / b.reference_pct, 10.0, 0.5);
}

TEST(Study, SameNumbersForAnyThreadCount) {
    const std::string small = "study --substeps 4 --iterations 2,5 --equal-cost 4 --frames 15 --json - ";
    auto one = test::runCli(small + "--threads 1");
    auto two = test::runCli(small + "--threads 3");
    ASSERT_EQ(one.exit_code, 0) << one.output;
    ASSERT_EQ(two.exit_code, 0) << two.output;
    auto body = [](const std::string& out) { return out.substr(out.find('{')); };  // the table went to stderr before it
    auto points = [&](const std::string& out) { return json::parse(body(out).substr(0, body(out).rfind('}') + 1))["points"]; };
    EXPECT_EQ(points(one.output), points(two.output));
}

TEST(Study, BadFlagsExitOneWithAMessage) {
    struct Case {
        const char* args;
        const char* says;
    };
    for (const Case& c : {Case{"--stiffness 5", "--stiffness"}, Case{"--stiffness abc", "--stiffness"},
                          Case{"--iterations 0", "--iterations"}, Case{"--substeps 1,x", "--substeps"},
                          Case{"--frames", "--frames"}, Case{"--bogus 1", "--bogus"},
                          Case{"--json /nonexistent-dir/study.json", "--json"},
                          Case{"--json - --csv -", "standard output"}}) {
        auto r = test::runCli(std::string("study ") + c.args);
        EXPECT_EQ(r.exit_code, 1) << c.args << ": " << r.output;
        EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << ": " << r.output;
        EXPECT_EQ(r.output.find("reference:"), std::string::npos) << c.args << " ran the study anyway";
    }
}

}  // namespace

namespace {
float verticalExtent(const std::vector<glm::vec3>& v) {
    float lo = 1e30f, hi = -1e30f;
    for (const glm::vec3& q : v) lo = std::min(lo, q.y), hi = std::max(hi, q.y);
    return hi - lo;
}
}  // namespace

// The Study's muscle view draws each point's own muscle: every run keeps the
// surface its stretch was read from, and the drawn length says the same as
// the plotted stretch (the hanging muscle's height against its rest height,
// within 5 % of the stretch), the reference shape the reference's.
TEST(Study, EachPointKeepsTheShapeItsStretchWasReadFrom) {
    app::StudySettings s;
    s.substeps = {1, 4};
    s.iterations = {1, 10};
    s.equal_cost = 4;
    const app::StudyResult r = app::runStudy(s);
    ASSERT_EQ(r.error, "");
    ASSERT_FALSE(r.triangles.empty());
    ASSERT_EQ(r.reference_shape.size(), r.rest_shape.size());
    for (const glm::uvec3& t : r.triangles) ASSERT_LT(std::max({t.x, t.y, t.z}), r.rest_shape.size());
    const float rest = verticalExtent(r.rest_shape);
    auto drawnPct = [&](const std::vector<glm::vec3>& v) { return 100.0 * (double(verticalExtent(v)) / double(rest) - 1.0); };
    EXPECT_NEAR(drawnPct(r.reference_shape), r.reference_pct, 0.05 * r.reference_pct + 0.05);
    size_t checked = 0;
    for (const app::StudyPoint& p : r.points) {
        if (!p.ok) continue;
        ASSERT_EQ(p.shape.size(), r.rest_shape.size());
        EXPECT_NEAR(drawnPct(p.shape), p.elongation_pct, 0.05 * p.elongation_pct + 0.05)
            << p.view << " " << sim::modeName(p.mode) << " " << p.substeps << "x" << p.iterations;
        ++checked;
    }
    EXPECT_GE(checked, r.points.size() - 1);
    const app::StudyPoint* q = r.find("iterations", sim::ConstraintMode::Xpbd, 4, 10);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->substeps, 4);
    EXPECT_EQ(q->iterations, 10);
    EXPECT_EQ(r.find("iterations", sim::ConstraintMode::Xpbd, 4, 7), nullptr);
}

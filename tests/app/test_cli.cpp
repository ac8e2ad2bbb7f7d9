// The `msxpbd run` command line contract (docs/architecture.md): the report, and bad
// input refused with a message and exit code 1 — never a crash.
#include <fstream>
#include <map>
#include <sstream>

#include "sim/params.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_helpers.h"

namespace {

nlohmann::json readJson(const std::string& path) {
    std::ifstream f(path);
    return nlohmann::json::parse(f);
}

TEST(Cli, RunWritesTheReport) {
    std::string out = test::tempPath("run.json");
    auto r = test::runCli("run --scene builtin:t1 --frames 10 --activation 0.5 --json " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto j = readJson(out);
    EXPECT_EQ(j["scene"], "builtin:t1");
    EXPECT_EQ(j["solver"], "sst");
    EXPECT_EQ(j["frames"], 10);
    EXPECT_GT(j["vertices"].get<int>(), 1000);
    EXPECT_GT(j["branch_points"].get<int>(), 4);
    EXPECT_GT(j["constraints"]["fiber"].get<int>(), 1000);
    EXPECT_EQ(j["constraints"]["volume"], 1);
    EXPECT_EQ(j["final"]["nan"], false);
    EXPECT_EQ(j["final"]["positions_hash"].get<std::string>().size(), 16u);
    ASSERT_EQ(j["muscle_stats"].size(), 1u);
    EXPECT_LT(j["muscle_stats"][0]["length"].get<double>(), j["muscle_stats"][0]["rest_length"].get<double>());
    EXPECT_GT(j["ms_per_frame"]["median"].get<double>(), 0.0);
    EXPECT_TRUE(j["phases_ms"].contains("project"));
    std::remove(out.c_str());
}

// A scene's own solver settings (T6: 3 substeps, carry 1) apply unless the
// command line says otherwise, and the report says which were used.
TEST(Cli, SceneSolverSettingsApplyUnlessGiven) {
    const std::string t6 = std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/t6-arm-fighting.glb";
    std::string out = test::tempPath("t6.json");
    ASSERT_EQ(test::runCli("run --scene " + t6 + " --frames 2 --threads 1 --json " + out).exit_code, 0);
    auto j = readJson(out);
    EXPECT_EQ(j["substeps"], 3);
    EXPECT_EQ(j["carry"], 1.0);
    ASSERT_EQ(test::runCli("run --scene " + t6 + " --frames 2 --threads 1 --substeps 2 --carry 0.25 --json " + out).exit_code, 0);
    j = readJson(out);
    EXPECT_EQ(j["substeps"], 2);
    EXPECT_EQ(j["carry"], 0.25);
    auto bad = test::runCli("run --scene " + t6 + " --frames 2 --carry 2");
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.output.find("--carry"), std::string::npos) << bad.output;
    std::remove(out.c_str());
}

// `bench --accuracy`: every row measured against one converged frame (SST at
// 4x the most iterations listed); more iterations come closer to it, and the
// averaged Jacobi is further off than Gauss-Seidel at the same iterations
// (T3: the biceps on its moving elbow).
TEST(Cli, BenchAccuracyMeasuresEachRowAgainstTheConvergedFrame) {
    std::string out = test::tempPath("bench.json");
    auto r = test::runCli("bench --scenes t3 --solvers sst,jacobi --threads 1 --iterations 5,20 --frames 20 "
                          "--warmup 0 --repeats 1 --accuracy --json " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("as close to the converged frame as sst at 5 iterations"), std::string::npos) << r.output;
    auto j = readJson(out);
    EXPECT_EQ(j["converged_frame"]["solver"], "sst");
    EXPECT_EQ(j["converged_frame"]["iterations"], 80);
    std::map<std::string, double> off;
    for (const auto& row : j["results"]) {
        ASSERT_TRUE(row.contains("off_converged_mm")) << row.dump();
        const double med = row["off_converged_mm"]["median"].get<double>(), p99 = row["off_converged_mm"]["p99"].get<double>();
        EXPECT_GE(med, 0.0);
        EXPECT_LE(med, p99);
        off[row["solver"].get<std::string>() + std::to_string(row["iterations"].get<int>())] = med;
    }
    ASSERT_EQ(off.size(), 4u);
    EXPECT_GT(off["sst5"], off["sst20"]);
    EXPECT_GT(off["jacobi5"], off["sst5"]);
    EXPECT_GT(off["jacobi20"], off["sst20"]);
    // Without the flag the rows carry no such measure.
    ASSERT_EQ(test::runCli("bench --scenes builtin:t1 --solvers sst --threads 1 --frames 2 --warmup 0 --repeats 1 --json " + out)
                  .exit_code,
              0);
    EXPECT_FALSE(readJson(out)["results"][0].contains("off_converged_mm"));
    std::remove(out.c_str());
}

TEST(Cli, RunIsRepeatable) {
    std::string a = test::tempPath("a.json"), b = test::tempPath("b.json");
    ASSERT_EQ(test::runCli("run --scene builtin:p2 --frames 20 --json " + a).exit_code, 0);
    ASSERT_EQ(test::runCli("run --scene builtin:p2 --frames 20 --json " + b).exit_code, 0);
    EXPECT_EQ(readJson(a)["final"]["positions_hash"], readJson(b)["final"]["positions_hash"]);
    std::remove(a.c_str());
    std::remove(b.c_str());
}

// SST at one iteration per substep over several substeps used to blow up
// (docs/model.md §6 "Small steps in SST"); it runs through, with nothing to
// warn about.
TEST(Cli, SstAtOneIterationOverManySubstepsRunsThrough) {
    auto r = test::runCli("run --scene builtin:p1 --frames 30 --substeps 10 --iterations 1 --quiet");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("NaN"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
}

struct BadInput {
    const char* args;
    const char* expected;  // a fragment of the message
};
// Test names and failure messages show the command line, not the struct's bytes.
void PrintTo(const BadInput& b, std::ostream* os) { *os << "'" << b.args << "'"; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, IsRefusedWithAMessage) {
    auto r = test::runCli(GetParam().args);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find(GetParam().expected), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Run, CliBadInput,
    ::testing::Values(BadInput{"run --scene builtin:nope", "unknown built-in scene"},
                      BadInput{"run --scene builtin:t1 --json /nonexistent/r.json", "/nonexistent does not exist"},
                      BadInput{"run --scene builtin:t1 --json /tmp", "is a directory"},
                      BadInput{"bench --scenes builtin:t1,/dev/zero --frames 1", "/dev/zero: is a character device"},
                      BadInput{"bench --scenes builtin:t1 --frames 1 --csv /nonexistent/b.csv",
                               "/nonexistent does not exist"},
                      BadInput{"run --scene /nonexistent/arm.glb", "/nonexistent/arm.glb"},
                      BadInput{"run --scene builtin:t1 --bogus 3", "unknown option '--bogus'"},
                      BadInput{"run --scene builtin:t1 --iterations -3", "--iterations=-3 is out of range"},
                      BadInput{"run --scene builtin:t1 --iterations ten", "not an integer"},
                      BadInput{"run --scene builtin:t1 --activation 1.5", "--activation=1.5 is out of range"},
                      BadInput{"run --scene builtin:t1 --activation -0.1", "out of range"},
                      BadInput{"run --scene builtin:t1 --solver magic", "--solver 'magic' is unknown"},
                      BadInput{"run --scene builtin:t1 --stiffness fiber=-5", "out of range"},
                      BadInput{"run --scene builtin:t1 --mode pbd --stiffness fiber=3", "pbd needs k in [0, 1]"},
                      BadInput{"run --scene builtin:t1 --stiffness bone=5", "unknown family 'bone'"},
                      BadInput{"run --frames 3", "--scene is required"},
                      BadInput{"run --scene builtin:t1 --frames", "needs a value"},
                      BadInput{"frobnicate", "unknown command"}));

TEST(Cli, BlowUpIsCaughtByTheNanGuard) {
    std::string out = test::tempPath("blowup.json");
    // Every value within its range (none blows up the first step): one Jacobi
    // iteration at ω = 2 under 100 g with one-second frames diverges over 14 frames.
    auto r = test::runCli("run --scene builtin:hang --frames 20 --dt 1 --damping 0 --gravity -1000 --iterations 1 "
                          "--solver jacobi --omega 2 --json " + out);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("NaN guard"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("oval"), std::string::npos) << r.output;
    auto j = readJson(out);
    EXPECT_EQ(j["final"]["nan"], true);
    std::remove(out.c_str());
}

TEST(Cli, HelpListsTheSolverOptions) {
    auto r = test::runCli("run --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.output.find("--iterations"), std::string::npos);
    EXPECT_NE(r.output.find("--stiffness"), std::string::npos);
}

}  // namespace

namespace {

// Every bound `run --help` prints is accepted when given back (0.05 was
// refused as "out of range [0, 0.05]": the value is stored as a float).
TEST(Cli, EveryBoundPrintedByHelpIsAccepted) {
    auto help = test::runCli("run --help");
    ASSERT_EQ(help.exit_code, 0);
    std::istringstream lines(help.output);
    std::string line;
    int checked = 0;
    while (std::getline(lines, line)) {
        const auto flag = line.find("  --"), open = line.rfind('['), comma = line.rfind(", "), close = line.rfind(']');
        if (flag != 0 || open == std::string::npos || comma == std::string::npos || close < comma || comma < open)
            continue;
        const std::string name = line.substr(2, line.find(' ', 4) - 2);
        if (name == "--frames") continue;  // a million frames; 1 is used below
        for (const std::string& bound : {line.substr(open + 1, comma - open - 1), line.substr(comma + 2, close - comma - 2)}) {
            if (bound.find_first_not_of("0123456789.e+-") != std::string::npos) continue;
            auto r = test::runCli("run --scene builtin:t1 --frames 1 --quiet " + name + " " + bound);
            EXPECT_EQ(r.output.find("out of range"), std::string::npos) << name << " " << bound << ": " << r.output;
            ++checked;
        }
    }
    EXPECT_GE(checked, 20) << help.output;
}

TEST(Cli, StiffnessMessagesNameEveryFamily) {
    auto r = test::runCli("run --scene builtin:t1 --frames 1 --stiffness bogus=1");
    EXPECT_EQ(r.exit_code, 1);
    for (int f = 0; f < sim::kFamilyCount; ++f)
        EXPECT_NE(r.output.find(std::string(sim::familyName(static_cast<sim::Family>(f)))), std::string::npos)
            << r.output;
}

// A scene with bones and no muscles: no volume ratios of ±1e30 at frame −1.
TEST(Cli, ASceneWithoutMusclesReportsNoVolumeRatios) {
    const std::string scene = test::tempPath("no_muscles.gltf"), out = test::tempPath("no_muscles.json");
    {
        std::ofstream f(scene);
        f << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"name":"lonely"}]})";
    }
    auto r = test::runCli("run --scene " + scene + " --frames 3 --json " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("e+30"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("no muscles"), std::string::npos) << r.output;
    auto j = readJson(out);
    EXPECT_TRUE(j["over_run"]["min_volume_ratio"]["value"].is_null());
    EXPECT_TRUE(j["over_run"]["max_volume_ratio"]["frame"].is_null());
    EXPECT_EQ(j["over_run"]["bone_penetration_m"]["value"], 0.0);
    std::remove(scene.c_str());
    std::remove(out.c_str());
}

// T5's flexing elbow presses its forearm muscles together: penetrations are
// reported for bones and muscles alike, labelled with what they measure.
TEST(Cli, PenetrationIsReportedForBonesAndMusclesWithItsMeasure) {
    const std::string out = test::tempPath("t4.json");
    auto r = test::runCli("run --scene " + std::string(MSXPBD_SOURCE_DIR) +
                          "/assets/scenes/t5-arm-flexion.glb --frames 40 --threads 1 --json " + out);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("past the 2.0 mm contact radius"), std::string::npos) << r.output;
    auto j = readJson(out);
    const auto& o = j["over_run"];
    EXPECT_EQ(o["penetration_measure"], "depth inside the surface less the contact radius");
    ASSERT_TRUE(o["muscle_penetration_m"]["value"].is_number());
    const double into = o["muscle_penetration_m"]["value"].get<double>();
    EXPECT_GT(into, 0.0) << "measured where muscles touch";
    EXPECT_LT(into, 0.03) << "muscles 3 cm into each other: the tissue contacts are not acting";
    EXPECT_TRUE(o["muscle_penetration_m"]["into"].is_string());
    // Where: the vertex, by its index in its muscle's mesh.
    ASSERT_TRUE(o["muscle_penetration_m"]["vertex"].is_number_integer());
    EXPECT_GE(o["muscle_penetration_m"]["vertex"].get<int>(), 0);
    EXPECT_LT(o["muscle_penetration_m"]["vertex"].get<int>(), j["vertices"].get<int>());
    // Every vertex is measured (docs/model.md §8): a deepest vertex more than
    // 3 mm past the radius is one of the vertices counted past 3 mm.
    ASSERT_TRUE(o["most_muscle_vertices_past_3mm"].is_number_integer());
    if (into > 0.003) {
        EXPECT_GE(o["most_muscle_vertices_past_3mm"].get<int>(), 1);
    }
    // Which pairs: most vertex-frames first, each with its deepest; the
    // deepest vertex of the run (past 3 mm) is the deepest of its pair.
    const auto& pairs = o["muscle_pairs_past_3mm"];
    ASSERT_TRUE(pairs.is_array());
    ASSERT_TRUE(o["muscle_pairs_past_3mm_total"].is_number_integer());
    EXPECT_GE(o["muscle_pairs_past_3mm_total"].get<size_t>(), pairs.size());
    if (into > 0.003) {
        ASSERT_FALSE(pairs.empty());
        bool found = false;
        for (size_t k = 0; k < pairs.size(); ++k) {
            EXPECT_TRUE(pairs[k]["muscle"].is_string() && pairs[k]["into"].is_string());
            EXPECT_GT(pairs[k]["deepest_m"].get<double>(), 0.003);
            EXPECT_LE(pairs[k]["deepest_m"].get<double>(), into);
            if (k > 0) {
                EXPECT_LE(pairs[k]["vertex_frames_past_3mm"].get<int64_t>(),
                          pairs[k - 1]["vertex_frames_past_3mm"].get<int64_t>());
            }
            found = found || (pairs[k]["muscle"] == o["muscle_penetration_m"]["muscle"] &&
                              pairs[k]["into"] == o["muscle_penetration_m"]["into"] &&
                              pairs[k]["deepest_m"].get<double>() == into);
        }
        EXPECT_TRUE(found || pairs.size() < o["muscle_pairs_past_3mm_total"].get<size_t>())
            << "the deepest vertex's pair, with its depth";
    }
    std::remove(out.c_str());
}

}  // namespace

namespace {

// libgomp reads OMP_WAIT_POLICY when it is loaded: the program picks passive
// waiting itself unless the user chose (docs/architecture.md "Known traps").
TEST(Cli, ThePassiveOpenMpWaitingPolicyIsChosenUnlessGiven) {
    const std::string out = test::tempPath("policy.json");
    for (const std::string& env : {std::string("env -u OMP_WAIT_POLICY"), std::string("env OMP_WAIT_POLICY=active")}) {
        const std::string cmd = env + " " + MSXPBD_BINARY + " run --scene builtin:t1 --frames 2 --quiet --json " + out;
        ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
        auto j = readJson(out);
        EXPECT_EQ(j["omp_wait_policy"], env.find("active") != std::string::npos ? "active" : "passive") << cmd;
    }
    std::remove(out.c_str());
}

}  // namespace

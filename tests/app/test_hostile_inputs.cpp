// The defects found with hostile inputs (issue 30, section 4), one test (or
// more) per class, through the real binary: what a user or a file can give
// `msxpbd` is refused with one line naming the file and the problem, exit code
// 1, and nothing left behind, or it runs without blowing up.
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../engine/gltf_test_util.h"
#include "sim/params.h"
#include "test_helpers.h"

namespace fs = std::filesystem;
using gltf_test::Builder;
using gltf_test::json;

namespace {

using test::contains;
using test::noControlCharacters;

std::string num(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

json goodExtras() {
    return {{"origins", {{0}}},
            {"insertions", {{"near", {0, 0, 1}}, {"radius", 0.01}}},
            {"origin_bone", "bone"},
            {"insertion_bone", "hand"}};
}

using test::TempDir;

// ---------------------------------------------------------------- 1. stiffness and solver values

// `--stiffness fiber=1e-45` passed the command line (k > 0) and made the first
// step NaN; scene files refused below 1e-6. Both now share sim::stiffnessRange.
TEST(HostileInputs, StiffnessOutsideTheSharedRangeIsRefusedByCliAndFiles) {
    for (int i = 0; i < sim::kFamilyCount; ++i) {
        const auto f = static_cast<sim::Family>(i);
        const std::string name(sim::familyName(f));
        const sim::StiffnessRange r = sim::stiffnessRange(sim::ConstraintMode::Xpbd, f);
        const std::string range = sim::describeStiffnessRange(sim::ConstraintMode::Xpbd, f);
        for (double bad : {1e-45, r.min / 10.0, r.max * 10.0, 1e38, -1.0, 0.0}) {
            auto c = test::runCli("run --scene builtin:t1 --frames 1 --stiffness " + name + "=" + num(bad));
            EXPECT_EQ(c.exit_code, 1) << name << "=" << bad << ": " << c.output;
            EXPECT_TRUE(contains(c.output, "out of range: xpbd needs k in " + range)) << c.output;
            EXPECT_FALSE(contains(c.output, "NaN guard")) << c.output;
        }
        // The bounds themselves: accepted, and the first steps stay finite.
        for (double good : {r.min, r.max}) {
            auto c = test::runCli("run --scene builtin:t1 --frames 2 --stiffness " + name + "=" + num(good));
            EXPECT_EQ(c.exit_code, 0) << name << "=" << good << ": " << c.output;
            EXPECT_FALSE(contains(c.output, "NaN guard")) << c.output;
        }
    }
    // A scene file: the same range, quoted in the message.
    TempDir dir("stiffness");
    const sim::StiffnessRange r = sim::stiffnessRange(sim::ConstraintMode::Xpbd, sim::Family::Fiber);
    for (double k : {r.min, r.max, r.min / 10.0, r.max * 10.0}) {
        json extras = goodExtras();
        extras["stiffness"] = {{"fiber", k}};
        const fs::path file = dir.path / "stiff.glb";
        gltf_test::writeFile(file, gltf_test::muscleFile(extras).glb());
        auto c = test::runCli("run --scene " + file.string() + " --frames 2");
        const bool inside = k >= r.min && k <= r.max;
        EXPECT_EQ(c.exit_code, inside ? 0 : 1) << k << ": " << c.output;
        if (!inside) {
            EXPECT_TRUE(contains(c.output, "is out of range " +
                                               sim::describeStiffnessRange(sim::ConstraintMode::Xpbd, sim::Family::Fiber)))
                << c.output;
        }
    }
    // --help quotes the range enforced.
    auto h = test::runCli("run --help");
    EXPECT_TRUE(contains(h.output, "xpbd K in " + sim::describeStiffnessRange(sim::ConstraintMode::Xpbd,
                                                                              sim::Family::Fiber)))
        << h.output;
}

// The other numeric solver flags: no value accepted may blow up the first
// step (--gravity 1e30 and --dt 1e6 --damping 0 tripped the NaN guard at frame 0).
TEST(HostileInputs, NoSolverValueAcceptedBlowsUpTheFirstStep) {
    for (const char* bad : {"--gravity 1e30", "--gravity -1e10", "--dt 1e6", "--dt 100"}) {
        auto c = test::runCli(std::string("run --scene builtin:hang --frames 1 --damping 0 ") + bad);
        EXPECT_EQ(c.exit_code, 1) << bad << ": " << c.output;
        EXPECT_TRUE(contains(c.output, "out of range")) << bad << ": " << c.output;
        EXPECT_FALSE(contains(c.output, "NaN guard")) << bad << ": " << c.output;
    }
    // Every bound together, at its most violent: the first step stays finite.
    for (const char* scene : {"builtin:hang", "builtin:t1"})
        for (const char* g : {"1000", "-1000"}) {
            auto c = test::runCli(std::string("run --scene ") + scene +
                                  " --frames 1 --damping 0 --dt 1 --gravity " + g);
            EXPECT_EQ(c.exit_code, 0) << scene << " " << g << ": " << c.output;
            EXPECT_FALSE(contains(c.output, "NaN guard")) << c.output;
        }
}

// ---------------------------------------------------------------- 2. names from a file

// A name holding "\n" could forge an `error:` line; ESC [2J cleared the terminal.
const std::string kForged = "x\x1b[2J\nerror: forged\r\x07";
const std::string kForgedShown = "x\\x1b[2J\\nerror: forged\\r\\x07";

TEST(HostileInputs, NamesFromAFileArePrintedWithControlsEscaped) {
    TempDir dir("names");
    auto run = [&](Builder b, const std::string& args = " --frames 1") {
        const fs::path file = dir.path / "names.glb";
        gltf_test::writeFile(file, b.glb());
        return test::runCli("run --scene " + file.string() + args);
    };
    // An error quoting a name from the extras (an unknown bone).
    json extras = goodExtras();
    extras["origin_bone"] = kForged;
    auto c = run(gltf_test::muscleFile(extras));
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(noControlCharacters(c.output));
    EXPECT_TRUE(contains(c.output, kForgedShown)) << c.output;
    EXPECT_FALSE(contains(c.output, "\nerror: forged")) << c.output;

    // An error quoting a node's name (a muscle whose mesh is open).
    Builder open = gltf_test::muscleFile(goodExtras(), gltf_test::TetraMesh::Open);
    open.doc["nodes"][2]["name"] = kForged;
    c = run(open);
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(noControlCharacters(c.output));
    EXPECT_TRUE(contains(c.output, kForgedShown)) << c.output;

    // An unknown extras key (a JSON key is file text too).
    extras = goodExtras();
    extras["stiffness"] = {{kForged, 1.0}};
    c = run(gltf_test::muscleFile(extras));
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(noControlCharacters(c.output));

    // A good scene: the summary and the warnings quote the muscle's and the
    // animation's names.
    Builder good = gltf_test::muscleFile(goodExtras());
    good.doc["nodes"][2]["name"] = kForged;
    good.doc["animations"] = json::array({{{"name", kForged},
                                           {"samplers", json::array()},
                                           {"channels", json::array()}}});
    c = run(good, " --frames 2");
    EXPECT_TRUE(noControlCharacters(c.output));
    EXPECT_FALSE(contains(c.output, "\nerror: forged")) << c.output;
}

}  // namespace

namespace {

// ---------------------------------------------------------------- 6. signals and full disks

// The files in `dir` (names only).
std::vector<std::string> filesIn(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    return out;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += x + " ";
    return s;
}

// A bake ended by SIGINT or SIGTERM while it writes: nothing is left in the
// output folder (the temporaries used to stay, ".clip.usda.tmp-PID-N" and its
// frames scratch, 100s of MB for a long clip).
TEST(HostileInputs, ABakeEndedBySignalLeavesNoTemporaryFile) {
    const char* binary = std::getenv("MSXPBD_TEST_BINARY");
    const std::string exe = binary && *binary ? binary : MSXPBD_BINARY;
    for (int sig : {SIGINT, SIGTERM}) {
        for (const char* ext : {"usda", "glb", "pc2"}) {
            TempDir dir(std::string("signal_") + ext);
            const fs::path out = dir.path / (std::string("clip.") + ext);
            const pid_t pid = ::fork();
            ASSERT_GE(pid, 0);
            if (pid == 0) {
                const int devnull = ::open("/dev/null", O_WRONLY);
                ::dup2(devnull, 1);
                ::dup2(devnull, 2);
                // Long enough to be interrupted (a .glb holds at most 4 GiB: fewer frames).
                const char* frames = std::string(ext) == "glb" ? "5000" : "100000";
                ::execl(exe.c_str(), exe.c_str(), "bake", "--scene", "builtin:p2", "--frames", frames, "--quiet",
                        "--out", out.c_str(), static_cast<char*>(nullptr));
                ::_exit(127);
            }
            // Wait until the bake writes (a temporary appears), then signal it.
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (filesIn(dir.path).empty() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            const std::string during = join(filesIn(dir.path));
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            ::kill(pid, sig);
            int status = 0;
            ::waitpid(pid, &status, 0);
            EXPECT_FALSE(during.empty()) << ext << ": the bake wrote nothing to interrupt";
            EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << ext << " status " << status;
            EXPECT_TRUE(filesIn(dir.path).empty())
                << ext << " signal " << sig << ": left " << join(filesIn(dir.path)) << " (during: " << during << ")";
        }
    }
}

// `run --json` to a disk that fills up: the failure is reported (exit 1) and
// no report is left, not even an empty one. A full disk is simulated with a
// file-size limit of 0 (the write fails with EFBIG, SIGXFSZ ignored), and
// /dev/full.
TEST(HostileInputs, ARunReportThatCannotBeWrittenIsReportedAndLeavesNoFile) {
    TempDir dir("full");
    const fs::path report = dir.path / "r.json";
    const char* binary = std::getenv("MSXPBD_TEST_BINARY");
    const std::string exe = binary && *binary ? binary : MSXPBD_BINARY;
    const std::string log = (dir.path / "log.txt").string();
    // The limit applies to the log file too: the output goes through a pipe.
    const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 0; " + exe + " run --scene builtin:t1 --frames 1 --quiet --json " +
                            report.string() + "; echo exit code \\$?\" 2>&1 | cat > " + log;
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::ifstream f(log);
    const std::string out((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(contains(out, "exit code 1")) << out;
    EXPECT_TRUE(contains(out, "cannot write " + report.string())) << out;
    fs::remove(log);
    EXPECT_TRUE(filesIn(dir.path).empty()) << join(filesIn(dir.path));

    auto c = test::runCli("run --scene builtin:t1 --frames 1 --quiet --json /dev/full");
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(contains(c.output, "cannot write /dev/full")) << c.output;
    EXPECT_TRUE(contains(c.output, "No space left on device")) << c.output;
}

}  // namespace

namespace {

// ---------------------------------------------------------------- 7. spool files

// A bake whose scratch data cannot be written (a full disk, simulated with a
// file-size limit) names the file the user asked for, never an internal spool
// file ("clip.usda.frames", "clip.glb.bin").
TEST(HostileInputs, ErrorsNeverNameInternalSpoolFiles) {
    const char* binary = std::getenv("MSXPBD_TEST_BINARY");
    const std::string exe = binary && *binary ? binary : MSXPBD_BINARY;
    for (const char* ext : {"usda", "glb"}) {
        TempDir dir(std::string("spool_") + ext);
        const fs::path out = dir.path / (std::string("clip.") + ext);
        const std::string log = test::tempPath("spool.log");
        const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 1; " + exe +
                                " bake --scene builtin:p2 --frames 50 --quiet --out " + out.string() +
                                "; echo exit code \\$?\" 2>&1 | cat > " + log;
        ASSERT_EQ(std::system(cmd.c_str()), 0);
        std::ifstream f(log);
        const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        std::remove(log.c_str());
        EXPECT_TRUE(contains(text, "exit code 1")) << text;
        EXPECT_TRUE(contains(text, "cannot write " + out.string() + ":")) << text;
        EXPECT_FALSE(contains(text, ".frames") || contains(text, ".bin") || contains(text, ".tmp")) << text;
        EXPECT_TRUE(filesIn(dir.path).empty()) << join(filesIn(dir.path));
    }
}

}  // namespace

// The command line as users expect it (docs/architecture.md "The command
// line"): --version, -h/--help on every command, the generated scenes' short
// names on every --scene, `run` saying what it runs before it runs it and how
// far it is on a terminal, and one-line errors.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <signal.h>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_helpers.h"

namespace {

const std::vector<std::string> kCommands = {"run", "bench", "gen", "view", "measure", "bake", "study"};

size_t lineCount(const std::string& s) {
    size_t n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

TEST(CliConventions, VersionNamesTheProgramAndItsBuild) {
    auto r = test::runCli("--version");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.rfind("msxpbd " MSXPBD_VERSION " (" MSXPBD_BUILD_TYPE " build)", 0), 0u) << r.output;
}

TEST(CliConventions, EveryCommandHasShortAndLongHelp) {
    for (const std::string& cmd : kCommands)
        for (const char* flag : {"--help", "-h"}) {
            auto r = test::runCli(cmd + " " + flag);
            EXPECT_EQ(r.exit_code, 0) << cmd << " " << flag << ": " << r.output;
            EXPECT_NE(r.output.find("usage: msxpbd " + cmd), std::string::npos) << cmd << " " << flag << ": " << r.output;
        }
}

TEST(CliConventions, ShortSceneNamesWorkInEveryCommandThatTakesAScene) {
    const std::string t1 = std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/t1-oval.glb";
    // run: the report names the file the short name stands for.
    const std::string json = test::tempPath("short.json");
    auto r = test::runCli("run --scene t1 --frames 2 --quiet --json " + json);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::ifstream f(json);
    EXPECT_EQ(nlohmann::json::parse(f)["scene"], t1);
    std::remove(json.c_str());
    // bake, measure, bench.
    const std::string pc2 = test::tempPath("short.pc2");
    r = test::runCli("bake --scene t1 --frames 2 --quiet --out " + pc2);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::remove(pc2.c_str());
    std::remove((pc2.substr(0, pc2.size() - 4) + ".obj").c_str());
    r = test::runCli("measure --scene t1");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("oval"), std::string::npos) << r.output;
    r = test::runCli("bench --scenes t1 --solvers sst --threads 1 --frames 1 --warmup 0 --repeats 1");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("skipped"), std::string::npos) << r.output;
    // A name that is neither a file nor a generated scene: one line that says
    // what --scene takes.
    r = test::runCli("run --scene t99 --frames 1");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(lineCount(r.output), 1u) << r.output;
    EXPECT_NE(r.output.find("t99: no such file, nor a generated scene"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("t7"), std::string::npos) << r.output;
}

// measure --section with a bone the scene does not have: one line naming the
// file and the bone, before any table is printed.
TEST(CliConventions, MeasureRefusesAnUnknownSectionBeforePrintingAnything) {
    auto r = test::runCli("measure --scene t2 --section humerus_r --section no_such_bone");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_EQ(lineCount(r.output), 1u) << r.output;
    EXPECT_NE(r.output.find("no capsule body named 'no_such_bone'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("t2"), std::string::npos) << r.output;
}

TEST(CliConventions, ViewErrorsAreTheReasonOnOneLine) {
    for (const char* args : {"view --width 5", "view --bogus", "view --frames"}) {
        auto r = test::runCli(args);
        EXPECT_EQ(r.exit_code, 1) << args << ": " << r.output;
        EXPECT_EQ(lineCount(r.output), 1u) << args << ": " << r.output;
        EXPECT_EQ(r.output.find("usage:"), std::string::npos) << args << ": " << r.output;
    }
    auto r = test::runCli("frobnicate");
    EXPECT_EQ(lineCount(r.output), 1u) << r.output;
}

// `run` prints what it runs before the first step: read its first line while a
// run far too long to have finished is still going, then stop it.
TEST(CliConventions, RunPrintsItsHeaderBeforeItSteps) {
    const std::string cmd = "sh -c 'echo $$; exec " + std::string(MSXPBD_BINARY) +
                            " run --scene builtin:p2 --frames 1000000' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char line[512] = {};
    ASSERT_NE(fgets(line, sizeof line, p), nullptr);
    const pid_t pid = pid_t(std::stol(line));
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_NE(fgets(line, sizeof line, p), nullptr);
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ::kill(pid, SIGKILL);
    pclose(p);
    EXPECT_EQ(std::string(line).rfind("scene builtin:p2: ", 0), 0u) << line;
    // 1 000 000 frames of P2 take hours; the header came in seconds.
    EXPECT_LT(waited, 60.0);
}

// On a terminal (a pseudo-terminal from script(1)), a run longer than two
// seconds draws a progress line on stderr and clears it at the end; piped into
// a file it draws none.
TEST(CliConventions, LongRunShowsProgressOnATerminalOnly) {
    const std::string out = test::tempPath("progress.txt");
    // 500 frames of P2 take about 10 s on the 2-core machine.
    const std::string run = std::string(MSXPBD_BINARY) + " run --scene builtin:p2 --frames 500";
    const std::string cmd = "script -qec '" + run + "' /dev/null > " + out + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::ifstream f(out);
    const std::string tty((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::remove(out.c_str());
    EXPECT_NE(tty.find("\rrun ["), std::string::npos) << tty.substr(0, 400);
    EXPECT_NE(tty.find("frame "), std::string::npos);
    EXPECT_NE(tty.find("\r\033[K"), std::string::npos);  // cleared before the summary
    auto piped = test::runCli("run --scene builtin:t1 --frames 20");
    EXPECT_EQ(piped.exit_code, 0);
    EXPECT_EQ(piped.output.find("\rrun ["), std::string::npos);
}

}  // namespace

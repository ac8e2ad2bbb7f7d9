// Helpers shared by the app-level tests: run the msxpbd binary and read what
// it printed; drive a built-in scene for a number of frames.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "app/run/scene_driver.h"

namespace test {

struct CliResult {
    int exit_code;
    std::string output;  // stdout + stderr
};

inline CliResult runCli(const std::string& args) {
    char path[] = "/tmp/msxpbd_cli_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    // MSXPBD_TEST_BINARY runs the tests against another build (e.g. the binary
    // before a fix, to see a new test fail there).
    const char* binary = std::getenv("MSXPBD_TEST_BINARY");
    std::string cmd = std::string(binary && *binary ? binary : MSXPBD_BINARY) + " " + args + " > " + path + " 2>&1";
    int status = std::system(cmd.c_str());
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(path);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    return {code, ss.str()};
}

inline std::string tempPath(const std::string& name) {
    return std::string("/tmp/msxpbd_test_") + std::to_string(::getpid()) + "_" + name;
}

}  // namespace test

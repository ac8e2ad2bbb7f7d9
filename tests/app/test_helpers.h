// Helpers shared by the app-level tests: run the msxpbd binary and read what
// it printed; drive a built-in scene for a number of frames.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "app/run/scene_driver.h"

namespace test {

inline bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// Every byte of the output is printable text or a line break: nothing a file
// put in a name can forge a line or drive the terminal.
inline ::testing::AssertionResult noControlCharacters(const std::string& out) {
    for (size_t i = 0; i < out.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(out[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return ::testing::AssertionFailure() << "control byte " << int(c) << " at " << i << " in: " << out;
    }
    return ::testing::AssertionSuccess();
}

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

// A committed scene of assets/scenes/.
inline std::string asset(const std::string& file) { return std::string(MSXPBD_SOURCE_DIR) + "/assets/scenes/" + file; }

// A file's bytes as a string (empty when it cannot be read).
inline std::string readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

inline std::string tempPath(const std::string& name) {
    return std::string("/tmp/msxpbd_test_") + std::to_string(::getpid()) + "_" + name;
}

// A fresh, empty folder for one test's files, removed at the end.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) : path(tempPath(name)) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string operator/(const std::string& f) const { return (path / f).string(); }
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& e : std::filesystem::directory_iterator(path)) out.push_back(e.path().filename().string());
        return out;
    }
};

}  // namespace test

#include "engine/export/temp_files.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include "engine/export/clip_writer.h"
#include "engine/export/output_file.h"

namespace engine {

namespace {

constexpr int kSlots = 64;
// 0: free, 1: being written or cleared, 2: holds a path to remove.
std::atomic<int> g_state[kSlots];
char g_path[kSlots][PATH_MAX];
std::atomic<bool> g_installed{false};

void onSignal(int sig) {
    const int saved = errno;
    for (int i = 0; i < kSlots; ++i)
        if (g_state[i].load(std::memory_order_acquire) == 2) ::unlink(g_path[i]);
    errno = saved;
    // The default action now: the process ends as the signal says.
    std::signal(sig, SIG_DFL);
    ::raise(sig);
}

}  // namespace

void installTemporaryFileCleanup() {
    if (g_installed.exchange(true)) return;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup & co.
        struct sigaction sa {};
        sa.sa_handler = onSignal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        ::sigaction(sig, &sa, nullptr);
    }
}

int registerTemporaryFile(const std::string& path) {
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_state[i].compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) continue;
        std::memcpy(g_path[i], path.c_str(), path.size() + 1);
        g_state[i].store(2, std::memory_order_release);
        return i;
    }
    return -1;
}

void unregisterTemporaryFile(int slot) {
    if (slot < 0 || slot >= kSlots) return;
    g_state[slot].store(0, std::memory_order_release);
}

std::string writeWholeFile(const std::string& path, const std::string& text) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f) return "cannot write " + path + ": " + std::strerror(errno);
        errno = 0;
        const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
        const int err = errno;
        const bool closed = std::fclose(f) == 0;
        if (!wrote || !closed)
            return "cannot write " + path + ": write failed" + (err ? std::string(": ") + std::strerror(err) : "");
        return {};
    }
    try {
        OutputFile out(path);
        out.writeString(text);
        out.commit();
    } catch (const ExportError& e) {
        return e.what();
    }
    return {};
}

}  // namespace engine

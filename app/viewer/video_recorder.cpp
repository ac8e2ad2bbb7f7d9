#include "app/viewer/video_recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/cli_args.h"
#include "engine/export/temp_files.h"

extern char** environ;

namespace app::viewer {

namespace fs = std::filesystem;

VideoRecorder::~VideoRecorder() { abandon(); }

std::string VideoRecorder::findFfmpeg() {
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "");
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        if (dir.empty()) continue;
        const std::string f = dir + "/ffmpeg";
        if (::access(f.c_str(), X_OK) == 0) return f;
    }
    return {};
}

std::string VideoRecorder::check(const std::string& path) {
    if (findFfmpeg().empty())
        return "recording " + path + " needs ffmpeg, which is not installed (apt-get install ffmpeg, or scripts/setup)";
    try {
        checkOutputPath("--record", path);
    } catch (const CliError& e) {
        return e.what();
    }
    if (fs::path(path).extension().empty()) return "--record " + path + ": no extension to choose the video format (.mp4, .mkv, .webm, .gif ...)";
    return {};
}

std::string VideoRecorder::start(const std::string& path, int width, int height, double fps) {
    abandon();
    if (auto e = check(path); !e.empty()) return e;
    if (width <= 0 || height <= 0 || !(fps > 0.0)) return "recording " + path + ": nothing to record";
    const fs::path p(path);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::string stem = ".";  // hidden, beside the output
    stem += p.stem().string();
    stem += ".tmp-" + std::to_string(::getpid());
    temp_ = (dir / (stem + p.extension().string())).string();
    log_ = (dir / (stem + ".log")).string();
    temp_slot_ = engine::registerTemporaryFile(temp_);
    log_slot_ = engine::registerTemporaryFile(log_);
    path_ = path;
    width_ = width;
    height_ = height;
    frames_ = 0;

    char rate[32];
    if (std::fabs(fps - std::round(fps)) < 1e-6)
        std::snprintf(rate, sizeof rate, "%d", int(std::round(fps)));
    else
        std::snprintf(rate, sizeof rate, "%.6f", fps);
    std::string ext = p.extension().string();
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> args = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                                     "-f", "rawvideo", "-pix_fmt", "rgba",
                                     "-s", std::to_string(width) + "x" + std::to_string(height),
                                     "-framerate", rate, "-i", "pipe:0", "-an"};
    if (ext == ".mp4" || ext == ".mov" || ext == ".mkv") {
        // H.264 in 4:2:0 (what players expect) needs even sizes.
        if (width % 2 || height % 2) args.insert(args.end(), {"-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"});
        args.insert(args.end(), {"-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18"});
        if (ext != ".mkv") args.insert(args.end(), {"-movflags", "+faststart"});
    }
    args.push_back(temp_);

    int pipefd[2];
    if (::pipe(pipefd) != 0) return "recording " + path + ": cannot create a pipe: " + std::strerror(errno);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[0], 0);
    posix_spawn_file_actions_addclose(&fa, pipefd[1]);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string exe = findFfmpeg();
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(pipefd[0]);
    if (rc != 0) {
        ::close(pipefd[1]);
        std::remove(log_.c_str());
        forgetTemporaries();
        return "recording " + path + ": cannot start " + exe + ": " + std::strerror(rc);
    }
    // A write to an ffmpeg that has exited must fail with EPIPE, not end the viewer.
    ::signal(SIGPIPE, SIG_IGN);
    ::fcntl(pipefd[1], F_SETFD, FD_CLOEXEC);
    pid_ = pid;
    fd_ = pipefd[1];
    return {};
}

std::string VideoRecorder::addFrame(const std::vector<uint8_t>& rgba, int width, int height) {
    if (!recording()) return "not recording";
    if (width != width_ || height != height_) {
        std::string e = finish();
        return "the window changed size (" + std::to_string(width) + "x" + std::to_string(height) + ", the video is " +
               std::to_string(width_) + "x" + std::to_string(height_) + "): recording stopped" +
               (e.empty() ? ", " + path_ + " written" : "; " + e);
    }
    const size_t want = size_t(width) * size_t(height) * 4;
    if (rgba.size() < want) return "recording " + path_ + ": a frame is smaller than the video";
    size_t done = 0;
    while (done < want) {
        const ssize_t n = ::write(fd_, rgba.data() + done, want - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            std::string why = ffmpegError();
            abandon();
            return "recording " + path_ + " failed: ffmpeg stopped" + (why.empty() ? "" : ": " + why);
        }
        done += size_t(n);
    }
    ++frames_;
    return {};
}

std::string VideoRecorder::ffmpegError() const {
    std::ifstream f(log_);
    std::string line, last;
    while (std::getline(f, line))
        if (!line.empty()) last = line;
    // ffmpeg names the file it writes, our temporary: name the user's file.
    for (size_t at; !temp_.empty() && (at = last.find(temp_)) != std::string::npos;) last.replace(at, temp_.size(), path_);
    return last;
}

void VideoRecorder::forgetTemporaries() {
    engine::unregisterTemporaryFile(temp_slot_);
    engine::unregisterTemporaryFile(log_slot_);
    temp_slot_ = log_slot_ = -1;
}

std::string VideoRecorder::finish() {
    if (!recording()) return {};
    ::close(fd_);
    fd_ = -1;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    std::string err;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        err = "recording " + path_ + " failed: ffmpeg ended with an error";
        if (auto why = ffmpegError(); !why.empty()) err += ": " + why;
    } else if (frames_ == 0) {
        err = "recording " + path_ + ": no frames were recorded; nothing written";
    } else if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
        err = "recording " + path_ + ": cannot rename the finished video into place: " + std::strerror(errno);
    }
    if (!err.empty()) std::remove(temp_.c_str());
    std::remove(log_.c_str());
    forgetTemporaries();
    temp_.clear();
    log_.clear();
    return err;
}

void VideoRecorder::abandon() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (pid_ > 0) {
        ::kill(pid_, SIGTERM);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
    if (!temp_.empty()) std::remove(temp_.c_str());
    if (!log_.empty()) std::remove(log_.c_str());
    forgetTemporaries();
}

}  // namespace app::viewer

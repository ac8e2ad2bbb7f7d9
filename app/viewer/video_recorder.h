// Recording the viewer to a video (`view --record out.mp4`, the Record
// button): RGBA frames piped to an `ffmpeg` child process (Debian package
// ffmpeg, installed by scripts/setup) at the scene's frame rate. ffmpeg
// writes a temporary name beside the output, renamed when it has finished,
// so a failed or abandoned recording leaves no half file.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace app::viewer {

class VideoRecorder {
public:
    VideoRecorder() = default;
    ~VideoRecorder();  // an unfinished recording is abandoned (nothing left behind)
    VideoRecorder(const VideoRecorder&) = delete;
    VideoRecorder& operator=(const VideoRecorder&) = delete;

    // The ffmpeg on PATH, or empty when there is none.
    static std::string findFfmpeg();
    // Why a recording to `path` cannot start (no ffmpeg, folder not
    // writable), or empty.
    static std::string check(const std::string& path);

    // Starts ffmpeg for frames of width × height at `fps` frames per second.
    std::string start(const std::string& path, int width, int height, double fps);
    // One frame: RGBA, top row first, of the size given to start().
    std::string addFrame(const std::vector<uint8_t>& rgba, int width, int height);
    // Ends the stream, waits for ffmpeg and renames the video into place.
    std::string finish();
    // Stops ffmpeg and removes what it wrote.
    void abandon();

    bool recording() const { return pid_ > 0; }
    int64_t frames() const { return frames_; }
    const std::string& path() const { return path_; }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    std::string ffmpegError() const;  // the end of ffmpeg's log
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string path_, temp_, log_;
    int temp_slot_ = -1, log_slot_ = -1;  // removed on SIGINT/SIGTERM (engine/export/temp_files.h)
    void forgetTemporaries();
    int width_ = 0, height_ = 0;
    int64_t frames_ = 0;
};

}  // namespace app::viewer

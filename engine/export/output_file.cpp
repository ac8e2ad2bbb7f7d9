#include "engine/export/output_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/export/clip_writer.h"
#include "engine/export/temp_files.h"

namespace engine {

namespace {
std::atomic<unsigned> g_serial{0};
}

OutputFile::OutputFile(std::string final_path, std::string shown_as)
    : final_(std::move(final_path)), shown_(std::move(shown_as)) {
    if (shown_.empty()) shown_ = final_;
    namespace fs = std::filesystem;
    const fs::path p(final_);
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    // Hidden, and unique per process and file.
    std::string name = ".";
    name += p.filename().string();
    name += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(g_serial.fetch_add(1));
    temp_ = (dir / name).string();
    f_ = std::fopen(temp_.c_str(), "w+b");
    if (!f_) throw ExportError("cannot write " + shown_ + ": " + std::strerror(errno));
    cleanup_slot_ = registerTemporaryFile(temp_);
}

OutputFile::~OutputFile() {
    if (f_) std::fclose(f_);
    if (!committed_) std::remove(temp_.c_str());
    unregisterTemporaryFile(cleanup_slot_);
}

void OutputFile::fail(const char* what) const {
    throw ExportError("cannot write " + shown_ + ": " + what + (errno ? std::string(": ") + std::strerror(errno) : ""));
}

void OutputFile::write(const void* data, size_t bytes) {
    if (!f_) fail("already closed");
    errno = 0;
    if (bytes && std::fwrite(data, 1, bytes, f_) != bytes) fail("write failed");
    written_ += bytes;
}

void OutputFile::readAt(uint64_t offset, void* out, size_t bytes) {
    if (!f_) fail("already closed");
    errno = 0;
    if (std::fflush(f_) != 0) fail("write failed");
    if (::pread(::fileno(f_), out, bytes, off_t(offset)) != ssize_t(bytes)) fail("cannot read back the scratch data");
    std::fseek(f_, 0, SEEK_END);
}

void OutputFile::close() {
    if (!f_) return;
    errno = 0;
    const bool ok = std::fflush(f_) == 0 && ::fsync(::fileno(f_)) == 0;
    const bool closed = std::fclose(f_) == 0;
    f_ = nullptr;
    if (!ok || !closed) fail("write failed");
}

void OutputFile::commit() {
    close();
    errno = 0;
    if (std::rename(temp_.c_str(), final_.c_str()) != 0) fail("cannot rename the finished file into place");
    committed_ = true;
    unregisterTemporaryFile(cleanup_slot_);
    cleanup_slot_ = -1;
}

}  // namespace engine

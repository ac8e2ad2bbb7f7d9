// A file written under a temporary name in the folder of its final name and
// renamed into place when complete (rename is atomic within a folder): a
// reader never sees half a file, and a write that fails or is abandoned
// leaves nothing behind (the destructor removes the temporary; a signal that
// ends the program removes it too: engine/export/temp_files.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace engine {

class OutputFile {
public:
    // Opens "<dir>/.<name>.tmp-<pid>-<n>". Throws ExportError (engine/export/clip_writer.h)
    // naming `final_path` when the folder cannot take it. A scratch file
    // (never committed) gives `shown_as`, the file the user asked for, to
    // name in its errors: messages never name internal spool files.
    explicit OutputFile(std::string final_path, std::string shown_as = {});
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Throw ExportError naming the final path ("disk full" and the like).
    void write(const void* data, size_t bytes);
    void writeString(const std::string& s) { write(s.data(), s.size()); }
    uint64_t size() const { return written_; }
    // Reads back `bytes` at `offset` of what was written (files that are
    // assembled from a scratch file).
    void readAt(uint64_t offset, void* out, size_t bytes);
    // Flushes, closes and renames the temporary to the final path.
    void commit();
    // Flushes and closes without renaming (a scratch file, removed by the destructor).
    void close();
    const std::string& finalPath() const { return final_; }
    const std::string& tempPath() const { return temp_; }

private:
    void fail(const char* what) const;
    std::string final_, shown_, temp_;
    int cleanup_slot_ = -1;  // registerTemporaryFile
    std::FILE* f_ = nullptr;
    uint64_t written_ = 0;
    bool committed_ = false;
};

}  // namespace engine

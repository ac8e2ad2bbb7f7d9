// The writers behind openBakeWriter (engine/export/clip_writer.h), one file each,
// and the small text helpers they share.
#pragma once

#include <charconv>
#include <memory>
#include <string>

#include "engine/export/clip_writer.h"
#include "engine/export/output_file.h"

namespace engine::bake_detail {

std::unique_ptr<BakeWriter> openGltfWriter(const std::string& path, const BakeClip& clip, bool binary);
std::unique_ptr<BakeWriter> openUsdaWriter(const std::string& path, const BakeClip& clip);
std::unique_ptr<BakeWriter> openPc2Writer(const std::string& path, const BakeClip& clip);

// Shortest text that reads back as the same value (std::to_chars).
inline void appendNumber(std::string& s, float v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
}
inline void appendNumber(std::string& s, double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
}
inline void appendNumber(std::string& s, long long v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    s.append(buf, r.ptr);
}

// Writes a frame's surface positions (all muscles, in order) as raw
// little-endian floats: the body of a PC2 file and the USD writer's scratch.

void writeSurface(OutputFile& f, const BakeClip& clip, const std::vector<glm::vec3>& x);

}  // namespace engine::bake_detail

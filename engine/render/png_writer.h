// Writes RGBA8 images (top row first) as PNG.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace engine::render {

// Returns an error naming the file (empty on success). Alpha is forced opaque.
std::string writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace engine::render

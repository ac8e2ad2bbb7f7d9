// Decoding a glTF image (PNG or JPEG, the two formats glTF 2.0 core allows)
// into RGBA8, with its size checked before anything is decoded.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace engine {

struct DecodedImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;  // width × height × 4, first row at the image's top
};

// Reads the header only: false (and a cause) when the bytes are not a PNG or
// JPEG stb_image can read, or the image is over gltf_limits::kMaxTextureSize
// a side ("is W x H texels; the limit is 16384 texels a side").
bool imageSize(std::span<const uint8_t> bytes, int& width, int& height, std::string& cause);
// Decodes; returns an empty string on success, else the cause.
std::string decodeImage(std::span<const uint8_t> bytes, DecodedImage& out);

}  // namespace engine

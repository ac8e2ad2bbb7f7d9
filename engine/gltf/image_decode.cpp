#include "engine/gltf/image_decode.h"

#include "engine/gltf/gltf_input.h"

#include <climits>
#include <cstring>

// The implementation is compiled here with static linkage (tinygltf carries
// its own copy), for the two formats of glTF 2.0 core only: less decoder
// code exposed to hostile files. Dimensions are bounded here, by
// gltf_limits::kMaxTextureSize: stb_image's own bound is set far above it so
// that its header reader returns the size of an image over the limit (with
// its bound at the limit, such an image read as "unknown image type").
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS (1 << 24)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#ifndef __clang__  // a GCC-only warning (clang, in the sanitizer tree, warns about the name)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#endif
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace engine {

namespace {

std::string overTheLimit(uint64_t w, uint64_t h) {
    return "is " + std::to_string(w) + " x " + std::to_string(h) + " texels; the limit is " +
           std::to_string(gltf_limits::kMaxTextureSize) + " texels a side";
}

bool overTheLimit(uint64_t w, uint64_t h, std::string& cause) {
    const uint64_t lim = uint64_t(gltf_limits::kMaxTextureSize);
    if (w <= lim && h <= lim) return false;
    cause = overTheLimit(w, h);
    return true;
}

}  // namespace

bool imageSize(std::span<const uint8_t> bytes, int& width, int& height, std::string& cause) {
    if (bytes.empty() || bytes.size() > size_t(INT_MAX)) {
        cause = bytes.empty() ? "no image data" : "image data too large";
        return false;
    }
    // A PNG's size is in its IHDR at a fixed place: read there, so that sizes
    // stb_image refuses outright (over 2^24) are reported against the limit too.
    static constexpr uint8_t kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 24 && std::memcmp(bytes.data(), kPng, 8) == 0 && std::memcmp(bytes.data() + 12, "IHDR", 4) == 0) {
        auto be32 = [&](size_t at) {
            return uint64_t(bytes[at]) << 24 | uint64_t(bytes[at + 1]) << 16 | uint64_t(bytes[at + 2]) << 8 | bytes[at + 3];
        };
        if (overTheLimit(be32(16), be32(20), cause)) return false;
    }
    int comp = 0;
    if (!stbi_info_from_memory(bytes.data(), int(bytes.size()), &width, &height, &comp)) {
        const char* r = stbi_failure_reason();
        cause = std::string("not a PNG or JPEG image stb_image can read") + (r ? std::string(" (") + r + ")" : "");
        return false;
    }
    if (width <= 0 || height <= 0) {
        cause = "image has no pixels";
        return false;
    }
    return !overTheLimit(uint64_t(width), uint64_t(height), cause);
}

std::string decodeImage(std::span<const uint8_t> bytes, DecodedImage& out) {
    out = DecodedImage{};
    int w = 0, h = 0, comp = 0;
    std::string cause;
    if (!imageSize(bytes, w, h, cause)) return cause;
    stbi_uc* px = stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &comp, 4);
    if (!px) {
        const char* r = stbi_failure_reason();
        return std::string("cannot be decoded") + (r ? std::string(" (") + r + ")" : "");
    }
    out.width = w;
    out.height = h;
    out.rgba.assign(px, px + size_t(w) * size_t(h) * 4);
    stbi_image_free(px);
    return {};
}

}  // namespace engine

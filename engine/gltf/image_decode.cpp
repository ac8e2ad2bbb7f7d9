#include "engine/gltf/image_decode.h"

#include <climits>
#include <cstring>

// The implementation is compiled here with static linkage (tinygltf carries
// its own copy), for the two formats of glTF 2.0 core only: less decoder
// code exposed to hostile files. Dimensions are bounded here too.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS 16384
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wuseless-cast"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace engine {

bool imageSize(std::span<const uint8_t> bytes, int& width, int& height, std::string& cause) {
    if (bytes.empty() || bytes.size() > size_t(INT_MAX)) {
        cause = bytes.empty() ? "no image data" : "image data too large";
        return false;
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
    return true;
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

#include "engine/render/png_writer.h"

// The implementation is compiled here with static linkage so that it cannot
// clash with another copy (tinygltf carries one too).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace engine::render {

std::string writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
    if (width <= 0 || height <= 0 || rgba.size() < size_t(width) * size_t(height) * 4)
        return path + ": no image to write";
    std::vector<uint8_t> opaque(rgba);
    for (size_t i = 3; i < opaque.size(); i += 4) opaque[i] = 255;
    if (!stbi_write_png(path.c_str(), width, height, 4, opaque.data(), width * 4))
        return path + ": cannot write PNG";
    return {};
}

}  // namespace engine::render

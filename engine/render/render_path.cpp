#include "engine/render/render_path.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace engine::render {

namespace {
constexpr std::array<std::string_view, 3> kFastRenderNames = {"auto", "on", "off"};
}

std::string_view fastRenderName(FastRender f) { return kFastRenderNames[static_cast<size_t>(f)]; }

std::optional<FastRender> parseFastRender(std::string_view name) {
    for (size_t i = 0; i < kFastRenderNames.size(); ++i)
        if (kFastRenderNames[i] == name) return static_cast<FastRender>(i);
    return std::nullopt;
}

bool isSoftwareRenderer(std::string_view gl_renderer) {
    std::string s(gl_renderer);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* name : {"llvmpipe", "softpipe", "swrast"})
        if (s.find(name) != std::string::npos) return true;
    return false;
}

RenderPath chooseRenderPath(FastRender setting, bool software_renderer, int requested_msaa) {
    RenderPath p;
    p.msaa_samples = requested_msaa;
    p.fast = setting == FastRender::On || (setting == FastRender::Auto && software_renderer);
    if (!p.fast) return p;
    // Measured under Xvfb/llvmpipe on 2 cores (docs/lab/viewer-fast-path.md): the
    // fragment work dominates (a full-screen gradient alone ~14 ms at
    // 1280×720), so a quarter of the pixels, one sample each, and a third
    // of the shadow taps on a map of a quarter the texels.
    p.msaa_samples = 1;
    p.scale = 0.5f;
    p.shadow_size = 1024;
    p.few_shadow_taps = true;
    return p;
}

}  // namespace engine::render

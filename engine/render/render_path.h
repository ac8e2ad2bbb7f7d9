// Which way a frame is drawn: the full path (4× MSAA, 2048² shadow map with
// wide PCF kernels, the scene at the window's resolution) or the fast path
// for software rasterisers (llvmpipe under Xvfb), where every sample and
// every shadow tap costs CPU time the simulation also needs. The fast path
// draws the scene with one sample per pixel at a reduced resolution (scaled
// up into the full-resolution output, where the UI stays sharp) and softens
// the shadows with fewer taps on a smaller map. Chosen automatically from
// GL_RENDERER unless forced (docs/architecture.md, "Renderer").
#pragma once

#include <optional>
#include <string_view>

namespace engine::render {

enum class FastRender { Auto, On, Off };
std::string_view fastRenderName(FastRender f);  // "auto", "on", "off"
std::optional<FastRender> parseFastRender(std::string_view name);

// GL_RENDERER of a software rasteriser: Mesa's llvmpipe, softpipe, swrast.
bool isSoftwareRenderer(std::string_view gl_renderer);

// What one frame's drawing uses.
struct RenderPath {
    bool fast = false;
    int msaa_samples = 4;
    float scale = 1.0f;        // scene resolution / output resolution
    int shadow_size = 2048;    // shadow map edge, texels
    bool few_shadow_taps = false;  // 4 PCF taps per lit fragment instead of 8–24
};

// `requested_msaa`: RenderOptions::msaa_samples (the full path's).
RenderPath chooseRenderPath(FastRender setting, bool software_renderer, int requested_msaa);

}  // namespace engine::render

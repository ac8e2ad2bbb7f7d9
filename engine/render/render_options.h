// What the renderer draws besides the shaded muscles: overlay toggles and
// display settings. Plain data, owned by the viewer and saved in presets.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/render/render_path.h"

namespace engine::render {

enum class Overlay : uint8_t {
    Wireframe,    // surface triangle edges
    Fibers,       // fibre direction at each surface vertex
    Internal,     // internal structure: medulla (chains of branch points) and spokes
    Attachments,  // vertices held on bones
    Contacts,     // active contacts with their normals
    ColorGroups,  // SMT-G colour of every distance constraint
    ErrorMap,     // per-vertex constraint error heat map (replaces the muscle colours)
    ActivationMap,  // activation on the viridis colour map instead of the anatomical colours
    Glow,           // activation shown as a warm glow on the muscle (on by default)
    Overlap,        // muscle into muscle: each vertex's depth inside a neighbour (replaces the muscle colours)
    Drift,          // how far each vertex has moved off its nearest neighbour, bone or skin since rest (replaces the muscle colours)
    Outside,        // how far each vertex lies outside the skin as posed from the file (replaces the muscle colours)
    Count
};
constexpr int kOverlayCount = static_cast<int>(Overlay::Count);
std::string_view overlayName(Overlay o);   // "wireframe", "fibers", ...
std::string_view overlayLabel(Overlay o);  // for the UI
std::optional<Overlay> parseOverlay(std::string_view name);
constexpr std::array<bool, kOverlayCount> defaultOverlays() {
    std::array<bool, kOverlayCount> o{};
    o[static_cast<int>(Overlay::Glow)] = true;
    return o;
}

struct RenderOptions {
    std::array<bool, kOverlayCount> overlays = defaultOverlays();
    bool shadows = true;
    bool bones = true;
    bool ground = true;
    // Translucent meshes (material alphaMode BLEND, e.g. the generated skin
    // over the muscles): shown or hidden all together; their alpha is the
    // material's × skin_opacity (clamped to 1). On by default: a scene
    // without translucent meshes draws nothing more.
    bool skin = true;
    float skin_opacity = 1.0f;
    int msaa_samples = 4;
    // The fast path for software rasterisers (engine/render/render_path.h):
    // automatic (on under llvmpipe/softpipe/swrast only), or forced.
    FastRender fast_render = FastRender::Auto;
    // Relative strain |C|/rest that maps to the top of the error colour map.
    float error_scale = 0.25f;  // heat map: residual (relative to the bind-pose edge) shown as full scale
    std::vector<uint8_t> muscle_visible;  // per muscle; empty = all visible
    int selected_muscle = -1;             // highlighted, −1 = none

    bool overlay(Overlay o) const { return overlays[static_cast<int>(o)]; }
    void set(Overlay o, bool on) { overlays[static_cast<int>(o)] = on; }
    bool muscleVisible(size_t m) const { return m >= muscle_visible.size() || muscle_visible[m]; }
};

}  // namespace engine::render

#include "engine/render/render_options.h"

namespace engine::render {

namespace {
constexpr std::array<std::string_view, kOverlayCount> kNames = {
    "wireframe", "fibers", "internal", "attachments", "contacts", "colors", "error", "activation", "glow", "overlap", "drift", "outside"};
constexpr std::array<std::string_view, kOverlayCount> kLabels = {
    "Wireframe",   "Fibre directions",       "Internal structure", "Attachments",
    "Contacts",    "SMT-G colour groups",    "Constraint error heat map", "Activation colour map",
    "Activation glow", "Muscle overlap map", "Drift map", "Outside the skin"};
}  // namespace

std::string_view overlayName(Overlay o) { return kNames[static_cast<int>(o)]; }
std::string_view overlayLabel(Overlay o) { return kLabels[static_cast<int>(o)]; }

std::optional<Overlay> parseOverlay(std::string_view name) {
    for (int i = 0; i < kOverlayCount; ++i)
        if (kNames[size_t(i)] == name) return static_cast<Overlay>(i);
    return std::nullopt;
}

}  // namespace engine::render

#include <algorithm>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "engine/render/colormap.h"

namespace app::viewer {

// Colour bar for whatever the muscle colours mean right now: the activation
// glow on the anatomical colours, activation on viridis, or, with the heat map
// overlay, the XPBD constraint residual (inferno).
void drawLegend(PanelContext& c) {
    using engine::render::Overlay;
    const bool error = c.state.render.overlay(Overlay::ErrorMap);
    const bool overlap = !error && c.state.render.overlay(Overlay::Overlap);
    const bool drift = !error && !overlap && c.state.render.overlay(Overlay::Drift);
    const bool outside = !error && !overlap && !drift && c.state.render.overlay(Overlay::Outside);
    const bool field = error || overlap || drift || outside;
    const bool groups = c.state.render.overlay(Overlay::ColorGroups);
    const bool viridis = c.state.render.overlay(Overlay::ActivationMap);
    const bool glow = c.state.render.overlay(Overlay::Glow);
    c.state.legend_rect[2] = c.state.legend_rect[3] = 0.0f;
    if (groups && !field) return;
    if (!field && !viridis && !glow) return;  // anatomical colours alone: nothing to decode
    const char* label = error     ? "constraint residual |C + a~ lambda| / L"
                        : overlap ? "inside another muscle, past the contact radius (mm)"
                        : drift   ? "off the nearest neighbour, bone or skin, beyond rest (mm)"
                        : outside ? "outside the skin as posed from the file (mm)"
                        : viridis ? "activation"
                                  : "activation (glow)";
    // The free area's bottom-left corner: clear of the panels and of the
    // figure, which stands in the middle of the view (at the bottom-right the
    // bar covered T7's feet, at the top right the shoulder of T5 under the
    // timings); bottom-right if a long warning brings the info overlay down
    // to it.
    const ViewerState::Area& area = c.state.free_area;
    const float margin = 10.0f, bar_w = 220.0f;
    const float height = 2.0f * ImGui::GetTextLineHeightWithSpacing() + 14.0f + 2.0f * ImGui::GetStyle().WindowPadding.y;
    const float* info = c.state.info_rect;
    const bool under_info = info[3] > 0.0f && info[1] + info[3] + margin > area.bottom - margin - height;
    ImGui::SetNextWindowPos(ImVec2(under_info ? area.right - margin : area.left + margin, area.bottom - margin),
                            ImGuiCond_Always, ImVec2(under_info ? 1.0f : 0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.45f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##legend", nullptr, flags)) {
        ImGui::TextUnformatted(label);
        const float w = bar_w, h = 14.0f;
        ImVec2 p = ImGui::GetCursorScreenPos();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const int steps = 32;
        auto map = error ? engine::render::ColorMap::Inferno : engine::render::ColorMap::Viridis;
        // The glow as the shader adds it to the lit flesh colour (approximate).
        auto colour = [&](float x) {
            if (overlap) return engine::render::overlapColor(x * engine::render::kOverlapFullScale);
            if (drift) return engine::render::driftColor(x * engine::render::kDriftFullScale);
            if (outside) return engine::render::outsideColor(x * engine::render::kOutsideFullScale);
            if (error || viridis) return engine::render::sampleColorMap(map, x);
            const glm::vec3 flesh(0.60f, 0.20f, 0.17f), warm(1.0f, 0.42f, 0.08f);
            return glm::min(flesh + 0.5f * x * warm, glm::vec3(1.0f));
        };
        for (int i = 0; i < steps; ++i) {
            glm::vec3 a = colour(float(i) / steps);
            glm::vec3 b = colour(float(i + 1) / steps);
            ImU32 ca = ImColor(a.x, a.y, a.z), cb = ImColor(b.x, b.y, b.z);
            dl->AddRectFilledMultiColor(ImVec2(p.x + w * i / steps, p.y), ImVec2(p.x + w * (i + 1) / steps, p.y + h), ca, cb, cb, ca);
        }
        ImGui::Dummy(ImVec2(w, h));
        float hi = error ? c.state.render.error_scale
                   : overlap ? 1000.0f * engine::render::kOverlapFullScale
                   : drift   ? 1000.0f * engine::render::kDriftFullScale
                   : outside ? 1000.0f * engine::render::kOutsideFullScale
                             : 1.0f;
        ImGui::Text("0");
        ImGui::SameLine(w - 30.0f);
        ImGui::Text(overlap || drift || outside ? "%.3g+" : "%.3g", double(hi));
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        c.state.legend_rect[0] = pos.x;
        c.state.legend_rect[1] = pos.y;
        c.state.legend_rect[2] = size.x;
        c.state.legend_rect[3] = size.y;
    }
    ImGui::End();
}

}  // namespace app::viewer

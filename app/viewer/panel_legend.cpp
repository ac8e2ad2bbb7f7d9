#include <imgui.h>

#include "app/viewer/panels.h"
#include "engine/render/colormap.h"

namespace app::viewer {

// Colour bar for whatever the muscle colours mean right now: activation
// (viridis) or, with the heat map overlay, the XPBD constraint residual (inferno).
void drawLegend(PanelContext& c) {
    const bool error = c.state.render.overlay(engine::render::Overlay::ErrorMap);
    const bool groups = c.state.render.overlay(engine::render::Overlay::ColorGroups);
    if (groups && !error) return;
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(ds.x - 380.0f, ds.y - 76.0f), ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.45f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##legend", nullptr, flags)) {
        ImGui::TextUnformatted(error ? "constraint residual |C + a~ lambda| / L" : "activation");
        const float w = 220.0f, h = 14.0f;
        ImVec2 p = ImGui::GetCursorScreenPos();
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const int steps = 32;
        auto map = error ? engine::render::ColorMap::Inferno : engine::render::ColorMap::Viridis;
        for (int i = 0; i < steps; ++i) {
            glm::vec3 a = engine::render::sampleColorMap(map, float(i) / steps);
            glm::vec3 b = engine::render::sampleColorMap(map, float(i + 1) / steps);
            ImU32 ca = ImColor(a.x, a.y, a.z), cb = ImColor(b.x, b.y, b.z);
            dl->AddRectFilledMultiColor(ImVec2(p.x + w * i / steps, p.y), ImVec2(p.x + w * (i + 1) / steps, p.y + h), ca, cb, cb, ca);
        }
        ImGui::Dummy(ImVec2(w, h));
        float hi = error ? c.state.render.error_scale : 1.0f;
        ImGui::Text("0");
        ImGui::SameLine(w - 30.0f);
        ImGui::Text("%.3g", double(hi));
    }
    ImGui::End();
}

}  // namespace app::viewer

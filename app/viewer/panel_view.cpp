#include <string>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawViewPanel(PanelContext& c) {
    for (int i = 0; i < engine::render::kOverlayCount; ++i) {
        auto o = static_cast<engine::render::Overlay>(i);
        bool on = c.state.render.overlay(o);
        std::string label(engine::render::overlayLabel(o));
        if (ImGui::Checkbox(label.c_str(), &on)) c.actions.setOverlay(o, on);
    }
    if (c.state.render.overlay(engine::render::Overlay::ErrorMap))
        ImGui::SliderFloat("error scale", &c.state.render.error_scale, 0.001f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
    bool shadows = c.state.render.shadows;
    if (ImGui::Checkbox("soft shadows", &shadows)) c.actions.setShadows(shadows);
    ImGui::SameLine();
    ImGui::Checkbox("bones", &c.state.render.bones);
    ImGui::SameLine();
    ImGui::Checkbox("ground", &c.state.render.ground);
    if (ImGui::Button("Frame all (F)")) c.actions.frameAll();
    ImGui::SameLine();
    if (ImGui::Button("Help (F1)")) c.actions.toggleHelp();
}

}  // namespace app::viewer

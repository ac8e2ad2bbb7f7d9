// The picked muscle (app/viewer/pick.h): its name under the mouse, and for
// the selected one a window at the top right of the view with what it is
// doing and its own controls, so a tuner asks "which muscle is this?" and
// changes it where it is.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawSelectionPanel(PanelContext& c) {
    const SceneInfo* info = c.frame.scene.get();
    if (!info) return;
    const auto& names = info->muscle_names;
    const int hover = c.state.hover_muscle;
    if (hover >= 0 && size_t(hover) < names.size()) ImGui::SetTooltip("%s", names[size_t(hover)].c_str());
    const int sel = c.state.render.selected_muscle;
    if (sel < 0 || size_t(sel) >= names.size()) return;
    const size_t m = size_t(sel);
    const ViewerState::Area& area = c.state.free_area;
    // Its right edge 10 px inside the view's, under the Statistics title bar
    // (it sizes itself to its contents).
    constexpr float kTitleBar = 26.0f;
    ImGui::SetNextWindowPos(ImVec2(area.right - 10.0f, area.top + kTitleBar), ImGuiCond_Appearing, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.85f);
    bool open = true;
    if (ImGui::Begin("Selected muscle", &open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::TextUnformatted(names[m].c_str());
        if (m < c.frame.muscle_stats.size()) {
            const sim::MuscleStats& s = c.frame.muscle_stats[m];
            const float a = m < c.frame.activation.size() ? c.frame.activation[m] : s.activation;
            ImGui::Text("activation %.2f", double(a));
            ImGui::Text("volume %.1f of %.1f cm3 (%+.1f %%)", double(s.volume) * 1e6, double(s.rest_volume) * 1e6,
                        s.rest_volume > 0.0f ? 100.0 * double(s.volume / s.rest_volume - 1.0f) : 0.0);
            ImGui::Text("length %.1f of %.1f mm (%+.1f %%)", double(s.length) * 1e3, double(s.rest_length) * 1e3,
                        s.rest_length > 0.0f ? 100.0 * double(s.length / s.rest_length - 1.0f) : 0.0);
        }
        if (m < info->muscle_constraints.size()) {
            const MuscleConstraintCounts& k = info->muscle_constraints[m];
            ImGui::Text("distance constraints: %zu surface", k.surface);
            ImGui::Text("  %zu spokes, %zu medulla; 1 volume", k.spoke, k.medulla);
        }
        auto& ctl = c.state.controls;
        if (m < ctl.muscles.size()) {
            auto mc = ctl.muscles[m];
            ImGui::SetNextItemWidth(150.0f);
            if (ImGui::SliderFloat("activation##sel", &mc.activation, 0.0f, 1.0f, "%.2f"))
                c.actions.setMuscleActivation(m, mc.activation);
            if (m < info->muscle_has_sensor.size() && info->muscle_has_sensor[m]) {
                ImGui::SameLine();
                if (ImGui::Checkbox("sensor##sel", &mc.use_sensor)) c.actions.setMuscleSensor(m, mc.use_sensor);
            }
            ImGui::SetNextItemWidth(150.0f);
            if (ImGui::SliderFloat("overpressure##sel", &mc.overpressure, 0.0f, 2.0f, "%.2f"))
                c.actions.setMuscleOverpressure(m, mc.overpressure);
        }
        if (ImGui::Button(c.state.solo_muscle == sel ? "Unsolo" : "Solo")) c.actions.soloMuscle(c.state.solo_muscle == sel ? -1 : sel);
        ImGui::SameLine();
        if (ImGui::Button("Hide")) {
            c.actions.setMuscleHidden(m, true);
            c.actions.selectMuscle(-1);
        }
    }
    ImGui::End();
    if (!open) c.actions.selectMuscle(-1);
}

}  // namespace app::viewer

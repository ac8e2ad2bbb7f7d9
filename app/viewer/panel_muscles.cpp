#include <algorithm>
#include <cctype>
#include <string>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/viewer/panels.h"

namespace app::viewer {

namespace {
bool matches(const std::string& name, const std::string& filter) {
    if (filter.empty()) return true;
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
        return s;
    };
    return lower(name).find(lower(filter)) != std::string::npos;
}
}  // namespace

void drawMuscleList(PanelContext& c, const SceneInfo& info_ref);

void drawMusclesPanel(PanelContext& c) {
    auto& ctl = c.state.controls;
    bool over = ctl.activation_override;
    float a = ctl.global_activation;
    // Room for the longer label after each slider (the side bar is narrow).
    const float label_w = ImGui::CalcTextSize("overpressure").x + ImGui::GetStyle().ItemInnerSpacing.x;
    if (ImGui::Checkbox("##override", &over)) c.actions.setGlobalActivation(over ? std::optional<float>(a) : std::nullopt);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("override every muscle's activation (sensors and sliders)");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w));
    if (ImGui::SliderFloat("activation", &a, 0.0f, 1.0f, "all %.2f")) c.actions.setGlobalActivation(a);
    float kappa = ctl.muscles.empty() ? 0.0f : ctl.muscles.front().overpressure;
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w));
    if (ImGui::SliderFloat("overpressure", &kappa, 0.0f, 2.0f, "all %.2f")) c.actions.setGlobalOverpressure(kappa);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("every muscle's overpressure (kappa); each muscle's own below");

    const SceneInfo* info = c.frame.scene.get();
    if (!info || info->load_id != ctl.scene_load_id) return;
    if (!ImGui::TreeNode("each muscle")) return;
    drawMuscleList(c, *info);
    ImGui::TreePop();
}

// One row per muscle: select, show, solo, its activation, sensor, overpressure.
void drawMuscleList(PanelContext& c, const SceneInfo& info_ref) {
    auto& ctl = c.state.controls;
    const SceneInfo* info = &info_ref;
    ImGui::InputTextWithHint("##filter", "search muscles", &c.state.muscle_filter);
    if (c.state.solo_muscle >= 0) {
        ImGui::SameLine();
        if (ImGui::SmallButton("unsolo")) c.actions.soloMuscle(-1);
    }
    if (!ImGui::BeginTable("muscles", 2, ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg, ImVec2(0, 320))) return;
    for (size_t m = 0; m < ctl.muscles.size() && m < info->muscle_names.size(); ++m) {
        const std::string& name = info->muscle_names[m];
        if (!matches(name, c.state.muscle_filter)) continue;
        ImGui::PushID(int(m));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (ImGui::Selectable(name.c_str(), c.state.render.selected_muscle == int(m)))
            c.actions.selectMuscle(c.state.render.selected_muscle == int(m) ? -1 : int(m));
        ImGui::TableNextColumn();
        bool vis = m >= c.state.hidden.size() || !c.state.hidden[m];
        if (ImGui::Checkbox("show", &vis)) c.actions.setMuscleHidden(m, !vis);
        ImGui::SameLine();
        if (ImGui::SmallButton(c.state.solo_muscle == int(m) ? "SOLO" : "solo"))
            c.actions.soloMuscle(c.state.solo_muscle == int(m) ? -1 : int(m));
        auto mc = ctl.muscles[m];
        float live = m < c.frame.activation.size() ? c.frame.activation[m] : 0.0f;
        ImGui::SetNextItemWidth(-1);
        if (ImGui::SliderFloat("##act", &mc.activation, 0.0f, 1.0f, "a %.2f")) c.actions.setMuscleActivation(m, mc.activation);
        if (m < info->muscle_has_sensor.size() && info->muscle_has_sensor[m]) {
            if (ImGui::Checkbox("sensor", &mc.use_sensor)) c.actions.setMuscleSensor(m, mc.use_sensor);
            ImGui::SameLine();
            float sv = m < c.frame.sensor.size() ? c.frame.sensor[m] : -1.0f;
            ImGui::Text("%.2f", double(std::max(sv, 0.0f)));
        }
        ImGui::Text("live a %.2f", double(live));
        ImGui::SetNextItemWidth(-1);
        if (ImGui::SliderFloat("##kappa", &mc.overpressure, 0.0f, 2.0f, "kappa %.2f"))
            c.actions.setMuscleOverpressure(m, mc.overpressure);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace app::viewer

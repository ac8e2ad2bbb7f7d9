#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {


void drawMaterialPanel(PanelContext& c) {
    const auto& p = c.state.controls.params;
    const bool xpbd = p.mode == sim::ConstraintMode::Xpbd;
    ImGui::TextDisabled(xpbd ? "XPBD stiffness k (alpha = 1/k)" : "PBD stiffness k in [0, 1]");
    // Leave room for the longest family name after each slider (the panel is narrow).
    const float label_w = ImGui::CalcTextSize("structure").x + ImGui::GetStyle().ItemInnerSpacing.x;
    for (int i = 0; i < sim::kFamilyCount; ++i) {
        auto fam = static_cast<sim::Family>(i);
        std::string name(sim::familyName(fam));
        float k = p.stiffness()[fam];
        ImGui::PushID(i);
        if (xpbd) {
            bool hard = std::isinf(k);
            if (ImGui::Checkbox("hard", &hard))
                c.actions.setStiffness(fam, hard ? sim::kInfiniteStiffness : 1.0e5f);
            ImGui::SameLine();
            if (!hard) {
                float v = k;
                // The soft families' defaults are 0.1 N/m (structure, tissue): the range reaches below them.
                ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w));
                if (ImGui::SliderFloat(name.c_str(), &v, 1.0e-3f, 1.0e9f, "%.3g", ImGuiSliderFlags_Logarithmic))
                    c.actions.setStiffness(fam, v);
            } else {
                ImGui::TextUnformatted(name.c_str());
            }
        } else {
            float v = k;
            ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w));
            if (ImGui::SliderFloat(name.c_str(), &v, 0.0f, 1.0f, "%.3f")) c.actions.setStiffness(fam, v);
        }
        ImGui::PopID();
    }
    if (ImGui::Button("Reset to scene defaults")) c.actions.resetMaterial();
}

}  // namespace app::viewer

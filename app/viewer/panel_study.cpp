#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawStudyPanel(PanelContext& c) {
    ImGui::TextWrapped(
        "A 20 cm muscle hangs from its upper tendon under gravity for 1.5 s. Its elongation is plotted "
        "against the iteration count (1..64). XPBD converges to the material's answer; PBD gets stiffer "
        "with more iterations. Stiffness, damping and substeps come from the current settings.");
    if (c.study.running()) {
        ImGui::ProgressBar(c.study.progress(), ImVec2(ImGui::GetContentRegionAvail().x, 0));
    } else if (ImGui::Button("Run study")) {
        c.actions.runStudy();
    }
    StudyResult r = c.study.result();
    if (!r.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", r.error.c_str());
    if (r.iterations.empty()) return;
    float top = 0.0f;
    for (float v : r.xpbd) top = std::max(top, v);
    for (float v : r.pbd) top = std::max(top, v);
    top = std::max(top * 1.1f, 0.01f);
    const float w = ImGui::GetContentRegionAvail().x * 0.5f - 4.0f;
    ImGui::PlotLines("##xpbd", r.xpbd.data(), int(r.xpbd.size()), 0, "XPBD", 0.0f, top, ImVec2(w, 80));
    ImGui::SameLine();
    ImGui::PlotLines("##pbd", r.pbd.data(), int(r.pbd.size()), 0, "PBD", 0.0f, top, ImVec2(w, 80));
    if (ImGui::BeginTable("study", 3, ImGuiTableFlags_Borders)) {
        ImGui::TableSetupColumn("iterations");
        ImGui::TableSetupColumn("XPBD elong. %");
        ImGui::TableSetupColumn("PBD elong. %");
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < r.iterations.size(); ++i) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", r.iterations[i]);
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(r.xpbd[i]));
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", double(r.pbd[i]));
        }
        ImGui::EndTable();
    }
}

}  // namespace app::viewer

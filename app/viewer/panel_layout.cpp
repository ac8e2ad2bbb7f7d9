#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawPanels(PanelContext& c) {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    const ImGuiCond once = ImGuiCond_FirstUseEver;

    ImGui::SetNextWindowPos(ImVec2(0, 0), once);
    ImGui::SetNextWindowSize(ImVec2(kLeftPanelWidth, ds.y - kTimelineHeight), once);
    if (ImGui::Begin("msxpbd")) {
        if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) drawScenePanel(c);
        if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) drawSolverPanel(c);
        if (ImGui::CollapsingHeader("Material")) drawMaterialPanel(c);
        if (ImGui::CollapsingHeader("Muscles")) drawMusclesPanel(c);
        if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewPanel(c);
        if (ImGui::CollapsingHeader("Export")) drawExportPanel(c);
    }
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(ds.x - kRightPanelWidth, 0), once);
    ImGui::SetNextWindowSize(ImVec2(kRightPanelWidth, ds.y - kTimelineHeight), once);
    if (ImGui::Begin("Statistics")) {
        if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) drawStatsPanel(c);
        if (ImGui::CollapsingHeader("Study: XPBD vs PBD, iterations and substeps")) {
            ImGui::TextWrapped("How far a hanging muscle stretches under XPBD and PBD, against a reference answer, "
                               "as iterations, substeps and the material change.");
            if (ImGui::Button(c.state.show_study ? "Close the Study" : "Open the Study"))
                c.actions.showStudy(!c.state.show_study);
        }
    }
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(0, ds.y - kTimelineHeight), once);
    ImGui::SetNextWindowSize(ImVec2(ds.x, kTimelineHeight), once);
    if (ImGui::Begin("Timeline", nullptr, ImGuiWindowFlags_NoCollapse)) drawTimelinePanel(c);
    ImGui::End();

    drawInfoOverlay(c);
    drawLegend(c);
    if (c.state.show_help) drawHelpWindow(c);
    if (c.state.show_study) drawStudyPanel(c);
}

}  // namespace app::viewer

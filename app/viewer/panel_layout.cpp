#include <algorithm>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawPanels(PanelContext& c) {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    const ImGuiCond once = ImGuiCond_FirstUseEver;

    // The side bar: what is changed every minute first (scene, solver,
    // iterations, activation, overpressure, skin, overlays, stiffness), open;
    // statistics, files, export and every other setting below, closed.
    ImGui::SetNextWindowPos(ImVec2(0, 0), once);
    ImGui::SetNextWindowSize(ImVec2(kSideBarWidth, ds.y - kTimelineHeight), once);
    // The panels' edges as drawn: what lies between them is the view's.
    ViewerState::Area& area = c.state.free_area;
    area = {0.0f, 0.0f, ds.x, ds.y};
    const bool controls_open = ImGui::Begin("msxpbd");
    area.left = std::max(area.left, ImGui::GetWindowPos().x + ImGui::GetWindowSize().x);
    if (controls_open) {
        if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) drawScenePanel(c);
        if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) drawSolverPanel(c);
        if (ImGui::CollapsingHeader("Muscles", ImGuiTreeNodeFlags_DefaultOpen)) drawMusclesPanel(c);
        if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) drawViewPanel(c);
        if (ImGui::CollapsingHeader("Material", ImGuiTreeNodeFlags_DefaultOpen)) drawMaterialPanel(c);
        if (ImGui::CollapsingHeader("Advanced")) {
            ImGui::Indent(8.0f);
            if (ImGui::CollapsingHeader("Solver settings")) drawSolverAdvanced(c);
            if (ImGui::CollapsingHeader("Files and presets")) drawFilesPanel(c);
            if (ImGui::CollapsingHeader("Rendering")) drawRenderAdvanced(c);
            if (ImGui::CollapsingHeader("Export")) drawExportPanel(c);
            ImGui::Unindent(8.0f);
        }
    }
    ImGui::End();

    // Statistics on the right, collapsed to its title bar until opened: the
    // view keeps the window's width; opened, the view gives way to it.
    ImGui::SetNextWindowPos(ImVec2(ds.x - kStatsWidth, 0), once);
    ImGui::SetNextWindowSize(ImVec2(kStatsWidth, ds.y - kTimelineHeight), once);
    ImGui::SetNextWindowCollapsed(true, once);
    const bool stats_open = ImGui::Begin("Statistics");
    if (stats_open) {
        area.right = std::min(area.right, ImGui::GetWindowPos().x);
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
    const bool timeline_open = ImGui::Begin("Timeline", nullptr, ImGuiWindowFlags_NoCollapse);
    area.bottom = std::min(area.bottom, ImGui::GetWindowPos().y);
    if (timeline_open) drawTimelinePanel(c);
    ImGui::End();

    drawInfoOverlay(c);
    drawLegend(c);
    drawSelectionPanel(c);
    if (c.state.show_help) drawHelpWindow(c);
    if (c.state.show_study) drawStudyPanel(c);
}

}  // namespace app::viewer

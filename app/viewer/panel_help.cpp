#include <algorithm>
#include <cfloat>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/shortcuts.h"
#include "engine/build_info.h"

namespace app::viewer {

void drawHelpWindow(PanelContext& c) {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(ds.x * 0.5f, ds.y * 0.45f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    bool open = true;
    if (ImGui::Begin("Help", &open, ImGuiWindowFlags_AlwaysAutoResize)) {
        if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
            for (const auto& s : shortcuts()) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(s.key);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(s.action);
            }
            ImGui::EndTable();
        }
        ImGui::Separator();
        ImGui::TextDisabled("Keys are ignored while a text field has focus.");
        ImGui::TextDisabled("Colours: viridis = activation 0..1; inferno = XPBD constraint residual |C + a~ lambda| / L (heat map overlay).");
        ImGui::TextDisabled("Muscle overlap map: grey = outside every neighbour; inferno = depth inside one, past the contact radius, 0..9 mm.");
    }
    ImGui::End();
    if (!open) c.actions.toggleHelp();
}

void drawInfoOverlay(PanelContext& c) {
    const SimFrame& f = c.frame;
    // In the free area's top-left corner, never wider than the free area:
    // a long warning wraps instead of running under the Statistics panel.
    const ViewerState::Area& area = c.state.free_area;
    const float margin = 10.0f, max_w = std::max(120.0f, area.right - area.left - 2.0f * margin);
    ImGui::SetNextWindowPos(ImVec2(area.left + margin, area.top + margin), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(max_w, FLT_MAX));
    ImGui::SetNextWindowBgAlpha(0.45f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
    if (ImGui::Begin("##info", nullptr, flags)) {
        const auto& p = f.params;
        std::string solver(sim::solverName(p.solver)), mode(sim::modeName(p.mode));
        ImGui::Text("t %.2f s  frame %lld  %s", f.time, static_cast<long long>(f.frame), f.playing ? "playing" : "paused");
        if (c.state.show_timings)
            ImGui::Text("render %.0f fps   sim %.1f ms/frame (x%.2f real time)", double(c.stats.renderFps()),
                        double(c.stats.sim_ms.mean()), f.realtime_factor);
        ImGui::Text("%s %s  it %d  sub %d  threads %d  [%s]", solver.c_str(), mode.c_str(), p.iterations, p.substeps,
                    f.threads, engine::buildType());
        ImGui::PushTextWrapPos(max_w - 2.0f * ImGui::GetStyle().WindowPadding.x);
        auto warning = [](ImVec4 colour, const std::string& text) {
            ImGui::PushStyleColor(ImGuiCol_Text, colour);
            ImGui::TextWrapped("%s", text.c_str());
            ImGui::PopStyleColor();
        };
        if (!f.message.empty()) warning(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), f.message);
        if (!c.state.status.empty()) warning(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), c.state.status);
        ImGui::PopTextWrapPos();
        const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        c.state.info_rect[0] = pos.x;
        c.state.info_rect[1] = pos.y;
        c.state.info_rect[2] = size.x;
        c.state.info_rect[3] = size.y;
    }
    ImGui::End();
}

}  // namespace app::viewer

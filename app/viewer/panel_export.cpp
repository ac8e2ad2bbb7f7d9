// The Export section (issue 13): bake frames of the scene to a glTF, USD or
// point-cache file in the background (app/viewer/bake_job.h), and record the
// view to a video (app/viewer/video_recorder.h). Both go through Actions.
#include <algorithm>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawExportPanel(PanelContext& c) {
    ViewerState& s = c.state;
    ImGui::TextWrapped("Muscles and bones over frames to .glb/.gltf, .usda or .pc2 (docs/export.md)");
    ImGui::InputText("file##bake", &s.bake_path);
    ImGui::InputInt("from##bake", &s.bake_first);
    ImGui::InputInt("to##bake", &s.bake_last);
    s.bake_first = std::clamp(s.bake_first, 1, 1000000);
    s.bake_last = std::clamp(s.bake_last, s.bake_first, 1000000);
    const int current = int(std::min<int64_t>(c.frame.frame, 1000000));
    if (current >= 1 && ImGui::SmallButton("frames so far (1..current)")) {
        s.bake_first = 1;
        s.bake_last = current;
    }
    const bool running = c.bake && c.bake->running();
    if (running) {
        ImGui::ProgressBar(c.bake->progress(), ImVec2(ImGui::GetContentRegionAvail().x * 0.7f, 0));
        ImGui::SameLine();
        if (ImGui::Button("Cancel##bake")) c.actions.cancelBake();
    } else if (ImGui::Button("Bake")) {
        c.actions.bake(s.bake_path, s.bake_first, s.bake_last);
    }
    if (c.bake && !running && !c.bake->message().empty()) {
        if (c.bake->failed())
            ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", c.bake->message().c_str());
        else
            ImGui::TextWrapped("%s", c.bake->message().c_str());
    }
    ImGui::TextDisabled("re-simulated from t = 0 on one core with these settings");

    ImGui::Separator();
    ImGui::InputText("video", &s.record_path);
    if (s.recording) {
        if (ImGui::Button("Stop recording")) c.actions.stopRecording();
        ImGui::SameLine();
        ImGui::Text("%lld frames", static_cast<long long>(s.recorded_frames));
    } else if (ImGui::Button("Record")) {
        c.actions.startRecording(s.record_path);
    }
    ImGui::TextDisabled("one video frame per simulated frame (ffmpeg)");
}

}  // namespace app::viewer

#include <algorithm>

#include <imgui.h>

#include "app/viewer/panels.h"

namespace app::viewer {

void drawTimelinePanel(PanelContext& c) {
    const SimFrame& f = c.frame;
    auto& ctl = c.state.controls;
    if (ImGui::Button(ctl.playing ? "Pause" : "Play ", ImVec2(52, 0))) c.actions.togglePlay();
    ImGui::SameLine();
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) c.actions.stepBack();
    ImGui::SameLine();
    if (ImGui::ArrowButton("##step", ImGuiDir_Right)) c.actions.stepForward();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) c.actions.reset();
    ImGui::SameLine();
    bool loop = ctl.loop;
    if (ImGui::Checkbox("loop", &loop)) c.actions.setLoop(loop);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    float speed = ctl.speed;
    if (ImGui::SliderFloat("speed", &speed, 0.05f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) c.actions.setSpeed(speed);
    ImGui::SameLine();
    // Scrub range: the animation, or what has been simulated so far (+10 s).
    const double dt = f.params.frame_dt > 0 ? f.params.frame_dt : 1.0 / 30.0;
    float max_t = float(f.duration > 0.0 ? f.duration : std::max(10.0, f.time + 10.0));
    float t = float(f.time);
    char label[96];
    std::snprintf(label, sizeof label, "%.3f s  frame %lld", double(t), static_cast<long long>(f.frame));
    ImGui::SetNextItemWidth(std::max(100.0f, ImGui::GetContentRegionAvail().x));
    if (ImGui::SliderFloat("##time", &t, 0.0f, max_t, label)) c.actions.scrubTo(std::round(t / dt) * dt);
}

}  // namespace app::viewer

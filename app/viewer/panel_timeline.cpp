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
    // The frames the cache holds, as a strip along the bottom of the slider
    // (as animation tools mark a cached range): those play without simulating.
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    if (!f.cache_mask.empty() && f.duration > 0.0 && hi.x > lo.x) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const float w = (hi.x - lo.x) / float(f.cache_mask.size());
        const ImU32 col = IM_COL32(90, 200, 120, 220);
        for (size_t i = 0; i < f.cache_mask.size();) {
            if (!f.cache_mask[i]) {
                ++i;
                continue;
            }
            size_t j = i;
            while (j < f.cache_mask.size() && f.cache_mask[j]) ++j;
            dl->AddRectFilled(ImVec2(lo.x + w * float(i), hi.y - 3.0f), ImVec2(lo.x + w * float(j), hi.y), col);
            i = j;
        }
    }
    if (f.poking || f.poked)
        ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s", f.poking ? "poking" : "poked");
    else
        ImGui::TextDisabled("%s", f.from_cache ? "cached" : (f.playing ? "live" : "paused"));
    ImGui::SameLine();
    ImGui::TextDisabled("cache %zu frames, %.0f of %.0f MB", f.cached_frames, double(f.cache_bytes) / double(1 << 20),
                        double(f.cache_budget) / double(1 << 20));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(70);
    int mb = int(ctl.cache_mb);
    if (ImGui::InputInt("MB##cache", &mb, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue)) c.actions.setCacheBudget(mb);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The frame cache's memory budget: frames simulated with the current settings play\n"
                          "again from it (loop, scrub, step back) without simulating. Over the budget,\n"
                          "the oldest frames go. A change of settings clears it.");
}

}  // namespace app::viewer

#include <algorithm>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "engine/render/colormap.h"
#include "engine/build_info.h"

namespace app::viewer {

namespace {
// Sim ms per frame stacked by phase: one column per recent frame, one colour
// per phase (ImGui 1.86 has no stacked plot; the draw list does it).
void stackedPhases(const StatsHistory& s) {
    const float h = 90.0f;
    const float w = ImGui::GetContentRegionAvail().x;
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), IM_COL32(20, 20, 24, 200));
    const int n = s.sim_ms.size();
    float top = std::max(1.0f, s.sim_ms.max() * 1.1f);
    const float col_w = w / float(n);
    for (int i = 0; i < n; ++i) {
        int idx = (s.sim_ms.offset() + i) % n;
        float y = p0.y + h;
        for (int ph = 0; ph < sim::kPhaseCount; ++ph) {
            float v = s.phase_ms[size_t(ph)].data()[idx];
            if (v <= 0.0f) continue;
            float dy = v / top * h;
            glm::vec3 c = engine::render::categoricalColor(ph);
            dl->AddRectFilled(ImVec2(p0.x + float(i) * col_w, y - dy), ImVec2(p0.x + float(i + 1) * col_w, y),
                              ImColor(c.x, c.y, c.z));
            y -= dy;
        }
    }
    char label[64];
    std::snprintf(label, sizeof label, "%.1f ms", double(top));
    dl->AddText(ImVec2(p0.x + 4, p0.y + 2), IM_COL32(230, 230, 230, 255), label);
    ImGui::Dummy(ImVec2(w, h));
    // Legend: phases with their last value.
    for (int ph = 0; ph < sim::kPhaseCount; ++ph) {
        glm::vec3 c = engine::render::categoricalColor(ph);
        ImGui::ColorButton("##ph", ImVec4(c.x, c.y, c.z, 1.0f), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
        ImGui::SameLine();
        std::string name(sim::phaseName(static_cast<sim::Phase>(ph)));
        ImGui::Text("%-10s %6.2f", name.c_str(), double(s.phase_ms[size_t(ph)].last()));
        if (ph % 2 == 0) ImGui::SameLine(180);
    }
    ImGui::NewLine();
}
}  // namespace

void drawStatsPanel(PanelContext& c) {
    const auto& s = c.stats;
    const SimFrame& f = c.frame;
    char overlay[96];
    if (!c.state.show_timings) {
        ImGui::TextDisabled("timings not shown: a headless image is reproducible (view --timings shows them)");
    } else {
        std::snprintf(overlay, sizeof overlay, "render %.0f fps (%.1f ms)", double(s.renderFps()), double(s.render_ms.mean()));
        // Explicit widths: a graph size of -1 came out 1 px wide in this window.
        ImGui::PlotLines("##fps", s.render_fps.data(), s.render_fps.size(), s.render_fps.offset(), overlay, 0.0f, 120.0f,
                         ImVec2(ImGui::GetContentRegionAvail().x, 60));
        std::snprintf(overlay, sizeof overlay, "sim %.1f ms/frame, real-time x%.2f", double(s.sim_ms.mean()),
                      double(f.realtime_factor));
        ImGui::TextUnformatted(overlay);
        stackedPhases(s);
        ImGui::Text("real-time factor");
        ImGui::SameLine();
        ImGui::PlotLines("##rtf", s.rtf.data(), s.rtf.size(), s.rtf.offset(), nullptr, 0.0f, 2.0f,
                         ImVec2(ImGui::GetContentRegionAvail().x, 30));
    }

    ImGui::Separator();
    bool record = c.actions.state().controls.record_convergence;
    if (ImGui::Checkbox("residual per iteration", &record)) c.actions.setRecordConvergence(record);
    if (!f.convergence.empty()) {
        float top = *std::max_element(f.convergence.begin(), f.convergence.end());
        std::snprintf(overlay, sizeof overlay, "residual/iteration, last %.2e m", double(f.convergence.back()));
        ImGui::PlotHistogram("##conv", f.convergence.data(), int(f.convergence.size()), 0, overlay, 0.0f, top * 1.05f,
                             ImVec2(ImGui::GetContentRegionAvail().x, 60));
    } else {
        ImGui::TextDisabled(record ? "residual per iteration: waiting for the next step" : "residual per iteration: off");
    }
    const auto& r = f.residuals;
    ImGui::TextWrapped("residual: dist %.2e m  vol %.2e  pen %.2e m  att %.2e m", double(r.distance), double(r.volume_rel),
                double(r.penetration), double(r.attachment));
    ImGui::Separator();
    ImGui::Text("build %s   threads %d   cached frames %zu", engine::buildType(), f.threads, f.cached_frames);
    if (const SceneInfo* info = f.scene.get())
        ImGui::TextWrapped("vertices %zu  branch pts %zu  constraints %zu  colours %d", info->vertices, info->branch_points,
                    info->counts.total(), info->colors);
    ImGui::Text("contacts now %zu", f.contact_p.size());
    if (ImGui::TreeNode("muscle stats")) {
        for (const auto& m : f.muscle_stats)
            ImGui::Text("%-14s V %.1f%%  L %.1f%%  a %.2f", m.name.c_str(),
                        m.rest_volume > 0 ? double(100.0f * (m.volume / m.rest_volume - 1.0f)) : 0.0,
                        m.rest_length > 0 ? double(100.0f * (m.length / m.rest_length - 1.0f)) : 0.0, double(m.activation));
        ImGui::TreePop();
    }
}

}  // namespace app::viewer

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panel_text.h"
#include "app/viewer/panels.h"
#include "app/viewer/plot.h"
#include "engine/render/colormap.h"
#include "engine/build_info.h"

namespace app::viewer {

namespace {
using plot::Dash;
using plot::Marker;

// A ring buffer as a series against "frames ago" (the oldest on the left).
void ringSeries(const RingBuffer& r, std::vector<double>& x, std::vector<double>& y) {
    const int n = r.size();
    x.resize(size_t(n));
    y.resize(size_t(n));
    for (int i = 0; i < n; ++i) {
        x[size_t(i)] = double(i - (n - 1));
        y[size_t(i)] = double(r.data()[(r.offset() + i) % n]);
    }
}

plot::Axis framesAgo(int n) {
    plot::Axis a;
    a.label = "frames ago";
    a.min = -double(n - 1);
    a.max = 0.0;
    return a;
}

// Render frames per second over the recent frames.
void fpsGraph(const StatsHistory& s) {
    std::vector<double> x, y;
    ringSeries(s.render_fps, x, y);
    plot::Axis ya;
    ya.label = "render, frames per second";
    ya.min = 0.0;
    // Scaled to the 90th percentile, not the maximum: two frames drawn back to
    // back (a resize, the headless run's settling frames) read thousands of
    // fps and would flatten the rest of the curve (the line is clipped).
    std::vector<double> sorted = y;
    std::sort(sorted.begin(), sorted.end());
    const double p90 = sorted.empty() ? 0.0 : sorted[size_t(0.9 * double(sorted.size() - 1))];
    ya.max = std::max(60.0, p90 * 1.2);
    plot::Plot pl(framesAgo(s.render_fps.size()), ya, ImVec2(ImGui::GetContentRegionAvail().x, 110.0f));
    pl.line(x, y, IM_COL32(120, 190, 255, 255), 1.5f);
}

// Sim ms per frame stacked by phase: one column per recent frame, one colour
// per phase, the phases' last values in the legend.
void stackedPhases(const StatsHistory& s) {
    const int n = s.sim_ms.size();
    plot::Axis ya;
    ya.label = "sim, ms per frame by phase";
    ya.min = 0.0;
    ya.max = std::max(1.0, double(s.sim_ms.max()) * 1.1);
    plot::Plot pl(framesAgo(n), ya, ImVec2(ImGui::GetContentRegionAvail().x, 120.0f));
    for (int i = 0; i < n; ++i) {
        int idx = (s.sim_ms.offset() + i) % n;
        double y = 0.0;
        const double x = double(i - (n - 1));
        for (int ph = 0; ph < sim::kPhaseCount; ++ph) {
            float v = s.phase_ms[size_t(ph)].data()[idx];
            if (v <= 0.0f) continue;
            glm::vec3 c = engine::render::categoricalColor(ph);
            pl.bar(x - 0.5, y, x + 0.5, y + double(v), ImColor(c.x, c.y, c.z));
            y += double(v);
        }
    }
    // The legend under the plot, two phases a line (ten would not fit beside it).
    for (int ph = 0; ph < sim::kPhaseCount; ++ph) {
        glm::vec3 c = engine::render::categoricalColor(ph);
        ImGui::ColorButton("##ph", ImVec4(c.x, c.y, c.z, 1.0f), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
        ImGui::SameLine();
        std::string name(sim::phaseName(static_cast<sim::Phase>(ph)));
        ImGui::Text("%-10s %6.2f ms", name.c_str(), double(s.phase_ms[size_t(ph)].last()));
        if (ph % 2 == 0) ImGui::SameLine(180);
    }
    ImGui::NewLine();
}

// Real-time factor against the line where the sim keeps up with the clock.
void realtimeGraph(const StatsHistory& s) {
    std::vector<double> x, y;
    ringSeries(s.rtf, x, y);
    plot::Axis ya;
    ya.label = "real-time factor";
    ya.min = 0.0;
    ya.max = std::max(2.0, double(s.rtf.max()) * 1.1);
    plot::Plot pl(framesAgo(s.rtf.size()), ya, ImVec2(ImGui::GetContentRegionAvail().x, 100.0f));
    pl.hline(1.0, IM_COL32(255, 255, 255, 160), 1.0f, Dash::Dashed, "real time");
    pl.line(x, y, IM_COL32(255, 200, 90, 255), 1.5f);
}

// Residual after each iteration of the last substep (log axis).
void convergenceGraph(const std::vector<float>& r) {
    std::vector<double> x, y;
    double lo = 1e300, hi = 0.0;
    for (size_t i = 0; i < r.size(); ++i) {
        x.push_back(double(i + 1));
        y.push_back(double(r[i]));
        if (r[i] > 0.0f) {
            lo = std::min(lo, double(r[i]));
            hi = std::max(hi, double(r[i]));
        }
    }
    if (!(hi > 0.0)) lo = 1e-6, hi = 1e-3;
    plot::Axis xa, ya;
    xa.label = "iteration (last substep)";
    xa.min = 0.5;
    xa.max = double(r.size()) + 0.5;
    ya.label = "largest residual, m";
    ya.log = true;
    ya.min = std::pow(10.0, std::floor(std::log10(lo)));
    ya.max = std::pow(10.0, std::ceil(std::log10(hi)));
    if (ya.max <= ya.min) ya.max = ya.min * 10.0;
    plot::Plot pl(xa, ya, ImVec2(ImGui::GetContentRegionAvail().x, 110.0f));
    pl.line(x, y, IM_COL32(230, 120, 200, 255), 1.5f, Dash::Solid, r.size() <= 30 ? Marker::Circle : Marker::None);
}
}  // namespace

void drawStatsPanel(PanelContext& c) {
    const auto& s = c.stats;
    const SimFrame& f = c.frame;
    char overlay[96];
    if (!c.state.show_timings) {
        ImGui::TextDisabled("timings not shown: a headless image is reproducible (view --timings shows them)");
    } else {
        ImGui::Text("render %.0f fps (%.1f ms)", double(s.renderFps()), double(s.render_ms.mean()));
        fpsGraph(s);
        std::snprintf(overlay, sizeof overlay, "sim %.1f ms/frame, real-time x%.2f", double(s.sim_ms.mean()),
                      double(f.realtime_factor));
        ImGui::TextUnformatted(overlay);
        stackedPhases(s);
        realtimeGraph(s);
    }

    ImGui::Separator();
    bool record = c.actions.state().controls.record_convergence;
    if (ImGui::Checkbox("residual per iteration", &record)) c.actions.setRecordConvergence(record);
    if (!f.convergence.empty()) {
        ImGui::Text("residual per iteration, last %.2e m", double(f.convergence.back()));
        convergenceGraph(f.convergence);
    } else {
        ImGui::TextDisabled(record ? "residual per iteration: waiting for the next step" : "residual per iteration: off");
    }
    const auto& r = f.residuals;
    for (const std::string& line : residualLines(r)) ImGui::TextUnformatted(line.c_str());
    ImGui::Separator();
    ImGui::Text("build %s   threads %d   cached frames %zu", engine::buildType(), f.threads, f.cached_frames);
    ImGui::TextWrapped("GL %s", c.renderer.glRenderer().c_str());
    ImGui::Text("render path %s", c.renderer.lastPath().fast ? "fast" : "full");
    if (const SceneInfo* info = f.scene.get()) {
        ImGui::Text("vertices %zu  branch pts %zu", info->vertices, info->branch_points);
        if (solverColours(c.state.controls.params.solver))
            ImGui::Text("constraints %zu  colours %d", info->counts.total(), info->colors);
        else
            ImGui::Text("constraints %zu", info->counts.total());
    }
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

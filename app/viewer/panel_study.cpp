// The Study window (docs/study.md): the students' experiment plotted with its
// reference, a material slider in N/m, the equal-cost view, exports, and a
// paragraph saying what the curves mean.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/viewer/panels.h"
#include "app/viewer/plot.h"

#include <glm/geometric.hpp>

namespace app::viewer {

namespace {
using plot::Dash;
using plot::Marker;

const sim::ConstraintMode kModes[] = {sim::ConstraintMode::Xpbd, sim::ConstraintMode::Pbd,
                                      sim::ConstraintMode::PbdRaw};
const char* const kModeNames[] = {"XPBD", "PBD (k')", "PBD raw"};
const ImU32 kModeColors[] = {IM_COL32(77, 163, 255, 255), IM_COL32(255, 150, 50, 255), IM_COL32(90, 200, 90, 255)};
const ImU32 kReferenceColor = IM_COL32(255, 255, 255, 255);
// The i-th substep count of the Study: solid for the most, dotted for one.
const Dash kSubstepDash[] = {Dash::Dotted, Dash::Dashed, Dash::Solid};
const Marker kSubstepMarker[] = {Marker::Triangle, Marker::Square, Marker::Circle};

Dash dashFor(size_t i, size_t n) { return kSubstepDash[std::min<size_t>(2, 3 - std::min<size_t>(3, n - i))]; }
Marker markerFor(size_t i, size_t n) { return kSubstepMarker[std::min<size_t>(2, 3 - std::min<size_t>(3, n - i))]; }

// A log range a little wider than every value shown.
void logRange(const std::vector<double>& v, double& lo, double& hi) {
    lo = 1e300;
    hi = 0.0;
    for (double x : v)
        if (x > 0.0 && std::isfinite(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    if (hi <= 0.0) {
        lo = 0.1;
        hi = 100.0;
        return;
    }
    lo /= 1.4;
    hi *= 1.4;
    if (hi < lo * 10.0) {  // at least a decade, about the middle
        const double m = std::sqrt(lo * hi);
        lo = m / std::sqrt(10.0);
        hi = m * std::sqrt(10.0);
    }
}

const char* kIterationsText =
    "Each point is one run: the muscle hangs from its top until it rests, and the stretch it rests at is plotted "
    "against the iterations per substep (both axes logarithmic). The white line is the reference: where this "
    "material rests, solved directly (its static equilibrium). XPBD (blue) comes down onto the reference as the "
    "iterations or the substeps grow and then stays there: the stretch belongs to the material, not to the solver. "
    "PBD raw (green) applies its k at every iteration, so more iterations make it stiffer: it falls through the "
    "reference towards rigid. PBD with k' (orange) is flat in the iterations, but where it rests depends on the "
    "substeps, not on the material. Drag the slider to the stiff end: the reference falls below 0.01 %, the "
    "material is practically rigid, and every bit of stretch the curves show is convergence error.";
const char* kEqualCostText =
    "Every point costs the same: substeps x iterations per frame is fixed. Spending it on substeps (to the right) "
    "brings XPBD to the reference far sooner than spending it on iterations (to the left): in a shorter substep "
    "the inertia of the particles dominates the system the solver has to solve, and Gauss-Seidel solves such a "
    "system in few iterations (Macklin et al. 2019, \"Small Steps\"). PBD has no material to converge to: its answer moves with the split.";

// First shown centred above the timeline, as high as the window allows.
void placeStudyWindow() {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    const float w = std::min(ds.x - 20.0f, 800.0f), h = std::max(200.0f, ds.y - kTimelineHeight - 16.0f);
    ImGui::SetNextWindowPos(ImVec2(0.5f * (ds.x - w), 8.0f), ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Appearing);
    ImGui::SetNextWindowBgAlpha(1.0f);  // the panels behind it would show through the plot
}

// The material slider and the choice of view.
void drawMaterialAndView(PanelContext& c) {
    ViewerState& st = c.state;
    // The material, in N/m, on a log scale from soft to practically rigid.
    // The slider keeps its value in the state while dragged; the study runs
    // when it is released.
    float& k = st.study_stiffness;
    ImGui::SetNextItemWidth(260.0f);
    ImGui::SliderFloat("material stiffness", &k, float(StudySettings::kMinStiffness),
                       float(StudySettings::kMaxStiffness), "%.0f N/m", ImGuiSliderFlags_Logarithmic);
    if (ImGui::IsItemDeactivatedAfterEdit()) c.actions.runStudy(double(k));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The XPBD stiffness of every edge of the muscle (surface and inner structure).\n"
                          "Soft (10 N/m) stretches it by half; 20000 N/m is the viewer's default muscle.");
    ImGui::SameLine();
    if (ImGui::RadioButton("against iterations", !st.study_equal_cost)) st.study_equal_cost = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("at equal cost", st.study_equal_cost)) st.study_equal_cost = true;
}

// A progress bar while the study runs; a button to start it when there is
// nothing to show.
void drawRunState(PanelContext& c, bool has_result) {
    if (c.study.running()) {
        char label[64];
        std::snprintf(label, sizeof label, "running %.0f N/m: %.0f%%", double(c.state.study_stiffness),
                      double(100.0f * c.study.progress()));
        ImGui::ProgressBar(c.study.progress(), ImVec2(260.0f, 0.0f), label);
    } else if (!has_result) {
        if (ImGui::Button("Run the study")) c.actions.runStudy();
    }
}

// Above the plot: the error if any, the reference, the substep counts to
// show (iterations view) and the PNG and CSV exports.
void drawResultBar(PanelContext& c, const StudyResult& r) {
    ViewerState& st = c.state;
    if (!r.error.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", r.error.c_str());
    if (!c.study.running()) {
        ImGui::Text("reference %.3f %% stretch at %.0f N/m", r.reference_pct, r.settings.stiffness);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.reference_method.c_str());
    }
    const auto& subs = r.settings.substeps;
    if (!st.study_equal_cost) {
        for (size_t i = 0; i < subs.size() && i < 8; ++i) {
            ImGui::SameLine();
            bool shown = !(st.study_substeps_hidden & (1u << i));
            char label[32];
            std::snprintf(label, sizeof label, "%d substep%s", subs[i], subs[i] == 1 ? "" : "s");
            if (ImGui::Checkbox(label, &shown)) st.study_substeps_hidden ^= (1u << i);
        }
    }
    ImGui::SameLine();
    if (ImGui::Button("PNG")) {
        char path[64];
        std::snprintf(path, sizeof path, "study-%.0f%s.png", r.settings.stiffness, st.study_equal_cost ? "-cost" : "");
        c.actions.requestStudyPlot(path);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write the plot as study-<k>.png in the working directory");
    ImGui::SameLine();
    if (ImGui::Button("CSV")) {
        char path[64];
        std::snprintf(path, sizeof path, "study-%.0f.csv", r.settings.stiffness);
        c.actions.exportStudyCsv(path);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write every point as study-<k>.csv (docs/study.md \"Output\")");
}

struct PlotLayout {
    plot::Axis x, y;
    std::vector<plot::LegendEntry> legend;
};

// The axes and legend of the view shown: the stretch (log) against the
// iterations, one line style per substep count, or against the substeps at
// equal cost.
PlotLayout plotLayout(const StudyResult& r, bool equal_cost) {
    PlotLayout out;
    const auto& subs = r.settings.substeps;
    std::vector<double> all{r.reference_pct};
    for (const auto& p : r.points)
        if (p.ok && (p.view == "equal_cost") == equal_cost) all.push_back(p.elongation_pct);
    plot::Axis& ya = out.y;
    ya.label = "stretch at rest, % of the rest length";
    ya.log = true;
    logRange(all, ya.min, ya.max);
    plot::Axis& xa = out.x;
    xa.log = true;
    std::vector<plot::LegendEntry>& legend = out.legend;
    for (int m = 0; m < 3; ++m) legend.push_back({kModeNames[m], kModeColors[m], Dash::Solid, Marker::None, 2.0f, true});
    if (!equal_cost) {
        const auto& its = r.settings.iterations;
        xa.label = "iterations per substep";
        xa.min = double(its.front()) / 1.15;
        xa.max = double(its.back()) * 1.15;
        for (int it : its) xa.ticks.push_back(double(it));
        for (size_t i = 0; i < subs.size(); ++i)
            legend.push_back({std::to_string(subs[i]) + (subs[i] == 1 ? " substep" : " substeps"), IM_COL32(200, 200, 200, 255),
                              dashFor(i, subs.size()), markerFor(i, subs.size()), 2.0f, false});
    } else {
        xa.label = "substeps per frame  (iterations = " + std::to_string(r.settings.equal_cost) + " / substeps)";
        auto x = r.curve("equal_cost", sim::ConstraintMode::Xpbd);
        xa.min = x.empty() ? 1.0 : double(x.front().substeps) / 1.2;
        xa.max = x.empty() ? 2.0 : double(x.back().substeps) * 1.2;
        for (const auto& p : x) {
            xa.ticks.push_back(double(p.substeps));
            xa.tick_labels.push_back(std::to_string(p.substeps) + "x" + std::to_string(p.iterations));
        }
    }
    legend.push_back({"reference", kReferenceColor, Dash::Solid, Marker::None, 2.5f, false});
    return out;
}

// The reference line and one curve per mode (and per shown substep count
// in the iterations view).
void drawCurves(plot::Plot& pl, const StudyResult& r, const ViewerState& st) {
    const auto& subs = r.settings.substeps;
    char ref_label[64];
    std::snprintf(ref_label, sizeof ref_label, "reference %.3g %%", r.reference_pct);
    pl.hline(r.reference_pct, kReferenceColor, 2.5f, Dash::Solid, ref_label);
    for (int m = 0; m < 3; ++m) {
        if (!st.study_equal_cost) {
            for (size_t i = 0; i < subs.size(); ++i) {
                if (i < 32 && (st.study_substeps_hidden & (1u << i))) continue;
                std::vector<double> x, y;
                for (const auto& p : r.curve("iterations", kModes[m], subs[i])) {
                    x.push_back(double(p.iterations));
                    y.push_back(p.ok ? p.elongation_pct : NAN);
                }
                pl.line(x, y, kModeColors[m], 2.0f, dashFor(i, subs.size()), markerFor(i, subs.size()));
            }
        } else {
            std::vector<double> x, y;
            for (const auto& p : r.curve("equal_cost", kModes[m])) {
                x.push_back(double(p.substeps));
                y.push_back(p.ok ? p.elongation_pct : NAN);
            }
            pl.line(x, y, kModeColors[m], 2.0f, Dash::Solid, Marker::Circle);
        }
    }
}

int modeIndex(sim::ConstraintMode m) {
    for (int i = 0; i < 3; ++i)
        if (kModes[i] == m) return i;
    return 0;
}

// The point the muscle view shows: the state's choice, in the view shown.
const StudyPoint* selectedPoint(const StudyResult& r, const ViewerState& st) {
    return r.find(st.study_equal_cost ? "equal_cost" : "iterations", st.study_mode, st.study_substeps, st.study_iterations);
}

// Which point the muscle view shows: the mode, the substeps and (against
// iterations) the iterations, from the Study's own lists.
void drawPointChooser(PanelContext& c, const StudyResult& r) {
    ViewerState& st = c.state;
    int mode = modeIndex(st.study_mode);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::Combo("##mode", &mode, kModeNames, 3)) c.actions.selectStudyPoint(kModes[mode], st.study_substeps, st.study_iterations);
    std::vector<int> subs;
    if (st.study_equal_cost) {
        for (const auto& p : r.curve("equal_cost", sim::ConstraintMode::Xpbd)) subs.push_back(p.substeps);
    } else {
        subs = r.settings.substeps;
    }
    auto chooser = [&](const char* id, const std::vector<int>& values, int current, const char* unit, auto&& pick) {
        char preview[48];
        std::snprintf(preview, sizeof preview, "%d %s", current, unit);
        ImGui::SetNextItemWidth(-1.0f);
        if (ImGui::BeginCombo(id, preview)) {
            for (int v : values) {
                char label[48];
                std::snprintf(label, sizeof label, "%d %s", v, unit);
                if (ImGui::Selectable(label, v == current)) pick(v);
            }
            ImGui::EndCombo();
        }
    };
    chooser("##substeps", subs, st.study_substeps, "substeps", [&](int v) { c.actions.selectStudyPoint(st.study_mode, v, st.study_iterations); });
    if (!st.study_equal_cost)
        chooser("##iterations", r.settings.iterations, st.study_iterations, "iterations",
                [&](int v) { c.actions.selectStudyPoint(st.study_mode, st.study_substeps, v); });
}

// The hanging muscle of the chosen point, from the front, filled in its
// mode's colour, with lines where the rest shape's and the reference's
// lowest points are: the stretch on the plot is the stretch drawn here.
void drawMuscleView(PanelContext& c, const StudyResult& r, ImVec2 size) {
    ImGui::BeginChild("muscle view", size, true);
    drawPointChooser(c, r);
    const StudyPoint* p = selectedPoint(r, c.state);
    const ImVec2 lo = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    if (!p || !p->ok || p->shape.size() != r.rest_shape.size() || r.rest_shape.empty()) {
        ImGui::TextWrapped("%s", p ? "this run failed (the NaN guard fired)" : "no such point in this view");
        ImGui::EndChild();
        return;
    }
    // The frame: the rest, reference and chosen shapes, x across, y up.
    float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
    auto extend = [&](const std::vector<glm::vec3>& v) {
        for (const glm::vec3& q : v) {
            x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
            y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
        }
    };
    extend(r.rest_shape);
    extend(r.reference_shape);
    extend(p->shape);
    const float label_h = 4.2f * ImGui::GetTextLineHeightWithSpacing();  // the levels' labels and the caption
    const float scale = std::min((avail.x - 16.0f) / std::max(1e-6f, x1 - x0), (avail.y - label_h - 8.0f) / std::max(1e-6f, y1 - y0));
    const float cx = lo.x + 0.5f * avail.x, top = lo.y + 4.0f;
    auto toScreen = [&](glm::vec3 q) { return ImVec2(cx + (q.x - 0.5f * (x0 + x1)) * scale, top + (y1 - q.y) * scale); };
    // Back to front (the camera looks along −z), lit from the upper left.
    std::vector<std::pair<float, size_t>> order;
    order.reserve(r.triangles.size());
    for (size_t t = 0; t < r.triangles.size(); ++t) {
        const glm::uvec3 tri = r.triangles[t];
        order.emplace_back(p->shape[tri.x].z + p->shape[tri.y].z + p->shape[tri.z].z, t);
    }
    std::sort(order.begin(), order.end());
    const ImVec4 base = ImGui::ColorConvertU32ToFloat4(kModeColors[modeIndex(p->mode)]);
    const glm::vec3 light = glm::normalize(glm::vec3(-0.4f, 0.6f, 1.0f));
    for (const auto& [depth, t] : order) {
        const glm::uvec3 tri = r.triangles[t];
        const glm::vec3 a = p->shape[tri.x], b = p->shape[tri.y], d = p->shape[tri.z];
        const glm::vec3 n = glm::cross(b - a, d - a);
        const float len = glm::length(n);
        if (!(len > 0.0f) || n.z <= 0.0f) continue;  // facing away
        const float shade = 0.35f + 0.65f * std::max(0.0f, glm::dot(n / len, light));
        dl->AddTriangleFilled(toScreen(a), toScreen(b), toScreen(d),
                              ImGui::ColorConvertFloat4ToU32(ImVec4(base.x * shade, base.y * shade, base.z * shade, 1.0f)));
    }
    // Where each shape's lowest point is.
    auto lowest = [](const std::vector<glm::vec3>& v) {
        float m = 1e30f;
        for (const glm::vec3& q : v) m = std::min(m, q.y);
        return m;
    };
    const float x_left = lo.x + 2.0f, x_right = lo.x + avail.x - 2.0f;
    auto level = [&](float y, ImU32 colour, const char* text, float text_x) {
        const float sy = toScreen(glm::vec3(0.0f, y, 0.0f)).y;
        plot::dashedPolyline(dl, {ImVec2(x_left, sy), ImVec2(x_right, sy)}, colour, 1.5f, Dash::Dashed);
        dl->AddText(ImVec2(text_x, sy + 2.0f), colour, text);
    };
    level(lowest(r.rest_shape), IM_COL32(170, 170, 170, 255), "rest", x_left);
    level(lowest(r.reference_shape), kReferenceColor, "reference", x_left + 0.45f * avail.x);
    char caption[96];
    std::snprintf(caption, sizeof caption, "%s, %d substep%s x %d iteration%s: stretch %.3g %% (reference %.3g %%)",
                  kModeNames[modeIndex(p->mode)], p->substeps, p->substeps == 1 ? "" : "s", p->iterations,
                  p->iterations == 1 ? "" : "s", p->elongation_pct, r.reference_pct);
    ImGui::SetCursorScreenPos(ImVec2(lo.x, lo.y + avail.y - 3.0f * ImGui::GetTextLineHeightWithSpacing()));
    ImGui::TextWrapped("%s", caption);
    ImGui::EndChild();
}

void drawPlot(PanelContext& c, const StudyResult& r) {
    ViewerState& st = c.state;
    // The plot: its height leaves room for the paragraph under it; the
    // muscle view beside it on the right.
    const float text_h = 6.0f * ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float view_w = std::clamp(0.3f * avail.x, 150.0f, 260.0f);
    const ImVec2 size(avail.x - view_w - ImGui::GetStyle().ItemSpacing.x, std::max(160.0f, avail.y - text_h));
    const PlotLayout layout = plotLayout(r, st.study_equal_cost);
    plot::Plot pl(layout.x, layout.y, size, 130.0f);
    drawCurves(pl, r, st);
    // The point the muscle view shows, marked on its curve.
    if (const StudyPoint* p = selectedPoint(r, st); p && p->ok)
        pl.line({double(st.study_equal_cost ? p->substeps : p->iterations)}, {p->elongation_pct}, kReferenceColor, 2.0f,
                Dash::Solid, Marker::Square);
    pl.legend(layout.legend);
    // A PNG asked for (button or console) needs the plot's place on screen,
    // known only here.
    if (!st.study_png_request.empty()) {
        const ImVec4 f = pl.frame();
        const float rect[4] = {f.x, f.y, f.z, f.w};
        c.actions.exportStudyPlot(st.study_png_request, rect);
        st.study_png_request.clear();
    }
    ImGui::SameLine();
    drawMuscleView(c, r, ImVec2(view_w, size.y));
}

void drawStudyContents(PanelContext& c) {
    drawMaterialAndView(c);
    const auto r = c.study.result();
    drawRunState(c, r != nullptr);
    if (r) {
        drawResultBar(c, *r);
        drawPlot(c, *r);
    }
    ImGui::TextWrapped("%s", c.state.study_equal_cost ? kEqualCostText : kIterationsText);
}

}  // namespace

void drawStudyPanel(PanelContext& c) {
    placeStudyWindow();
    bool open = true;
    if (ImGui::Begin("Study: how far does a hanging muscle stretch?", &open)) drawStudyContents(c);
    ImGui::End();
    if (!open) c.actions.showStudy(false);
}

}  // namespace app::viewer

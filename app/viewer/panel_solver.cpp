#include <cmath>
#include <string>

#include <imgui.h>

#include "app/viewer/panel_text.h"
#include "app/viewer/panels.h"

namespace app::viewer {

namespace {
// A slider for one entry of sim::numericParams(): the UI is generated from
// the same table the command line and presets validate against.
void numericSlider(PanelContext& c, const sim::NumericParam& np) {
    const auto& p = c.state.controls.params;
    double v = np.get(p);
    bool changed = false;
    // Room for the longest parameter name after the slider (the panel is narrow).
    const float label_w = ImGui::CalcTextSize("contact-radius").x + ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - label_w));
    if (np.integer) {
        int iv = int(v);
        const bool threads = std::string(np.name) == "threads";
        int hi = int(std::min(np.max, threads ? 64.0 : 200.0));
        // ImGui formats the value with this text: no '%' in it but the one asked for.
        const std::string text = threads ? threadsSliderText(iv, c.frame.threads) : "%d";
        changed = ImGui::SliderInt(np.name, &iv, int(np.min), hi, text.c_str(),
                                   hi > 100 ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
        v = iv;
    } else {
        float fv = float(v);
        // Unbounded tables (gravity, dt) get a practical range in the UI.
        float lo = float(std::max(np.min, -100.0)), hi = float(std::min(np.max, 100.0));
        if (std::string(np.name) == "dt") lo = 1.0f / 1000.0f, hi = 0.1f;
        changed = ImGui::SliderFloat(np.name, &fv, lo, hi, "%.4g");
        v = fv;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", np.description);
    if (changed) {
        auto e = c.actions.setNumeric(np.name, v);
        if (!e.empty()) c.state.status = e;
    }
}
}  // namespace

void drawNumericGroup(PanelContext& c, const char* group) {
    for (const auto& np : sim::numericParams())
        if (std::string(np.group) == group && !everydayParam(np.name)) numericSlider(c, np);
}

bool everydayParam(const std::string& name) { return name == "iterations" || name == "substeps"; }

// What a student changes every minute: the solver, XPBD or PBD, iterations
// and substeps. The rest is in drawSolverAdvanced.
void drawSolverPanel(PanelContext& c) {
    const auto& p = c.state.controls.params;
    int solver = int(p.solver);
    const char* solvers[] = {"SST (Gauss-Seidel)", "SMT-J (Jacobi)", "SMT-G (coloring)", "Hybrid"};
    // What a student weighs when switching (measured: docs/lab/auto-solver.md).
    const char* trade_offs[] = {
        "the default: the most accurate per iteration, so the fastest at equal accuracy",
        "the cheapest iteration, the slowest to converge: long thin muscles sag at 10 iterations",
        "Gauss-Seidel in colours that share no particle: parallel inside a muscle",
        "the first colours as SMT-G, the rest as one Jacobi pass",
    };
    for (int i = 0; i < 4; ++i) {
        if (ImGui::RadioButton(solvers[i], solver == i)) c.actions.setSolver(static_cast<sim::SolverKind>(i));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", trade_offs[i]);
        if (i % 2 == 0) ImGui::SameLine(160);
    }
    int mode = int(p.mode);
    if (ImGui::RadioButton("XPBD", mode == 0)) c.actions.setMode(sim::ConstraintMode::Xpbd);
    ImGui::SameLine(160);
    if (ImGui::RadioButton("PBD", mode == 1)) c.actions.setMode(sim::ConstraintMode::Pbd);
    for (const auto& np : sim::numericParams())
        if (everydayParam(np.name)) numericSlider(c, np);
}

void drawSolverAdvanced(PanelContext& c) {
    const auto& p = c.state.controls.params;
    int form = int(p.fiber_form);
    if (ImGui::RadioButton("fibre: paper", form == 0)) c.actions.setFiberForm(sim::FiberForm::Paper);
    ImGui::SameLine(160);
    if (ImGui::RadioButton("fibre: projected", form == 1)) c.actions.setFiberForm(sim::FiberForm::Projected);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("sigma-hat: the seed's per-axis formula (paper) or the rotation-invariant projection");
    const int contacts = int(p.contacts);
    if (ImGui::RadioButton("contacts: spec", contacts == 0)) c.actions.setContactModel(sim::ContactModel::Spec);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the specification's contacts alone, for comparison");
    ImGui::SameLine(160);
    if (ImGui::RadioButton("contacts: limb", contacts == 1)) c.actions.setContactModel(sim::ContactModel::Limb);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("with the fascia envelope that keeps the muscles inside the skin");
    for (const char* g : {"solver", "time", "activation", "contacts", "material"}) drawNumericGroup(c, g);
    if (const SceneInfo* info = c.frame.scene.get()) {
        const auto& k = info->counts;
        // Wrapped: the panel is narrower than these lines.
        if (solverColours(p.solver)) ImGui::Text("colours %d", info->colors);
        ImGui::Text("vertices %zu   branch points %zu", info->vertices, info->branch_points);
        ImGui::TextWrapped("constraints %zu: fibre %zu, structure %zu, volume %zu, attachment %zu, plane %zu, "
                           "contact %zu, sliding %zu",
                           k.total(), k.fiber, k.structure, k.volume, k.attachment, k.plane, k.contact, k.sliding);
    }
}

}  // namespace app::viewer

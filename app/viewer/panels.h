// The ImGui panels (Dear ImGui 1.86: no docking, no ImPlot). Each panel is a
// function over the same context; widgets never change state directly, they
// call Actions, so the keyboard, presets and tests take the same path.
#pragma once

#include <string>

#include "app/viewer/actions.h"
#include "app/viewer/bake_job.h"
#include "app/viewer/sim_frame.h"
#include "app/viewer/stats_history.h"
#include "app/viewer/study.h"
#include "app/viewer/viewer_state.h"
#include "engine/render/renderer.h"

namespace app::viewer {

// Where the panels sit (window units): the side bar on the left, the
// Statistics window on the right (collapsed to its title bar at first), the
// timeline along the bottom. The scene is framed into what they leave free:
// at 1280x720, three quarters of the width.
constexpr float kSideBarWidth = 320.0f, kStatsWidth = 330.0f, kTimelineHeight = 78.0f;

struct PanelContext {
    ViewerState& state;
    Actions& actions;
    const SimFrame& frame;
    const StatsHistory& stats;
    Study& study;
    const engine::render::Renderer& renderer;
    const BakeJob* bake = nullptr;  // the Export section's background bake
};

// Lays out every panel: the everyday controls first in the side bar, the
// rest under its "Advanced" header; statistics on the right, the timeline
// along the bottom, the info overlay and legend over the view.
void drawPanels(PanelContext& c);

void drawScenePanel(PanelContext& c);
void drawFilesPanel(PanelContext& c);
void drawTimelinePanel(PanelContext& c);
void drawSolverPanel(PanelContext& c);
void drawSolverAdvanced(PanelContext& c);
void drawNumericGroup(PanelContext& c, const char* group);  // sim::numericParams() of one group, but the everyday ones
bool everydayParam(const std::string& name);               // iterations, substeps: in the Solver section
void drawMaterialPanel(PanelContext& c);
void drawMusclesPanel(PanelContext& c);
void drawViewPanel(PanelContext& c);
void drawRenderAdvanced(PanelContext& c);
void drawStatsPanel(PanelContext& c);
void drawStudyPanel(PanelContext& c);
void drawExportPanel(PanelContext& c);
void drawHelpWindow(PanelContext& c);
void drawInfoOverlay(PanelContext& c);
void drawLegend(PanelContext& c);
void drawSelectionPanel(PanelContext& c);  // the muscle under the mouse, the selected one

}  // namespace app::viewer

// The ImGui panels (Dear ImGui 1.86: no docking, no ImPlot). Each panel is a
// function over the same context; widgets never change state directly, they
// call Actions, so the keyboard, presets and tests take the same path.
#pragma once

#include "app/viewer/actions.h"
#include "app/viewer/bake_job.h"
#include "app/viewer/sim_frame.h"
#include "app/viewer/stats_history.h"
#include "app/viewer/study.h"
#include "app/viewer/viewer_state.h"
#include "engine/render/renderer.h"

namespace app::viewer {

// Where the panels sit (window units): the scene is framed into what they
// leave free.
constexpr float kLeftPanelWidth = 340.0f, kRightPanelWidth = 370.0f, kTimelineHeight = 64.0f;

struct PanelContext {
    ViewerState& state;
    Actions& actions;
    const SimFrame& frame;
    const StatsHistory& stats;
    Study& study;
    const engine::render::Renderer& renderer;
    const BakeJob* bake = nullptr;  // the Export section's background bake
};

// Lays out every panel: controls on the left, statistics on the right,
// the timeline along the bottom, the info overlay and legend over the view.
void drawPanels(PanelContext& c);

void drawScenePanel(PanelContext& c);
void drawTimelinePanel(PanelContext& c);
void drawSolverPanel(PanelContext& c);
void drawMaterialPanel(PanelContext& c);
void drawMusclesPanel(PanelContext& c);
void drawViewPanel(PanelContext& c);
void drawStatsPanel(PanelContext& c);
void drawStudyPanel(PanelContext& c);
void drawExportPanel(PanelContext& c);
void drawHelpWindow(PanelContext& c);
void drawInfoOverlay(PanelContext& c);
void drawLegend(PanelContext& c);

}  // namespace app::viewer

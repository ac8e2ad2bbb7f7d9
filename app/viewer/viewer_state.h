// Everything the UI owns: the controls mirrored to the sim thread, what the
// renderer draws, the camera and UI toggles. Only the main thread touches it;
// every change goes through app::viewer::Actions.
#pragma once

#include <string>
#include <vector>

#include "app/study/study_experiment.h"
#include "app/viewer/controls.h"
#include "engine/render/camera.h"
#include "engine/render/render_options.h"

namespace app::viewer {

struct ViewerState {
    Controls controls;
    engine::render::RenderOptions render;
    engine::render::OrbitCamera camera;
    std::string scene;          // scene spec the sim was asked to load
    bool ui_visible = true;
    // Measured timings (fps, ms per frame) in the panels; a headless image
    // leaves them out so that it is reproducible (view --timings shows them).
    bool show_timings = true;
    bool show_help = false;
    bool frame_requested = true;    // "frame all" at the next rendered frame
    bool camera_set = false;        // a camera was set explicitly (a preset): headless runs keep it
    std::string screenshot_path;    // written after the next rendered frame
    // Video recording (app/viewer/video_recorder.h): a request the viewer
    // takes up at its next frame, and what it reports back.
    std::string record_request;     // start recording to this file
    bool record_stop = false;       // finish the recording
    bool recording = false;
    int64_t recorded_frames = 0;
    std::string record_path = "msxpbd.mp4";  // the Export section's fields
    std::string bake_path = "bake.glb";
    int bake_first = 1, bake_last = 60;
    bool show_study = false;        // the Study window (docs/study.md; view --panel study opens it)
    // The Study's plot, written as PNG after the next rendered frame: the path
    // and the plot's rectangle in window units (x, y, width, height).
    std::string plot_export_path;
    float plot_export_rect[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    std::string study_png_request;  // the Study window cuts its plot to this PNG when it next draws
    float study_stiffness = float(StudySettings{}.stiffness);  // the Study's material slider, N/m
    bool study_equal_cost = false;  // the Study's second view (equal cost) instead of "against iterations"
    unsigned study_substeps_hidden = 0;  // bit i: the Study's i-th substep count not drawn
    // The Study's point drawn in its muscle view (and marked on the plot).
    sim::ConstraintMode study_mode = sim::ConstraintMode::Xpbd;
    int study_substeps = 1, study_iterations = 10;
    int solo_muscle = -1;           // −1: none
    int hover_muscle = -1;          // the muscle under the mouse in the 3D view, −1: none
    std::vector<uint8_t> hidden;    // per muscle, user-hidden
    std::string status;             // last message for the info overlay
    // The part of the window the panels leave free (window units), measured
    // from the panels as they were drawn this frame (the user may move or
    // resize them): the info overlay and the legend stay inside it. And the
    // info overlay's own rectangle as drawn (x, y, width, height).
    struct Area {
        float left = 0.0f, top = 0.0f, right = 0.0f, bottom = 0.0f;
    } free_area;
    float info_rect[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float legend_rect[4] = {0.0f, 0.0f, 0.0f, 0.0f};  // x, y, w, h; 0 when no legend is drawn
    std::string preset_path = "preset.json";
    // Widget-only state (text fields, lists) kept here rather than in statics.
    std::vector<std::string> scene_list;
    std::string open_path;
    std::string muscle_filter;
};

}  // namespace app::viewer

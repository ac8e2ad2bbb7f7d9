// Options of `msxpbd view` (docs/architecture.md "The command line").
#pragma once

#include <string>

#include "app/cli/cli_args.h"

namespace app::viewer {

struct ViewOptions {
    std::string scene;       // empty: the default scene (full arm t5, else builtin:t1)
    std::string preset;      // JSON preset applied once the scene is loaded
    int frames = 0;          // > 0: headless run of N simulated frames, then exit
    std::string screenshot;  // PNG written after the last frame
    std::string json;        // `run --json` report of the N frames (- for stdout)
    // Show measured timings (fps, ms) in a headless image; off by default so
    // the same settings give the same image bytes.
    bool timings = false;
    // --realtime: a headless run steps at the scene's playback speed, as the
    // window does, rather than flat out (the same frames; only the pace, and
    // so what the render fps measures, changes).
    bool realtime = false;
    int width = 1280, height = 720;
    bool hidden = false;     // window not shown (implied by --frames)
    // Render-rate cap (0: none). Frames beyond what a display shows only take
    // cores from the simulation (under llvmpipe the rasteriser runs on them).
    int max_fps = 60;
    // Video of the simulated frames, one video frame per frame, through
    // ffmpeg (app/viewer/video_recorder.h); with --frames N exactly N.
    std::string record;
    bool ui = true;          // --no-ui: the panels hidden (a clean image or video)
    // --fast-render auto|on|off (engine/render/render_path.h); empty: not
    // given (the default, auto, or what a preset says). Wins over a preset.
    std::string fast_render;
    // A window open from the start: "study" (the Study, docs/study.md),
    // "study-cost" (the same at its equal-cost view); a
    // headless run waits for its curves before the screenshot.
    std::string panel;
};

// Returns an error with the valid ranges (empty on success); sets `help`
// when --help was given.
std::string parseViewOptions(const Args& args, ViewOptions& out, bool& help);
const char* viewUsage();
// The default scene: assets/scenes/t5-*.glb when present, else builtin:t1
// (`note` says why).
std::string defaultScene(std::string& note);

}  // namespace app::viewer

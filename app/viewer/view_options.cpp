#include "app/viewer/view_options.h"
#include "app/cli/cli_args.h"
#include "app/viewer/video_recorder.h"
#include "engine/build_info.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <vector>

namespace app::viewer {

const char* viewUsage() {
    return "usage: msxpbd view [--scene FILE|NAME|builtin:NAME] [--preset FILE]\n"
           "                   [--frames N --screenshot OUT.png] [--width W --height H] [--hidden]\n"
           "                   [--max-fps N] [--json OUT] [--timings] [--record OUT.mp4] [--no-ui]\n"
           "                   [--panel study|study-cost] [--fast-render auto|on|off] [--realtime]\n"
           "  --scene       scene to open: a .glb/.gltf file, a generated scene by short name (t5, t6,\n"
           "                t7, ...) or builtin:t1|p1|p2 (default: the full arm t5, else builtin:t1)\n"
           "  --preset      JSON preset (save one from the UI: Advanced > Files and presets)\n"
           "  --frames N    play exactly N frames while rendering, show the state after them,\n"
           "                then exit (window hidden; 1..1000000); past the animation's end it\n"
           "                loops and plays the frames again from the frame cache\n"
           "  --screenshot  write that last frame as PNG (needs --frames; also the P key): the\n"
           "                same settings give the same image bytes under the same renderer\n"
           "  --json OUT    with --frames: the report `run --json` writes, for the frames simulated,\n"
           "                plus \"render\": how they were drawn (path, GL renderer, fps) and\n"
           "                \"playback\": per loop, frames simulated / from the cache and the\n"
           "                presented and render fps (not with -)\n"
           "  --timings     with --frames: show measured fps / ms in the image (not reproducible)\n"
           "  --realtime    with --frames: step the sim at the scene's playback speed, as the window\n"
           "                does, instead of as fast as it can (the same frames and image; the render\n"
           "                fps then reads as a presenter sees it, the sim no longer taking its cores)\n"
           "  --record OUT  record a video (.mp4, .mkv, .webm, .gif ... through ffmpeg) at the scene's\n"
           "                frame rate, one video frame per simulated frame however slowly it draws;\n"
           "                with --frames N exactly frames 1..N, else until the window closes; drawn\n"
           "                on the full render path unless --fast-render says otherwise\n"
           "  --no-ui       hide the panels (Tab shows them again)\n"
           "  --width/--height  window size in screen units, 64..8192 (default 1280x720)\n"
           "  --max-fps N   render at most N frames per second, 0..1000 (0 = no cap; default 60):\n"
           "                frames no display shows would only take cores from the simulation\n"
           "  --fast-render the fast path for software renderers (one sample per pixel, the scene at\n"
           "                half resolution scaled up, cheaper soft shadows): auto (default) takes it\n"
           "                under llvmpipe/softpipe/swrast only; on/off force it (also Advanced >\n"
           "                Rendering in the side bar, preset key fast_render)\n"
           "  --panel study open the Study window (docs/study.md; study-cost: its equal-cost view);\n"
           "                with --frames the image waits for its curves\n";
}

namespace {
bool parseInt(const std::string& s, int& v) {
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}
}  // namespace

std::string parseViewOptions(const Args& args, ViewOptions& o, bool& help) {
    help = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& out) -> std::string {
            if (i + 1 >= args.size()) return a + " needs a value";
            out = args[++i];
            return {};
        };
        auto integer = [&](int& out, int lo, int hi) -> std::string {
            std::string s;
            if (auto e = value(s); !e.empty()) return e;
            if (!parseInt(s, out) || out < lo || out > hi)
                return a + " " + s + " out of range: valid " + std::to_string(lo) + ".." + std::to_string(hi);
            return {};
        };
        std::string e;
        if (a == "--help" || a == "-h") help = true;
        else if (a == "--scene") e = value(o.scene);
        else if (a == "--preset") e = value(o.preset);
        else if (a == "--screenshot") e = value(o.screenshot);
        else if (a == "--json") e = value(o.json);
        else if (a == "--timings") o.timings = true;
        else if (a == "--realtime") o.realtime = true;
        else if (a == "--record") e = value(o.record);
        else if (a == "--no-ui") o.ui = false;
        else if (a == "--frames") e = integer(o.frames, 1, 1000000);
        else if (a == "--width") e = integer(o.width, 64, 8192);
        else if (a == "--height") e = integer(o.height, 64, 8192);
        else if (a == "--hidden") o.hidden = true;
        else if (a == "--max-fps") e = integer(o.max_fps, 0, 1000);
        else if (a == "--fast-render") {
            e = value(o.fast_render);
            if (e.empty() && o.fast_render != "auto" && o.fast_render != "on" && o.fast_render != "off")
                e = "--fast-render '" + o.fast_render + "' is unknown (valid: auto, on, off)";
        }
        else if (a == "--panel") {
            e = value(o.panel);
            if (e.empty() && o.panel != "study" && o.panel != "study-cost")
                e = "--panel '" + o.panel + "' is unknown (valid: study, study-cost)";
        }
        else e = "unknown option '" + a + "'";
        if (!e.empty()) return e;
    }
    if (!o.screenshot.empty() && o.frames == 0) return "--screenshot needs --frames N";
    if (!o.json.empty() && o.frames == 0) return "--json needs --frames N";
    if (o.realtime && o.frames == 0) return "--realtime needs --frames N (the window always steps in real time)";
    // Refused before the run, not after it.
    try {
        if (!o.screenshot.empty()) checkOutputPath("--screenshot", o.screenshot);
        if (!o.json.empty()) checkOutputPath("--json", o.json);
    } catch (const CliError& e) {
        return e.what();
    }
    if (!o.record.empty())
        if (auto e = VideoRecorder::check(o.record); !e.empty()) return e;
    if (o.frames > 0) o.hidden = true;
    return {};
}

std::string defaultScene(std::string& note) {
    namespace fs = std::filesystem;
    std::vector<std::string> found;
    for (const std::string& dir : {std::string("assets/scenes"), std::string(engine::sourceDirectory()) + "/assets/scenes"}) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(dir, ec)) {
            auto name = e.path().filename().string();
            if (name.rfind("t5-", 0) == 0 && e.path().extension() == ".glb") found.push_back(e.path().string());
        }
        if (!found.empty()) break;
    }
    if (!found.empty()) {
        std::sort(found.begin(), found.end());
        return found.front();
    }
    note = "the full-arm scene assets/scenes/t5-*.glb is missing (run `msxpbd gen`); showing builtin:t1";
    return "builtin:t1";
}

}  // namespace app::viewer

#include "app/viewer/shortcuts.h"

#include <array>
#include <chrono>
#include <string>

#include <GLFW/glfw3.h>

#include "app/viewer/actions.h"

namespace app::viewer {

namespace {
constexpr std::array<Shortcut, 17> kShortcuts = {{
    {"Space", "play / pause"},
    {"Right", "step one frame (pauses)"},
    {"Left", "step one frame back (replays from the frame cache)"},
    {"Backspace", "reset to the rest pose at t = 0"},
    {"1 2 3 4", "solver: SST, Jacobi, coloring, hybrid"},
    {"F", "frame all"},
    {"W", "wireframe overlay"},
    {"S", "skin (translucent meshes) on / off"},
    {"P", "screenshot (screenshot-<time>.png in the working directory)"},
    {"Tab", "hide / show the panels"},
    {"F1", "this help"},
    {"Left drag", "orbit"},
    {"Right drag / Shift+Left drag", "pan"},
    {"Wheel", "zoom"},
    {"Hover a muscle", "its name"},
    {"Click a muscle", "select it (outlined; its values and sliders at the top right); on empty view: none"},
    {"Ctrl+Left drag", "poke: pull the muscle under the mouse with a spring while it plays"},
}};
}  // namespace

std::span<const Shortcut> shortcuts() { return kShortcuts; }

bool handleKey(int key, int /*mods*/, Actions& a) {
    switch (key) {
    case GLFW_KEY_SPACE: a.togglePlay(); return true;
    case GLFW_KEY_RIGHT: a.stepForward(); return true;
    case GLFW_KEY_LEFT: a.stepBack(); return true;
    case GLFW_KEY_BACKSPACE: a.reset(); return true;
    case GLFW_KEY_1: a.setSolver(sim::SolverKind::Sst); return true;
    case GLFW_KEY_2: a.setSolver(sim::SolverKind::Jacobi); return true;
    case GLFW_KEY_3: a.setSolver(sim::SolverKind::Coloring); return true;
    case GLFW_KEY_4: a.setSolver(sim::SolverKind::Hybrid); return true;
    case GLFW_KEY_F: a.frameAll(); return true;
    case GLFW_KEY_W: a.toggleOverlay(engine::render::Overlay::Wireframe); return true;
    case GLFW_KEY_S: a.toggleSkin(); return true;
    case GLFW_KEY_P: {
        auto now = std::chrono::system_clock::now().time_since_epoch();
        a.screenshot("screenshot-" + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now).count()) + ".png");
        return true;
    }
    case GLFW_KEY_TAB: a.toggleUi(); return true;
    case GLFW_KEY_F1: a.toggleHelp(); return true;
    default: return false;
    }
}

}  // namespace app::viewer

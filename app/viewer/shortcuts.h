// Keyboard shortcuts, mapped to actions. GLFW key codes (ImGui 1.86's
// IsKeyPressed(ImGuiKey_*) tests the wrong keys). The window ignores keys
// while ImGui wants the keyboard (a text field has focus).
#pragma once

#include <span>

namespace app::viewer {

class Actions;

struct Shortcut {
    const char* key;
    const char* action;
};
std::span<const Shortcut> shortcuts();  // for the Help panel and the README

// Returns true when the key is bound.
bool handleKey(int glfw_key, int mods, Actions& actions);

}  // namespace app::viewer

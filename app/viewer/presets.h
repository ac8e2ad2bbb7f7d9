// Presets: every user-settable parameter as JSON (solver, material, playback,
// activation, overpressure, overlays, bones, ground, error scale, camera).
// Loading goes through Actions, so a preset is validated exactly like the
// widgets are.
#pragma once

#include <string>

#include "app/viewer/viewer_state.h"

namespace app::viewer {

class Actions;

std::string writePreset(const std::string& path, const ViewerState& s);
// Applies the keys present in the file (missing keys keep their values).
// Returns an error naming the file and the key (empty on success).
std::string readPreset(const std::string& path, Actions& actions);
std::string applyPresetText(const std::string& json_text, const std::string& origin, Actions& actions);

}  // namespace app::viewer

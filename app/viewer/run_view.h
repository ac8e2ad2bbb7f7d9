// Entry point of `msxpbd view` inside the viewer library. Kept free of GL and
// ImGui headers so app/cmd_view.cpp (in msxpbd_app) can include it.
#pragma once

#include "app/commands.h"

namespace app::viewer {

int runView(const Args& args);

}  // namespace app::viewer

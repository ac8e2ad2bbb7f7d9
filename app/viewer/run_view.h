// Entry point of `msxpbd view` inside the viewer library. Kept free of GL and
// ImGui headers so app/commands/cmd_view.cpp (in msxpbd_app) can include it.
#pragma once

#include "app/cli/cli_args.h"

namespace app::viewer {

int runView(const Args& args);

}  // namespace app::viewer

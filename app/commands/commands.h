// The subcommands of the msxpbd executable (docs/architecture.md "The command line").
// Each takes the arguments after the subcommand name and returns the exit
// code: 0 success, 1 bad input or a failed run (message on stderr).
#pragma once

#include "app/cli/cli_args.h"

namespace app {

int runCommand(const Args& args);    // app/commands/cmd_run.cpp
int benchCommand(const Args& args);  // app/commands/cmd_bench.cpp
int genCommand(const Args& args);    // app/commands/cmd_gen.cpp
int viewCommand(const Args& args);   // app/commands/cmd_view.cpp
int measureCommand(const Args& args);  // app/commands/cmd_measure.cpp
int bakeCommand(const Args& args);   // app/commands/cmd_bake.cpp
int studyCommand(const Args& args);    // app/commands/cmd_study.cpp

}  // namespace app

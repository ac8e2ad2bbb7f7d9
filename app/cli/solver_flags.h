// The solver options shared by `run`, `bench` and `view`: --solver, --mode,
// --fiber, --stiffness FAMILY=K, and one --NAME per entry of
// sim::numericParams() (--iterations, --substeps, --threads, --dt, ...).
#pragma once

#include <string>
#include <vector>

#include "app/cli/cli_args.h"
#include "app/run/scene_driver.h"
#include "sim/params.h"

namespace app {

std::vector<std::string> solverFlagNames();
// Applies the flags present in `args` to `p`; throws CliError with the valid
// range or values on bad input.
void applySolverFlags(const CliArgs& args, sim::SolverParams& p);
// "--iterations N  constraint iterations per substep [1, 1000]" lines.
std::string solverFlagsHelp();
// `--activation A|ramp|sensors` (run, bake): the driver's activation source;
// the scene's default rule when the flag is absent.
ActivationSource parseActivationFlag(const CliArgs& args);

}  // namespace app

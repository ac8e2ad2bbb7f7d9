// The panels' short texts that are not plain labels: what a number means
// and in which unit, on lines short enough for the panel (the Solver and
// Statistics panels are ~45 characters wide, and ImGui wraps at any space,
// which split "8.26e-03 m" into "8." and "26e-03 m").
#pragma once

#include <string>
#include <vector>

#include "sim/params.h"
#include "sim/simulation.h"

namespace app::viewer {

// The threads slider's text: the number set, or "auto (N)" for 0, N being
// the threads OpenMP runs (what the status line says).
std::string threadsSliderText(int setting, int in_use);

// Only the colouring solvers (SMT-G and the hybrid) have colours to count.
bool solverColours(sim::SolverKind k);

// The residuals, two to a line, each value with its unit.
std::vector<std::string> residualLines(const sim::Residuals& r);

}  // namespace app::viewer

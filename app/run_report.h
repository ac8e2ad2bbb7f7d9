// The `run --json` report (DESIGN.md) and its human summary, shared by `run`
// and `bench`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/simulation.h"

namespace app {

// Collects per-frame wall times and per-phase times over a run.
struct RunRecorder {
    std::vector<double> frame_ms;
    std::vector<double> phase_ms_sum = std::vector<double>(sim::kPhaseCount, 0.0);
    void addFrame(double ms, const sim::Simulation& s);
    double median() const;
    double percentile(double q) const;
};

std::string buildType();
std::string hex64(uint64_t v);
nlohmann::json runReport(const std::string& scene, const sim::Simulation& s, const RunRecorder& rec,
                         const sim::StepReport& failure);
void printRunSummary(std::ostream& os, const nlohmann::json& report);

}  // namespace app

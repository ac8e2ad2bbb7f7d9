#include "sim/timers.h"

namespace sim {

namespace {
constexpr std::array<std::string_view, kPhaseCount> kNames = {
    "predict", "targets", "contacts", "envelope", "fiber", "structure", "distance", "volume",
    "attachment", "plane", "contact", "sliding", "update"};
}

std::string_view phaseName(Phase p) { return kNames[static_cast<int>(p)]; }

void PhaseTimers::endFrame() {
    last_frame_ms = current_ms;
    last_frame_total_ms = 0.0;
    for (double v : current_ms) last_frame_total_ms += v;
}

double PhaseTimers::lastProjectMs() const {
    double s = 0.0;
    for (int i = 0; i < kPhaseCount; ++i)
        if (isProjectPhase(static_cast<Phase>(i))) s += last_frame_ms[i];
    return s;
}

}  // namespace sim

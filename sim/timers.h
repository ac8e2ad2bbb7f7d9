// Named per-phase timers (the thesis' execution blocks). A ScopedPhase adds
// the elapsed wall time of its scope to one phase; totals are per frame and
// accumulated, so the UI can plot the last frame and reports can average.
#pragma once

#include <array>
#include <chrono>
#include <string_view>

namespace sim {

enum class Phase : int {
    Predict,       // gravity, damping, prediction
    Targets,       // attachment targets from bone transforms
    Contacts,      // contact search and sliding re-projection
    Envelope,      // the fascia envelope posed for the substep, each vertex's walk to its plane
    Fiber,         // surface fibre distance constraints (SST)
    Structure,     // spokes and medulla (SST)
    Distance,      // fibre + structure + sliding together (parallel modes; Jacobi's averaging included)
    Volume,        // volume with overpressure
    Attachment,    // hard attachments
    Plane,         // static planes
    Contact,       // contact projection
    Sliding,       // sliding connections (SST)
    Update,        // velocity update, x ← p
    Count
};
constexpr int kPhaseCount = static_cast<int>(Phase::Count);
std::string_view phaseName(Phase p);
// Phases that make up "project" in reports.
constexpr bool isProjectPhase(Phase p) { return p >= Phase::Fiber && p <= Phase::Sliding; }

struct PhaseTimers {
    std::array<double, kPhaseCount> last_frame_ms{};  // the most recent frame
    std::array<double, kPhaseCount> current_ms{};     // frame in progress
    double last_frame_total_ms = 0.0;
    void beginFrame() { current_ms.fill(0.0); }
    void endFrame();
    double lastProjectMs() const;
};

class ScopedPhase {
public:
    ScopedPhase(PhaseTimers& t, Phase p) : t_(t), p_(p), start_(std::chrono::steady_clock::now()) {}
    ~ScopedPhase() {
        auto d = std::chrono::steady_clock::now() - start_;
        t_.current_ms[static_cast<int>(p_)] += std::chrono::duration<double, std::milli>(d).count();
    }
    ScopedPhase(const ScopedPhase&) = delete;
    ScopedPhase& operator=(const ScopedPhase&) = delete;

private:
    PhaseTimers& t_;
    Phase p_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace sim

#include "app/viewer/panel_text.h"

#include <cstdio>

namespace app::viewer {

std::string threadsSliderText(int setting, int in_use) {
    if (setting > 0) return std::to_string(setting);
    return "auto (" + std::to_string(in_use) + ")";
}

bool solverColours(sim::SolverKind k) { return k == sim::SolverKind::Coloring || k == sim::SolverKind::Hybrid; }

std::vector<std::string> residualLines(const sim::Residuals& r) {
    char a[96], b[96];
    std::snprintf(a, sizeof a, "residual  dist %.2e m   vol %.2e", double(r.distance), double(r.volume_rel));
    std::snprintf(b, sizeof b, "          pen %.2e m   att %.2e m", double(r.penetration), double(r.attachment));
    return {a, b};
}

}  // namespace app::viewer

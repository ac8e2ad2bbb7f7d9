#include "app/cli/solver_flags.h"

#include <cmath>
#include <sstream>

namespace app {

std::vector<std::string> solverFlagNames() {
    std::vector<std::string> names = {"--solver", "--mode", "--fiber", "--stiffness"};
    for (const auto& p : sim::numericParams()) names.push_back(std::string("--") + p.name);
    return names;
}

void applySolverFlags(const CliArgs& args, sim::SolverParams& p) {
    if (auto s = args.get("--solver")) {
        auto k = sim::parseSolver(*s);
        if (!k) throw CliError("--solver '" + *s + "' is unknown (valid: " + sim::solverList() + ")");
        p.solver = *k;
    }
    if (auto s = args.get("--mode")) {
        auto m = sim::parseMode(*s);
        if (!m) throw CliError("--mode '" + *s + "' is unknown (valid: " + sim::modeList() + ")");
        p.mode = *m;
    }
    if (auto s = args.get("--fiber")) {
        auto f = sim::parseFiberForm(*s);
        if (!f) throw CliError("--fiber '" + *s + "' is unknown (valid: " + sim::fiberFormList() + ")");
        p.fiber_form = *f;
    }
    for (const auto& np : sim::numericParams()) {
        std::string flag = std::string("--") + np.name;
        if (auto v = args.get(flag)) {
            double x = np.integer ? double(parseInteger(flag, *v, (long long)np.min, (long long)np.max))
                                  : parseNumber(flag, *v, np.min, np.max);
            np.set(p, x);
        }
    }
    for (const auto& item : args.getAll("--stiffness")) {
        auto eq = item.find('=');
        if (eq == std::string::npos)
            throw CliError("--stiffness '" + item + "': expected FAMILY=K (families: " + sim::familyList() + ")");
        auto fam = sim::parseFamily(item.substr(0, eq));
        if (!fam)
            throw CliError("--stiffness: unknown family '" + item.substr(0, eq) + "' (valid: " + sim::familyList() +
                           ")");
        std::string value = item.substr(eq + 1);
        float k = (value == "inf" || value == "hard") ? sim::kInfiniteStiffness
                                                      : float(parseNumber("--stiffness " + item.substr(0, eq), value,
                                                                          -1e30, 1e30));
        if (auto e = sim::validateStiffness(p.mode, *fam, k); !e.empty()) throw CliError(e);
        p.stiffness()[*fam] = k;
    }
    if (auto e = sim::validate(p); !e.empty()) throw CliError(e);
}

std::string solverFlagsHelp() {
    std::ostringstream os;
    os << "  --solver " << sim::solverList("|") << "\n"
       << "  --mode " << sim::modeList("|")
       << "  constraint formulation: XPBD; PBD with k' = 1-(1-k)^(1/n);\n"
          "                           PBD with k applied raw at every iteration\n"
       << "  --fiber " << sim::fiberFormList("|") << "  fibre rest-length form (docs/model.md 3.1)\n"
       << "  --stiffness FAMILY=K     families: " << sim::familyList(" ")
       << "\n"
          "                           (contact: muscle against bone; tissue: muscle against muscle);\n"
          "                           xpbd K in (0, inf] (inf = hard), pbd K in [0, 1]\n";
    for (const auto& p : sim::numericParams())
        os << "  --" << p.name << " " << (p.integer ? "N" : "X") << "  " << p.description << " [" << p.min << ", "
           << p.max << "]\n";
    return os.str();
}

ActivationSource parseActivationFlag(const CliArgs& args) {
    ActivationSource s;
    auto a = args.get("--activation");
    if (!a) return s;
    if (*a == "ramp") {
        s.kind = ActivationSource::Kind::Ramp;
        s.value = 1.0f;
    } else if (*a == "sensors") {
        s.kind = ActivationSource::Kind::Sensors;
    } else {
        s.kind = ActivationSource::Kind::Constant;
        s.value = float(parseNumber("--activation", *a, 0.0, 1.0));
    }
    return s;
}

}  // namespace app

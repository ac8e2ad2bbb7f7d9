#include "app/cli/solver_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace app {

std::vector<std::string> solverFlagNames() {
    std::vector<std::string> names = {"--solver", "--mode", "--fiber", "--contacts", "--stiffness"};
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
    if (auto s = args.get("--contacts")) {
        auto c = sim::parseContactModel(*s);
        if (!c) throw CliError("--contacts '" + *s + "' is unknown (valid: " + sim::contactModelList() + ")");
        p.contacts = *c;
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
        const std::string value = item.substr(eq + 1);
        double k = sim::kInfiniteStiffness;
        if (value != "inf" && value != "hard") {
            errno = 0;
            char* end = nullptr;
            k = std::strtod(value.c_str(), &end);
            if (value.empty() || errno || *end || !std::isfinite(k))
                throw CliError("--stiffness " + item.substr(0, eq) + ": '" + value + "' is not a number (" +
                               std::string(sim::modeName(p.mode)) + " needs k in " +
                               sim::describeStiffnessRange(p.mode, *fam) + ")");
        }
        // The range shared with presets and scene files (sim::stiffnessRange).
        if (auto e = sim::validateStiffness(p.mode, *fam, k); !e.empty()) throw CliError(e);
        p.stiffness()[*fam] = float(k);
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
       << "  --contacts " << sim::contactModelList("|")
       << "  the specification's contacts alone, or with the fascia envelope\n"
       << "                           that keeps the muscles inside the skin (default limb; docs/model.md 3.8)\n"
       << "  --stiffness FAMILY=K     families: " << sim::familyList(" ")
       << "\n"
          "                           (contact: muscle against bone; tissue: muscle against muscle);\n"
          "                           xpbd K in "
       << sim::describeStiffnessRange(sim::ConstraintMode::Xpbd, sim::Family::Fiber)
       << " (inf = hard), pbd K in " << sim::describeStiffnessRange(sim::ConstraintMode::Pbd, sim::Family::Fiber)
       << "\n";
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

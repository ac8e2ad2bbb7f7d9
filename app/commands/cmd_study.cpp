// `msxpbd study`: the students' Study (app/study/study_experiment.h, docs/study.md)
// without the viewer: the table the Study panel plots, and the same numbers
// as CSV or JSON for the tests, the README and anyone's own plots.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "app/cli/cli_args.h"
#include "app/commands/commands.h"
#include "app/run/run_report.h"
#include "app/study/study_experiment.h"
#include "engine/export/temp_files.h"

namespace app {

namespace {
const char* kStudyUsage =
    "usage: msxpbd study [options]\n"
    "  Hangs builtin:hang under gravity until it rests, for XPBD, PBD (k') and PBD raw at\n"
    "  several iteration and substep counts, and prints its stretch against the reference\n"
    "  (the static equilibrium of the same material, solved directly). docs/study.md.\n"
    "  --stiffness K     the material: fibre and structure stiffness, N/m [10, 100000] (default 300)\n"
    "  --substeps LIST   substep counts of the iterations view (default 1,4,16)\n"
    "  --iterations LIST iteration counts (default 1,2,5,10,20,50)\n"
    "  --equal-cost N    substeps x iterations per frame of the equal-cost view [1, 4096] (default 64)\n"
    "  --frames N        frames of 1/30 s simulated before the stretch is read [1, 10000] (default 60)\n"
    "  --threads N       runs side by side, one thread each [0 = every core, 256] (default 0)\n"
    "  --json OUT | --csv OUT  the points (columns: docs/study.md \"Output\"); '-' is standard output\n";

void writeOut(const std::string& path, const std::string& text) {
    if (path == "-") {
        std::cout << text;
        return;
    }
    if (auto e = engine::writeWholeFile(path, text); !e.empty()) throw CliError(e);
}

void printTable(const StudyResult& r, std::ostream& o) {
    const auto& s = r.settings;
    o << "reference: " << std::fixed << std::setprecision(3) << r.reference_pct << " % elongation ("
      << r.reference_method << ")\n";
    const sim::ConstraintMode modes[] = {sim::ConstraintMode::Xpbd, sim::ConstraintMode::Pbd,
                                         sim::ConstraintMode::PbdRaw};
    const char* names[] = {"XPBD", "PBD k'", "PBD raw"};
    o << "elongation % against iterations (error vs reference in brackets):\n";
    o << std::left << std::setw(9) << "substeps" << std::setw(9) << "mode" << std::right;
    for (int it : s.iterations) o << std::setw(17) << ("it " + std::to_string(it));
    o << "\n";
    for (int sub : s.substeps)
        for (int m = 0; m < 3; ++m) {
            o << std::left << std::setw(9) << sub << std::setw(9) << names[m] << std::right;
            for (const auto& p : r.curve("iterations", modes[m], sub)) {
                std::ostringstream cell;
                if (p.ok)
                    cell << std::fixed << std::setprecision(3) << p.elongation_pct << " (" << std::showpos
                         << std::setprecision(0) << r.errorPct(p) << "%)";
                else
                    cell << "NaN guard";
                o << std::setw(17) << cell.str();
            }
            o << "\n";
        }
    o << "equal cost (substeps x iterations = " << s.equal_cost << "):\n";
    o << std::left << std::setw(18) << "substeps x iter" << std::right;
    for (int m = 0; m < 3; ++m) o << std::setw(17) << names[m];
    o << "\n";
    auto x = r.curve("equal_cost", sim::ConstraintMode::Xpbd);
    for (size_t i = 0; i < x.size(); ++i) {
        o << std::left << std::setw(18) << (std::to_string(x[i].substeps) + " x " + std::to_string(x[i].iterations))
          << std::right;
        for (int m = 0; m < 3; ++m) {
            auto c = r.curve("equal_cost", modes[m]);
            std::ostringstream cell;
            if (i < c.size() && c[i].ok)
                cell << std::fixed << std::setprecision(3) << c[i].elongation_pct << " (" << std::showpos
                     << std::setprecision(0) << r.errorPct(c[i]) << "%)";
            o << std::setw(17) << cell.str();
        }
        o << "\n";
    }
}
}  // namespace

int studyCommand(const Args& raw) {
    try {
        CliArgs args(raw, {"--stiffness", "--substeps", "--iterations", "--equal-cost", "--frames", "--threads", "--json",
                           "--csv"},
                     {"--help"});
        if (args.flag("--help")) {
            std::cout << kStudyUsage;
            return 0;
        }
        StudySettings st;
        st.stiffness = args.number("--stiffness", st.stiffness, StudySettings::kMinStiffness,
                                   StudySettings::kMaxStiffness);
        if (args.has("--substeps")) {
            st.substeps.clear();
            for (const auto& v : args.list("--substeps")) st.substeps.push_back(int(parseInteger("--substeps", v, 1, 256)));
        }
        if (args.has("--iterations")) {
            st.iterations.clear();
            for (const auto& v : args.list("--iterations"))
                st.iterations.push_back(int(parseInteger("--iterations", v, 1, 1000)));
        }
        st.equal_cost = int(args.integer("--equal-cost", st.equal_cost, 1, 4096));
        st.frames = int(args.integer("--frames", st.frames, 1, 10000));
        st.threads = int(args.integer("--threads", st.threads, 0, 256));
        if (std::string e = st.validate(); !e.empty()) throw CliError(e);
        if (args.has("--json") && args.has("--csv") && *args.get("--json") == "-" && *args.get("--csv") == "-")
            throw CliError("--json and --csv cannot both write to standard output");
        for (const char* flag : {"--json", "--csv"})
            if (auto out = args.get(flag)) checkOutputPath(flag, *out);
        // With a report on standard output, the table goes to stderr.
        const bool report_on_stdout = args.get("--json").value_or("") == "-" || args.get("--csv").value_or("") == "-";
        std::ostream& table = report_on_stdout ? std::cerr : std::cout;

        const auto t0 = std::chrono::steady_clock::now();
        StudyResult r = runStudy(st);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!r.error.empty()) throw CliError(r.error);
        const unsigned threads = st.threads > 0 ? unsigned(st.threads) : std::max(1u, std::thread::hardware_concurrency());
        table << "msxpbd study: builtin:hang, stiffness " << st.stiffness << " N/m, " << st.frames << " frames, "
              << buildType() << " build, " << threads << " threads\n";
        printTable(r, table);
        table << "ran in " << std::fixed << std::setprecision(2) << secs << " s\n";
        if (auto out = args.get("--json")) writeOut(*out, studyJson(r));
        if (auto out = args.get("--csv")) writeOut(*out, studyCsv(r));
        return 0;
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd study: %s\n", e.what());
        return 1;
    }
}

}  // namespace app

// `msxpbd bake`: simulates a scene as `run` does and writes frames
// first..first+N−1 of every muscle (with the skeleton) to a glTF, USD or
// point-cache file (app/run/bake.h, docs/export.md), with a progress bar on a
// terminal and the `run --json` report plus a "bake" section.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/run/bake.h"
#include "app/cli/cli_args.h"
#include "app/cli/progress_line.h"
#include "app/commands/commands.h"
#include "app/run/run_report.h"
#include "app/cli/solver_flags.h"
#include "engine/load_scene.h"
#include "engine/export/clip_writer.h"
#include "engine/export/temp_files.h"

namespace app {

namespace {
const char* kBakeUsage =
    "usage: msxpbd bake --scene FILE|NAME|builtin:NAME --frames N --out FILE [options]\n"
    "  --scene S                a .glb/.gltf file, a generated scene by short name (t5, t6,\n"
    "                           t7, ...) or builtin:t1|p1|p2\n"
    "  --out FILE               .glb / .gltf (morph targets), .usda (time samples),\n"
    "                           .pc2 (point cache, with FILE.obj: the rest mesh)\n"
    "  --frames N               frames to write [1, 1000000]\n"
    "  --start T                time (s) of the first frame written (default: frame 1);\n"
    "                           the frames before it are simulated, not written\n"
    "  --activation A|ramp|sensors, --overpressure K, --animation N: as in run\n"
    "  --json OUT               the run --json report plus \"bake\" (- for stdout)\n"
    "  --quiet                  no summary, no progress bar\n";

// One line redrawn in place on a terminal (stderr), at most ten times a second.
}  // namespace

int bakeCommand(const Args& raw) {
    std::vector<std::string> valued = {"--scene", "--frames", "--start", "--out", "--activation", "--overpressure",
                                       "--animation", "--json"};
    for (const auto& f : solverFlagNames()) valued.push_back(f);
    try {
        CliArgs args(raw, valued, {"--help", "--quiet"});
        if (args.flag("--help")) {
            std::cout << kBakeUsage << solverFlagsHelp();
            return 0;
        }
        BakeRequest q;
        auto scene = args.get("--scene");
        if (!scene) throw CliError("--scene is required (" + engine::sceneChoices() + ")");
        q.scene = *scene;
        if (!args.has("--frames")) throw CliError("--frames N is required (the number of frames to write)");
        q.frames = args.integer("--frames", 1, 1, 1000000);
        auto out = args.get("--out");
        if (!out) throw CliError(std::string("--out FILE is required (") + engine::bakeFormatsHint() + ")");
        q.out = *out;
        if (!engine::bakeFormatFor(q.out))
            throw CliError("--out " + q.out + ": unknown extension (" + engine::bakeFormatsHint() + ")");
        checkOutputPath("--out", q.out);
        if (auto j = args.get("--json")) checkOutputPath("--json", *j);
        applySolverFlags(args, q.params);
        q.given = {args.has("--substeps"), args.has("--carry")};
        q.activation = parseActivationFlag(args);
        if (auto k = args.get("--overpressure")) q.overpressure = float(parseNumber("--overpressure", *k, 0.0, 10.0));
        q.animation = int(args.integer("--animation", 0, 0, 1000));
        q.animation_given = args.has("--animation");
        const double dt = q.params.frame_dt;
        const double start = args.number("--start", 0.0, 0.0, 1e6 * dt);
        q.first_frame = std::max<int64_t>(1, std::llround(start / dt));
        if (q.first_frame + q.frames - 1 > 1000000)
            throw CliError("--start and --frames reach frame " + std::to_string(q.first_frame + q.frames - 1) +
                           ", past the last frame 1000000");

        const bool quiet = args.flag("--quiet");
        ProgressLine bar(!quiet && ::isatty(2), "bake");
        BakeResult r = bakeClip(q, [&](int64_t done, int64_t total) {
            bar.update(done, total, q.first_frame);
            return true;
        });
        bar.done();
        if (!r.error.empty()) {
            std::fprintf(stderr, "msxpbd bake: %s\n", r.error.c_str());
            return 1;
        }
        if (!quiet) {
            printRunSummary(std::cout, r.report);
            const auto& b = r.report["bake"];
            std::printf("baked frames %lld..%lld (%lld) to %s: %.1f MB in %.1f s\n",
                        b["first_frame"].get<long long>(), b["last_frame"].get<long long>(),
                        b["frames"].get<long long>(), q.out.c_str(), double(b["bytes"].get<uint64_t>()) / 1e6,
                        r.seconds);
            for (size_t i = 1; i < r.files.size(); ++i) std::printf("  with %s\n", r.files[i].c_str());
        }
        if (auto j = args.get("--json")) {
            if (*j == "-") {
                std::cout << r.report.dump(2) << "\n";
            } else if (auto e = engine::writeWholeFile(*j, r.report.dump(2) + "\n"); !e.empty()) {
                std::fprintf(stderr, "msxpbd bake: %s\n", e.c_str());
                return 1;
            }
        }
        return 0;
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd bake: %s\n", e.what());
        return 1;
    }
}

}  // namespace app

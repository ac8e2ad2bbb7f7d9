// `msxpbd run`: a headless simulation of a scene, with a human summary on
// stdout and the machine-readable report of docs/architecture.md with --json.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>

#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "app/cli/progress_line.h"
#include "app/commands/commands.h"
#include "app/run/run_report.h"
#include "app/run/scene_content.h"
#include "app/run/scene_driver.h"
#include "app/cli/solver_flags.h"
#include "engine/export/temp_files.h"
#include "engine/load_scene.h"

namespace app {

namespace {
const char* kRunUsage =
    "usage: msxpbd run --scene FILE|NAME|builtin:NAME [options]\n"
    "  --scene S                a .glb/.gltf file, a generated scene by short name (t5, t6,\n"
    "                           t7, ...: assets/scenes/t5-*.glb) or builtin:t1|p1|p2\n"
    "  --frames N               frames to simulate [1, 1000000] (default 120)\n"
    "  --activation A|ramp|sensors  constant activation in [0, 1], the built-in\n"
    "                           activate/relax ramp, or the scene's sensors\n"
    "                           (default: sensors when the scene has them, else a0)\n"
    "  --overpressure K         overpressure gain for every muscle [0, 10]\n"
    "  --animation N            animation index for glTF scenes (default 0)\n"
    "  --json OUT               write the report as JSON (- for stdout)\n"
    "  --trace                  add every muscle's activation, volume and length\n"
    "                           per frame to the JSON report (\"trace\")\n";

}  // namespace

int runCommand(const Args& raw) {
    std::vector<std::string> valued = {"--scene", "--frames", "--activation", "--overpressure", "--animation",
                                       "--json"};
    for (const auto& f : solverFlagNames()) valued.push_back(f);
    std::string scene_name = "run";
    try {
        CliArgs args(raw, valued, {"--help", "--quiet", "--trace"});
        if (args.flag("--help")) {
            std::cout << kRunUsage << solverFlagsHelp();
            return 0;
        }
        auto scene = args.get("--scene");
        if (!scene) throw CliError("--scene is required (" + engine::sceneChoices() + ")");
        scene_name = *scene;
        const long long frames = args.integer("--frames", 120, 1, 1000000);
        if (auto out = args.get("--json")) checkOutputPath("--json", *out);
        sim::SolverParams params;
        applySolverFlags(args, params);
        ActivationSource activation = parseActivationFlag(args);
        const auto overpressure = args.get("--overpressure");
        const float kappa = overpressure ? float(parseNumber("--overpressure", *overpressure, 0.0, 10.0)) : 0.0f;

        SceneDriver driver;
        const int animation = int(args.integer("--animation", 0, 0, 1000));
        driver.setAnimation(animation);
        if (auto e = driver.load(*scene, params, {args.has("--substeps"), args.has("--carry")}); !e.empty()) {
            std::fprintf(stderr, "msxpbd run: %s\n", e.c_str());
            return 1;
        }
        for (const std::string& w : driver.scene().warnings)
            std::fprintf(stderr, "msxpbd run: %s: warning: %s\n", scene->c_str(), w.c_str());
        if (args.has("--animation") && driver.animation() != animation)
            throw CliError("--animation: the scene has " + std::to_string(driver.scene().animations.size()) +
                           " animation(s)");
        driver.setActivationSource(activation);
        if (overpressure) driver.setOverpressure(kappa);

        const bool quiet = args.flag("--quiet");
        if (!quiet) {
            printRunHeader(std::cout, runSetup(driver.scene().source, driver.sim()));
            std::cout.flush();
        }
        RunRecorder recorder;
        recorder.trace = args.flag("--trace");
        sim::StepReport failure;
        // A run longer than a few seconds shows where it is (on a terminal only).
        ProgressLine progress(!quiet && ::isatty(2), "run", std::chrono::seconds(2));
        for (long long f = 0; f < frames; ++f) {
            auto t0 = std::chrono::steady_clock::now();
            sim::StepReport r = driver.step();
            auto t1 = std::chrono::steady_clock::now();
            if (!r.ok) {
                failure = r;
                break;
            }
            recorder.addFrame(std::chrono::duration<double, std::milli>(t1 - t0).count(), driver.sim());
            progress.update(f + 1, frames);
        }
        progress.done();
        // The file the scene came from (a short name such as t5 resolved).
        nlohmann::json report = runReport(driver.scene().source, driver.sim(), recorder, failure);
        // The meshes, skins and animations, and where the meshes are at the
        // final time (so skinning can be checked numerically).
        report["content"] = sceneContent(driver.scene(), driver.animation(), driver.animationTime());
        if (!quiet) {
            printRunResults(std::cout, report);
            if (driver.sim().world().muscles.empty()) {
                const auto& b = report["content"]["posed"]["bounds"];
                std::cout << "no muscles: loaded " << describeContent(report["content"]);
                if (!b.is_null())
                    std::cout << "; meshes at t = " << report["content"]["posed"]["time"].get<double>() << " s within ["
                              << b["min"][0].get<double>() << ", " << b["min"][1].get<double>() << ", "
                              << b["min"][2].get<double>() << "] .. [" << b["max"][0].get<double>() << ", "
                              << b["max"][1].get<double>() << ", " << b["max"][2].get<double>() << "] m";
                std::cout << "\n";
            }
        }
        if (auto out = args.get("--json")) {
            if (*out == "-") {
                std::cout << report.dump(2) << "\n";
            } else if (auto e = engine::writeWholeFile(*out, report.dump(2) + "\n"); !e.empty()) {
                // A full disk: reported, and no empty or partial report left.
                std::fprintf(stderr, "msxpbd run: %s\n", e.c_str());
                return 1;
            }
        }
        if (!failure.ok) {
            std::fprintf(stderr, "msxpbd run: %s: %s (frame %lld)\n", scene->c_str(), failure.nan.message().c_str(),
                         (long long)driver.sim().frame());
            return 1;
        }
        return 0;
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd run: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "msxpbd run: %s: out of memory (the scene is too large for this machine's memory)\n",
                     scene_name.c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "msxpbd run: %s: %s\n", scene_name.c_str(), e.what());
        return 1;
    }
}

}  // namespace app

// msxpbd: real-time muscle simulation with Extended Position Based Dynamics.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <unistd.h>

#include "app/commands/commands.h"
#include "engine/build_info.h"
#include "engine/export/temp_files.h"
#include "sim/printable.h"

namespace {
const char* kUsage =
    "usage: msxpbd <command> [options]\n"
    "commands:\n"
    "  view   interactive viewer (default scene: the full arm)\n"
    "  run    headless simulation, prints stats (--json OUT for a report)\n"
    "  bench  benchmarks: scenes x solvers x threads x iterations\n"
    "  gen    writes every generated scene to assets/scenes\n"
    "  measure  rest-pose muscle volumes and packing of a scene\n"
    "  bake   writes a simulated clip to .glb/.gltf, .usda or .pc2 (--out FILE)\n"
    "  study  the students' Study: XPBD vs PBD against a reference, headless\n"
    "run `msxpbd <command> --help` (or -h) for a command's options; `msxpbd --version`\n"
    "scenes: every --scene takes a .glb/.gltf file, a generated scene by short name\n"
    "(t1..t7, p1..p4: assets/scenes/t5-*.glb ...) or builtin:t1|p1|p2\n";
}

// libgomp spins at its barriers unless OMP_WAIT_POLICY says otherwise, and it
// reads the variable once, when the library is loaded: on a busy 2-core
// machine spinning threads made 2 threads 2.6–5× slower than 1
// (docs/architecture.md "Known traps"). Unless the user chose a policy, the
// program restarts itself once with "passive" (the report says which applies).
// MSXPBD_OMP_DEFAULT_WAIT=1 keeps libgomp's own default (scripts/bench).
static void choosePassiveWaiting(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY")) return;  // the user's choice stands
    if (const char* keep = std::getenv("MSXPBD_OMP_DEFAULT_WAIT"); keep && *keep == '1') return;
    if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    ::execv("/proc/self/exe", argv);
    ::unsetenv("OMP_WAIT_POLICY");  // no restart: libgomp keeps its default
}

int main(int argc, char** argv) {
    choosePassiveWaiting(argv);
    // A bake or recording ended by SIGINT/SIGTERM/SIGHUP leaves no temporary.
    engine::installTemporaryFileCleanup();
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::printf("msxpbd %s (%s build)\n", engine::version(), engine::buildType());
        return 0;
    }
    std::string cmd = argv[1];
    app::Args args(argv + 2, argv + argc);
    try {
        if (cmd == "run") return app::runCommand(args);
        if (cmd == "bench") return app::benchCommand(args);
        if (cmd == "gen") return app::genCommand(args);
        if (cmd == "view") return app::viewCommand(args);
        if (cmd == "measure") return app::measureCommand(args);
        if (cmd == "bake") return app::bakeCommand(args);
        if (cmd == "study") return app::studyCommand(args);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "msxpbd %s: out of memory\n", cmd.c_str());
        return 1;
    } catch (const std::exception& e) {
        // An exception's text may carry a file's names: escaped, one line.
        std::fprintf(stderr, "msxpbd %s: error: %s\n", sim::printable(cmd).c_str(), sim::printable(e.what()).c_str());
        return 1;
    }
    std::fprintf(stderr, "msxpbd: unknown command '%s' (commands: view, run, bench, gen, measure, bake, study; msxpbd --help)\n",
                 sim::printable(cmd).c_str());
    return 1;
}

// libFuzzer harness: glTF / GLB bytes → engine::loadGltfSceneFromMemory → (when
// it loads) sim::Simulation::load and two frames. Any crash, sanitizer report,
// hang or a NaN/Inf escaping the solver's guard is a finding. Built with
// clang -fsanitize=fuzzer (MSXPBD_FUZZ=ON, scripts/fuzz) and, with
// replay_main.cpp, by any compiler as the corpus replay test.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/gltf/gltf_loader.h"
#include "sim/simulation.h"

namespace {

// An empty folder of our own: a .gltf's external URIs resolve against it, so
// fuzzed paths cannot reach real files.
const std::string& emptyBaseDir() {
    static const std::string dir = [] {
        char tmpl[] = "/tmp/msxpbd-fuzz-base-XXXXXX";
        const char* d = mkdtemp(tmpl);
        if (!d) {
            std::perror("fuzz_gltf: mkdtemp");
            std::abort();
        }
        return std::string(d);
    }();
    return dir;
}

void requireFinite(const sim::Simulation& s, const char* when) {
    for (const auto& x : s.world().particles.x)
        if (!std::isfinite(x.x) || !std::isfinite(x.y) || !std::isfinite(x.z)) {
            std::fprintf(stderr, "fuzz_gltf: non-finite particle position %s\n", when);
            std::abort();
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<uint8_t> bytes(data, data + size);
    engine::Scene scene;
    if (!engine::loadGltfSceneFromMemory(bytes, "fuzz.glb", emptyBaseDir(), scene).empty()) return 0;

    sim::Simulation sim;
    sim::SolverParams p = sim.params();
    scene.solver.applyTo(p);
    // Bounded work per input: one thread, few substeps and iterations.
    p.threads = 1;
    p.substeps = std::min(p.substeps, 2);
    p.iterations = 4;
    if (!sim.setParams(p).empty()) return 0;
    if (!sim.load(scene.desc).empty()) return 0;
    requireFinite(sim, "after load");
    const int animation = scene.animations.empty() ? -1 : 0;
    for (int frame = 1; frame <= 2; ++frame) {
        if (animation >= 0) sim.setBodyTransforms(scene.bodyTransforms(animation, frame * double(p.frame_dt)));
        sim.stepFrame();  // the NaN guard may fire (and restore the state): not a finding
        requireFinite(sim, "after a step");
    }
    return 0;
}

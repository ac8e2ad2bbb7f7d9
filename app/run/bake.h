// Baking a clip (`msxpbd bake`, the viewer's Export section): the scene
// driver steps the scene from t = 0 exactly as `run` does, and frames
// first..first+N−1 go to an engine::BakeWriter (engine/export/clip_writer.h) as they
// are computed. The positions in the files are the bits `run --frames k`
// ends with.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run/scene_driver.h"
#include "sim/params.h"

namespace app {

struct BakeRequest {
    std::string scene;                  // "builtin:NAME" or a glTF file
    sim::SolverParams params;
    ParamsGiven given;                  // which of params the user gave (the scene's own apply to the rest)
    int animation = 0;
    bool animation_given = false;       // refuse an index the scene does not have
    bool loop = true;
    ActivationSource activation;
    std::optional<float> overpressure;  // every muscle's κ
    std::vector<float> muscle_overpressure;  // per muscle (the viewer's), when sized to the scene
    int64_t first_frame = 1;            // the first frame written (frames before it are simulated, not written)
    int64_t frames = 1;                 // N
    std::string out;                    // format by extension
};

struct BakeResult {
    std::string error;                  // empty on success; names the file and the problem
    nlohmann::json report;              // `run --json`'s report plus "bake"
    std::vector<std::string> files;     // written
    double seconds = 0.0;
};

// Called after every simulated frame with (frames done, frames in all);
// returning false cancels the bake (nothing is left behind).
using BakeProgress = std::function<bool(int64_t done, int64_t total)>;

// Steps, writes and renames into place; on any failure (a NaN, the animation
// ending with loop off, a write error, a cancel) removes what it wrote.
BakeResult bakeClip(const BakeRequest& request, const BakeProgress& progress = {});

}  // namespace app

// The viewer's preset file format (JSON), parsed and validated without any
// window, GL or ImGui: text → a plain struct of the keys present, or an error
// naming the file and the key path ("p.json: camera.target must be an array of
// 3 numbers"). app/viewer/presets.cpp applies the struct through the viewer's
// Actions; tests/fuzz/fuzz_preset.cpp fuzzes this parser.
//
// Every value is type-, size- and range-checked here; unknown keys are errors.
// Deep nesting is refused by a non-recursive scan before the (recursive) JSON
// parser sees the text, and files are read only when regular and small.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/params.h"

namespace app {

// Ranges of the viewer settings a preset carries (the Actions clamp to the same).
namespace preset_limits {
constexpr float kSpeedMin = 0.05f, kSpeedMax = 8.0f;            // animation s per wall s
constexpr float kErrorScaleMin = 0.001f, kErrorScaleMax = 1.0f;  // heat map full scale
constexpr float kSkinOpacityMin = 0.0f, kSkinOpacityMax = 3.0f;  // factor on translucent meshes' alpha
constexpr float kOverpressureMax = 1e6f;                         // κ ≥ 0
constexpr float kCameraDistanceMin = 1e-4f, kCameraDistanceMax = 1e5f;
constexpr float kCameraPitchMax = 1.5f;        // rad, |pitch|
constexpr float kCameraYawMax = 1e6f;          // rad, |yaw| (orbiting accumulates)
constexpr float kCameraTargetMax = 1e6f;       // m, |each coordinate|
constexpr int kAnimationMax = 1 << 20;         // animation index; −1 is the rest pose
constexpr std::size_t kMaxBytes = 1u << 20;    // preset file size
constexpr int kMaxDepth = 64;                  // JSON nesting
}  // namespace preset_limits

struct PresetMuscle {
    std::optional<float> activation;
    std::optional<bool> sensor;
    std::optional<float> overpressure;
};

// The keys a preset file contained (absent keys: nullopt / empty).
struct PresetData {
    std::optional<sim::SolverKind> solver;
    std::optional<sim::ConstraintMode> mode;
    std::optional<sim::FiberForm> fiber_form;
    std::optional<sim::ContactModel> contacts;
    std::vector<std::pair<const sim::NumericParam*, double>> params;  // file order, in range
    std::vector<std::pair<sim::Family, float>> xpbd_stiffness, pbd_stiffness;
    std::optional<bool> playing, loop;
    std::optional<float> speed;
    std::optional<int> animation;
    // "activation": null → per-muscle / sensors (inner nullopt); a number → override.
    std::optional<std::optional<float>> activation;
    std::vector<PresetMuscle> muscles;  // in muscle order
    std::optional<float> overpressure;
    // Overlay names are checked when applied (their table lives in the renderer).
    std::vector<std::pair<std::string, bool>> overlays;
    std::optional<bool> shadows, bones, ground, skin, ui;
    // "auto", "on" or "off" (engine::render::FastRender; checked here, the
    // enum lives in the renderer).
    std::optional<std::string> fast_render;
    std::optional<float> error_scale, skin_opacity;
    std::optional<glm::vec3> camera_target;
    std::optional<float> camera_distance, camera_yaw, camera_pitch;
};

// Parses and validates preset text. Returns "ORIGIN: what is wrong" (empty on
// success; `out` is then complete). Never throws, never recurses deeper than
// preset_limits::kMaxDepth.
std::string parsePresetText(std::string_view text, const std::string& origin, PresetData& out);

// Reads a preset file: a regular file of at most preset_limits::kMaxBytes.
// Returns "PATH: what is wrong" or empty.
std::string readPresetFile(const std::string& path, std::string& text);

// Deepest nesting of JSON arrays/objects in `text` (brackets inside strings
// ignored), scanning without recursion; stops counting once past `limit`
// (returns limit + 1 then).
int jsonNestingDepth(std::string_view text, int limit);

}  // namespace app

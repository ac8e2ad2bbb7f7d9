// libFuzzer harness: bytes → app::parsePresetText (the viewer's preset
// format, no window). Any crash or sanitizer report is a finding, and so is a
// result that breaks the parser's promises: an error not naming the origin,
// or an accepted value out of its documented range.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/run/preset_format.h"

namespace {

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "fuzz_preset: accepted preset breaks: %s\n", what);
        std::abort();
    }
}

bool in(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace lim = app::preset_limits;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    app::PresetData d;
    const std::string e = app::parsePresetText(text, "fuzz.json", d);
    if (!e.empty()) {
        check(e.rfind("fuzz.json: ", 0) == 0, "an error that does not name the file");
        return 0;
    }
    for (const auto& [np, v] : d.params) check(np && v >= np->min && v <= np->max, "params range");
    for (const auto& [f, k] : d.xpbd_stiffness) check(k > 0.0f, "xpbd stiffness > 0");
    for (const auto& [f, k] : d.pbd_stiffness) check(k >= 0.0f && k <= 1.0f, "pbd stiffness in [0, 1]");
    if (d.speed) check(in(*d.speed, lim::kSpeedMin, lim::kSpeedMax), "playback.speed range");
    if (d.animation) check(*d.animation >= -1, "playback.animation >= -1");
    if (d.activation && *d.activation) check(in(**d.activation, 0.0f, 1.0f), "activation range");
    for (const auto& m : d.muscles) {
        if (m.activation) check(in(*m.activation, 0.0f, 1.0f), "muscle activation range");
        if (m.overpressure) check(in(*m.overpressure, 0.0f, lim::kOverpressureMax), "muscle overpressure range");
    }
    if (d.overpressure) check(in(*d.overpressure, 0.0f, lim::kOverpressureMax), "overpressure range");
    if (d.error_scale) check(in(*d.error_scale, lim::kErrorScaleMin, lim::kErrorScaleMax), "error_scale range");
    if (d.camera_target)
        for (int i = 0; i < 3; ++i)
            check(in((*d.camera_target)[i], -lim::kCameraTargetMax, lim::kCameraTargetMax), "camera.target range");
    if (d.camera_distance)
        check(in(*d.camera_distance, lim::kCameraDistanceMin, lim::kCameraDistanceMax), "camera.distance range");
    if (d.camera_yaw) check(in(*d.camera_yaw, -lim::kCameraYawMax, lim::kCameraYawMax), "camera.yaw range");
    if (d.camera_pitch) check(in(*d.camera_pitch, -lim::kCameraPitchMax, lim::kCameraPitchMax), "camera.pitch range");
    return 0;
}

#include "app/viewer/presets.h"

#include <cmath>
#include <fstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/run/preset_format.h"
#include "app/viewer/actions.h"
#include "sim/printable.h"
#include "engine/export/temp_files.h"

namespace app::viewer {

using nlohmann::json;

namespace {
// JSON has no infinity: hard constraints are written as the string "inf".
json stiffnessJson(const sim::FamilyStiffness& k) {
    json j = json::object();
    for (int i = 0; i < sim::kFamilyCount; ++i) {
        auto f = static_cast<sim::Family>(i);
        if (std::isinf(k[f]))
            j[std::string(sim::familyName(f))] = "inf";
        else
            j[std::string(sim::familyName(f))] = k[f];
    }
    return j;
}
}  // namespace

std::string writePreset(const std::string& path, const ViewerState& s) {
    const auto& p = s.controls.params;
    json j;
    j["solver"] = std::string(sim::solverName(p.solver));
    j["mode"] = std::string(sim::modeName(p.mode));
    j["fiber_form"] = std::string(sim::fiberFormName(p.fiber_form));
    j["contacts"] = std::string(sim::contactModelName(p.contacts));
    json nums = json::object();
    for (const auto& np : sim::numericParams()) nums[np.name] = np.get(p);
    j["params"] = nums;
    j["stiffness"] = {{"xpbd", stiffnessJson(p.xpbd_stiffness)}, {"pbd", stiffnessJson(p.pbd_stiffness)}};
    j["playback"] = {{"playing", s.controls.playing}, {"loop", s.controls.loop}, {"speed", s.controls.speed},
                     {"animation", s.controls.animation}};
    j["activation"] = s.controls.activation_override ? json(s.controls.global_activation) : json(nullptr);
    json muscles = json::array();
    for (const auto& m : s.controls.muscles)
        muscles.push_back({{"activation", m.activation}, {"sensor", m.use_sensor}, {"overpressure", m.overpressure}});
    j["muscles"] = muscles;
    json ov = json::object();
    for (int i = 0; i < engine::render::kOverlayCount; ++i)
        ov[std::string(engine::render::overlayName(static_cast<engine::render::Overlay>(i)))] = s.render.overlays[size_t(i)];
    j["overlays"] = ov;
    j["shadows"] = s.render.shadows;
    j["bones"] = s.render.bones;
    j["ground"] = s.render.ground;
    j["skin"] = s.render.skin;
    j["skin_opacity"] = s.render.skin_opacity;
    j["fast_render"] = std::string(engine::render::fastRenderName(s.render.fast_render));
    j["error_scale"] = s.render.error_scale;
    j["ui"] = s.ui_visible;
    j["camera"] = {{"target", {s.camera.target.x, s.camera.target.y, s.camera.target.z}},
                   {"distance", s.camera.distance}, {"yaw", s.camera.yaw}, {"pitch", s.camera.pitch}};
    return engine::writeWholeFile(path, j.dump(2) + "\n");
}

std::string readPreset(const std::string& path, Actions& actions) {
    std::string text;
    if (auto e = app::readPresetFile(path, text); !e.empty()) return e;
    return applyPresetText(text, path, actions);
}

std::string applyPresetText(const std::string& text, const std::string& origin, Actions& a) {
    app::PresetData d;
    if (auto e = app::parsePresetText(text, origin, d); !e.empty()) return e;
    auto fail = [&](const std::string& what) { return sim::printable(origin + ": " + what); };
    // Everything is checked before anything is applied: a bad preset leaves the state alone.
    std::vector<std::pair<engine::render::Overlay, bool>> overlays;
    for (const auto& [name, on] : d.overlays) {
        auto o = engine::render::parseOverlay(name);
        if (!o) return fail("overlays." + name + ": unknown overlay");
        overlays.emplace_back(*o, on);
    }
    // Solver parameters are assembled first and applied (validated) at once.
    sim::SolverParams p = a.state().controls.params;
    if (d.solver) p.solver = *d.solver;
    if (d.mode) p.mode = *d.mode;
    if (d.fiber_form) p.fiber_form = *d.fiber_form;
    if (d.contacts) p.contacts = *d.contacts;
    for (const auto& [np, v] : d.params) np->set(p, v);
    for (const auto& [f, k] : d.xpbd_stiffness) p.xpbd_stiffness[f] = k;
    for (const auto& [f, k] : d.pbd_stiffness) p.pbd_stiffness[f] = k;
    if (auto e = a.setParams(p); !e.empty()) return fail(e);

    if (d.playing) a.setPlaying(*d.playing);
    if (d.loop) a.setLoop(*d.loop);
    if (d.speed) a.setSpeed(*d.speed);
    if (d.animation && *d.animation != a.state().controls.animation) a.setAnimation(*d.animation);
    if (d.activation) a.setGlobalActivation(*d.activation);
    for (size_t m = 0; m < d.muscles.size() && m < a.state().controls.muscles.size(); ++m) {
        const auto& mc = d.muscles[m];
        if (mc.activation) a.setMuscleActivation(m, *mc.activation);
        if (mc.sensor) a.setMuscleSensor(m, *mc.sensor);
        if (mc.overpressure) a.setMuscleOverpressure(m, *mc.overpressure);
    }
    if (d.overpressure) a.setGlobalOverpressure(*d.overpressure);
    for (const auto& [o, on] : overlays) a.setOverlay(o, on);
    if (d.shadows) a.setShadows(*d.shadows);
    if (d.bones) a.setBones(*d.bones);
    if (d.ground) a.setGround(*d.ground);
    if (d.skin) a.setSkin(*d.skin);
    if (d.skin_opacity) a.setSkinOpacity(*d.skin_opacity);
    if (d.fast_render) a.setFastRender(*engine::render::parseFastRender(*d.fast_render));
    if (d.error_scale) a.setErrorScale(*d.error_scale);
    if (d.ui) a.setUiVisible(*d.ui);
    if (d.camera_target || d.camera_distance || d.camera_yaw || d.camera_pitch) {
        auto cam = a.state().camera;
        if (d.camera_target) cam.target = *d.camera_target;
        if (d.camera_distance) cam.distance = *d.camera_distance;
        if (d.camera_yaw) cam.yaw = *d.camera_yaw;
        if (d.camera_pitch) cam.pitch = *d.camera_pitch;
        a.setCamera(cam);
    }
    return {};
}

}  // namespace app::viewer

#include "app/viewer/presets.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/viewer/actions.h"

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

std::string readStiffness(const json& j, sim::FamilyStiffness& k) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        auto f = sim::parseFamily(it.key());
        if (!f) return "unknown family '" + it.key() + "'";
        if (it->is_string() && it->get<std::string>() == "inf")
            k[*f] = sim::kInfiniteStiffness;
        else if (it->is_number())
            k[*f] = it->get<float>();
        else
            return "stiffness." + it.key() + " must be a number or \"inf\"";
    }
    return {};
}
}  // namespace

std::string writePreset(const std::string& path, const ViewerState& s) {
    const auto& p = s.controls.params;
    json j;
    j["solver"] = std::string(sim::solverName(p.solver));
    j["mode"] = std::string(sim::modeName(p.mode));
    j["fiber_form"] = std::string(sim::fiberFormName(p.fiber_form));
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
    j["error_scale"] = s.render.error_scale;
    j["ui"] = s.ui_visible;
    j["camera"] = {{"target", {s.camera.target.x, s.camera.target.y, s.camera.target.z}},
                   {"distance", s.camera.distance}, {"yaw", s.camera.yaw}, {"pitch", s.camera.pitch}};
    std::ofstream f(path);
    if (!f) return path + ": cannot write preset";
    f << j.dump(2) << "\n";
    return f ? std::string() : path + ": write failed";
}

std::string readPreset(const std::string& path, Actions& actions) {
    std::ifstream f(path);
    if (!f) return path + ": cannot read preset";
    std::ostringstream ss;
    ss << f.rdbuf();
    return applyPresetText(ss.str(), path, actions);
}

std::string applyPresetText(const std::string& text, const std::string& origin, Actions& a) {
    json j;
    try {
        j = json::parse(text);
    } catch (const std::exception& e) {
        return origin + ": not valid JSON: " + e.what();
    }
    if (!j.is_object()) return origin + ": a preset is a JSON object";
    auto fail = [&](const std::string& what) { return origin + ": " + what; };
    try {
        // Solver parameters are assembled first and applied (validated) at once.
        sim::SolverParams p = a.state().controls.params;
        if (j.contains("solver")) {
            auto k = sim::parseSolver(j["solver"].get<std::string>());
            if (!k) return fail("solver must be sst, jacobi, coloring or hybrid");
            p.solver = *k;
        }
        if (j.contains("mode")) {
            auto m = sim::parseMode(j["mode"].get<std::string>());
            if (!m) return fail("mode must be xpbd or pbd");
            p.mode = *m;
        }
        if (j.contains("fiber_form")) {
            auto ff = sim::parseFiberForm(j["fiber_form"].get<std::string>());
            if (!ff) return fail("fiber_form must be paper or projected");
            p.fiber_form = *ff;
        }
        if (j.contains("params"))
            for (auto it = j["params"].begin(); it != j["params"].end(); ++it) {
                const auto* np = sim::findNumericParam(it.key());
                if (!np) return fail("unknown parameter params." + it.key());
                np->set(p, it->get<double>());
            }
        if (j.contains("stiffness")) {
            const auto& s = j["stiffness"];
            if (s.contains("xpbd"))
                if (auto e = readStiffness(s["xpbd"], p.xpbd_stiffness); !e.empty()) return fail(e);
            if (s.contains("pbd"))
                if (auto e = readStiffness(s["pbd"], p.pbd_stiffness); !e.empty()) return fail(e);
        }
        if (auto e = a.setParams(p); !e.empty()) return fail(e);

        if (j.contains("playback")) {
            const auto& pb = j["playback"];
            if (pb.contains("playing")) a.setPlaying(pb["playing"].get<bool>());
            if (pb.contains("loop")) a.setLoop(pb["loop"].get<bool>());
            if (pb.contains("speed")) a.setSpeed(pb["speed"].get<float>());
            if (pb.contains("animation") && pb["animation"].get<int>() != a.state().controls.animation)
                a.setAnimation(pb["animation"].get<int>());
        }
        if (j.contains("activation")) {
            if (j["activation"].is_null())
                a.setGlobalActivation(std::nullopt);
            else
                a.setGlobalActivation(j["activation"].get<float>());
        }
        if (j.contains("muscles")) {
            const auto& ms = j["muscles"];
            for (size_t m = 0; m < ms.size() && m < a.state().controls.muscles.size(); ++m) {
                if (ms[m].contains("activation")) a.setMuscleActivation(m, ms[m]["activation"].get<float>());
                if (ms[m].contains("sensor")) a.setMuscleSensor(m, ms[m]["sensor"].get<bool>());
                if (ms[m].contains("overpressure")) a.setMuscleOverpressure(m, ms[m]["overpressure"].get<float>());
            }
        }
        if (j.contains("overpressure")) a.setGlobalOverpressure(j["overpressure"].get<float>());
        if (j.contains("overlays"))
            for (auto it = j["overlays"].begin(); it != j["overlays"].end(); ++it) {
                auto o = engine::render::parseOverlay(it.key());
                if (!o) return fail("unknown overlay '" + it.key() + "'");
                a.setOverlay(*o, it->get<bool>());
            }
        if (j.contains("shadows")) a.setShadows(j["shadows"].get<bool>());
        if (j.contains("bones")) a.setBones(j["bones"].get<bool>());
        if (j.contains("ground")) a.setGround(j["ground"].get<bool>());
        if (j.contains("error_scale")) {
            const float e = j["error_scale"].get<float>();
            if (!(e >= Actions::kErrorScaleMin && e <= Actions::kErrorScaleMax)) {
                std::ostringstream os;
                os << "error_scale " << e << " out of range [" << Actions::kErrorScaleMin << ", " << Actions::kErrorScaleMax << "]";
                return fail(os.str());
            }
            a.setErrorScale(e);
        }
        if (j.contains("ui")) a.setUiVisible(j["ui"].get<bool>());
        if (j.contains("camera")) {
            const auto& c = j["camera"];
            auto cam = a.state().camera;
            if (c.contains("target")) cam.target = {c["target"][0].get<float>(), c["target"][1].get<float>(), c["target"][2].get<float>()};
            if (c.contains("distance")) cam.distance = c["distance"].get<float>();
            if (c.contains("yaw")) cam.yaw = c["yaw"].get<float>();
            if (c.contains("pitch")) cam.pitch = c["pitch"].get<float>();
            a.setCamera(cam);
        }
    } catch (const json::exception& e) {
        return fail(std::string("wrong value type: ") + e.what());
    }
    return {};
}

}  // namespace app::viewer

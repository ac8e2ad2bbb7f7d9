#include "app/run/preset_format.h"

#include <cfloat>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/gltf/gltf_input.h"
#include "sim/printable.h"

namespace app {

using nlohmann::json;
namespace lim = preset_limits;

int jsonNestingDepth(std::string_view text, int limit) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
            if (deepest > limit) return limit + 1;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

std::string readPresetFile(const std::string& path, std::string& text) {
    std::error_code ec;
    const auto st = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(st)) return path + ": cannot read preset (no such file)";
    if (!std::filesystem::is_regular_file(st)) return path + ": cannot read preset (not a regular file)";
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return path + ": cannot read preset";
    if (size > lim::kMaxBytes) {
        std::ostringstream os;
        os << path << ": preset too large (" << size << " bytes, at most " << lim::kMaxBytes << ")";
        return os.str();
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) return path + ": cannot read preset";
    text.assign(size_t(size), '\0');
    f.read(text.data(), std::streamsize(size));
    if (f.gcount() != std::streamsize(size)) return path + ": cannot read preset (short read)";
    return {};
}

namespace {

std::string num(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

// A finite number in [lo, hi] (as double).
std::string getDouble(const json& v, const std::string& path, double lo, double hi, double& out) {
    if (!v.is_number()) return path + " must be a number";
    const double d = v.get<double>();
    if (!std::isfinite(d)) return path + " must be a finite number";
    if (!(d >= lo && d <= hi)) return path + "=" + num(d) + " out of range [" + num(lo) + ", " + num(hi) + "]";
    out = d;
    return {};
}

// A finite number in [lo, hi], compared as float (the value is stored as one).
std::string getFloat(const json& v, const std::string& path, float lo, float hi, float& out) {
    double d = 0.0;
    if (auto e = getDouble(v, path, -double(FLT_MAX), double(FLT_MAX), d); !e.empty()) {
        if (v.is_number()) return path + "=" + num(v.get<double>()) + " out of range [" + num(lo) + ", " + num(hi) + "]";
        return e;
    }
    const float f = float(d);
    if (!(f >= lo && f <= hi)) return path + "=" + num(d) + " out of range [" + num(lo) + ", " + num(hi) + "]";
    out = f;
    return {};
}

std::string getBool(const json& v, const std::string& path, std::optional<bool>& out) {
    if (!v.is_boolean()) return path + " must be true or false";
    out = v.get<bool>();
    return {};
}

std::string getFloatOpt(const json& v, const std::string& path, float lo, float hi, std::optional<float>& out) {
    float f = 0.0f;
    if (auto e = getFloat(v, path, lo, hi, f); !e.empty()) return e;
    out = f;
    return {};
}

template <class T>
std::string getName(const json& v, const std::string& path, std::optional<T> (*parse)(std::string_view),
                    const std::string& choices, std::optional<T>& out) {
    std::optional<T> r;
    if (v.is_string()) r = parse(v.get_ref<const std::string&>());
    if (!r) return path + " must be one of " + choices;
    out = r;
    return {};
}

std::optional<std::string> parseFastRenderName(std::string_view s) {
    if (s == "auto" || s == "on" || s == "off") return std::string(s);
    return std::nullopt;
}

// JSON has no infinity: hard constraints are written as the string "inf".
std::string readStiffness(const json& j, const std::string& path, sim::ConstraintMode mode,
                          std::vector<std::pair<sim::Family, float>>& out) {
    if (!j.is_object()) return path + " must be an object of family: stiffness";
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string key = path + "." + it.key();
        auto f = sim::parseFamily(it.key());
        if (!f) return key + ": unknown family (" + sim::familyList() + ")";
        float k = 0.0f;
        if (it->is_string() && it->get_ref<const std::string&>() == "inf") {
            k = sim::kInfiniteStiffness;
        } else if (it->is_number()) {
            if (auto e = getFloat(*it, key, -FLT_MAX, FLT_MAX, k); !e.empty()) return e;
        } else {
            return key + " must be a number or \"inf\"";
        }
        if (auto e = sim::validateStiffness(mode, *f, k); !e.empty()) return key + ": " + e;
        out.emplace_back(*f, k);
    }
    return {};
}

std::string unknownKey(const std::string& path, const std::string& key, const char* known) {
    return (path.empty() ? key : path + "." + key) + ": unknown key (expected one of " + known + ")";
}

std::string parseParams(const json& v, PresetData& d) {
    if (!v.is_object()) return "params must be an object";
    for (auto p = v.begin(); p != v.end(); ++p) {
        const std::string key = "params." + p.key();
        // Written by versions that ran small colours on one thread;
        // colours now run muscle by muscle (docs/model.md §6), so the
        // setting has no meaning and an old preset still loads.
        if (p.key() == "serial-threshold") continue;
        const sim::NumericParam* np = sim::findNumericParam(p.key());
        if (!np) return key + ": unknown solver parameter";
        double x = 0.0;
        if (auto pe = getDouble(*p, key, np->min, np->max, x); !pe.empty()) return pe;
        d.params.emplace_back(np, np->integer ? double(std::llround(x)) : x);
    }
    return {};
}

std::string parseStiffness(const json& v, PresetData& d) {
    if (!v.is_object()) return "stiffness must be an object with xpbd and pbd";
    for (auto s = v.begin(); s != v.end(); ++s) {
        std::string e;
        if (s.key() == "xpbd")
            e = readStiffness(*s, "stiffness.xpbd", sim::ConstraintMode::Xpbd, d.xpbd_stiffness);
        else if (s.key() == "pbd")
            e = readStiffness(*s, "stiffness.pbd", sim::ConstraintMode::Pbd, d.pbd_stiffness);
        else
            e = unknownKey("stiffness", s.key(), "xpbd, pbd");
        if (!e.empty()) return e;
    }
    return {};
}

std::string parsePlayback(const json& v, PresetData& d) {
    if (!v.is_object()) return "playback must be an object";
    for (auto p = v.begin(); p != v.end(); ++p) {
        const std::string key = "playback." + p.key();
        std::string e;
        if (p.key() == "playing") {
            e = getBool(*p, key, d.playing);
        } else if (p.key() == "loop") {
            e = getBool(*p, key, d.loop);
        } else if (p.key() == "speed") {
            e = getFloatOpt(*p, key, lim::kSpeedMin, lim::kSpeedMax, d.speed);
        } else if (p.key() == "animation") {
            if (!p->is_number_integer()) return key + " must be an integer (-1: rest pose)";
            double x = 0.0;
            if (auto pe = getDouble(*p, key, -1.0, double(lim::kAnimationMax), x); !pe.empty()) return pe;
            d.animation = int(x);
        } else {
            e = unknownKey("playback", p.key(), "playing, loop, speed, animation");
        }
        if (!e.empty()) return e;
    }
    return {};
}

// A number in [0, 1], or null for "no global activation".
std::string parseActivation(const json& v, PresetData& d) {
    if (v.is_null()) {
        d.activation = std::optional<float>();
        return {};
    }
    float a = 0.0f;
    if (!v.is_number()) return "activation must be a number in [0, 1] or null";
    std::string e = getFloat(v, "activation", 0.0f, 1.0f, a);
    if (e.empty()) d.activation = std::optional<float>(a);
    return e;
}

std::string parseMuscles(const json& v, PresetData& d) {
    if (!v.is_array()) return "muscles must be an array of objects";
    d.muscles.assign(v.size(), PresetMuscle{});
    for (size_t m = 0; m < v.size(); ++m) {
        const std::string path = "muscles[" + std::to_string(m) + "]";
        if (!v[m].is_object()) return path + " must be an object";
        for (auto p = v[m].begin(); p != v[m].end(); ++p) {
            const std::string key = path + "." + p.key();
            std::string e;
            if (p.key() == "activation")
                e = getFloatOpt(*p, key, 0.0f, 1.0f, d.muscles[m].activation);
            else if (p.key() == "sensor")
                e = getBool(*p, key, d.muscles[m].sensor);
            else if (p.key() == "overpressure")
                e = getFloatOpt(*p, key, 0.0f, lim::kOverpressureMax, d.muscles[m].overpressure);
            else
                e = unknownKey(path, p.key(), "activation, sensor, overpressure");
            if (!e.empty()) return e;
        }
    }
    return {};
}

std::string parseOverlays(const json& v, PresetData& d) {
    if (!v.is_object()) return "overlays must be an object of name: true/false";
    for (auto o = v.begin(); o != v.end(); ++o) {
        std::optional<bool> on;
        if (auto oe = getBool(*o, "overlays." + o.key(), on); !oe.empty()) return oe;
        d.overlays.emplace_back(o.key(), *on);
    }
    return {};
}

std::string parseCameraTarget(const json& v, const std::string& key, PresetData& d) {
    if (!v.is_array() || v.size() != 3) return key + " must be an array of 3 numbers";
    glm::vec3 t{0.0f};
    for (int i = 0; i < 3; ++i) {
        const json& x = v[size_t(i)];
        if (!x.is_number()) return key + " must be an array of 3 numbers";
        const std::string ki = key + "[" + std::to_string(i) + "]";
        if (auto te = getFloat(x, ki, -lim::kCameraTargetMax, lim::kCameraTargetMax, t[i]); !te.empty()) return te;
    }
    d.camera_target = t;
    return {};
}

std::string parseCamera(const json& v, PresetData& d) {
    if (!v.is_object()) return "camera must be an object";
    for (auto c = v.begin(); c != v.end(); ++c) {
        const std::string key = "camera." + c.key();
        std::string e;
        if (c.key() == "target") {
            e = parseCameraTarget(*c, key, d);
        } else if (c.key() == "distance") {
            e = getFloatOpt(*c, key, lim::kCameraDistanceMin, lim::kCameraDistanceMax, d.camera_distance);
        } else if (c.key() == "yaw") {
            e = getFloatOpt(*c, key, -lim::kCameraYawMax, lim::kCameraYawMax, d.camera_yaw);
        } else if (c.key() == "pitch") {
            e = getFloatOpt(*c, key, -lim::kCameraPitchMax, lim::kCameraPitchMax, d.camera_pitch);
        } else {
            e = unknownKey("camera", c.key(), "target, distance, yaw, pitch");
        }
        if (!e.empty()) return e;
    }
    return {};
}

// One top-level key of the preset object, in three groups: the solver, the
// playback and muscles, the display.
std::string parseKey(const std::string& k, const json& v, PresetData& d) {
    // Solver.
    if (k == "solver") return getName(v, k, &sim::parseSolver, sim::solverList(), d.solver);
    if (k == "mode") return getName(v, k, &sim::parseMode, sim::modeList(), d.mode);
    if (k == "fiber_form") return getName(v, k, &sim::parseFiberForm, sim::fiberFormList(), d.fiber_form);
    if (k == "contacts") return getName(v, k, &sim::parseContactModel, sim::contactModelList(), d.contacts);
    if (k == "params") return parseParams(v, d);
    if (k == "stiffness") return parseStiffness(v, d);
    // Playback and muscles.
    if (k == "playback") return parsePlayback(v, d);
    if (k == "activation") return parseActivation(v, d);
    if (k == "muscles") return parseMuscles(v, d);
    if (k == "overpressure") return getFloatOpt(v, k, 0.0f, lim::kOverpressureMax, d.overpressure);
    // Display.
    if (k == "overlays") return parseOverlays(v, d);
    if (k == "shadows") return getBool(v, k, d.shadows);
    if (k == "bones") return getBool(v, k, d.bones);
    if (k == "ground") return getBool(v, k, d.ground);
    if (k == "skin") return getBool(v, k, d.skin);
    if (k == "skin_opacity") return getFloatOpt(v, k, lim::kSkinOpacityMin, lim::kSkinOpacityMax, d.skin_opacity);
    if (k == "fast_render") return getName(v, k, &parseFastRenderName, "auto, on, off", d.fast_render);
    if (k == "ui") return getBool(v, k, d.ui);
    if (k == "error_scale") return getFloatOpt(v, k, lim::kErrorScaleMin, lim::kErrorScaleMax, d.error_scale);
    if (k == "camera") return parseCamera(v, d);
    return unknownKey("", k,
                      "solver, mode, fiber_form, contacts, params, stiffness, playback, activation, muscles, "
                      "overpressure, overlays, shadows, bones, ground, skin, skin_opacity, fast_render, error_scale, ui, "
                      "camera");
}

std::string parseObject(const json& j, PresetData& d) {
    if (!j.is_object()) return "a preset is a JSON object";
    for (auto it = j.begin(); it != j.end(); ++it)
        if (auto e = parseKey(it.key(), *it, d); !e.empty()) return e;
    return {};
}

}  // namespace

std::string parsePresetText(std::string_view text, const std::string& origin, PresetData& out) {
    out = PresetData{};
    if (text.size() > lim::kMaxBytes)
        return origin + ": preset too large (" + std::to_string(text.size()) + " bytes, at most " +
               std::to_string(lim::kMaxBytes) + ")";
    if (jsonNestingDepth(text, lim::kMaxDepth) > lim::kMaxDepth)
        return origin + ": JSON nested deeper than " + std::to_string(lim::kMaxDepth) + " levels";
    json j;
    if (auto e = engine::gltf_input::parseJson(text, j); !e.empty()) return sim::printable(origin) + ": " + e;
    PresetData d;
    try {
        // Keys and names from the file are quoted: their controls escaped.
        if (auto e = parseObject(j, d); !e.empty()) return sim::printable(origin + ": " + e);
    } catch (const std::exception& e) {  // not expected: every access is type-checked first
        return sim::printable(origin + ": " + e.what());
    }
    out = std::move(d);
    return {};
}

}  // namespace app

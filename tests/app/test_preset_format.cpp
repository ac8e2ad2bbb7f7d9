// The preset parser (app/run/preset_format.h) without a window: every value is
// type-, size- and range-checked, errors name the file and the key path, and
// no input crashes it (issue 10; tests/fuzz/fuzz_preset.cpp fuzzes it).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "app/run/preset_format.h"

using app::PresetData;

namespace {

std::string parse(const std::string& text, PresetData* out = nullptr) {
    PresetData d;
    std::string e = app::parsePresetText(text, "p.json", d);
    if (out) *out = d;
    return e;
}

// The error for `text`, which must start with "p.json: " and contain `what`.
void expectError(const std::string& text, const std::string& what) {
    const std::string e = parse(text);
    EXPECT_EQ(e.rfind("p.json: ", 0), 0u) << text << " → " << e;
    EXPECT_NE(e.find(what), std::string::npos) << text << " → " << e;
}

}  // namespace

TEST(PresetFormat, ParsesWhatTheViewerWrites) {
    const char* text = R"({
      "solver": "hybrid", "mode": "xpbd", "fiber_form": "paper",
      "params": {"iterations": 33, "substeps": 2, "damping": 0.5},
      "stiffness": {"xpbd": {"fiber": 5000.0, "volume": "inf"}, "pbd": {"fiber": 0.5}},
      "playback": {"playing": false, "loop": true, "speed": 0.5, "animation": -1},
      "activation": 0.7,
      "muscles": [{"activation": 0.25, "sensor": true, "overpressure": 0.1}, {}],
      "overlays": {"internal": true, "wireframe": false},
      "shadows": false, "bones": true, "ground": false, "error_scale": 0.125, "ui": false,
      "skin": false, "skin_opacity": 1.75,
      "camera": {"target": [0.1, -0.2, 3], "distance": 2.5, "yaw": 7.0, "pitch": -1.2},
      "overpressure": 0.3
    })";
    PresetData d;
    ASSERT_EQ(parse(text, &d), "");
    EXPECT_EQ(d.solver, sim::SolverKind::Hybrid);
    EXPECT_EQ(d.mode, sim::ConstraintMode::Xpbd);
    EXPECT_EQ(d.fiber_form, sim::FiberForm::Paper);
    ASSERT_EQ(d.params.size(), 3u);
    ASSERT_EQ(d.xpbd_stiffness.size(), 2u);
    EXPECT_TRUE(std::isinf(d.xpbd_stiffness[1].second));
    EXPECT_EQ(d.pbd_stiffness.size(), 1u);
    EXPECT_EQ(d.playing, false);
    EXPECT_EQ(d.loop, true);
    EXPECT_FLOAT_EQ(*d.speed, 0.5f);
    EXPECT_EQ(d.animation, -1);
    ASSERT_TRUE(d.activation && *d.activation);
    EXPECT_FLOAT_EQ(**d.activation, 0.7f);
    ASSERT_EQ(d.muscles.size(), 2u);
    EXPECT_FLOAT_EQ(*d.muscles[0].activation, 0.25f);
    EXPECT_EQ(d.muscles[0].sensor, true);
    EXPECT_FALSE(d.muscles[1].activation);
    EXPECT_EQ(d.overlays.size(), 2u);
    EXPECT_EQ(d.shadows, false);
    EXPECT_FLOAT_EQ(*d.error_scale, 0.125f);
    EXPECT_EQ(d.skin, false);
    ASSERT_TRUE(d.skin_opacity);
    EXPECT_FLOAT_EQ(*d.skin_opacity, 1.75f);
    ASSERT_TRUE(d.camera_target);
    EXPECT_FLOAT_EQ(d.camera_target->z, 3.0f);
    EXPECT_FLOAT_EQ(*d.camera_pitch, -1.2f);
    EXPECT_FLOAT_EQ(*d.overpressure, 0.3f);

    PresetData e;
    ASSERT_EQ(parse(R"({"activation": null})", &e), "");
    ASSERT_TRUE(e.activation);
    EXPECT_FALSE(*e.activation);
    ASSERT_EQ(parse("{}", &e), "");
    EXPECT_FALSE(e.activation);
    EXPECT_FALSE(e.skin);  // absent keys stay absent (the scene's default holds)
    EXPECT_FALSE(e.skin_opacity);
}

TEST(PresetFormat, ShortOrLongArraysAreRefused) {
    for (const char* t : {"[]", "[0.1]", "[0.1, 0.2]", "[1, 2, 3, 4]", "{}", "3", "null", "\"abc\""})
        expectError(std::string(R"({"camera": {"target": )") + t + "}}", "p.json: camera.target must be an array of 3 numbers");
    expectError(R"({"camera": {"target": ["a", "b", "c"]}})", "camera.target must be an array of 3 numbers");
    expectError(R"({"camera": {"target": [1, null, 3]}})", "camera.target must be an array of 3 numbers");
}

TEST(PresetFormat, WrongTypesNameTheKeyPath) {
    expectError(R"({"solver": 3})", "solver must be one of sst, jacobi, coloring, hybrid");
    expectError(R"({"solver": "fast"})", "solver must be");
    expectError(R"({"mode": ["xpbd"]})", "mode must be");
    expectError(R"({"fiber_form": null})", "fiber_form must be");
    expectError(R"({"params": []})", "params must be an object");
    expectError(R"({"params": {"iterations": "10"}})", "params.iterations must be a number");
    expectError(R"({"params": {"bogus": 1}})", "params.bogus: unknown solver parameter");
}

// Presets saved before colours ran muscle by muscle carry "serial-threshold"
// (colours smaller than it ran on one thread): they still load, the other
// parameters with them, and the key sets nothing.
TEST(PresetFormat, OldPresetsWithTheSerialThresholdStillLoad) {
    PresetData d;
    ASSERT_EQ(parse(R"({"params": {"iterations": 12, "serial-threshold": 64.0, "omega": 1.2}})", &d), "");
    ASSERT_EQ(d.params.size(), 2u);
    EXPECT_EQ(std::string(d.params[0].first->name), "iterations");
    EXPECT_EQ(std::string(d.params[1].first->name), "omega");
    expectError(R"({"stiffness": 1})", "stiffness must be an object");
    expectError(R"({"stiffness": {"xpbd": [1]}})", "stiffness.xpbd must be an object");
    expectError(R"({"stiffness": {"xpbd": {"fiber": true}}})", "stiffness.xpbd.fiber must be a number or \"inf\"");
    expectError(R"({"stiffness": {"xpbd": {"fiber": "infinity"}}})", "stiffness.xpbd.fiber must be a number");
    expectError(R"({"stiffness": {"soft": {}}})", "stiffness.soft: unknown key");
    expectError(R"({"playback": true})", "playback must be an object");
    expectError(R"({"playback": {"playing": "yes"}})", "playback.playing must be true or false");
    expectError(R"({"playback": {"loop": 1}})", "playback.loop must be true or false");
    expectError(R"({"playback": {"animation": 1.5}})", "playback.animation must be an integer");
    expectError(R"({"playback": {"speed": "fast"}})", "playback.speed must be a number");
    expectError(R"({"activation": "full"})", "activation must be a number in [0, 1] or null");
    expectError(R"({"muscles": {"activation": 1}})", "muscles must be an array");
    expectError(R"({"muscles": [{}, 1]})", "muscles[1] must be an object");
    expectError(R"({"muscles": [{"sensor": 0}]})", "muscles[0].sensor must be true or false");
    expectError(R"({"muscles": [{"stiff": 0}]})", "muscles[0].stiff: unknown key");
    expectError(R"({"overlays": ["wireframe"]})", "overlays must be an object");
    expectError(R"({"overlays": {"wireframe": 1}})", "overlays.wireframe must be true or false");
    expectError(R"({"shadows": null})", "shadows must be true or false");
    expectError(R"({"bones": "on"})", "bones must be true or false");
    expectError(R"({"ground": 0})", "ground must be true or false");
    expectError(R"({"ui": []})", "ui must be true or false");
    expectError(R"({"skin": 1})", "skin must be true or false");
    expectError(R"({"skin_opacity": true})", "skin_opacity must be a number");
    expectError(R"({"error_scale": "0.1"})", "error_scale must be a number");
    expectError(R"({"camera": 1})", "camera must be an object");
    expectError(R"({"camera": {"distance": "far"}})", "camera.distance must be a number");
    expectError(R"({"camera": {"roll": 0}})", "camera.roll: unknown key");
    expectError(R"({"colour": "red"})", "colour: unknown key");
}

TEST(PresetFormat, UnknownFamilyIsNamed) {
    expectError(R"({"stiffness": {"xpbd": {"bogus": 10}}})", "stiffness.xpbd.bogus: unknown family (fiber,");
    expectError(R"({"stiffness": {"pbd": {"": 0.5}}})", "stiffness.pbd.: unknown family");
}

TEST(PresetFormat, OutOfRangeAndHugeNumbersAreRefused) {
    expectError(R"({"params": {"iterations": 0}})", "params.iterations=0 out of range");
    expectError(R"({"params": {"iterations": 1e300}})", "params.iterations=1e+300 out of range");
    expectError(R"({"params": {"damping": -1e-300}})", "params.damping");
    expectError(R"({"stiffness": {"xpbd": {"fiber": -1}}})", "stiffness.xpbd.fiber: ");
    expectError(R"({"stiffness": {"xpbd": {"fiber": 1e39}}})", "stiffness.xpbd.fiber=1e+39 out of range");
    expectError(R"({"stiffness": {"pbd": {"fiber": 2}}})", "stiffness.pbd.fiber: ");
    expectError(R"({"stiffness": {"pbd": {"fiber": "inf"}}})", "stiffness.pbd.fiber: ");
    expectError(R"({"playback": {"speed": 0}})", "playback.speed=0 out of range [0.05, 8]");
    expectError(R"({"playback": {"speed": 1e308}})", "playback.speed");
    expectError(R"({"playback": {"animation": -2}})", "playback.animation=-2 out of range");
    expectError(R"({"playback": {"animation": 99999999999999999999}})", "playback.animation");
    expectError(R"({"playback": {"animation": -9223372036854775808}})", "playback.animation");
    expectError(R"({"activation": 1.5})", "activation=1.5 out of range [0, 1]");
    expectError(R"({"activation": -1e-30})", "activation");
    expectError(R"({"muscles": [{"activation": 2}]})", "muscles[0].activation=2 out of range");
    expectError(R"({"muscles": [{"overpressure": -1}]})", "muscles[0].overpressure=-1 out of range");
    expectError(R"({"overpressure": 1e30})", "overpressure=1e+30 out of range");
    expectError(R"({"error_scale": 0})", "error_scale=0 out of range [0.001, 1]");
    expectError(R"({"skin_opacity": -0.5})", "skin_opacity=-0.5 out of range [0, 3]");
    expectError(R"({"skin_opacity": 3.5})", "skin_opacity=3.5 out of range [0, 3]");
    expectError(R"({"camera": {"distance": 0}})", "camera.distance=0 out of range");
    expectError(R"({"camera": {"distance": 1e39}})", "camera.distance=1e+39 out of range");
    expectError(R"({"camera": {"pitch": 2}})", "camera.pitch=2 out of range");
    expectError(R"({"camera": {"yaw": -1e300}})", "camera.yaw");
    expectError(R"({"camera": {"target": [0, 1e300, 0]}})", "camera.target[1]=1e+300 out of range");
    // JSON has no NaN or infinity: these are not numbers at all.
    for (const char* t : {"NaN", "nan", "Infinity", "-Infinity", "inf", "1e", "--1", "0x10"})
        EXPECT_NE(parse(std::string(R"({"error_scale": )") + t + "}"), "") << t;
    // A number too large for a double (nlohmann refuses it, or it would be inf).
    EXPECT_NE(parse(R"({"error_scale": 1e400})"), "");
    EXPECT_NE(parse(R"({"camera": {"yaw": -1e400}})"), "");
}

TEST(PresetFormat, DeepNestingIsRefusedBeforeParsing) {
    EXPECT_EQ(app::jsonNestingDepth("", 64), 0);
    EXPECT_EQ(app::jsonNestingDepth("{\"a\": [1, {\"b\": []}]}", 64), 4);
    EXPECT_EQ(app::jsonNestingDepth("\"[[[[\"", 64), 0);               // inside a string
    EXPECT_EQ(app::jsonNestingDepth("[\"\\\"[[[\", [1]]", 64), 2);     // escaped quote
    EXPECT_EQ(app::jsonNestingDepth("[\"\\\\\", [[1]]]", 64), 3);      // escaped backslash ends the string
    EXPECT_EQ(app::jsonNestingDepth("]]]][", 64), 1);                  // stray closers do not go negative

    const int n = 200000;  // far past any recursion the stack could take
    for (const char* open : {"[", "{\"a\":"}) {
        std::string deep;
        for (int i = 0; i < n; ++i) deep += open;
        expectError(deep, "JSON nested deeper than 64 levels");
        expectError("{\"camera\": " + deep, "JSON nested deeper than 64 levels");
    }
    std::string ok = "{\"camera\": {\"target\": " + std::string(61, '[') + std::string(61, ']') + "}}";
    expectError(ok, "camera.target must be an array of 3 numbers");  // 63 levels: parsed, then refused
    // Brackets inside strings do not count.
    expectError("{\"colour\": \"" + std::string(1000, '[') + "\"}", "colour: unknown key");
}

TEST(PresetFormat, NonObjectRootAndInvalidJsonAreRefused) {
    for (const char* t : {"[]", "3", "null", "true", "\"preset\"", "[{\"solver\": \"sst\"}]"})
        expectError(t, "a preset is a JSON object");
    for (const char* t : {"", " ", "{", "{\"solver\": }", "{\"solver\" \"sst\"}", "{} {}", "\xff\xfe"})
        expectError(t, "not valid JSON");
    expectError(std::string("{\"solver\": \"s\0t\"}", 17), "not valid JSON");  // raw NUL in a string
}

TEST(PresetFormat, FilesMustBeRegularAndSmall) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(testing::TempDir()) / "msxpbd-preset-format";
    fs::create_directories(dir);
    std::string text;
    std::string e = app::readPresetFile((dir / "missing.json").string(), text);
    EXPECT_NE(e.find("missing.json: cannot read preset"), std::string::npos) << e;
    e = app::readPresetFile(dir.string(), text);
    EXPECT_NE(e.find("not a regular file"), std::string::npos) << e;
    const fs::path big = dir / "big.json";
    {
        std::ofstream f(big);
        f << "{\"colour\": \"" << std::string(app::preset_limits::kMaxBytes, 'x') << "\"}";
    }
    e = app::readPresetFile(big.string(), text);
    EXPECT_NE(e.find("big.json: preset too large"), std::string::npos) << e;
    const fs::path small = dir / "small.json";
    {
        std::ofstream f(small);
        f << "{\"bones\": false}";
    }
    ASSERT_EQ(app::readPresetFile(small.string(), text), "");
    EXPECT_EQ(text, "{\"bones\": false}");
    PresetData d;
    EXPECT_EQ(app::parsePresetText(text, small.string(), d), "");
    EXPECT_EQ(d.bones, false);
    fs::remove_all(dir);
}

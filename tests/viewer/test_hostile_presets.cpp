// Presets from hostile hands (issue 30, section 4), through `msxpbd view`
// (under xvfb-run): refused with one line naming the file and the problem,
// exit code 1; the text they quote printed with its controls escaped.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../app/test_helpers.h"

namespace fs = std::filesystem;

namespace {

using test::contains;
using test::noControlCharacters;

void writeText(const fs::path& p, const std::string& s) {
    std::ofstream f(p, std::ios::binary);
    f.write(s.data(), std::streamsize(s.size()));
}

// `view` with a preset for one frame: the screenshot is not written when the
// preset is refused.
test::CliResult viewWithPreset(const std::string& preset_text) {
    const fs::path preset = test::tempPath("hostile_preset.json"), shot = test::tempPath("hostile_preset.png");
    writeText(preset, preset_text);
    auto r = test::runCli("view --scene builtin:t1 --frames 1 --width 160 --height 120 --screenshot " + shot.string() +
                          " --preset " + preset.string());
    std::error_code ec;
    fs::remove(preset, ec);
    fs::remove(shot, ec);
    return r;
}

// A key holding "\n" could forge an `error:` line; ESC [2J cleared the terminal.
TEST(HostilePresets, KeysArePrintedWithControlsEscaped) {
    auto c = viewWithPreset(nlohmann::json{{"x\x1b[2J\nerror: forged\r", 1}}.dump());
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(noControlCharacters(c.output));
    EXPECT_TRUE(contains(c.output, "x\\x1b[2J\\nerror: forged\\r: unknown key")) << c.output;
}

}  // namespace

namespace {

// A NUL byte ends a C string, not a preset: what follows it is trailing
// garbage like any other (it was ignored, and the preset applied).
TEST(HostilePresets, ANulByteIsRefusedLikeAnyTrailingGarbage) {
    for (const std::string& text : {std::string("{\"solver\": \"jacobi\"}\0garbage", 28),
                                    std::string("{\"solver\": \"jacobi\"}\0", 21), std::string("{}\0{}", 5)}) {
        auto c = viewWithPreset(text);
        EXPECT_EQ(c.exit_code, 1) << c.output;
        EXPECT_TRUE(contains(c.output, "hostile_preset.json: not valid JSON")) << c.output;
        EXPECT_TRUE(noControlCharacters(c.output));
    }
    auto garbage = viewWithPreset("{\"solver\": \"jacobi\"} garbage");
    EXPECT_EQ(garbage.exit_code, 1) << garbage.output;
}

// Malformed JSON: one line naming the file and the position, not the JSON
// library's exception text ("[json.exception.parse_error.101] ...").
TEST(HostilePresets, MalformedJsonIsOneLineWithThePosition) {
    auto c = viewWithPreset("{\n  \"solver\": \"sst\",\n  oops\n}");
    EXPECT_EQ(c.exit_code, 1) << c.output;
    EXPECT_TRUE(contains(c.output, "hostile_preset.json: not valid JSON at line 3, column 3")) << c.output;
    EXPECT_FALSE(contains(c.output, "json.exception")) << c.output;
    EXPECT_FALSE(contains(c.output, "parse_error")) << c.output;
}

}  // namespace

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

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

::testing::AssertionResult noControlCharacters(const std::string& out) {
    for (size_t i = 0; i < out.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(out[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return ::testing::AssertionFailure() << "control byte " << int(c) << " at " << i << " in: " << out;
    }
    return ::testing::AssertionSuccess();
}

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

// `msxpbd view` options: the render-rate cap is range-checked like the others.
#include <gtest/gtest.h>

#include "app/viewer/view_options.h"

namespace {

TEST(ViewOptions, MaxFpsIsParsedAndRangeChecked) {
    app::viewer::ViewOptions o;
    bool help = false;
    EXPECT_EQ(o.max_fps, 60) << "default cap";
    ASSERT_EQ(app::viewer::parseViewOptions({"--max-fps", "0"}, o, help), "");
    EXPECT_EQ(o.max_fps, 0);
    ASSERT_EQ(app::viewer::parseViewOptions({"--max-fps", "144"}, o, help), "");
    EXPECT_EQ(o.max_fps, 144);
    for (const char* bad : {"-1", "1001", "fast"}) {
        const std::string e = app::viewer::parseViewOptions({"--max-fps", bad}, o, help);
        EXPECT_NE(e.find("--max-fps"), std::string::npos) << bad << ": " << e;
        EXPECT_NE(e.find("0..1000"), std::string::npos) << e;
    }
    EXPECT_NE(app::viewer::parseViewOptions({"--max-fps"}, o, help), "");
}

// Output files are checked before the run, not after minutes of it.
TEST(ViewOptions, OutputPathsAreCheckedBeforeTheRun) {
    app::viewer::ViewOptions o;
    bool help = false;
    std::string e = app::viewer::parseViewOptions({"--frames", "2", "--screenshot", "/nonexistent/s.png"}, o, help);
    EXPECT_NE(e.find("/nonexistent does not exist"), std::string::npos) << e;
    app::viewer::ViewOptions o2, o3;
    e = app::viewer::parseViewOptions({"--frames", "2", "--json", "/tmp"}, o2, help);
    EXPECT_NE(e.find("is a directory"), std::string::npos) << e;
    EXPECT_EQ(app::viewer::parseViewOptions({"--frames", "2", "--json", "-"}, o3, help), "");
}

// --realtime paces a headless run as the window paces itself; a window
// always steps in real time, so without --frames it is refused.
TEST(ViewOptions, RealtimeNeedsFrames) {
    app::viewer::ViewOptions o, o2;
    bool help = false;
    EXPECT_FALSE(o.realtime);
    ASSERT_EQ(app::viewer::parseViewOptions({"--frames", "3", "--realtime"}, o, help), "");
    EXPECT_TRUE(o.realtime);
    const std::string e = app::viewer::parseViewOptions({"--realtime"}, o2, help);
    EXPECT_NE(e.find("--realtime needs --frames"), std::string::npos) << e;
}

}  // namespace

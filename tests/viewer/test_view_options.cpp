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

}  // namespace

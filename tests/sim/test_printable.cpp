// sim::printable: text from a file made safe to print in a message.
#include <gtest/gtest.h>

#include "sim/printable.h"

TEST(Printable, EscapesControlsAndKeepsText) {
    EXPECT_EQ(sim::printable("biceps brachii"), "biceps brachii");
    EXPECT_EQ(sim::printable("a\nerror: b"), "a\\nerror: b");
    EXPECT_EQ(sim::printable("\x1b[2J"), "\\x1b[2J");
    EXPECT_EQ(sim::printable(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(sim::printable("\t\r\x7f"), "\\t\\r\\x7f");
    EXPECT_EQ(sim::printable("back\\slash"), "back\\\\slash");
    EXPECT_EQ(sim::printable("Muskel \xc3\xa4 \xe2\x80\x94"), "Muskel \xc3\xa4 \xe2\x80\x94");  // UTF-8 kept
    EXPECT_EQ(sim::printable("\xc2\x9b" "2J"), "\\u009b2J");  // C1 CSI
    EXPECT_EQ(sim::printable("\xff\xc3"), "\\xff\\xc3");        // not UTF-8
    EXPECT_EQ(sim::printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

// Text from a file (node, mesh, material, animation names, JSON keys and
// strings, paths) made safe to print in a message: a scene must not be able to
// forge an `error:` line or drive the terminal (clear it, move the cursor).
#pragma once

#include <string>
#include <string_view>

namespace sim {

// `text` with every control character escaped as C would write it: newline →
// "\n", tab → "\t", carriage return → "\r", ESC → "\x1b", DEL → "\x7f"; a
// backslash is doubled (so the escapes are unambiguous); a C1 control
// (U+0080..U+009F) → "\u009b"; a byte that is not valid UTF-8 → "\xNN". Valid
// UTF-8 text without controls comes back unchanged.
std::string printable(std::string_view text);

}  // namespace sim

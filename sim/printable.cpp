#include "sim/printable.h"

namespace sim {

namespace {

void hexByte(std::string& out, const char* prefix, unsigned v, int digits) {
    static const char* kHex = "0123456789abcdef";
    out += prefix;
    for (int d = digits - 1; d >= 0; --d) out.push_back(kHex[(v >> (4 * d)) & 0xF]);
}

// Length of the valid UTF-8 sequence starting at s[i] (0: not valid), and its
// code point.
size_t utf8Sequence(std::string_view s, size_t i, unsigned& cp) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned c = b(i);
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7F) {
            if (c == '\\') out += "\\\\";
            else out.push_back(char(c));
            ++i;
            continue;
        }
        if (c < 0x80) {  // C0 controls and DEL
            switch (c) {
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                default: hexByte(out, "\\x", c, 2); break;
            }
            ++i;
            continue;
        }
        unsigned cp = 0;
        const size_t n = utf8Sequence(text, i, cp);
        if (n == 0) {
            hexByte(out, "\\x", c, 2);
            ++i;
        } else if (cp >= 0x80 && cp <= 0x9F) {
            hexByte(out, "\\u", cp, 4);
            i += n;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace sim

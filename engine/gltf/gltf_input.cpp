#include "engine/gltf/gltf_input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/printable.h"

namespace engine::gltf_input {

namespace fs = std::filesystem;

namespace {

const char* kindOf(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

std::string readRegularFile(const std::string& path, uint64_t max_bytes, std::vector<uint8_t>& out) {
    out.clear();
    // stat first: open() of a FIFO would wait for a writer (O_NONBLOCK below
    // covers a file swapped for one in between; fstat decides).
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::string("cannot open file: ") + std::strerror(errno);
    if (!S_ISREG(st.st_mode)) return std::string("is ") + kindOf(st.st_mode) + ", not a regular file";
    Fd f;
    f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (f.fd < 0) return std::string("cannot open file: ") + std::strerror(errno);
    if (::fstat(f.fd, &st) != 0) return std::string("cannot stat file: ") + std::strerror(errno);
    if (!S_ISREG(st.st_mode)) return std::string("is ") + kindOf(st.st_mode) + ", not a regular file";
    if (st.st_size < 0 || uint64_t(st.st_size) > max_bytes)
        return "is larger than the limit of " + std::to_string(max_bytes >> 20) + " MiB";
    out.resize(size_t(st.st_size));
    size_t got = 0;
    while (got < out.size()) {
        ssize_t n = ::read(f.fd, out.data() + got, out.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            out.clear();
            return std::string("read error: ") + std::strerror(errno);
        }
        if (n == 0) break;  // shrank while reading
        got += size_t(n);
    }
    out.resize(got);
    // Grew while reading: refuse rather than read past the size checked.
    uint8_t extra;
    ssize_t n = ::read(f.fd, &extra, 1);
    if (n > 0) {
        out.clear();
        return "changed size while being read";
    }
    return {};
}

JsonScan scanJson(std::string_view text, int depth_limit) {
    JsonScan r;
    r.values = 1;
    int depth = 0;
    bool in_string = false, escape = false;
    for (char ch : text) {
        if (in_string) {
            if (escape) escape = false;
            else if (ch == '\\') escape = true;
            else if (ch == '"') in_string = false;
            continue;
        }
        switch (ch) {
            case '"': in_string = true; break;
            case '[':
            case '{':
                ++r.values;
                if (++depth > r.max_depth) r.max_depth = depth;
                if (depth > depth_limit) return r;
                break;
            case ']':
            case '}':
                if (depth > 0) --depth;  // unbalanced: the parser reports it
                break;
            case ',': ++r.values; break;
            default: break;
        }
    }
    return r;
}

std::string checkJsonBounds(std::string_view text) {
    using namespace gltf_limits;
    JsonScan s = scanJson(text);
    if (s.max_depth > kMaxJsonDepth)
        return "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    if (s.values > kMaxJsonValues)
        return "JSON has more than " + std::to_string(kMaxJsonValues) + " values";
    return {};
}

namespace {

std::string jsonError(std::string_view text, size_t at, const std::string& what) {
    at = std::min(at, text.size());
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return sim::printable("not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                          (what.empty() ? "" : ": " + what));
}

}  // namespace

std::string parseJson(std::string_view text, nlohmann::json& out) {
    out = nlohmann::json();
    if (size_t nul = text.find('\0'); nul != std::string_view::npos)
        return jsonError(text, nul, "a NUL byte (trailing garbage)");
    try {
        out = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // "[json.exception.parse_error.101] parse error at line 1, column 5:
        // syntax error while parsing value - invalid literal; last read: 'x'":
        // the cause after " - " (else after the position), the position ours.
        std::string what = e.what();
        if (size_t dash = what.find(" - "); dash != std::string::npos) what = what.substr(dash + 3);
        else if (size_t colon = what.find(": ", what.find("column")); colon != std::string::npos) what = what.substr(colon + 2);
        out = nlohmann::json();
        return jsonError(text, e.byte > 0 ? size_t(e.byte - 1) : 0, what);
    } catch (const nlohmann::json::exception&) {
        out = nlohmann::json();
        return jsonError(text, text.size(), "");
    }
    return {};
}

bool percentDecode(std::string_view uri, std::string& out) {
    auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    out.clear();
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] != '%') {
            out.push_back(uri[i]);
            continue;
        }
        if (i + 2 >= uri.size()) return false;
        const int h = hex(uri[i + 1]), l = hex(uri[i + 2]);
        if (h < 0 || l < 0) return false;
        out.push_back(char(h * 16 + l));
        i += 2;
    }
    return true;
}

std::string resolveInFolder(const std::string& folder, const std::string& uri, std::string& resolved) {
    resolved.clear();
    std::string rel;
    if (!percentDecode(uri, rel)) return "has a malformed percent escape";
    if (rel.empty()) return "is empty";
    if (rel.find('\0') != std::string::npos) return "contains a NUL character";
    if (rel.find('\\') != std::string::npos) return "contains a backslash";
    if (rel[0] == '/') return "is an absolute path";
    if (rel.size() >= 2 && rel[1] == ':') return "starts with a drive letter or scheme";
    if (rel.find("://") != std::string::npos) return "is not a relative file path";
    for (const auto& part : fs::path(rel))
        if (part == "..") return "has a '..' component (files outside the scene's folder are not read)";
    // From here on the answer depends on the file system: one message for
    // every refusal, so that a symlink in the folder cannot tell whether a
    // path outside exists, is a folder, a FIFO or unreadable. Every symlink is
    // resolved (fs::canonical: the file must exist); weakly_canonical left a
    // dangling link unresolved, so a missing target outside read as "inside".
    const std::string refused = kNotAFileInTheFolder;
    std::error_code ec;
    fs::path dir = fs::canonical(fs::path(folder.empty() ? "." : folder), ec);
    if (ec) return refused;
    const fs::path full = fs::canonical(dir / rel, ec);
    if (ec) return refused;
    // Inside the folder: the folder's components are a proper prefix.
    auto d = dir.begin(), f = full.begin();
    for (; d != dir.end(); ++d, ++f)
        if (f == full.end() || *d != *f) return refused;
    if (f == full.end()) return refused;  // the folder itself
    resolved = full.string();
    return {};
}

}  // namespace engine::gltf_input

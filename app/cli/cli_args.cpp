#include "app/cli/cli_args.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace app {

CliArgs::CliArgs(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                 const std::vector<std::string>& switches) {
    auto known = [](const std::vector<std::string>& v, const std::string& s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    for (size_t i = 0; i < args.size(); ++i) {
        std::string a = args[i];
        // -h is --help in every command that has one (the short form users try first).
        if (a == "-h" && known(switches, "--help")) a = "--help";
        std::string value;
        bool inline_value = false;
        if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = a.substr(eq + 1);
            a = a.substr(0, eq);
            inline_value = true;
        }
        if (known(switches, a) && !inline_value) {
            switches_[a]++;
        } else if (known(valued, a)) {
            if (!inline_value) {
                if (i + 1 >= args.size()) throw CliError("option " + a + " needs a value");
                value = args[++i];
            }
            values_[a].push_back(value);
        } else {
            std::ostringstream os;
            os << "unknown option '" << args[i] << "'; valid options:";
            for (const auto& v : valued) os << " " << v;
            for (const auto& s : switches) os << " " << s;
            throw CliError(os.str());
        }
    }
}

std::optional<std::string> CliArgs::get(const std::string& flag) const {
    auto it = values_.find(flag);
    if (it == values_.end()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> CliArgs::getAll(const std::string& flag) const {
    auto it = values_.find(flag);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::vector<std::string> CliArgs::list(const std::string& flag) const {
    std::vector<std::string> out;
    for (const auto& v : getAll(flag)) {
        std::stringstream ss(v);
        std::string item;
        while (std::getline(ss, item, ','))
            if (!item.empty()) out.push_back(item);
    }
    return out;
}

long long parseInteger(const std::string& flag, const std::string& text, long long lo, long long hi) {
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || errno || *end)
        throw CliError(flag + ": '" + text + "' is not an integer (valid range " + std::to_string(lo) + ".." +
                       std::to_string(hi) + ")");
    if (v < lo || v > hi)
        throw CliError(flag + "=" + text + " is out of range (valid range " + std::to_string(lo) + ".." +
                       std::to_string(hi) + ")");
    return v;
}

double parseNumber(const std::string& flag, const std::string& text, double lo, double hi) {
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    std::ostringstream range;
    range << "[" << lo << ", " << hi << "]";
    if (text.empty() || errno || *end || std::isnan(v))
        throw CliError(flag + ": '" + text + "' is not a number (valid range " + range.str() + ")");
    if (v < lo || v > hi) throw CliError(flag + "=" + text + " is out of range (valid range " + range.str() + ")");
    return v;
}

void checkOutputPath(const std::string& flag, const std::string& path) {
    namespace fs = std::filesystem;
    if (path == "-") return;
    if (path.empty()) throw CliError(flag + ": empty path");
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) throw CliError(flag + " " + path + ": is a directory, not a file");
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec)) throw CliError(flag + " " + path + ": the folder " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0) throw CliError(flag + " " + path + ": the folder " + dir.string() + " is not writable");
}

long long CliArgs::integer(const std::string& flag, long long def, long long lo, long long hi) const {
    auto v = get(flag);
    return v ? parseInteger(flag, *v, lo, hi) : def;
}

double CliArgs::number(const std::string& flag, double def, double lo, double hi) const {
    auto v = get(flag);
    return v ? parseNumber(flag, *v, lo, hi) : def;
}

}  // namespace app

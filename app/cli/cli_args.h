// A small command-line parser shared by the subcommands: `--flag value`
// pairs, repeatable flags, and clear errors for unknown flags, missing values
// and out-of-range numbers.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace app {

// A subcommand's arguments: what follows its name on the command line.
using Args = std::vector<std::string>;

struct CliError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CliArgs {
public:
    // `valued`: flags that take a value; `switches`: flags without one.
    CliArgs(const std::vector<std::string>& args, const std::vector<std::string>& valued,
            const std::vector<std::string>& switches = {});

    bool has(const std::string& flag) const { return values_.count(flag) > 0; }
    std::optional<std::string> get(const std::string& flag) const;
    std::vector<std::string> getAll(const std::string& flag) const;
    std::vector<std::string> list(const std::string& flag) const;  // comma-separated values
    bool flag(const std::string& sw) const { return switches_.count(sw) > 0; }

    // Numbers with a range check; the message names the flag and the range.
    long long integer(const std::string& flag, long long def, long long lo, long long hi) const;
    double number(const std::string& flag, double def, double lo, double hi) const;

private:
    std::map<std::string, std::vector<std::string>> values_;
    std::map<std::string, int> switches_;
};

long long parseInteger(const std::string& flag, const std::string& text, long long lo, long long hi);
// An output file the command will write at its end: refused before any work
// when its folder does not exist or is not writable, or it names a folder
// ("-" is standard output and always fine). Throws CliError naming the flag.
void checkOutputPath(const std::string& flag, const std::string& path);
double parseNumber(const std::string& flag, const std::string& text, double lo, double hi);

}  // namespace app

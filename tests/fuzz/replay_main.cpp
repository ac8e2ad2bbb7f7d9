// Replays a fuzz corpus without libFuzzer: calls the harness's
// LLVMFuzzerTestOneInput on every regular file of each directory (or file)
// given, in name order. Linked with a harness source by any compiler, it is the
// CTest corpus replay of the normal build (tests/fuzz/CMakeLists.txt); a crash
// fails the test, and the last line printed names the input. Exit 1 when
// nothing was replayed (a wrong path).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto& entry : fs::directory_iterator(arg, ec))
                if (entry.is_regular_file()) files.push_back(entry.path());
        } else if (fs::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
            return 1;
        }
    }
    std::sort(files.begin(), files.end());
    size_t bytes = 0;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // Flushed before the call: after a crash, the last line names the input.
        std::printf("replay: %s (%zu bytes)\n", f.string().c_str(), data.size());
        std::fflush(stdout);
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
        bytes += data.size();
    }
    std::printf("replay: %zu inputs, %zu bytes, no crash\n", files.size(), bytes);
    return files.empty() ? 1 : 0;
}

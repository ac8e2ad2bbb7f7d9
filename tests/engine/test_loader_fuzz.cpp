// Fuzz-style robustness: mutated bytes of a real asset (fixed seed) must give
// a clean error or a successful load, never a crash, a hang or an exception.
// Run it under AddressSanitizer with a -DMSXPBD_SANITIZE=address build
// (docs/scene-format.md, "Robustness").
#include <cstring>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "engine/gltf/gltf_loader.h"
#include "gltf_test_util.h"

using namespace engine;

namespace {

std::vector<uint8_t> asset(const char* name) {
    return gltf_test::readFile(std::filesystem::path(MSXPBD_SOURCE_DIR) / "assets" / "scenes" / name);
}

// std::mt19937 output is specified by the standard (distributions are not):
// take raw draws modulo n so every platform mutates the same bytes.
struct Rng {
    std::mt19937 g{20240611u};
    size_t below(size_t n) { return n ? size_t(g()) % n : 0; }
};

std::vector<uint8_t> mutate(const std::vector<uint8_t>& src, Rng& r, int kind) {
    std::vector<uint8_t> b = src;
    uint32_t json_len = 0;
    std::memcpy(&json_len, b.data() + 12, 4);
    const size_t json_end = std::min(b.size(), size_t(20) + json_len);
    switch (kind) {
        case 0: {  // truncate anywhere
            b.resize(r.below(b.size()));
            break;
        }
        case 1: {  // flip a few random bytes anywhere
            int n = 1 + int(r.below(8));
            for (int i = 0; i < n; ++i) b[r.below(b.size())] ^= uint8_t(1 + r.below(255));
            break;
        }
        case 2: {  // change a digit in the JSON (indices, counts, offsets)
            for (int tries = 0; tries < 64; ++tries) {
                size_t p = 20 + r.below(json_end - 20);
                if (b[p] >= '0' && b[p] <= '9') {
                    b[p] = uint8_t('0' + r.below(10));
                    if (r.below(3) == 0 && p + 1 < json_end) b.insert(b.begin() + long(p), uint8_t('0' + r.below(10)));
                    break;
                }
            }
            break;
        }
        case 3: {  // corrupt JSON structure: replace a byte by a JSON metacharacter
            const char meta[] = "{}[]\":,-e.0n";
            size_t p = 20 + r.below(json_end - 20);
            b[p] = uint8_t(meta[r.below(sizeof(meta) - 1)]);
            break;
        }
        case 4: {  // a header / chunk length field set to an odd value
            const size_t fields[] = {4, 8, 12, 16, json_end, json_end + 4};
            size_t f = fields[r.below(6)];
            uint32_t v = uint32_t(r.g());
            if (r.below(2)) v = uint32_t(r.below(b.size() + 64));
            if (f + 4 <= b.size()) std::memcpy(b.data() + f, &v, 4);
            break;
        }
        default: {  // drop or duplicate a slice inside the JSON chunk (lengths then disagree)
            size_t p = 20 + r.below(json_end - 20), n = 1 + r.below(16);
            n = std::min(n, json_end - p);
            if (r.below(2))
                b.erase(b.begin() + long(p), b.begin() + long(p + n));
            else
                b.insert(b.begin() + long(p), b.begin() + long(p), b.begin() + long(p + n));
            break;
        }
    }
    return b;
}

}  // namespace

TEST(LoaderFuzz, MutatedAssetsFailCleanlyOrLoad) {
    for (const char* file : {"p2-oval-cube-plane.glb", "t3-biceps-elbow.glb"}) {
        const std::vector<uint8_t> src = asset(file);
        ASSERT_GT(src.size(), 100u) << file;
        Rng r;
        int ok = 0, failed = 0;
        const int kMutations = 240;
        for (int i = 0; i < kMutations; ++i) {
            std::vector<uint8_t> m = mutate(src, r, i % 6);
            Scene s;
            std::string err;
            ASSERT_NO_THROW(err = loadGltfSceneFromMemory(m, file, ".", s)) << file << " mutation " << i;
            if (err.empty()) {
                ++ok;
                // A successful load is a usable scene: every muscle passed the checks.
                for (const auto& mu : s.desc.muscles) EXPECT_FALSE(mu.triangles.empty());
            } else {
                ++failed;
                EXPECT_EQ(err.rfind(file, 0), 0u) << "error does not name the file: " << err;
                EXPECT_TRUE(s.desc.muscles.empty());
            }
        }
        EXPECT_GT(failed, kMutations / 4) << file;  // the mutations do break things
        EXPECT_EQ(ok + failed, kMutations);
    }
}

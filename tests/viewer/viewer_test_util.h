// Helpers for the viewer tests: image statistics over a region and a
// hidden-window viewer on a scene.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/viewer/viewer.h"

namespace viewer_test {

struct Image {
    int w = 0, h = 0;
    std::vector<uint8_t> px;  // RGBA, top row first
    const uint8_t* at(int x, int y) const { return &px[(size_t(y) * size_t(w) + size_t(x)) * 4]; }
};

inline Image grab(app::viewer::Viewer& v) {
    Image im;
    im.px = v.capture(im.w, im.h);
    return im;
}

// Region in fractions of the image.
struct Region {
    float x0, y0, x1, y1;
};
constexpr Region kMiddle{0.35f, 0.3f, 0.65f, 0.7f};
constexpr Region kAll{0.0f, 0.0f, 1.0f, 1.0f};

template <class F>
void forEach(const Image& im, Region r, F f) {
    for (int y = int(r.y0 * float(im.h)); y < int(r.y1 * float(im.h)); ++y)
        for (int x = int(r.x0 * float(im.w)); x < int(r.x1 * float(im.w)); ++x) f(im.at(x, y));
}

inline double meanAbsDiff(const Image& a, const Image& b, Region r) {
    double s = 0.0;
    size_t n = 0;
    for (int y = int(r.y0 * float(a.h)); y < int(r.y1 * float(a.h)); ++y)
        for (int x = int(r.x0 * float(a.w)); x < int(r.x1 * float(a.w)); ++x) {
            const uint8_t *p = a.at(x, y), *q = b.at(x, y);
            for (int c = 0; c < 3; ++c) s += std::abs(int(p[c]) - int(q[c]));
            ++n;
        }
    return n ? s / double(3 * n) : 0.0;
}

// Pixels where some channel differs by more than `threshold`.
inline size_t changedPixels(const Image& a, const Image& b, int threshold = 24) {
    size_t n = 0;
    for (size_t i = 0; i + 3 < a.px.size() && i + 3 < b.px.size(); i += 4)
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(a.px[i + size_t(c)]) - int(b.px[i + size_t(c)])) > threshold) {
                ++n;
                break;
            }
    return n;
}

inline double stddev(const Image& im, Region r) {
    double s = 0.0, s2 = 0.0;
    size_t n = 0;
    forEach(im, r, [&](const uint8_t* p) {
        for (int c = 0; c < 3; ++c) {
            s += p[c];
            s2 += double(p[c]) * p[c];
            ++n;
        }
    });
    double m = s / double(n);
    return std::sqrt(std::max(0.0, s2 / double(n) - m * m));
}

// Muscle pixels are saturated (viridis / inferno); the background, ground,
// and bones are greys. Counts pixels with chroma above a threshold.
inline size_t saturatedPixels(const Image& im, Region r, int min_chroma = 40) {
    size_t n = 0;
    forEach(im, r, [&](const uint8_t* p) {
        int mx = std::max({p[0], p[1], p[2]}), mn = std::min({p[0], p[1], p[2]});
        if (mx - mn >= min_chroma) ++n;
    });
    return n;
}

inline std::unique_ptr<app::viewer::Viewer> openViewer(const std::string& scene, int w = 640, int h = 400) {
    app::viewer::ViewOptions o;
    o.scene = scene;
    o.width = w;
    o.height = h;
    o.hidden = true;
    o.frames = 1;  // headless pacing (no wall-clock wait)
    auto v = std::make_unique<app::viewer::Viewer>(o);
    std::string e = v->init();
    if (!e.empty()) {
        // Said here, so a test's "no viewer" failure tells why.
        std::fprintf(stderr, "openViewer(%s): %s\n", scene.c_str(), e.c_str());
        return nullptr;
    }
    return v;
}

// assets/scenes/<prefix>*.glb, or empty when not generated.
inline std::string sceneFile(const std::string& prefix) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(MSXPBD_SOURCE_DIR "/assets/scenes", ec)) {
        auto n = e.path().filename().string();
        if (n.rfind(prefix, 0) == 0 && e.path().extension() == ".glb") return e.path().string();
    }
    return {};
}

inline std::string t5Scene() { return sceneFile("t5-"); }

}  // namespace viewer_test

#include "engine/render/colormap.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace engine::render {

namespace {
constexpr glm::vec3 hex(uint32_t c) {
    return glm::vec3(float((c >> 16) & 0xff) / 255.0f, float((c >> 8) & 0xff) / 255.0f,
                     float(c & 0xff) / 255.0f);
}

// matplotlib viridis at t = 0, 0.1, ..., 1 and inferno at 10 even stops.
constexpr std::array<uint32_t, 11> kViridis = {0x440154, 0x482475, 0x414487, 0x355f8d,
                                               0x2a788e, 0x21918c, 0x22a884, 0x44bf70,
                                               0x7ad151, 0xbddf26, 0xfde725};
constexpr std::array<uint32_t, 10> kInferno = {0x000004, 0x1b0c41, 0x4a0c6b, 0x781c6d, 0xa52c60,
                                               0xcf4446, 0xed6925, 0xfb9b06, 0xf7d13d, 0xfcffa4};
// Tableau-like palette: neighbours differ in hue and lightness.
constexpr std::array<uint32_t, 12> kCategorical = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2,
                                                   0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7,
                                                   0x9c755f, 0xbab0ac, 0x1f77b4, 0x8c564b};

template <size_t N>
glm::vec3 sample(const std::array<uint32_t, N>& stops, float t) {
    t = std::clamp(t, 0.0f, 1.0f) * float(N - 1);
    size_t i = std::min(size_t(t), N - 2);
    float f = t - float(i);
    return hex(stops[i]) * (1.0f - f) + hex(stops[i + 1]) * f;
}
}  // namespace

glm::vec3 sampleColorMap(ColorMap map, float t) {
    if (!(t == t)) t = 0.0f;  // NaN shows as the low end rather than garbage
    return map == ColorMap::Viridis ? sample(kViridis, t) : sample(kInferno, t);
}

glm::vec3 categoricalColor(int i) {
    if (i < 0) return glm::vec3(0.6f);
    return hex(kCategorical[size_t(i) % kCategorical.size()]);
}

glm::vec3 driftColor(float drift) {
    if (!(drift > 0.0005f)) return glm::vec3(0.72f);
    return sampleColorMap(ColorMap::Viridis, 0.15f + 0.85f * std::min(drift / kDriftFullScale, 1.0f));
}

glm::vec3 outsideColor(float outside) {
    if (!(outside > 0.0005f)) return glm::vec3(0.72f);
    return sampleColorMap(ColorMap::Inferno, 0.25f + 0.75f * std::min(outside / kOutsideFullScale, 1.0f));
}

glm::vec3 overlapColor(float depth) {
    if (!(depth > 0.0f)) return glm::vec3(0.72f);
    return sampleColorMap(ColorMap::Inferno, 0.2f + 0.8f * std::min(depth / kOverlapFullScale, 1.0f));
}

}  // namespace engine::render

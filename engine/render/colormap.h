// Perceptual colour maps (matplotlib's viridis and inferno, sampled at even
// stops and interpolated linearly) and a categorical palette for colour groups.
#pragma once

#include <glm/vec3.hpp>

namespace engine::render {

enum class ColorMap { Viridis, Inferno };

// t is clamped to [0, 1]; returns linear-ish sRGB in [0, 1].
glm::vec3 sampleColorMap(ColorMap map, float t);
// Distinct colours for integer categories (SMT-G colours); cycles after 12.
glm::vec3 categoricalColor(int i);
// The overlap map (docs/model.md §8): `depth` m past the contact radius
// inside another muscle → light grey at 0 (outside), then inferno from a dark
// purple just past the radius to yellow at kOverlapFullScale and beyond.
constexpr float kOverlapFullScale = 0.009f;  // 3 mm, issue #11's bar, at a third
glm::vec3 overlapColor(float depth);
// The drift map (docs/model.md §8): `drift` m off the nearest other surface
// beyond the rest distance → light grey at 0, then viridis to yellow at
// kDriftFullScale (issue #31's bar for the worst vertex) and beyond.
constexpr float kDriftFullScale = 0.02f;
glm::vec3 driftColor(float drift);
// The outside map (docs/model.md §8): `outside` m outside the skin as posed
// from the file → light grey inside (and within 0.5 mm), then inferno to
// yellow at kOutsideFullScale (issue #31's bar for the worst vertex).
constexpr float kOutsideFullScale = 0.01f;
glm::vec3 outsideColor(float outside);

}  // namespace engine::render

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

}  // namespace engine::render

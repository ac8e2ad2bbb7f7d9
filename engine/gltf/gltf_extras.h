// The msxpbd extras schema (docs/scene-format.md): the keys, extras parsed
// as bounded JSON, and the typed, bounded getters every schema value is read
// through (numbers finite as 32-bit floats, vectors within the coordinate
// bound, arrays of bounded length).
#pragma once

#include <cstddef>
#include <string>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

using json = nlohmann::json;

inline constexpr const char* kMuscleKey = "msxpbd_muscle";
inline constexpr const char* kBodyKey = "msxpbd_body";
inline constexpr const char* kSceneKey = "msxpbd_scene";
// On a mesh node: the skin (or fascia) that keeps the muscles inside the
// limb (true, or {"thickness": m}); false: not one, even if translucent.
inline constexpr const char* kEnvelopeKey = "msxpbd_envelope";

json parseExtras(const std::string& s, const std::string& where);

// The value of `key` in `extras`: an object, or a string holding a JSON object
// (Blender custom properties are easiest to edit as strings).
json schemaObject(const json& extras, const char* key, const std::string& where);

double getNumber(const json& o, const char* key, double def, const std::string& where);

// A number in [lo, hi] (and, for a physical quantity with lo > 0, not denormal
// as a float: lo is far above FLT_MIN).
double getBounded(const json& o, const char* key, double def, double lo, double hi, const std::string& where);

// Three numbers, each |x| ≤ bound (default: the coordinate bound, metres).
glm::vec3 getVec3(const json& v, const std::string& where, double bound = gltf_limits::kMaxCoordinate);

// A direction: bounded components, length well above zero; returned unit.
glm::vec3 getDirection(const json& v, const std::string& where);

// An array with at most `max` entries.
void requireArrayAtMost(const json& a, size_t max, const std::string& where);

std::string getName(const json& v, const std::string& where);

}  // namespace engine::gltf_detail

// The msxpbd extras schema: extras parsed as bounded JSON and the typed,
// bounded getters for its values.
#include "engine/gltf/gltf_extras.h"

#include <cmath>

#include "engine/gltf/gltf_accessors.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

json parseExtras(const std::string& s, const std::string& where) {
    if (s.empty()) return json::object();
    if (std::string e = gltf_input::checkJsonBounds(s); !e.empty()) fail(where + ": extras: " + e);
    json j;
    if (std::string e = gltf_input::parseJson(s, j); !e.empty()) fail(where + ": extras are " + e);
    return j;
}

json schemaObject(const json& extras, const char* key, const std::string& where) {
    if (!extras.is_object() || !extras.contains(key)) return json();
    json v = extras.at(key);
    if (v.is_string()) {
        if (std::string e = gltf_input::checkJsonBounds(v.get_ref<const std::string&>()); !e.empty())
            fail(where + ": extras." + key + ": " + e);
        json p;
        if (std::string e = gltf_input::parseJson(v.get_ref<const std::string&>(), p); !e.empty())
            fail(where + ": extras." + key + " is a string but " + e);
        v = p;
    }
    if (!v.is_object()) fail(where + ": extras." + key + " must be an object");
    return v;
}

double getNumber(const json& o, const char* key, double def, const std::string& where) {
    if (!o.contains(key)) return def;
    const json& v = o.at(key);
    if (!v.is_number()) fail(where + ": '" + key + "' must be a number");
    double d = v.get<double>();
    if (!finiteFloat(d)) fail(where + ": '" + key + "' = " + fmt(d) + " must be finite (as a 32-bit float)");
    return d;
}

double getBounded(const json& o, const char* key, double def, double lo, double hi, const std::string& where) {
    const double d = getNumber(o, key, def, where);
    if (!(d >= lo && d <= hi))
        fail(where + ": '" + key + "' = " + fmt(d) + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]");
    return d;
}

glm::vec3 getVec3(const json& v, const std::string& where, double bound) {
    if (!v.is_array() || v.size() != 3) fail(where + " must be an array of 3 numbers");
    glm::vec3 r;
    for (int i = 0; i < 3; ++i) {
        if (!v[size_t(i)].is_number()) fail(where + " must be an array of 3 numbers");
        double d = v[size_t(i)].get<double>();
        if (!finiteFloat(d)) fail(where + " must be finite (as a 32-bit float), got " + fmt(d));
        if (std::fabs(d) > bound) fail(where + ": " + fmt(d) + " is out of range (|x| <= " + fmt(bound) + ")");
        r[i] = float(d);
    }
    return r;
}

glm::vec3 getDirection(const json& v, const std::string& where) {
    glm::vec3 d = getVec3(v, where);
    const float l = glm::length(d);
    if (!(l >= 1e-6f)) fail(where + " must not be zero");
    return d / l;
}

void requireArrayAtMost(const json& a, size_t max, const std::string& where) {
    if (a.is_array() && a.size() > max)
        fail(where + " has " + std::to_string(a.size()) + " entries; the limit is " + std::to_string(max));
}

std::string getName(const json& v, const std::string& where) {
    if (!v.is_string()) fail(where + " must be a string (a node name)");
    return v.get<std::string>();
}

}  // namespace engine::gltf_detail

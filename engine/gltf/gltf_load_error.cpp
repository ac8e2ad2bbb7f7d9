// The glTF loader's error and the number format of its messages.
#include "engine/gltf/gltf_load_error.h"

#include <sstream>

namespace engine::gltf_detail {

[[noreturn]] void fail(const std::string& msg) { throw LoadError(msg); }

std::string fmt(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

}  // namespace engine::gltf_detail

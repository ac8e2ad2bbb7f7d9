// The glTF loader's error: every check that refuses a file throws LoadError
// (through fail), and loadGltfSceneFromMemory turns it into the message it
// returns; fmt writes a number in such a message.
#pragma once

#include <stdexcept>
#include <string>

namespace engine::gltf_detail {

struct LoadError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& msg);

std::string fmt(double v);

}  // namespace engine::gltf_detail

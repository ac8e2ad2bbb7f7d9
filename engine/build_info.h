// What the build compiled in: the source tree (shaders/, assets/ are found
// relative to it) and the build type that every speed figure is reported
// with. Only build_info.cpp sees the values, so moving the checkout or
// changing the build type recompiles one file, not the project.
#pragma once

namespace engine {

const char* sourceDirectory();  // CMAKE_SOURCE_DIR at configure time
const char* buildType();        // CMAKE_BUILD_TYPE ("Release", "Debug", ...)
const char* version();          // the project version (CMakeLists.txt project())

}  // namespace engine

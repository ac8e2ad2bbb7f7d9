#include "engine/build_info.h"

namespace engine {

const char* sourceDirectory() { return MSXPBD_SOURCE_DIR; }
const char* buildType() { return MSXPBD_BUILD_TYPE; }
const char* version() { return MSXPBD_VERSION; }

}  // namespace engine

// The glTF loader's input guards: every bound it applies (docs/scene-format.md,
// "Limits"), reading a scene or buffer file only when it is a regular file of
// bounded size, resolving a buffer URI strictly inside the scene's folder, and
// a non-recursive scan of JSON text for its nesting depth and value count
// (run before any recursive parser sees the text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace engine::gltf_limits {

// Files.
constexpr uint64_t kMaxFileBytes = uint64_t(512) << 20;          // a scene file, and each external buffer
constexpr uint64_t kMaxExternalBytes = uint64_t(512) << 20;      // all external buffers of one scene together
// JSON (the .gltf text or the .glb JSON chunk, and extras strings holding JSON).
constexpr int kMaxJsonDepth = 64;
constexpr uint64_t kMaxJsonValues = 1'000'000;  // arrays + objects + commas: an upper bound on values
// glTF objects (each costs a few hundred bytes in the parser however short its JSON).
constexpr size_t kMaxNodes = 65536;
constexpr size_t kMaxAccessors = 65536;
constexpr size_t kMaxBufferViews = 65536;
constexpr size_t kMaxBuffers = 1024;
constexpr size_t kMaxMeshes = 16384;
constexpr size_t kMaxPrimitives = 65536;         // all meshes together
constexpr size_t kMaxAnimations = 4096;
constexpr size_t kMaxChannels = 65536;           // all animations together (samplers likewise)
constexpr size_t kMaxOtherObjects = 4096;        // materials, textures, images, samplers, skins, scenes, cameras
constexpr size_t kMaxInfluenceSets = 16;         // JOINTS_n/WEIGHTS_n pairs per primitive (64 influences)
constexpr size_t kMaxMorphTargets = 256;         // morph targets per primitive
constexpr int kMaxTextureSize = 16384;           // texels along either side of a decoded image
// Decoded data: every accessor read (each time it is read) and every array
// sized from the file counts against this budget, in bytes as stored
// decoded (8-byte doubles per component while decoding).
constexpr uint64_t kDecodedBudgetBase = uint64_t(64) << 20;
constexpr uint64_t kDecodedBudgetPerInputByte = 16;
constexpr uint64_t kMaxAccessorElements = uint64_t(1) << 24;
// The simulation built from the scene: an accessor may be read by many nodes
// (1,024 muscles sharing one mesh), so what the solver will allocate is
// bounded on its own. Measured: 1.5 kB per particle on T7 in the heaviest
// solver mode (hybrid); 4 kB per muscle vertex and 1 kB per bone triangle
// (contact grid entries) leave room for meshes whose internal structure is
// richer. With the decoded budget, the peak stays under 64 × the input's size
// + 256 MB (docs/scene-format.md, "Limits").
constexpr uint64_t kSimBudgetBase = uint64_t(160) << 20;
constexpr uint64_t kSimBudgetPerInputByte = 40;
constexpr uint64_t kSimBytesPerMuscleVertex = 4096;
constexpr uint64_t kSimBytesPerBoneTriangle = 1024;
// msxpbd extras.
constexpr size_t kMaxMuscles = 1024;
constexpr size_t kMaxBodies = 1024;
constexpr size_t kMaxPlanes = 16;
constexpr size_t kMaxTargetsPerMuscle = 64;      // 'contacts' and 'sliding', each
constexpr size_t kMaxRootSets = 16;              // 'origins' / 'insertions' sets per muscle
constexpr size_t kMaxAttachmentEntries = 1024;   // 'attachments' entries per muscle
constexpr size_t kMaxSensorsPerMuscle = 16;
// Values (checked as the float they become).
constexpr double kMaxCoordinate = 1e4;           // m: positions, translations, capsule ends, plane origins
constexpr double kMaxRadius = 100.0;             // m: capsule and vertex-set radii
constexpr double kMaxSlidingRadius = 1.0;        // m
constexpr double kMinScale = 1e-4, kMaxScale = 1e4;   // each node scale factor, |s|
constexpr double kMinDeterminant = 1e-12;        // |det| of a node's 3×3 (matrix or TRS)
constexpr double kQuaternionTolerance = 0.1;     // | |q| − 1 | for rotations (normalised when within)
constexpr double kMinDensity = 1.0, kMaxDensity = 1e5;          // kg/m³
// stiffness: sim::stiffnessRange (shared with the command line and presets)
constexpr double kMaxSensorGain = 1e6;
constexpr double kMaxAngle = 100.0;              // rad: sensor angle_offset
constexpr double kMaxKeyTime = 1e6;              // s: animation key times

}  // namespace engine::gltf_limits

namespace engine::gltf_input {

// Reads `path` when it is a regular file (after following symlinks) of at most
// `max_bytes`. Never blocks on a FIFO or device. On failure returns a cause
// without the path ("is a FIFO, not a regular file", "is larger than …").
std::string readRegularFile(const std::string& path, uint64_t max_bytes, std::vector<uint8_t>& out);

struct JsonScan {
    int max_depth = 0;
    uint64_t values = 0;  // '[' + '{' + ',' outside strings, + 1
};
// One pass over JSON text, string-aware, no recursion. Stops early once
// `depth_limit` is exceeded (the result then reports depth_limit + 1).
JsonScan scanJson(std::string_view text, int depth_limit = gltf_limits::kMaxJsonDepth);
// Empty when `text` is within the depth and value limits; else the cause.
std::string checkJsonBounds(std::string_view text);

// Parses JSON text as a whole (call checkJsonBounds first): "" and `out`, or
// one clean line, "not valid JSON at line L, column C: <what>", never the
// library's exception text. A NUL byte is refused where it stands, like any
// other trailing garbage (nlohmann's lexer took it for the end of the input,
// so "{}\0garbage" parsed).
std::string parseJson(std::string_view text, nlohmann::json& out);

// Percent-decodes a URI (%XX; '+' is kept). Returns false on a malformed escape.
bool percentDecode(std::string_view uri, std::string& out);

// Resolves a buffer or image URI (not a data: URI) against the scene's folder.
// The decoded URI must be relative, without backslashes, drive letters or `..`
// components (each refused with its own cause), and the resolved file (every
// symlink followed) must exist and lie inside the folder (also resolved). On
// success `resolved` is the file's path, free of symlinks; else the cause. A
// refusal that depends on the file system is always kNotAFileInTheFolder,
// whether the path is missing, outside the folder, a loop or unreadable: a
// scene cannot probe what exists outside its folder.
constexpr const char* kNotAFileInTheFolder =
    "names no file inside the scene's folder (missing, or outside the scene's folder through a symlink)";
std::string resolveInFolder(const std::string& folder, const std::string& uri, std::string& resolved);

}  // namespace engine::gltf_input

// File access for tinygltf: the pre-flight pass over the JSON (object caps,
// required extensions, every buffer URI resolved inside the scene's folder),
// the FsCallbacks through which tinygltf reads only those buffers, and the
// image callback that keeps image bytes for the converter.
//
// tinygltf 2.7 reads external buffers and images through FsCallbacks, looking
// for `JoinPath(base_dir, urldecode(uri))` and then `./` + the same. The
// pre-flight pass resolves every buffer URI itself (strictly inside the
// scene's folder, gltf_input::resolveInFolder) and lists them in the order
// tinygltf asks for them (buffers are parsed before images); the callbacks
// then answer only the next expected buffer and nothing else, so image files
// and anything outside the folder are never opened.

#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <tiny_gltf.h>

namespace engine::gltf_detail {

struct ExternalFiles {
    struct File {
        std::string key, path, label;
    };
    std::vector<File> files;  // external buffers, in buffer order
    size_t next = 0;
    uint64_t bytes_read = 0;
    std::string error;  // the first refusal, reported instead of tinygltf's message
};

bool fsFileExists(const std::string& abs, void* user);
std::string fsExpandFilePath(const std::string& path, void*);  // no ~ or $VAR expansion
bool fsReadWholeFile(std::vector<unsigned char>* out, std::string* err, const std::string& abs, void* user);
bool fsWriteWholeFile(std::string* err, const std::string&, const std::vector<unsigned char>&, void*);

// Before tinygltf sees the JSON (whose depth is already bounded): caps on the
// number of glTF objects, required extensions, and every buffer URI resolved.
std::string preflight(std::string_view text, const std::string& base_dir, ExternalFiles& ext);

// tinygltf hands over the bytes of a data: URI image (decoded from base64)
// and of a bufferView image; they are kept as they are (decoded later, only
// when a drawn material uses them). A bufferView image is read by the
// converter itself through its validated view: tinygltf 2.7 passes
// `&buffer.data[byteOffset]` with the view's length unchecked.
bool keepImageBytes(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                    const unsigned char* bytes, int size, void*);

// The folder of a file path ("." for a bare name).
std::string baseDirOf(const std::string& path);

}  // namespace engine::gltf_detail

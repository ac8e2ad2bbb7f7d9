// glTF accessors read into doubles: every index, offset, stride and count is
// checked against its buffer view and buffer before a byte is read, sparse
// accessors are applied, and every decoded array is charged to the per-file
// budget first.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <tiny_gltf.h>

#include "engine/gltf/gltf_load_error.h"

namespace engine::gltf_detail {

// The per-file budget of decoded bytes (docs/scene-format.md, "Limits"):
// charged before each allocation sized from the file, never refunded, so a
// sampler shared by many channels is counted each time it is read.
struct Budget {
    uint64_t total = 0, left = 0;
    void charge(uint64_t bytes, const std::string& where) {
        if (bytes > left)
            fail(where + ": decoded data would exceed the file's budget of " + std::to_string(total >> 20) +
                 " MiB (64 MiB + 16 bytes per byte of input; docs/scene-format.md, Limits)");
        left -= bytes;
    }
};

// A number as the float it becomes: finite after conversion.
inline bool finiteFloat(double d) { return std::isfinite(d) && std::isfinite(float(d)); }

// Bytes [offset, offset + length) of a buffer view, validated.
const unsigned char* viewBytes(const tinygltf::Model& m, int view_index, const std::string& where,
                               size_t* length);

struct AccessorData {
    std::vector<double> v;  // count × comps
    size_t count = 0;
    int comps = 0;
    int component_type = 0;
};

AccessorData readAccessor(const tinygltf::Model& m, int index, const std::string& what, Budget& budget);

void requireComps(const AccessorData& d, int comps, const std::string& what);

}  // namespace engine::gltf_detail

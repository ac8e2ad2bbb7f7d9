// glTF accessors: component types and sizes, buffer views checked against
// their buffers, and accessors (sparse ones included) read into doubles
// within the per-file budget.
#include "engine/gltf/gltf_accessors.h"

#include <algorithm>
#include <cstring>

#include "engine/gltf/gltf_input.h"

namespace engine::gltf_detail {

namespace lim = gltf_limits;

namespace {

int componentSize(int ct) {
    switch (ct) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
        default: return 0;
    }
}

int componentCount(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return 1;
        case TINYGLTF_TYPE_VEC2: return 2;
        case TINYGLTF_TYPE_VEC3: return 3;
        case TINYGLTF_TYPE_VEC4: return 4;
        case TINYGLTF_TYPE_MAT2: return 4;
        case TINYGLTF_TYPE_MAT3: return 9;
        case TINYGLTF_TYPE_MAT4: return 16;
        default: return 0;
    }
}

double readComponent(const unsigned char* p, int ct, bool normalized) {
    switch (ct) {
        case TINYGLTF_COMPONENT_TYPE_FLOAT: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            int8_t v;
            std::memcpy(&v, p, 1);
            return normalized ? std::max(double(v) / 127.0, -1.0) : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : double(p[0]);
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? std::max(double(v) / 32767.0, -1.0) : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? v / 65535.0 : double(v);
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return normalized ? v / 4294967295.0 : double(v);
        }
        default: return 0.0;
    }
}

}  // namespace

const unsigned char* viewBytes(const tinygltf::Model& m, int view_index, const std::string& where,
                               size_t* length) {
    if (view_index < 0 || size_t(view_index) >= m.bufferViews.size())
        fail(where + ": bufferView " + std::to_string(view_index) + " out of range (" +
             std::to_string(m.bufferViews.size()) + " buffer views)");
    const tinygltf::BufferView& v = m.bufferViews[size_t(view_index)];
    const std::string vw = "bufferView " + std::to_string(view_index);
    if (v.buffer < 0 || size_t(v.buffer) >= m.buffers.size())
        fail(where + ": " + vw + " refers to buffer " + std::to_string(v.buffer) + " out of range");
    const auto& data = m.buffers[size_t(v.buffer)].data;
    if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
        fail(where + ": " + vw + " (offset " + std::to_string(v.byteOffset) + ", length " +
             std::to_string(v.byteLength) + ") exceeds buffer " + std::to_string(v.buffer) + " (" +
             std::to_string(data.size()) + " bytes)");
    *length = v.byteLength;
    return data.data() + v.byteOffset;
}

AccessorData readAccessor(const tinygltf::Model& m, int index, const std::string& what, Budget& budget) {
    if (index < 0 || size_t(index) >= m.accessors.size())
        fail(what + ": accessor " + std::to_string(index) + " out of range (" + std::to_string(m.accessors.size()) +
             " accessors)");
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const std::string where = what + ": accessor " + std::to_string(index);
    const int cs = componentSize(a.componentType);
    const int nc = componentCount(a.type);
    if (cs == 0) fail(where + ": invalid componentType " + std::to_string(a.componentType));
    if (nc == 0) fail(where + ": invalid type");
    if (nc > 4 && cs < 4) fail(where + ": matrices of 8/16-bit components are not supported");
    if (a.count > lim::kMaxAccessorElements)
        fail(where + ": count " + std::to_string(a.count) + " exceeds the limit of " +
             std::to_string(lim::kMaxAccessorElements) + " elements");
    // Every byte range is checked (64-bit: count ≤ 2^24, stride < 2^31)
    // before anything is allocated.
    const uint64_t elem = uint64_t(cs) * uint64_t(nc);
    const unsigned char* base = nullptr;
    size_t stride = size_t(elem);
    if (a.bufferView >= 0) {
        size_t len = 0;
        base = viewBytes(m, a.bufferView, where, &len);
        const tinygltf::BufferView& view = m.bufferViews[size_t(a.bufferView)];
        int stride_i = a.ByteStride(view);
        if (stride_i <= 0) fail(where + ": invalid byteStride " + std::to_string(view.byteStride));
        stride = size_t(stride_i);
        if (stride < elem) fail(where + ": byteStride " + std::to_string(stride) + " smaller than the element");
        if (a.byteOffset > len)
            fail(where + ": byteOffset " + std::to_string(a.byteOffset) + " out of range of bufferView " +
                 std::to_string(a.bufferView) + " (" + std::to_string(len) + " bytes)");
        if (a.count > 0) {
            const uint64_t need = uint64_t(a.byteOffset) + uint64_t(stride) * (uint64_t(a.count) - 1) + elem;
            if (need > len)
                fail(where + ": out of range: needs " + std::to_string(need) + " bytes, bufferView " +
                     std::to_string(a.bufferView) + " has " + std::to_string(len));
        }
    }
    const unsigned char* ib = nullptr;
    const unsigned char* vb = nullptr;
    int ics = 0;
    if (a.sparse.isSparse) {
        const auto& sp = a.sparse;
        if (sp.count < 1 || uint64_t(sp.count) > a.count)
            fail(where + ": sparse count " + std::to_string(sp.count) + " out of range");
        ics = componentSize(sp.indices.componentType);
        if (sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            sp.indices.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            fail(where + ": sparse indices componentType must be unsigned");
        if (sp.indices.byteOffset < 0 || sp.values.byteOffset < 0) fail(where + ": negative sparse byteOffset");
        size_t ilen = 0, vlen = 0;
        ib = viewBytes(m, sp.indices.bufferView, where + " sparse indices", &ilen);
        vb = viewBytes(m, sp.values.bufferView, where + " sparse values", &vlen);
        const uint64_t ineed = uint64_t(sp.indices.byteOffset) + uint64_t(ics) * uint64_t(sp.count);
        const uint64_t vneed = uint64_t(sp.values.byteOffset) + elem * uint64_t(sp.count);
        if (ineed > ilen) fail(where + ": sparse indices out of range of their bufferView");
        if (vneed > vlen) fail(where + ": sparse values out of range of their bufferView");
    }
    budget.charge(uint64_t(a.count) * uint64_t(nc) * sizeof(double), where);
    AccessorData out;
    out.count = a.count;
    out.comps = nc;
    out.component_type = a.componentType;
    out.v.assign(a.count * size_t(nc), 0.0);
    if (base) {
        for (size_t i = 0; i < a.count; ++i) {
            const unsigned char* p = base + a.byteOffset + i * stride;
            for (int c = 0; c < nc; ++c) out.v[i * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    if (a.sparse.isSparse) {
        const auto& sp = a.sparse;
        for (int k = 0; k < sp.count; ++k) {
            double di = readComponent(ib + sp.indices.byteOffset + size_t(k) * size_t(ics), sp.indices.componentType, false);
            size_t target = size_t(di);
            if (target >= a.count)
                fail(where + ": sparse index " + std::to_string(target) + " out of range (count " +
                     std::to_string(a.count) + ")");
            const unsigned char* p = vb + sp.values.byteOffset + size_t(k) * size_t(elem);
            for (int c = 0; c < nc; ++c)
                out.v[target * size_t(nc) + size_t(c)] = readComponent(p + c * cs, a.componentType, a.normalized);
        }
    }
    for (size_t i = 0; i < out.v.size(); ++i)
        if (!std::isfinite(out.v[i]))
            fail(where + ": element " + std::to_string(i / size_t(nc)) + " is not finite (" + fmt(out.v[i]) + ")");
    return out;
}

void requireComps(const AccessorData& d, int comps, const std::string& what) {
    if (d.comps != comps)
        fail(what + ": expected " + std::to_string(comps) + " components per element, got " + std::to_string(d.comps));
}

}  // namespace engine::gltf_detail

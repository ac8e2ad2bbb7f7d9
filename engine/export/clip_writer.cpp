#include "engine/export/clip_writer.h"

#include <algorithm>
#include <cctype>

#include "engine/export/format_writers.h"

namespace engine {

std::optional<BakeFormat> bakeFormatFor(const std::string& path) {
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == "glb") return BakeFormat::Glb;
    if (ext == "gltf") return BakeFormat::Gltf;
    if (ext == "usda") return BakeFormat::Usda;
    if (ext == "pc2") return BakeFormat::Pc2;
    return std::nullopt;
}

const char* bakeFormatName(BakeFormat f) {
    switch (f) {
        case BakeFormat::Glb: return "glb";
        case BakeFormat::Gltf: return "gltf";
        case BakeFormat::Usda: return "usda";
        case BakeFormat::Pc2: return "pc2";
    }
    return "?";
}

const char* bakeFormatsHint() { return "use .glb, .gltf, .usda or .pc2"; }

std::vector<BakedMuscle> bakedMuscles(const sim::World& w) {
    std::vector<BakedMuscle> out;
    for (const sim::Muscle& m : w.muscles) {
        BakedMuscle b;
        b.name = m.name;
        b.first = m.first;
        b.count = m.surface_count;
        b.rest.assign(w.particles.rest.begin() + m.first, w.particles.rest.begin() + m.first + m.surface_count);
        for (uint32_t t = m.tri_begin; t < m.tri_begin + m.tri_count; ++t) {
            const glm::uvec3 g = w.triangles[t];
            b.triangles.push_back(g - glm::uvec3(m.first));
        }
        out.push_back(std::move(b));
    }
    return out;
}

size_t BakeClip::surfaceVertices() const {
    size_t n = 0;
    for (const auto& m : muscles) n += m.count;
    return n;
}

uint64_t estimatedBakeBytes(BakeFormat f, const BakeClip& clip) {
    const uint64_t n = uint64_t(std::max<int64_t>(clip.frames, 0));
    const uint64_t v = clip.surfaceVertices();
    const uint64_t m = clip.muscles.size();
    switch (f) {
        case BakeFormat::Glb:
        case BakeFormat::Gltf:
            // Position and normal deltas per frame, the one-hot weights, the
            // accessors' JSON (about 170 bytes each, two per muscle and frame).
            return n * v * 24 + n * n * 4 + n * m * 2 * 170 + v * 24;
        case BakeFormat::Usda: return n * v * 36 + v * 60;  // "(x, y, z), " in text
        case BakeFormat::Pc2: return 32 + n * v * 12 + v * 40;
    }
    return 0;
}

void BakeWriter::addFrame(const std::vector<glm::vec3>& x) {
    if (added_ >= frames_) throw ExportError(path_ + ": more frames than announced");
    writeFrame(x);
    ++added_;
}

void BakeWriter::finish() {
    if (added_ != frames_) throw ExportError(path_ + ": fewer frames than announced");
    complete();
}

std::unique_ptr<BakeWriter> openBakeWriter(const std::string& path, const BakeClip& clip) {
    const auto f = bakeFormatFor(path);
    if (!f) throw ExportError(path + ": unknown format (" + bakeFormatsHint() + ")");
    if (clip.frames < 1) throw ExportError(path + ": no frames to bake");
    if (!clip.scene) throw ExportError(path + ": no scene");
    if (clip.animation_times.size() != size_t(clip.frames))
        throw ExportError(path + ": one animation time per frame is needed");
    switch (*f) {
        case BakeFormat::Glb: return bake_detail::openGltfWriter(path, clip, true);
        case BakeFormat::Gltf: return bake_detail::openGltfWriter(path, clip, false);
        case BakeFormat::Usda: return bake_detail::openUsdaWriter(path, clip);
        case BakeFormat::Pc2: return bake_detail::openPc2Writer(path, clip);
    }
    return nullptr;
}

namespace bake_detail {
void writeSurface(OutputFile& f, const BakeClip& clip, const std::vector<glm::vec3>& x) {
    static_assert(sizeof(glm::vec3) == 12, "glm::vec3 must be three packed floats");
    for (const BakedMuscle& m : clip.muscles) {
        if (size_t(m.first) + m.count > x.size()) throw ExportError(f.finalPath() + ": a frame has too few positions");
        f.write(&x[m.first], size_t(m.count) * sizeof(glm::vec3));
    }
}
}  // namespace bake_detail

}  // namespace engine

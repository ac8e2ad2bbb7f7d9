// The point cache: FILE.pc2 (the format Blender's Mesh Cache modifier and
// 3ds Max's Point Cache read) with FILE.obj beside it, the rest mesh whose
// vertex order the cache follows: every muscle's surface, one after another.
//
// PC2: "POINTCACHE2\0", int32 version 1, int32 point count, float start
// frame, float sample rate (frames per sample), int32 sample count, then per
// sample the points as float x, y, z; little-endian.
#include <cstring>

#include "engine/export/format_writers.h"

namespace engine::bake_detail {

namespace {

class Pc2Writer final : public BakeWriter {
public:
    Pc2Writer(const std::string& path, const BakeClip& clip)
        : BakeWriter(path, clip.frames), clip_(clip), pc2_(path), obj_(objPathFor(path)) {
        char magic[12] = {};
        std::memcpy(magic, "POINTCACHE2", 11);
        pc2_.write(magic, 12);
        const int32_t version = 1, points = int32_t(clip.surfaceVertices()), samples = int32_t(clip.frames);
        const float start = float(clip.first_frame), rate = 1.0f;
        pc2_.write(&version, 4);
        pc2_.write(&points, 4);
        pc2_.write(&start, 4);
        pc2_.write(&rate, 4);
        pc2_.write(&samples, 4);
        writeObj();
    }

    void writeFrame(const std::vector<glm::vec3>& x) override { writeSurface(pc2_, clip_, x); }

    void complete() override {
        obj_.commit();
        pc2_.commit();
    }

    std::vector<std::string> files() const override { return {pc2_.finalPath(), obj_.finalPath()}; }

private:
    static std::string objPathFor(const std::string& path) {
        return path.substr(0, path.find_last_of('.')) + ".obj";
    }

    // One object (one mesh in Blender, which a Mesh Cache modifier needs),
    // a group per muscle; positions of the bind pose.
    void writeObj() {
        std::string s = "# msxpbd bake: rest mesh of " + clip_.source +
                        "\n# the vertex order of the .pc2 beside it: every muscle's surface in turn\no muscles\n";
        for (const BakedMuscle& m : clip_.muscles)
            for (const glm::vec3& p : m.rest) {
                s += "v ";
                appendNumber(s, p.x);
                s += ' ';
                appendNumber(s, p.y);
                s += ' ';
                appendNumber(s, p.z);
                s += '\n';
            }
        long long base = 1;
        for (const BakedMuscle& m : clip_.muscles) {
            s += "g " + m.name + "\n";
            for (const glm::uvec3& t : m.triangles) {
                s += "f ";
                appendNumber(s, base + t.x);
                s += ' ';
                appendNumber(s, base + t.y);
                s += ' ';
                appendNumber(s, base + t.z);
                s += '\n';
            }
            base += m.count;
            if (s.size() > (1u << 20)) {
                obj_.writeString(s);
                s.clear();
            }
        }
        obj_.writeString(s);
    }

    const BakeClip clip_;  // a copy: the caller's may go
    OutputFile pc2_, obj_;
};

}  // namespace

std::unique_ptr<BakeWriter> openPc2Writer(const std::string& path, const BakeClip& clip) {
    if (clip.surfaceVertices() > 0x7fffffffu || clip.frames > 0x7fffffff)
        throw ExportError(path + ": too large for a PC2 file (32-bit counts)");
    return std::make_unique<Pc2Writer>(path, clip);
}

}  // namespace engine::bake_detail

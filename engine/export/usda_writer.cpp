// USD text (.usda) without the USD library (Debian 12 has none): a Mesh per
// muscle with `points.timeSamples` (time code = simulation frame index), an
// Xform per skeleton joint with its world transform sampled at the same
// frames, the scene's bone meshes under their joints, and the stage metadata
// (timeCodesPerSecond, startTimeCode, endTimeCode, upAxis, metersPerUnit).
//
// A Mesh's samples must be written inside its prim, muscle after muscle, while
// the frames arrive all muscles at a time: the frames go to a scratch file of
// raw floats and the text is written from it at the end.
#include <cctype>
#include <cmath>
#include <set>

#include "engine/export/format_writers.h"

namespace engine::bake_detail {

namespace {

// USD prim names: [A-Za-z_][A-Za-z0-9_]*, unique among siblings.
std::string primName(const std::string& name, std::set<std::string>& used) {
    std::string s;
    for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "_" + s;
    std::string u = s;
    for (int k = 2; used.count(u); ++k) u = s + "_" + std::to_string(k);
    used.insert(u);
    return u;
}

std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += (c == '\n' ? ' ' : c);
    }
    return q + "\"";
}

void appendVec(std::string& s, const glm::vec3& p) {
    s += '(';
    appendNumber(s, p.x);
    s += ", ";
    appendNumber(s, p.y);
    s += ", ";
    appendNumber(s, p.z);
    s += ')';
}

void appendPoints(std::string& s, const glm::vec3* p, size_t n) {
    s += '[';
    for (size_t i = 0; i < n; ++i) {
        if (i) s += ", ";
        appendVec(s, p[i]);
    }
    s += ']';
}

// USD matrices act on row vectors: USD row c is glm column c.
void appendMatrix(std::string& s, const glm::mat4& m) {
    s += "( ";
    for (int c = 0; c < 4; ++c) {
        s += c ? ", (" : "(";
        for (int r = 0; r < 4; ++r) {
            if (r) s += ", ";
            appendNumber(s, m[c][r]);
        }
        s += ')';
    }
    s += " )";
}

void appendTopology(std::string& s, const std::string& indent, const std::vector<glm::uvec3>& tris) {
    s += indent + "int[] faceVertexCounts = [";
    for (size_t i = 0; i < tris.size(); ++i) s += i ? ", 3" : "3";
    s += "]\n" + indent + "int[] faceVertexIndices = [";
    for (size_t i = 0; i < tris.size(); ++i) {
        if (i) s += ", ";
        appendNumber(s, (long long)tris[i].x);
        s += ", ";
        appendNumber(s, (long long)tris[i].y);
        s += ", ";
        appendNumber(s, (long long)tris[i].z);
    }
    s += "]\n";
}

void appendColor(std::string& s, const std::string& indent, glm::vec3 c) {
    s += indent + "color3f[] primvars:displayColor = [";
    appendVec(s, c);
    s += "]\n";
}

std::vector<glm::uvec3> triangles(const std::vector<uint32_t>& idx) {
    std::vector<glm::uvec3> t;
    for (size_t i = 0; i + 2 < idx.size(); i += 3) t.push_back({idx[i], idx[i + 1], idx[i + 2]});
    return t;
}

class UsdaWriter final : public BakeWriter {
public:
    UsdaWriter(const std::string& path, const BakeClip& clip) : BakeWriter(path, clip.frames), clip_(clip), out_(path), scratch_(path + ".frames", path) {}

    void writeFrame(const std::vector<glm::vec3>& x) override { writeSurface(scratch_, clip_, x); }

    void complete() override {
        writeText();
        scratch_.close();
        out_.commit();
    }

    std::vector<std::string> files() const override { return {out_.finalPath()}; }

private:
    long long frameCode(int64_t k) const { return (long long)(clip_.first_frame + k); }

    void flush(std::string& s, bool force = false) {
        if (force || s.size() > (4u << 20)) {
            out_.writeString(s);
            s.clear();
        }
    }

    void writeText() {
        const double fps = 1.0 / clip_.frame_dt;
        std::string s = "#usda 1.0\n(\n    defaultPrim = \"Bake\"\n    doc = " +
                        quoted("msxpbd bake of " + clip_.source + ": simulated frames " +
                               std::to_string(frameCode(0)) + ".." + std::to_string(frameCode(clip_.frames - 1))) +
                        "\n    metersPerUnit = 1\n    upAxis = \"Y\"\n    timeCodesPerSecond = ";
        appendNumber(s, fps);
        s += "\n    framesPerSecond = ";
        appendNumber(s, fps);
        s += "\n    startTimeCode = " + std::to_string(frameCode(0)) +
             "\n    endTimeCode = " + std::to_string(frameCode(clip_.frames - 1)) + "\n)\n\n";
        s += "def Xform \"Bake\"\n{\n";
        writeBones(s);
        writeMuscles(s);
        s += "}\n";
        flush(s, true);
    }

    // Every joint as a flat Xform carrying its world transform; a rigid bone
    // mesh sits under its joint in that joint's space, a skinned one is
    // posed per frame like a muscle.
    void writeBones(std::string& s) {
        const Scene& scene = *clip_.scene;
        const size_t nj = scene.skeleton.joints.size();
        std::vector<std::vector<glm::mat4>> globals(size_t(clip_.frames));
        for (int64_t k = 0; k < clip_.frames; ++k)
            scene.skeleton.globals(scene.localPoses(clip_.animation, clip_.animation_times[size_t(k)]),
                                   globals[size_t(k)]);
        s += "    def Scope \"Bones\"\n    {\n";
        std::set<std::string> used;
        for (size_t j = 0; j < nj; ++j) {
            s += "        def Xform " + quoted(primName(scene.skeleton.joints[j].name, used)) + "\n        {\n";
            s += "            matrix4d xformOp:transform.timeSamples = {\n";
            for (int64_t k = 0; k < clip_.frames; ++k) {
                s += "                " + std::to_string(frameCode(k)) + ": ";
                appendMatrix(s, globals[size_t(k)][j]);
                s += ",\n";
            }
            s += "            }\n            uniform token[] xformOpOrder = [\"xformOp:transform\"]\n";
            std::set<std::string> children;
            for (const RenderMesh& m : scene.meshes) {
                if (m.skinned() || m.joint != int(j)) continue;
                s += "            def Mesh " + quoted(primName(m.name.empty() ? "mesh" : m.name + "_mesh", children)) +
                     "\n            {\n";
                appendTopology(s, "                ", triangles(m.indices));
                s += "                point3f[] points = ";
                appendPoints(s, m.positions.data(), m.positions.size());
                s += "\n                uniform token subdivisionScheme = \"none\"\n";
                appendColor(s, "                ", m.color);
                s += "            }\n";
            }
            s += "        }\n";
            flush(s);
        }
        for (size_t k = 0; k < scene.meshes.size(); ++k) {
            const RenderMesh& m = scene.meshes[k];
            if (!m.skinned() || clip_.replacedMesh(k)) continue;  // the drawn skin stands for it
            s += "        def Mesh " + quoted(primName(m.name.empty() ? "skin" : m.name + "_skin", used)) +
                 "\n        {\n";
            appendTopology(s, "            ", triangles(m.indices));
            s += "            point3f[] points = ";
            appendPoints(s, m.positions.data(), m.positions.size());
            s += "\n            point3f[] points.timeSamples = {\n";
            for (int64_t k = 0; k < clip_.frames; ++k) {
                const std::vector<glm::vec3> p = posedPositions(m, globals[size_t(k)]);
                s += "                " + std::to_string(frameCode(k)) + ": ";
                appendPoints(s, p.data(), p.size());
                s += ",\n";
                flush(s);
            }
            s += "            }\n            uniform token subdivisionScheme = \"none\"\n";
            appendColor(s, "            ", m.color);
            s += "        }\n";
        }
        s += "    }\n";
    }

    void writeMuscles(std::string& s) {
        s += "    def Scope \"Muscles\"\n    {\n";
        std::set<std::string> used;
        const size_t v = clip_.surfaceVertices();
        std::vector<glm::vec3> frame;
        size_t offset = 0;  // of the muscle in a scratch frame, in vertices
        for (const BakedMuscle& m : clip_.muscles) {
            s += "        def Mesh " + quoted(primName(m.name, used)) + "\n        {\n";
            s += "            custom string msxpbd:name = " + quoted(m.name) + "\n";
            appendTopology(s, "            ", m.triangles);
            s += "            point3f[] points = ";
            appendPoints(s, m.rest.data(), m.rest.size());
            s += "\n            point3f[] points.timeSamples = {\n";
            frame.resize(m.count);
            for (int64_t k = 0; k < clip_.frames; ++k) {
                scratch_.readAt((uint64_t(k) * v + offset) * sizeof(glm::vec3), frame.data(),
                                frame.size() * sizeof(glm::vec3));
                s += "                " + std::to_string(frameCode(k)) + ": ";
                appendPoints(s, frame.data(), frame.size());
                s += ",\n";
                flush(s);
            }
            s += "            }\n            uniform token subdivisionScheme = \"none\"\n";
            appendColor(s, "            ", glm::vec3(0.75f, 0.25f, 0.22f));
            s += "        }\n";
            offset += m.count;
        }
        s += "    }\n";
    }

    const BakeClip clip_;
    OutputFile out_, scratch_;
};

}  // namespace

std::unique_ptr<BakeWriter> openUsdaWriter(const std::string& path, const BakeClip& clip) {
    return std::make_unique<UsdaWriter>(path, clip);
}

}  // namespace engine::bake_detail

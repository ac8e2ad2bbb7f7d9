// Writers of a baked clip (`msxpbd bake`, the viewer's Export section): every
// muscle's surface over N consecutive simulated frames, with the skeleton's
// pose at each of them, as glTF (morph targets), USD text (time samples) or a
// point cache (PC2 with an OBJ rest mesh). docs/export.md describes the files.
//
// Frames stream in one at a time and are written as they come (a writer
// keeps one frame in memory, never the clip). Everything goes to temporary
// names beside the output; finish() renames them into place, so a bake that
// fails or is cancelled leaves nothing behind.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/scene/scene.h"
#include "sim/world.h"

namespace engine {

// A failure to write (disk full, folder gone) or a clip a format cannot hold;
// the message names the file and the problem.
struct ExportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class BakeFormat { Glb, Gltf, Usda, Pc2 };
// By the extension (case-insensitive): .glb, .gltf, .usda, .pc2; nullopt for others.
std::optional<BakeFormat> bakeFormatFor(const std::string& path);
const char* bakeFormatName(BakeFormat f);
// "use .glb, .gltf, .usda or .pc2"
const char* bakeFormatsHint();

// One muscle's surface as the files carry it: particles [first, first + count)
// of the simulation, in the simulation's order (the input mesh's vertex order).
struct BakedMuscle {
    std::string name;
    uint32_t first = 0, count = 0;
    std::vector<glm::uvec3> triangles;  // local vertex indices
    std::vector<glm::vec3> rest;        // bind pose
};
// Every muscle's surface (branch points, inside the muscle, are not exported).
std::vector<BakedMuscle> bakedMuscles(const sim::World& w);

struct BakeClip {
    std::string source;                 // the scene, for the files' metadata
    const Scene* scene = nullptr;       // skeleton, animations, bone meshes
    // Every muscle's surface and, last, the drawn skin that wraps them when
    // the scene has a skin envelope (sim/skin_wrap.h): a mesh like a
    // muscle's, named as the scene's skin node, whose vertices follow the
    // particles in each frame's positions (its `first` is the particle
    // count). It replaces the skinned mesh it was made from in the files.
    std::vector<BakedMuscle> muscles;
    int drawn_skin = -1;                // index in `muscles` (−1: none)
    size_t muscleCount() const { return muscles.size() - (drawn_skin >= 0 ? 1 : 0); }
    // Whether scene mesh `k` is the skin the drawn skin replaces.
    bool replacedMesh(size_t k) const { return drawn_skin >= 0 && scene && int(k) == scene->envelope_mesh; }
    int animation = -1;                 // the animation that drove the bones (−1: none)
    int64_t first_frame = 1;            // simulation frame index of the first baked frame
    int64_t frames = 0;                 // N
    double frame_dt = 1.0 / 30.0;       // s per frame
    // Per baked frame: the animation time the bones were posed at (the
    // driver's loop applied), so the exported skeleton matches the muscles.
    std::vector<double> animation_times;
    size_t surfaceVertices() const;
};

class BakeWriter {
public:
    virtual ~BakeWriter() = default;  // removes the temporaries unless finished
    // The next frame: every particle's position (sim::Particles::x), then
    // the drawn skin's vertices when the clip has one; a frame past the
    // clip's N is refused (ExportError naming the file).
    void addFrame(const std::vector<glm::vec3>& x);
    // Completes the files and renames them into place; refused before N frames.
    void finish();
    // The files written (after finish): the output, then any companion.
    virtual std::vector<std::string> files() const = 0;

protected:
    // `path`: the output, for the messages; `frames`: the clip's N.
    BakeWriter(std::string path, int64_t frames) : path_(std::move(path)), frames_(frames) {}
    // The format's part of addFrame / finish, once the frame count is checked.
    virtual void writeFrame(const std::vector<glm::vec3>& x) = 0;
    virtual void complete() = 0;

private:
    std::string path_;
    int64_t frames_ = 0, added_ = 0;
};

// Opens a writer for `path` (format by extension). Throws ExportError naming
// the file: unknown extension, folder not writable, a clip too large for the
// format (a .glb holds at most 4 GiB).
std::unique_ptr<BakeWriter> openBakeWriter(const std::string& path, const BakeClip& clip);

// Bytes a format needs for a clip (an estimate within a few per cent; the
// glTF limit check and the progress line use it).
uint64_t estimatedBakeBytes(BakeFormat f, const BakeClip& clip);

}  // namespace engine

// The generated scenes (docs/scene-format.md "The scenes") built from
// docs/anatomy.md landmarks: scene_catalogue.cpp assembles each scene from
// the body plan (body_plan.cpp) and the motions (motions.cpp), and
// scene_writer.cpp writes it as glTF. Pure functions of the code: the same
// build writes the same bytes.
#include "engine/anatomy/scene_generator.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "engine/anatomy/scene_catalogue.h"
#include "engine/anatomy/scene_writer.h"

namespace engine {

std::vector<std::string> generatedSceneIds() { return {"t1", "t2", "t3", "t4", "t5", "t6", "t7", "p1", "p2", "p3", "p4"}; }

std::string generateScene(const std::string& id, GeneratedScene& out) {
    auto ids = generatedSceneIds();
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        std::string all;
        for (const std::string& i : ids) all += (all.empty() ? "" : ", ") + i;
        return "unknown scene '" + id + "' (valid: " + all + ")";
    }
    generator::SceneSpec sc = generator::buildSceneSpec(id);
    GeneratedScene st;
    std::vector<uint8_t> glb = generator::writeScene(sc, st);
    out = st;
    out.glb = std::move(glb);
    return {};
}

std::string writeGeneratedScenes(const std::string& dir, std::vector<GeneratedScene>* summary, const std::string& only) {
    if (!only.empty()) {
        auto ids = generatedSceneIds();
        if (std::find(ids.begin(), ids.end(), only) == ids.end()) return "unknown scene '" + only + "'";
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return dir + ": cannot create directory: " + ec.message();
    for (const std::string& id : generatedSceneIds()) {
        if (!only.empty() && id != only) continue;
        GeneratedScene g;
        std::string err = generateScene(id, g);
        if (!err.empty()) return err;
        const std::string path = dir + "/" + g.file;
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(g.glb.data()), std::streamsize(g.glb.size()));
        if (!f) return path + ": write failed";
        if (summary) summary->push_back(std::move(g));
    }
    return {};
}

}  // namespace engine

// `msxpbd measure --scene FILE [--section BONE]... [--json OUT]`: how a scene's
// muscles are sized and packed at rest (engine/anatomy/anatomy_measures.h,
// docs/anatomy.md "Measured packing"): per-muscle volume against the
// reference table, touching share, deepest overlap, and the muscle
// cross-section through the middle of the named bones (default: every
// humerus, femur and tibia).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli_args.h"
#include "app/commands/commands.h"
#include "engine/anatomy/anatomy_measures.h"
#include "engine/export/temp_files.h"
#include "engine/load_scene.h"
#include "sim/printable.h"

namespace app {

int measureCommand(const Args& raw) {
    std::string scene_path, json_out;
    std::vector<std::string> sections;
    try {
        CliArgs args(raw, {"--scene", "--section", "--json"}, {"--help"});
        if (args.flag("--help")) {
            std::puts("usage: msxpbd measure --scene FILE|NAME [--section BONE]... [--json OUT]\n"
                      "--scene: a .glb/.gltf file or a generated scene by short name (t5, t6, t7, ...)\n"
                      "rest-pose sizing and packing of the scene's muscles: volume vs the reference\n"
                      "table (docs/anatomy.md), share of vertices within 3 mm of another muscle or a\n"
                      "bone, deepest muscle-muscle overlap, smallest triangle angle and self-crossing\n"
                      "triangle pairs of each mesh, muscle cross-section through the middle of\n"
                      "each BONE's capsule (default: every humerus*, femur*, tibia*), the share\n"
                      "of the skin's section there that it fills, and how much of the bone's shaft\n"
                      "(35-80 % of its length) the muscles hide: the widest gap between them");
            return 0;
        }
        auto scene = args.get("--scene");
        if (!scene) throw CliError("--scene is required (" + engine::sceneChoices() + ")");
        scene_path = *scene;
        sections = args.getAll("--section");
        if (auto out = args.get("--json")) {
            checkOutputPath("--json", *out);
            json_out = *out;
        }
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd measure: %s\n", e.what());
        return 1;
    }
    engine::Scene scene;
    std::string err = engine::loadScene(scene_path, scene);
    if (!err.empty()) {
        std::fprintf(stderr, "msxpbd measure: %s\n", err.c_str());
        return 1;
    }
    if (sections.empty())
        for (const sim::BodyDesc& b : scene.desc.bodies)
            for (const char* prefix : {"humerus", "femur", "tibia"})
                if (b.name.rfind(prefix, 0) == 0) sections.push_back(b.name);

    // Every section first: a bone that is not there is refused before anything is printed.
    std::vector<engine::SectionMeasure> cuts(sections.size());
    std::vector<engine::CoverMeasure> covers(sections.size());
    for (size_t i = 0; i < sections.size(); ++i) {
        if (!engine::measureSection(scene.desc, sections[i], 0.12f, cuts[i])) {
            std::fprintf(stderr, "msxpbd measure: %s: no capsule body named '%s'\n", scene_path.c_str(),
                         sim::printable(sections[i]).c_str());
            return 1;
        }
        engine::measureCover(scene.desc, sections[i], engine::kShaftCoverFrom, engine::kShaftCoverTo,
                             engine::kShaftCoverReach, covers[i]);
    }
    const std::vector<engine::MuscleMeasure> ms = engine::measureMuscles(scene.desc);
    nlohmann::json report = {{"scene", scene_path}, {"muscles", nlohmann::json::array()}, {"sections", nlohmann::json::array()}};
    std::printf("%-34s %9s %9s %6s %9s %10s %9s %6s\n", "muscle", "vol cm3", "ref cm3", "ratio", "touching", "overlap mm",
                "min angle", "self-x");
    double total = 0.0, total_ref = 0.0;
    std::vector<double> touching;
    for (const engine::MuscleMeasure& m : ms) {
        const double v = m.volume * 1e6, ref = m.reference ? m.reference->cm3 : 0.0;
        total += v;
        total_ref += ref;
        touching.push_back(m.touching);
        if (ref > 0.0)
            std::printf("%-34s %9.1f %9.1f %6.2f %9.2f %10.2f %9.2f %6zu\n", sim::printable(m.name).c_str(), v, ref, v / ref,
                        m.touching, m.overlap * 1e3, double(m.min_angle_deg), m.self_intersections);
        else
            std::printf("%-34s %9.1f %9s %6s %9.2f %10.2f %9.2f %6zu\n", sim::printable(m.name).c_str(), v, "-", "-", m.touching,
                        m.overlap * 1e3, double(m.min_angle_deg), m.self_intersections);
        nlohmann::json j = {{"name", m.name}, {"volume_cm3", v}, {"touching_share", m.touching},
                            {"max_overlap_mm", m.overlap * 1e3}, {"overlap_with", m.overlap_with},
                            {"min_triangle_angle_deg", m.min_angle_deg}, {"self_intersections", m.self_intersections}};
        if (m.reference) {
            j["reference_cm3"] = ref;
            j["reference_muscle"] = m.reference->muscle;
            j["reference_source"] = m.reference->source;
        }
        report["muscles"].push_back(j);
    }
    std::sort(touching.begin(), touching.end());
    const double median = touching.empty() ? 0.0
                                           : (touching.size() % 2 ? touching[touching.size() / 2]
                                                                  : 0.5 * (touching[touching.size() / 2 - 1] + touching[touching.size() / 2]));
    std::printf("total %.1f cm3 (reference %.1f for the muscles in the table); median touching share %.2f\n", total,
                total_ref, median);
    report["total_cm3"] = total;
    report["median_touching_share"] = median;
    for (size_t i = 0; i < sections.size(); ++i) {
        const std::string& bone = sections[i];
        const engine::SectionMeasure& s = cuts[i];
        std::printf("section mid-%s: muscles %.1f cm2 (%zu muscles), bone %.1f cm2", sim::printable(bone).c_str(), s.muscle_area * 1e4,
                    s.muscles.size(), s.bone_area * 1e4);
        if (s.skin_area > 0.0)
            std::printf(", skin %.1f cm2 (muscle %.0f %%)", s.skin_area * 1e4, 100.0 * s.muscle_area / s.skin_area);
        std::printf("\n");
        const engine::CoverMeasure& cv = covers[i];
        std::printf("  bone covered by muscle, %.0f-%.0f %% of its length: %.1f %% of the rays; widest gap %.0f deg (%.1f mm "
                    "on the bone) at %.0f %%\n",
                    100.0 * engine::kShaftCoverFrom, 100.0 * engine::kShaftCoverTo, 100.0 * cv.covered, cv.widest_gap_deg, cv.widest_gap_mm,
                    100.0 * cv.widest_at);
        report["sections"].push_back({{"bone", bone}, {"muscle_area_cm2", s.muscle_area * 1e4},
                                      {"bone_area_cm2", s.bone_area * 1e4}, {"skin_area_cm2", s.skin_area * 1e4},
                                      {"muscles", s.muscles}, {"covered_share", cv.covered},
                                      {"widest_gap_deg", cv.widest_gap_deg}, {"widest_gap_mm", cv.widest_gap_mm},
                                      {"widest_gap_at", cv.widest_at}});
    }
    if (!json_out.empty()) {
        if (auto e = engine::writeWholeFile(json_out, report.dump(2) + "\n"); !e.empty()) {
            std::fprintf(stderr, "msxpbd measure: %s\n", e.c_str());
            return 1;
        }
    }
    return 0;
}

}  // namespace app

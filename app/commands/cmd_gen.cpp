// `msxpbd gen [--out DIR] [--only ID]`: writes every generated scene (t1…t7, p1…p4), or one.
#include <cstdio>
#include <string>

#include "app/cli/cli_args.h"
#include "app/commands/commands.h"
#include "engine/anatomy/scene_generator.h"
#include "engine/build_info.h"

namespace app {

int genCommand(const Args& raw) {
    std::string out = std::string(engine::sourceDirectory()) + "/assets/scenes";
    std::string only;
    try {
        CliArgs args(raw, {"--out", "--only"}, {"--help"});
        if (args.flag("--help")) {
            std::puts("usage: msxpbd gen [--out DIR] [--only ID]\n"
                      "writes every generated scene (t1..t7, p1..p4) as .glb into DIR\n"
                      "(default: <source>/assets/scenes); regeneration is byte-identical;\n"
                      "--only ID writes one scene (t5, t7, p4, ...)");
            return 0;
        }
        if (auto o = args.get("--out")) out = *o;
        if (auto o = args.get("--only")) only = *o;
    } catch (const CliError& e) {
        std::fprintf(stderr, "msxpbd gen: %s\n", e.what());
        return 1;
    }
    std::vector<engine::GeneratedScene> summary;
    std::string err = engine::writeGeneratedScenes(out, &summary, only);
    if (!err.empty()) {
        std::fprintf(stderr, "msxpbd gen: %s\n", err.c_str());
        return 1;
    }
    for (const auto& s : summary)
        std::printf("%-28s %6zu bytes  %3zu muscles  %6zu muscle vertices  %6zu triangles\n", s.file.c_str(),
                    s.glb.size(), s.muscles, s.muscle_vertices, s.muscle_triangles);
    return 0;
}

}  // namespace app

// `msxpbd gen [--out DIR]`: writes every generated scene (t1…t7, p1…p4).
#include <cstdio>
#include <string>

#include "app/commands.h"
#include "engine/scene_generator.h"
#include "engine/build_info.h"

namespace app {

int genCommand(const Args& args) {
    std::string out = std::string(engine::sourceDirectory()) + "/assets/scenes";
    std::string only;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::puts("usage: msxpbd gen [--out DIR] [--only ID]\n"
                      "writes every generated scene (t1..t7, p1..p4) as .glb into DIR\n"
                      "(default: <source>/assets/scenes); regeneration is byte-identical;\n"
                      "--only ID writes one scene (t5, t7, p4, ...)");
            return 0;
        }
        if (a == "--out") {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "msxpbd gen: --out needs a directory\n");
                return 1;
            }
            out = args[++i];
            continue;
        }
        if (a == "--only") {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "msxpbd gen: --only needs a scene id\n");
                return 1;
            }
            only = args[++i];
            continue;
        }
        std::fprintf(stderr, "msxpbd gen: unknown option '%s' (valid: --out DIR, --only ID)\n", a.c_str());
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

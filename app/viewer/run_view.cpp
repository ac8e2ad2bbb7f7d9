#include "app/viewer/run_view.h"

#include <cstdio>

#include "app/viewer/view_options.h"
#include "app/viewer/viewer.h"

namespace app::viewer {

int runView(const Args& args) {
    ViewOptions opt;
    bool help = false;
    if (auto e = parseViewOptions(args, opt, help); !e.empty()) {
        std::fprintf(stderr, "msxpbd view: %s\n%s", e.c_str(), viewUsage());
        return 1;
    }
    if (help) {
        std::fputs(viewUsage(), stdout);
        return 0;
    }
    Viewer v(opt);
    return v.run();
}

}  // namespace app::viewer

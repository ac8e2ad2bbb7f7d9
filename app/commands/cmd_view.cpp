// `msxpbd view`: the interactive viewer, or a headless render of N frames to a
// PNG (docs/architecture.md "The command line"). The viewer lives in app/viewer
// (library msxpbd_viewer); builds without it say so.
#include <cstdio>

#include "app/commands/commands.h"

#ifdef MSXPBD_HAS_VIEWER
#include "app/viewer/run_view.h"
#endif

namespace app {

int viewCommand(const Args& args) {
#ifdef MSXPBD_HAS_VIEWER
    return viewer::runView(args);
#else
    (void)args;
    std::fprintf(stderr, "msxpbd view: this build has no viewer (configure with -DMSXPBD_VIEWER=ON)\n");
    return 1;
#endif
}

}  // namespace app

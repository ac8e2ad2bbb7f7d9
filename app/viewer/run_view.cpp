#include "app/viewer/run_view.h"

#include <cstdio>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "app/viewer/view_options.h"
#include "app/viewer/viewer.h"

namespace app::viewer {

namespace {

// Keeps memory the GL driver frees within a frame for its next frame.
// Mesa's llvmpipe allocates and frees its vertex buffers on every draw; with
// glibc's default 128 KiB trim threshold each free at the top of the heap
// gave the pages back and the next frame faulted them in again (T7 under
// Xvfb: ~190 brk calls per drawn frame from swrast_dri.so, the drawing thread
// ~15 % in page faults). With freed memory kept up to 256 MiB, and blocks up
// to 32 MiB (glibc's largest mmap threshold) served from the heap, T7 drew
// 13.0-13.5 fps instead of 4.5 (same sim cost; docs/lab/viewer-heap-and-pacing.md).
// glibc only: other C libraries keep their own policy.
void keepFreedMemoryForTheNextFrame() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

}  // namespace

int runView(const Args& args) {
    ViewOptions opt;
    bool help = false;
    if (auto e = parseViewOptions(args, opt, help); !e.empty()) {
        // The reason alone, on one line: the usage would bury it (--help has it).
        std::fprintf(stderr, "msxpbd view: %s (msxpbd view --help lists the options)\n", e.c_str());
        return 1;
    }
    if (help) {
        std::fputs(viewUsage(), stdout);
        return 0;
    }
    keepFreedMemoryForTheNextFrame();
    Viewer v(opt);
    return v.run();
}

}  // namespace app::viewer

// Temporary files removed when the program is ended by a signal: a bake or a
// recording interrupted with Ctrl-C (SIGINT), SIGTERM or SIGHUP leaves nothing
// behind. Registered paths are unlinked by the signal handler (unlink is
// async-signal-safe; the table is fixed-size, written without locks), which
// then re-raises the signal with its default action, so the exit status still
// says which signal ended the program.
#pragma once

#include <string>

namespace engine {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (once; a signal the
// process ignores stays ignored). Call early in main().
void installTemporaryFileCleanup();

// Registers `path` for removal on a signal; returns a slot for
// unregisterTemporaryFile, or −1 when the table is full or the path too long
// (the file is then only removed by its owner, as before).
int registerTemporaryFile(const std::string& path);
void unregisterTemporaryFile(int slot);

// Writes `text` to `path` as a whole: through a temporary beside it renamed
// into place (engine::OutputFile), so a failed write (a full disk) leaves no
// empty or partial file; a path that exists and is not a regular file
// (/dev/stdout, /dev/full, a FIFO) is written directly. Returns "" or the
// error ("cannot write PATH: write failed: No space left on device").
std::string writeWholeFile(const std::string& path, const std::string& text);

}  // namespace engine

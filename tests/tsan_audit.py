#!/usr/bin/env python3
"""Audits a ThreadSanitizer log made WITHOUT tests/tsan.supp (scripts/tsan --openmp).

Every report must be one that tests/tsan.supp drops for the right reason:
  * a data race (no other kind of report),
  * OpenMP on one side: an access runs an OpenMP outlined function
    ("._omp_fn.") or libgomp, or one of the two threads is an OpenMP worker
    (created by libgomp),
  * the accesses come only from the sim thread (under SimThread::run), its
    OpenMP workers, or the main thread tearing the SimThread down after
    joining it (~SimThread); never from another thread (the UI / test threads),
  * no frame of either access is in the viewer's hand-off code (triple
    buffer, frame, controls, SimThread::publish / setControls / command).
Prints a summary; exits 1 when some report is not of that kind.
"""
import re
import sys
from collections import Counter

HANDOFF_FILES = ("app/viewer/triple_buffer.h", "app/viewer/sim_frame.h", "app/viewer/controls.h")
HANDOFF_FUNCS = ("SimThread::publish", "SimThread::setControls", "SimThread::command", "SimThread::update",
                 "SimThread::latest", "TripleBuffer")


def blocks(report):
    """(header, [frames]) for each paragraph of a report."""
    out = []
    for para in re.split(r"\n\s*\n", report):
        lines = [l.rstrip() for l in para.strip("\n").split("\n") if l.strip()]
        if not lines:
            continue
        frames = [l.strip() for l in lines[1:] if re.match(r"\s*#\d+ ", l)]
        out.append((lines[0].strip(), frames))
    return out


def main(path):
    text = open(path, errors="replace").read()
    parts = text.split("WARNING: ThreadSanitizer: ")[1:]
    errors = [l for l in text.splitlines() if "ERROR: ThreadSanitizer" in l]
    problems = []
    sites = Counter()
    pairs = Counter()
    for n, part in enumerate(parts):
        report = part.split("==================")[0]
        first, _, body = report.partition("\n")
        kind = first.split(" (pid=")[0].strip()
        threads = {}      # "T3" -> creation stack
        creator = {}      # "T3" -> "T1"
        accesses = []     # (thread, frames)
        for head, frames in blocks(body):
            m = re.match(r"Thread (T\d+) .*created by (main thread|thread T\d+) at:", head)
            if m:
                threads[m.group(1)] = frames
                creator[m.group(1)] = "main" if m.group(2) == "main thread" else m.group(2).replace("thread ", "")
                continue
            m = re.search(r"(?:Write|Read|Atomic \w+|Previous \w+(?: \w+)?) of size \d+ at \S+ by (main thread|thread T\d+)", head)
            if m:
                who = "main" if m.group(1) == "main thread" else m.group(1).replace("thread ", "")
                accesses.append((who, frames))

        def role(t):
            if t == "main":
                # After SimThread::stop() joined the sim thread: its memory is freed.
                if any("SimThread::~SimThread" in f for who, fr in accesses if who == t for f in fr):
                    return "main-teardown"
                return "main"
            if any("libgomp" in f for f in threads.get(t, [])):
                return "omp-worker"
            # The sim thread: its access runs under SimThread::run, or it
            # started an OpenMP worker from SimThread::run (its own creation
            # stack loses SimThread::start: unwinding skips a libstdc++ frame).
            if any("SimThread::run()" in f for who, fr in accesses if who == t for f in fr):
                return "sim"
            for w, st in threads.items():
                if creator.get(w) == t and any("libgomp" in f for f in st) and any("SimThread::run()" in f for f in st):
                    return "sim"
            return "other"

        why = []
        if kind != "data race":
            why.append("not a data race: " + kind)
        roles = [role(t) for t, _ in accesses]
        if len(accesses) != 2:
            why.append("expected two accesses, found %d" % len(accesses))
        if any(r not in ("sim", "omp-worker", "main-teardown") for r in roles):
            why.append("involves a thread other than the sim thread, its OpenMP workers and its teardown: %s" % roles)
        openmp = "omp-worker" in roles or any(
            "._omp_fn." in f or "libgomp" in f for _, fr in accesses for f in fr)
        if not openmp:
            why.append("no OpenMP on either side (tests/tsan.supp would not drop it)")
        for _, fr in accesses:
            for f in fr:
                if any(h in f for h in HANDOFF_FILES) or any(h in f for h in HANDOFF_FUNCS):
                    why.append("hand-off code in a stack: " + f)
                    break
        for _, fr in accesses:
            if fr:
                m = re.search(r"(/\S+:\d+)", fr[0])
                sites[m.group(1).replace("/work/main/", "") if m else fr[0][:80]] += 1
        pairs[" vs ".join(sorted(roles))] += 1
        if why:
            problems.append((n, why, report))

    print("tsan audit: %d reports in %s" % (len(parts), path))
    for p, c in pairs.most_common():
        print("  %4d  %s" % (c, p))
    print("  access sites (top frame), most frequent first:")
    for s, c in sites.most_common(15):
        print("  %4d  %s" % (c, s))
    if errors:
        print("tsan audit: FAIL: fatal TSan error(s):")
        for e in errors:
            print("  " + e)
    for n, why, report in problems:
        print("tsan audit: FAIL: report %d:" % n)
        for w in why:
            print("    " + w)
        print("\n".join("      " + l for l in report.splitlines()[:40]))
    if problems or errors:
        return 1
    print("tsan audit: OK: every report is OpenMP on one side, the sim thread (or its teardown) "
          "or an OpenMP worker on the other, away from the hand-off")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except BrokenPipeError:
        sys.exit(1)

#!/usr/bin/env python3
"""docs/architecture.md's copy of the command line is what the program says.

Every fenced block that follows a line `<!-- msxpbd CMD --help -->` must equal
what `msxpbd CMD --help` prints (CMD empty: `msxpbd --help`). Usage:

    docs_cli_check.py MSXPBD DOC          check; exit 1 and show the first difference
    docs_cli_check.py MSXPBD DOC --write  rewrite the blocks from the program
"""
import difflib
import re
import subprocess
import sys

MARK = re.compile(r"^<!-- msxpbd ?(\w*) --help -->$")


def help_text(binary, cmd):
    args = [binary] + ([cmd] if cmd else []) + ["--help"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)} exited with {out.returncode}: {out.stderr.strip()}")
    return out.stdout.rstrip("\n").split("\n")


def main():
    binary, doc = sys.argv[1], sys.argv[2]
    write = "--write" in sys.argv[3:]
    lines = open(doc, encoding="utf-8").read().split("\n")
    out, i, checked, stale = [], 0, 0, []
    while i < len(lines):
        out.append(lines[i])
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        if i + 1 >= len(lines) or lines[i + 1] != "```":
            sys.exit(f"{doc}:{i + 1}: a help marker must be followed by a ``` block")
        end = lines.index("```", i + 2)
        have, want = lines[i + 2:end], help_text(binary, m.group(1))
        checked += 1
        if have != want:
            stale.append((i + 1, m.group(1), have, want))
        out += ["```"] + want + ["```"]
        i = end + 1
    if write:
        open(doc, "w", encoding="utf-8").write("\n".join(out))
        print(f"{doc}: {checked} help blocks written")
        return 0
    if checked == 0:
        sys.exit(f"{doc}: no help blocks found")
    for line, cmd, have, want in stale[:1]:
        print(f"{doc}:{line}: the copy of `msxpbd {cmd} --help` differs from the program "
              f"(tests/docs_cli_check.py {binary} {doc} --write updates it):")
        sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(have, want, "doc", "program", lineterm=""))
    if stale:
        return 1
    print(f"{doc}: {checked} help blocks match the program")
    return 0


if __name__ == "__main__":
    sys.exit(main())

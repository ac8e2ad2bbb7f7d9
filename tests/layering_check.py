#!/usr/bin/env python3
"""The include directions of docs/architecture.md ("Layers and dependency
direction"), checked over every source file: app → engine → sim, and inside
engine/ each folder includes only the folders listed for it.

Usage: layering_check.py ROOT. Prints each violation as FILE:LINE: RULE and
exits 1 when there is one; exits 0 and prints a one-line summary otherwise.
"""
import os
import re
import sys

# Which project folders each folder may include (besides itself). A folder
# not listed here is an error, so a new folder has to be placed in the table.
ALLOWED = {
    "sim": {"sim"},
    "engine/mesh": {"sim"},
    "engine/scene": {"engine/mesh", "sim"},
    "engine/gltf": {"engine/scene", "engine/mesh", "sim"},
    "engine/anatomy": {"engine/gltf", "engine/scene", "engine/mesh", "sim"},
    "engine/export": {"engine/scene", "engine/mesh", "sim"},
    "engine/render": {"engine/scene", "engine/mesh", "engine/build_info", "sim"},
    "engine/build_info": set(),
    "engine/load_scene": {"engine/gltf", "engine/scene", "engine/mesh", "engine/build_info", "sim"},
    "app/cli": {"app/run", "engine", "sim"},
    "app/run": {"app/cli", "engine", "sim"},
    "app/study": {"app/run", "engine", "sim"},
    "app/viewer": {"app/run", "app/study", "app/cli", "engine", "sim"},
    "app/commands": {"app", "engine", "sim"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_ROOTS = ("sim", "engine", "app")


def unit(path):
    """The folder (or top-level engine file) a project path belongs to."""
    parts = path.split("/")
    if parts[0] == "engine" and len(parts) == 2:  # engine/load_scene.h, engine/build_info.h
        return "engine/" + os.path.splitext(parts[1])[0]
    if parts[0] in ("engine", "app") and len(parts) >= 3:
        return parts[0] + "/" + parts[1]
    return parts[0]


def allows(rules, target):
    """True when `target` (a unit) lies inside one of the allowed prefixes."""
    return any(target == r or target.startswith(r + "/") for r in rules)


def check(root):
    errors, count = [], 0
    for top in SOURCE_ROOTS:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                src = unit(rel)
                if src not in ALLOWED:
                    errors.append(f"{rel}:1: folder {src} has no row in the layering table")
                    continue
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or not m.group(1).startswith(("sim/", "engine/", "app/")):
                            continue
                        count += 1
                        dst = unit(m.group(1))
                        if dst == src or allows(ALLOWED[src], dst):
                            continue
                        errors.append(f"{rel}:{n}: {src} must not include {m.group(1)}")
    return errors, count


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    errors, count = check(root)
    for e in errors:
        print(e)
    if errors:
        print(f"layering: {len(errors)} include(s) against docs/architecture.md")
        return 1
    print(f"layering: {count} project includes follow docs/architecture.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())

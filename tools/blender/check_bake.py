# Checks, in a real Blender, the loading steps docs/export.md gives for each
# `msxpbd bake` format: that what Blender plays at timeline frame k is baked
# frame k. Run by hand (needs the Debian package `blender`, not installed by
# scripts/setup; see docs/export.md "Loading in Blender"):
#
#   build/msxpbd bake --scene assets/scenes/t5-arm-flexion.glb --frames 20 --out /tmp/x.glb
#   build/msxpbd bake --scene assets/scenes/t5-arm-flexion.glb --frames 20 --out /tmp/x.pc2
#   build/msxpbd bake --scene assets/scenes/t5-arm-flexion.glb --frames 20 --out /tmp/x.usda
#   blender -b --factory-startup --python tools/blender/check_bake.py -- /tmp/x
#
# The reference is the .pc2 (read here with struct, no Blender involved): the
# frames of every muscle's surface vertices in the .obj's order and groups,
# in glTF axes (+Y up). Each check loads a file the way the doc says, sets the
# timeline to frame k and compares the evaluated (world-space) vertices with
# frame k of the cache. Exit code 0 when every available format matches to
# 1e-5 m; a format this Blender cannot read (USD in a build without it) is
# reported, not failed.
import os
import struct
import sys

import bpy

try:  # Debian's Blender 3.4.1 glTF importer uses numpy.bool, removed in numpy 1.24.
    import numpy

    if "bool" not in vars(numpy):
        numpy.bool = bool
except ImportError:
    pass  # the glTF add-on then fails with its own message (install python3-numpy)

TOL = 1e-5


def args():
    a = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if not a:
        sys.exit("usage: blender -b --factory-startup --python check_bake.py -- BASE  (BASE.glb, .pc2, .obj, .usda)")
    return a[0]


def read_pc2(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, version, points, start, rate, samples = struct.unpack_from("<12siiffi", data, 0)
    assert magic == b"POINTCACHE2\0", path + ": not a PC2 file"
    frames = []
    off = 32
    for _ in range(samples):
        v = struct.unpack_from("<%df" % (3 * points), data, off)
        frames.append([(v[3 * i], v[3 * i + 1], v[3 * i + 2]) for i in range(points)])
        off += 12 * points
    return int(round(start)), frames


def obj_groups(path):
    """Muscle name -> (first vertex, count) in the .obj's (= the cache's) order."""
    groups, order, n, cur = {}, [], 0, None
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                n += 1
            elif line.startswith("g "):
                cur = line.split(None, 1)[1].strip()
                order.append(cur)
            elif line.startswith("f ") and cur is not None:
                idx = [int(t.split("/")[0]) - 1 for t in line.split()[1:]]
                lo, hi = groups.get(cur, (min(idx), max(idx)))
                groups[cur] = (min(lo, *idx), max(hi, *idx))
    return {g: (groups[g][0], groups[g][1] - groups[g][0] + 1) for g in order}


def gltf_from_blender(v):
    # Blender's glTF importer maps glTF (x, y, z) to Blender (x, -z, y).
    return (v[0], v[2], -v[1])


def evaluated_world(obj):
    dg = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(dg)
    me = ev.to_mesh()
    out = [tuple(obj.matrix_world @ v.co) for v in me.vertices]
    ev.to_mesh_clear()
    return out


def max_diff(a, b):
    return max(max(abs(p[i] - q[i]) for i in range(3)) for p, q in zip(a, b))


def empty_scene(fps):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = fps
    bpy.context.scene.render.fps_base = 1.0


def check_gltf(base, start, frames, groups, fps, report):
    path = base + ".glb"
    empty_scene(fps)
    bpy.ops.import_scene.gltf(filepath=path)
    scene = bpy.context.scene
    worst, checked = 0.0, 0
    # The muscle's mesh object is found by its mesh data's name: the baked
    # file also has an empty node per muscle name, which takes the plain name
    # in Blender (the mesh object becomes "NAME.001").
    meshes = {o.data.name: o for o in bpy.data.objects if o.type == "MESH"}
    for name, (first, count) in groups.items():
        obj = meshes.get(name)
        if obj is None:
            report.append("glTF: no mesh %r" % name)
            return False
        keys = obj.data.shape_keys
        nkeys = len(keys.key_blocks) if keys else 0
        action = keys.animation_data.action if keys and keys.animation_data else None
        if nkeys != len(frames) + 1 or action is None:
            report.append("glTF: %s has %d shape keys (want %d + Basis) and action %r"
                          % (name, nkeys, len(frames), action and action.name))
            return False
        if len(obj.data.vertices) != count:
            report.append("glTF: %s has %d vertices, the cache %d" % (name, len(obj.data.vertices), count))
            return False
    sample = [1, len(frames) // 2, len(frames)]
    # The importer puts the file's time 0 (the first baked frame) on timeline
    # frame 0: the j-th baked frame (j = 1..N) plays on timeline frame j - 1.
    timeline = [k - 1 for k in sample]
    for k, frame in zip(sample, timeline):
        scene.frame_set(frame)
        for name, (first, count) in groups.items():
            got = [gltf_from_blender(v) for v in evaluated_world(meshes[name])]
            worst = max(worst, max_diff(got, frames[k - 1][first:first + count]))
            checked += 1
    arm = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    bones = "%d armature(s), %s" % (len(arm), ", ".join(
        "%s: %d bones, action %s" % (a.name, len(a.data.bones),
                                     a.animation_data.action.name if a.animation_data and a.animation_data.action
                                     else None) for a in arm))
    report.append("glTF: %d muscle meshes, %d shape keys each (+ Basis) driven by an action; %s; scene range left "
                  "at %d..%d; baked frames %s (of %d..%d) on timeline frames %s: largest difference %.2e m over %d "
                  "muscle-frames" % (len(groups), len(frames), bones, scene.frame_start, scene.frame_end,
                                     [start + k - 1 for k in sample], start, start + len(frames) - 1, timeline,
                                     worst, checked))
    return worst <= TOL


def check_pc2(base, start, frames, fps, report):
    empty_scene(fps)
    # Blender 3.4's OBJ importer (File > Import > Wavefront (.obj)): no axis
    # conversion, so the mesh and the cache share coordinates.
    bpy.ops.wm.obj_import(filepath=base + ".obj", forward_axis="Y", up_axis="Z")
    objs = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    if len(objs) != 1:
        report.append("PC2: the OBJ import made %d mesh objects, want 1" % len(objs))
        return False
    obj = objs[0]
    n = len(obj.data.vertices)
    rest_order = max_diff([tuple(v.co) for v in obj.data.vertices], read_obj_rest(base + ".obj"))
    obj.rotation_euler = (1.5707963267948966, 0.0, 0.0)  # stand it up (+Y up -> +Z up)
    mod = obj.modifiers.new("bake", "MESH_CACHE")
    mod.cache_format = "PC2"
    mod.filepath = base + ".pc2"
    mod.time_mode = "FRAME"
    mod.play_mode = "SCENE"
    # Blender ignores the PC2 header's start frame: timeline frame F plays
    # sample F - frame_start. Frame Start = the first baked frame puts baked
    # frame k on timeline frame k.
    mod.frame_start = start
    scene = bpy.context.scene
    worst = 0.0
    sample = [1, len(frames) // 2, len(frames)]
    for k in sample:
        scene.frame_set(start + k - 1)
        got = evaluated_world(obj)
        # World = rotated local: undo the 90 degrees about X: (x, y, z) -> (x, z, -y).
        got = [gltf_from_blender(v) for v in got]
        worst = max(worst, max_diff(got, frames[k - 1]))
    report.append("PC2: object %r, %d vertices (rest order vs .obj %.1e m), modifier axes %s/%s, frame start %g; "
                  "baked frames %s on timeline frames %s: largest difference %.2e m"
                  % (obj.name, n, rest_order, mod.forward_axis, mod.up_axis, mod.frame_start,
                     [start + k - 1 for k in sample],
                     [start + k - 1 for k in sample], worst))
    return worst <= TOL and n == len(frames[0])


def read_obj_rest(path):
    with open(path) as f:
        return [tuple(float(t) for t in line.split()[1:4]) for line in f if line.startswith("v ")]


def usd_rest_and_samples(path, name):
    """Rest points and time samples of /Bake/Muscles/<name> from the .usda text."""
    text = open(path).read()
    at = text.index('def Mesh "%s"' % name)
    key = "points.timeSamples = {"
    s = text.index(key, at) + len(key)
    e = text.index("\n        }", s)
    samples = {}
    for line in text[s:e].strip().splitlines():
        t, pts = line.split(":", 1)
        nums = [float(x) for x in pts.replace("[", " ").replace("]", " ").replace("(", " ")
                .replace(")", " ").replace(",", " ").split()]
        samples[int(t)] = [tuple(nums[i:i + 3]) for i in range(0, len(nums), 3)]
    return samples


def check_usd(base, start, frames, groups, fps, report):
    empty_scene(fps)
    if not bpy.app.build_options.usd:
        report.append("USD: this Blender (%s) is built without USD (bpy.app.build_options.usd is False): "
                      "File > Import > Universal Scene Description is absent; not checked"
                      % bpy.app.version_string)
        return True
    bpy.ops.wm.usd_import(filepath=base + ".usda")
    scene = bpy.context.scene
    worst, checked = 0.0, 0
    sample = [1, len(frames) // 2, len(frames)]
    for name, (first, count) in groups.items():
        obj = bpy.data.objects.get(name)
        if obj is None:
            report.append("USD: no object %r" % name)
            return False
    for k in sample:
        scene.frame_set(start + k - 1)
        for name, (first, count) in groups.items():
            got = [gltf_from_blender(v) for v in evaluated_world(bpy.data.objects[name])]
            worst = max(worst, max_diff(got, frames[k - 1][first:first + count]))
            checked += 1
    report.append("USD: %d muscles; baked frames %s: largest difference %.2e m over %d muscle-frames"
                  % (len(groups), sample, worst, checked))
    return worst <= TOL


def main():
    base = args()
    base = os.path.splitext(base)[0] if base.endswith((".glb", ".pc2", ".obj", ".usda")) else base
    start, frames = read_pc2(base + ".pc2")
    groups = obj_groups(base + ".obj")
    fps = 30  # 1/dt of the generated scenes (the .usda says 29.999998)
    report, ok = ["Blender %s, bake %s: frames %d..%d, %d muscles, %d vertices"
                  % (bpy.app.version_string, base, start, start + len(frames) - 1, len(groups), len(frames[0]))], True
    for fmt, fn in (("glb", lambda: check_gltf(base, start, frames, groups, fps, report)),
                    ("pc2", lambda: check_pc2(base, start, frames, fps, report)),
                    ("usda", lambda: check_usd(base, start, frames, groups, fps, report))):
        try:
            good = fn()
        except Exception as e:  # report every format, even after one fails
            report.append("%s: failed: %s" % (fmt, e))
            good = False
        ok = ok and good
    print("\n".join("check_bake: " + r for r in report))
    print("check_bake: %s" % ("OK" if ok else "FAILED"))
    sys.stdout.flush()
    os._exit(0 if ok else 1)


main()

# Authors a tiny muscle scene in a real Blender the way docs/scene-format.md
# tells an artist to, exports it with the glTF exporter, and checks that
# msxpbd loads and simulates it. Run by hand (needs the Debian package
# `blender`, not installed by scripts/setup; see docs/scene-format.md
# "Authoring in Blender"):
#
#   blender -b --factory-startup --python tools/blender/author_scene.py -- build/msxpbd /tmp/authored.glb
#
# The scene: an armature `arm` with two bones, `upper` (0.3 m, up +Z) and
# `fore` (0.25 m), and an action `bend` flexing `fore` 90 degrees forward
# (towards Blender's -Y) over 1 s; one muscle, `flexor`: a UV sphere scaled
# into a spindle in front of the bones, from the upper bone to the forearm.
# Its origin is a marker (an empty parented to the muscle), its insertion a
# `near` point (Blender coordinates converted to glTF as the doc says).
# Both bones have `msxpbd_body` capsules on the Bone (not the Pose Bone).
# Exported with File > Export > glTF 2.0 defaults plus Include > Custom
# Properties (export_extras). Then `msxpbd run --frames 30 --json` must report
# 1 muscle, no NaN, no warning, and the muscle shorter at the end of the bend.
import json
import math
import os
import subprocess
import sys

import bpy

try:  # Debian's Blender 3.4.1 glTF add-on uses numpy.bool, removed in numpy 1.24.
    import numpy

    if "bool" not in vars(numpy):
        numpy.bool = bool
except ImportError:
    pass


def args():
    a = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(a) != 2:
        sys.exit("usage: blender -b --factory-startup --python author_scene.py -- MSXPBD OUT.glb")
    return os.path.abspath(a[0]), os.path.abspath(a[1])


def one_line(obj):
    # Blender's string property is one line: compact JSON, as the doc says.
    return json.dumps(obj, separators=(", ", ": "))


def gltf_point(p):
    # Blender (x, y, z) -> glTF (x, z, -y): the exporter's default +Y Up.
    return [round(p[0], 6), round(p[2], 6), round(-p[1], 6)]


def parent_to_bone(obj, bone):
    bpy.context.view_layer.update()  # matrix_world of a just-moved object is stale until then
    world = obj.matrix_world.copy()
    obj.parent_type, obj.parent_bone = "BONE", bone
    bpy.context.view_layer.update()
    obj.matrix_world = world


def build(variant=""):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = 30
    scene.frame_start, scene.frame_end = 1, 31

    # Armature: Add > Armature, then in Edit mode two bones along +Z.
    arm_data = bpy.data.armatures.new("arm")
    arm = bpy.data.objects.new("arm", arm_data)
    scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    upper = arm_data.edit_bones.new("upper")
    upper.head, upper.tail = (0, 0, 0), (0, 0, 0.30)
    fore = arm_data.edit_bones.new("fore")
    fore.head, fore.tail = (0, 0, 0.30), (0, 0, 0.55)
    fore.parent, fore.use_connect = upper, True
    bpy.ops.object.mode_set(mode="OBJECT")

    # Bone shapes: custom properties on the Bone (Bone Properties > Custom
    # Properties in Edit or Object mode). A glTF joint node's frame is the
    # bone's own: +Y along the bone, from its head.
    for name, length, radius in (("upper", 0.30, 0.012), ("fore", 0.25, 0.010)):
        if variant == "mesh-bones":
            # Add > Mesh > Cylinder along the bone, Ctrl+A, Ctrl+P > Bone.
            z0 = 0.0 if name == "upper" else 0.30
            bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=radius, depth=length,
                                                location=(0, 0, z0 + length / 2))
            cyl = bpy.context.active_object
            cyl.name = cyl.data.name = name + "_shape"
            bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
            cyl.parent = arm
            parent_to_bone(cyl, name)
            continue
        owner = arm.pose.bones[name] if variant == "pose-bone" else arm_data.bones[name]
        owner["msxpbd_body"] = one_line(
            {"capsule": {"a": [0, 0, 0], "b": [0, length, 0], "radius": radius}})

    # Animation: in Pose mode, key `fore`'s rotation at frame 1 (rest) and 31
    # (90 degrees forward, about the bone's local X).
    pb = arm.pose.bones["fore"]
    pb.rotation_mode = "XYZ"
    pb.rotation_euler = (0, 0, 0)
    pb.keyframe_insert("rotation_euler", frame=1)
    pb.rotation_euler = (math.radians(-90), 0, 0)
    pb.keyframe_insert("rotation_euler", frame=31)
    arm.animation_data.action.name = "bend"
    scene.frame_set(1)

    # Muscle: Add > Mesh > UV Sphere, scaled into a spindle, then
    # Ctrl+A > All Transforms so its local coordinates are the ones Blender shows.
    bpy.ops.mesh.primitive_uv_sphere_add(segments=16, ring_count=12, radius=1.0, location=(0, -0.035, 0.28))
    mus = bpy.context.active_object
    mus.name = mus.data.name = "flexor"
    mus.scale = (0.018, 0.018, 0.16)
    bpy.ops.object.transform_apply(location=True, rotation=True, scale=True)
    mus.parent = arm  # Ctrl+P > Object (not Armature Deform: a muscle must not be skinned)
    if variant.startswith("bone-parent"):  # Ctrl+P > Bone (`upper`), keeping the transform
        parent_to_bone(mus, "upper")
    elif variant == "armature-deform":  # Ctrl+P > With Automatic Weights
        bpy.ops.object.select_all(action="DESELECT")
        mus.select_set(True)
        arm.select_set(True)
        bpy.context.view_layer.objects.active = arm
        bpy.ops.object.parent_set(type="ARMATURE_AUTO")

    # Origin marker: Add > Empty > Sphere on the lower tendon end, parented
    # to the muscle (Ctrl+P > Object) so it moves with it.
    origin = bpy.data.objects.new("flexor_origin", None)
    origin.empty_display_type = "SPHERE"
    origin.empty_display_size = 0.012
    origin.location = (0, -0.035, 0.125)
    scene.collection.objects.link(origin)
    if variant == "bone-parent":
        # Blender 3.4's exporter drops the children of an object parented to
        # a bone: the marker goes on the bone too.
        origin.parent = arm
        parent_to_bone(origin, "upper")
    else:
        origin.parent = mus

    # The insertion as a `near` point: the upper tip as Blender shows it,
    # converted to glTF axes.
    insertion_blender = (0, -0.035, 0.435)
    (mus.data if variant == "mesh-data" else mus)["msxpbd_muscle"] = one_line({
        "origins": {"marker": "flexor_origin", "radius": 0.012},
        "insertions": {"near": gltf_point(insertion_blender), "radius": 0.012},
        "origin_bone": "upper",
        "insertion_bone": "fore",
        "contacts": ["upper"],
    })
    return mus


def export(path, extras=True):
    # File > Export > glTF 2.0 (.glb) with its defaults (+Y Up, animations,
    # all objects) and Include > Custom Properties ticked.
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", export_extras=extras)


# What the doc says happens when an artist misses a step: each variant
# rebuilds the scene with one change and must give this outcome.
VARIANTS = (
    ("bone-parent", "muscle and marker parented to the bone (Ctrl+P > Bone)", "loads"),
    ("mesh-bones", "each bone's shape a cylinder mesh parented to the bone (Ctrl+P > Bone)", "loads"),
    ("bone-parent-marker-on-muscle", "muscle parented to the bone, marker to the muscle", "refused"),
    ("no-extras", "exported without Include > Custom Properties", "0 muscles"),
    ("mesh-data", "msxpbd_muscle on the Mesh data instead of the Object", "0 muscles"),
    ("pose-bone", "msxpbd_body on the Pose Bones instead of the Bones", "fallback capsules"),
    ("armature-deform", "muscle parented with Armature Deform", "refused"),
)


def run_variant(msxpbd, path, variant):
    build(variant)
    vpath = os.path.splitext(path)[0] + "-" + variant + ".glb"
    export(vpath, extras=(variant != "no-extras"))
    out = os.path.splitext(vpath)[0] + ".json"
    r = subprocess.run([msxpbd, "run", "--scene", vpath, "--frames", "30", "--json", out, "--quiet"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "refused", r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "exit %d" % r.returncode
    j = json.load(open(out))
    w = j["content"].get("warnings", [])
    if j["muscles"] == 0:
        return "0 muscles", "; ".join(w)
    if any("no shape" in x for x in w):
        return "fallback capsules", "; ".join(w)
    if j["muscles"] == 1 and not j["final"]["nan"] and not w:
        s = j["muscle_stats"][0]
        return "loads", "length %.4f m vs rest %.4f m" % (s["length"], s["rest_length"])
    return "other", "%d muscles, warnings %s" % (j["muscles"], w)


def check(msxpbd, path):
    out = os.path.splitext(path)[0] + ".json"
    r = subprocess.run([msxpbd, "run", "--scene", path, "--frames", "30", "--json", out, "--quiet"],
                       capture_output=True, text=True)
    problems = []
    if r.returncode != 0:
        problems.append("msxpbd run exit %d: %s" % (r.returncode, r.stderr.strip()))
        return problems, {}
    j = json.load(open(out))
    warnings = j["content"].get("warnings", [])
    stats = j["muscle_stats"]
    if j["muscles"] != 1:
        problems.append("%d muscles loaded, want 1" % j["muscles"])
    if j["final"]["nan"]:
        problems.append("NaN")
    if warnings:
        problems.append("warnings: %s" % warnings)
    if stats and not stats[0]["length"] < 0.97 * stats[0]["rest_length"]:
        problems.append("length %.4f m vs rest %.4f m: the bend did not shorten the muscle"
                        % (stats[0]["length"], stats[0]["rest_length"]))
    return problems, j


def main():
    msxpbd, path = args()
    build()
    export(path)
    problems, j = check(msxpbd, path)
    if j:
        s = j["muscle_stats"][0] if j["muscle_stats"] else {}
        print("author_scene: Blender %s -> %s (%d bytes): %d muscle(s), %d vertices, constraints %s, nan %s, "
              "animation %s; flexor length %.4f m at frame 30 vs rest %.4f m (%.1f%%), volume ratio %.4f"
              % (bpy.app.version_string, path, os.path.getsize(path), j["muscles"], j["vertices"],
                 j["constraints"], j["final"]["nan"], [a["name"] for a in j["content"]["animations"]],
                 s.get("length", 0), s.get("rest_length", 0),
                 100 * (s.get("length", 0) / s.get("rest_length", 1) - 1), s.get("volume", 0) / s.get("rest_volume", 1)))
    for variant, what, want in VARIANTS:
        got, detail = run_variant(msxpbd, path, variant)
        print("author_scene: variant %s (%s): %s: %s" % (variant, what, got, detail))
        if got != want:
            problems.append("variant %s: %s, the doc says %s" % (variant, got, want))
    for p in problems:
        print("author_scene: problem: " + p)
    print("author_scene: %s" % ("OK" if not problems else "FAILED"))
    sys.stdout.flush()
    os._exit(0 if not problems else 1)


main()

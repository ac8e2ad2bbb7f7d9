#!/usr/bin/env python3
"""Writes the handmade glTF seeds of tests/fuzz/corpus/gltf/ (run once; the
outputs are committed). JSON-form copies of two small generated scenes, and
small .gltf files reaching the loader's less common paths: skins, sparse
accessors, byteStride, CUBICSPLINE, extras given as strings, an external URI."""
import base64, json, os, struct, sys

root = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(root, "corpus", "gltf")
assets = os.path.join(root, "..", "..", "assets", "scenes")


def glb_to_gltf(name):
    b = open(os.path.join(assets, name), "rb").read()
    jlen = struct.unpack_from("<I", b, 12)[0]
    j = json.loads(b[20:20 + jlen])
    blen = struct.unpack_from("<I", b, 20 + jlen)[0]
    binary = b[28 + jlen:28 + jlen + blen]
    j["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(binary).decode()
    return j


def write(name, j):
    with open(os.path.join(out, name), "w") as f:
        json.dump(j, f, separators=(",", ":"))


def data_uri(b):
    return "data:application/octet-stream;base64," + base64.b64encode(b).decode()


# A closed, outward-wound tetrahedron (5 cm) as the muscle.
s = 0.05
verts = [(0, 0, 0), (s, 0, 0), (0, s, 0), (0, 0, s)]
tris = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
pos = b"".join(struct.pack("<3f", *v) for v in verts)
idx = b"".join(struct.pack("<3H", *t) for t in tris)
times = struct.pack("<3f", 0.0, 0.5, 1.0)
rots = b"".join(struct.pack("<4f", *q) for q in [(0, 0, 0, 1), (0.38268343, 0, 0, 0.9238795), (0, 0, 0, 1)])


def muscle_scene(extras_as_string=False, cubic=False):
    buf = pos + idx + times + (rots * 3 if cubic else rots)
    muscle = {"origins": [0], "insertions": {"near": [0, 0, s], "radius": 0.01},
              "origin_bone": "upper", "insertion_bone": "lower", "contacts": ["upper"],
              "sliding": ["lower"], "initial_activation": 0.1, "overpressure": 0.2, "density": 1000,
              "stiffness": {"fiber": 20000, "volume": "inf"},
              "sensors": [{"joint": "lower", "axis": [1, 0, 0], "angle_offset": 0.1, "angle_gain": 0.5,
                           "velocity_gain": 0.1, "acceleration_gain": 0.01}]}
    return {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(buf), "uri": data_uri(buf)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos)},
                        {"buffer": 0, "byteOffset": len(pos), "byteLength": len(idx)},
                        {"buffer": 0, "byteOffset": len(pos) + len(idx), "byteLength": 12},
                        {"buffer": 0, "byteOffset": len(pos) + len(idx) + 12, "byteLength": len(buf) - len(pos) - len(idx) - 12}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [0, 0, 0], "max": [s, s, s]},
                      {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"},
                      {"bufferView": 2, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [1]},
                      {"bufferView": 3, "componentType": 5126, "count": 9 if cubic else 3, "type": "VEC4"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 4}]}],
        "nodes": [{"name": "upper", "children": [1],
                   "extras": {"msxpbd_body": {"capsule": {"a": [0, 0, 0], "b": [0, -0.1, 0], "radius": 0.01}}}},
                  {"name": "lower", "translation": [0, -0.1, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]},
                  {"name": "muscle", "mesh": 0,
                   "extras": {"msxpbd_muscle": json.dumps(muscle) if extras_as_string else muscle}}],
        "animations": [{"name": "flex", "samplers": [{"input": 2, "output": 3,
                                                       "interpolation": "CUBICSPLINE" if cubic else "LINEAR"}],
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}],
        "scene": 0,
        "scenes": [{"nodes": [0, 2], "extras": {"msxpbd_scene": {
            "planes": [{"origin": [0, -0.5, 0], "normal": [0, 1, 0]}], "sliding_radius": 0.004,
            "gravity_scale": 1, "substeps": 2, "carry": 1}}}],
    }


def skinned_scene():
    # A skinned quad on two joints; byteStride, normalized UNSIGNED_BYTE weights,
    # a sparse accessor on POSITION, no inverseBindMatrices on the second skin.
    p = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]
    inter = b"".join(struct.pack("<3f", *v) + struct.pack("<4B", 0, 1, 0, 0) + struct.pack("<4B", 255, 0, 0, 0) for v in p)
    ind = struct.pack("<6B", 0, 1, 2, 2, 1, 3)
    ibm = b"".join(struct.pack("<16f", 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) for _ in range(2))
    sp_idx = struct.pack("<B", 2) + b"\0\0\0"
    sp_val = struct.pack("<3f", 0, 2, 0)
    steps = struct.pack("<2f", 0, 1) + struct.pack("<6f", 0, 0, 0, 0, 1, 0)
    buf = inter + ind + b"\0\0" + ibm + sp_idx + sp_val + steps
    o_ind = len(inter)
    o_ibm = o_ind + 8
    o_sp = o_ibm + len(ibm)
    o_anim = o_sp + 4 + 12
    return {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(buf), "uri": data_uri(buf)}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(inter), "byteStride": 20},
                        {"buffer": 0, "byteOffset": o_ind, "byteLength": 6},
                        {"buffer": 0, "byteOffset": o_ibm, "byteLength": len(ibm)},
                        {"buffer": 0, "byteOffset": o_sp, "byteLength": 4},
                        {"buffer": 0, "byteOffset": o_sp + 4, "byteLength": 12},
                        {"buffer": 0, "byteOffset": o_anim, "byteLength": 32}],
        "accessors": [{"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 4, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0],
                       "sparse": {"count": 1, "indices": {"bufferView": 3, "componentType": 5121},
                                  "values": {"bufferView": 4}}},
                      {"bufferView": 0, "byteOffset": 12, "componentType": 5121, "count": 4, "type": "VEC4"},
                      {"bufferView": 0, "byteOffset": 16, "componentType": 5121, "normalized": True, "count": 4, "type": "VEC4"},
                      {"bufferView": 1, "componentType": 5121, "count": 6, "type": "SCALAR"},
                      {"bufferView": 2, "componentType": 5126, "count": 2, "type": "MAT4"},
                      {"bufferView": 5, "byteOffset": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                      {"bufferView": 5, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "VEC3"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 4, "skeleton": 1}, {"joints": [2]}],
        "nodes": [{"name": "skinned", "mesh": 0, "skin": 0},
                  {"name": "root", "children": [2], "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
                  {"name": "tip", "translation": [0, 1, 0]}],
        "animations": [{"samplers": [{"input": 5, "output": 6, "interpolation": "STEP"}],
                        "channels": [{"sampler": 0, "target": {"node": 2, "path": "translation"}}]}],
        "scenes": [{"nodes": [0, 1]}],
    }


def external_uri_scene():
    j = muscle_scene()
    j["buffers"][0]["uri"] = "buffer.bin"  # resolves in the harness's empty base dir: must fail cleanly
    return j


write("json-t1-oval.gltf", glb_to_gltf("t1-oval.glb"))
write("json-p2-oval-cube-plane.gltf", glb_to_gltf("p2-oval-cube-plane.glb"))
write("tetra-muscle.gltf", muscle_scene())
write("tetra-muscle-string-extras-cubic.gltf", muscle_scene(extras_as_string=True, cubic=True))
write("skinned-sparse-stride.gltf", skinned_scene())
write("external-uri.gltf", external_uri_scene())

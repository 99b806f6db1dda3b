#!/usr/bin/env python3
"""Writes the small glTF / GLB / PNG test assets in Scenes/assets/ (deterministic).

Run from the repository root:  python3 scripts/make-scene-assets.py
Only the Python standard library is used (struct, zlib, base64, json).
"""
import base64, json, struct, zlib, os

OUT = os.path.join(os.path.dirname(__file__), "..", "Scenes", "assets")

def png(width, height, pixel):
    """Minimal RGBA8 PNG writer (PNG spec: signature, IHDR, IDAT with filter 0 rows, IEND)."""
    raw = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")

def checker(x, y):
    return (230, 60, 40, 255) if (x // 2 + y // 2) % 2 == 0 else (245, 245, 245, 255)

def pad4(b, fill=b"\x00"):
    return b + fill * ((4 - len(b) % 4) % 4)

def cube():
    """24 vertices (4 per face), normals, uvs, 36 uint16 indices; CCW from outside."""
    faces = [((1, 0, 0), (0, 0, -1), (0, 1, 0)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
             ((0, 1, 0), (1, 0, 0), (0, 0, -1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
    pos, nor, uv, idx = [], [], [], []
    for n, u, v in faces:
        base = len(pos)
        for (su, sv) in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
            pos.append(tuple(0.5 * (n[i] + su * u[i] + sv * v[i]) for i in range(3)))
            nor.append(n)
            uv.append(((su + 1) / 2, (1 - sv) / 2))
        idx += [base, base + 1, base + 2, base, base + 2, base + 3]
    return pos, nor, uv, idx

def textured_cube():
    pos, nor, uv, idx = cube()
    b = b"".join(struct.pack("<3f", *p) for p in pos)
    b += b"".join(struct.pack("<3f", *n) for n in nor)
    b += b"".join(struct.pack("<2f", *t) for t in uv)
    b += pad4(b"".join(struct.pack("<H", i) for i in idx))
    n = len(pos)
    image = png(8, 8, checker)
    doc = {
        "asset": {"version": "2.0", "generator": "Parallax make-scene-assets.py"},
        "scene": 0, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "cube", "mesh": 0, "translation": [0, 0.5, 0]}],
        "meshes": [{"name": "cube", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}]}],
        "materials": [{"name": "checker", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0, "roughnessFactor": 0.6}}],
        "textures": [{"source": 0, "sampler": 0}],
        "samplers": [{"magFilter": 9728, "minFilter": 9728, "wrapS": 33071, "wrapT": 33071}],
        "images": [{"uri": "data:image/png;base64," + base64.b64encode(image).decode()}],
        "buffers": [{"byteLength": len(b), "uri": "data:application/octet-stream;base64," + base64.b64encode(b).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 12 * n}, {"buffer": 0, "byteOffset": 12 * n, "byteLength": 12 * n},
                        {"buffer": 0, "byteOffset": 24 * n, "byteLength": 8 * n}, {"buffer": 0, "byteOffset": 32 * n, "byteLength": 2 * len(idx)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3", "min": [-0.5] * 3, "max": [0.5] * 3},
                      {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
                      {"bufferView": 2, "componentType": 5126, "count": n, "type": "VEC2"},
                      {"bufferView": 3, "componentType": 5123, "count": len(idx), "type": "SCALAR"}],
    }
    return doc, image

def hierarchy():
    """Two nodes (base → arm), a quad with uint8 indices and a sparse position override, a
    non-indexed triangle with normalised uint8 texture coordinates, a spot light and a camera."""
    quad = [(-1, 0, -1), (1, 0, -1), (1, 0, 1), (-1, 0, 1)]   # y = 0 square facing +y
    b = b"".join(struct.pack("<3f", *p) for p in quad)                   # view 0: 48 bytes
    b += pad4(bytes([0, 2, 1, 0, 3, 2]))                                   # view 1: CCW from +y
    b += struct.pack("<B", 2) + b"\x00" * 3                                # view 2: sparse index (vertex 2)
    b += struct.pack("<3f", 2, 0, 2)                                       # view 3: sparse value
    tri = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
    b += b"".join(struct.pack("<3f", *p) for p in tri)                    # view 4: 36 bytes
    b += pad4(bytes([0, 0, 255, 0, 0, 255]))                               # view 5: uv as normalised bytes
    offs, o = [], 0
    for size in [48, 8, 4, 12, 36, 8]:
        offs.append(o); o += size
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0, "scenes": [{"nodes": [0, 2, 3]}],
        "nodes": [
            {"name": "base", "mesh": 0, "translation": [0, 1, 0], "children": [1]},
            {"name": "arm", "mesh": 1, "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [2, 2, 2], "translation": [3, 0, 0]},
            {"name": "lamp", "translation": [0, 4, 0], "rotation": [-0.7071068, 0, 0, 0.7071068], "extensions": {"KHR_lights_punctual": {"light": 0}}},
            {"name": "eye", "camera": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1.5, 5, 1]},
        ],
        "meshes": [
            {"name": "quad", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
            {"name": "triangle", "primitives": [{"attributes": {"POSITION": 2, "TEXCOORD_0": 3}}]},
        ],
        "cameras": [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "zfar": 50}}],
        "extensions": {"KHR_lights_punctual": {"lights": [{"type": "spot", "intensity": 2, "color": [1, 0.9, 0.8], "range": 20,
                                                            "spot": {"innerConeAngle": 0.2, "outerConeAngle": 0.5}}]}},
        "extensionsUsed": ["KHR_lights_punctual"],
        "buffers": [{"byteLength": len(b), "uri": "hierarchy.bin"}],
        "bufferViews": [{"buffer": 0, "byteOffset": offs[i], "byteLength": s} for i, s in enumerate([48, 6, 1, 12, 36, 6])],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
             "sparse": {"count": 1, "indices": {"bufferView": 2, "componentType": 5121}, "values": {"bufferView": 3}}},
            {"bufferView": 1, "componentType": 5121, "count": 6, "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5126, "count": 3, "type": "VEC3"},
            {"bufferView": 5, "componentType": 5121, "normalized": True, "count": 3, "type": "VEC2"},
        ],
    }
    return doc, b

def glb(doc, binary):
    js = pad4(json.dumps(doc, separators=(",", ":")).encode(), b" ")
    bn = pad4(binary)
    body = struct.pack("<II", len(js), 0x4E4F534A) + js + struct.pack("<II", len(bn), 0x004E4942) + bn
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body

def obj_box(lines, center, size, material):
    """Appends a box as six quads, referring to its vertices with negative (relative) indices."""
    cx, cy, cz = center; hx, hy, hz = (s / 2 for s in size)
    lines.append(f"usemtl {material}")
    corners = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    for (x, y, z) in corners:
        lines.append(f"v {cx + x * hx:.4f} {cy + y * hy:.4f} {cz + z * hz:.4f}")
    # corner index k = 4*(x>0) + 2*(y>0) + (z>0); faces CCW from outside
    quads = {(1, 0, 0): [4, 6, 7, 5], (-1, 0, 0): [0, 1, 3, 2], (0, 1, 0): [2, 3, 7, 6],
             (0, -1, 0): [0, 4, 5, 1], (0, 0, 1): [1, 5, 7, 3], (0, 0, -1): [0, 2, 6, 4]}
    for n, q in quads.items():
        lines.append("vn %d %d %d" % n)
        lines.append("f " + " ".join(f"{k - 8}/{t - 4}/-1" for k, t in zip(q, range(4))))

def table_obj():
    lines = ["# Parallax test asset: a small table (top + leg) and a pentagon plaque; written by make-scene-assets.py",
             "mtllib table.mtl", "vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    obj_box(lines, (0, 0.725, 0), (1.0, 0.05, 0.6), "wood")
    obj_box(lines, (0, 0.35, 0), (0.08, 0.7, 0.08), "metal")
    lines.append("usemtl wood")
    import math
    for k in range(5):
        a = math.pi / 2 + k * 2 * math.pi / 5
        lines.append(f"v {0.1 * math.cos(a):.4f} {0.6 + 0.1 * math.sin(a):.4f} 0.3")
    lines.append("vn 0 0 1")
    lines.append("f -5//-1 -4//-1 -3//-1 -2//-1 -1//-1")
    mtl = ["# materials of table.obj", "newmtl wood", "Kd 0.55 0.35 0.2", "Ks 0.1 0.1 0.1", "Ns 20",
           "", "newmtl metal", "Kd 0.6 0.6 0.65", "Ks 0.9 0.9 0.9", "Ns 200", "d 1"]
    return "\n".join(lines) + "\n", "\n".join(mtl) + "\n"

def room():
    """Scenes/room.json: a 6 m × 5 m × 3 m room (x ∈ [-3, 3], z ∈ [-2.5, 2.5], y ∈ [0, 3]) with
    textured walls, floor and ceiling, a table, cabinets, a bookshelf full of books and posters:
    many corners and textures for the feature tracker. Kept as a generator because the shelf
    and posters are loops; edit here, then re-run."""
    import random
    rnd = random.Random(7)
    mats = {
        "floor": {"lightingModel": "physicallyBased", "diffuse": {"procedural": "wood", "size": 512, "cells": 6, "color1": "#c89a64", "color2": "#6e4526", "seed": 3, "scale": 3}, "roughness": 0.6},
        "bricks": {"lightingModel": "lambert", "diffuse": {"procedural": "bricks", "size": 512, "cells": 16, "color1": "#b25a3f", "color2": "#ddd6c8", "seed": 5, "scale": [3, 1.5]}},
        "tiles": {"lightingModel": "blinn", "diffuse": {"procedural": "tiles", "size": 512, "cells": 8, "color1": "#dfe6ea", "color2": "#6c7478", "seed": 11, "scale": [2.5, 1.5]}, "specular": [0.3, 0.3, 0.3], "shininess": 40},
        "plaster": {"lightingModel": "lambert", "diffuse": {"procedural": "noise", "size": 256, "cells": 24, "color1": "#e8dfcf", "color2": "#b8ab95", "seed": 17, "scale": 2}},
        "ceiling": {"lightingModel": "lambert", "diffuse": {"procedural": "tiles", "size": 256, "cells": 4, "color1": "#f4f4f0", "color2": "#a0a0a0", "seed": 2, "scale": [6, 5]}},
        "oak": {"lightingModel": "blinn", "diffuse": {"procedural": "wood", "size": 256, "cells": 3, "color1": "#d6ad78", "color2": "#7a4e2a", "seed": 23}, "specular": [0.2, 0.2, 0.2], "shininess": 30},
        "metal": {"lightingModel": "physicallyBased", "diffuse": "#9a9ea4", "metalness": 1, "roughness": 0.35},
        "cabinet": {"lightingModel": "blinn", "diffuse": {"procedural": "checker", "size": 128, "cells": 4, "color1": "#f0f0ea", "color2": "#3a5a7a", "seed": 1}, "specular": [0.1, 0.1, 0.1]},
        "rug": {"lightingModel": "lambert", "diffuse": {"procedural": "poster", "size": 512, "cells": 30, "color1": "#7a2e2e", "seed": 99}},
        "lamp-glow": {"lightingModel": "constant", "diffuse": [1, 1, 1], "emission": [3, 2.6, 2]},
    }
    nodes = [
        {"name": "camera", "position": [0.4, 1.5, 1.8], "lookAt": [-0.5, 1.1, -2.5], "camera": {"fieldOfView": 60, "zNear": 0.05, "zFar": 30}},
        {"name": "ambient", "light": {"type": "ambient", "intensity": 350, "temperature": 5000}},
        {"name": "ceiling-lamp-1", "position": [-1.2, 2.85, -0.5], "light": {"type": "omni", "intensity": 900, "temperature": 3500, "attenuationStart": 0.5, "attenuationEnd": 9, "castsShadow": True, "shadowMapSize": 1024},
         "geometry": {"type": "sphere", "radius": 0.1, "material": "lamp-glow"}, "castsShadow": False},
        {"name": "ceiling-lamp-2", "position": [1.5, 2.85, 1.0], "light": {"type": "omni", "intensity": 700, "temperature": 4000, "attenuationStart": 0.5, "attenuationEnd": 9, "castsShadow": True, "shadowMapSize": 1024},
         "geometry": {"type": "sphere", "radius": 0.1, "material": "lamp-glow"}, "castsShadow": False},
        {"name": "floor", "position": [0, 0, 0], "rotation": {"axis": [1, 0, 0], "degrees": -90}, "geometry": {"type": "plane", "width": 6, "height": 5, "material": "floor"}},
        {"name": "ceiling", "position": [0, 3, 0], "rotation": {"axis": [1, 0, 0], "degrees": 90}, "geometry": {"type": "plane", "width": 6, "height": 5, "material": "ceiling"}},
        {"name": "wall-back", "position": [0, 1.5, -2.5], "geometry": {"type": "plane", "width": 6, "height": 3, "material": "bricks"}},
        {"name": "wall-front", "position": [0, 1.5, 2.5], "rotation": {"axis": [0, 1, 0], "degrees": 180}, "geometry": {"type": "plane", "width": 6, "height": 3, "material": "plaster"}},
        {"name": "wall-left", "position": [-3, 1.5, 0], "rotation": {"axis": [0, 1, 0], "degrees": 90}, "geometry": {"type": "plane", "width": 5, "height": 3, "material": "tiles"}},
        {"name": "wall-right", "position": [3, 1.5, 0], "rotation": {"axis": [0, 1, 0], "degrees": -90}, "geometry": {"type": "plane", "width": 5, "height": 3, "material": "plaster"}},
        {"name": "rug", "position": [0, 0.005, 0.2], "rotation": {"axis": [1, 0, 0], "degrees": -90}, "geometry": {"type": "plane", "width": 2.4, "height": 1.6, "material": "rug"}},
        {"name": "table", "position": [0.2, 0, -0.6], "children": [
            {"name": "table-top", "position": [0, 0.74, 0], "geometry": {"type": "box", "width": 1.6, "height": 0.04, "length": 0.9, "chamferRadius": 0.01, "material": "oak"}},
        ] + [{"name": f"table-leg-{i}", "position": [x, 0.36, z], "geometry": {"type": "box", "width": 0.06, "height": 0.72, "length": 0.06, "material": "metal"}}
             for i, (x, z) in enumerate([(-0.72, -0.37), (0.72, -0.37), (0.72, 0.37), (-0.72, 0.37)])]
         + [{"name": "mug", "position": [0.4, 0.81, 0.1], "geometry": {"type": "cylinder", "radius": 0.04, "height": 0.1, "material": {"lightingModel": "blinn", "diffuse": "#2060a0"}}},
            {"name": "book-on-table", "position": [-0.3, 0.78, 0.05], "rotation": {"axis": [0, 1, 0], "degrees": 20},
             "geometry": {"type": "box", "width": 0.22, "height": 0.04, "length": 0.3, "material": {"lightingModel": "lambert", "diffuse": {"procedural": "poster", "size": 128, "cells": 6, "seed": 5}}}}]},
        {"name": "cabinets", "position": [2.7, 0, -1.2], "rotation": {"axis": [0, 1, 0], "degrees": -90}, "children": [
            {"name": f"cabinet-{i}", "position": [x, 0.45, 0], "geometry": {"type": "box", "width": 0.58, "height": 0.9, "length": 0.55, "chamferRadius": 0.01, "material": "cabinet"}}
            for i, x in enumerate([-0.6, 0.0, 0.6])] + [
            {"name": f"handle-{i}", "position": [x, 0.75, 0.29], "geometry": {"type": "capsule", "capRadius": 0.012, "height": 0.2, "material": "metal"}, "rotation": {"axis": [0, 0, 1], "degrees": 90}}
            for i, x in enumerate([-0.6, 0.0, 0.6])]},
        {"name": "plant", "position": [-2.5, 0, 2.0], "children": [
            {"name": "pot", "position": [0, 0.2, 0], "geometry": {"type": "cone", "topRadius": 0.2, "bottomRadius": 0.14, "height": 0.4, "material": {"lightingModel": "lambert", "diffuse": "#a0522d"}}},
            {"name": "foliage", "position": [0, 0.75, 0], "geometry": {"type": "sphere", "radius": 0.35, "segments": 24, "material": {"lightingModel": "lambert", "diffuse": {"procedural": "noise", "size": 128, "cells": 16, "color1": "#2e6b2e", "color2": "#a3d06a", "seed": 8}}}}]},
    ]
    # Bookshelf against the left wall: frame, shelves, and books of random sizes and colours.
    shelf = {"name": "bookshelf", "position": [-2.82, 0, -1.0], "rotation": {"axis": [0, 1, 0], "degrees": 90}, "children": [
        {"name": "shelf-side-l", "position": [-0.6, 1.0, 0], "geometry": {"type": "box", "width": 0.03, "height": 2.0, "length": 0.32, "material": "oak"}},
        {"name": "shelf-side-r", "position": [0.6, 1.0, 0], "geometry": {"type": "box", "width": 0.03, "height": 2.0, "length": 0.32, "material": "oak"}}]}
    for level in range(5):
        y = 0.05 + level * 0.45
        shelf["children"].append({"name": f"shelf-{level}", "position": [0, y, 0], "geometry": {"type": "box", "width": 1.2, "height": 0.03, "length": 0.32, "material": "oak"}})
        if level == 4:
            continue
        x = -0.57
        k = 0
        while True:
            w = round(rnd.uniform(0.025, 0.06), 3); h = round(rnd.uniform(0.22, 0.36), 3)
            if x + w > 0.56:
                break
            colour = "#%02x%02x%02x" % (rnd.randint(30, 230), rnd.randint(30, 230), rnd.randint(30, 230))
            tilt = 0 if rnd.random() > 0.12 else rnd.choice([-8, 8])
            shelf["children"].append({"name": f"book-{level}-{k}", "position": [round(x + w / 2, 3), round(y + 0.015 + h / 2, 3), 0.0],
                                      "rotation": {"axis": [0, 0, 1], "degrees": tilt},
                                      "geometry": {"type": "box", "width": w, "height": h, "length": 0.22, "material": {"lightingModel": "lambert", "diffuse": colour}}})
            x += w + 0.004; k += 1
    nodes.append(shelf)
    # Posters: 1 cm in front of the walls, each a different procedural pattern.
    posters = [("poster-back-1", [-1.6, 1.7, -2.49], 0, 1.0, 0.7, 41), ("poster-back-2", [1.4, 1.6, -2.49], 0, 0.8, 1.1, 42),
               ("poster-right-1", [2.99, 1.6, 0.8], -90, 1.2, 0.8, 43), ("poster-front-1", [-0.8, 1.6, 2.49], 180, 1.0, 1.0, 44),
               ("poster-left-1", [-2.99, 1.8, 1.2], 90, 0.7, 0.9, 45)]
    for name, pos, yaw, w, h, seed in posters:
        nodes.append({"name": name, "position": pos, "rotation": {"axis": [0, 1, 0], "degrees": yaw},
                      "geometry": {"type": "plane", "width": w, "height": h,
                                   "material": {"lightingModel": "lambert", "diffuse": {"procedural": "poster", "size": 256, "cells": 12, "color1": "#f2efe6", "seed": seed}}}})
    nodes.append({"name": "clock", "position": [2.99, 2.3, -0.4], "rotation": {"axis": [0, 1, 0], "degrees": -90}, "children": [
        {"name": "clock-face", "rotation": {"axis": [1, 0, 0], "degrees": 90}, "geometry": {"type": "cylinder", "radius": 0.18, "height": 0.03,
         "material": {"lightingModel": "blinn", "diffuse": {"procedural": "checker", "size": 64, "cells": 12, "color1": "#ffffff", "color2": "#222222"}}}}]})
    return {"format": "parallax-scene", "version": 1,
            "description": "A furnished 6 x 5 x 3 m room, rich in texture and corners for visual tracking. Generated by scripts/make-scene-assets.py.",
            "background": [0, 0, 0], "materials": mats, "nodes": nodes}

def hall():
    """Scenes/hall.json: a 40 m × 30 m × 12 m hall (x ∈ [-20, 20], z ∈ [-15, 15], y ∈ [0, 12]) for
    long recorded trajectories (udel_gore spans ~25 × 16 m and climbs 7.7 m). Textures are
    coarse (tiles, bricks and posters metres wide) so corners stay trackable from many metres
    away; pillars, crates and shelves stand along the walls, leaving the middle free for the
    camera. Low crates (< 1 m) stand in the middle; flown trajectories keep above 1 m."""
    import random
    rnd = random.Random(11)
    mats = {
        "floor": {"lightingModel": "lambert", "diffuse": {"procedural": "tiles", "size": 1024, "cells": 8, "color1": "#d8d0c0", "color2": "#3c3a36", "seed": 4, "scale": [10, 7.5], "mipmaps": True}},
        "bricks": {"lightingModel": "lambert", "diffuse": {"procedural": "bricks", "size": 1024, "cells": 12, "color1": "#a4503a", "color2": "#e2dccf", "seed": 6, "scale": [8, 3], "mipmaps": True}},
        "blocks": {"lightingModel": "lambert", "diffuse": {"procedural": "checker", "size": 512, "cells": 8, "color1": "#e6e2d6", "color2": "#44586c", "seed": 3, "scale": [7.5, 3], "mipmaps": True}},
        "ceiling": {"lightingModel": "lambert", "diffuse": {"procedural": "tiles", "size": 512, "cells": 6, "color1": "#f0f0ec", "color2": "#7a7a80", "seed": 2, "scale": [8, 6], "mipmaps": True}},
        "pillar": {"lightingModel": "lambert", "diffuse": {"procedural": "checker", "size": 256, "cells": 4, "color1": "#f4f1e8", "color2": "#8a2f2f", "seed": 1, "scale": [1, 6], "mipmaps": True}},
        "crate": {"lightingModel": "lambert", "diffuse": {"procedural": "wood", "size": 512, "cells": 4, "color1": "#d9ae74", "color2": "#6b4322", "seed": 9, "mipmaps": True}},
        "shelf": {"lightingModel": "lambert", "diffuse": {"procedural": "noise", "size": 256, "cells": 16, "color1": "#3d6b9a", "color2": "#cfdbe6", "seed": 12, "mipmaps": True}},
        "lamp-glow": {"lightingModel": "constant", "diffuse": [1, 1, 1], "emission": [3, 2.8, 2.4]},
    }
    W, L, H = 40.0, 30.0, 12.0
    nodes = [
        {"name": "camera", "position": [0, 1.6, 12], "lookAt": [0, 3, -15], "camera": {"fieldOfView": 60, "zNear": 0.05, "zFar": 120}},
        {"name": "ambient", "light": {"type": "ambient", "intensity": 450, "temperature": 5500}},
        {"name": "sun", "eulerDegrees": [-60, 30, 0], "light": {"type": "directional", "intensity": 600, "temperature": 6000}},
        {"name": "floor", "rotation": {"axis": [1, 0, 0], "degrees": -90}, "geometry": {"type": "plane", "width": W, "height": L, "material": "floor"}},
        {"name": "ceiling", "position": [0, H, 0], "rotation": {"axis": [1, 0, 0], "degrees": 90}, "geometry": {"type": "plane", "width": W, "height": L, "material": "ceiling"}},
        {"name": "wall-back", "position": [0, H / 2, -L / 2], "geometry": {"type": "plane", "width": W, "height": H, "material": "bricks"}},
        {"name": "wall-front", "position": [0, H / 2, L / 2], "rotation": {"axis": [0, 1, 0], "degrees": 180}, "geometry": {"type": "plane", "width": W, "height": H, "material": "blocks"}},
        {"name": "wall-left", "position": [-W / 2, H / 2, 0], "rotation": {"axis": [0, 1, 0], "degrees": 90}, "geometry": {"type": "plane", "width": L, "height": H, "material": "blocks"}},
        {"name": "wall-right", "position": [W / 2, H / 2, 0], "rotation": {"axis": [0, 1, 0], "degrees": -90}, "geometry": {"type": "plane", "width": L, "height": H, "material": "bricks"}},
    ]
    # Ceiling lamps on a grid (omni, no shadows: a 40 m hall would need many shadow maps).
    for i, x in enumerate([-12, 0, 12]):
        for j, z in enumerate([-8, 8]):
            nodes.append({"name": f"lamp-{i}-{j}", "position": [x, H - 0.4, z], "castsShadow": False,
                          "light": {"type": "omni", "intensity": 700, "temperature": 4200, "attenuationStart": 2, "attenuationEnd": 40},
                          "geometry": {"type": "sphere", "radius": 0.3, "material": "lamp-glow"}})
    # Pillars, floor to ceiling, 2 m in front of the walls.
    k = 0
    for x in [-18, -9, 0, 9, 18]:
        for z in [-13, 13]:
            nodes.append({"name": f"pillar-{k}", "position": [x, H / 2, z], "geometry": {"type": "box", "width": 0.8, "height": H, "length": 0.8, "material": "pillar"}}); k += 1
    for z in [-6, 6]:
        for x in [-18, 18]:
            nodes.append({"name": f"pillar-{k}", "position": [x, H / 2, z], "geometry": {"type": "cylinder", "radius": 0.5, "height": H, "radialSegments": 32, "material": "pillar"}}); k += 1
    # Shelving units along the back and front walls: frame and boxes of random sizes and colours.
    for s, (x, z, yaw) in enumerate([(-13.5, -14.3, 0), (-4.5, -14.3, 0), (4.5, -14.3, 0), (13.5, -14.3, 0), (-4.5, 14.3, 180), (4.5, 14.3, 180)]):
        unit = {"name": f"shelf-{s}", "position": [x, 0, z], "rotation": {"axis": [0, 1, 0], "degrees": yaw}, "children": [
            {"name": f"shelf-{s}-side-l", "position": [-2.5, 2.5, 0], "geometry": {"type": "box", "width": 0.1, "height": 5, "length": 1.0, "material": "shelf"}},
            {"name": f"shelf-{s}-side-r", "position": [2.5, 2.5, 0], "geometry": {"type": "box", "width": 0.1, "height": 5, "length": 1.0, "material": "shelf"}}]}
        for level in range(4):
            y = 0.1 + level * 1.6
            unit["children"].append({"name": f"shelf-{s}-board-{level}", "position": [0, y, 0], "geometry": {"type": "box", "width": 5, "height": 0.08, "length": 1.0, "material": "shelf"}})
            if level == 3:
                continue
            bx = -2.4
            b = 0
            while True:
                w = round(rnd.uniform(0.3, 0.9), 2); h = round(rnd.uniform(0.4, 1.3), 2)
                if bx + w > 2.4:
                    break
                colour = "#%02x%02x%02x" % (rnd.randint(30, 230), rnd.randint(30, 230), rnd.randint(30, 230))
                unit["children"].append({"name": f"shelf-{s}-box-{level}-{b}", "position": [round(bx + w / 2, 2), round(y + 0.04 + h / 2, 2), 0.1],
                                         "geometry": {"type": "box", "width": w, "height": h, "length": 0.7,
                                                      "material": {"lightingModel": "lambert", "diffuse": colour} if rnd.random() < 0.5 else "crate"}})
                bx += w + 0.05; b += 1
        nodes.append(unit)
    # Stacks of crates along the side walls (up to three high) and low crates in the middle.
    c = 0
    for x in [-18.6, 18.6]:
        for z in [-10, -2, 2, 10]:
            for level in range(rnd.randint(1, 3)):
                size = 1.2
                nodes.append({"name": f"crate-{c}", "position": [x + rnd.uniform(-0.1, 0.1), size / 2 + level * size, z + rnd.uniform(-0.1, 0.1)],
                              "rotation": {"axis": [0, 1, 0], "degrees": rnd.uniform(-10, 10)},
                              "geometry": {"type": "box", "width": size, "height": size, "length": size, "material": "crate"}}); c += 1
    for _ in range(14):
        size = round(rnd.uniform(0.5, 0.9), 2)
        nodes.append({"name": f"crate-{c}", "position": [round(rnd.uniform(-15, 15), 2), size / 2, round(rnd.uniform(-10, 10), 2)],
                      "rotation": {"axis": [0, 1, 0], "degrees": round(rnd.uniform(0, 90), 1)},
                      "geometry": {"type": "box", "width": size, "height": size, "length": size, "material": "crate"}}); c += 1
    # Posters, metres wide, 2 cm in front of the walls at several heights.
    p = 0
    for (axis_pos, yaw, span, along) in [(-L / 2 + 0.02, 0, W, "x"), (L / 2 - 0.02, 180, W, "x"), (-W / 2 + 0.02, 90, L, "z"), (W / 2 - 0.02, -90, L, "z")]:
        n = int(span // 7)
        for i in range(n):
            t = -span / 2 + (i + 0.5) * span / n + rnd.uniform(-0.8, 0.8)
            y = rnd.choice([6.5, 8.0, 9.5]) if along == "x" else rnd.choice([3.5, 6.0, 8.5])
            w, h = round(rnd.uniform(2.5, 4.0), 2), round(rnd.uniform(2.0, 3.0), 2)
            pos = [round(t, 2), y, axis_pos] if along == "x" else [axis_pos, y, round(t, 2)]
            nodes.append({"name": f"poster-{p}", "position": pos, "rotation": {"axis": [0, 1, 0], "degrees": yaw},
                          "geometry": {"type": "plane", "width": w, "height": h,
                                       "material": {"lightingModel": "lambert", "diffuse": {"procedural": "poster", "size": 512, "cells": 10, "color1": "#f2efe6", "seed": 100 + p, "mipmaps": True}}}}); p += 1
    return {"format": "parallax-scene", "version": 1,
            "description": "A 40 x 30 x 12 m hall with pillars, shelving, crates and large posters for long trajectories. Generated by scripts/make-scene-assets.py.",
            "background": [0, 0, 0], "materials": mats, "nodes": nodes}

def main():
    os.makedirs(OUT, exist_ok=True)
    doc, image = textured_cube()
    with open(os.path.join(OUT, "textured-cube.gltf"), "w") as f: json.dump(doc, f, indent=1)
    with open(os.path.join(OUT, "checker.png"), "wb") as f: f.write(image)
    doc, binary = hierarchy()
    with open(os.path.join(OUT, "hierarchy.gltf"), "w") as f: json.dump(doc, f, indent=1)
    with open(os.path.join(OUT, "hierarchy.bin"), "wb") as f: f.write(binary)
    del doc["buffers"][0]["uri"]
    with open(os.path.join(OUT, "hierarchy.glb"), "wb") as f: f.write(glb(doc, binary))
    with open(os.path.join(OUT, "..", "room.json"), "w") as f: json.dump(room(), f, indent=1); f.write("\n")
    with open(os.path.join(OUT, "..", "hall.json"), "w") as f: json.dump(hall(), f, indent=1); f.write("\n")
    obj, mtl = table_obj()
    with open(os.path.join(OUT, "table.obj"), "w") as f: f.write(obj)
    with open(os.path.join(OUT, "table.mtl"), "w") as f: f.write(mtl)
    with open(os.path.join(OUT, "poster.obj"), "w") as f:
        f.write("# a textured quad facing +z\nmtllib poster.mtl\nv -0.5 -0.5 0\nv 0.5 -0.5 0\nv 0.5 0.5 0\nv -0.5 0.5 0\n"
                "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nusemtl poster\nf 1/1/1 2/2/1 3/3/1 4/4/1\n")
    with open(os.path.join(OUT, "poster.mtl"), "w") as f:
        f.write("newmtl poster\nKd 1 1 1\nmap_Kd checker.png\n")

if __name__ == "__main__":
    main()

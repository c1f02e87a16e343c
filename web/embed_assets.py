#!/usr/bin/env python3
"""Embed every file under web/assets/ (recursively) into a C file, so that
`arbiter serve` and `arbiter report` need nothing outside the binary.
Usage: embed_assets.py OUT.c ASSETS_DIR [--as NAME=PATH]... [FILE...] (the
files are listed for meson's dependency tracking; the directory is walked;
--as NAME=PATH embeds the asset NAME from PATH instead, a file the build made).
       embed_assets.py --concat OUT FILE... (OUT is the files one after the
other: the viewer's core and each game's renderer, web/meson.build)."""
import os
import sys

TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}

if len(sys.argv) > 1 and sys.argv[1] == "--concat":
    with open(sys.argv[2], "w", encoding="utf-8") as o:
        for path in sys.argv[3:]:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            o.write(text if text.endswith("\n") else text + "\n")
    sys.exit(0)

out, root = sys.argv[1], sys.argv[2]
built = {}
for arg in sys.argv[3:]:
    if arg.startswith("--as="):
        name, _, path = arg[len("--as="):].partition("=")
        built[name] = path
names = []
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    for f in sorted(filenames):
        if f.startswith("."):
            continue
        full = os.path.join(dirpath, f)
        names.append(os.path.relpath(full, root).replace(os.sep, "/"))
names.sort()
with open(out, "w", encoding="utf-8") as o:
    o.write("/* web_assets.c — generated from web/assets/ by web/embed_assets.py. */\n")
    o.write('#include "web.h"\n\n#include <string.h>\n\n')
    for i, name in enumerate(names):
        with open(built.get(name, os.path.join(root, name)), "rb") as f:
            data = f.read()
        # byte arrays, not string literals: C caps the length of a literal
        o.write("static const unsigned char asset_%d[] = {\n" % i)
        for k in range(0, len(data), 16):
            o.write("    " + ", ".join("%d" % c for c in data[k:k + 16]) + ",\n")
        if not data:
            o.write("    0,\n")
        o.write("};\n")
    o.write("static const web_asset assets[] = {\n")
    for i, name in enumerate(names):
        ext = os.path.splitext(name)[1].lower()
        typ = TYPES.get(ext, "application/octet-stream")
        with open(built.get(name, os.path.join(root, name)), "rb") as f:
            n = len(f.read())
        o.write('    {"%s", "%s", asset_%d, %d},\n' % (name.replace("\\", "\\\\").replace('"', '\\"'), typ, i, n))
    if not names:
        o.write('    {"", "text/plain", (const unsigned char *)"", 0},\n')
    o.write("};\n")
    o.write("static const size_t nassets = %d;\n\n" % len(names))
    o.write("""const web_asset *web_asset_find(const char *name)
{
    for (size_t i = 0; i < nassets; i++)
        if (strcmp(assets[i].name, name) == 0)
            return &assets[i];
    return NULL;
}

const web_asset *web_assets(size_t *n)
{
    *n = nassets;
    return assets;
}
""")

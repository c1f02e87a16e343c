#!/usr/bin/env python3
"""Embed record/sql/NNN_*.sql into a C file (the migrations the record
applies at start), so an installed arbiter needs no source tree."""
import os
import re
import sys

out, files = sys.argv[1], sorted(sys.argv[2:], key=os.path.basename)
versions, bodies = [], []
for path in files:
    m = re.match(r"(\d+)_", os.path.basename(path))
    if not m:
        sys.exit("migration without a number: " + path)
    versions.append(int(m.group(1)))
    with open(path, encoding="utf-8") as f:
        bodies.append(f.read())
with open(out, "w", encoding="utf-8") as f:
    f.write("/* migrations.c — generated from record/sql by record/embed_sql.py. */\n")
    # byte arrays, not string literals: C caps the length of a literal
    for i, b in enumerate(bodies):
        data = b.encode("utf-8") + b"\0"
        f.write("static const unsigned char migration_%d[] = {\n" % i)
        for k in range(0, len(data), 16):
            f.write("    " + ", ".join("%d" % c for c in data[k:k + 16]) + ",\n")
        f.write("};\n")
    f.write("extern const char *const arb_migrations[];\n")
    f.write("extern const int arb_migration_versions[];\n")
    f.write("extern const int arb_nmigrations;\n")
    f.write("const char *const arb_migrations[] = {%s};\n" % ", ".join("(const char *)migration_%d" % i for i in range(len(bodies))))
    f.write("const int arb_migration_versions[] = {%s};\n" % ", ".join(map(str, versions)))
    f.write("const int arb_nmigrations = %d;\n" % len(versions))

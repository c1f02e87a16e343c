#!/usr/bin/env python3
"""make_bot.py DIR SDK: a Python bot of a library of 220+ modules in DIR,
for test_bundle.sh: DIR/bot.py (a random player) imports every module of
DIR/biglib (a package with ten subpackages of 21 modules each) and exits 3
unless their sum is right; DIR/arbiter_bot is the SDK, vendored; DIR/main.py
is a link to bot.py and DIR/lib64 a link to biglib (a venv's layout)."""
import os
import shutil
import sys

d, sdk = sys.argv[1], sys.argv[2]
os.makedirs(d, exist_ok=True)
lib = os.path.join(d, "biglib")
os.makedirs(lib, exist_ok=True)
subs = []
for i in range(10):
    sub = os.path.join(lib, "sub%d" % i)
    os.makedirs(sub, exist_ok=True)
    mods = []
    for j in range(21):
        with open(os.path.join(sub, "m%02d.py" % j), "w") as f:
            f.write("VALUE = %d\n" % (i * 100 + j) + "# padding\n" * 2000)
        mods.append("m%02d" % j)
    with open(os.path.join(sub, "__init__.py"), "w") as f:
        f.write("".join("from . import %s\n" % m for m in mods))
        f.write("TOTAL = sum(m.VALUE for m in [%s])\n" % ", ".join(mods))
    subs.append("sub%d" % i)
with open(os.path.join(lib, "__init__.py"), "w") as f:
    f.write("".join("from . import %s\n" % s for s in subs))
    f.write("TOTAL = sum(s.TOTAL for s in [%s])\n" % ", ".join(subs))
expected = sum(i * 100 + j for i in range(10) for j in range(21))
with open(os.path.join(d, "bot.py"), "w") as f:
    f.write('''import random, sys
import biglib
import arbiter_bot
if biglib.TOTAL != %d:
    sys.exit(3)
print("biglib: 220 modules imported", file=sys.stderr)
_rng = None
def choose(view, request):
    global _rng
    if _rng is None:
        _rng = random.Random(view.seed)
    return _rng.choice(request.legal)
if __name__ == "__main__":
    sys.exit(arbiter_bot.run(choose, name="big"))
''' % expected)
shutil.copytree(os.path.join(sdk, "arbiter_bot"), os.path.join(d, "arbiter_bot"), dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__"))
for link, target in (("main.py", "bot.py"), ("lib64", "biglib")):
    if not os.path.lexists(os.path.join(d, link)):
        os.symlink(target, os.path.join(d, link))

"""A PEP 517 build backend for the arbiter_bot package, standard library only.

`pip install bots-sdk/python` builds a wheel with it: no setuptools, no
wheel package and no network are needed (a fresh `python3 -m venv` has
neither wheel nor, from Python 3.12, setuptools). The wheel is the pure
Python package arbiter_bot/ and its metadata; PEP 660 editable installs
point a .pth file at this directory.
"""
import base64
import hashlib
import os
import zipfile

NAME = "arbiter_bot"
DIST = "arbiter-bot"
VERSION = "0.1.0"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "py3-none-any"


def _metadata():
    summary = "Write arbiter card-game bots in Python: the bot protocol, a view per game (Dou Dizhu, Da Bang)"
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nLicense: MIT\n"
            "Requires-Python: >=3.9\n" % (DIST, VERSION, summary))


def _wheel_meta():
    return "Wheel-Version: 1.0\nGenerator: arbiter_build\nRoot-Is-Purelib: true\nTag: %s\n" % TAG


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (name, digest, len(data))


def _write_wheel(wheel_directory, files):
    """files: [(name in the wheel, bytes)]; adds the dist-info and RECORD."""
    distinfo = "%s-%s.dist-info" % (NAME, VERSION)
    files = list(files) + [(distinfo + "/METADATA", _metadata().encode()),
                           (distinfo + "/WHEEL", _wheel_meta().encode())]
    record = "".join(_record_line(n, d) for n, d in files) + distinfo + "/RECORD,,\n"
    basename = "%s-%s-%s.whl" % (NAME, VERSION, TAG)
    with zipfile.ZipFile(os.path.join(wheel_directory, basename), "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files:
            z.writestr(n, d)
        z.writestr(distinfo + "/RECORD", record)
    return basename


def _package_files():
    pkg = os.path.join(HERE, NAME)
    out = []
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f), "rb") as fh:
                out.append(("%s/%s" % (NAME, f), fh.read()))
    return out


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, [(NAME + ".pth", (HERE + "\n").encode())])


def build_sdist(sdist_directory, config_settings=None):
    import tarfile
    base = "%s-%s" % (NAME, VERSION)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_build/arbiter_build.py"] + \
                   [n for n, _ in _package_files()]:
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        import io
        t.addfile(info, io.BytesIO(data))
    return os.path.basename(path)

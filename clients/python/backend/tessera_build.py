"""A PEP 517 build backend for this package, in the standard library alone.

Why not setuptools: building a wheel with setuptools needs setuptools 61+ *and* the ``wheel`` package, fetched from
a package index by pip's build isolation (or present already, with ``--no-build-isolation``). Machines that reach
no Python package index often have neither (this repository's have setuptools 65 without ``wheel``), and then
``pip install ./clients/python`` fails. This backend needs nothing, so that command works offline, with or without
build isolation, on any Python 3.9+ with pip.

It builds a pure-Python wheel (``py3-none-any``) of ``src/tessera``, an sdist, and an editable wheel (a ``.pth``
file pointing at ``src``). The metadata comes from ``pyproject.toml``'s ``[project]`` table (the simple string keys
this project uses) and the version from ``src/tessera/_version.py``, the one place it is written.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import zipfile
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "tessera"
SOURCE = os.path.join(ROOT, "src")
#: Fixed timestamp for reproducible archives (1980-01-01, the earliest a zip can hold), unless SOURCE_DATE_EPOCH.
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
SDIST_FILES = ("pyproject.toml", "README.md", "CHANGELOG.md")
SDIST_FOLDERS = ("src", "backend", "examples", "tests")


def _read(path: str) -> str:
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def version() -> str:
    found = re.search(r'^__version__\s*=\s*"([^"]+)"', _read("src/tessera/_version.py"), re.M)
    if not found:
        raise RuntimeError("src/tessera/_version.py has no __version__")
    return found.group(1)


def project() -> Dict[str, str]:
    """The ``[project]`` table's simple ``key = "string"`` entries."""
    text = _read("pyproject.toml")
    table = re.search(r"^\[project\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    if not table:
        raise RuntimeError("pyproject.toml has no [project] table")
    return dict(re.findall(r'^([A-Za-z][\w-]*)\s*=\s*"([^"]*)"\s*$', table.group(1), re.M))


def _classifiers() -> List[str]:
    text = _read("pyproject.toml")
    block = re.search(r"^classifiers\s*=\s*\[(.*?)\]", text, re.M | re.S)
    return re.findall(r'"([^"]+)"', block.group(1)) if block else []


def _names() -> Tuple[str, str, str]:
    meta = project()
    name = meta["name"]
    normalized = re.sub(r"[-_.]+", "_", name).lower()
    return name, normalized, version()


def metadata() -> str:
    meta = project()
    name, _, ver = _names()
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + name,
        "Version: " + ver,
        "Summary: " + meta.get("description", ""),
        "Requires-Python: " + meta.get("requires-python", ">=3.9"),
    ]
    lines += ["Classifier: " + c for c in _classifiers()]
    lines += ["Description-Content-Type: text/markdown", "", _read(meta.get("readme", "README.md"))]
    return "\n".join(lines)


def _wheel_file() -> str:
    return "Wheel-Version: 1.0\nGenerator: tessera_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files() -> List[Tuple[str, str]]:
    """(path inside the wheel, path on disk) of the package's files, without bytecode."""
    out = []
    for folder, dirs, files in os.walk(os.path.join(SOURCE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            disk = os.path.join(folder, name)
            out.append((os.path.relpath(disk, SOURCE).replace(os.sep, "/"), disk))
    return out


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(directory: str, entries: List[Tuple[str, bytes]]) -> str:
    _, normalized, ver = _names()
    dist_info = "%s-%s.dist-info" % (normalized, ver)
    entries = entries + [
        (dist_info + "/METADATA", metadata().encode("utf-8")),
        (dist_info + "/WHEEL", _wheel_file().encode("utf-8")),
        (dist_info + "/top_level.txt", (PACKAGE + "\n").encode("utf-8")),
    ]
    record = [("%s,%s,%d" % (path, _digest(data), len(data))) for path, data in entries]
    record.append(dist_info + "/RECORD,,")
    entries.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    filename = "%s-%s-py3-none-any.whl" % (normalized, ver)
    stamp = time.gmtime(max(EPOCH, 315532800))[:6]
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in entries:
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return filename


# --- PEP 517 hooks ------------------------------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    _, normalized, ver = _names()
    dist_info = "%s-%s.dist-info" % (normalized, ver)
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    for name, text in (("METADATA", metadata()), ("WHEEL", _wheel_file()), ("top_level.txt", PACKAGE + "\n")):
        with open(os.path.join(metadata_directory, dist_info, name), "w", encoding="utf-8") as f:
            f.write(text)
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(
    wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None
) -> str:
    entries = []
    for path, disk in _package_files():
        with open(disk, "rb") as f:
            entries.append((path, f.read()))
    return _write_wheel(wheel_directory, entries)


def build_editable(
    wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None
) -> str:
    _, normalized, _ = _names()
    return _write_wheel(wheel_directory, [("%s.pth" % normalized, (SOURCE + "\n").encode("utf-8"))])


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    _, normalized, ver = _names()
    base = "%s-%s" % (normalized, ver)
    filename = base + ".tar.gz"
    paths = [p for p in SDIST_FILES if os.path.exists(os.path.join(ROOT, p))]
    for folder in SDIST_FOLDERS:
        for current, dirs, files in os.walk(os.path.join(ROOT, folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith((".pyc", ".pyo")):
                    paths.append(os.path.relpath(os.path.join(current, name), ROOT))

    def add(archive: tarfile.TarFile, name: str, data: bytes) -> None:
        info = tarfile.TarInfo(base + "/" + name.replace(os.sep, "/"))
        info.size = len(data)
        info.mtime = EPOCH
        info.mode = 0o644
        archive.addfile(info, io.BytesIO(data))

    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as archive:
        for path in paths:
            with open(os.path.join(ROOT, path), "rb") as f:
                add(archive, path, f.read())
        add(archive, "PKG-INFO", metadata().encode("utf-8"))
    return filename

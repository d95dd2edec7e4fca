"""The build backend (backend/tessera_build.py): wheel, sdist and editable wheel, with nothing but the standard
library. (The suite also pip-installs the package into a fresh virtual environment.)"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib
import io
import os
import sys
import tarfile
import tempfile
import unittest
import zipfile

from support import PACKAGE_ROOT

import tessera

sys.path.insert(0, os.path.join(PACKAGE_ROOT, "backend"))
tessera_build = importlib.import_module("tessera_build")


class BackendTest(unittest.TestCase):
    def test_version_and_metadata_come_from_one_place(self) -> None:
        self.assertEqual(tessera_build.version(), tessera.__version__)
        meta = tessera_build.metadata()
        self.assertIn("Name: tessera-client\n", meta)
        self.assertIn("Version: %s\n" % tessera.__version__, meta)
        self.assertIn("Requires-Python: >=3.9\n", meta)
        self.assertIn("# tessera-client (Python)", meta)
        self.assertEqual(tessera_build.get_requires_for_build_wheel(), [])

    def test_wheel(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            name = tessera_build.build_wheel(folder)
            self.assertEqual(name, "tessera_client-%s-py3-none-any.whl" % tessera.__version__)
            with zipfile.ZipFile(os.path.join(folder, name)) as wheel:
                names = set(wheel.namelist())
                for module in ("__init__.py", "client.py", "_http.py", "auth.py", "errors.py", "types.py", "py.typed"):
                    self.assertIn("tessera/" + module, names)
                self.assertFalse([n for n in names if "__pycache__" in n or n.endswith(".pyc")])
                info = "tessera_client-%s.dist-info/" % tessera.__version__
                record = wheel.read(info + "RECORD").decode()
                rows = list(csv.reader(io.StringIO(record)))
                self.assertEqual({r[0] for r in rows}, names)
                for path, digest, size in rows:
                    if path.endswith("RECORD"):
                        continue
                    data = wheel.read(path)
                    expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual((digest, int(size)), ("sha256=" + expected, len(data)), path)
                self.assertIn("Root-Is-Purelib: true", wheel.read(info + "WHEEL").decode())

    def test_sdist_and_editable(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            sdist = tessera_build.build_sdist(folder)
            with tarfile.open(os.path.join(folder, sdist)) as archive:
                names = set(archive.getnames())
            base = "tessera_client-%s/" % tessera.__version__
            for path in ("pyproject.toml", "README.md", "CHANGELOG.md", "PKG-INFO", "src/tessera/client.py", "backend/tessera_build.py"):
                self.assertIn(base + path, names)
            editable = tessera_build.build_editable(folder)
            with zipfile.ZipFile(os.path.join(folder, editable)) as wheel:
                pth = wheel.read("tessera_client.pth").decode().strip()
            self.assertEqual(pth, os.path.join(PACKAGE_ROOT, "src"))


if __name__ == "__main__":
    unittest.main()

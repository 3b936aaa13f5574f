"""The package list, found rather than kept by hand (everything else is in pyproject.toml).

The design card keeps layouts/, analysis/ and printkit/ at the top of the repository; they install
as subpackages of `boardlab` (pyproject.toml's `package-dir`).  setuptools' own `find` in
pyproject.toml names packages by folder, not by that mapping, so this finds the packages under
each mapped folder and names them under its package: a new folder with an `__init__.py` (a new
game's engine, say) is installed without an edit here.  Folders holding only data (layouts/terms/,
boardlab/static/, ...) are found too (setuptools' namespace find), so that setuptools installs their
files without warning that a package is missing from its list.
"""

import tomllib
from pathlib import Path

from setuptools import find_namespace_packages, setup

ROOT = Path(__file__).resolve().parent
#: folders that are never packages (Python's byte-code caches)
CACHES = ["__pycache__", "*.__pycache__"]
PACKAGE_DIR = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]


def mapped_packages(package_dir: dict[str, str]) -> list[str]:
    """Every package under each mapped folder, named under its mapped package."""
    found = []
    for package, folder in sorted(package_dir.items()):
        found.append(package)
        found.extend(f"{package}.{sub}" for sub in find_namespace_packages(str(ROOT / folder), exclude=CACHES))
    return found


setup(packages=mapped_packages(PACKAGE_DIR))

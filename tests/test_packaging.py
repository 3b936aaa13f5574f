"""Every Python package folder of the source tree is installed (pyproject lists them by hand)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {package: Path(folder) for package, folder in config["package-dir"].items()}
    found = set()
    for package, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join((package, *relative.parts)) if relative.parts else package)
    assert found == set(config["packages"])
    data = config["package-data"]["boardlab.layouts"]
    assert "*.toml" in data and "variants/*.toml" in data

"""Type-check the installed package with mypy (`make typecheck`, part of `make test`).

pyproject.toml's `package-dir` installs common/, layouts/, analysis/, printkit/ and games/ as
subpackages of `boardlab`; mypy reads a source tree, not that mapping, so this lays the tree out
as installed (symbolic links in build/typecheck/boardlab/) and checks `boardlab` there with the
settings of pyproject.toml's [tool.mypy].  Exit status: mypy's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"


def lay_out() -> Path:
    """build/typecheck/boardlab/ as installed: links to every mapped folder's entries."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    shutil.rmtree(TREE, ignore_errors=True)
    for package, folder in sorted(mapping.items()):
        target = TREE.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for entry in (ROOT / folder).iterdir():
            if entry.name != "__pycache__" and not (target / entry.name).exists():
                os.symlink(entry, target / entry.name)
    return TREE


def main() -> int:
    tree = lay_out()
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(ROOT / "build" / "mypy-cache"), "-p", "boardlab"]
    return subprocess.run(command, cwd=tree).returncode


if __name__ == "__main__":
    sys.exit(main())

"""The Makefile's recipes are valid shell: `make` and `make test` are the README's contract.

`make -n TARGET` prints each recipe as make expands it, without running it; `sh -n` then reads it
for syntax without running it either (a recipe that does not parse fails only when a user runs it:
`make print` once failed with 'Syntax error: "do" unexpected' after a comment was put inside it).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["all", "check", "warm", "print", "rulebooks", "reports", "docs", "bench", "test", "test-slow", "typecheck", "clean"]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("target", TARGETS)
def test_every_recipe_is_valid_shell(target):
    expanded = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True)
    assert expanded.returncode == 0, expanded.stderr
    assert expanded.stdout.strip(), f"make -n {target} printed no recipe"
    parsed = subprocess.run(["sh", "-n"], input=expanded.stdout, capture_output=True, text=True)
    assert parsed.returncode == 0, f"make {target}: {parsed.stderr.strip()}"

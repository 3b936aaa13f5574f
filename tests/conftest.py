"""Shared test setup.

The helper modules beside the tests (reference engines, oracles, PDF readers, the test game in
tests/toygame/) are imported by name: pytest runs with --import-mode=importlib, which does not
put this folder on sys.path, so it is put there once, here.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

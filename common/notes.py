"""What a command says besides its result and its errors: progress and notes (the files it wrote,
the definitions it found in order).  `--quiet`, on every command, silences them; a result (a
table, a JSON document, a list) and every error are always said.

>>> set_quiet(True); note("wrote 3 files"); set_quiet(False)
>>> note("wrote 3 files")
wrote 3 files
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

_quiet = False


def set_quiet(quiet: bool) -> None:
    """Silence (or not) the notes and progress of the command being run (`--quiet`)."""
    global _quiet
    _quiet = quiet


def quiet() -> bool:
    """Whether the command runs with `--quiet`: no progress, no notes."""
    return _quiet


def note(text: str, file: TextIO | None = None, **kwargs: Any) -> None:
    """Print `text` (on standard output unless `file` says otherwise) unless the command is quiet."""
    if not _quiet:
        print(text, file=sys.stdout if file is None else file, **kwargs)

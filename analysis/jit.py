"""numba's `njit` for every compiled module, with one line on standard error while it compiles.

The fast paths are compiled on their first call after an install or a change (numba's
`cache=True` keeps the result for later runs): about 17 s for all of them, which without a word
looks like a hang. Every compiled module takes `njit` from here; importing it registers a
listener for numba's compile events (sent only when a function is really compiled, not when it
is read back from the cache) that, once a process has spent `DELAY` seconds compiling, writes
`MESSAGE` on standard error:

- only on a terminal: a pipe, a file or a test's captured stream stays as it was (several tests
  and scripts read standard error and expect nothing there);
- once per process tree: the line sets `SAID` in the environment, so a worker started after it
  stays quiet.

numba's cache notices a change to a compiled function's own file only, not to the files of the
compiled functions it calls: after an edit of `uct.py` (or a `git pull`), a kernel of another file
would be read back from the cache with the old `uct.py` compiled into it. So the cache lives in a
folder named by a digest of every compiled module's source (`cache_folder`): any change to one of
them starts an empty folder, and what is read back was compiled from these very sources.
"""

from __future__ import annotations

import os
import sys
import threading
import time

import hashlib
import importlib.abc
from pathlib import Path
from typing import TextIO

import numba
from numba import njit
from numba.core import event
from boardlab.common.notes import quiet

__all__ = ["MESSAGE", "NO_REFCOUNT", "cache_folder", "compiled_sources", "njit"]

try:  # `_nrt` is a private option of numba's CPU target: without it the loops count references again
    from numba.core.cpu import CPUTargetOptions
    #: options of a compiled function that allocates nothing and keeps no array: compiled without
    #: numba's reference counting (its atomic increments and decrements at every array passed)
    NO_REFCOUNT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
except ImportError:  # pragma: no cover - a numba whose internals moved
    NO_REFCOUNT = {}

DELAY = 1.0
MESSAGE = "boardlab: compiling the fast paths (once after install)..."
SAID = "BOARDLAB_COMPILING_SAID"  # set once the line is written, inherited by workers


class CompileNotice(event.Listener):
    """Counts the seconds spent in numba's outermost compilations and writes `MESSAGE` once they
    pass `delay` (a timer, so a single long compilation is announced while it runs)."""

    def __init__(self, stream: TextIO | None = None, delay: float = DELAY) -> None:
        self.stream, self.delay = stream, delay
        self.depth = 0
        self.spent = 0.0
        self.started = 0.0
        self.timer: threading.Timer | None = None
        self.lock = threading.Lock()

    def _stream(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr

    def on_start(self, ev: event.Event) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        self.started = time.monotonic()
        stream = self._stream()
        if os.environ.get(SAID) or quiet() or not (hasattr(stream, "isatty") and stream.isatty()):
            return
        self.timer = threading.Timer(max(0.0, self.delay - self.spent), self.say)
        self.timer.daemon = True
        self.timer.start()

    def on_end(self, ev: event.Event) -> None:
        if self.depth == 0:  # an end without its start (a listener registered mid-compilation)
            return
        self.depth -= 1
        if self.depth == 0:
            self.spent += time.monotonic() - self.started
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def say(self) -> None:
        with self.lock:
            if os.environ.get(SAID):
                return
            os.environ[SAID] = "1"
            try:
                print(MESSAGE, file=self._stream(), flush=True)
            except (OSError, ValueError):  # a closed or full stream: the line is only a courtesy
                pass


class _NoLinearAlgebra(importlib.abc.MetaPathFinder):
    """Refuses scipy.linalg while numba's array math is imported (`_array_math_without_blas`)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "scipy.linalg" or name.startswith("scipy.linalg."):
            raise ImportError(f"{name}: not loaded at start-up (boardlab's kernels use no BLAS)")
        return None


def _array_math_without_blas() -> None:
    """Import numba's array math now, without its probe for BLAS.

    numba imports `numba.np.arraymath` when it first loads a compiled function, and that module
    imports scipy.linalg only to learn whether `np.dot` can call BLAS: 0.2 s of CPU at every
    command's start, a third of its start-up, for functions no kernel here calls (no kernel uses
    `np.dot`, `@` or `np.linalg`; one that did still compiles and computes the same: numba's
    linear algebra imports scipy.linalg itself when it is compiled, and a 1-d dot product takes a
    plain loop). When something has loaded scipy.linalg already, the probe is free and runs as
    usual.
    """
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    refuse = _NoLinearAlgebra()
    sys.meta_path.insert(0, refuse)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(refuse)


def compiled_sources(root: Path | None = None) -> list[Path]:
    """The modules of the analysis package that compile with numba (they take `njit` from here),
    sorted: the files whose change must empty the compiled-code cache."""
    root = root if root is not None else Path(__file__).resolve().parent
    return sorted(path for path in root.rglob("*.py")
                  if "__pycache__" not in path.parts and b"njit" in path.read_bytes())


def sources_digest(paths: list[Path], root: Path) -> str:
    """A digest of the files' names (relative to `root`) and contents: 16 hex digits.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     a = Path(folder, "a.py"); _ = a.write_text("x = 1")
    ...     first = sources_digest([a], Path(folder)); _ = a.write_text("x = 2")
    ...     first != sources_digest([a], Path(folder)), len(first)
    (True, 16)
    """
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_folder(base: str = "") -> str:
    """The folder of numba's cache for these sources: `base` (NUMBA_CACHE_DIR when set), else the
    analysis package's `__pycache__` when it can be written, else the user's cache folder; in it a
    folder named by the compiled sources' digest (see the module docstring)."""
    root = Path(__file__).resolve().parent
    if not base:
        local = root / "__pycache__"
        writable = os.access(local, os.W_OK) if local.exists() else os.access(root, os.W_OK)
        base = str(local) if writable else str(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
                                                 / "boardlab")
    return str(Path(base) / f"numba-{sources_digest(compiled_sources(root), root)}")


numba.config.CACHE_DIR = cache_folder(numba.config.CACHE_DIR)  # read by numba as each kernel is decorated
_array_math_without_blas()
NOTICE = CompileNotice()
event.register("numba:compile", NOTICE)

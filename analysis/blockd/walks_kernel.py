"""Blockd's walk tables built by compiled code, translated across the torus, cached on disk.

`walks.walk_table_python` is the readable definition (a recursive generator over Python ints);
`walk_arrays` builds the same tables for every cell of a grid at once:

- the self-avoiding walks of one start cell are enumerated by an iterative depth-first search
  compiled with numba (`_enumerate`), counted once and then written into arrays;
- per destination the entered masks are deduplicated and, when the card offers several step
  counts (a start card), only the minimal ones are kept (`_minimal`), exactly as the twin does;
- on a torus every cell's table is the first cell's moved by (row, column): walks on a torus
  do not depend on where they start, so only one cell is enumerated (`_translated`);
- the result is stored in the cache folder (`cache_folder`: $BOARDLAB_CACHE, else
  $XDG_CACHE_HOME/boardlab, else ~/.cache/boardlab), keyed by a hash of everything the tables
  depend on (rows, columns, torus, step counts and the format); a later run reads the file.

A set-up taking more than a second says so on standard error, with its progress.
`tests/test_blockd_walks.py` compares every table with the twin's, on flat boards and tori.

>>> from boardlab.analysis.blockd.walks import Grid, walk_table_python
>>> masks, dests = walk_arrays(Grid(4, 5, torus=True), (1, 2, 3))[7]
>>> list(zip(masks.tolist(), dests.tolist())) == list(walk_table_python(Grid(4, 5, True), 7, (1, 2, 3)))
True
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import numpy as np
from boardlab.analysis.jit import njit
from boardlab.common.notes import quiet

if TYPE_CHECKING:
    from boardlab.analysis.blockd.walks import Grid

#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

#: cells a bitmask of int64 holds (bit 63 is the sign): larger grids use the Python twin
MAX_CELLS = 63
#: changes whenever the stored layout or the tables' meaning changes (old files are then ignored)
FORMAT = 1
#: tables with fewer walks than this are rebuilt rather than read (milliseconds either way)
CACHE_FROM = 20_000


def neighbour_array(grid: Grid) -> np.ndarray:
    """`walks.neighbours(grid)` as a (cells, 4) int64 array, -1 where a cell has fewer neighbours."""
    from boardlab.analysis.blockd.walks import neighbours

    out = np.full((grid.cells, 4), -1, dtype=np.int64)
    for cell, around in enumerate(neighbours(grid)):
        out[cell, :len(around)] = around
    return out


@njit(cache=True)
def _enumerate(neighbours: Arr, start: Int, wanted: Arr, longest: Int, masks: Arr, dests: Arr, fill: bool) -> Int:
    """Count (fill False) or write (fill True) every self-avoiding walk from `start` whose length
    is wanted (`wanted[k]` true for k steps), as (cells entered, destination); returns the count."""
    path = np.zeros(longest + 1, dtype=np.int64)
    next_index = np.zeros(longest + 1, dtype=np.int64)
    path[0] = start
    visited = np.int64(1) << start
    depth = 0
    found = 0
    entered = np.int64(0)
    while depth >= 0:
        if next_index[depth] == 4 or depth == longest:
            if depth == 0:
                break
            cell = path[depth]
            visited &= ~(np.int64(1) << cell)
            entered &= ~(np.int64(1) << cell)
            depth -= 1
            continue
        n = neighbours[path[depth], next_index[depth]]
        next_index[depth] += 1
        if n < 0 or (visited >> n) & 1:
            continue
        depth += 1
        path[depth] = n
        next_index[depth] = 0
        bit = np.int64(1) << n
        visited |= bit
        entered |= bit
        if wanted[depth]:
            if fill:
                masks[found] = entered
                dests[found] = n
            found += 1
    return found


@njit(cache=True)
def _popcounts(masks: Arr) -> Arr:
    """The number of cells in each mask."""
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        x = masks[i]
        while x:
            x &= x - 1
            out[i] += 1
    return out


@njit(cache=True)
def _minimal(masks: Arr, dests: Arr) -> Arr:
    """Of (mask, destination) pairs sorted by destination then (cell count, mask), the minimal
    masks of each destination: a mask holding a kept mask of the same destination is dropped,
    and so is a repeat. Returns a boolean keep-array."""
    n = masks.shape[0]
    keep = np.zeros(n, dtype=np.bool_)
    begin = 0
    while begin < n:
        end = begin
        while end < n and dests[end] == dests[begin]:
            end += 1
        for i in range(begin, end):
            m = masks[i]
            ok = True
            for j in range(begin, i):
                if keep[j] and masks[j] & m == masks[j]:
                    ok = False
                    break
            keep[i] = ok
        begin = end
    return keep


def _one_cell(neighbours: Arr, start: int, steps: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(masks, destinations) of one start cell, sorted by destination then mask (the twin's order)."""
    longest = max(steps)
    wanted = np.zeros(longest + 1, dtype=np.bool_)
    wanted[list(steps)] = True
    empty = np.zeros(0, dtype=np.int64)
    count = _enumerate(neighbours, start, wanted, longest, empty, empty, False)
    masks = np.zeros(count, dtype=np.int64)
    dests = np.zeros(count, dtype=np.int64)
    _enumerate(neighbours, start, wanted, longest, masks, dests, True)
    if len(steps) == 1:  # every mask has the same number of cells: none holds another, repeats aside
        order = np.lexsort((masks, dests))
        masks, dests = masks[order], dests[order]
        if count:
            fresh = np.ones(count, dtype=bool)
            fresh[1:] = (masks[1:] != masks[:-1]) | (dests[1:] != dests[:-1])
            masks, dests = masks[fresh], dests[fresh]
        return masks, dests
    sizes = _popcounts(masks)
    order = np.lexsort((masks, sizes, dests))
    masks, dests = masks[order], dests[order]
    keep = _minimal(masks, dests)
    masks, dests = masks[keep], dests[keep]
    order = np.lexsort((masks, dests))
    return masks[order], dests[order]


def _translated(grid: Grid, masks: np.ndarray, dests: np.ndarray, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """Cell 0's walks on a torus moved so that they start on `cell`, in the twin's order."""
    dr, dc = divmod(cell, grid.columns)
    moved = np.zeros_like(masks)
    for bit in range(grid.cells):
        r, c = divmod(bit, grid.columns)
        to = ((r + dr) % grid.rows) * grid.columns + (c + dc) % grid.columns
        moved |= ((masks >> bit) & 1) << to
    rows, cols = np.divmod(dests, grid.columns)
    moved_dests = ((rows + dr) % grid.rows) * grid.columns + (cols + dc) % grid.columns
    order = np.lexsort((moved, moved_dests))
    return moved[order], moved_dests[order]


def cache_folder() -> Path:
    """Where built tables are kept: $BOARDLAB_CACHE, else $XDG_CACHE_HOME/boardlab, else ~/.cache/boardlab."""
    if os.environ.get("BOARDLAB_CACHE"):
        return Path(os.environ["BOARDLAB_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "boardlab"


def cache_key(grid: Grid, steps: tuple[int, ...]) -> str:
    """The hash of everything a walk table depends on.

    >>> from boardlab.analysis.blockd.walks import Grid
    >>> cache_key(Grid(5, 5, True), (1, 2)) == cache_key(Grid(5, 5, True), (1, 2)) != cache_key(Grid(5, 5, False), (1, 2))
    True
    """
    text = repr(("blockd-walks", FORMAT, grid.rows, grid.columns, bool(grid.torus), tuple(int(s) for s in steps)))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _read(path: Path, cells: int) -> list[tuple[np.ndarray, np.ndarray]] | None:
    try:
        with np.load(path) as stored:
            masks, dests, offsets = stored["masks"], stored["dests"], stored["offsets"]
    except (OSError, ValueError, KeyError, EOFError):
        return None  # missing, half written by another program, or damaged: built again
    if offsets.shape != (cells + 1,) or offsets[-1] != len(masks) or len(dests) != len(masks):
        return None
    return [(masks[offsets[i]:offsets[i + 1]], dests[offsets[i]:offsets[i + 1]]) for i in range(cells)]


def _write(path: Path, tables: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Store the tables (atomically: a reader sees the old file or the whole new one); a cache that
    cannot be written is no error, only slower next time."""
    offsets = np.zeros(len(tables) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(m) for m, _ in tables])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".walks-", suffix=".npz", dir=path.parent)
        with os.fdopen(fd, "wb") as out:
            np.savez(out, masks=np.concatenate([m for m, _ in tables]), dests=np.concatenate([d for _, d in tables]),
                     offsets=offsets)
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except (OSError, UnboundLocalError):
            pass


class Progress:
    """One line on standard error for a set-up that has taken more than a second, then its
    progress (rewritten in place on a terminal) and how long it took."""

    def __init__(self, what: str, total: int, stream: TextIO | None = None, after: float = 1.0) -> None:
        self.what, self.total, self.stream, self.after = what, total, stream or sys.stderr, after
        self.started = time.monotonic()
        self.shown = False
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def step(self, done: int) -> None:
        elapsed = time.monotonic() - self.started
        if elapsed < self.after or quiet():
            return
        if not self.shown or self.tty:
            start, end = ("\r", "") if self.tty else ("", "\n")
            print(f"{start}{self.what}: {done}/{self.total} ({elapsed:.0f} s)", end=end, file=self.stream, flush=True)
        self.shown = True

    def close(self, note: str = "") -> None:
        if self.shown:
            elapsed = time.monotonic() - self.started
            print(("\r" if self.tty else "") + f"{self.what}: done in {elapsed:.1f} s{note}", file=self.stream,
                  flush=True)


def walk_arrays(grid: Grid, steps: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per cell, (masks, destinations) of `walks.walk_table(grid, cell, steps)`, as int64 arrays.

    :raises ValueError: for a grid of more cells than an int64 mask holds (`MAX_CELLS`).
    """
    if grid.cells > MAX_CELLS:
        raise ValueError(f"{grid.cells} cells: the compiled walk tables hold at most {MAX_CELLS}")
    steps = tuple(sorted(set(int(s) for s in steps)))
    path = cache_folder() / f"blockd-walks-{cache_key(grid, steps)}.npz"
    stored = _read(path, grid.cells)
    if stored is not None:
        return stored
    neighbours = neighbour_array(grid)
    if grid.torus:
        first = _one_cell(neighbours, 0, steps)
        tables = [first] + [_translated(grid, *first, cell) for cell in range(1, grid.cells)]
    else:
        tables = [_one_cell(neighbours, cell, steps) for cell in range(grid.cells)]
    if sum(len(m) for m, _ in tables) >= CACHE_FROM:
        _write(path, tables)
    return tables

"""Blockd's grid and its tables of self-avoiding walks, as integer bitmasks.

Cells are numbered `row * columns + column`; a set of cells is an int with bit `cell` set.
A walk of k steps from a cell is stored as `(entered, destination)`: `entered` is the mask
of the k cells the pawn steps into (the destination included, the start cell not).
A walk is open when `entered & blocked == 0`, so one AND filters it.
Only the destination matters to the game, so `walk_table` keeps, per destination, only the
minimal `entered` masks (a mask holding another mask to the same destination is open only
when the smaller one is open too, so dropping it changes no answer).

>>> grid = Grid(5, 5, torus=True)
>>> [sum(1 for _ in self_avoiding_walks(grid, 0, k)) for k in range(1, 6)]
[4, 12, 36, 100, 280]
>>> len({destination for _, destination in walk_table(grid, 12, (1, 2, 3, 4, 5))})
24
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterator, NamedTuple

if TYPE_CHECKING:
    import numpy as np

    from boardlab.layouts.blockd import Definition


class Grid(NamedTuple):
    """The board's shape: rows, columns and whether the edges wrap (torus)."""

    rows: int
    columns: int
    torus: bool

    @property
    def cells(self) -> int:
        return self.rows * self.columns

    def cell(self, row: int, column: int) -> int:
        """The number of a cell.

        >>> Grid(5, 5, True).cell(2, 3)
        13
        """
        return row * self.columns + column

    def row_column(self, cell: int) -> tuple[int, int]:
        """(row, column) of a cell.

        >>> Grid(5, 5, True).row_column(13)
        (2, 3)
        """
        return divmod(cell, self.columns)

    @classmethod
    def from_definition(cls, definition: Definition) -> "Grid":
        """The grid of a Blockd definition (`board.rows`, `board.columns`, `rules.torus`)."""
        return cls(definition.board.rows, definition.board.columns, definition.rules.torus)


@functools.lru_cache(maxsize=64)
def neighbours(grid: Grid) -> tuple[tuple[int, ...], ...]:
    """Per cell, the cells one orthogonal step away (up, down, left, right), once each.

    On a torus a step off one edge enters the opposite edge; on a flat board it is not a step.
    On a torus with only 2 rows, up and down reach the same cell: it is listed once.

    >>> neighbours(Grid(3, 3, torus=False))[0]
    (3, 1)
    >>> neighbours(Grid(3, 3, torus=True))[0]
    (6, 3, 2, 1)
    """
    out = []
    for cell in range(grid.cells):
        r, c = grid.row_column(cell)
        found: list[int] = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if grid.torus:
                nr, nc = nr % grid.rows, nc % grid.columns
            elif not (0 <= nr < grid.rows and 0 <= nc < grid.columns):
                continue
            n = grid.cell(nr, nc)
            if n != cell and n not in found:
                found.append(n)
        out.append(tuple(found))
    return tuple(out)


def self_avoiding_walks(grid: Grid, start: int, steps: int) -> Iterator[tuple[int, ...]]:
    """Every self-avoiding walk of exactly `steps` steps from `start`, as the cells entered.

    The start cell counts as visited.  Walks are distinct cell sequences (on a 2-row torus
    "up" and "down" reach the same cell and so make one walk, not two).

    >>> sorted(self_avoiding_walks(Grid(2, 2, torus=False), 0, 2))
    [(1, 3), (2, 3)]
    """
    adjacent = neighbours(grid)
    path: list[int] = []
    visited = 1 << start

    def extend(cell: int, left: int) -> Iterator[tuple[int, ...]]:
        nonlocal visited
        if left == 0:
            yield tuple(path)
            return
        for n in adjacent[cell]:
            if visited >> n & 1:
                continue
            visited |= 1 << n
            path.append(n)
            yield from extend(n, left - 1)
            path.pop()
            visited &= ~(1 << n)

    yield from extend(start, steps)


@functools.lru_cache(maxsize=None)
def walk_table(grid: Grid, start: int, step_counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The walks a pawn on `start` may take with any of `step_counts`, as (entered, destination).

    Per destination only the minimal entered masks are kept (see the module docstring);
    the result is sorted by destination, then mask.  Built by the compiled path
    (`walks_kernel.walk_arrays`, cached on disk) when the grid fits an int64 mask, else by
    `walk_table_python`, its readable twin.

    >>> walk_table(Grid(2, 2, torus=False), 0, (2,))
    ((10, 3), (12, 3))
    """
    from boardlab.analysis.blockd import walks_kernel

    if grid.cells > walks_kernel.MAX_CELLS:
        return walk_table_python(grid, start, step_counts)
    masks, dests = _all_cells(grid, tuple(sorted(set(step_counts))))[start]
    return tuple(zip(masks.tolist(), dests.tolist()))


def walk_rows(grid: Grid, step_counts: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per cell, `walk_table` as two int64 numpy arrays (masks entered, destinations).

    :raises ValueError: for a grid of more cells than an int64 mask holds.
    """
    return _all_cells(grid, tuple(sorted(set(step_counts))))


@functools.lru_cache(maxsize=64)
def _all_cells(grid: Grid, step_counts: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    from boardlab.analysis.blockd import walks_kernel

    return walks_kernel.walk_arrays(grid, step_counts)


@functools.lru_cache(maxsize=None)
def walk_table_python(grid: Grid, start: int, step_counts: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """`walk_table` in plain Python: every walk enumerated, then the minimal masks per destination.

    >>> walk_table_python(Grid(2, 2, torus=False), 0, (2,))
    ((10, 3), (12, 3))
    """
    by_destination: dict[int, set[int]] = {}
    for steps in step_counts:
        for walk in self_avoiding_walks(grid, start, steps):
            mask = 0
            for cell in walk:
                mask |= 1 << cell
            by_destination.setdefault(walk[-1], set()).add(mask)
    table: list[tuple[int, int]] = []
    for destination in sorted(by_destination):
        masks = sorted(by_destination[destination], key=lambda m: (m.bit_count(), m))
        kept: list[int] = []
        for mask in masks:
            if not any(k & mask == k for k in kept):
                kept.append(mask)
        table.extend((mask, destination) for mask in sorted(kept))
    return tuple(table)

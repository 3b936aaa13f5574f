"""The Deblockle board (cells, names, neighbours, rays) and moves as small values with a JSON form.

Cells are numbered file by file: cell = (x - 1) * ranks + (y - 1), so cell order is the order
of (file, rank) and of the algebraic names on boards of up to 9 ranks.

>>> board = BoardGeometry(7, 7)
>>> [board.name(n) for n in board.neighbour[board.cell("d2")]]   # N, E, S, W
['d3', 'e2', 'd1', 'c2']
"""

from __future__ import annotations

from typing import NamedTuple

from boardlab.analysis.deblockle.cube import DIRECTIONS, STEPS

#: the `to` of a move that scores its block
SCORED = -1


class Move(NamedTuple):
    """A move: the block's cell, the tip direction (index into `DIRECTIONS`), and the cell
    where the block ends its turn (`SCORED` when the tip scores it).

    >>> board = BoardGeometry(7, 7)
    >>> m = Move(board.cell("c1"), 0, board.cell("c4"))
    >>> m.to_json(board)
    {'from': 'c1', 'tip': 'N', 'to': 'c4'}
    >>> Move.from_json(m.to_json(board), board) == m
    True
    """

    frm: int
    tip: int
    to: int

    def to_json(self, board: "BoardGeometry") -> dict:
        return {"from": board.name(self.frm), "tip": DIRECTIONS[self.tip],
                "to": "scored" if self.to == SCORED else board.name(self.to)}

    @classmethod
    def from_json(cls, data: object, board: "BoardGeometry") -> "Move":
        """Parse the JSON form.

        :raises ValueError: when the data is not a move on this board.
        """
        if not isinstance(data, dict) or set(data) != {"from", "tip", "to"} or data["tip"] not in DIRECTIONS:
            raise ValueError(f"not a Deblockle move: {data!r}")
        frm = board.cell(data["from"])
        to = SCORED if data["to"] == "scored" else board.cell(data["to"])
        if frm is None or to is None:
            raise ValueError(f"not a Deblockle move: {data!r}")
        return cls(frm, DIRECTIONS.index(data["tip"]), to)

    def text(self, board: "BoardGeometry") -> str:
        j = self.to_json(board)
        return f"{j['from']} {j['tip']} {j['to']}"


class BoardGeometry:
    """The board's cells, names, neighbours and rays (fixed for a definition)."""

    def __init__(self, files: int, ranks: int):
        self.files, self.ranks = files, ranks
        self.cells = files * ranks
        self.xy = tuple((c // ranks + 1, c % ranks + 1) for c in range(self.cells))
        self.names = tuple(f"{chr(ord('a') + x - 1)}{y}" for x, y in self.xy)
        self._index = {name: c for c, name in enumerate(self.names)}
        # neighbour[c][d]: the cell one step in direction d, or -1 off the board
        self.neighbour = tuple(tuple(self.at(x + dx, y + dy) for dx, dy in STEPS) for x, y in self.xy)
        self.diagonals = tuple(tuple(n for n in (self.at(x + dx, y + dy) for dx in (-1, 1) for dy in (-1, 1)) if n >= 0)
                               for x, y in self.xy)
        #: around[c]: mask of the cells orthogonally next to c
        self.around = tuple(sum(1 << n for n in ns if n >= 0) for ns in self.neighbour)
        self.rays = tuple(tuple(self._ray(c, d) for d in range(4)) for c in range(self.cells))

    def at(self, x: int, y: int) -> int:
        """The cell at 1-based (x, y), or -1 off the board."""
        if 1 <= x <= self.files and 1 <= y <= self.ranks:
            return (x - 1) * self.ranks + (y - 1)
        return -1

    def _ray(self, cell: int, direction: int) -> tuple[int, ...]:
        out = []
        cell = self.neighbour[cell][direction]
        while cell >= 0:
            out.append(cell)
            cell = self.neighbour[cell][direction]
        return tuple(out)

    def cell(self, name: object) -> int | None:
        """The cell of an algebraic square name, or None when it is not one of the board."""
        return self._index.get(name) if isinstance(name, str) else None

    def name(self, cell: int) -> str:
        return self.names[cell]

"""The Deblockle cube: its 24 orientations and how tipping changes them.

An orientation is the face on each side of the cube, in the order of `SIDES`.  The
orientations are generated from the definition's cube layout (given with the Star on top) by
tipping, and numbered by (top face, north face) in the definition's order of faces, so the
four rotations that keep one face on top are consecutive numbers.

Tipping a cube over its north edge brings the old south face on top and the old top to the
north (the bottom goes south, the old north to the bottom); east and west stay.  The other
three directions are the same turn seen from another side.

>>> from boardlab.layouts import load
>>> cube = Cube.from_definition(load("deblockle"))
>>> len(cube.orientations), cube.top(cube.star_up), cube.north(cube.star_up)
(24, 'Star', 'Cross')
>>> o = cube.tip(cube.star_up, NORTH)
>>> cube.top(o), cube.north(o)                  # the old south face comes up, the old top goes north
('X', 'Star')
>>> cube.tip(cube.tip(o, SOUTH), NORTH) == o    # south then north puts it back
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.layouts.deblockle import Definition

#: the sides of a cube, in the order an orientation lists its faces
SIDES = ("top", "north", "east", "south", "west", "bottom")
NORTH, EAST, SOUTH, WEST = range(4)
#: tip directions in the order moves are listed, with their letters and (dx, dy) on the board
DIRECTIONS = ("N", "E", "S", "W")
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))

# new side -> old side, for a tip in each direction (the side whose face moves there)
_TIP_FROM = {
    NORTH: {"top": "south", "north": "top", "bottom": "north", "south": "bottom"},
    SOUTH: {"top": "north", "south": "top", "bottom": "south", "north": "bottom"},
    EAST: {"top": "west", "east": "top", "bottom": "east", "west": "bottom"},
    WEST: {"top": "east", "west": "top", "bottom": "west", "east": "bottom"},
}


def tipped(faces: tuple[str, ...], direction: int) -> tuple[str, ...]:
    """The faces (in `SIDES` order) after tipping over the edge in `direction`.

    >>> tipped(("T", "N", "E", "S", "W", "B"), EAST)
    ('W', 'N', 'T', 'S', 'B', 'E')
    """
    moved = _TIP_FROM[direction]
    side = dict(zip(SIDES, faces))
    return tuple(side[moved.get(s, s)] for s in SIDES)


@dataclass(frozen=True)
class Cube:
    """The orientations of the definition's cube and the tip table between them."""

    faces: tuple[str, ...]  # face names in the definition's order
    orientations: tuple[tuple[str, ...], ...]  # faces in SIDES order, numbered by (top, north)
    tips: tuple[tuple[int, ...], ...]  # tips[o][direction] -> orientation after the tip
    star_up: int  # the orientation of the layout as the definition gives it

    @classmethod
    def from_definition(cls, definition: Definition) -> "Cube":
        layout = definition.cube
        start = tuple(getattr(layout, side) for side in SIDES)
        seen = {start}
        frontier = [start]
        while frontier:  # every orientation is reached by tips from the layout
            nxt = []
            for faces in frontier:
                for direction in range(4):
                    other = tipped(faces, direction)
                    if other not in seen:
                        seen.add(other)
                        nxt.append(other)
            frontier = nxt
        order = {name: i for i, name in enumerate(definition.faces)}
        orientations = tuple(sorted(seen, key=lambda f: (order[f[0]], order[f[1]])))
        number = {faces: i for i, faces in enumerate(orientations)}
        tips = tuple(tuple(number[tipped(f, d)] for d in range(4)) for f in orientations)
        return cls(tuple(definition.faces), orientations, tips, number[start])

    def tip(self, orientation: int, direction: int) -> int:
        return self.tips[orientation][direction]

    def top(self, orientation: int) -> str:
        return self.orientations[orientation][0]

    def north(self, orientation: int) -> str:
        return self.orientations[orientation][1]

    def find(self, top: str, north: str) -> int | None:
        """The orientation with these faces on top and to the north, or None when there is none
        (a north face equal to the top or to the face opposite it)."""
        for i, faces in enumerate(self.orientations):
            if faces[0] == top and faces[1] == north:
                return i
        return None

    def with_top(self, top: str) -> tuple[int, ...]:
        """The four orientations showing `top` on top."""
        return tuple(i for i, faces in enumerate(self.orientations) if faces[0] == top)

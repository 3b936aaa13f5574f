"""Die faces drawn as pips (the usual arrangement), or as a numeral past nine.

>>> from boardlab.printkit.draw import RecordingCanvas
>>> [len(pip_positions(v)) for v in range(1, 10)]
[1, 2, 3, 4, 5, 6, 7, 8, 9]
>>> c = RecordingCanvas(20, 20)
>>> draw_die_face(c, 10, 10, 12, 5, face="#ffffff", ink="#000000")
>>> sum(1 for call in c.calls if call[0] == "circle")
5
"""

from __future__ import annotations

from boardlab.printkit.draw import Canvas
from boardlab.printkit.units import MM_PER_POINT

# pips on a 3 x 3 grid, (column, row) in -1..1; sides of a die face read the same turned half a turn
_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    7: [(-1, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (1, 1)],
    8: [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
    9: [(c, r) for r in (-1, 0, 1) for c in (-1, 0, 1)],
}


def pip_positions(value: int) -> list[tuple[int, int]]:
    """The pips of `value` (1..9) on a 3 x 3 grid of (column, row) in -1..1; [] past nine."""
    return list(_PIPS.get(value, []))


def draw_die_face(canvas: Canvas, cx: float, cy: float, size: float, value: int, *, face: str, ink: str) -> None:
    """A die face `size` mm wide centred on (cx, cy): rounded square in `face`, pips in `ink`."""
    canvas.rect(cx - size / 2, cy - size / 2, size, size, fill=face, stroke=ink, width=size * 0.03,
                radius=size * 0.15)
    pips = pip_positions(value)
    if not pips:
        canvas.text(cx, cy + size * 0.2, str(value), size=size * 0.55 / MM_PER_POINT, fill=ink, anchor="middle", bold=True)
        return
    step, radius = size * 0.28, size * 0.09
    for column, row in pips:
        canvas.circle(cx + column * step, cy + row * step, radius, fill=ink)

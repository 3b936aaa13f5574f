"""Vector art for every symbol a definition may name (layouts.common.SYMBOLS).

Each symbol fits a `size` x `size` square centred on (cx, cy) and is drawn through the
Canvas interface only, so it looks the same in PDF, SVG and a RecordingCanvas.
The shapes differ in outline, not only in colour, so they stay apart in greyscale print:
filled disc against open ring, square against diamond, five-, six- and eight-sided outlines.
Symbols that must show how a cube face is turned (star, slider, hoops) have a clear "up":
the star's point, the slider's arrow and the L of the hoops change with every quarter turn.

>>> from boardlab.printkit.draw import RecordingCanvas
>>> c = RecordingCanvas(20, 20)
>>> draw_symbol(c, "circle", 10, 10, 8, fill="#000000")
>>> c.calls[0][:2]
('circle', (10, 10, 4.0))
"""

from __future__ import annotations

import math
from typing import Callable

from boardlab.layouts.common import SYMBOLS
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.palette import contrast_ink  # noqa: F401  (re-exported for symbol art)


def regular_polygon(cx: float, cy: float, radius: float, sides: int, rotation: float = 0.0) -> list[Point]:
    """Corners of a regular polygon, the first one straight up (y down) turned by `rotation` degrees.

    >>> [(round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in regular_polygon(0, 0, 1, 4)]
    [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]
    """
    points = []
    for k in range(sides):
        angle = math.radians(rotation + 360.0 * k / sides)
        points.append((cx + radius * math.sin(angle), cy - radius * math.cos(angle)))
    return points


def _star(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    outer = size / 2
    inner = outer * 0.4
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = math.radians(36.0 * k)
        points.append((cx + radius * math.sin(angle), cy - radius * math.cos(angle)))
    # the star's own centre sits a little low in its box; lift it so it looks centred
    lift = (outer - outer * math.cos(math.radians(36))) / 2
    canvas.polygon([(x, y + lift) for x, y in points], fill=fill, stroke=stroke, width=size * 0.03)


def _stop(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    radius = size / 2 / math.cos(math.radians(22.5)) * 0.98
    canvas.polygon(regular_polygon(cx, cy, radius * 0.98, 8, rotation=22.5), fill=fill, stroke=stroke,
                   width=size * 0.03)
    bar_w, bar_h = size * 0.62, size * 0.16
    canvas.rect(cx - bar_w / 2, cy - bar_h / 2, bar_w, bar_h, fill=contrast_ink(fill))


def _plus_points(cx: float, cy: float, size: float, arm: float) -> list[Point]:
    half, a = size / 2, arm / 2
    return [(cx - a, cy - half), (cx + a, cy - half), (cx + a, cy - a), (cx + half, cy - a),
            (cx + half, cy + a), (cx + a, cy + a), (cx + a, cy + half), (cx - a, cy + half),
            (cx - a, cy + a), (cx - half, cy + a), (cx - half, cy - a), (cx - a, cy - a)]


def _cross(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    canvas.polygon(_plus_points(cx, cy, size, size * 0.3), fill=fill, stroke=stroke, width=size * 0.03)


def _x(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    # a plus turned by 45 degrees, shrunk so its arm tips stay inside the box
    reach = size / 2 * 0.92
    arm = size * 0.27
    points = _plus_points(0.0, 0.0, 2 * reach, arm)
    c, s = math.cos(math.radians(45)), math.sin(math.radians(45))
    turned = [(cx + x * c - y * s, cy + x * s + y * c) for x, y in points]
    canvas.polygon(turned, fill=fill, stroke=stroke, width=size * 0.03)


def _slider(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    # a block at the bottom that slides up a track: the arrow head shows the face's "up"
    half = size / 2
    block = size * 0.36
    canvas.rect(cx - block / 2, cy + half - block, block, block, fill=fill, stroke=stroke, width=size * 0.03)
    shaft_w = size * 0.14
    head_w, head_h = size * 0.56, size * 0.30
    top = cy - half
    arrow = [(cx, top), (cx + head_w / 2, top + head_h), (cx + shaft_w / 2, top + head_h),
             (cx + shaft_w / 2, cy + half - block - size * 0.06),
             (cx - shaft_w / 2, cy + half - block - size * 0.06),
             (cx - shaft_w / 2, top + head_h), (cx - head_w / 2, top + head_h)]
    canvas.polygon(arrow, fill=fill, stroke=stroke, width=size * 0.03)
    # speed lines beside the block, on one side only, so a mirror image looks wrong too
    for k in range(2):
        y = cy + half - block * (0.3 + 0.4 * k)
        canvas.line(cx - block / 2 - size * 0.30, y, cx - block / 2 - size * 0.06, y,
                    stroke=fill, width=size * 0.06)


def _hoops(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    # three rings in an L: two up the left side, one to the right at the bottom
    ring = size * 0.44
    radius = ring / 2 - size * 0.045
    half = size / 2
    centres = [(cx - half + ring / 2, cy - half + ring / 2),
               (cx - half + ring / 2, cy + half - ring / 2),
               (cx + half - ring / 2, cy + half - ring / 2)]
    thickness = size * 0.09
    for x, y in centres:
        canvas.circle(x, y, radius, stroke=fill, width=thickness)
        if stroke:
            canvas.circle(x, y, radius + thickness / 2, stroke=stroke, width=size * 0.02)
            canvas.circle(x, y, radius - thickness / 2, stroke=stroke, width=size * 0.02)
    # a filled dot in the first hoop: where the three steps start
    canvas.circle(*centres[0], radius * 0.4, fill=fill)


def _circle(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    canvas.circle(cx, cy, size / 2, fill=fill, stroke=stroke, width=size * 0.03)


def _ring(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    thickness = size * 0.18
    canvas.circle(cx, cy, size / 2 - thickness / 2, stroke=fill, width=thickness)
    if stroke:
        canvas.circle(cx, cy, size / 2, stroke=stroke, width=size * 0.03)
        canvas.circle(cx, cy, size / 2 - thickness, stroke=stroke, width=size * 0.03)


def _square(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    side = size * 0.84
    canvas.rect(cx - side / 2, cy - side / 2, side, side, fill=fill, stroke=stroke, width=size * 0.03)


def _triangle(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    half = size / 2
    canvas.polygon([(cx, cy - half), (cx + half, cy + half * 0.8), (cx - half, cy + half * 0.8)],
                   fill=fill, stroke=stroke, width=size * 0.03)


def _diamond(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    half = size / 2
    canvas.polygon([(cx, cy - half), (cx + half * 0.68, cy), (cx, cy + half), (cx - half * 0.68, cy)],
                   fill=fill, stroke=stroke, width=size * 0.03)


def _hexagon(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    # flat top and bottom, so it is not mistaken for the pointed pentagon
    canvas.polygon(regular_polygon(cx, cy, size / 2, 6, rotation=30), fill=fill, stroke=stroke, width=size * 0.03)


def _pentagon(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    radius = size / 2
    # a regular pentagon is shorter than it is wide; drop it so it sits centred
    drop = (radius - radius * math.cos(math.radians(36))) / 2
    points = [(x, y + drop) for x, y in regular_polygon(cx, cy, radius, 5)]
    canvas.polygon(points, fill=fill, stroke=stroke, width=size * 0.03)


def _heart(canvas: Canvas, cx: float, cy: float, size: float, fill: str, stroke: str | None) -> None:
    s = size / 2
    commands = [
        ("M", cx, cy + s * 0.92),
        ("C", cx - s * 0.30, cy + s * 0.62, cx - s, cy + s * 0.15, cx - s, cy - s * 0.35),
        ("C", cx - s, cy - s * 0.80, cx - s * 0.50, cy - s * 0.98, cx, cy - s * 0.55),
        ("C", cx + s * 0.50, cy - s * 0.98, cx + s, cy - s * 0.80, cx + s, cy - s * 0.35),
        ("C", cx + s, cy + s * 0.15, cx + s * 0.30, cy + s * 0.62, cx, cy + s * 0.92),
        ("Z",),
    ]
    canvas.path(commands, fill=fill, stroke=stroke, width=size * 0.03)


#: a symbol's drawing: (canvas, cx, cy, size, fill, stroke)
SymbolDrawer = Callable[[Canvas, float, float, float, str, "str | None"], None]

_DRAWERS: dict[str, SymbolDrawer] = {
    "star": _star, "stop": _stop, "cross": _cross, "x": _x, "slider": _slider, "hoops": _hoops,
    "circle": _circle, "square": _square, "triangle": _triangle, "diamond": _diamond,
    "hexagon": _hexagon, "pentagon": _pentagon, "heart": _heart, "ring": _ring,
}
assert set(_DRAWERS) == SYMBOLS, "every symbol a definition may name needs a drawing"


def draw_symbol(canvas: Canvas, name: str, cx: float, cy: float, size: float, fill: str,
                stroke: str | None = None) -> None:
    """Draw symbol `name` inside the `size` x `size` square centred on (cx, cy) in mm.

    `fill` is the symbol's ink; `stroke`, if given, outlines it (useful on a same-coloured
    background).  Inner details (the bar of "stop") use black or white against `fill`.

    :raises BoardlabError: for a name that is not in layouts.common.SYMBOLS.

    >>> from boardlab.printkit.draw import RecordingCanvas
    >>> c = RecordingCanvas(30, 30)
    >>> draw_symbol(c, "heart", 15, 15, 10, fill="#c62828")
    >>> c.calls[0][0]
    'path'
    >>> draw_symbol(c, "moon", 15, 15, 10, fill="#c62828")
    Traceback (most recent call last):
    ...
    boardlab.layouts.errors.BoardlabError: unknown symbol "moon" (known: circle, cross, diamond, heart, hexagon, hoops, pentagon, ring, slider, square, star, stop, triangle, x)
    """
    drawer = _DRAWERS.get(name)
    if drawer is None:
        raise BoardlabError(f'unknown symbol "{name}" (known: {", ".join(sorted(SYMBOLS))})')
    drawer(canvas, cx, cy, size, fill, stroke)

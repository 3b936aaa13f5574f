"""Measuring what was drawn: a canvas that records every shape in page millimetres.

`RecordingCanvas` keeps calls as made, inside nested transforms; `PlacedCanvas` applies the
transforms itself, so a test can measure a board square, a fold line or a tile's clip box
where it lands on the page, whatever transforms the drawing code used to get there.

>>> c = PlacedCanvas(100, 100)
>>> with c.transform(dx=10, dy=20, rotate=90):
...     c.line(0, 0, 5, 0)
>>> shape = c.shapes[0]
>>> shape.kind, [(round(x, 6), round(y, 6)) for x, y in shape.points], shape.angle
('line', [(10.0, 20.0), (10.0, 25.0)], 90.0)
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Sequence

from boardlab.printkit.draw import Canvas, Point

if TYPE_CHECKING:
    from boardlab.layouts.images import Picture

Matrix = tuple[float, float, float, float, float, float]  # x' = a x + c y + e, y' = b x + d y + f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def compose(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix applying `inner` first, then `outer`."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def apply(matrix: Matrix, point: Point) -> Point:
    a, b, c, d, e, f = matrix
    x, y = point
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class Shape:
    """One drawn primitive placed on the page.

    `points`: a rectangle's four corners (clockwise from its own top-left), a line's two ends,
    a polygon's corners, a circle's or a text's anchor point.  `angle` (degrees clockwise) and
    `scale` are those of the transform in force; `size` is a circle's radius or a text's points,
    both scaled.
    """

    kind: str
    points: list[Point]
    angle: float
    scale: float
    size: float = 0.0
    content: str = ""
    style: dict[str, object] = field(default_factory=dict)
    clip: tuple[Point, Point] | None = None  # the innermost clip box in force: (top-left, bottom-right)

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The axis-aligned bounding box (x, y, width, height) of the points (plus a circle's radius)."""
        xs = [x for x, _ in self.points]
        ys = [y for _, y in self.points]
        r = self.size if self.kind == "circle" else 0.0
        return min(xs) - r, min(ys) - r, max(xs) - min(xs) + 2 * r, max(ys) - min(ys) + 2 * r


class PlacedCanvas(Canvas):
    """Records every primitive with its coordinates on the page (transforms applied)."""

    def __init__(self, width: float, height: float):
        super().__init__(width, height)
        self.shapes: list[Shape] = []
        self._matrix: Matrix = IDENTITY
        self._angle = 0.0
        self._scale = 1.0
        self._clip: tuple[Point, Point] | None = None

    def _add(self, kind: str, points: Sequence[Point], style: dict[str, object], size: float = 0.0, content: str = "") -> None:
        placed = [apply(self._matrix, p) for p in points]
        self.shapes.append(Shape(kind, placed, self._angle % 360.0, self._scale, size * self._scale, content,
                                 style, self._clip))

    def rect(self, x: float, y: float, w: float, h: float, **kw: object) -> None:
        self._add("rect", [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], kw)

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw: object) -> None:
        self._add("line", [(x1, y1), (x2, y2)], kw)

    def polygon(self, points: Sequence[Point], **kw: object) -> None:
        self._add("polygon", list(points), kw)

    def circle(self, cx: float, cy: float, r: float, **kw: object) -> None:
        self._add("circle", [(cx, cy)], kw, size=r)

    def path(self, commands: Sequence[tuple], **kw: object) -> None:
        points: list[Point] = []
        for command in commands:
            args = command[1:]
            points += [(args[i], args[i + 1]) for i in range(0, len(args), 2)]
        self._add("path", points, kw)

    def text(self, x: float, y: float, content: str, *, size: float | None = None, **kw: object) -> None:
        # the style keeps the keywords as given (a size only when the caller gave one)
        style = kw if size is None else {"size": size, **kw}
        self._add("text", [(x, y)], style, size=10.0 if size is None else size, content=content)

    def raster(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        self._add("image", [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], {"picture": picture},
                  content=picture.path)

    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0,
                  scale: float = 1.0) -> Iterator[None]:
        saved = self._matrix, self._angle, self._scale
        theta = math.radians(rotate)
        cos, sin = math.cos(theta), math.sin(theta)
        # translate, then turn clockwise (y down), then scale
        local = (cos * scale, sin * scale, -sin * scale, cos * scale, dx, dy)
        self._matrix = compose(self._matrix, local)
        self._angle += rotate
        self._scale *= scale
        try:
            yield
        finally:
            self._matrix, self._angle, self._scale = saved

    @contextmanager
    def clip(self, x: float, y: float, w: float, h: float, radius: float = 0.0) -> Iterator[None]:
        saved = self._clip
        corners = [apply(self._matrix, p) for p in ((x, y), (x + w, y + h))]
        (x1, y1), (x2, y2) = corners
        box = ((min(x1, x2), min(y1, y2)), (max(x1, x2), max(y1, y2)))
        if saved is not None:  # clips nest: the intersection
            box = ((max(box[0][0], saved[0][0]), max(box[0][1], saved[0][1])),
                   (min(box[1][0], saved[1][0]), min(box[1][1], saved[1][1])))
        self._clip = box
        try:
            yield
        finally:
            self._clip = saved

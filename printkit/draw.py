"""The one drawing interface every component is drawn through (millimetres, y pointing down).

A component is a function `draw_x(canvas, ...)` that calls only these methods, so the PDF
backend, the SVG backend and the `RecordingCanvas` used by tests see the same calls.
Colours are "#rrggbb" strings from a definition, or None for "no fill"/"no stroke".
Text sizes are in points (the unit printers and designers think in); everything else is mm.

>>> c = RecordingCanvas(63.5, 88.9)
>>> c.rect(0, 0, 63.5, 88.9, stroke="#000000")
>>> c.calls[0][0], c.calls[0][1][:4]
('rect', (0, 0, 63.5, 88.9))
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

if TYPE_CHECKING:
    from boardlab.layouts.images import Picture

Point = tuple[float, float]

#: a drawing: everything it draws, through the canvas (a card face, a board, a rulebook figure)
Drawing = Callable[["Canvas"], None]


class Canvas(ABC):
    """A page (or an SVG drawing) of `width` x `height` millimetres."""

    def __init__(self, width: float, height: float):
        self.width = width
        self.height = height

    @abstractmethod
    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0,
             dash: Sequence[float] | None = None) -> None:
        """A rectangle with its top-left corner at (x, y), optionally with rounded corners."""

    @abstractmethod
    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        """A straight line."""

    @abstractmethod
    def polygon(self, points: Sequence[Point], *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.25, closed: bool = True, dash: Sequence[float] | None = None) -> None:
        """A polygon (closed) or polyline (closed=False)."""

    @abstractmethod
    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        """A circle."""

    @abstractmethod
    def path(self, commands: Sequence[tuple], *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        """A path of ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y) and ("Z",) commands."""

    @abstractmethod
    def text(self, x: float, y: float, content: str, *, size: float = 10.0, fill: str = "#000000",
             anchor: str = "start", bold: bool = False, italic: bool = False) -> None:
        """Text whose baseline starts (anchor "start"), centres ("middle") or ends ("end") at (x, y)."""

    @abstractmethod
    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0,
                  scale: float = 1.0) -> Iterator[None]:
        """Draw the block translated by (dx, dy), then rotated clockwise by `rotate` degrees and scaled."""

    @abstractmethod
    @contextmanager
    def clip(self, x: float, y: float, w: float, h: float, radius: float = 0.0) -> Iterator[None]:
        """Draw the block clipped to a (rounded) rectangle."""

    def image(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        """A picture (layouts.images.Picture) stretched over the box (x, y, w, h): an SVG's
        shapes as paths (vector art in every backend), a PNG or JPEG through `raster`."""
        if picture.raster:
            self.raster(x, y, w, h, picture)
            return
        sx, sy = w / picture.width, h / picture.height
        thickness = math.sqrt(abs(sx * sy))
        for shape in picture.shapes:
            commands = [(kind, *[x + v * sx if i % 2 == 0 else y + v * sy for i, v in enumerate(values)])
                        for kind, *values in shape.commands]
            self.path(commands, fill=shape.fill, stroke=shape.stroke, width=shape.width * thickness)

    @abstractmethod
    def raster(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        """A PNG or JPEG picture stretched over the box (x, y, w, h)."""

    #: what a drawing call is for: "art", or "cut", "fold" and "guides" lines (the SVG backend's layers)
    LAYERS = ("art", "cut", "fold", "guides")

    @contextmanager
    def layer(self, name: str) -> Iterator[None]:
        """Draw the block on layer `name` (one of LAYERS).  A page prints every layer the same;
        the SVG backend puts each in its own Inkscape layer, so a cutting machine can take "cut"."""
        if name not in self.LAYERS:
            raise ValueError(f"unknown layer {name!r} ({', '.join(self.LAYERS)})")
        saved, self.current_layer = getattr(self, "current_layer", "art"), name
        try:
            yield
        finally:
            self.current_layer = saved


class RecordingCanvas(Canvas):
    """Records every call as (method, positional args, keyword args); for tests."""

    def __init__(self, width: float, height: float):
        super().__init__(width, height)
        self.calls: list[tuple[str, tuple, dict]] = []

    def _record(self, name: str, args: tuple[object, ...], kwargs: dict[str, object]) -> None:
        self.calls.append((name, args, kwargs))

    def rect(self, x: float, y: float, w: float, h: float, **kw: object) -> None:
        self._record("rect", (x, y, w, h), kw)

    def line(self, x1: float, y1: float, x2: float, y2: float, **kw: object) -> None:
        self._record("line", (x1, y1, x2, y2), kw)

    def polygon(self, points: Sequence[Point], **kw: object) -> None:
        self._record("polygon", (tuple(points),), kw)

    def circle(self, cx: float, cy: float, r: float, **kw: object) -> None:
        self._record("circle", (cx, cy, r), kw)

    def path(self, commands: Sequence[tuple], **kw: object) -> None:
        self._record("path", (tuple(commands),), kw)

    def text(self, x: float, y: float, content: str, **kw: object) -> None:
        self._record("text", (x, y, content), kw)

    def raster(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        self._record("image", (x, y, w, h, picture.path), {})

    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0,
                  scale: float = 1.0) -> Iterator[None]:
        self._record("transform", (dx, dy, rotate, scale), {})
        yield
        self._record("end_transform", (), {})

    @contextmanager
    def clip(self, x: float, y: float, w: float, h: float, radius: float = 0.0) -> Iterator[None]:
        self._record("clip", (x, y, w, h, radius), {})
        yield
        self._record("end_clip", (), {})

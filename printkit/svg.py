"""The SVG backend: the same Canvas calls written as an svgwrite drawing sized in millimetres.

The drawing's viewBox is in millimetres with y down, so coordinates go in unchanged; text sizes
arrive in points and become millimetres here.  Clip paths get ids numbered per drawing, so
identical input gives identical text.

>>> from boardlab.printkit.pages import Component
>>> svg = render_svg(Component("demo", 20, 10, lambda c: c.rect(1, 1, 18, 8, fill="#c62828")))
>>> 'width="20mm"' in svg and 'fill="#c62828"' in svg
True
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

import svgwrite

from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.pages import Component
from boardlab.printkit.units import MM_PER_POINT

#: what an SVG viewer should use for our text: the embedded PDF font first, then look-alikes
FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"


def number(value: float) -> str:
    """A coordinate written with at most four decimals and no trailing zeros.

    >>> number(1.0), number(2.54), number(1 / 3), number(-0.00001)
    ('1', '2.54', '0.3333', '0')
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class SvgCanvas(Canvas):
    """A Canvas that collects its calls into an svgwrite Drawing (`.drawing`)."""

    def __init__(self, width: float, height: float):
        super().__init__(width, height)
        self.drawing = svgwrite.Drawing(size=(f"{number(width)}mm", f"{number(height)}mm"),
                                        viewBox=f"0 0 {number(width)} {number(height)}",
                                        profile="full", debug=False)
        self._groups = [self.drawing]
        self._clip_count = 0

    def _add(self, element) -> None:
        self._groups[-1].add(element)

    @staticmethod
    def _paint(fill: str | None, stroke: str | None, width: float, dash: Sequence[float] | None) -> dict:
        attributes = {"fill": fill if fill is not None else "none"}
        if stroke is not None:
            attributes["stroke"] = stroke
            attributes["stroke_width"] = number(width)
            if dash:
                attributes["stroke_dasharray"] = ",".join(number(d) for d in dash)
        return attributes

    def _rect_element(self, x, y, w, h, radius, **attributes):
        if radius > 0:
            r = number(min(radius, w / 2, h / 2))
            attributes.update(rx=r, ry=r)
        return self.drawing.rect(insert=(number(x), number(y)), size=(number(w), number(h)), **attributes)

    def rect(self, x, y, w, h, *, fill=None, stroke=None, width=0.25, radius=0.0, dash=None):
        self._add(self._rect_element(x, y, w, h, radius, **self._paint(fill, stroke, width, dash)))

    def line(self, x1, y1, x2, y2, *, stroke="#000000", width=0.25, dash=None):
        self._add(self.drawing.line(start=(number(x1), number(y1)), end=(number(x2), number(y2)),
                                    **self._paint(None, stroke, width, dash)))

    def polygon(self, points: Sequence[Point], *, fill=None, stroke=None, width=0.25, closed=True, dash=None):
        coordinates = [(number(x), number(y)) for x, y in points]
        if closed:
            self._add(self.drawing.polygon(coordinates, **self._paint(fill, stroke, width, dash)))
        else:
            self._add(self.drawing.polyline(coordinates, **self._paint(None, stroke, width, dash)))

    def circle(self, cx, cy, r, *, fill=None, stroke=None, width=0.25, dash=None):
        self._add(self.drawing.circle(center=(number(cx), number(cy)), r=number(r),
                                      **self._paint(fill, stroke, width, dash)))

    def path(self, commands, *, fill=None, stroke=None, width=0.25, dash=None):
        parts = []
        for command in commands:
            kind, *args = command
            if kind not in ("M", "L", "C", "Z"):
                raise ValueError(f"unknown path command {kind!r} (M, L, C, Z)")
            parts.append(" ".join([kind] + [number(a) for a in args]))
        self._add(self.drawing.path(d=" ".join(parts), **self._paint(fill, stroke, width, dash)))

    def text(self, x, y, content, *, size=10.0, fill="#000000", anchor="start", bold=False):
        if anchor not in ("start", "middle", "end"):
            raise ValueError(f"unknown text anchor {anchor!r} (start, middle, end)")
        attributes = {"font_size": number(size * MM_PER_POINT), "font_family": FONT_FAMILY, "fill": fill}
        if anchor != "start":
            attributes["text_anchor"] = anchor
        if bold:
            attributes["font_weight"] = "bold"
        self._add(self.drawing.text(content, insert=(number(x), number(y)), **attributes))

    @contextmanager
    def transform(self, dx=0.0, dy=0.0, rotate=0.0, scale=1.0) -> Iterator[None]:
        steps = []
        if dx or dy:
            steps.append(f"translate({number(dx)} {number(dy)})")
        if rotate:
            steps.append(f"rotate({number(rotate)})")
        if scale != 1.0:
            steps.append(f"scale({number(scale)})")
        group = self.drawing.g(transform=" ".join(steps)) if steps else self.drawing.g()
        yield from self._inside(group)

    def _inside(self, group):
        """Add `group` and draw into it until the caller's block ends."""
        self._add(group)
        self._groups.append(group)
        try:
            yield
        finally:
            self._groups.pop()

    @contextmanager
    def clip(self, x, y, w, h, radius=0.0) -> Iterator[None]:
        self._clip_count += 1
        clip_id = f"clip{self._clip_count}"
        clip_path = self.drawing.clipPath(id=clip_id)
        clip_path.add(self._rect_element(x, y, w, h, radius))
        self.drawing.defs.add(clip_path)
        group = self.drawing.g(clip_path=f"url(#{clip_id})")
        yield from self._inside(group)


def render_svg(component: Component) -> str:
    """The SVG text of one component, `component.width` x `component.height` mm."""
    canvas = SvgCanvas(component.width, component.height)
    component.draw(canvas)
    return canvas.drawing.tostring()

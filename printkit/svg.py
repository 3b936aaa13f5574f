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
from typing import TYPE_CHECKING, Iterator, Sequence

import svgwrite
from svgwrite.base import BaseElement
from svgwrite.shapes import Rect

from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.fonts import font_name, register_fonts
from boardlab.printkit.pages import Component
from boardlab.printkit.units import MM_PER_POINT

if TYPE_CHECKING:
    from boardlab.layouts.images import Picture

#: what an SVG viewer should use for our text: the embedded PDF font first, then look-alikes
FONT_FAMILY = "Bitstream Vera Sans, DejaVu Sans, Verdana, sans-serif"  # the first is embedded


def number(value: float) -> str:
    """A coordinate written with at most four decimals and no trailing zeros.

    >>> number(1.0), number(2.54), number(1 / 3), number(-0.00001)
    ('1', '2.54', '0.3333', '0')
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"


class SvgCanvas(Canvas):
    """A Canvas that collects its calls into an svgwrite Drawing (`.drawing`).

    Every layer (art, cut, fold, guides) is a top-level Inkscape layer; a call made inside
    transforms and clips goes into its layer within copies of those groups, so each layer
    shows its lines where the page shows them.
    """

    def __init__(self, width: float, height: float, name: str = "drawing"):
        super().__init__(width, height)
        self.drawing = svgwrite.Drawing(size=(f"{number(width)}mm", f"{number(height)}mm"),
                                        viewBox=f"0 0 {number(width)} {number(height)}",
                                        profile="full", debug=False, id=name)
        self.drawing.attribs["xmlns:inkscape"] = INKSCAPE
        self._layers: dict[str, BaseElement] = {}
        for layer in self.LAYERS:
            group = self.drawing.g(id=f"{name}-{layer}", **{"inkscape:groupmode": "layer", "inkscape:label": layer})
            self.drawing.add(group)
            self._layers[layer] = group
        self._frames: list[tuple[int, dict[str, str]]] = []  # the transforms and clips in force: (id, attributes)
        self._mirrors: dict[str, list[tuple[int, BaseElement]]] = {layer: [] for layer in self.LAYERS}
        self._frame_count = 0
        self._clip_count = 0
        self.fonts_used: set[tuple[bool, bool]] = set()  # (bold, italic) of every text drawn

    def _add(self, element: BaseElement) -> None:
        layer = getattr(self, "current_layer", "art")
        mirrors = self._mirrors[layer]
        parent = self._layers[layer]
        for depth, (frame_id, attributes) in enumerate(self._frames):
            if depth < len(mirrors) and mirrors[depth][0] == frame_id:
                parent = mirrors[depth][1]
                continue
            del mirrors[depth:]
            group = self.drawing.g(**attributes)
            parent.add(group)
            mirrors.append((frame_id, group))
            parent = group
        parent.add(element)

    @staticmethod
    def _paint(fill: str | None, stroke: str | None, width: float, dash: Sequence[float] | None) -> dict[str, str]:
        attributes = {"fill": fill if fill is not None else "none"}
        if stroke is not None:
            attributes["stroke"] = stroke
            attributes["stroke_width"] = number(width)
            if dash:
                attributes["stroke_dasharray"] = ",".join(number(d) for d in dash)
        return attributes

    def _rect_element(self, x: float, y: float, w: float, h: float, radius: float, **attributes: str) -> Rect:
        if radius > 0:
            r = number(min(radius, w / 2, h / 2))
            attributes.update(rx=r, ry=r)
        return self.drawing.rect(insert=(number(x), number(y)), size=(number(w), number(h)), **attributes)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0,
             dash: Sequence[float] | None = None) -> None:
        self._add(self._rect_element(x, y, w, h, radius, **self._paint(fill, stroke, width, dash)))

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self._add(self.drawing.line(start=(number(x1), number(y1)), end=(number(x2), number(y2)),
                                    **self._paint(None, stroke, width, dash)))

    def polygon(self, points: Sequence[Point], *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.25, closed: bool = True, dash: Sequence[float] | None = None) -> None:
        coordinates = [(number(x), number(y)) for x, y in points]
        if closed:
            self._add(self.drawing.polygon(coordinates, **self._paint(fill, stroke, width, dash)))
        else:
            self._add(self.drawing.polyline(coordinates, **self._paint(None, stroke, width, dash)))

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        self._add(self.drawing.circle(center=(number(cx), number(cy)), r=number(r),
                                      **self._paint(fill, stroke, width, dash)))

    def path(self, commands: Sequence[tuple], *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        parts = []
        for command in commands:
            kind, *args = command
            if kind not in ("M", "L", "C", "Z"):
                raise ValueError(f"unknown path command {kind!r} (M, L, C, Z)")
            parts.append(" ".join([kind] + [number(a) for a in args]))
        self._add(self.drawing.path(d=" ".join(parts), **self._paint(fill, stroke, width, dash)))

    def text(self, x: float, y: float, content: str, *, size: float = 10.0, fill: str = "#000000",
             anchor: str = "start", bold: bool = False, italic: bool = False) -> None:
        if anchor not in ("start", "middle", "end"):
            raise ValueError(f"unknown text anchor {anchor!r} (start, middle, end)")
        attributes = {"font_size": number(size * MM_PER_POINT), "font_family": FONT_FAMILY, "fill": fill}
        if anchor != "start":
            attributes["text_anchor"] = anchor
        if bold:
            attributes["font_weight"] = "bold"
        if italic:
            attributes["font_style"] = "italic"
        self.fonts_used.add((bold, italic))
        self._add(self.drawing.text(content, insert=(number(x), number(y)), **attributes))

    def raster(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        import base64

        # the file's own bytes (a converted image's PNG), so the SVG stands alone
        href = f"data:{picture.mime};base64,{base64.b64encode(picture.data).decode('ascii')}"
        self._add(self.drawing.image(href=href, insert=(number(x), number(y)), size=(number(w), number(h)),
                                     preserveAspectRatio="none"))

    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0,
                  scale: float = 1.0) -> Iterator[None]:
        steps = []
        if dx or dy:
            steps.append(f"translate({number(dx)} {number(dy)})")
        if rotate:
            steps.append(f"rotate({number(rotate)})")
        if scale != 1.0:
            steps.append(f"scale({number(scale)})")
        yield from self._inside({"transform": " ".join(steps)} if steps else {})

    def _inside(self, attributes: dict[str, str]) -> Iterator[None]:
        """Draw the block inside a group with `attributes` (made in each layer that it draws on)."""
        self._frame_count += 1
        self._frames.append((self._frame_count, attributes))
        try:
            yield
        finally:
            self._frames.pop()

    @contextmanager
    def clip(self, x: float, y: float, w: float, h: float, radius: float = 0.0) -> Iterator[None]:
        self._clip_count += 1
        clip_id = f"clip{self._clip_count}"
        clip_path = self.drawing.clipPath(id=clip_id)
        clip_path.add(self._rect_element(x, y, w, h, radius))
        self.drawing.defs.add(clip_path)
        yield from self._inside({"clip_path": f"url(#{clip_id})"})


def _font_faces(faces: set[tuple[bool, bool]]) -> str:
    """@font-face rules carrying the embedded fonts (TrueType, base64), so that the SVG shows and
    cuts its text in the PDF's font wherever it is opened."""
    import base64

    from reportlab.lib.utils import open_for_read
    from reportlab.pdfbase import pdfmetrics

    rules = []
    for bold, italic in sorted(faces):
        register_fonts()
        path = pdfmetrics.getFont(font_name(bold, italic)).face.filename
        with open_for_read(path) as handle:
            data = base64.b64encode(handle.read()).decode("ascii")
        rules.append(f"@font-face {{ font-family: '{FONT_FAMILY.split(',')[0]}'; font-weight: "
                     f"{'bold' if bold else 'normal'};{' font-style: italic;' if italic else ''} "
                     f"src: url(data:font/ttf;base64,{data}) format('truetype'); }}")
    return "\n".join(rules)


def render_svg(component: Component) -> str:
    """The SVG text of one component, `component.width` x `component.height` mm, with its id,
    its layers and the fonts of its text embedded."""
    canvas = SvgCanvas(component.width, component.height, component.name)
    component.draw(canvas)
    if canvas.fonts_used:
        canvas.drawing.defs.add(canvas.drawing.style(_font_faces(canvas.fonts_used)))
    return canvas.drawing.tostring()

"""Reading geometry back out of a PDF with pypdf, independently of the code that wrote it.

A small content-stream interpreter: it follows q/Q and cm, and reports every stroked straight
line, every rectangle and every clip rectangle in millimetres with y measured down from the top
of the page, the way the drawing code thinks.  Tests compare these measurements with the
definitions' numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM_PER_POINT = 25.4 / 72.0


def _multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


@dataclass
class PageGeometry:
    width: float  # mm
    height: float
    lines: list[tuple[float, float, float, float, int]] = field(default_factory=list)  # x1 y1 x2 y2 depth
    rects: list[tuple[float, float, float, float]] = field(default_factory=list)  # x y w h (mm, y down)
    clips: list[tuple[float, float, float, float]] = field(default_factory=list)
    fills: list[tuple[float, float, float, float]] = field(default_factory=list)  # filled rectangles, x y w h


def page_geometry(reader: PdfReader, index: int) -> PageGeometry:
    """Lines (with their q-depth), rectangles and clip rectangles of one page, in mm, y down."""
    page = reader.pages[index]
    box = page.mediabox
    width_pt, height_pt = float(box.width), float(box.height)
    geometry = PageGeometry(width_pt * MM_PER_POINT, height_pt * MM_PER_POINT)

    def to_mm(ctm, x, y):
        a, b, c, d, e, f = ctm
        px, py = x * a + y * c + e, x * b + y * d + f
        return px * MM_PER_POINT, (height_pt - py) * MM_PER_POINT

    ctm = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    stack = []
    subpath: list[tuple[float, float]] = []
    segments: list[tuple[float, float, float, float]] = []
    pending_rects: list[tuple[float, float, float, float]] = []
    clip_next = False
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif operator == b"m":
            subpath = [to_mm(ctm, float(operands[0]), float(operands[1]))]
        elif operator == b"l":
            point = to_mm(ctm, float(operands[0]), float(operands[1]))
            if subpath:
                segments.append((*subpath[-1], *point))
            subpath.append(point)
        elif operator == b"re":
            x, y, w, h = (float(v) for v in operands)
            corners = [to_mm(ctm, x, y), to_mm(ctm, x + w, y + h)]
            xs, ys = sorted(p[0] for p in corners), sorted(p[1] for p in corners)
            pending_rects.append((xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0]))
        elif operator in (b"W", b"W*"):
            clip_next = True
        elif operator in (b"S", b"s", b"f", b"f*", b"B", b"B*", b"b", b"b*", b"n", b"F"):
            if clip_next:
                geometry.clips.extend(pending_rects)
                clip_next = False
            elif operator != b"n":
                geometry.rects.extend(pending_rects)
                if operator not in (b"S", b"s"):
                    geometry.fills.extend(pending_rects)
                if operator in (b"S", b"s"):
                    geometry.lines.extend((*s, len(stack)) for s in segments)
            pending_rects, segments, subpath = [], [], []
    return geometry


def open_pdf(data: bytes) -> PdfReader:
    import io
    return PdfReader(io.BytesIO(data))

"""Read a finished PDF back and find text that leaves its page's safe area.

The check works on the file as written, not on what the drawing code meant to draw: it reads
each page's content stream (and the forms it paints), follows the graphics and text state the
way a viewer does (`cm`, `q`/`Q`, `Tm`, `Td`, `TL`, `T*`, `Tf`, `Tc`, `Tw`, `Tz`, `Ts`) and
gives every shown string a box from its font's own advance widths and ascent and descent.
A string whose box reaches past the safe area is a problem, named with the page, the text and
how far it reaches.

The safe area of a sheet is the page less the sheet margin (no printer reaches the paper's
very edge); a page with a TrimBox smaller than the page (a single card with its bleed) keeps
text inside the trim less the card's safe zone.

>>> from boardlab.printkit.pages import Page, PrintFile
>>> from boardlab.printkit.pdf import render_pdf
>>> page = Page(100, 50, lambda c: c.text(80, 20, "Señal de corte", size=12))
>>> problems = text_off_page(render_pdf(PrintFile("demo", "Demo", (page,))), margin=5, safe=3)
>>> [(p.page, p.text, p.side) for p in problems]
[(1, 'Señal de corte', 'right')]
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any, Iterator

from boardlab.printkit.units import POINTS_PER_MM

#: a matrix [a b c d e f] as PDF writes it
Matrix = tuple[float, float, float, float, float, float]
#: a box in points (x0, y0, x1, y1), PDF's y up
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: slack for rounding in the file's numbers, in points
TOLERANCE = 0.05


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """The matrix of applying `m` and then `n` (PDF's row-vector convention).

    >>> multiply((1, 0, 0, 1, 5, 0), (2, 0, 0, 2, 0, 0))
    (2, 0, 0, 2, 10, 0)
    """
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) carried by `m`."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass(frozen=True)
class Glyphs:
    """One shown string: its text, page and box in points (x0, y0, x1, y1, PDF's y up)."""

    page: int
    text: str
    box: tuple[float, float, float, float]
    size: float
    font: str


@dataclass(frozen=True)
class OffPage:
    """A string that reaches past its page's safe area, by `by_mm` on `side`."""

    file: str
    page: int
    text: str
    side: str
    by_mm: float

    def line(self) -> str:
        return (f"{self.file} page {self.page}: {self.text!r} reaches {self.by_mm:.1f} mm past "
                f"the safe area ({self.side})")


class _Font:
    """A simple font's advance widths (1/1000 of the size) and its ascent and descent."""

    def __init__(self, font: Any):
        font = font.get_object()
        self.name = str(font.get("/BaseFont", "?"))
        self.first = int(font.get("/FirstChar", 0))
        self.widths = [float(w) for w in font.get("/Widths", [])]
        descriptor = font.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        self.ascent = float(descriptor.get("/Ascent", 800)) / 1000
        self.descent = float(descriptor.get("/Descent", -200)) / 1000
        self.missing = float(descriptor.get("/MissingWidth", 500))
        self._standard = None if self.widths else self.name.lstrip("/")
        self.unicode = _to_unicode(font.get("/ToUnicode"))

    def text(self, data: bytes) -> str:
        """The characters the codes stand for (the font's ToUnicode map, else Latin-1)."""
        return "".join(self.unicode.get(code, chr(code)) for code in data)

    def advance(self, code: int) -> float:
        if self._standard is not None:  # one of the 14 standard fonts: reportlab has its metrics
            from reportlab.pdfbase import pdfmetrics
            try:
                return pdfmetrics.stringWidth(chr(code), self._standard, 1000) / 1000
            except KeyError:
                return self.missing / 1000
        index = code - self.first
        if 0 <= index < len(self.widths):
            return self.widths[index] / 1000
        return self.missing / 1000


BFCHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


def _to_unicode(stream: Any) -> dict[int, str]:
    """The one-byte codes of a ToUnicode CMap's bfchar entries (what reportlab writes)."""
    if stream is None:
        return {}
    data = stream.get_object().get_data()
    table: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for code, text in BFCHAR.findall(block):
            if int(text, 16):
                table[int(code, 16)] = bytes.fromhex(text.decode()).decode("utf-16-be", "replace")
    return table


def _number(value: Any) -> float:
    return float(value)


def _intersect(a: Box | None, b: Box | None) -> Box | None:
    """The common part of two boxes (None for no limit as `a`), None when they do not meet."""
    if a is None:
        return b
    if b is None:
        return None
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _glyphs_of(stream: Any, resources: Any, reader: Any, ctm: Matrix, page: int,
               clip: Box | None = None, depth: int = 0) -> Iterator[Glyphs]:
    """Every string shown by one content stream (a page's or a form's)."""
    from pypdf.generic import ContentStream

    fonts = {}
    font_table = resources.get("/Font") if resources is not None else None
    if font_table is not None:
        for key, value in font_table.get_object().items():
            fonts[key] = _Font(value)
    xobjects = resources.get("/XObject") if resources is not None else None
    xobjects = xobjects.get_object() if xobjects is not None else {}

    stack: list[tuple[Matrix, Box | None]] = []
    path: list[tuple[float, float]] = []
    clipping = False
    tm = lm = IDENTITY
    font: _Font | None = None
    size = leading = char_space = word_space = rise = 0.0
    scale = 1.0
    for operands, op in ContentStream(stream, reader).operations:
        if op == b"q":
            stack.append((ctm, clip))
        elif op == b"Q":
            ctm, clip = stack.pop() if stack else (ctm, clip)
        elif op == b"re":
            x, y, w, h = (_number(v) for v in operands)
            path += [apply(ctm, x, y), apply(ctm, x + w, y), apply(ctm, x, y + h),
                     apply(ctm, x + w, y + h)]
        elif op in (b"m", b"l"):
            path.append(apply(ctm, _number(operands[0]), _number(operands[1])))
        elif op in (b"c", b"v", b"y"):
            values = [_number(v) for v in operands]
            path += [apply(ctm, values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op in (b"W", b"W*"):
            clipping = True
        elif op in (b"n", b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
            if clipping and path:  # the clip's bounding box: enough for the rectangles we clip to
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                clip = _intersect(clip, (min(xs), min(ys), max(xs), max(ys)))
            path, clipping = [], False
        elif op == b"cm":
            ctm = multiply(tuple(_number(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == b"BT":
            tm = lm = IDENTITY
        elif op == b"Tm":
            tm = lm = tuple(_number(v) for v in operands)  # type: ignore[assignment]
        elif op in (b"Td", b"TD"):
            tx, ty = (_number(v) for v in operands)
            if op == b"TD":
                leading = -ty
            tm = lm = multiply((1, 0, 0, 1, tx, ty), lm)
        elif op == b"T*":
            tm = lm = multiply((1, 0, 0, 1, 0, -leading), lm)
        elif op == b"TL":
            leading = _number(operands[0])
        elif op == b"Tf":
            font = fonts.get(operands[0])
            size = _number(operands[1])
        elif op == b"Tc":
            char_space = _number(operands[0])
        elif op == b"Tw":
            word_space = _number(operands[0])
        elif op == b"Tz":
            scale = _number(operands[0]) / 100
        elif op == b"Ts":
            rise = _number(operands[0])
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            if op in (b"'", b'"'):
                if op == b'"':
                    word_space, char_space = _number(operands[0]), _number(operands[1])
                tm = lm = multiply((1, 0, 0, 1, 0, -leading), lm)
            items = operands[0] if op == b"TJ" else [operands[-1]]
            if font is None:
                continue
            start = tm
            text = []
            advance = 0.0
            for item in items:
                if isinstance(item, (bytes, str)) or hasattr(item, "original_bytes"):
                    data = item.original_bytes if hasattr(item, "original_bytes") else (
                        item if isinstance(item, bytes) else item.encode("latin-1"))
                    for code in data:
                        width = font.advance(code) * size + char_space
                        if code == 32:
                            width += word_space
                        advance += width * scale
                    text.append(font.text(data))
                else:  # a TJ adjustment in thousandths of the size, subtracted
                    advance -= _number(item) / 1000 * size * scale
            tm = multiply((1, 0, 0, 1, advance, 0), tm)
            full = multiply(start, ctm)
            low, high = font.descent * size + rise, font.ascent * size + rise
            corners = [apply(full, x, y) for x in (0.0, advance) for y in (low, high)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            shown = "".join(text).strip()
            box = _intersect(clip, (min(xs), min(ys), max(xs), max(ys)))
            if shown and box is not None:  # a string wholly clipped away is not printed
                yield Glyphs(page, shown, box, size, font.name)
        elif op == b"Do" and depth < 8:
            xobject = xobjects.get(operands[0])
            xobject = xobject.get_object() if xobject is not None else None
            if xobject is not None and xobject.get("/Subtype") == "/Form":
                matrix = tuple(_number(v) for v in xobject.get("/Matrix", IDENTITY))
                yield from _glyphs_of(xobject, xobject.get("/Resources", resources), reader,
                                      multiply(matrix, ctm), page, clip,  # type: ignore[arg-type]
                                      depth + 1)


def page_glyphs(pdf: bytes) -> Iterator[tuple[int, tuple[float, ...], tuple[float, ...], Glyphs]]:
    """Every string of a PDF with its page's MediaBox and TrimBox, pages counted from 1."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    for number, page in enumerate(reader.pages, start=1):
        media = tuple(float(v) for v in page.mediabox)
        trim = tuple(float(v) for v in page.trimbox)
        contents = page.get_contents()
        if contents is None:
            continue
        for glyphs in _glyphs_of(contents, page.get("/Resources"), reader, IDENTITY, number):
            yield number, media, trim, glyphs


def text_off_page(pdf: bytes, margin: float, safe: float, name: str = "") -> list[OffPage]:
    """The strings that reach past the safe area, `margin` mm in from the page's edge (`safe`
    mm in from the trim where a page has a TrimBox inside it).

    :raises pypdf.errors.PdfReadError: when `pdf` is not a PDF.
    """
    problems: list[OffPage] = []
    for number, media, trim, glyphs in page_glyphs(pdf):
        if trim != media:
            inset = safe * POINTS_PER_MM
            area = trim
        else:
            inset = margin * POINTS_PER_MM
            area = media
        left, bottom, right, top = area[0] + inset, area[1] + inset, area[2] - inset, area[3] - inset
        x0, y0, x1, y1 = glyphs.box
        reaches = {"left": left - x0, "right": x1 - right, "bottom": bottom - y0, "top": y1 - top}
        side, by = max(reaches.items(), key=lambda item: item[1])
        if by > TOLERANCE:
            problems.append(OffPage(name, number, glyphs.text, side, by / POINTS_PER_MM))
    return problems


#: the smallest size a heading is set in, and the smallest body text, in points
HEADING_SIZE = 10.5
BODY_SIZE = 8.0
#: text wholly this close to the page's foot (mm) is a footer: page numbers, the file's name
FOOTER_BAND = 15.0


def headings_last(pdf: bytes, name: str = "") -> list[OffPage]:
    """Headings left last on a page: the page's lowest text of body size or more is set in a
    bold font at heading size, and a later page follows (the text it heads went over).

    Footers (smaller than body text, or wholly within `FOOTER_BAND` of the page's foot) do not
    count; the last page may end on anything.
    """
    lowest: dict[int, Glyphs] = {}
    pages = 0
    for number, media, _trim, glyphs in page_glyphs(pdf):
        pages = max(pages, number)
        if glyphs.size < BODY_SIZE or glyphs.box[3] < media[1] + FOOTER_BAND * POINTS_PER_MM:
            continue
        seen = lowest.get(number)
        if seen is None or glyphs.box[1] < seen.box[1] - TOLERANCE:
            lowest[number] = glyphs
    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    return [OffPage(name, number, glyphs.text, "heading last on the page", 0.0)
            for number, glyphs in sorted(lowest.items())
            if number < pages and glyphs.size >= HEADING_SIZE and "Bold" in glyphs.font]

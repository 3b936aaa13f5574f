"""The PDF backend: a Canvas drawing on a reportlab page, and `render_pdf` for a whole PrintFile.

This is the only place where millimetres become points and y-down becomes reportlab's y-up:
each page starts with a transform that maps (x mm, y mm down) to (x pt, height - y pt), so the
drawing code never sees a point or an upward axis.  Text is set in Vera (a TrueType font that
ships with reportlab and carries accents), embedded in the file.  Output is byte-identical for
identical input: reportlab's invariant mode fixes the creation date and the document id.

>>> from boardlab.printkit.pages import Page, PrintFile
>>> page = Page(100, 50, lambda c: c.text(10, 20, "Señal", size=12))
>>> pdf = render_pdf(PrintFile("demo", "Demo", (page,)))
>>> pdf[:5], pdf == render_pdf(PrintFile("demo", "Demo", (page,)))
(b'%PDF-', True)
"""

from __future__ import annotations

import hashlib
import io
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, Sequence

from reportlab.lib.colors import HexColor
from reportlab.pdfgen import canvas as reportlab_canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.fonts import REGULAR_FONT, font_name, register_fonts
from boardlab.printkit.pages import Box, PrintFile
from boardlab.printkit.units import POINTS_PER_MM

if TYPE_CHECKING:
    from boardlab.layouts.images import Picture

def box_in_points(box: Box, page_height: float) -> tuple[float, float, float, float]:
    """A (x, y, width, height) box in mm, y down, as PDF (x1, y1, x2, y2) in points, y up.

    >>> [round(v, 3) for v in box_in_points((0, 0, 25.4, 25.4), 50.8)]
    [0.0, 72.0, 72.0, 144.0]
    """
    x, y, w, h = box
    return (x * POINTS_PER_MM, (page_height - y - h) * POINTS_PER_MM,
            (x + w) * POINTS_PER_MM, (page_height - y) * POINTS_PER_MM)


class PdfCanvas(Canvas):
    """One page of a reportlab canvas, drawn in millimetres with y pointing down."""

    def __init__(self, pdf: reportlab_canvas.Canvas, width: float, height: float):
        super().__init__(width, height)
        self._pdf = pdf

    # -- state helpers -------------------------------------------------------------------------
    def _paint(self, fill: str | None, stroke: str | None, width: float,
               dash: Sequence[float] | None) -> tuple[int, int]:
        if fill is not None:
            self._pdf.setFillColor(HexColor(fill))
        if stroke is not None:
            self._pdf.setStrokeColor(HexColor(stroke))
            self._pdf.setLineWidth(width)
            if dash:
                self._pdf.setDash(list(dash), 0)
            else:
                self._pdf.setDash([], 0)
        return int(fill is not None), int(stroke is not None)

    def _rect_path(self, x: float, y: float, w: float, h: float, radius: float) -> PDFPathObject:
        path = self._pdf.beginPath()
        if radius > 0:
            path.roundRect(x, y, w, h, min(radius, w / 2, h / 2))
        else:
            path.rect(x, y, w, h)
        return path

    # -- Canvas --------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.25, radius: float = 0.0,
             dash: Sequence[float] | None = None) -> None:
        do_fill, do_stroke = self._paint(fill, stroke, width, dash)
        if do_fill or do_stroke:
            self._pdf.drawPath(self._rect_path(x, y, w, h, radius), stroke=do_stroke, fill=do_fill)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        if stroke is None:
            return
        self._paint(None, stroke, width, dash)
        self._pdf.line(x1, y1, x2, y2)

    def polygon(self, points: Sequence[Point], *, fill: str | None = None, stroke: str | None = None,
                width: float = 0.25, closed: bool = True, dash: Sequence[float] | None = None) -> None:
        do_fill, do_stroke = self._paint(fill if closed else None, stroke, width, dash)
        if not points or not (do_fill or do_stroke):
            return
        path = self._pdf.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        if closed:
            path.close()
        self._pdf.drawPath(path, stroke=do_stroke, fill=do_fill)

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        do_fill, do_stroke = self._paint(fill, stroke, width, dash)
        if do_fill or do_stroke:
            self._pdf.circle(cx, cy, r, stroke=do_stroke, fill=do_fill)

    def path(self, commands: Sequence[tuple], *, fill: str | None = None, stroke: str | None = None,
             width: float = 0.25, dash: Sequence[float] | None = None) -> None:
        do_fill, do_stroke = self._paint(fill, stroke, width, dash)
        if not (do_fill or do_stroke):
            return
        path = self._pdf.beginPath()
        for command in commands:
            kind, *args = command
            if kind == "M":
                path.moveTo(*args)
            elif kind == "L":
                path.lineTo(*args)
            elif kind == "C":
                path.curveTo(*args)
            elif kind == "Z":
                path.close()
            else:
                raise ValueError(f"unknown path command {kind!r} (M, L, C, Z)")
        self._pdf.drawPath(path, stroke=do_stroke, fill=do_fill)

    def text(self, x: float, y: float, content: str, *, size: float = 10.0, fill: str = "#000000",
             anchor: str = "start", bold: bool = False, italic: bool = False) -> None:
        register_fonts()
        self._pdf.saveState()
        self._pdf.translate(x, y)
        self._pdf.scale(1, -1)  # undo the page flip so letters stand upright
        self._pdf.setFillColor(HexColor(fill))
        self._pdf.setFont(font_name(bold, italic), size / POINTS_PER_MM)
        if anchor == "middle":
            self._pdf.drawCentredString(0, 0, content)
        elif anchor == "end":
            self._pdf.drawRightString(0, 0, content)
        elif anchor == "start":
            self._pdf.drawString(0, 0, content)
        else:
            raise ValueError(f"unknown text anchor {anchor!r} (start, middle, end)")
        self._pdf.restoreState()

    def raster(self, x: float, y: float, w: float, h: float, picture: Picture) -> None:
        from reportlab.lib.utils import ImageReader

        self._pdf.saveState()
        self._pdf.translate(x, y + h)
        self._pdf.scale(1, -1)  # the image's first row at the top of its box
        # reportlab names the image by a digest of its data: a picture on many faces is embedded once
        self._pdf.drawImage(ImageReader(io.BytesIO(picture.data)), 0, 0, w, h, mask="auto")
        self._pdf.restoreState()

    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, rotate: float = 0.0,
                  scale: float = 1.0) -> Iterator[None]:
        self._pdf.saveState()
        self._pdf.translate(dx, dy)
        if rotate:
            # with y down, reportlab's counter-clockwise rotation shows as clockwise
            self._pdf.rotate(rotate)
        if scale != 1.0:
            self._pdf.scale(scale, scale)
        try:
            yield
        finally:
            self._pdf.restoreState()

    @contextmanager
    def clip(self, x: float, y: float, w: float, h: float, radius: float = 0.0) -> Iterator[None]:
        self._pdf.saveState()
        self._pdf.clipPath(self._rect_path(x, y, w, h, radius), stroke=0, fill=0)
        try:
            yield
        finally:
            self._pdf.restoreState()


#: the PDF viewer preference for each way of printing backs
DUPLEX_PREFERENCE = {None: "Simplex", "long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}


def render_pdf(print_file: PrintFile) -> bytes:
    """The PDF of every page of `print_file`, as bytes (identical input, identical bytes).

    Pages with a trim box or bleed box carry them as TrimBox/BleedBox; every file asks viewers
    to print at 100 % (/PrintScaling /None) and one- or two-sided (/Duplex).  The document /ID
    is a digest of the file's name and of what it draws, so that two files never share one
    (reportlab's invariant mode alone gives every file the same) and a rebuild keeps it.
    """
    first = _render(print_file, b"")
    return _render(print_file, hashlib.sha256(print_file.name.encode("utf-8") + b"\0" + first).digest())


def _render(print_file: PrintFile, fingerprint: bytes) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    # the initial font is Vera too, so the file references no font it does not embed
    pdf = reportlab_canvas.Canvas(buffer, invariant=1, pageCompression=1, pdfVersion=(1, 6),
                                  initialFontName=REGULAR_FONT, initialFontSize=10)
    pdf.setTitle(print_file.title)
    pdf.setCreator("boardlab")
    pdf.setAuthor("boardlab")
    pdf.setProducer("boardlab (reportlab)")
    pdf.setSubject(print_file.subject or print_file.title)
    pdf.setViewerPreference("PrintScaling", "None")
    pdf.setViewerPreference("Duplex", DUPLEX_PREFERENCE[print_file.duplex])
    if fingerprint:
        pdf._doc.updateSignature(fingerprint)  # reportlab derives the /ID from its signature
    for page in print_file.pages:
        pdf.setPageSize((page.width * POINTS_PER_MM, page.height * POINTS_PER_MM))
        pdf.setTrimBox(box_in_points(page.trim_box, page.height) if page.trim_box else None)
        pdf.setBleedBox(box_in_points(page.bleed_box, page.height) if page.bleed_box else None)
        pdf.saveState()
        pdf.translate(0, page.height * POINTS_PER_MM)
        pdf.scale(POINTS_PER_MM, -POINTS_PER_MM)
        page.draw(PdfCanvas(pdf, page.width, page.height))
        pdf.restoreState()
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()

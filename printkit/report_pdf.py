"""A report document typeset as a PDF (reportlab platypus), charts as vector drawings.

Identical documents give byte-identical PDFs (reportlab's invariant mode, no clock).
"""

from __future__ import annotations

from typing import Any

import io
import re
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas as PdfCanvas
from reportlab.platypus import BaseDocTemplate, Flowable
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle

from boardlab.analysis.report.document import format_cell
from boardlab.printkit.charts import chart_drawing
from boardlab.printkit.flow import headings_kept
from boardlab.layouts.terms import respell, term
from boardlab.printkit.fonts import BOLD_FONT, REGULAR_FONT, register_fonts

MARGIN = 16 * mm


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=REGULAR_FONT, fontSize=9, leading=12, spaceAfter=4)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName=BOLD_FONT, fontSize=16, leading=20, spaceAfter=8),
        "h2": ParagraphStyle("h2", parent=base, fontName=BOLD_FONT, fontSize=13, leading=16, spaceBefore=10,
                             spaceAfter=6, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=base, fontName=BOLD_FONT, fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=4, keepWithNext=1),  # a heading never ends a page
        "caption": ParagraphStyle("caption", parent=base, fontName=BOLD_FONT, fontSize=8.5, leading=11, spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9, spaceAfter=0),
        "pre": ParagraphStyle("pre", parent=base, fontName="Courier", fontSize=7, leading=8.5),
        "note": ParagraphStyle("note", parent=base, fontSize=7.5, leading=9.5, textColor=colors.HexColor("#444444")),
    }


def _section(section: dict[str, Any], styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    story = [Paragraph(inline(section["title"]), styles["h2" if section["level"] <= 2 else "h3"])]
    for block in section["blocks"]:
        story += _block(block, styles, width)
        story.append(Spacer(1, 2 * mm))
    return story


def inline(text: str) -> str:
    """Markdown-ish inline text as reportlab paragraph markup: `code` and **bold**, the rest escaped.

    >>> inline("a `b < c` **d**")
    'a <font face="Courier">b &lt; c</font> <b>d</b>'
    """
    out = escape(text)
    out = re.sub(r"`([^`]+)`", r'<font face="Courier">\1</font>', out)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)


#: the breakable spaces of a paragraph (reportlab breaks lines at these only; a no-break space is none)
_SPACES = re.compile(r"[ \t\n]+")
#: a table's cell text size and the smallest it may shrink to when its columns' words cannot fit the page
CELL_SIZES = (7.5, 7.0, 6.5, 6.0, 5.5, 5.0, 4.5)
CELL_PADDING = 3.0  # points left and right of a cell's text


def glued(text: str) -> str:
    """`text` with a no-break space where a line must not break: between a comparison or sign and
    its number ("< 0.001"), and between a number and its percent or points unit ("50,9 %").

    >>> glued("< 0.001 and 12 pts") == "<\u00a00.001 and 12\u00a0pts"
    True
    """
    units = {term("report.percent", n="0")[1:].strip(), term("report.pts", n="0")[1:].strip()}
    text = re.sub(r"(?<![^\s(])([<>≤≥±~]) (?=[-+−]?\d)", "\\1\u00a0", text)
    for unit in sorted(u for u in units if u):
        text = re.sub(rf"(?<=\d) (?={re.escape(unit)}(?!\w))", "\u00a0", text)
    return text


def _runs(text: str, bold: bool) -> list[tuple[str, str]]:
    """The pieces of a cell's inline text and the font each is set in (`code` in Courier)."""
    out = []
    for i, piece in enumerate(re.split(r"`([^`]+)`", text)):
        plain = piece.replace("**", "")
        if plain:
            out.append((plain, "Courier" if i % 2 else (BOLD_FONT if bold else REGULAR_FONT)))
    return out


def text_widths(text: str, size: float, bold: bool = False) -> tuple[float, float]:
    """How wide `text` (inline markup) is set on one line, and its widest unbreakable word, in points.

    >>> whole, word = text_widths("ab abc", 10)
    >>> word == text_widths("abc", 10)[0] and whole > word
    True
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    whole = widest = current = 0.0
    for piece, font in _runs(text, bold):
        for k, part in enumerate(_SPACES.split(piece)):
            if k:  # a breakable space ends the word before it
                widest, current = max(widest, current), 0.0
            current += stringWidth(part, font, size)
        whole += stringWidth(piece, font, size)
    return whole, max(widest, current)


def column_widths(wanted: list[float], least: list[float], width: float, headed: list[float] | None = None
                  ) -> list[float]:
    """Column widths summing to `width`: each column as wide as its one-line text (`headed`: its
    header on one line too), the room left over shared in proportion.  When the headers do not
    fit on one line, they wrap first: each column gets its cells' one-line width (`wanted`) and a
    like part of what its header asks beyond.  When the cells do not fit either, the widest
    columns give up width first, none below its widest word (`least`; the caller makes sure
    those fit).

    >>> column_widths([10, 20], [5, 5], 60)
    [20.0, 40.0]
    >>> [round(w, 3) for w in column_widths([10, 20], [5, 5], 40, headed=[20, 40])]
    [13.333, 26.667]
    >>> column_widths([10, 100, 100], [10, 30, 60], 140)
    [10, 65.0, 65.0]
    """
    wanted = [max(w, m) for w, m in zip(wanted, least)]
    headed = wanted if headed is None else [max(h, w) for h, w in zip(headed, wanted)]
    if sum(headed) <= width:
        return [width * h / sum(headed) for h in headed]
    if sum(wanted) <= width:
        share = (width - sum(wanted)) / (sum(headed) - sum(wanted))
        return [w + (h - w) * share for w, h in zip(wanted, headed)]
    low, high = 0.0, max(wanted)
    for _ in range(60):  # the cap on every column that makes them fill the width (bisected)
        cap = (low + high) / 2
        low, high = (cap, high) if sum(max(m, min(w, cap)) for w, m in zip(wanted, least)) < width else (low, cap)
    return [max(m, min(w, high)) for w, m in zip(wanted, least)]


def _table(block: dict[str, Any], styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    columns = block["columns"]
    texts = [[glued(format_cell(v, c["format"])) for v, c in zip(row, columns)] for row in block["rows"]]
    names = [glued(c["name"]) for c in columns]
    pad = 2 * CELL_PADDING + 0.5  # and half a point against rounding in the line breaking
    for size in CELL_SIZES:  # the largest text size at which every column's widest word fits
        measured = [[text_widths(n, size, bold=True)] + [text_widths(row[i], size) for row in texts]
                    for i, n in enumerate(names)]
        least = [max(w for _, w in column) + pad for column in measured]
        if sum(least) <= width:
            break
    headed = [max(whole for whole, _ in column) + pad for column in measured]
    wanted = [max((whole for whole, _ in column[1:]), default=0.0) + pad for column in measured]
    cell = ParagraphStyle(f"cell-{size}", parent=styles["cell"], fontSize=size, leading=size * 1.2)
    header = [Paragraph(f"<b>{inline(n)}</b>", cell) for n in names]
    rows = [[Paragraph(inline(t), cell) for t in row] for row in texts]
    table = Table([header] + rows, repeatRows=1, hAlign="LEFT", colWidths=column_widths(wanted, least, width, headed))
    table.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#222222")),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f3f3")]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING), ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ]))
    out = [Paragraph(inline(block["title"]), styles["caption"]), table]
    if block.get("note"):
        out.append(Paragraph(inline(block["note"]), styles["note"]))
    return out


def _block(block: dict[str, Any], styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    kind = block["kind"]
    if kind == "text":
        return [Paragraph(inline(line), styles["body"]) for line in block["text"].split("\n") if line.strip()]
    if kind == "pre":
        # long lines fold at the page edge, the rest indented
        return [Preformatted(block["text"], styles["pre"], maxLineLength=118, splitChars=" ,", newLineChars="    ")]
    if kind == "chart":
        out = [chart_drawing(block)]
        if block.get("note"):
            out.append(Paragraph(inline(block["note"]), styles["note"]))
        return [KeepTogether(out)]
    parts = _table(block, styles, width)
    return [KeepTogether(parts)] if len(block["rows"]) <= 25 else parts


def report_pdf(document: dict) -> bytes:
    """The PDF of a report document."""
    register_fonts()
    styles = _styles()
    buffer = io.BytesIO()
    width = A4[0] - 2 * MARGIN
    pdf = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                            bottomMargin=MARGIN + 4 * mm, title=document["title"], author="boardlab",
                            creator="boardlab", invariant=1, pageCompression=1)
    story = [Paragraph(inline(document["title"]), styles["title"])]
    first = [s for s in document["sections"] if s.get("first")]  # the verdict page, a page of its own
    for section in first:
        story += _section(section, styles, width)
    if first:
        story.append(PageBreak())
    head = [[label, value] for label, value in document["head"]]
    run = document.get("run")
    if run is not None:
        head.append([term("report.head.run_time"),
                     term("report.head.run_time_value", seconds=respell(f"{run['seconds']:,.1f}"))])
    story.append(_table({"title": term("report.head.made"), "note": "",
                         "columns": [{"name": "", "format": "text"}, {"name": "", "format": "text"}],
                         "rows": head}, styles, width)[1])
    story.append(Spacer(1, 4 * mm))
    for section in document["sections"]:
        if not section.get("first"):
            story += _section(section, styles, width)
    story.append(Paragraph(term("report.glossary"), styles["h2"]))
    story += [Paragraph(f"<b>{escape(term)}</b>: {inline(text)}", styles["body"]) for term, text in document["glossary"]]

    def footer(canvas: PdfCanvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(REGULAR_FONT, 7.5)
        canvas.setFillColor(colors.HexColor("#666666"))
        canvas.drawString(MARGIN, MARGIN / 2, document["title"])
        canvas.drawRightString(A4[0] - MARGIN, MARGIN / 2, term("report.page", n=doc.page))
        canvas.restoreState()

    pdf.build(headings_kept(story), onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()

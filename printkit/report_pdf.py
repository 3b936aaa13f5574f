"""A report document typeset as a PDF (reportlab platypus), charts as vector drawings.

Identical documents give byte-identical PDFs (reportlab's invariant mode, no clock).
"""

from __future__ import annotations

import io
import re
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, Preformatted, SimpleDocTemplate, Spacer, Table, TableStyle

from boardlab.analysis.report.document import format_cell
from boardlab.printkit.charts import chart_drawing
from boardlab.layouts.terms import respell, term
from boardlab.printkit.fonts import BOLD_FONT, REGULAR_FONT, register_fonts

MARGIN = 16 * mm


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=REGULAR_FONT, fontSize=9, leading=12, spaceAfter=4)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName=BOLD_FONT, fontSize=16, leading=20, spaceAfter=8),
        "h2": ParagraphStyle("h2", parent=base, fontName=BOLD_FONT, fontSize=13, leading=16, spaceBefore=10,
                             spaceAfter=6),
        "h3": ParagraphStyle("h3", parent=base, fontName=BOLD_FONT, fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=4),
        "caption": ParagraphStyle("caption", parent=base, fontName=BOLD_FONT, fontSize=8.5, leading=11, spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.5, leading=9, spaceAfter=0),
        "pre": ParagraphStyle("pre", parent=base, fontName="Courier", fontSize=7, leading=8.5),
        "note": ParagraphStyle("note", parent=base, fontSize=7.5, leading=9.5, textColor=colors.HexColor("#444444")),
    }


def _section(section: dict, styles, width: float) -> list:
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


def _table(block: dict, styles, width: float):
    columns = block["columns"]
    texts = [[format_cell(v, c["format"]) for v, c in zip(row, columns)] for row in block["rows"]]
    header = [Paragraph(f"<b>{escape(c['name'])}</b>", styles["cell"]) for c in columns]
    rows = [[Paragraph(inline(t), styles["cell"]) for t in row] for row in texts]
    # each column as wide as its longest text asks, within limits, scaled to the page
    weights = [min(45, max(6, 2 + max((len(w) for w in c["name"].split()), default=0),
                           1 + max((len(row[i]) for row in texts), default=0))) for i, c in enumerate(columns)]
    widths = [width * w / sum(weights) for w in weights]
    table = Table([header] + rows, repeatRows=1, hAlign="LEFT", colWidths=widths)
    table.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#222222")),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f3f3f3")]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    out = [Paragraph(inline(block["title"]), styles["caption"]), table]
    if block.get("note"):
        out.append(Paragraph(inline(block["note"]), styles["note"]))
    return out


def _block(block: dict, styles, width: float) -> list:
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

    def footer(canvas, doc):
        canvas.saveState()
        canvas.setFont(REGULAR_FONT, 7.5)
        canvas.setFillColor(colors.HexColor("#666666"))
        canvas.drawString(MARGIN, MARGIN / 2, document["title"])
        canvas.drawRightString(A4[0] - MARGIN, MARGIN / 2, term("report.page", n=doc.page))
        canvas.restoreState()

    pdf.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()

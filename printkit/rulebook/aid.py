"""Player aids: the rulebook's quick reference on a card each player keeps in front of them.

One aid per player (the game's most players), `sheet.aid` millimetres each (layouts/print.toml),
as many to a page as fit inside the sheet margin, each framed by its cut line.  An aid holds the
quick reference of the rulebook's text in the language asked for, set smaller where it must be
to fit, and, when the game's print module has `aid_symbols(definition)`, a row of the symbols
players see on the pieces with their names (Deblockle's cube faces), drawn as on the pieces.
Identical input gives identical bytes (reportlab's invariant mode).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import io
import math

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas as PdfCanvas
from reportlab.platypus import Flowable
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, KeepInFrame, PageTemplate, Paragraph, Table, TableStyle

from boardlab.layouts import print_conventions
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.rulebook import build_book, read_text
from boardlab.printkit.fonts import REGULAR_FONT
from boardlab.printkit.packing import printable_area
from boardlab.printkit.palette import ink_and_paper
from boardlab.printkit.print_modules import print_module
from boardlab.printkit.rulebook.figures import Figure
from boardlab.printkit.rulebook.typeset import icons_in_text, para, register_family
from boardlab.printkit.symbols import draw_symbol
from boardlab.printkit.units import POINTS_PER_MM

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.draw import Canvas

#: room (mm) between aids and inside each aid's cut line
GAP, PADDING = 6.0, 4.0
#: the drawn symbols' size on an aid, mm
SYMBOL = 7.0


def aid_grid(paper: tuple[float, float], aid: tuple[float, float]) -> tuple[int, int, float, float]:
    """(columns, rows, left, top) of the aids on a page: as many as fit in the printable area
    (inside the sheet margin, above the footer), the block centred.

    :raises BoardlabError: when not even one aid fits.

    >>> aid_grid((210, 297), (95, 125))[:2], aid_grid((215.9, 279.4), (95, 125))[:2]
    ((2, 2), (2, 2))
    """
    ax, ay, aw, ah = printable_area(paper[0], paper[1], print_conventions())
    columns = int((aw + GAP) // (aid[0] + GAP))
    rows = int((ah + GAP) // (aid[1] + GAP))
    if columns < 1 or rows < 1:
        raise BoardlabError(f"a player aid of {aid[0]} x {aid[1]} mm does not fit a {paper[0]} x {paper[1]} mm page")
    left = ax + (aw - columns * aid[0] - (columns - 1) * GAP) / 2
    top = ay + (ah - rows * aid[1] - (rows - 1) * GAP) / 2
    return columns, rows, left, top


def _symbol_row(definition: GameDefinition, ink: str) -> list[Flowable]:
    """The symbols players see on the pieces, drawn, each with its name under it."""
    symbols = getattr(print_module(definition.game.id), "aid_symbols", None)
    if symbols is None:
        return []
    cells, names = [], []
    style = ParagraphStyle("symbol", fontName=REGULAR_FONT, fontSize=7, leading=8.5, alignment=TA_CENTER,
                           textColor=colors.HexColor(ink))
    for symbol, name in symbols(definition):
        def draw(canvas: Canvas, symbol: str = symbol) -> None:
            draw_symbol(canvas, symbol, SYMBOL / 2, SYMBOL / 2, SYMBOL, fill=ink)
        cells.append(Figure(draw, SYMBOL, SYMBOL))
        names.append(para(name, style))
    table = Table([cells, names], hAlign="CENTER")
    table.setStyle(TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                               ("FONTNAME", (0, 0), (-1, -1), REGULAR_FONT),
                               ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                               ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    return [table]


def render_player_aid(definition: GameDefinition, language: str, paper: str) -> bytes | None:
    """One quick-reference card per player on `paper`; None when the rulebook has no quick
    reference (or none the definition's conditions keep, or no text in `language`).

    :raises DefinitionError: for mistakes in the text.
    :raises BoardlabError: for an unknown paper, or an aid larger than the page.
    """
    from boardlab.layouts.terms import speaking
    from boardlab.printkit.rulebook.book import SOURCE_LANGUAGE, _footer_label, _paper, _Story, available_languages

    size = _paper(paper)
    try:
        text = read_text(definition.game.id, language)
    except BoardlabError:
        return None
    if not any(block.kind == "quickref" for block in text.blocks):
        return None
    with speaking(language if language in available_languages() else SOURCE_LANGUAGE, definition), \
            icons_in_text(definition, ink_and_paper(definition)[0]):
        book = build_book(definition, language)
        quick = next((block for block in book.blocks if block.kind == "quickref"), None)
        if quick is None:  # the quick reference is inside a condition the definition does not meet
            return None
        first = quick.children[0] if quick.children else None
        heading = first.text if first is not None and first.kind == "heading" else book.term("Rules")
        body = quick.children[1:] if first is not None and first.kind == "heading" else quick.children
        title = f"{definition.game.name} — {heading}"
        aid = print_conventions().sheet.aid
        columns, rows, left, top = aid_grid(size, aid)
        copies = definition.game.max_players
        pages = math.ceil(copies / (columns * rows))
        register_family()
        story_maker = _Story(book, size, {})
        ink = story_maker.ink
        title_style = ParagraphStyle("aid-title", parent=story_maker.styles["h1"], fontSize=13, leading=16,
                                     spaceBefore=0, spaceAfter=4, alignment=TA_CENTER)
        inner_w, inner_h = (aid[0] - 2 * PADDING) * POINTS_PER_MM, (aid[1] - 2 * PADDING) * POINTS_PER_MM
        boxes = [(left + c * (aid[0] + GAP), top + r * (aid[1] + GAP)) for r in range(rows) for c in range(columns)]
        frames = [Frame((x + PADDING) * POINTS_PER_MM, (size[1] - y - aid[1] + PADDING) * POINTS_PER_MM, inner_w,
                        inner_h, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id=f"aid{k}")
                  for k, (x, y) in enumerate(boxes)]
        label = _footer_label(definition)

        def on_page(canvas: PdfCanvas, doc: BaseDocTemplate) -> None:
            canvas.saveState()
            canvas.setStrokeColor(colors.HexColor("#999999"))
            canvas.setLineWidth(0.5)
            start = (doc.page - 1) * len(boxes)
            for k, (x, y) in enumerate(boxes):
                if start + k < copies:  # a cut line round every aid on the page
                    canvas.rect(x * POINTS_PER_MM, (size[1] - y - aid[1]) * POINTS_PER_MM, aid[0] * POINTS_PER_MM,
                                aid[1] * POINTS_PER_MM, stroke=1, fill=0)
            canvas.setFont(REGULAR_FONT, 7)
            canvas.setFillColor(colors.HexColor(ink))
            margin = print_conventions().sheet.margin  # the footer's baseline 1 mm above the margin
            canvas.drawString(margin * POINTS_PER_MM, (margin + 1) * POINTS_PER_MM, label)
            canvas.drawRightString((size[0] - margin) * POINTS_PER_MM, (margin + 1) * POINTS_PER_MM, f"{doc.page}/{pages}")
            canvas.restoreState()

        story: list = []
        for copy in range(copies):
            content = [para(f"{definition.game.name} — {heading}", title_style)]
            content += _symbol_row(definition, ink)
            content += story_maker.blocks(body)
            story.append(KeepInFrame(inner_w, inner_h, content, mode="shrink"))
            if copy < copies - 1:
                story.append(FrameBreak())
        buffer = io.BytesIO()
        doc = BaseDocTemplate(buffer, pagesize=(size[0] * POINTS_PER_MM, size[1] * POINTS_PER_MM), title=title,
                              author="boardlab", creator="boardlab", producer="boardlab (reportlab)", subject=title,
                              invariant=1, pageCompression=1, initialFontName=REGULAR_FONT)
        doc.addPageTemplates([PageTemplate("aids", frames, onPage=on_page)])
        doc.build(story)
        return buffer.getvalue()

"""Typesetting a resolved rulebook (`layouts.rulebook.Book`) into a PDF with reportlab's platypus.

Text flows through platypus (paragraphs, lists, tables, keep-with-next headings); drawings
are printkit art (`figures.Figure`).  Fonts are Bitstream Vera, shipped with reportlab and
embedded, which carries every Spanish letter and sign (á é í ó ú ü ñ ¿ ¡).  Every page has a
footer with the game, its version, the date from SOURCE_DATE_EPOCH when set and the page
number; a book longer than `TOC_AFTER` pages gets a table of contents after its cover.
Identical input gives identical bytes (reportlab's invariant mode, no clock).
"""

from __future__ import annotations

import functools
import io
import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, BinaryIO, Callable, Iterator, Sequence
from xml.sax.saxutils import escape as xml_escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Frame, KeepInFrame, KeepTogether, ListFlowable,
                                ListItem, PageBreak, PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.pdfgen.canvas import Canvas as PdfCanvas
from reportlab.platypus import Flowable
from reportlab.platypus.tableofcontents import TableOfContents

from boardlab.printkit.faces import ICON_EM
from boardlab.printkit.flow import headings_kept
from boardlab.printkit.fonts import BOLD_FONT, REGULAR_FONT, register_fonts
from boardlab.printkit.units import POINTS_PER_MM

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.layouts.icons import Icon

#: what every page of a book draws after its frame (reportlab's onPage: the page's canvas and the document)
Footer = Callable[[PdfCanvas, BaseDocTemplate], None]

ITALIC_FONT, BOLD_ITALIC_FONT = "VeraIt", "VeraBI"
FAMILY = "Vera"
#: a book longer than this many pages gets a table of contents
TOC_AFTER = 4
#: page margins in mm: well inside every printer's unprintable edge and layouts/print.toml's margin
MARGIN = 18.0
FOOTER_FROM_BOTTOM = 10.0
BODY_SIZE = 10.0
#: the smallest text a table cell may shrink to, in points
SMALLEST_CELL = 6.0


def register_family() -> None:
    """Vera regular, bold, italic and bold italic, as one family for <b> and <i>."""
    register_fonts()
    registered = pdfmetrics.getRegisteredFontNames()
    for name in (ITALIC_FONT, BOLD_ITALIC_FONT):
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, f"{name}.ttf"))
    pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR_FONT, bold=BOLD_FONT, italic=ITALIC_FONT,
                                  boldItalic=BOLD_ITALIC_FONT)


def styles(ink: str, accent: str) -> dict[str, ParagraphStyle]:
    """The paragraph styles of a rulebook, in the game's ink and accent colours."""
    body = ParagraphStyle("body", fontName=REGULAR_FONT, fontSize=BODY_SIZE, leading=BODY_SIZE * 1.35,
                          textColor=colors.HexColor(ink), spaceAfter=5)
    return {
        "body": body,
        "title": ParagraphStyle("title", parent=body, fontName=BOLD_FONT, fontSize=34, leading=40,
                                alignment=TA_CENTER, spaceAfter=10, textColor=colors.HexColor(accent)),
        "subtitle": ParagraphStyle("subtitle", parent=body, fontSize=13, leading=17, alignment=TA_CENTER,
                                   spaceAfter=14),
        "h1": ParagraphStyle("h1", parent=body, fontName=BOLD_FONT, fontSize=16, leading=20, spaceBefore=12,
                             spaceAfter=6, textColor=colors.HexColor(accent), keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=BOLD_FONT, fontSize=12, leading=15, spaceBefore=8,
                             spaceAfter=4, keepWithNext=1),
        "item": ParagraphStyle("item", parent=body, spaceAfter=2),
        "cell": ParagraphStyle("cell", parent=body, fontSize=8, leading=10, spaceAfter=0),
        "small": ParagraphStyle("small", parent=body, fontSize=8.5, leading=11),
        "caption": ParagraphStyle("caption", parent=body, fontName=ITALIC_FONT, fontSize=8.5, leading=11,
                                  alignment=TA_CENTER, spaceBefore=3),
        "toc1": ParagraphStyle("toc1", parent=body, fontSize=11, leading=16, leftIndent=0),
        "toc2": ParagraphStyle("toc2", parent=body, fontSize=9.5, leading=13, leftIndent=14),
    }


INLINE = re.compile(r"\\(.)|\*\*|\*|`")
SETTING_COLOUR = "#555555"


#: the icons `:name:` may draw in the text being typeset, and the ink of a plain symbol (`icons_in_text`)
_ICONS: ContextVar[tuple[dict, str] | None] = ContextVar("icons", default=None)
#: how finely an icon in a paragraph is rasterised (reportlab sets pictures, not drawings, in a line)
ICON_DPI = 600


@contextmanager
def icons_in_text(definition: GameDefinition, ink: str) -> Iterator[None]:
    """Inside the block, `:name:` in rulebook and player-aid text draws the definition's icon
    (layouts.icons), plain symbols in `ink`.  reportlab reads a picture in a paragraph from a
    `data:` address only for a list of trusted hosts, which is set for the block and restored."""
    from reportlab import rl_config

    from boardlab.layouts.icons import icons_of

    token = _ICONS.set((icons_of(definition), ink))
    trusted = rl_config.trustedHosts
    rl_config.trustedHosts = ["localhost"]
    try:
        yield
    finally:
        rl_config.trustedHosts = trusted
        _ICONS.reset(token)


def _plain(segment: str, size: float) -> str:
    """A stretch of text without inline markup: escaped, its icons as pictures `ICON_EM` of the
    text size high, centred on the capitals (outside `icons_in_text`, or unknown: the text as written)."""
    from boardlab.layouts.icons import split_icons

    current = _ICONS.get()
    out = []
    for run in split_icons(segment) if current is not None else [segment]:
        if isinstance(run, str):
            out.append(xml_escape(run, {'"': "&quot;"}))
            continue
        assert current is not None
        icons, ink = current
        if run[0] not in icons:
            out.append(xml_escape(f":{run[0]}:"))
            continue
        side = size * ICON_EM
        # the picture's foot below the baseline by as much as its middle lies above the capitals' middle
        foot = 0.73 / 2 - ICON_EM / 2
        out.append(f'<img src="{icon_address(icons[run[0]], ink)}" width="{side:.3f}" height="{side:.3f}" '
                   f'valign="{foot * 100:.2f}%"/>')
    return "".join(out)


@functools.lru_cache(maxsize=256)
def icon_address(icon: Icon, ink: str) -> str:
    """An icon as a `data:` address of a PNG (transparent round it), for a paragraph's picture."""
    import base64

    from boardlab.printkit.faces import icon_png

    return "data:image/png;base64," + base64.b64encode(icon_png(icon, ink, ICON_DPI)).decode("ascii")


def para(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of rulebook inline markup (`rich`) in `style`, its icons sized to the style's text."""
    return Paragraph(rich(text, style.fontSize), style)


def rich(text: str, size: float = BODY_SIZE) -> str:
    """Rulebook inline markup as reportlab paragraph markup (icons sized for text of `size` points).

    >>> rich(r"**Goal.** Win *now* \\* `pawns = \\"pass\\"` a<b")
    '<b>Goal.</b> Win <i>now</i> * <font size="8" color="#555555">[pawns = &quot;pass&quot;]</font> a&lt;b'
    """
    out: list[str] = []
    open_tags: list[str] = []
    position = 0
    for m in INLINE.finditer(text):
        out.append(_plain(text[position:m.start()], size))
        position = m.end()
        if m.group(1) is not None:
            out.append(xml_escape(m.group(1), {'"': "&quot;"}))
            continue
        token = m.group(0)
        tag = {"**": "b", "*": "i", "`": "font"}[token]
        if open_tags and open_tags[-1] == tag:
            open_tags.pop()
            out.append("]</font>" if tag == "font" else f"</{tag}>")
        else:
            open_tags.append(tag)
            out.append(f'<font size="8" color="{SETTING_COLOUR}">[' if tag == "font" else f"<{tag}>")
    out.append(_plain(text[position:], size))
    for tag in reversed(open_tags):
        out.append("]</font>" if tag == "font" else f"</{tag}>")
    return "".join(out)


class RulebookTemplate(BaseDocTemplate):
    """One frame inside the margins; headings feed the table of contents."""

    def __init__(self, buffer: BinaryIO, *, page: tuple[float, float], footer: Footer, title: str,
                 author: str) -> None:
        width, height = page[0] * POINTS_PER_MM, page[1] * POINTS_PER_MM
        margin = MARGIN * POINTS_PER_MM
        super().__init__(buffer, pagesize=(width, height), leftMargin=margin, rightMargin=margin,
                         topMargin=margin, bottomMargin=margin, title=title, author=author, creator="boardlab",
                         producer="boardlab (reportlab)", subject=title, invariant=1, pageCompression=1,
                         initialFontName=REGULAR_FONT)
        frame = Frame(margin, margin, width - 2 * margin, height - 2 * margin, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("page", [frame], onPage=footer)])

    def afterFlowable(self, flowable: Flowable) -> None:
        level = getattr(flowable, "toc_level", None)
        if level is not None:
            key = f"h{id(flowable)}"
            self.canv.bookmarkPage(key)
            self.notify("TOCEntry", (level, flowable.getPlainText(), self.page, key))


def heading(text: str, level: int, style: ParagraphStyle) -> Paragraph:
    paragraph = para(text, style)
    paragraph.toc_level = level
    return paragraph


def column_widths(columns: Sequence[object], rows: Sequence[Sequence[object]], width: float, size: float, bold_header: bool = True) -> list[float] | None:
    """Column widths in points that fit `width` without breaking a word, or None when even the
    longest words do not fit at this text size.  Each column gets at least its longest word and
    shares the rest in proportion to how much more its longest line would want.

    >>> [round(w) for w in column_widths(("a", "b"), [("1", "22")], 100, 8)]
    [42, 58]
    """
    register_family()
    padding = 7.0
    natural, least = [], []
    for k, column in enumerate(columns):
        cells = [(str(column), bold_header)] + [(str(row[k]), False) for row in rows]
        widths = [pdfmetrics.stringWidth(text, BOLD_FONT if bold else REGULAR_FONT, size) for text, bold in cells]
        words = [pdfmetrics.stringWidth(word, BOLD_FONT if bold else REGULAR_FONT, size)
                 for text, bold in cells for word in text.split()]
        natural.append(max(widths) + padding)
        least.append(max(words, default=0) + padding)
    if sum(least) > width:
        return None
    if sum(natural) <= width:
        return [w * width / sum(natural) for w in natural]
    spare = width - sum(least)
    wants = [n - m for n, m in zip(natural, least)]
    return [m + spare * w / sum(wants) for m, w in zip(least, wants)]


def table_flowable(columns: Sequence[object], rows: Sequence[Sequence[object]], style: ParagraphStyle, width: float, ink: str) -> Table:
    """A table of text cells that fits `width` points, with a shaded header row repeated on each
    page; the text gets smaller (down to `SMALLEST_CELL` points) until no word has to break."""
    size = style.fontSize
    widths = column_widths(columns, rows, width, size)
    while widths is None and size > SMALLEST_CELL:
        size -= 0.5
        widths = column_widths(columns, rows, width, size)
    if widths is None:
        widths = [width / len(columns)] * len(columns)
    style = ParagraphStyle(f"cell{size}", parent=style, fontSize=size, leading=size * 1.25)
    data = [[Paragraph(f"<b>{rich(str(c), style.fontSize)}</b>", style) for c in columns]]
    data += [[para(str(v), style) for v in row] for row in rows]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), REGULAR_FONT),  # else reportlab names Helvetica, which is not embedded
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor(ink)),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return table


def build_pdf(make_story: Callable[[TableOfContents | None], list[Flowable]], *, page: tuple[float, float],
              footer: Footer, title: str, author: str) -> bytes:
    """Lay out the story (made fresh by `make_story(with_toc)`) and return the PDF bytes.

    A first pass counts the pages; a book over `TOC_AFTER` pages is laid out again with a table
    of contents (two passes, so that its page numbers are right).
    """
    register_family()
    buffer = io.BytesIO()
    doc = RulebookTemplate(buffer, page=page, footer=footer, title=title, author=author)
    doc.build(headings_kept(make_story(None)))
    if doc.page <= TOC_AFTER:
        return buffer.getvalue()
    buffer = io.BytesIO()
    doc = RulebookTemplate(buffer, page=page, footer=footer, title=title, author=author)
    toc = TableOfContents()
    toc.levelStyles = [styles("#000000", "#000000")["toc1"], styles("#000000", "#000000")["toc2"]]
    toc.tableStyle = TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR_FONT),  # no unembedded Helvetica
                                 ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                 ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0),
                                 ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
    doc.multiBuild(headings_kept(make_story(toc)))
    return buffer.getvalue()


__all__ = ["BODY_SIZE", "CondPageBreak", "KeepInFrame", "KeepTogether", "ListFlowable", "ListItem", "MARGIN",
           "PageBreak", "Paragraph", "Spacer", "build_pdf", "heading", "rich", "styles", "table_flowable",
           "FOOTER_FROM_BOTTOM"]

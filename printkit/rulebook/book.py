"""A game's rulebook as a PDF: the resolved text (layouts.rulebook) with the printkit's drawings.

What each directive of the text becomes:
- `cover`: the title page (game name, the cover text, the variant's name when not the baseline);
- `components`: a table with a small drawing of each component, made by the game's print module;
- `setup`: the drawn setup example (the print module's `setup_drawing`, `setups.setup_drawing`);
- `quickref`: a page of its own, shrunk if it must be to fit on one page;
- `appendix`: the game's exact tables from analysis (`exact_tables` of its tables module),
  titles and headings named in the book's language through the text's terms.

>>> from boardlab.layouts import load
>>> pdf = render_rulebook(load("blockd"), "en", "a4")
>>> pdf[:5], pdf == render_rulebook(load("blockd"), "en", "a4")
(b'%PDF-', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import re

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas as PdfCanvas
from reportlab.platypus import BaseDocTemplate, Flowable, Table, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents

from boardlab.layouts.terms import SOURCE_LANGUAGE, term
from boardlab.layouts.registry import game_entry, game_part
from boardlab.layouts import BoardlabError, print_conventions
from boardlab.layouts.rulebook import Block, Book, build_book, read_text
from boardlab.printkit.fonts import BOLD_FONT, REGULAR_FONT
from boardlab.printkit.marks import footer_date
from boardlab.printkit.palette import ink_and_paper
from boardlab.printkit.rulebook.checks import COMPONENT, check_texts, components_of, drawing_problems  # noqa: F401
from boardlab.printkit.rulebook.figures import Figure, component_figure
from boardlab.printkit.rulebook.setups import setup_caption, setup_drawing, worked_example
from boardlab.printkit.rulebook.typeset import (FOOTER_FROM_BOTTOM, MARGIN, Footer, KeepInFrame, KeepTogether, ListFlowable,
                                                ListItem,
                                                PageBreak, Paragraph, Spacer, build_pdf, heading, icons_in_text, para,
                                                styles,
                                                table_flowable)
from boardlab.printkit.units import POINTS_PER_MM

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.tables import TableSet
    from boardlab.printkit.draw import Canvas
    from boardlab.printkit.pages import Component

#: the side of a component's thumbnail in the component list, mm
THUMBNAIL = 24.0
#: the largest height of the setup example, mm
SETUP_HEIGHT = 120.0
#: the language analysis writes its tables' titles, headings and notes in
TABLES_LANGUAGE = "en"


def rulebook_name(game_id: str, language: str, paper: str) -> str:
    """The file stem of a rulebook, beside the print files of the same paper.

    >>> rulebook_name("blockd", "es", "a4")
    'blockd-rulebook-es-a4'
    """
    return f"{game_id}-rulebook-{language}-{paper}"


def exact_tables(definition: GameDefinition) -> TableSet | None:
    """The game's exact tables for the appendix, or None when the game has no tables module."""
    if not game_entry(definition.game.id).has("tables"):
        return None
    return game_part(definition.game.id, "tables").exact_tables(definition)


class _Story:
    """Turns the blocks of a book into platypus flowables."""

    def __init__(self, book: Book, paper: tuple[float, float], components: dict[str, Component]) -> None:
        d = book.definition
        self.book, self.d, self.components = book, d, components
        self.ink = ink_and_paper(d)[0]
        self.accent = d.colours[d.print.back_colour].hex
        self.styles = styles(self.ink, self.accent)
        self.width = (paper[0] - 2 * MARGIN) * POINTS_PER_MM
        self.height = (paper[1] - 2 * MARGIN) * POINTS_PER_MM

    def make(self, toc: TableOfContents | None) -> list[Flowable]:
        out = []
        for block in self.book.blocks:
            if block.kind == "cover":
                out += self.cover(block)
                if toc is not None:
                    out += [para(self.book.term("Contents"), self.styles["h1"]), toc]
                out.append(PageBreak())
        return out + self.blocks([block for block in self.book.blocks if block.kind != "cover"])

    def cover(self, block: Block) -> list:
        d, s = self.d, self.styles
        out = [Spacer(1, self.height * 0.18), para(d.game.name, s["title"])]
        out += [para(child.text, s["subtitle"]) for child in block.children]
        if d.variant != "baseline":
            out.append(para(f"{self.book.term('Variant')}: {d.variant}", s["subtitle"]))
        out.append(Spacer(1, 12))
        return out

    def blocks(self, blocks: list[Block]) -> list:
        out: list = []
        run: list[Block] = []
        for block in blocks + [Block("end")]:
            if block.kind in ("bullet", "number") and (not run or run[0].kind == block.kind):
                run.append(block)
                continue
            if run:
                out.append(self.list_of(run))
                run = []
            if block.kind in ("bullet", "number"):
                run.append(block)
                continue
            out += self.block(block)
        return out

    def list_of(self, items: list[Block]) -> ListFlowable:
        kind = "bullet" if items[0].kind == "bullet" else "1"
        flow = [ListItem(para(item.text, self.styles["item"])) for item in items]
        return ListFlowable(flow, bulletType=kind, leftIndent=14,
                            bulletFontName=REGULAR_FONT if kind == "1" else BOLD_FONT, bulletFontSize=9,
                            spaceAfter=5)

    def block(self, block: Block) -> list:
        s = self.styles
        if block.kind == "heading":
            return [heading(block.text, block.level - 1, s["h1"] if block.level == 1 else s["h2"])]
        if block.kind == "paragraph":
            return [para(block.text, s["body"])]
        if block.kind == "option":
            return self.blocks(block.children)
        if block.kind == "components":
            return [self.component_table(block.children)]
        if block.kind == "setup":
            drawing = setup_drawing(self.d.game.id)
            assert drawing is not None  # check_texts refuses the directive for a game without one
            draw, width, height = drawing(self.d)
            caption = setup_caption(self.d.game.id)
            return self.figure(draw, width, height, caption(self.d) if caption is not None else term("figure.setup"))
        if block.kind == "example":
            example = worked_example(self.d.game.id)
            assert example is not None  # check_texts refuses the directive for a game without one
            drawn = example(self.d)
            if drawn is None:  # the position has no move to show (a tiny board): the text stands alone
                return []
            draw, width, height, caption = drawn
            return self.figure(draw, width, height, term("figure.example", caption=caption))
        if block.kind == "pagebreak":
            return [PageBreak()]
        if block.kind == "quickref":
            return self.quick_reference(block.children)
        if block.kind == "appendix":
            return self.appendix(block.children)
        return []  # terms, and anything that prints nothing

    def figure(self, draw: Callable[[Canvas], None], width: float, height: float, caption: str) -> list:
        """A drawing with its caption under it, kept together on one page."""
        return [Spacer(1, 4), KeepTogether([Figure(draw, width, height, max_width=self.width / POINTS_PER_MM * 0.85,
                                                   max_height=SETUP_HEIGHT),
                                            para(caption, self.styles["caption"])]), Spacer(1, 6)]

    def component_table(self, items: list[Block]) -> Table:
        rows = []
        for item in items:
            m = COMPONENT.match(item.text)
            name, text = (m.group(1), m.group(2)) if m else ("-", item.text)
            picture = component_figure(self.components[name], THUMBNAIL) if name != "-" else ""
            rows.append([picture, para(text, self.styles["body"])])
        thumb = (THUMBNAIL + 4) * POINTS_PER_MM
        table = Table(rows, colWidths=[thumb, self.width - thumb], hAlign="LEFT")
        table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR_FONT),
                                   ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("ALIGN", (0, 0), (0, -1), "CENTER"),
                                   ("LINEBELOW", (0, 0), (-1, -2), 0.3, colors.HexColor("#bbbbbb")),
                                   ("TOPPADDING", (0, 0), (-1, -1), 3), ("BOTTOMPADDING", (0, 0), (-1, -1), 3)]))
        return table

    def quick_reference(self, children: list[Block]) -> list:
        out = [PageBreak()]
        if children and children[0].kind == "heading":
            out.append(heading(children[0].text, 0, self.styles["h1"]))
            children = children[1:]
        body = self.blocks(children)
        room = self.height - 40  # under the heading
        out += [KeepInFrame(self.width, room, body, mode="shrink"), PageBreak()]
        return out

    def appendix(self, children: list[Block]) -> list:
        tables = exact_tables(self.d)
        if tables is None:
            return []
        out = self.blocks(children)
        term = self.book.term
        for table in tables.tables:
            out.append(heading(term(table.title), 1, self.styles["h2"]))
            rows = [[self.number(v) for v in row] for row in table.rows]
            out.append(table_flowable([term(c) for c in table.columns], rows, self.styles["cell"], self.width,
                                      self.ink))
            note = term(table.note)
            if table.note and (note != table.note or self.book.language == TABLES_LANGUAGE):
                # a note the text's terms do not translate is left out rather than printed in English
                out.append(Spacer(1, 3))
                out.append(para(note, self.styles["small"]))
        return out

    def number(self, value: object) -> str:
        """A table value in the book's language: a decimal comma in Spanish, words through the terms."""
        return table_cell(value, self.book)


def table_cell(value: object, book: Book) -> str:
    """One cell of an appendix table as the book prints it.

    >>> table_cell("0.25", Book(None, "es", "", [], {"never": "nunca"})), table_cell("never", Book(None, "es", "", [], {"never": "nunca"}))
    ('0,25', 'nunca')
    """
    text = str(value)
    if book.language == "es" and re.fullmatch(r"-?\d+\.\d+", text):
        return text.replace(".", ",")
    return book.term(text)


def available_languages() -> set[str]:
    """The languages with a terms table in layouts/terms/."""
    from boardlab.layouts.terms import TERMS

    return {p.stem for p in TERMS.glob("*.toml")}


def render_rulebook(definition: GameDefinition, language: str, paper: str) -> bytes:
    """The rulebook PDF of a definition in `language` on `paper` (a paper name of layouts/print.toml);
    its drawings (the print module's components) speak the book's language too.

    :raises DefinitionError: for mistakes in the text (FILE:LINE each).
    :raises BoardlabError: for a missing text, an unknown paper, a drawing the print files lack.
    """
    from boardlab.layouts.terms import speaking

    with speaking(language if language in available_languages() else SOURCE_LANGUAGE, definition), \
            icons_in_text(definition, ink_and_paper(definition)[0]):
        return _render_rulebook(definition, language, paper)


def _render_rulebook(definition: GameDefinition, language: str, paper: str) -> bytes:
    size = _paper(paper)
    book = build_book(definition, language)
    components = components_of(definition, paper)
    problems = drawing_problems(book, components)
    if problems:
        raise BoardlabError(problems[0])
    story = _Story(book, size, components)
    title = f"{definition.game.name} — {book.term('Rules')}"
    return build_pdf(story.make, page=size, footer=_footer(definition, story.ink, size), title=title,
                     author="boardlab")


def _paper(paper: str) -> tuple[float, float]:
    conventions = print_conventions()
    if paper not in conventions.papers:
        raise BoardlabError(f"unknown paper '{paper}' (papers: {', '.join(conventions.papers)})")
    return conventions.papers[paper]


def _footer_label(definition: GameDefinition) -> str:
    """The game, its version, the variant and the date, as every page's footer names them."""
    date = footer_date()
    label = f"{definition.game.name} {definition.game.version}"
    if definition.variant != "baseline":
        label += f" · {definition.variant}"
    if date:
        label += f" · {date}"
    return label


def _footer(definition: GameDefinition, ink: str, size: tuple[float, float]) -> Footer:
    """The footer of every page: the game, its version, the variant, the date and the page number."""
    label = _footer_label(definition)

    def footer(canvas: PdfCanvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(REGULAR_FONT, 8)
        canvas.setFillColor(colors.HexColor(ink))
        y = FOOTER_FROM_BOTTOM * POINTS_PER_MM
        canvas.drawString(MARGIN * POINTS_PER_MM, y, label)
        canvas.drawRightString((size[0] - MARGIN) * POINTS_PER_MM, y, str(doc.page))
        canvas.restoreState()
    return footer


def player_aid_name(game_id: str, paper: str) -> str:
    """The file stem of a game's player aid, beside its print files.

    >>> player_aid_name("links", "a4")
    'links-aid-a4'
    """
    return f"{game_id}-aid-{paper}"


def render_player_aid(definition: GameDefinition, language: str, paper: str) -> bytes | None:
    """The player aids: the rulebook's quick reference on a card for each player
    (`printkit.rulebook.aid`).  None when the rulebook has no quick reference (or no text in
    `language`).

    :raises DefinitionError: for mistakes in the text.
    """
    from boardlab.printkit.rulebook.aid import render_player_aid as render

    return render(definition, language, paper)

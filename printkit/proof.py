"""The proof sheet (`boardlab proof GAME`): every distinct face and back of a game on contact
sheets, each with the name of its SVG file and how many the game has, the review a designer
makes before printing.

The faces are the print files' own components (a card face with its bleed, cut line and safe
zone as in its SVG; a board, a standee strip, a token), drawn smaller to fit a cell.  A card
face's count is how many cards of the deck show it, a back's how many cards carry it (both read
from the one-face-per-page file, which holds every card once); any other piece's count is the
one the Tabletop Simulator box gives it, else 1.

>>> from boardlab.layouts import load
>>> from boardlab.printkit.pages import PrintOptions
>>> faces = proof_faces(load("links"), PrintOptions("a4", "long", "duplex"))
>>> [(face.component.name, face.count) for face in faces][:2], (faces[-1].component.name, faces[-1].count)
([('red1-red1', 1), ('back', 46)], ('master-four', 1))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from collections import Counter
from dataclasses import dataclass

from boardlab.layouts import game_entry, game_part, print_conventions
from boardlab.layouts.terms import plural, term
from boardlab.printkit.draw import Canvas
from boardlab.printkit.marks import footed_file, footer_label
from boardlab.printkit.packing import paper_size
from boardlab.printkit.pages import Component, Page, PrintFile, PrintOptions
from boardlab.printkit.palette import ink_and_paper

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: columns of cells on a portrait page, and the share of a cell's height its caption takes (mm)
COLUMNS, CAPTION = 4, 9.0
#: points of the caption's two lines, of the page title
NAME_SIZE, COUNT_SIZE, TITLE_SIZE = 6.5, 7.0, 12.0
#: mm between cells
GAP = 4.0
#: the tallest a face is drawn, as a share of the cell's width (a poker card is 1.4 times as tall as wide)
TALLEST = 1.45


@dataclass(frozen=True)
class ProofFace:
    """One distinct face: the component drawing it and how many the game has."""

    component: Component
    count: int


def proof_faces(definition: GameDefinition, options: PrintOptions) -> list[ProofFace]:
    """Every distinct face of the game's print files, in the files' order, with its count."""
    files = game_part(definition.game.id, "print").print_files(definition, options)
    counts: Counter[str] = Counter()
    for print_file in files:
        if print_file.pages and print_file.pages[0].trim_box is not None:  # one face per page: every card once
            counts.update(page.name for page in print_file.pages)
    pieces = _piece_counts(definition)
    faces: dict[str, ProofFace] = {}
    for print_file in files:
        for component in print_file.components:
            if component.name not in faces:
                faces[component.name] = ProofFace(component, counts.get(component.name) or pieces.get(component.name, 1))
    return list(faces.values())


def _piece_counts(definition: GameDefinition) -> dict[str, int]:
    """Piece name -> copies, from the game's Tabletop Simulator box (when it has one)."""
    if not game_entry(definition.game.id).has("print"):
        return {}
    module = game_part(definition.game.id, "print")
    if not hasattr(module, "tts_box"):
        return {}
    box = module.tts_box(definition)
    out: dict[str, int] = {}
    for piece in [*box.boards, *box.tiles, *box.tokens]:
        out[piece.component.name] = piece.count
    return out


def proof_file(definition: GameDefinition, options: PrintOptions) -> tuple[PrintFile, int]:
    """The contact sheets of every distinct face (`proof_faces`), `COLUMNS` to a row, and how many faces."""
    conventions = print_conventions()
    width, height = paper_size(conventions, options.paper)
    margin = conventions.sheet.margin
    ink, paper = ink_and_paper(definition)
    faces = proof_faces(definition, options)
    usable = width - 2 * margin
    cell_w = (usable - (COLUMNS - 1) * GAP) / COLUMNS
    tallest = cell_w * TALLEST  # a face taller than a card at the cell's width (a standee strip) shrinks to it
    rows = [faces[i:i + COLUMNS] for i in range(0, len(faces), COLUMNS)]
    # each row as tall as its tallest face; rows flow onto pages between the title and the footer
    top, bottom = margin + 12.0, height - margin - 10.0
    chunks: list[list[tuple[float, list[ProofFace]]]] = [[]]
    y = top
    for row in rows:
        row_h = max(min(f.component.height * cell_w / f.component.width, tallest) for f in row)
        if y + row_h + CAPTION > bottom and chunks[-1]:
            chunks.append([])
            y = top
        chunks[-1].append((y, row))
        y += row_h + CAPTION + GAP
    title = term("proof.title", game=definition.game.name, n=len(faces))

    def page_drawer(chunk: list[tuple[float, list[ProofFace]]]) -> Callable[[Canvas], None]:
        def draw(canvas: Canvas) -> None:
            canvas.text(margin, margin + 5.0, title, size=TITLE_SIZE, fill=ink, bold=True)
            for y, row in chunk:
                row_h = max(min(f.component.height * cell_w / f.component.width, tallest) for f in row)
                for column, face in enumerate(row):
                    _draw_cell(canvas, face, margin + column * (cell_w + GAP), y, cell_w, row_h, ink, paper)
        return draw

    pages = [Page(width, height, page_drawer(chunk)) for chunk in chunks]
    return footed_file(f"{definition.game.id}-proof-{options.paper}", title, pages, (), conventions,
                       label=footer_label(definition), ink=ink), len(faces)


def _draw_cell(canvas: Canvas, face: ProofFace, x: float, y: float, w: float, h: float, ink: str, paper: str) -> None:
    component = face.component
    scale = min(w / component.width, h / component.height)
    dw, dh = component.width * scale, component.height * scale
    left, top = x + (w - dw) / 2, y + (h - dh) / 2
    with canvas.clip(left, top, dw, dh):
        with canvas.transform(left, top, scale=scale):
            component.draw(canvas)
    canvas.rect(left, top, dw, dh, stroke=ink, width=0.15)
    name = f"{component.name}.svg"
    from boardlab.printkit.cardart import fitted_size

    canvas.text(x + w / 2, y + h + 3.2, name, size=fitted_size(name, NAME_SIZE, w), fill=ink, anchor="middle")
    count = plural("proof.count", face.count)
    canvas.text(x + w / 2, y + h + 7.0, count, size=COUNT_SIZE, fill=ink, anchor="middle", bold=True)

"""What every sheet carries besides its pieces: cut marks, fold marks and the footer.

* **Cut marks**: a short line on every cut line at both ends of the block, starting
  `cut_mark_offset` outside the cut line (outside the bleed on a sheet with a gutter) and at
  most `cut_mark_length` long.  Where they cross the outer bleed they lie on an underlay in
  the paper colour so they show on dark backs; they may run into the margin up to
  `mark_margin` from the paper's edge and never onto a card.  A sheet with no room for them
  is rejected.
* **Footer**: one line at the bottom of the printable area: the calibration bar with its
  length, then game, version, file name, page and side.  It names no date from the clock
  (that would break byte-identical output); when SOURCE_DATE_EPOCH is set (the
  reproducible-builds convention) its date is added.  `footer_text` writes that line and
  `footed_file` puts it on every page of a file, for every game.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from boardlab.layouts.common import GameDefinition, PrintConventions
from boardlab.layouts.limits import source_date_epoch
from boardlab.layouts.terms import term, word
from boardlab.printkit.draw import Canvas
from boardlab.printkit.fonts import text_width
from boardlab.printkit.pages import Box, Component, FreeArea, Page, PrintFile
from boardlab.printkit.units import MM_PER_POINT

if TYPE_CHECKING:  # imposition imports this module
    from boardlab.printkit.imposition import SheetLayout, Slot

#: the shortest cut mark worth drawing (mm); a sheet with less room for marks is rejected
MINIMUM_MARK = 1.0
#: gap between the cut marks and the footer line (mm)
FOOTER_GAP = 0.5
#: line widths (mm): cut marks on card sheets, their paper underlay, cut outlines of pieces
MARK_WIDTH = 0.2
MARK_UNDERLAY_WIDTH = 0.8
CUT_WIDTH = 0.3
#: fold lines are dashed (mm on, mm off), so that they never read as cut lines, which are solid
FOLD_DASH = (2.0, 1.5)


def footer_height(conventions: PrintConventions) -> float:
    """Height of the footer line (text and calibration bar) in mm.

    >>> from boardlab.layouts import print_conventions
    >>> round(footer_height(print_conventions()), 2)
    3.21
    """
    return conventions.sheet.footer_size * MM_PER_POINT * 1.3


def cut_lines(slots: Sequence[Slot]) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal cut line of a page's slots.

    >>> from boardlab.printkit.imposition import Slot
    >>> cut_lines([Slot(0, "front", (10, 20, 5, 7), (10, 20, 5, 7), 0)])
    ([10, 15], [20, 27])
    """
    xs = sorted({round(v, 6) for s in slots for v in (s.cut_box[0], s.cut_box[0] + s.cut_box[2])})
    ys = sorted({round(v, 6) for s in slots for v in (s.cut_box[1], s.cut_box[1] + s.cut_box[3])})
    return xs, ys


@dataclass(frozen=True)
class Mark:
    """One cut mark: a segment in page coordinates, and whether it crosses printed bleed."""

    x1: float
    y1: float
    x2: float
    y2: float
    over_bleed: bool


def cut_marks(sheet_layout: SheetLayout, slots: Sequence[Slot], conventions: PrintConventions,
              bleed: float) -> list[Mark]:
    """The cut marks of one page: both ends of every cut line, outside the block of cards.

    A mark starts `sheet_layout.mark_start` outside the block (past the bleed on a sheet with
    a gutter) and runs at most `cut_mark_length`, no nearer the paper's edge than
    `sheet.mark_margin`; marks at the bottom stop above the footer line, marks on the left
    right of a turned footer.  A mark never touches a card.
    """
    if not slots:
        return []
    sheet = conventions.sheet
    px, py, pw, ph = sheet_layout.printable
    edge = sheet.mark_margin
    left = min(s.cut_box[0] for s in slots)
    right = max(s.cut_box[0] + s.cut_box[2] for s in slots)
    top = min(s.cut_box[1] for s in slots)
    bottom = max(s.cut_box[1] + s.cut_box[3] for s in slots)
    footer_band = footer_height(conventions) + FOOTER_GAP
    top_limit = edge
    bottom_limit = py + ph - footer_band if sheet_layout.footer == "bottom" else sheet_layout.page_height - edge
    left_limit = px + footer_band if sheet_layout.footer == "left" else edge
    right_limit = sheet_layout.page_width - edge
    xs, ys = cut_lines(slots)
    start = sheet_layout.mark_start
    reach = start + sheet.cut_mark_length
    over = start < bleed
    marks = []
    for x in xs:
        marks.append(Mark(x, top - start, x, max(top - reach, top_limit), over))
        marks.append(Mark(x, bottom + start, x, min(bottom + reach, bottom_limit), over))
    for y in ys:
        marks.append(Mark(left - start, y, max(left - reach, left_limit), y, over))
        marks.append(Mark(right + start, y, min(right + reach, right_limit), y, over))
    return marks


def draw_cut_marks(canvas: Canvas, marks: Sequence[Mark], ink: str, paper: str) -> None:
    """Draw marks; those crossing printed bleed get an underlay in the paper colour first, so
    that they show on any art."""
    for mark in marks:
        if mark.over_bleed:
            canvas.line(mark.x1, mark.y1, mark.x2, mark.y2, stroke=paper, width=MARK_UNDERLAY_WIDTH)
    for mark in marks:
        canvas.line(mark.x1, mark.y1, mark.x2, mark.y2, stroke=ink, width=MARK_WIDTH)


def footer_date(environment: Mapping[str, str] = os.environ) -> str | None:
    """The date for footers: from SOURCE_DATE_EPOCH when set (reproducible builds), else None.

    Never the clock: the same definition must give the same bytes.

    >>> footer_date({}) is None, footer_date({"SOURCE_DATE_EPOCH": "1767225600"})
    (True, '2026-01-01')

    :raises BoardlabError: when SOURCE_DATE_EPOCH is set but is not a date (reportlab reads it too).
    """
    epoch = source_date_epoch(environment)  # empty counts as unset, as in reportlab
    return None if epoch is None else time.strftime("%Y-%m-%d", time.gmtime(epoch))


def draw_footer(canvas: Canvas, printable: Box, conventions: PrintConventions, text: str, ink: str) -> None:
    """The calibration bar (labelled with its length) and `text`, on the last line of the
    `printable` box (the paper minus its margin); the line is `footer_height` tall.
    `printable` is an (x, y, width, height) box.

    >>> from boardlab.layouts import print_conventions
    >>> from boardlab.printkit.draw import RecordingCanvas
    >>> c = RecordingCanvas(210, 297)
    >>> draw_footer(c, (6, 6, 198, 285), print_conventions(), "Blockd 1.0", "#000000")
    >>> [round(v, 2) for v in c.calls[0][1]], c.calls[-1][1][2]
    ([6, 289.39, 56.0, 289.39], 'Blockd 1.0')
    """
    sheet = conventions.sheet
    px, py, pw, ph = printable
    height = footer_height(conventions)
    baseline = py + ph - height * 0.25
    bar_y = py + ph - height * 0.5
    tick = height * 0.6
    x = px
    canvas.line(x, bar_y, x + sheet.calibration_bar, bar_y, stroke=ink, width=0.3)
    for end in (x, x + sheet.calibration_bar):
        canvas.line(end, bar_y - tick / 2, end, bar_y + tick / 2, stroke=ink, width=0.3)
    label = f"{sheet.calibration_bar:g} mm"
    x += sheet.calibration_bar + 1.5
    canvas.text(x, baseline, label, size=sheet.footer_size, fill=ink)
    x += text_width(label, sheet.footer_size) + 3.0
    room = px + pw - x
    size = sheet.footer_size
    width = text_width(text, size)
    if width > room:  # a long file name: shrink the line rather than print over the margin
        size = size * room / width
    canvas.text(x, baseline, text, size=size, fill=ink)


def draw_sheet_footer(canvas: Canvas, sheet_layout: SheetLayout, conventions: PrintConventions, text: str,
                      ink: str) -> None:
    """The footer of a card sheet: on the last line of the printable area, or turned a quarter
    in the left margin (reading upwards) when the rows fill the printable height."""
    px, py, pw, ph = sheet_layout.printable
    if sheet_layout.footer == "bottom":
        draw_footer(canvas, sheet_layout.printable, conventions, text, ink)
        return
    with canvas.transform(dx=px, dy=py + ph, rotate=-90):
        draw_footer(canvas, (0.0, 0.0, ph, footer_height(conventions)), conventions, text, ink)


def draw_fold_marks(canvas: Canvas, sheet_layout: SheetLayout, slots: Sequence[Slot],
                     conventions: PrintConventions, ink: str) -> None:
    """Dashed marks on the fold line, above and below the block."""
    middle = sheet_layout.columns // 2
    fold_x = (sheet_layout.column_x[middle - 1] + sheet_layout.slot_width + sheet_layout.column_x[middle]) / 2
    top = min(s.cut_box[1] for s in slots)
    bottom = max(s.cut_box[1] + s.cut_box[3] for s in slots)
    sheet = conventions.sheet
    py, ph = sheet_layout.printable[1], sheet_layout.printable[3]
    reach = sheet.cut_mark_offset + sheet.cut_mark_length
    bottom_limit = py + ph - footer_height(conventions) - FOOTER_GAP
    canvas.line(fold_x, top - sheet.cut_mark_offset, fold_x, max(top - reach, py), stroke=ink,
                width=MARK_WIDTH, dash=(0.8, 0.6))
    canvas.line(fold_x, bottom + sheet.cut_mark_offset, fold_x, min(bottom + reach, bottom_limit), stroke=ink,
                width=MARK_WIDTH, dash=(0.8, 0.6))


def footer_label(definition: GameDefinition) -> str:
    """What every sheet's footer calls the game: name and version, and the variant's name when the
    definition is not the game's own (a variant's sheets never pass for the baseline's).

    >>> from boardlab.layouts import load
    >>> footer_label(load("blockd")), footer_label(load("blockd-pawns-stack"))
    ('Blockd 1.0', 'Blockd 1.0 · variant blockd-pawns-stack')
    """
    return with_variant(f"{definition.game.name} {definition.game.version}", getattr(definition, "variant", "baseline"))


def with_variant(label: str, variant: str) -> str:
    """`label`, followed by the variant's name unless `variant` is the baseline."""
    return label if variant == "baseline" else f"{label} · {word('variant')} {variant}"


def footer_text(label: str, file_name: str, position: str, *notes: str, date: str | None = None) -> str:
    """The footer line of every sheet: game and version, the date when there is one, the file,
    where this page is in the file, and any notes.

    >>> footer_text("Blockd 1.0", "blockd-pawns-a4", "sheet 1/1", "fold on dashed lines", date="2026-01-01")
    'Blockd 1.0 · 2026-01-01 · blockd-pawns-a4.pdf · sheet 1/1 · fold on dashed lines'
    """
    return " · ".join([label] + ([date] if date else []) + [f"{file_name}.pdf", position, *notes])


def printable_box(width: float, height: float, conventions: PrintConventions) -> tuple[float, float, float, float]:
    """The paper minus its margin on every side, as (x, y, width, height): where the footer goes.

    >>> from boardlab.layouts import print_conventions
    >>> printable_box(210, 297, print_conventions())
    (6.35, 6.35, 197.3, 284.3)
    """
    margin = conventions.sheet.margin
    return (margin, margin, width - 2 * margin, height - 2 * margin)


def footed_file(name: str, title: str, pages: Sequence[Page], components: Sequence[Component],
                conventions: PrintConventions, *, label: str, ink: str, unit: str = "page",
                notes: Sequence[str] = (), free: Sequence[FreeArea] = ()) -> PrintFile:
    """A PrintFile whose every page also carries the sheet footer: calibration bar, `label`, the
    date (SOURCE_DATE_EPOCH), the file, "`unit` n/total" and `notes`.

    The footer sits on the last line of the area inside the margin; printkit.packing keeps
    pieces clear of it.

    >>> from boardlab.layouts import print_conventions
    >>> from boardlab.printkit.measure import PlacedCanvas
    >>> f = footed_file("demo", "Demo", [Page(210, 297, lambda c: None)], [], print_conventions(), label="6x6 1.0",
    ...                 ink="#000000")
    >>> c = PlacedCanvas(210, 297)
    >>> f.pages[0].draw(c)
    >>> [s.content for s in c.shapes if s.kind == "text"]
    ['50 mm', '6x6 1.0 · demo.pdf · page 1/1']
    """
    date = footer_date()
    total = len(pages)

    def footed(page: Page, number: int) -> Page:
        def draw(canvas: Canvas) -> None:
            page.draw(canvas)
            shown = {"page": word("page"), "sheet": word("sheet")}.get(unit, unit)
            text = footer_text(label, name, f"{shown} {number}/{total}", *notes, date=date)
            draw_footer(canvas, printable_box(page.width, page.height, conventions), conventions, text, ink)
        return Page(page.width, page.height, draw, page.trim_box, page.bleed_box)

    subject = term("subject.sheets", title=title, how=word("one side"))
    return PrintFile(name, title, tuple(footed(page, k + 1) for k, page in enumerate(pages)), tuple(components),
                     tuple(free), None, subject)

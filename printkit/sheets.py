"""Card sheets: fitting cards on a paper, backs for duplex or gutterfold, cut marks and footer.

All geometry is millimetres, y down, and comes from layouts/print.toml and the game's [print]
table; nothing here is a game's number.  The rules this module follows (see
shared/spec/print.md, and the choices made where the spec leaves room):

* **Printable area** = the paper minus `sheet.margin` on every side.  Card cut boxes, cut marks,
  the footer and the calibration bar stay inside it.  Bleed may run into the margin: it is
  cut away, so a printer that cannot reach it loses nothing.
* **Spacing**, chosen per axis: cards keep their own bleed (neighbours 2 x bleed apart) where
  that fits, otherwise they butt together and share cut lines, with bleed only round the
  outside of the block.  Each card's bleed box covers only its own bleed, so it never
  overlaps a neighbour's cut box.
* **Orientation**: cards stand as the definition gives them, or lie on their side (turned a
  quarter) when that puts more cards on a sheet (poker cards on Letter: 8 instead of 6).
* **Cut marks**: a short line on every cut line at both ends of the block, starting
  `cut_mark_offset` outside the cut line and at most `cut_mark_length` long.  Where the sheet
  leaves little room they cross the outer bleed, on a white underlay so they show on dark
  backs; they never enter the margin.  A layout that leaves no room for them is rejected.
* **Backs**: `duplex` puts a back page after every front page: long-edge flip mirrors the
  columns (x -> W - x), short-edge flip mirrors the rows (y -> H - y).  `gutterfold` puts the
  backs beside the fronts, mirrored across a fold line in the middle of the sheet.  A back is
  turned so that its top edge sits at the card's physical top for long-edge duplex (angle
  -a for a front at angle a), and turned half a turn (180 - a) for short-edge duplex and for
  gutterfold, as the spec asks.
* **Footer**: one line at the bottom of the printable area: the calibration bar with its
  length, then game, version, file name, page and side.  It names no date: a date from the
  clock would break byte-identical output, so the definition's version identifies the print.
  When SOURCE_DATE_EPOCH is set (the reproducible-builds convention) its date is added.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable, Literal, Mapping, Sequence

from boardlab.layouts.common import PrintConventions, PrintSettings
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import Box, Component, Page, PrintFile, PrintOptions
from boardlab.printkit.pdf import text_width

#: the shortest cut mark worth drawing (mm); a layout with less room for marks is rejected
MINIMUM_MARK = 1.0
#: gap between the cut marks and the footer line (mm)
FOOTER_GAP = 0.5
#: line widths (mm)
MARK_WIDTH = 0.2
MARK_UNDERLAY_WIDTH = 0.8
MM_PER_POINT = 25.4 / 72.0


@dataclass(frozen=True)
class CardGeometry:
    """One card's size, bleed, safe zone and corner radius in mm."""

    width: float
    height: float
    bleed: float
    safe: float
    corner_radius: float

    @property
    def safe_box(self) -> Box:
        """Where text and symbols may go, in card coordinates (origin at the cut box's corner)."""
        return (self.safe, self.safe, self.width - 2 * self.safe, self.height - 2 * self.safe)

    @property
    def bleed_box(self) -> Box:
        """The cut box grown by the bleed, in card coordinates."""
        return (-self.bleed, -self.bleed, self.width + 2 * self.bleed, self.height + 2 * self.bleed)


def card_geometry(settings: PrintSettings, conventions: PrintConventions) -> CardGeometry:
    """The card size of a game's [print] table: a preset name from print.toml or [width, height].

    :raises BoardlabError: for a preset name print.toml does not know.

    >>> from boardlab.layouts import load, print_conventions
    >>> card_geometry(load("blockd").print, print_conventions()).width
    63.5
    """
    if isinstance(settings.card, str):
        if settings.card not in conventions.card_sizes:
            raise BoardlabError(f'unknown card size "{settings.card}" (presets: {", ".join(conventions.card_sizes)})')
        width, height = conventions.card_sizes[settings.card]
    else:
        width, height = settings.card
    return CardGeometry(float(width), float(height), settings.bleed, settings.safe, settings.corner_radius)


@dataclass(frozen=True)
class Card:
    """One card to print: its faces draw in card coordinates (origin at the cut box's top-left,
    y down) and paint their background out to the bleed edge."""

    name: str  # component name of the front, e.g. "red-3"
    front: Callable[[Canvas], None]
    back: Callable[[Canvas], None]
    back_name: str = "back"  # component name of the back; cards sharing a back share its SVG


@dataclass(frozen=True)
class Slot:
    """Where one card face sits on a page."""

    card: int  # index into the card list
    side: Literal["front", "back"]
    cut_box: Box  # on the page, mm
    bleed_box: Box  # on the page: the cut box plus the bleed that belongs to this card alone
    rotation: int  # clockwise degrees: 0, 90, 180 or 270


@dataclass(frozen=True)
class SheetLayout:
    """How cards sit on one paper: the grid in the printable area."""

    paper: str
    page_width: float
    page_height: float
    printable: Box
    columns: int  # columns of card faces on the page (fronts and backs for gutterfold)
    rows: int
    turned: bool  # cards lie on their side
    shared_columns: bool  # columns butt together and share cut lines
    shared_rows: bool
    gutterfold: bool
    column_x: tuple[float, ...]  # left cut edge of every column
    row_y: tuple[float, ...]  # top cut edge of every row
    slot_width: float  # cut box width on the page (card height when turned)
    slot_height: float

    @property
    def cards_per_page(self) -> int:
        return (self.columns // 2 if self.gutterfold else self.columns) * self.rows


@dataclass(frozen=True)
class SheetPage:
    """One page of an imposition: its kind and its slots."""

    kind: Literal["front", "back", "gutterfold"]
    number: int  # 1-based sheet number
    slots: tuple[Slot, ...]


def footer_height(conventions: PrintConventions) -> float:
    """Height of the footer line (text and calibration bar) in mm.

    >>> from boardlab.layouts import print_conventions
    >>> round(footer_height(print_conventions()), 2)
    3.21
    """
    return conventions.sheet.footer_size * MM_PER_POINT * 1.3


def _axis_fit(printable: float, card: float, bleed: float, band: float, *, pairs: bool = False):
    """Most cards along one axis: (count, shared, positions relative to the printable start).

    `band` is the room needed between the outer cut lines and the printable edge on each side.
    Separate bleed wins a tie with shared cut lines.  With `pairs` (gutterfold) the count is
    even and the middle gap, where the sheet is folded, always keeps both bleeds.

    >>> _axis_fit(198.0, 63.5, 3.0, 2.0)
    (3, True, (3.75, 67.25, 130.75))
    """
    step = 2 if pairs else 1
    best = None
    for shared in (False, True):
        gap = 0.0 if shared else 2 * bleed
        count, candidate = 0, step
        while _extent(candidate, card, gap, bleed, pairs) + 2 * band <= printable + 1e-9:
            count, candidate = candidate, candidate + step
        if count and (best is None or count > best[0]):
            best = (count, shared, gap)
    if best is None:
        return 0, True, ()
    count, shared, gap = best
    position = (printable - _extent(count, card, gap, bleed, pairs)) / 2
    positions = []
    for index in range(count):
        positions.append(position)
        middle = pairs and index == count // 2 - 1
        position += card + (2 * bleed if middle else gap)
    return count, shared, tuple(positions)


def _extent(count: int, card: float, gap: float, bleed: float, pairs: bool) -> float:
    extent = count * card + (count - 1) * gap
    if pairs and count >= 2 and gap == 0:
        extent += 2 * bleed  # the gutter between fronts and backs keeps both bleeds
    return extent


def plan_card_sheet(geometry: CardGeometry, conventions: PrintConventions, paper: str,
                    layout: str = "duplex") -> SheetLayout:
    """The layout putting the most cards on one side of `paper`.

    :raises BoardlabError: for an unknown paper, or a card that does not fit it with its marks.

    >>> from boardlab.layouts import print_conventions
    >>> poker = CardGeometry(63.5, 88.9, 3.0, 3.0, 3.0)
    >>> a4 = plan_card_sheet(poker, print_conventions(), "a4")
    >>> a4.columns, a4.rows, a4.turned, a4.cards_per_page
    (3, 3, False, 9)
    >>> letter = plan_card_sheet(poker, print_conventions(), "letter")
    >>> letter.columns, letter.rows, letter.turned, letter.cards_per_page
    (2, 4, True, 8)
    """
    if paper not in conventions.papers:
        raise BoardlabError(f'unknown paper "{paper}" (papers: {", ".join(conventions.papers)})')
    page_width, page_height = conventions.papers[paper]
    sheet = conventions.sheet
    margin = sheet.margin
    printable = (margin, margin, page_width - 2 * margin, page_height - 2 * margin)
    side_band = sheet.cut_mark_offset + MINIMUM_MARK
    end_band = side_band + FOOTER_GAP + footer_height(conventions)
    gutterfold = layout == "gutterfold"
    best = None
    for turned in (False, True):
        slot_w, slot_h = (geometry.height, geometry.width) if turned else (geometry.width, geometry.height)
        columns, shared_columns, xs = _axis_fit(printable[2], slot_w, geometry.bleed, side_band, pairs=gutterfold)
        rows, shared_rows, ys = _axis_fit(printable[3], slot_h, geometry.bleed, end_band)
        count = (columns // 2 if gutterfold else columns) * rows
        if count and (best is None or count > best.cards_per_page):
            best = SheetLayout(paper, page_width, page_height, printable, columns, rows, turned,
                               shared_columns, shared_rows, gutterfold,
                               tuple(margin + x for x in xs), tuple(margin + y for y in ys), slot_w, slot_h)
    if best is None:
        raise BoardlabError(
            f"a {geometry.width:g} x {geometry.height:g} mm card does not fit on {paper} "
            f"({page_width:g} x {page_height:g} mm, margin {margin:g} mm) with its cut marks and footer; "
            "choose a bigger paper or a smaller card")
    return best


def _bleed_box(layout: SheetLayout, column: int, row: int, bleed: float) -> Box:
    """The cut box of (column, row) grown by the bleed on every side not shared with a neighbour."""
    x, y = layout.column_x[column], layout.row_y[row]
    w, h = layout.slot_width, layout.slot_height
    middle = layout.gutterfold and column in (layout.columns // 2 - 1, layout.columns // 2)
    left = bleed if (column == 0 or not layout.shared_columns or (middle and column == layout.columns // 2)) else 0.0
    right = bleed if (column == layout.columns - 1 or not layout.shared_columns
                      or (middle and column == layout.columns // 2 - 1)) else 0.0
    top = bleed if (row == 0 or not layout.shared_rows) else 0.0
    bottom = bleed if (row == layout.rows - 1 or not layout.shared_rows) else 0.0
    return (x - left, y - top, w + left + right, h + top + bottom)


def _slot(layout: SheetLayout, card: int, side, column: int, row: int, rotation: int, bleed: float) -> Slot:
    cut = (layout.column_x[column], layout.row_y[row], layout.slot_width, layout.slot_height)
    return Slot(card, side, cut, _bleed_box(layout, column, row, bleed), rotation % 360)


def impose_cards(card_count: int, geometry: CardGeometry, conventions: PrintConventions,
                 options: PrintOptions) -> tuple[SheetLayout, tuple[SheetPage, ...]]:
    """Place `card_count` cards (fronts and backs) on sheets; geometry only, nothing drawn.

    Fronts fill each sheet row by row, left to right.  With duplex a back page follows every
    front page; with gutterfold each page holds fronts on the left half and backs on the right.

    :raises BoardlabError: as `plan_card_sheet`.

    >>> from boardlab.layouts import print_conventions
    >>> poker = CardGeometry(63.5, 88.9, 3.0, 3.0, 3.0)
    >>> layout, pages = impose_cards(25, poker, print_conventions(), PrintOptions("a4", "long", "duplex"))
    >>> [(p.kind, len(p.slots)) for p in pages]
    [('front', 9), ('back', 9), ('front', 9), ('back', 9), ('front', 7), ('back', 7)]
    """
    layout = plan_card_sheet(geometry, conventions, options.paper, options.layout)
    per_page = layout.cards_per_page
    front_turn = 90 if layout.turned else 0
    pages: list[SheetPage] = []
    for sheet_index, first in enumerate(range(0, card_count, per_page)):
        cards = range(first, min(first + per_page, card_count))
        fronts, backs = [], []
        front_columns = layout.columns // 2 if layout.gutterfold else layout.columns
        for position, card in enumerate(cards):
            row, column = divmod(position, front_columns)
            fronts.append(_slot(layout, card, "front", column, row, front_turn, geometry.bleed))
            if layout.gutterfold:
                backs.append(_slot(layout, card, "back", layout.columns - 1 - column, row,
                                   180 - front_turn, geometry.bleed))
            elif options.duplex == "long":
                backs.append(_slot(layout, card, "back", layout.columns - 1 - column, row,
                                   -front_turn, geometry.bleed))
            else:
                backs.append(_slot(layout, card, "back", column, layout.rows - 1 - row,
                                   180 - front_turn, geometry.bleed))
        if layout.gutterfold:
            pages.append(SheetPage("gutterfold", sheet_index + 1, tuple(fronts + backs)))
        else:
            pages.append(SheetPage("front", sheet_index + 1, tuple(fronts)))
            pages.append(SheetPage("back", sheet_index + 1, tuple(backs)))
    return layout, tuple(pages)


def cut_lines(slots: Sequence[Slot]) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal cut line of a page's slots.

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


def cut_marks(layout: SheetLayout, slots: Sequence[Slot], conventions: PrintConventions,
              bleed: float) -> list[Mark]:
    """The cut marks of one page: both ends of every cut line, inside the printable area.

    Marks at the bottom stop above the footer line.
    """
    if not slots:
        return []
    sheet = conventions.sheet
    px, py, pw, ph = layout.printable
    left = min(s.cut_box[0] for s in slots)
    right = max(s.cut_box[0] + s.cut_box[2] for s in slots)
    top = min(s.cut_box[1] for s in slots)
    bottom = max(s.cut_box[1] + s.cut_box[3] for s in slots)
    bottom_limit = py + ph - footer_height(conventions) - FOOTER_GAP
    xs, ys = cut_lines(slots)
    start, reach = sheet.cut_mark_offset, sheet.cut_mark_offset + sheet.cut_mark_length
    over = start < bleed
    marks = []
    for x in xs:
        marks.append(Mark(x, top - start, x, max(top - reach, py), over))
        marks.append(Mark(x, bottom + start, x, min(bottom + reach, bottom_limit), over))
    for y in ys:
        marks.append(Mark(left - start, y, max(left - reach, px), y, over))
        marks.append(Mark(right + start, y, min(right + reach, px + pw), y, over))
    return marks


def draw_cut_marks(canvas: Canvas, marks: Sequence[Mark], ink: str, paper: str) -> None:
    """Draw marks; those crossing printed bleed get an underlay in the paper colour first."""
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
    epoch = environment.get("SOURCE_DATE_EPOCH", "").strip()  # empty counts as unset, as in reportlab
    if not epoch:
        return None
    if not epoch.isdigit() or int(epoch) > LAST_EPOCH:
        raise BoardlabError(f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 up to "
                            f"{LAST_EPOCH} (got '{epoch}')")
    return time.strftime("%Y-%m-%d", time.gmtime(int(epoch)))


#: 9999-12-31T23:59:59Z, the last moment a four-digit year can show
LAST_EPOCH = 253402300799


def draw_footer(canvas: Canvas, printable, conventions: PrintConventions, text: str, ink: str) -> None:
    """The calibration bar (labelled with its length) and `text`, on the last line of the
    `printable` box (the paper minus its margin); the line is `footer_height` tall.
    `printable` is an (x, y, width, height) box, or anything with such a `.printable` (a SheetLayout).

    >>> from boardlab.layouts import print_conventions
    >>> from boardlab.printkit.draw import RecordingCanvas
    >>> c = RecordingCanvas(210, 297)
    >>> draw_footer(c, (6, 6, 198, 285), print_conventions(), "Blockd 1.0", "#000000")
    >>> [round(v, 2) for v in c.calls[0][1]], c.calls[-1][1][2]
    ([6, 289.39, 56.0, 289.39], 'Blockd 1.0')
    """
    sheet = conventions.sheet
    px, py, pw, ph = getattr(printable, "printable", printable)
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


def _draw_face(canvas: Canvas, slot: Slot, face: Callable[[Canvas], None], geometry: CardGeometry) -> None:
    x, y, w, h = slot.cut_box
    # where the card's own (0, 0) lands after turning it clockwise by slot.rotation
    dx, dy = {0: (x, y), 90: (x + w, y), 180: (x + w, y + h), 270: (x, y + h)}[slot.rotation]
    with canvas.clip(*slot.bleed_box):
        with canvas.transform(dx, dy, rotate=slot.rotation):
            face(canvas)


@dataclass(frozen=True)
class SheetStyle:
    """Colours and footer words for a card sheet, from the game's definition."""

    ink: str  # "#rrggbb" for marks and footer
    paper: str  # "#rrggbb" under marks that cross the bleed
    label: str  # e.g. "Blockd 1.0"


def card_sheet_file(name: str, title: str, cards: Sequence[Card], geometry: CardGeometry,
                    conventions: PrintConventions, options: PrintOptions, style: SheetStyle) -> PrintFile:
    """A PrintFile of card sheets (fronts and backs) plus one component per distinct face.

    :raises BoardlabError: as `plan_card_sheet`.
    """
    layout, sheet_pages = impose_cards(len(cards), geometry, conventions, options)
    date = footer_date()
    total = max(page.number for page in sheet_pages) if sheet_pages else 0

    def page_drawer(sheet_page: SheetPage):
        def draw(canvas: Canvas) -> None:
            for slot in sheet_page.slots:
                card = cards[slot.card]
                _draw_face(canvas, slot, card.front if slot.side == "front" else card.back, geometry)
            draw_cut_marks(canvas, cut_marks(layout, sheet_page.slots, conventions, geometry.bleed),
                           style.ink, style.paper)
            parts = [style.label, f"{name}.pdf", f"sheet {sheet_page.number}/{total}", {
                "front": "fronts", "back": f"backs ({options.duplex}-edge flip)",
                "gutterfold": "fold on the middle line, fronts and backs"}[sheet_page.kind]]
            if date:
                parts.insert(1, date)
            draw_footer(canvas, layout.printable, conventions, " · ".join(parts), style.ink)
            if layout.gutterfold:
                _draw_fold_marks(canvas, layout, sheet_page.slots, conventions, style.ink)
        return draw

    pages = tuple(Page(layout.page_width, layout.page_height, page_drawer(p)) for p in sheet_pages)
    components: dict[str, Component] = {}
    for card in cards:
        components.setdefault(card.name, Component(card.name, geometry.width + 2 * geometry.bleed,
                                                   geometry.height + 2 * geometry.bleed,
                                                   _component_drawer(card.front, geometry)))
        components.setdefault(card.back_name, Component(card.back_name, geometry.width + 2 * geometry.bleed,
                                                        geometry.height + 2 * geometry.bleed,
                                                        _component_drawer(card.back, geometry)))
    return PrintFile(name, title, pages, tuple(components.values()))


def _component_drawer(face: Callable[[Canvas], None], geometry: CardGeometry):
    """A face drawn on its own with its bleed: the SVG's (0, 0) is the bleed box's corner."""
    def draw(canvas: Canvas) -> None:
        with canvas.transform(geometry.bleed, geometry.bleed):
            face(canvas)
    return draw


def _draw_fold_marks(canvas: Canvas, layout: SheetLayout, slots: Sequence[Slot],
                     conventions: PrintConventions, ink: str) -> None:
    """Dashed marks on the fold line, above and below the block."""
    middle = layout.columns // 2
    fold_x = (layout.column_x[middle - 1] + layout.slot_width + layout.column_x[middle]) / 2
    top = min(s.cut_box[1] for s in slots)
    bottom = max(s.cut_box[1] + s.cut_box[3] for s in slots)
    sheet = conventions.sheet
    py, ph = layout.printable[1], layout.printable[3]
    reach = sheet.cut_mark_offset + sheet.cut_mark_length
    bottom_limit = py + ph - footer_height(conventions) - FOOTER_GAP
    canvas.line(fold_x, top - sheet.cut_mark_offset, fold_x, max(top - reach, py), stroke=ink,
                width=MARK_WIDTH, dash=(0.8, 0.6))
    canvas.line(fold_x, bottom + sheet.cut_mark_offset, fold_x, min(bottom + reach, bottom_limit), stroke=ink,
                width=MARK_WIDTH, dash=(0.8, 0.6))


def single_card_file(name: str, title: str, cards: Sequence[Card], geometry: CardGeometry) -> PrintFile:
    """One card face per page, the page being the bleed box, with TrimBox and BleedBox set
    (for print-on-demand shops).  Pages alternate front, back.

    >>> card = Card("blank", lambda c: None, lambda c: None)
    >>> pages = single_card_file("x", "x", [card], CardGeometry(63.5, 88.9, 3.0, 3.0, 3.0)).pages
    >>> len(pages), pages[0].trim_box
    (2, (3.0, 3.0, 63.5, 88.9))
    """
    width, height = geometry.width + 2 * geometry.bleed, geometry.height + 2 * geometry.bleed
    trim = (geometry.bleed, geometry.bleed, geometry.width, geometry.height)
    bleed = (0.0, 0.0, width, height)
    pages = []
    for card in cards:
        for face in (card.front, card.back):
            pages.append(Page(width, height, _component_drawer(face, geometry), trim_box=trim, bleed_box=bleed))
    return PrintFile(name, title, tuple(pages))


__all__ = ["Card", "CardGeometry", "Mark", "draw_footer", "footer_date", "SheetLayout", "SheetPage", "SheetStyle", "Slot", "card_geometry",
           "card_sheet_file", "cut_lines", "cut_marks", "footer_height", "impose_cards", "plan_card_sheet",
           "single_card_file"]


def file_suffix(options: PrintOptions) -> str:
    """The part of a file name that tells papers and non-default layouts apart.

    >>> file_suffix(PrintOptions("letter", "short", "duplex")), file_suffix(PrintOptions("a4", "long", "gutterfold"))
    ('letter-short-edge', 'a4-gutterfold')
    """
    from boardlab.layouts import print_conventions

    conventions = print_conventions()
    parts = [options.paper]
    if options.layout == "gutterfold":
        parts.append("gutterfold")
    elif options.duplex != conventions.duplex:
        parts.append(f"{options.duplex}-edge")
    return "-".join(parts)


def ink_and_paper(d) -> tuple[str, str]:
    """The definition's ink and paper colours ("#rrggbb"), from its [print] table."""
    return d.colours[d.print.ink_colour].hex, d.colours[d.print.paper_colour].hex


def deck_files(d, options: PrintOptions, cards: Sequence[Card], conventions: PrintConventions) -> tuple[PrintFile, PrintFile]:
    """A game's card deck as (sheets for home printing, one face per page for print-on-demand).

    :raises BoardlabError: when a card does not fit the paper.
    """
    geometry = card_geometry(d.print, conventions)
    size = d.print.card if isinstance(d.print.card, str) else f"{geometry.width:g} x {geometry.height:g} mm"
    ink, paper = ink_and_paper(d)
    style = SheetStyle(ink, paper, f"{d.game.name} {d.game.version}")
    deck = card_sheet_file(f"{d.game.id}-cards-{file_suffix(options)}",
                           f"{d.game.name} cards ({len(cards)}, {size})", cards, geometry, conventions, options, style)
    single = single_card_file(f"{d.game.id}-cards-single", f"{d.game.name} cards, one face per page with bleed "
                              "(for print-on-demand)", cards, geometry)
    return deck, single

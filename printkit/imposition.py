"""Sheet geometry: fitting cards on a paper, and where every front and back goes (nothing drawn).

All geometry is millimetres, y down, and comes from layouts/print.toml and the game's [print]
table; nothing here is a game's number.  The rules:

* **Printable area** = the paper minus `sheet.margin` on every side.  Card cut boxes, cut marks,
  the footer and the calibration bar stay inside it.  Bleed may run into the margin: it is
  cut away, so a printer that cannot reach it loses nothing.
* **Spacing**, chosen per axis: cards keep their own bleed (neighbours 2 x bleed apart) where
  that fits, otherwise they butt together and share cut lines, with bleed only round the
  outside of the block.  Each card's bleed box covers only its own bleed, so it never
  overlaps a neighbour's cut box.
* **Orientation**: cards stand as the definition gives them, or lie on their side (turned a
  quarter) when that puts more cards on a sheet.
* **Backs**: `duplex` puts a back page after every front page: long-edge flip mirrors the
  columns (x -> W - x), short-edge flip mirrors the rows (y -> H - y).  `gutterfold` puts the
  backs beside the fronts, mirrored across a fold line in the middle of the sheet.  A back is
  turned so that its top edge sits at the card's physical top for long-edge duplex (angle
  -a for a front at angle a), and turned half a turn (180 - a) for short-edge duplex and for
  gutterfold.

The arrangement of one paper is a `SheetLayout`; `impose_cards` gives the `SheetPage`s of a deck.
Cut marks and the footer are printkit.marks; the files of a deck are printkit.decks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from boardlab.layouts.common import PrintConventions, PrintSettings
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.marks import FOOTER_GAP, MINIMUM_MARK, footer_height
from boardlab.printkit.pages import Box, PrintOptions


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
                    backs: str = "duplex") -> SheetLayout:
    """The SheetLayout putting the most cards on one side of `paper`.

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
    gutterfold = backs == "gutterfold"
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


def _bleed_box(sheet_layout: SheetLayout, column: int, row: int, bleed: float) -> Box:
    """The cut box of (column, row) grown by the bleed on every side not shared with a neighbour."""
    x, y = sheet_layout.column_x[column], sheet_layout.row_y[row]
    w, h = sheet_layout.slot_width, sheet_layout.slot_height
    middle = sheet_layout.gutterfold and column in (sheet_layout.columns // 2 - 1, sheet_layout.columns // 2)
    left = bleed if (column == 0 or not sheet_layout.shared_columns or (middle and column == sheet_layout.columns // 2)) else 0.0
    right = bleed if (column == sheet_layout.columns - 1 or not sheet_layout.shared_columns
                      or (middle and column == sheet_layout.columns // 2 - 1)) else 0.0
    top = bleed if (row == 0 or not sheet_layout.shared_rows) else 0.0
    bottom = bleed if (row == sheet_layout.rows - 1 or not sheet_layout.shared_rows) else 0.0
    return (x - left, y - top, w + left + right, h + top + bottom)


def _slot(sheet_layout: SheetLayout, card: int, side, column: int, row: int, rotation: int, bleed: float) -> Slot:
    cut = (sheet_layout.column_x[column], sheet_layout.row_y[row], sheet_layout.slot_width, sheet_layout.slot_height)
    return Slot(card, side, cut, _bleed_box(sheet_layout, column, row, bleed), rotation % 360)


def impose_cards(card_count: int, geometry: CardGeometry, conventions: PrintConventions,
                 options: PrintOptions) -> tuple[SheetLayout, tuple[SheetPage, ...]]:
    """Place `card_count` cards (fronts and backs) on sheets; geometry only, nothing drawn.

    Fronts fill each sheet row by row, left to right.  With duplex a back page follows every
    front page; with gutterfold each page holds fronts on the left half and backs on the right.

    :raises BoardlabError: as `plan_card_sheet`.

    >>> from boardlab.layouts import print_conventions
    >>> poker = CardGeometry(63.5, 88.9, 3.0, 3.0, 3.0)
    >>> sheet_layout, pages = impose_cards(25, poker, print_conventions(), PrintOptions("a4", "long", "duplex"))
    >>> [(p.kind, len(p.slots)) for p in pages]
    [('front', 9), ('back', 9), ('front', 9), ('back', 9), ('front', 7), ('back', 7)]
    """
    sheet_layout = plan_card_sheet(geometry, conventions, options.paper, options.backs)
    per_page = sheet_layout.cards_per_page
    front_turn = 90 if sheet_layout.turned else 0
    pages: list[SheetPage] = []
    for sheet_index, first in enumerate(range(0, card_count, per_page)):
        cards = range(first, min(first + per_page, card_count))
        fronts, backs = [], []
        front_columns = sheet_layout.columns // 2 if sheet_layout.gutterfold else sheet_layout.columns
        for position, card in enumerate(cards):
            row, column = divmod(position, front_columns)
            fronts.append(_slot(sheet_layout, card, "front", column, row, front_turn, geometry.bleed))
            if sheet_layout.gutterfold:
                backs.append(_slot(sheet_layout, card, "back", sheet_layout.columns - 1 - column, row,
                                   180 - front_turn, geometry.bleed))
            elif options.duplex == "long":
                backs.append(_slot(sheet_layout, card, "back", sheet_layout.columns - 1 - column, row,
                                   -front_turn, geometry.bleed))
            else:
                backs.append(_slot(sheet_layout, card, "back", column, sheet_layout.rows - 1 - row,
                                   180 - front_turn, geometry.bleed))
        if sheet_layout.gutterfold:
            pages.append(SheetPage("gutterfold", sheet_index + 1, tuple(fronts + backs)))
        else:
            pages.append(SheetPage("front", sheet_index + 1, tuple(fronts)))
            pages.append(SheetPage("back", sheet_index + 1, tuple(backs)))
    return sheet_layout, tuple(pages)

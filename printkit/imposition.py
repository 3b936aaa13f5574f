"""Sheet geometry: fitting cards on a paper, and where every front and back goes (nothing drawn).

All geometry is millimetres, y down, and comes from layouts/print.toml and the game's [print]
table; nothing here is a game's number.  The rules:

* **Printable area** = the paper minus `sheet.margin` on every side.  Card cut boxes, the
  footer and the calibration bar stay inside it.  Bleed may run into the margin: it is cut
  away, so a printer that cannot reach it loses nothing.  Cut marks may run on into the
  margin, up to `sheet.mark_margin` from the paper's edge, but never onto a card: they start
  outside the block's cut lines (on Letter, poker cards fill the printable height and their
  marks sit in the margin above and below).
* **Spacing**, chosen per axis: cards keep their own bleed (neighbours 2 x bleed apart) where
  that fits, otherwise they butt together and share cut lines, with bleed only round the
  outside of the block.  With a **gutter** (the game's `print.gutter`, else print.toml's
  `sheet.gutter`) cards never share a cut line: neighbours are 2 x bleed + gutter apart, so a
  miscut leaves a card's own bleed or blank paper on it, never its neighbour's colour, and the
  cut marks start outside the bleed.  Each card's bleed box covers only its own bleed, so it
  never overlaps a neighbour's cut box.
* **Orientation**: cards stand as the definition gives them, or lie on their side (turned a
  quarter) when that puts more cards on a sheet.
* **Spare blanks**: the empty slots of a deck's last sheet take spare blank cards (a front and,
  in the mirrored slot, a back), so that the paper a designer prints anyway yields cards to
  write on; slots that small pieces take (`taken`) stay empty.  Spares count as printed
  neighbours for the bleed, and their slots get cut marks like any other.
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
    gutter: float = 0.0  # blank paper between neighbouring cards' bleeds on a sheet; 0: cut lines may be shared

    @property
    def safe_box(self) -> Box:
        """Where text and symbols may go, in card coordinates (origin at the cut box's corner)."""
        return (self.safe, self.safe, self.width - 2 * self.safe, self.height - 2 * self.safe)

    @property
    def bleed_box(self) -> Box:
        """The cut box grown by the bleed, in card coordinates."""
        return (-self.bleed, -self.bleed, self.width + 2 * self.bleed, self.height + 2 * self.bleed)


def card_geometry(settings: PrintSettings, conventions: PrintConventions) -> CardGeometry:
    """The card size of a game's [print] table: a preset name from print.toml or [width, height],
    with its gutter (the table's `gutter`, else print.toml's `sheet.gutter`).

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
    return CardGeometry(float(width), float(height), settings.bleed, settings.safe, settings.corner_radius,
                        sheet_gutter(settings, conventions))


def sheet_gutter(settings: PrintSettings, conventions: PrintConventions) -> float:
    """The gap between cards' bleeds on a sheet: the game's print.gutter, else print.toml's.

    >>> from boardlab.layouts import load, print_conventions
    >>> sheet_gutter(load("blockd").print, print_conventions())
    0.0
    """
    return float(conventions.sheet.gutter if settings.gutter is None else settings.gutter)


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
    #: where the footer line goes: "bottom", or "left" (turned, reading upwards) when the rows
    #: fill the printable height (their cut marks run into the margin above and below)
    footer: Literal["bottom", "left"] = "bottom"
    #: how far outside the block's cut lines its cut marks start (mm): past the bleed with a gutter
    mark_start: float = 1.0

    @property
    def cards_per_page(self) -> int:
        return (self.columns // 2 if self.gutterfold else self.columns) * self.rows


@dataclass(frozen=True)
class SheetPage:
    """One page of an imposition: its kind and its slots."""

    kind: Literal["front", "back", "gutterfold"]
    number: int  # 1-based sheet number
    slots: tuple[Slot, ...]
    free: tuple[Box, ...] = ()  # cut boxes of the grid left empty by real cards on this page (fronts only)
    #: spare blank faces in empty slots (card -1), fronts and backs as the page shows them;
    #: `slots` holds the real cards only
    spares: tuple[Slot, ...] = ()

    @property
    def printed(self) -> tuple[Slot, ...]:
        """Every face on the page: real cards, then spare blanks (what cut marks are made for)."""
        return self.slots + self.spares


def _axis_fit(printable: float, card: float, bleed: float, band: float, *, pairs: bool = False,
              gutter: float = 0.0) -> tuple[int, bool, tuple[float, ...]]:
    """Most cards along one axis: (count, shared, positions relative to the printable start).

    `band` is the room needed between the outer cut lines and the printable edge on each side.
    Separate bleed wins a tie with shared cut lines; with a `gutter` cards are always separate,
    2 x bleed + gutter apart.  With `pairs` (gutterfold) the count is even and the middle gap,
    where the sheet is folded, always keeps both bleeds.

    >>> _axis_fit(198.0, 63.5, 3.0, 2.0)
    (3, True, (3.75, 67.25, 130.75))
    >>> _axis_fit(198.0, 63.5, 3.0, 5.0, gutter=2.0)
    (2, False, (31.5, 103.0))
    """
    step = 2 if pairs else 1
    best: tuple[int, bool, float] | None = None
    for shared in ((False,) if gutter > 0 else (False, True)):
        gap = 0.0 if shared else 2 * bleed + gutter
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
        position += card + (max(gap, 2 * bleed) if middle else gap)
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
    >>> letter.columns, letter.rows, letter.turned, letter.cards_per_page, letter.footer
    (3, 3, False, 9, 'left')
    """
    if paper not in conventions.papers:
        raise BoardlabError(f'unknown paper "{paper}" (papers: {", ".join(conventions.papers)})')
    page_width, page_height = conventions.papers[paper]
    sheet = conventions.sheet
    margin = sheet.margin
    printable = (margin, margin, page_width - 2 * margin, page_height - 2 * margin)
    # marks start mark_start outside the outer cut lines and are at least MINIMUM_MARK long; on a
    # side without the footer they may use the margin down to mark_margin from the paper's edge
    mark_start = sheet.cut_mark_offset + (geometry.bleed if geometry.gutter > 0 else 0.0)
    mark_room = mark_start + MINIMUM_MARK
    side_band = max(0.0, mark_room - max(0.0, margin - sheet.mark_margin))
    footer_band = FOOTER_GAP + footer_height(conventions)
    gutterfold = backs == "gutterfold"
    best = None
    # the footer at the bottom (marks round the block, those below stop above the footer), or,
    # when that costs a row, the footer turned in the left margin and the rows filling the height
    arrangements: list[tuple[Literal["bottom", "left"], tuple[float, float]]] = [
        ("bottom", (side_band, mark_room + footer_band))]
    if not gutterfold:  # the fold marks of a gutterfold sheet need the room above and below the block
        arrangements.append(("left", (mark_room + footer_band, side_band)))
    for footer, (x_band, y_band) in arrangements:
        for turned in (False, True):
            slot_w, slot_h = (geometry.height, geometry.width) if turned else (geometry.width, geometry.height)
            columns, shared_columns, xs = _axis_fit(printable[2], slot_w, geometry.bleed, x_band, pairs=gutterfold,
                                                    gutter=geometry.gutter)
            rows, shared_rows, ys = _axis_fit(printable[3], slot_h, geometry.bleed, y_band, gutter=geometry.gutter)
            count = (columns // 2 if gutterfold else columns) * rows
            if count and (best is None or count > best.cards_per_page):
                best = SheetLayout(paper, page_width, page_height, printable, columns, rows, turned,
                                   shared_columns, shared_rows, gutterfold,
                                   tuple(margin + x for x in xs), tuple(margin + y for y in ys), slot_w, slot_h,
                                   footer, mark_start)
    if best is None:
        raise BoardlabError(
            f"a {geometry.width:g} x {geometry.height:g} mm card does not fit on {paper} "
            f"({page_width:g} x {page_height:g} mm, margin {margin:g} mm) with its cut marks and footer; "
            "choose a bigger paper or a smaller card")
    return best


def _bleed_box(sheet_layout: SheetLayout, column: int, row: int, bleed: float, occupied: set) -> Box:
    """The cut box of (column, row) grown by the bleed on every side that no card on the page
    butts against: a shared cut line keeps no bleed only where a neighbour is actually printed."""
    x, y = sheet_layout.column_x[column], sheet_layout.row_y[row]
    w, h = sheet_layout.slot_width, sheet_layout.slot_height
    fold = sheet_layout.columns // 2 if sheet_layout.gutterfold else None  # first column right of the fold

    def butted(other_column: int, other_row: int, shared: bool) -> bool:
        return shared and (other_column, other_row) in occupied

    left = 0.0 if butted(column - 1, row, sheet_layout.shared_columns and column != fold) else bleed
    right = 0.0 if butted(column + 1, row, sheet_layout.shared_columns and column + 1 != fold) else bleed
    top = 0.0 if butted(column, row - 1, sheet_layout.shared_rows) else bleed
    bottom = 0.0 if butted(column, row + 1, sheet_layout.shared_rows) else bleed
    return (x - left, y - top, w + left + right, h + top + bottom)


def _cut_box(sheet_layout: SheetLayout, column: int, row: int) -> Box:
    return (sheet_layout.column_x[column], sheet_layout.row_y[row], sheet_layout.slot_width, sheet_layout.slot_height)


def _slots(sheet_layout: SheetLayout, placed: list[tuple[int, Literal["front", "back"], int, int, int]],
           bleed: float) -> tuple[Slot, ...]:
    """Slots of one page from (card, side, column, row, rotation): bleed boxes see the whole page."""
    occupied = {(column, row) for _, _, column, row, _ in placed}
    return tuple(Slot(card, side, _cut_box(sheet_layout, column, row),
                      _bleed_box(sheet_layout, column, row, bleed, occupied), rotation % 360)
                 for card, side, column, row, rotation in placed)


def impose_cards(card_count: int, geometry: CardGeometry, conventions: PrintConventions,
                 options: PrintOptions, taken: frozenset[int] = frozenset()) -> tuple[SheetLayout, tuple[SheetPage, ...]]:
    """Place `card_count` cards (fronts and backs) on sheets; geometry only, nothing drawn.

    Fronts fill each sheet row by row, left to right.  With duplex a back page follows every
    front page; with gutterfold each page holds fronts on the left half and backs on the right.
    The empty slots of the last sheet hold spare blanks (card -1, in `SheetPage.spares`), but
    for the grid positions (0 = top-left, row by row) in `taken`, which small pieces use.

    :raises BoardlabError: as `plan_card_sheet`.

    >>> from boardlab.layouts import print_conventions
    >>> poker = CardGeometry(63.5, 88.9, 3.0, 3.0, 3.0)
    >>> sheet_layout, pages = impose_cards(25, poker, print_conventions(), PrintOptions("a4", "long", "duplex"))
    >>> [(p.kind, len(p.slots)) for p in pages]
    [('front', 9), ('back', 9), ('front', 9), ('back', 9), ('front', 7), ('back', 7)]
    >>> [len(p.spares) for p in pages], len(impose_cards(25, poker, print_conventions(),
    ...     PrintOptions("a4", "long", "duplex"), taken=frozenset({8}))[1][-1].spares)
    ([0, 0, 0, 0, 2, 2], 1)
    """
    sheet_layout = plan_card_sheet(geometry, conventions, options.paper, options.backs)
    per_page = sheet_layout.cards_per_page
    front_turn = 90 if sheet_layout.turned else 0
    columns, rows = sheet_layout.columns, sheet_layout.rows
    front_columns = columns // 2 if sheet_layout.gutterfold else columns
    pages: list[SheetPage] = []
    for sheet_index, first in enumerate(range(0, card_count, per_page)):
        cards = range(first, min(first + per_page, card_count))
        fronts: list[tuple[int, Literal["front", "back"], int, int, int]] = []
        backs: list[tuple[int, Literal["front", "back"], int, int, int]] = []
        spare_fronts: list[tuple[int, Literal["front", "back"], int, int, int]] = []
        spare_backs: list[tuple[int, Literal["front", "back"], int, int, int]] = []
        positions = [(card, position) for position, card in enumerate(cards)]
        positions += [(-1, position) for position in range(len(cards), per_page) if position not in taken]
        for card, position in positions:
            row, column = divmod(position, front_columns)
            front_list, back_list = (fronts, backs) if card >= 0 else (spare_fronts, spare_backs)
            front_list.append((card, "front", column, row, front_turn))
            if sheet_layout.gutterfold:
                back_list.append((card, "back", columns - 1 - column, row, 180 - front_turn))
            elif options.duplex == "long":
                back_list.append((card, "back", columns - 1 - column, row, -front_turn))
            else:
                back_list.append((card, "back", column, rows - 1 - row, 180 - front_turn))
        free = tuple(_cut_box(sheet_layout, position % front_columns, position // front_columns)
                     for position in range(len(cards), per_page))
        if sheet_layout.gutterfold:
            placed = fronts + backs + spare_fronts + spare_backs
            slots = _slots(sheet_layout, placed, geometry.bleed)
            pages.append(SheetPage("gutterfold", sheet_index + 1, slots[:len(fronts) + len(backs)], free,
                                   slots[len(fronts) + len(backs):]))
        else:
            front_slots = _slots(sheet_layout, fronts + spare_fronts, geometry.bleed)
            back_slots = _slots(sheet_layout, backs + spare_backs, geometry.bleed)
            pages.append(SheetPage("front", sheet_index + 1, front_slots[:len(fronts)], free, front_slots[len(fronts):]))
            pages.append(SheetPage("back", sheet_index + 1, back_slots[:len(backs)], (), back_slots[len(backs):]))
    return sheet_layout, tuple(pages)

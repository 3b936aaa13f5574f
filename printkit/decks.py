"""Deck files: a game's cards on sheets (fronts and backs), and one face per page for shops.

A `Card` is what the game module draws; `card_sheet_file` imposes the cards
(printkit.imposition), draws each face clipped to its bleed box, and adds the cut marks and
the footer (printkit.marks).  `deck_files` gives a game's deck as both files.

The empty slots of a deck's last sheet hold spare blank cards, for a designer to write a new
card on during a playtest: a front with the paper colour to the bleed, a frame on the safe
zone and a small light "spare" label, and the deck's commonest back in the mirrored slot.
Small pieces may take those slots instead (`PrintFile.taking`); the one-face-per-page file
and the deck's card count know nothing of spares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from boardlab.layouts.common import GameDefinition, PrintConventions
from boardlab.layouts.terms import term, word
from boardlab.printkit.cover import edge
from boardlab.printkit.draw import Canvas
from boardlab.printkit.imposition import CardGeometry, SheetPage, Slot, card_geometry, impose_cards
from boardlab.printkit.marks import (cut_marks, draw_cut_marks, draw_fold_marks, draw_sheet_footer, footer_date,
                                     footer_label, footer_text)
from boardlab.printkit.pages import Component, FreeArea, Page, PrintFile, PrintOptions, back_shift
from boardlab.printkit.palette import ink_and_paper


@dataclass(frozen=True)
class Card:
    """One card to print: its faces draw in card coordinates (origin at the cut box's top-left,
    y down) and paint their background out to the bleed edge."""

    name: str  # component name of the front, e.g. "red-3"
    front: Callable[[Canvas], None]
    back: Callable[[Canvas], None]
    back_name: str = "back"  # component name of the back; cards sharing a back share its SVG
    kind: str = ""  # the card's kind (a game's card kinds), whose `[art.cards.KIND]` image it shows


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


#: the word on a spare blank, and how far (0 = ink, 1 = paper) its frame and label fade towards the paper
#: the spare blank's small label is the term "print.spare" ("spare", "de reserva")
SPARE_FRAME_TINT, SPARE_LABEL_TINT = 0.6, 0.5
#: points of the spare label
SPARE_LABEL_SIZE = 6.0


def tint(ink: str, paper: str, amount: float) -> str:
    """`ink` moved `amount` of the way towards `paper` ("#rrggbb").

    >>> tint("#000000", "#ffffff", 0.5), tint("#204080", "#ffffff", 0.0)
    ('#808080', '#204080')
    """
    a = [int(ink[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(paper[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * amount):02x}" for x, y in zip(a, b))


def spare_front(geometry: CardGeometry, style: SheetStyle) -> Callable[[Canvas], None]:
    """A spare blank front: paper to the bleed, the safe zone framed, "spare" small and light
    at the foot of the safe zone."""
    def draw(canvas: Canvas) -> None:
        canvas.rect(*geometry.bleed_box, fill=style.paper)
        canvas.rect(*geometry.safe_box, stroke=tint(style.ink, style.paper, SPARE_FRAME_TINT), width=0.4,
                    radius=geometry.corner_radius)
        canvas.text(geometry.width / 2, geometry.height - geometry.safe - 1.5, term("print.spare"), size=SPARE_LABEL_SIZE,
                    fill=tint(style.ink, style.paper, SPARE_LABEL_TINT), anchor="middle")
    return draw


def common_back(cards: Sequence[Card]) -> Callable[[Canvas], None]:
    """The back most cards share (the first card's on a tie): what a spare blank carries.

    >>> one, other = (lambda c: None), (lambda c: None)
    >>> cards = [Card("a", one, other, "x"), Card("b", one, one, "y"), Card("c", one, one, "y")]
    >>> common_back(cards) is one
    True
    """
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.back_name] = counts.get(card.back_name, 0) + 1
    best = max(counts.values())
    return next(card.back for card in cards if counts[card.back_name] == best)


def card_sheet_file(name: str, title: str, cards: Sequence[Card], geometry: CardGeometry,
                    conventions: PrintConventions, options: PrintOptions, style: SheetStyle,
                    taken: frozenset[int] = frozenset()) -> PrintFile:
    """A PrintFile of card sheets (fronts and backs) plus one component per distinct face.
    Spare blanks fill the last sheet's empty slots but for the grid positions in `taken`.

    :raises BoardlabError: as `plan_card_sheet`.
    """
    sheet_layout, sheet_pages = impose_cards(len(cards), geometry, conventions, options, taken)
    blank_front, blank_back = spare_front(geometry, style), common_back(cards) if cards else None
    date = footer_date()
    total = max(page.number for page in sheet_pages) if sheet_pages else 0

    def page_drawer(sheet_page: SheetPage) -> Callable[[Canvas], None]:
        def draw(canvas: Canvas) -> None:
            if sheet_page.kind == "back" and any(options.back_offset):
                with canvas.transform(*back_shift(options, options.duplex)):
                    draw_sheet(canvas)
            else:
                draw_sheet(canvas)

        def draw_sheet(canvas: Canvas) -> None:
            for slot in sheet_page.slots:
                card = cards[slot.card]
                _draw_face(canvas, slot, card.front if slot.side == "front" else card.back, geometry)
            for slot in sheet_page.spares:
                back = blank_back
                assert back is not None  # spare slots come only with cards
                _draw_face(canvas, slot, blank_front if slot.side == "front" else back, geometry)
            draw_cut_marks(canvas, cut_marks(sheet_layout, sheet_page.printed, conventions, geometry.bleed),
                           style.ink, style.paper)
            side = {"front": word("fronts"), "back": term("cards.backs", edge=edge(options.duplex)),
                    "gutterfold": word("fold on the middle line, fronts and backs")}[sheet_page.kind]
            text = footer_text(style.label, name, f"{word('sheet')} {sheet_page.number}/{total}", side, date=date)
            draw_sheet_footer(canvas, sheet_layout, conventions, text, style.ink)
            if sheet_layout.gutterfold:
                draw_fold_marks(canvas, sheet_layout, sheet_page.printed, conventions, style.ink)
        return draw

    pages = tuple(Page(sheet_layout.page_width, sheet_layout.page_height, page_drawer(p)) for p in sheet_pages)
    # empty slots of a duplex front page may take small pieces (nothing is printed behind them);
    # they keep clear of the neighbours' bleed
    b = geometry.bleed
    per_page = sheet_layout.cards_per_page
    free = tuple(FreeArea(name, index, (x + b, y + b, w - 2 * b, h - 2 * b), slot)
                 for index, sheet_page in enumerate(sheet_pages) if sheet_page.kind == "front"
                 for slot, (x, y, w, h) in enumerate(sheet_page.free, start=per_page - len(sheet_page.free)))
    components: dict[str, Component] = {}
    for card in cards:
        components.setdefault(card.name, Component(card.name, geometry.width + 2 * geometry.bleed,
                                                   geometry.height + 2 * geometry.bleed,
                                                   _guided_drawer(card.front, geometry)))
        components.setdefault(card.back_name, Component(card.back_name, geometry.width + 2 * geometry.bleed,
                                                        geometry.height + 2 * geometry.bleed,
                                                        _guided_drawer(card.back, geometry)))
    if sheet_layout.gutterfold:
        how, duplex = term("subject.gutterfold"), None
    else:
        how, duplex = term("subject.print", how=term("cover.both_sides", edge=edge(options.duplex))), options.duplex
    subject = term("subject.cards", title=title, n=sheet_layout.cards_per_page, paper=options.paper.capitalize(), how=how)

    def taking(slots: frozenset[tuple[int, int]]) -> tuple[Page, ...]:
        # only the last sheet has empty slots
        return card_sheet_file(name, title, cards, geometry, conventions, options, style,
                               taken | {slot for _, slot in slots}).pages
    return PrintFile(name, title, pages, tuple(components.values()), free, duplex, subject, taking)


def _component_drawer(face: Callable[[Canvas], None], geometry: CardGeometry) -> Callable[[Canvas], None]:
    """A face drawn on its own with its bleed: the page's (0, 0) is the bleed box's corner."""
    def draw(canvas: Canvas) -> None:
        with canvas.transform(geometry.bleed, geometry.bleed):
            face(canvas)
    return draw


#: the colour of trim and safe-zone guides in a card's SVG (a guide colour, never printed)
GUIDE_COLOUR = "#00a0e0"


def _guided_drawer(face: Callable[[Canvas], None], geometry: CardGeometry) -> Callable[[Canvas], None]:
    """A face for its SVG: with bleed, its cut line (rounded corners) on the cut layer and the
    safe zone on the guides layer."""
    def draw(canvas: Canvas) -> None:
        _component_drawer(face, geometry)(canvas)
        with canvas.transform(geometry.bleed, geometry.bleed):
            with canvas.layer("cut"):
                canvas.rect(0, 0, geometry.width, geometry.height, stroke=GUIDE_COLOUR, width=0.1,
                            radius=geometry.corner_radius)
            with canvas.layer("guides"):
                canvas.rect(*geometry.safe_box, stroke=GUIDE_COLOUR, width=0.1, dash=(1.0, 1.0))
    return draw


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
        for face, face_name in ((card.front, card.name), (card.back, card.back_name)):
            pages.append(Page(width, height, _component_drawer(face, geometry), trim_box=trim, bleed_box=bleed,
                              name=face_name))
    subject = term("subject.single", title=title, n=len(cards), width=float(width), height=float(height))
    return PrintFile(name, title, tuple(pages), subject=subject)


def file_suffix(options: PrintOptions) -> str:
    """The part of a file name that tells papers and non-default layouts apart.

    >>> file_suffix(PrintOptions("letter", "short", "duplex")), file_suffix(PrintOptions("a4", "long", "gutterfold"))
    ('letter-short-edge', 'a4-gutterfold')
    """
    from boardlab.layouts import print_conventions

    conventions = print_conventions()
    parts = [options.paper]
    if options.backs == "gutterfold":
        parts.append("gutterfold")
    elif options.duplex != conventions.duplex:
        parts.append(f"{options.duplex}-edge")
    return "-".join(parts)


def deck_files(d: GameDefinition, options: PrintOptions, cards: Sequence[Card], conventions: PrintConventions) -> tuple[PrintFile, PrintFile]:
    """A game's card deck as (sheets for home printing, one face per page for print-on-demand).

    :raises BoardlabError: when a card does not fit the paper.
    """
    geometry = card_geometry(d.print, conventions)
    size = word(d.print.card) if isinstance(d.print.card, str) else f"{geometry.width:g} x {geometry.height:g} mm"
    ink, paper = ink_and_paper(d)
    style = SheetStyle(ink, paper, footer_label(d))
    deck = card_sheet_file(f"{d.game.id}-cards-{file_suffix(options)}",
                           term("cards.title", game=d.game.name, n=len(cards), size=size), cards, geometry, conventions,
                           options, style)
    single = single_card_file(f"{d.game.id}-cards-single", term("cards.single", game=d.game.name), cards, geometry)
    return deck, single

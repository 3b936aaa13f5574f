"""Blockd's print files: the card deck (start and number cards of every suit, the blind card).

Everything printed comes from the definition: suits and their colours, symbols and labels,
the values, the number of blind cards, the start card's step range, the card size and the
back colour.  A start card shows its suit's symbol large with the step range a player may
choose on it; a number card shows its value large, the suit symbol and the colour's label, so
a card is known in greyscale too.  The blind card carries the back on both faces.
The pawns, one per suit, are folding standees (printkit.standees) in the suit's colour.

>>> from boardlab.layouts import load
>>> files = print_files(load("blockd"), PrintOptions("a4", "long", "duplex"))
>>> [(f.name, len(f.pages)) for f in files]
[('blockd-cover-a4', 2), ('blockd-cards-a4', 6), ('blockd-cards-single', 50)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from dataclasses import replace

from boardlab.layouts import print_conventions
from boardlab.layouts.blockd import CardRow, Definition
from boardlab.layouts.faces import Region
from boardlab.layouts.terms import plural, term, word
from boardlab.printkit.cardart import paint_bleed, paint_frame
from boardlab.printkit.draw import Canvas, Drawing, Point
from boardlab.printkit.faces import at_both_ends, card_regions, draw_region_symbol, draw_text, region_colour
from boardlab.printkit.packing import paper_size, share_free_space
from boardlab.printkit.cover import cover_file, tools
from boardlab.printkit.decks import Card, deck_files, file_suffix
from boardlab.printkit.imposition import CardGeometry, card_geometry
from boardlab.printkit.marks import footed_file, footer_label
from boardlab.printkit.pages import PrintFile, PrintOptions
from boardlab.printkit.pictures import dress_cards, row_images, piece_image
from boardlab.printkit.palette import ink_and_paper
from boardlab.printkit.standees import StandeeArt, standee_component, standee_section

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState, Move
    from boardlab.analysis.blockd.walks import Grid
    from boardlab.printkit.games.blockd_table import BlockdTable
    from boardlab.printkit.rulebook.setups import SetupDrawing, WorkedExample
    from boardlab.printkit.tts import TtsBox

def blockd_cards(d: Definition) -> list[Card]:
    """Every card of the deck in definition order: per suit the start card and the number
    cards, then the blind cards.

    >>> from boardlab.layouts import load
    >>> [c.name for c in blockd_cards(load("blockd"))][:7]
    ['red-start', 'red-1', 'red-2', 'red-3', 'red-4', 'red-5', 'blue-start']
    """
    geometry = card_geometry(d.print, print_conventions())
    back = _back_drawer(d, geometry)
    cards: list[Card] = []
    for suit in d.cards.suits:
        cards.append(Card(f"{suit}-start", _start_drawer(d, geometry, suit), back, kind="start"))
        for value in d.cards.numbers(suit):
            cards.append(Card(f"{suit}-{value}", _number_drawer(d, geometry, suit, value), back, kind="number"))
    blind = _blind_drawer(d, geometry, back)
    for index in range(d.cards.blind):
        cards.append(Card(blind_card_name(index), blind, blind, kind="blind"))
    return dress_cards(d, cards, geometry, row_images(d, "cards", _row_card_names(d)))


def _row_card_names(d: Definition) -> Callable[[int, CardRow], list[str]]:
    """names(index, row): the names of the cards one card-list row makes (blind cards numbered
    across the rows, as `blockd_cards` numbers them)."""
    blind_before: dict[int, int] = {}
    seen = 0
    for index, row in enumerate(d.cards.cards):
        if row.kind == "blind":
            blind_before[index] = seen
            seen += row.count

    def names(index: int, row: CardRow) -> list[str]:
        if row.kind == "start":
            return [f"{row.colour}-start"]
        if row.kind == "number":
            return [f"{row.colour}-{row.value}"]
        return [blind_card_name(blind_before[index] + k) for k in range(row.count)]
    return names


def blind_card_name(index: int) -> str:
    """The component of the blind card `index` (from 0): "blind", then "blind-2", "blind-3", ...,
    so that the rulebook's [blind] drawing is there whatever the number of blind cards.

    >>> [blind_card_name(i) for i in range(4)]
    ['blind', 'blind-2', 'blind-3', 'blind-4']
    """
    return "blind" if index == 0 else f"blind-{index + 1}"


def _corner(canvas: Canvas, d: Definition, geometry: CardGeometry, regions: dict[str, Region], suit: str, value: str | None) -> None:
    """The corner index: the value (if any) over a small suit symbol, at both ends as the layout says."""
    colour = d.colours[suit]
    ink = ink_and_paper(d)[0]
    if value is not None:
        region = regions["corner_value"]
        at_both_ends(canvas, region, geometry.width, geometry.height,
                     lambda: draw_text(canvas, region, value, region_colour(d, region, colour.hex), d))
    symbol = regions["corner_symbol"]
    at_both_ends(canvas, symbol, geometry.width, geometry.height,
                 lambda: draw_region_symbol(canvas, symbol, colour.symbol, region_colour(d, symbol, colour.hex), ink))


def _face_base(canvas: Canvas, d: Definition, geometry: CardGeometry, regions: dict[str, Region], suit: str, value: str | None) -> None:
    colour = d.colours[suit]
    paint_frame(canvas, geometry, colour.hex, ink_and_paper(d)[1], geometry.safe)
    _corner(canvas, d, geometry, regions, suit, value)
    label = regions["label"]
    draw_text(canvas, label, word(colour.label), region_colour(d, label, colour.hex), d)


def _start_drawer(d: Definition, geometry: CardGeometry, suit: str) -> Drawing:
    regions = card_regions(d, "start")

    def draw(canvas: Canvas) -> None:
        colour = d.colours[suit]
        ink = ink_and_paper(d)[0]
        _face_base(canvas, d, geometry, regions, suit, None)
        art, steps = regions["art"], regions["steps"]
        draw_region_symbol(canvas, art, colour.symbol, region_colour(d, art, colour.hex), ink)
        low, high = d.rules.start_steps
        draw_text(canvas, steps, f"{low}–{high}", region_colour(d, steps, colour.hex), d)
    return draw


def _number_drawer(d: Definition, geometry: CardGeometry, suit: str, value: int) -> Drawing:
    regions = card_regions(d, "number")

    def draw(canvas: Canvas) -> None:
        colour = d.colours[suit]
        _face_base(canvas, d, geometry, regions, suit, str(value))
        big, art = regions["value"], regions["art"]
        draw_text(canvas, big, str(value), region_colour(d, big, colour.hex), d)
        draw_region_symbol(canvas, art, colour.symbol, region_colour(d, art, colour.hex), ink_and_paper(d)[0])
    return draw


def _blind_drawer(d: Definition, geometry: CardGeometry, back: Drawing) -> Drawing:
    """The blind card, on both faces: the common back with a mark a face-down card lacks - a
    paper band across the middle naming it, with a ring in two corners - so that nobody has to
    remember which card is blind."""
    regions = card_regions(d, "blind")

    def draw(canvas: Canvas) -> None:
        back(canvas)
        ink = ink_and_paper(d)[0]
        band, title, corner = regions["band"], regions["title"], regions["corner"]
        canvas.rect(*band.box, fill=region_colour(d, band), stroke=ink, width=0.5)
        draw_text(canvas, title, word("blind card").upper(), region_colour(d, title), d)

        def ring() -> None:
            cx, cy = corner.centre
            r = corner.side / 2
            canvas.circle(cx, cy, r, fill=region_colour(d, corner), stroke=ink, width=0.5)
            canvas.circle(cx, cy, r * 0.45, stroke=ink, width=0.8)
        at_both_ends(canvas, corner, geometry.width, geometry.height, ring)
    return draw


def _back_drawer(d: Definition, geometry: CardGeometry) -> Drawing:
    """The common back: the back colour to the bleed, a small grid of the board, the name."""
    regions = card_regions(d, "back")

    def draw(canvas: Canvas) -> None:
        back = d.colours[d.print.back_colour].hex
        paper = ink_and_paper(d)[1]
        paint_bleed(canvas, geometry, back)
        canvas.rect(geometry.safe, geometry.safe, geometry.width - 2 * geometry.safe,
                    geometry.height - 2 * geometry.safe, stroke=paper, width=0.5, radius=geometry.corner_radius)
        art, title = regions["art"], regions["title"]
        lines = region_colour(d, art, background=back)
        rows, columns = d.board.rows, d.board.columns
        cell = min(art.width / columns, art.height / rows)
        cx, cy = art.centre
        left = cx - cell * columns / 2
        top = cy - cell * rows / 2
        for row in range(rows):
            for column in range(columns):
                middle = row == rows // 2 and column == columns // 2
                canvas.rect(left + column * cell + cell * 0.08, top + row * cell + cell * 0.08,
                            cell * 0.84, cell * 0.84, fill=lines if middle else None, stroke=lines, width=0.4)
        draw_text(canvas, title, d.game.name, region_colour(d, title, background=back), d)
    return draw


def print_files(d: Definition, options: PrintOptions) -> list[PrintFile]:
    """Blockd's print files for one paper and layout: the card deck, the pawns, and the deck one
    face per page (front, back, front, ...) with TrimBox and BleedBox for print-on-demand shops.

    :raises BoardlabError: when a card does not fit the paper.
    """
    from boardlab.layouts.terms import language
    from boardlab.printkit.rulebook.quickref import quick_reference_lines

    conventions = print_conventions()
    cards = blockd_cards(d)
    deck, single = deck_files(d, options, cards, conventions)
    ink = ink_and_paper(d)[0]
    pawns = [StandeeArt(d.colours[suit].hex, d.colours[suit].symbol, d.colours[suit].label, piece_image(d, "standees", "pawn"))
             for suit in d.cards.suits]
    pawn_components = tuple(standee_component(f"pawn-{suit}", d.print.pawn, art, ink=ink)
                            for suit, art in zip(d.cards.suits, pawns))
    # the pawns go in the card sheets' empty slots when they fit there, else on a sheet of their own
    paper = paper_size(conventions, options.paper)
    [deck], pawn_pages = share_free_space([deck], [standee_section(pawns, d.print.pawn, ink=ink, gap=d.print.piece_gap)],
                                          paper, conventions, gap=d.print.piece_gap)
    if not pawn_pages:
        title = term("blockd.deck_and_pawns", deck=deck.title, n=len(pawns))
        files = [replace(deck, title=title, subject=deck.subject.replace(deck.title, title, 1),
                         components=deck.components + pawn_components), single]
    else:
        files = [deck, footed_file(f"{d.game.id}-pawns-{options.paper}",
                                   term("blockd.pawns_file", game=d.game.name, n=len(pawns)), pawn_pages, pawn_components,
                                   conventions, label=footer_label(d), ink=ink, unit="sheet",
                                   notes=(word("cut on solid lines, fold on dashed lines"),)), single]
    geometry = card_geometry(d.print, conventions)
    values = ", ".join(str(v) for v in d.cards.values)
    pieces = [term("blockd.cards", n=len(cards), width=geometry.width, height=geometry.height, values=values,
                   blind=plural("blockd.blind", d.cards.blind)),
              term("blockd.pawns", n=len(pawns))]
    cover = cover_file(f"{d.game.id}-cover-{file_suffix(options)}", game=d.game.name, version=d.game.version,
                       files=files, pieces=pieces, extras=[tools(), word("a glue stick for the pawns")], options=options,
                       conventions=conventions, ink=ink, variant=d.variant,
                       summary=quick_reference_lines(d, language()))
    return [cover, *files]


def table_art(definition: Definition, game: BlockdGame) -> BlockdTable:
    """The table `boardlab play` draws with this module's art (printkit.table)."""
    from boardlab.printkit.games.blockd_table import BlockdTable

    return BlockdTable(definition, game)


def tts_box(definition: Definition) -> TtsBox:
    """Blockd on Tabletop Simulator's table (printkit.tts): the deck and a pawn per suit."""
    from boardlab.printkit.table import token_component
    from boardlab.printkit.tts import TtsBox, TtsDeck, TtsPiece

    geometry = card_geometry(definition.print, print_conventions())
    ink = ink_and_paper(definition)[0]
    pawns = [TtsPiece(token_component(f"pawn-{suit}", geometry.width * 0.45, definition.colours[suit].hex,
                                      definition.colours[suit].symbol, ink, piece_image(definition, "standees", "pawn")))
             for suit in definition.cards.suits]
    return TtsBox(decks=[TtsDeck("cards", blockd_cards(definition), geometry.width, geometry.height)], tokens=pawns)


def setup_drawing(definition: Definition) -> SetupDrawing:
    """The rulebook's setup example (`printkit.rulebook.setups`): a dealt grid (the engine's deal
    for `EXAMPLE_SEED`), every player's pawn on its start card."""
    from random import Random

    from boardlab.analysis.blockd.engine import make_game, random_deal
    from boardlab.printkit.rulebook.setups import CARD_GAP, EXAMPLE_SEED, pawn

    geometry = card_geometry(definition.print, print_conventions())
    cards = blockd_cards(definition)
    game = make_game(definition, definition.game.max_players)
    card_ids = random_deal(game, Random(EXAMPLE_SEED))
    rows, columns = definition.board.rows, definition.board.columns
    step_x, step_y = geometry.width + CARD_GAP, geometry.height + CARD_GAP
    ink = ink_and_paper(definition)[0]
    starts = {game.start_card(seat): definition.colours[suit]
              for seat, suit in enumerate(definition.cards.suits[:definition.game.max_players])}

    def draw(canvas: Canvas) -> None:
        for cell, card_id in enumerate(card_ids):
            row, column = divmod(cell, columns)
            x, y = column * step_x, row * step_y
            with canvas.clip(x, y, geometry.width, geometry.height, geometry.corner_radius):
                with canvas.transform(dx=x, dy=y):
                    cards[card_id].front(canvas)
            canvas.rect(x, y, geometry.width, geometry.height, stroke=ink, width=0.5, radius=geometry.corner_radius)
            if card_id in starts:
                pawn(canvas, x + geometry.width / 2, y + geometry.height * 0.42, geometry.width * 0.7, starts[card_id],
                     ink)
    return draw, columns * step_x - CARD_GAP, rows * step_y - CARD_GAP


def _path_of(grid: Grid, start: int, end: int, entered: int) -> list[int]:
    """The cells of a walk from `start` to `end` entering exactly the cells of `entered`, in order
    (a search over that handful of cells)."""
    from boardlab.analysis.blockd.walks import neighbours

    steps = neighbours(grid)
    want = bin(entered).count("1")

    def walk(path: list[int]) -> list[int] | None:
        if len(path) - 1 == want:
            return path if path[-1] == end else None
        for n in steps[path[-1]]:
            if entered >> n & 1 and n not in path:
                found = walk(path + [n])
                if found:
                    return found
        return None
    return walk([start]) or [start, end]


def example_move(definition: Definition) -> tuple[BlockdGame, BlockdState, Move, list[int]] | None:
    """The worked example's position and move: (game, state, move, path), or None when the deal
    leaves no move to show - the engine's deal of
    `EXAMPLE_SEED`, one turn of every player (each the middle one of its legal moves), then the
    next player's middle move without a restore and the cells of one walk it takes."""
    from random import Random

    from boardlab.analysis.blockd.engine import make_game, random_deal
    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED

    game = make_game(definition, definition.game.max_players)
    for warm_up in (game.players, 0):  # a round first; on a board too small for that, the first move
        state = game.new_initial_state()
        state.apply(random_deal(game, Random(EXAMPLE_SEED)))
        for _ in range(warm_up):
            if state.is_terminal() or not state.legal_moves():
                break
            moves = state.legal_moves()
            state.apply(moves[len(moves) // 2])
        if state.is_terminal():
            continue
        seat = state.current_player()
        moves = [m for m in state.legal_moves() if m.restore < 0]
        if not moves:
            continue
        move = moves[len(moves) // 2]
        start = state.pawns[seat]
        blocked = state.blocked | (state.pawn_mask(seat) if definition.rules.pawns == "block" else 0)
        deal = state.deal
        assert deal is not None  # dealt above
        entered = next((mask for mask, end in deal.walks[start] if end == move.to and not mask & blocked), None)
        if entered is not None:
            return game, state, move, _path_of(game.grid, start, move.to, entered)
    return None


def worked_example(definition: Definition) -> WorkedExample | None:
    """The rulebook's worked example (`::: example`): a move with its path in a real position -
    the engine's deal of `EXAMPLE_SEED` (the setup drawing's), one turn of every player (each the
    middle one of its legal moves), then the next move (`example_move`).  Returns
    (draw, width, height, caption): the grid as it lies then (face-down cards show their back),
    the pawns, the path step by step (a step across a wrapping edge leaves one side and enters
    the other) and a ring on the card where it ends."""
    from boardlab.printkit.rulebook.setups import CARD_GAP, pawn

    geometry = card_geometry(definition.print, print_conventions())
    cards = blockd_cards(definition)
    found = example_move(definition)
    if found is None:  # no move to show (a board too small for one)
        return None
    game, state, move, path = found
    seat, deal, start = state.current_player(), state.deal, path[0]
    assert deal is not None  # example_move deals first
    rows, columns = definition.board.rows, definition.board.columns
    step_x, step_y = geometry.width + CARD_GAP, geometry.height + CARD_GAP
    ink = ink_and_paper(definition)[0]
    suits = definition.cards.suits

    def centre(cell: int) -> Point:
        row, column = divmod(cell, columns)
        return column * step_x + geometry.width / 2, row * step_y + geometry.height / 2

    def draw(canvas: Canvas) -> None:
        for cell, card_id in enumerate(deal.card_ids):
            row, column = divmod(cell, columns)
            x, y = column * step_x, row * step_y
            face = cards[card_id].back if state.down >> cell & 1 else cards[card_id].front
            with canvas.clip(x, y, geometry.width, geometry.height, geometry.corner_radius):
                with canvas.transform(dx=x, dy=y):
                    face(canvas)
            canvas.rect(x, y, geometry.width, geometry.height, stroke=ink, width=0.5, radius=geometry.corner_radius)
        for s, cell in enumerate(state.pawns):
            if cell >= 0:
                cx, cy = centre(cell)
                pawn(canvas, cx, cy - geometry.height * 0.08, geometry.width * 0.6, definition.colours[suits[s]], ink)
        for a, b in zip(path, path[1:]):
            (ax, ay), (bx, by) = centre(a), centre(b)
            (ra, ca), (rb, cb) = divmod(a, columns), divmod(b, columns)
            if abs(ra - rb) + abs(ca - cb) == 1:
                canvas.line(ax, ay, bx, by, stroke=ink, width=1.6)
            else:  # across a wrapping edge: out of one side, in at the other
                dx = (1 if cb < ca else -1) * step_x / 2 if ra == rb else 0
                dy = (1 if rb < ra else -1) * step_y / 2 if ca == cb else 0
                canvas.line(ax, ay, ax + dx, ay + dy, stroke=ink, width=1.6, dash=(1.5, 1.0))
                canvas.line(bx - dx, by - dy, bx, by, stroke=ink, width=1.6, dash=(1.5, 1.0))
        ex, ey = centre(move.to)
        canvas.circle(ex, ey, geometry.width * 0.36, stroke=ink, width=1.6)

    card = game.cards[deal.card_ids[start]]
    target = game.cards[deal.card_ids[move.to]]
    colour = word(definition.colours[suits[seat]].label)
    ends_on = term("blockd.card", colour=word(definition.colours[suits[target.suit]].label), value=target.value)
    caption = term("blockd.example", player=colour, value=card.value, steps=len(path) - 1, end=ends_on)
    return draw, columns * step_x - CARD_GAP, rows * step_y - CARD_GAP, caption


def aid_symbols(definition: Definition) -> list[tuple[str, str]]:
    """The player aid's row of symbols: each colour's symbol, as on its cards and pawn, with the
    colour's name (so a black-and-white print still tells the colours apart)."""
    return [(definition.colours[suit].symbol, word(definition.colours[suit].label)) for suit in definition.cards.suits]

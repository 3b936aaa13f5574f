"""Links' print files: every card of the deck in the definition, and the common back.

A game card is split like a domino: each half is filled with its end's colour and shows the
end's points large and the colour's symbol on a paper badge (so ends are told apart in
greyscale); the lower half is turned so each end reads from its own side.  The central card
points to every side a line may start from (`rules.lines`), empty cards are blank inside a
dashed frame, and master cards carry their name and value (and their ends, when the rules
make masters match like game cards).  All of it is read from the definition.

>>> from boardlab.layouts import load
>>> files = print_files(load("links"), PrintOptions("a4", "long", "duplex"))
>>> [(f.name, len(f.pages)) for f in files]
[('links-cover-a4', 2), ('links-cards-a4', 12), ('links-cards-single', 92)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from contextlib import nullcontext

from boardlab.layouts import print_conventions
from boardlab.layouts.faces import Region
from boardlab.layouts.links import CardRow, Definition, End, Master
from boardlab.layouts.terms import plural, term, word
from boardlab.printkit.cardart import half_turned, paint_bleed
from boardlab.printkit.draw import Canvas, Drawing
from boardlab.printkit.faces import at_both_ends, card_regions, draw_region_symbol, draw_text, region_colour
from boardlab.printkit.cover import cover_file, tools
from boardlab.printkit.decks import Card, deck_files, file_suffix
from boardlab.printkit.imposition import CardGeometry, card_geometry
from boardlab.printkit.pages import PrintFile, PrintOptions
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.pictures import dress_cards, row_images, to_bleed
from boardlab.printkit.symbols import draw_symbol

if TYPE_CHECKING:
    from boardlab.analysis.links.engine import LinksGame
    from boardlab.analysis.links.table import Move
    from boardlab.printkit.games.links_table import LinksTable
    from boardlab.printkit.rulebook.setups import SetupDrawing, WorkedExample
    from boardlab.printkit.tts import TtsBox


def end_name(end: End) -> str:
    """A card end as a component-name part, e.g. "red1"."""
    return f"{end.colour}{end.points}"


def links_cards(d: Definition) -> list[Card]:
    """Every card of the deck: game cards (copies included), the central card, the empty cards
    and the master cards, in that order.

    >>> from boardlab.layouts import load
    >>> cards = links_cards(load("links"))
    >>> len(cards), cards[0].name, cards[36].name, cards[-1].name
    (46, 'red1-red1', 'central', 'master-four')
    """
    geometry = card_geometry(d.print, print_conventions())
    back = _back_drawer(d, geometry)
    cards: list[Card] = []
    for first, second in d.deck.game_cards:
        cards.append(Card(f"{end_name(first)}-{end_name(second)}", _game_card_drawer(d, geometry, first, second), back,
                          kind="game"))
    for index in range(d.deck.central):
        cards.append(Card("central" if d.deck.central == 1 else f"central-{index + 1}",
                          _central_drawer(d, geometry), back, kind="central"))
    empty = _empty_drawer(d, geometry)
    for _ in range(d.deck.empty):
        cards.append(Card("empty", empty, back, kind="empty"))
    for master in d.deck.masters:
        for _ in range(master.count):
            cards.append(Card(f"master-{master.name.lower()}", _master_drawer(d, geometry, master), back, kind="master"))
    return dress_cards(d, cards, geometry, row_images(d, "deck", _row_card_names))


def _row_card_names(index: int, row: CardRow) -> list[str]:
    """The names of the cards one card-list row makes (a game card's ends in either order)."""
    from boardlab.layouts.links import parse_ends

    if row.kind == "game":
        ends = parse_ends(row.ends)
        return [f"{end_name(ends[0])}-{end_name(ends[1])}", f"{end_name(ends[1])}-{end_name(ends[0])}"] if ends else []
    if row.kind == "master":
        return [f"master-{row.text.lower()}"]
    return [row.kind] if row.kind == "empty" else ["central"]


def _draw_end(canvas: Canvas, d: Definition, regions: dict[str, Region], end: End) -> None:
    """One end in the upper half of the card: points, the colour's symbol on a paper badge, its name."""
    colour = d.colours[end.colour]
    ink = ink_and_paper(d)[0]
    value, badge, symbol, label = regions["value"], regions["badge"], regions["symbol"], regions["label"]
    draw_text(canvas, value, str(end.points), region_colour(d, value, colour.hex, colour.hex), d)
    bx, by = badge.centre
    canvas.circle(bx, by, badge.side / 2, fill=region_colour(d, badge, colour.hex, colour.hex), stroke=ink, width=0.4)
    draw_region_symbol(canvas, symbol, colour.symbol, region_colour(d, symbol, colour.hex, colour.hex), ink)
    draw_text(canvas, label, word(colour.label), region_colour(d, label, colour.hex, colour.hex), d)


def _game_card_drawer(d: Definition, geometry: CardGeometry, first: End, second: End) -> Drawing:
    regions = card_regions(d, "game")

    def draw(canvas: Canvas) -> None:
        half = geometry.height / 2
        b = geometry.bleed
        for end, flip in ((first, False), (second, True)):
            with half_turned(canvas, geometry) if flip else nullcontext():
                canvas.rect(-b, -b, geometry.width + 2 * b, half + b, fill=d.colours[end.colour].hex)
                _draw_end(canvas, d, regions, end)
        canvas.line(-b, half, geometry.width + b, half, stroke=ink_and_paper(d)[0], width=0.8)
        inset = geometry.safe / 2
        canvas.rect(inset, inset, geometry.width - 2 * inset, geometry.height - 2 * inset, stroke=ink_and_paper(d)[1],
                    width=0.6, radius=max(geometry.corner_radius - inset, 0.0))
    return draw


def _arrow(canvas: Canvas, length: float, width: float, fill: str) -> None:
    """An arrow from the origin pointing up (y negative), `length` long."""
    head = width * 2.2
    canvas.polygon([(-width / 2, 0), (width / 2, 0), (width / 2, -length + head), (head / 2, -length + head),
                    (0, -length), (-head / 2, -length + head), (-width / 2, -length + head)], fill=fill)


def _central_drawer(d: Definition, geometry: CardGeometry) -> Drawing:
    art = card_regions(d, "central")["art"]

    def draw(canvas: Canvas) -> None:
        ink, paper = ink_and_paper(d)
        paint_bleed(canvas, geometry, paper)
        cx, cy = art.centre
        lines = region_colour(d, art, background=paper)
        reach = {0: art.height / 2, 90: art.width / 2, 180: art.height / 2, 270: art.width / 2}
        for side in range(d.rules.lines):
            angle = 90 * side
            with canvas.transform(cx, cy, rotate=angle):
                _arrow(canvas, reach[angle] - geometry.safe - 1.0, art.width * 0.06, lines)
        canvas.circle(cx, cy, art.width * 0.16, fill=paper, stroke=lines, width=1.2)
        canvas.circle(cx, cy, art.width * 0.07, fill=lines)
    return draw


def _empty_drawer(d: Definition, geometry: CardGeometry) -> Drawing:
    art = card_regions(d, "empty")["art"]

    def draw(canvas: Canvas) -> None:
        ink, paper = ink_and_paper(d)
        paint_bleed(canvas, geometry, paper)
        s = geometry.safe + 1.0
        canvas.rect(s, s, geometry.width - 2 * s, geometry.height - 2 * s, stroke=ink, width=0.6,
                    radius=geometry.corner_radius, dash=(3.0, 2.0))
        cx, cy = art.centre
        lines = region_colour(d, art, background=paper)
        draw_symbol(canvas, "ring", cx, cy, art.width * 0.3, fill=lines)
        canvas.line(cx - art.width * 0.19, cy + art.width * 0.19, cx + art.width * 0.19,
                    cy - art.width * 0.19, stroke=lines, width=art.width * 0.04)
    return draw


def _master_drawer(d: Definition, geometry: CardGeometry, master: Master) -> Drawing:
    regions = card_regions(d, "master")

    def draw(canvas: Canvas) -> None:
        ink, paper = ink_and_paper(d)
        paint_bleed(canvas, geometry, ink)
        below = 0.0  # the corner value sits under the end bands when there are some
        if d.rules.master_links == "match":
            band, value, badge, symbol = (regions[name] for name in ("end_band", "end_value", "end_badge", "end_symbol"))
            below = band.y + band.height
            for end, flip in ((master.ends[0], False), (master.ends[1], True)):
                colour = d.colours[end.colour]
                with half_turned(canvas, geometry) if flip else nullcontext():
                    canvas.rect(*to_bleed(band.box, geometry.width, geometry.height, geometry.bleed), fill=colour.hex)
                    draw_text(canvas, value, str(end.points), region_colour(d, value, colour.hex, colour.hex), d)
                    bx, by = badge.centre
                    canvas.circle(bx, by, badge.side / 2, fill=region_colour(d, badge, colour.hex, colour.hex),
                                  stroke=ink, width=0.4)
                    draw_region_symbol(canvas, symbol, colour.symbol, region_colour(d, symbol, colour.hex, colour.hex),
                                       ink)
        art, title, corner = regions["art"], regions["title"], regions["corner_value"]
        draw_region_symbol(canvas, art, "star", region_colour(d, art, background=ink))
        draw_text(canvas, title, word(master.name), region_colour(d, title, background=ink), d)
        with canvas.transform(0, below):
            at_both_ends(canvas, corner, geometry.width, geometry.height - 2 * below,
                         lambda: draw_text(canvas, corner, str(master.value), region_colour(d, corner, background=ink), d))
    return draw


def _back_drawer(d: Definition, geometry: CardGeometry) -> Drawing:
    """The common back: back colour to the bleed, two linked rings and the game's name."""
    regions = card_regions(d, "back")

    def draw(canvas: Canvas) -> None:
        back, paper = d.colours[d.print.back_colour].hex, ink_and_paper(d)[1]
        paint_bleed(canvas, geometry, back)
        canvas.rect(geometry.safe, geometry.safe, geometry.width - 2 * geometry.safe,
                    geometry.height - 2 * geometry.safe, stroke=paper, width=0.5, radius=geometry.corner_radius)
        art, title = regions["art"], regions["title"]
        r = art.height / 2
        cx, cy = art.centre
        rings = region_colour(d, art, background=back)
        canvas.circle(cx - r * 0.6, cy, r, stroke=rings, width=r * 0.3125)
        canvas.circle(cx + r * 0.6, cy, r, stroke=rings, width=r * 0.3125)
        draw_text(canvas, title, d.game.name, region_colour(d, title, background=back), d)
    return draw


def print_files(d: Definition, options: PrintOptions) -> list[PrintFile]:
    """Links' print files for one paper and layout: the whole deck on sheets, and one face per
    page (front, back, front, ...) with TrimBox and BleedBox for print-on-demand shops.

    :raises BoardlabError: when a card does not fit the paper.
    """
    from boardlab.layouts.terms import language
    from boardlab.printkit.rulebook.quickref import quick_reference_lines

    conventions = print_conventions()
    deck, single = deck_files(d, options, links_cards(d), conventions)
    geometry = card_geometry(d.print, conventions)
    masters = sum(m.count for m in d.deck.masters)
    pieces = [term("links.pieces", n=len(links_cards(d)), width=geometry.width, height=geometry.height,
                   game_cards=len(d.deck.game_cards), central=d.deck.central, empty=d.deck.empty, masters=masters)]
    cover = cover_file(f"{d.game.id}-cover-{file_suffix(options)}", game=d.game.name, version=d.game.version,
                       files=[deck, single], pieces=pieces, extras=[tools()], options=options, conventions=conventions,
                       ink=ink_and_paper(d)[0], variant=d.variant,
                       summary=quick_reference_lines(d, language()))
    return [cover, deck, single]


def table_art(definition: Definition, game: LinksGame) -> LinksTable:
    """The table `boardlab play` draws with this module's art (printkit.table)."""
    from boardlab.printkit.games.links_table import LinksTable

    return LinksTable(definition, game)


def tts_box(definition: Definition) -> TtsBox:
    """Links on Tabletop Simulator's table (printkit.tts): the whole deck, copies included."""
    from boardlab.printkit.tts import TtsBox, TtsDeck

    geometry = card_geometry(definition.print, print_conventions())
    return TtsBox(decks=[TtsDeck("cards", links_cards(definition), geometry.width, geometry.height)])


def _example_chain(definition: Definition, length: int, start: int) -> list[tuple[str, bool]]:
    """`length` game cards that link end to end: (card name, turned) from the line's root outwards."""
    faces = definition.deck.faces
    names = {f"{end_name(a)}-{end_name(b)}" for a, b in definition.deck.game_cards}
    chain: list[tuple[str, bool]] = []
    exposed = faces[start % len(faces)]
    for k in range(length):
        nxt = faces[(start + k + 1) % len(faces)]
        # a card's first end is drawn at the top; a line growing upwards shows its outer end on top
        if f"{end_name(nxt)}-{end_name(exposed)}" in names:
            chain.append((f"{end_name(nxt)}-{end_name(exposed)}", False))
        elif f"{end_name(exposed)}-{end_name(nxt)}" in names:
            chain.append((f"{end_name(exposed)}-{end_name(nxt)}", True))
        else:
            break
        exposed = nxt
    return chain


#: the setup drawing grows at most this many lines from the central card
SETUP_LINES = 3


def setup_lines(definition: Definition) -> int:
    """How many lines the setup drawing shows."""
    return min(definition.rules.lines, SETUP_LINES)


def setup_caption(definition: Definition) -> str:
    """What the setup drawing shows: a table in play, not the start of a game."""
    return plural("links.setup", setup_lines(definition))


def setup_drawing(definition: Definition) -> SetupDrawing:
    """The rulebook's setup example (`printkit.rulebook.setups`): the central card with a line
    grown from some of its sides, each card linking to the last."""
    from boardlab.printkit.rulebook.setups import CARD_GAP

    geometry = card_geometry(definition.print, print_conventions())
    cards = {card.name: card for card in links_cards(definition)}
    central = next(card for card in links_cards(definition) if card.name.startswith("central"))
    ink = ink_and_paper(definition)[0]
    w, h = geometry.width, geometry.height
    reach = 2  # cards per line in the example
    lines = [_example_chain(definition, reach - (k % 2), 2 * k) for k in range(setup_lines(definition))]
    size = w / 2 + h * reach + CARD_GAP * reach + h / 2
    centre = size

    def place(canvas: Canvas, card: Card, cx: float, cy: float, angle: float) -> None:
        with canvas.transform(dx=cx, dy=cy, rotate=angle):
            with canvas.clip(-w / 2, -h / 2, w, h, geometry.corner_radius):
                with canvas.transform(dx=-w / 2, dy=-h / 2):
                    card.front(canvas)
            canvas.rect(-w / 2, -h / 2, w, h, stroke=ink, width=0.5, radius=geometry.corner_radius)

    def draw(canvas: Canvas) -> None:
        place(canvas, central, centre, centre, 0)
        # lines leave the central card upwards, to the right and downwards (then to the left)
        directions = [(0, -1, 0), (1, 0, 90), (0, 1, 180), (-1, 0, 270)]
        for (dx, dy, angle), chain in zip(directions, lines):
            first = (h / 2 if dy else w / 2) + CARD_GAP + h / 2
            for k, (name, turned) in enumerate(chain):
                distance = first + k * (h + CARD_GAP)
                place(canvas, cards[name], centre + dx * distance, centre + dy * distance, angle + (180 if turned else 0))
    return draw, 2 * size, 2 * size


def example_capture(definition: Definition) -> tuple[LinksGame, int, Move, tuple[list[tuple[int, int]], int, int], int] | None:
    """The worked example's capture: (game, seat, move, (line cards, run start, count) before the
    move, cards captured), or None when the game ends without one - the engine's deal of
    `EXAMPLE_SEED` for the fewest players, every turn a legal move drawn by a generator of the
    same seed, up to the first capture."""
    import random

    from boardlab.analysis.links.engine import make_game
    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED

    game = make_game(definition, definition.game.min_players)
    rng = random.Random(EXAMPLE_SEED)
    state = game.new_initial_state()
    state.apply(state.sample_chance(rng))
    while not state.is_terminal():
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        seat = state.current_player()
        before = None if move.is_pass else (list(state.lines[move.line].cards), state.lines[move.line].run_start,
                                            state.lines[move.line].count)
        captured = len(state.captured[seat])
        state.apply(move)
        if before is not None and len(state.captured[seat]) > captured:
            return game, seat, move, before, len(state.captured[seat]) - captured
    return None


def worked_example(definition: Definition) -> WorkedExample | None:
    """The rulebook's worked example (`::: example`): the first capture of a real game - the
    engine's deal of `EXAMPLE_SEED` for the fewest players, every turn a legal move drawn by a
    generator of the same seed - drawn as the central card and the line the capture is made on,
    the cards laid end to end (touching ends face each other), the counted run framed and the
    capturing card ringed.  Returns (draw, width, height, caption), or None when no capture
    comes within the game."""
    from boardlab.analysis.links.cards import EMPTY, GAME, WILD
    from boardlab.printkit.rulebook.setups import CARD_GAP

    found = example_capture(definition)
    if found is None:
        return None
    game, seat, move, (cards, run_start, count), taken = found
    deck = game.deck
    geometry = card_geometry(definition.print, print_conventions())
    ink, paper = ink_and_paper(definition)
    faces = definition.deck.faces

    def card_drawer(kind: int, exposes: int) -> Drawing:
        k = deck.kinds[kind]
        if k.category == EMPTY:
            return _empty_drawer(definition, geometry)
        if k.category != GAME:
            return _master_drawer(definition, geometry, definition.deck.masters[k.master])
        if exposes == WILD or k.ends is None:
            top, bottom = k.ends or (0, 0)
        else:
            top, bottom = (k.ends[0], k.ends[1]) if exposes == k.ends[1] else (k.ends[1], k.ends[0])
        return _game_card_drawer(definition, geometry, faces[top], faces[bottom])

    laid = [(_central_drawer(definition, geometry), False)] + [(card_drawer(c, e), False) for c, e in cards]
    laid.append((card_drawer(move.kind, move.exposes), True))
    step = geometry.height + CARD_GAP  # cards lie across the line: a card's length along it
    width, height = len(laid) * step - CARD_GAP, geometry.width

    def draw(canvas: Canvas) -> None:
        for i, (face, capturing) in enumerate(laid):
            x = i * step
            # turned a quarter: the card's top end (the one touching the card before) faces left
            with canvas.transform(dx=x, dy=height, rotate=-90):
                with canvas.clip(0, 0, geometry.width, geometry.height, geometry.corner_radius):
                    face(canvas)
                canvas.rect(0, 0, geometry.width, geometry.height, stroke=ink, width=0.6, radius=geometry.corner_radius)
            if capturing:  # a ring that reads on a dark card and on a light one
                canvas.circle(x + geometry.height / 2, height / 2, geometry.width * 0.45, stroke=paper, width=3.2)
                canvas.circle(x + geometry.height / 2, height / 2, geometry.width * 0.45, stroke=ink, width=1.4)
        if taken:
            first = 1 + run_start
            canvas.rect(first * step - CARD_GAP / 2, -CARD_GAP / 2, (len(laid) - 1 - first) * step, height + CARD_GAP,
                        stroke=ink, width=1.2, dash=(3.0, 2.0))

    how = (term("links.example.count", capture=definition.rules.capture_count)
           if deck.kinds[move.kind].category == GAME else
           term("links.example.master", master=word(definition.deck.masters[deck.kinds[move.kind].master].name),
                value=deck.kinds[move.kind].value))
    caption = term("links.example", players=game.players, seat=seat + 1, count=count, how=how,
                   taken=plural("links.example.taken", taken))
    return draw, width, height, caption

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

from boardlab.layouts import print_conventions
from boardlab.layouts.terms import plural, term, word
from boardlab.printkit.cardart import centred_text, fitted_size, half_turned, paint_bleed
from boardlab.printkit.draw import Canvas
from boardlab.printkit.cover import cover_file, tools
from boardlab.printkit.decks import Card, deck_files, file_suffix
from boardlab.printkit.imposition import CardGeometry, card_geometry
from boardlab.printkit.pages import PrintFile, PrintOptions
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.pictures import dress_cards, row_images
from boardlab.printkit.symbols import draw_symbol


def end_name(end) -> str:
    """A card end as a component-name part, e.g. "red1"."""
    return f"{end.colour}{end.points}"


def links_cards(d) -> list[Card]:
    """Every card of the deck: game cards (copies included), the central card, the empty cards
    and the master cards, in that order.

    >>> from boardlab.layouts import load
    >>> cards = links_cards(load("links"))
    >>> len(cards), cards[0].name, cards[36].name, cards[-1].name
    (46, 'red1-red1', 'central', 'master-four')
    """
    geometry = card_geometry(d.print, print_conventions())
    back = _back_drawer(d, geometry)
    cards = []
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


def _row_card_names(index: int, row) -> list[str]:
    """The names of the cards one card-list row makes (a game card's ends in either order)."""
    from boardlab.layouts.links import parse_ends

    if row.kind == "game":
        ends = parse_ends(row.ends)
        return [f"{end_name(ends[0])}-{end_name(ends[1])}", f"{end_name(ends[1])}-{end_name(ends[0])}"] if ends else []
    if row.kind == "master":
        return [f"master-{row.text.lower()}"]
    return [row.kind] if row.kind == "empty" else ["central"]


def _draw_end(canvas: Canvas, d, geometry: CardGeometry, end, top: float, height: float) -> None:
    """One end in the band [top, top + height] of the card: points and the colour's symbol badge."""
    colour = d.colours[end.colour]
    text_ink = contrast_ink(colour.hex)
    middle = top + height / 2
    points = str(end.points)
    size = fitted_size(points, 64.0, geometry.width * 0.38, bold=True)
    centred_text(canvas, geometry.width * 0.32, middle, points, size, text_ink, bold=True)
    badge = min(geometry.width * 0.17, height * 0.3)
    canvas.circle(geometry.width * 0.70, middle - badge * 0.25, badge, fill=ink_and_paper(d)[1], stroke=ink_and_paper(d)[0], width=0.4)
    draw_symbol(canvas, colour.symbol, geometry.width * 0.70, middle - badge * 0.25, badge * 1.25,
                fill=colour.hex, stroke=ink_and_paper(d)[0])
    label = word(colour.label)
    label_size = fitted_size(label, 9.0, geometry.width * 0.4)
    canvas.text(geometry.width * 0.70, middle + badge * 0.75 + 3.5, label, size=label_size, fill=text_ink,
                anchor="middle")


def _game_card_drawer(d, geometry: CardGeometry, first, second):
    def draw(canvas: Canvas) -> None:
        half = geometry.height / 2
        b = geometry.bleed
        for end, flip in ((first, False), (second, True)):
            if flip:
                with half_turned(canvas, geometry):
                    canvas.rect(-b, -b, geometry.width + 2 * b, half + b, fill=d.colours[end.colour].hex)
                    _draw_end(canvas, d, geometry, end, geometry.safe, half - geometry.safe)
            else:
                canvas.rect(-b, -b, geometry.width + 2 * b, half + b, fill=d.colours[end.colour].hex)
                _draw_end(canvas, d, geometry, end, geometry.safe, half - geometry.safe)
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


def _central_drawer(d, geometry: CardGeometry):
    def draw(canvas: Canvas) -> None:
        paint_bleed(canvas, geometry, ink_and_paper(d)[1])
        cx, cy = geometry.width / 2, geometry.height / 2
        ink = ink_and_paper(d)[0]
        reach = {0: cy, 90: cx, 180: cy, 270: cx}
        for side in range(d.rules.lines):
            angle = 90 * side
            with canvas.transform(cx, cy, rotate=angle):
                _arrow(canvas, reach[angle] - geometry.safe - 1.0, geometry.width * 0.06, ink)
        canvas.circle(cx, cy, geometry.width * 0.16, fill=ink_and_paper(d)[1], stroke=ink, width=1.2)
        canvas.circle(cx, cy, geometry.width * 0.07, fill=ink)
    return draw


def _empty_drawer(d, geometry: CardGeometry):
    def draw(canvas: Canvas) -> None:
        paint_bleed(canvas, geometry, ink_and_paper(d)[1])
        s = geometry.safe + 1.0
        canvas.rect(s, s, geometry.width - 2 * s, geometry.height - 2 * s, stroke=ink_and_paper(d)[0], width=0.6,
                    radius=geometry.corner_radius, dash=(3.0, 2.0))
        cx, cy = geometry.width / 2, geometry.height / 2
        draw_symbol(canvas, "ring", cx, cy, geometry.width * 0.3, fill=ink_and_paper(d)[0])
        canvas.line(cx - geometry.width * 0.19, cy + geometry.width * 0.19, cx + geometry.width * 0.19,
                    cy - geometry.width * 0.19, stroke=ink_and_paper(d)[0], width=geometry.width * 0.04)
    return draw


def _master_drawer(d, geometry: CardGeometry, master):
    def draw(canvas: Canvas) -> None:
        ink, paper = ink_and_paper(d)
        paint_bleed(canvas, geometry, ink)
        band = 0.0
        if d.rules.master_links == "match":
            band = geometry.height * 0.2
            b = geometry.bleed
            for end, flip in ((master.ends[0], False), (master.ends[1], True)):
                def end_band(end=end):
                    canvas.rect(-b, -b, geometry.width + 2 * b, band + b, fill=d.colours[end.colour].hex)
                    colour = d.colours[end.colour]
                    centred_text(canvas, geometry.width * 0.35, band / 2 + 1, str(end.points), 26.0,
                                 contrast_ink(colour.hex), bold=True)
                    canvas.circle(geometry.width * 0.65, band / 2 + 1, band * 0.36, fill=paper, stroke=ink, width=0.4)
                    draw_symbol(canvas, colour.symbol, geometry.width * 0.65, band / 2 + 1, band * 0.45,
                                fill=colour.hex, stroke=ink)
                if flip:
                    with half_turned(canvas, geometry):
                        end_band()
                else:
                    end_band()
        cx, cy = geometry.width / 2, geometry.height / 2
        draw_symbol(canvas, "star", cx, cy - geometry.height * 0.12, geometry.width * 0.34, fill=paper)
        name = word(master.name)
        size = fitted_size(name, 34.0, geometry.width - 2 * geometry.safe - 4, bold=True)
        centred_text(canvas, cx, cy + geometry.height * 0.1, name, size, paper, bold=True)
        for corner in (False, True):
            def index():
                centred_text(canvas, geometry.safe + 5, geometry.safe + band + 6, str(master.value), 20.0, paper,
                             bold=True)
            if corner:
                with half_turned(canvas, geometry):
                    index()
            else:
                index()
    return draw


def _back_drawer(d, geometry: CardGeometry):
    """The common back: back colour to the bleed, two linked rings and the game's name."""
    def draw(canvas: Canvas) -> None:
        back, paper = d.colours[d.print.back_colour].hex, ink_and_paper(d)[1]
        paint_bleed(canvas, geometry, back)
        canvas.rect(geometry.safe, geometry.safe, geometry.width - 2 * geometry.safe,
                    geometry.height - 2 * geometry.safe, stroke=paper, width=0.5, radius=geometry.corner_radius)
        r = geometry.width * 0.16
        cx, cy = geometry.width / 2, geometry.height * 0.42
        canvas.circle(cx - r * 0.6, cy, r, stroke=paper, width=geometry.width * 0.05)
        canvas.circle(cx + r * 0.6, cy, r, stroke=paper, width=geometry.width * 0.05)
        size = fitted_size(d.game.name, 24.0, geometry.width - 2 * geometry.safe - 8, bold=True)
        centred_text(canvas, cx, geometry.height * 0.72, d.game.name, size, paper, bold=True)
    return draw


def print_files(d, options: PrintOptions) -> list[PrintFile]:
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


def table_art(definition, game):
    """The table `boardlab play` draws with this module's art (printkit.table)."""
    from boardlab.printkit.games.links_table import LinksTable

    return LinksTable(definition, game)


def tts_box(definition):
    """Links on Tabletop Simulator's table (printkit.tts): the whole deck, copies included."""
    from boardlab.printkit.tts import TtsBox, TtsDeck

    geometry = card_geometry(definition.print, print_conventions())
    return TtsBox(decks=[TtsDeck("cards", links_cards(definition), geometry.width, geometry.height)])


def _example_chain(definition, length: int, start: int):
    """`length` game cards that link end to end: (card name, turned) from the line's root outwards."""
    faces = definition.deck.faces
    names = {f"{end_name(a)}-{end_name(b)}" for a, b in definition.deck.game_cards}
    chain, exposed = [], faces[start % len(faces)]
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


def setup_lines(definition) -> int:
    """How many lines the setup drawing shows."""
    return min(definition.rules.lines, SETUP_LINES)


def setup_caption(definition) -> str:
    """What the setup drawing shows: a table in play, not the start of a game."""
    return plural("links.setup", setup_lines(definition))


def setup_drawing(definition):
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

    def place(canvas: Canvas, card, cx: float, cy: float, angle: float) -> None:
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


def example_capture(definition):
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


def worked_example(definition):
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

    def card_drawer(kind: int, exposes: int):
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

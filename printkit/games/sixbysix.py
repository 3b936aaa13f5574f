"""6x6 on paper: the numbered board, six player cards, six marker standees and the chips.

Everything comes from the definition: the board's rows (`board.layout`), the square size
(`print.board_square`), the die faces (`dice.faces`), the seat colours with their symbols
(`components.seats`, `colours`), the chip count, size and shape, the marker's size.
A player card is a row of boxes as large as the board's squares, one per die face, so an
eliminated player's card covers exactly one row of the board, as the rules ask.

>>> from boardlab.layouts import load
>>> from boardlab.printkit.pages import PrintOptions
>>> files = print_files(load("sixbysix"), PrintOptions("a4", "long", "duplex"))
>>> [f.name for f in files]
['sixbysix-cover-a4', 'sixbysix-board-a4', 'sixbysix-cards-a4', 'sixbysix-pieces-a4', 'sixbysix-cards-single']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from dataclasses import replace
from functools import partial
from itertools import product

from boardlab.layouts import print_conventions
from boardlab.layouts.sixbysix import Definition
from boardlab.layouts.terms import plural, term, word
from boardlab.printkit.dice import draw_die_face
from boardlab.printkit.draw import Canvas
from boardlab.printkit.faces import card_regions, draw_region_symbol, draw_text, region_colour
from boardlab.printkit.cover import cover_file, tools
from boardlab.printkit.decks import Card, SheetStyle, card_sheet_file, file_suffix, single_card_file
from boardlab.printkit.imposition import CardGeometry, sheet_gutter
from boardlab.printkit.marks import footed_file, footer_label
from boardlab.printkit.packing import paper_size, share_free_space
from boardlab.printkit.pages import Component, PrintFile, PrintOptions
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.pictures import dress_cards, dressed, piece_image
from boardlab.printkit.standees import StandeeArt, standee_component, standee_section
from boardlab.printkit.tiling import board_files
from boardlab.printkit.tokens import TokenArt, draw_token, token_section
from boardlab.printkit.units import MM_PER_POINT

if TYPE_CHECKING:
    from boardlab.analysis.sixbysix.engine import SixBySixGame
    from boardlab.printkit.games.sixbysix_table import SixBySixTable
    from boardlab.printkit.rulebook.setups import SetupDrawing, WorkedExample
    from boardlab.printkit.tts import TtsBox, TtsPiece

LINE = 0.35  # mm: the board's grid lines


def board_size(definition: Definition) -> tuple[float, float]:
    """(width, height) of the board in mm: the grid of `board.layout` in squares of `print.board_square`.

    >>> from boardlab.layouts import load
    >>> board_size(load("sixbysix"))
    (192.0, 192.0)
    """
    cells = definition.board.cells
    side = definition.print.board_square
    return len(cells[0]) * side, len(cells) * side


def draw_board(canvas: Canvas, definition: Definition) -> None:
    """The board at (0, 0): every number of `board.layout` in its square, the base square with a die."""
    ink, paper = ink_and_paper(definition)
    side = definition.print.board_square
    width, height = board_size(definition)
    canvas.rect(0, 0, width, height, fill=paper)
    for r, row in enumerate(definition.board.cells):
        for c, token in enumerate(row):
            x, y = c * side, r * side
            canvas.rect(x, y, side, side, stroke=ink, width=LINE)
            if token == definition.board.base:
                _draw_base_square(canvas, x, y, side, definition, ink, paper)
            else:
                size = side * 0.45 / MM_PER_POINT
                canvas.text(x + side / 2, y + side / 2 + side * 0.16, token, size=size, fill=ink, anchor="middle",
                            bold=True)
    canvas.rect(0, 0, width, height, stroke=ink, width=LINE * 3)


def printed_board_size(definition: Definition) -> tuple[float, float]:
    """(width, height) of the printed board in mm: the grid and, under its last row, the bank, a
    band one square high where the bank's chips lie (outside the grid, so that no card laid over a
    row of numbers ever covers it).

    >>> from boardlab.layouts import load
    >>> printed_board_size(load("sixbysix"))
    (192.0, 224.0)
    """
    width, height = board_size(definition)
    return width, height + definition.print.board_square


def draw_printed_board(canvas: Canvas, definition: Definition) -> None:
    """The printed board at (0, 0): the grid (`draw_board`), then the bank under it, framed like the
    grid, with a dashed area for the chips and its name (`sixbysix.bank`)."""
    ink, paper = ink_and_paper(definition)
    width, grid = board_size(definition)
    band = printed_board_size(definition)[1] - grid
    canvas.rect(0, grid, width, band, fill=paper, stroke=ink, width=LINE * 3)
    draw_board(canvas, definition)
    inset = band * 0.12
    canvas.rect(inset, grid + inset, width - 2 * inset, band - 2 * inset, stroke=ink, width=LINE, dash=(2.0, 1.5),
                radius=inset)
    size = band * 0.3 / MM_PER_POINT
    canvas.text(width / 2, grid + band / 2 + band * 0.1, term("sixbysix.bank"), size=size, fill=ink, anchor="middle",
                bold=True)


def _draw_base_square(canvas: Canvas, x: float, y: float, side: float, definition: Definition, ink: str, paper: str) -> None:
    """The square where the dice are rolled: two dice showing the highest and lowest face."""
    faces = definition.dice.faces
    die = side * 0.36
    draw_die_face(canvas, x + side * 0.36, y + side * 0.36, die, max(faces), face=paper, ink=ink)
    draw_die_face(canvas, x + side * 0.64, y + side * 0.64, die, min(faces), face=paper, ink=ink)


def card_size(definition: Definition) -> tuple[float, float]:
    """(width, height) of a player card's cut box: one board square per die face, in a row."""
    side = definition.print.board_square
    return len(definition.dice.faces) * side, side


def draw_card_front(canvas: Canvas, definition: Definition, seat: str) -> None:
    """A player card in card coordinates (origin at the cut box's corner), painted out to the bleed.

    Each box shows one die face as pips on paper, framed by the player's colour, with the
    colour's symbol in its corner (for greyscale print); where, the layout's front regions say
    (written for the first box, drawn in every box).
    """
    colour = definition.colours[seat]
    ink, paper = ink_and_paper(definition)
    bleed, side, inset = definition.print.bleed, definition.print.board_square, definition.print.safe
    width, height = card_size(definition)
    regions = card_regions(definition, "front")
    box, die, symbol = regions["box"], regions["die"], regions["symbol"]
    canvas.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, fill=colour.hex)
    for k, face in enumerate(definition.dice.faces):
        x = k * side
        with canvas.transform(x, 0):
            canvas.rect(*box.box, fill=region_colour(definition, box, colour.hex), stroke=ink, width=LINE)
            draw_die_face(canvas, *die.centre, die.side, face, face=region_colour(definition, die, colour.hex), ink=ink)
            draw_region_symbol(canvas, symbol, colour.symbol, region_colour(definition, symbol, colour.hex), ink)
        if k:  # a dotted divider that stops short of the cut lines, so that it never reads as one
            canvas.line(x, inset, x, height - inset, stroke=contrast_ink(colour.hex), width=LINE, dash=(0.4, 0.8))


def draw_card_back(canvas: Canvas, definition: Definition, seat: str) -> None:
    """The back of a player card: its colour, its symbol in every box and the colour's name."""
    colour = definition.colours[seat]
    bleed, side = definition.print.bleed, definition.print.board_square
    width, height = card_size(definition)
    regions = card_regions(definition, "back")
    symbol, label = regions["symbol"], regions["label"]
    canvas.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, fill=colour.hex)
    for k in range(len(definition.dice.faces)):
        with canvas.transform(k * side, 0):
            draw_region_symbol(canvas, symbol, colour.symbol, region_colour(definition, symbol, colour.hex, colour.hex))
    draw_text(canvas, label, word(colour.label), region_colour(definition, label, colour.hex, colour.hex), definition)


def board_component(definition: Definition) -> Component:
    """The whole printed board, bank included, as one component (its SVG, and what tiling cuts up)."""
    width, height = printed_board_size(definition)
    board = Component(f"{definition.game.id}-board", width, height, lambda canvas: draw_printed_board(canvas, definition))
    return dressed(board, piece_image(definition, "boards", "board"))


def player_cards(definition: Definition) -> list[Card]:
    """The player cards, one per seat (kind "card"), with the designer's images."""
    settings, game = definition.print, definition.game.id
    geometry = CardGeometry(*card_size(definition), settings.bleed, settings.safe, settings.corner_radius)
    cards = [Card(f"{game}-card-{seat}", partial(draw_card_front, definition=definition, seat=seat),
                  partial(draw_card_back, definition=definition, seat=seat), f"{game}-card-{seat}-back", kind="card")
             for seat in definition.components.seats]
    return dress_cards(definition, cards, geometry)


def print_files(definition: Definition, options: PrintOptions) -> list[PrintFile]:
    """Every 6x6 print file for `options`: board, player cards (fronts and backs), markers and chips.

    :raises BoardlabError: for an unknown paper or a piece larger than the printable area.
    """
    from boardlab.layouts.terms import language
    from boardlab.printkit.rulebook.quickref import quick_reference_lines

    conventions = print_conventions()
    game, label = definition.game.id, definition.game.name
    footer = footer_label(definition)
    settings = definition.print
    ink, paper_colour = ink_and_paper(definition)
    paper = paper_size(conventions, options.paper)
    seats = definition.components.seats

    files = board_files(board_component(definition), conventions, game=game, label=label, footer=footer,
                        paper=options.paper, ink=ink, paper_colour=paper_colour)

    geometry = CardGeometry(*card_size(definition), settings.bleed, settings.safe, settings.corner_radius,
                            sheet_gutter(settings, conventions))
    cards = player_cards(definition)
    files.append(card_sheet_file(f"{game}-cards-{file_suffix(options)}", term("sixbysix.cards", game=label, n=len(cards)),
                                 cards, geometry, conventions, options, SheetStyle(ink, paper_colour, footer)))
    single = single_card_file(f"{game}-cards-single", term("sixbysix.cards_single", game=label), cards, geometry)

    markers = [StandeeArt(definition.colours[seat].hex, definition.colours[seat].symbol,
                          definition.colours[seat].label, piece_image(definition, "standees", "marker")) for seat in seats]
    chip_art = {seat: TokenArt(definition.colours[seat].hex, definition.colours[seat].symbol,
                               piece_image(definition, "tokens", "chip")) for seat in seats}
    chips = [chip_art[seat] for seat in seats for _ in range(definition.components.chips_per_colour)]
    marker_section = standee_section(markers, settings.marker, ink=ink, gap=settings.piece_gap)
    chip_section = token_section(chips, shape=settings.chip_shape, size=settings.chip, gap=settings.piece_gap, ink=ink)
    gap = settings.piece_gap * 2
    # each kind of piece in one file: the markers take the room the board and card sheets leave
    # when they all fit there; the chips, every colour's, are together on sheets of their own
    shared, marker_pages = share_free_space(files, [marker_section], paper, conventions, gap=gap)
    received = [i for i, (before, after) in enumerate(zip(files, shared)) if before.free != after.free]
    markers_apart = bool(marker_pages) or len(received) != 1
    if markers_apart:
        _, pages = share_free_space([], [marker_section, chip_section], paper, conventions, gap=gap)
    else:
        files = shared
        _, pages = share_free_space([], [chip_section], paper, conventions, gap=gap)
    marker_components = [standee_component(f"{game}-marker-{seat}", settings.marker, art, ink=ink)
                         for seat, art in zip(seats, markers)]
    chip_box = settings.chip + settings.piece_gap
    chip_components = [Component(f"{game}-chip-{seat}", chip_box, chip_box, partial(
        draw_token, cx=chip_box / 2, cy=chip_box / 2, shape=settings.chip_shape, size=settings.chip,
        gap=settings.piece_gap, art=chip_art[seat], ink=ink)) for seat in seats]
    if markers_apart:
        pieces_title = term("sixbysix.pieces_file", game=label, markers=len(markers), chips=len(chips))
        components = tuple(marker_components + chip_components)
    else:
        pieces_title = term("sixbysix.chips_file", game=label, chips=len(chips))
        components = tuple(chip_components)
        holder = received[0]
        files[holder] = replace(files[holder], components=files[holder].components + tuple(marker_components))
    files.append(footed_file(f"{game}-pieces-{options.paper}", pieces_title, pages, components, conventions,
                             label=footer, ink=ink))
    faces = definition.dice.faces
    rows, columns = len(definition.board.cells), len(definition.board.cells[0])
    pieces = [term("sixbysix.board", rows=rows, columns=columns, square=float(settings.board_square)),
              term("sixbysix.cards_piece", n=len(cards), boxes=len(faces)),
              term("sixbysix.markers", n=len(markers)),
              term("sixbysix.chips", n=len(chips), per=definition.components.chips_per_colour, size=float(settings.chip),
                   shape={"disc": term("sixbysix.chip.disc"), "square": term("sixbysix.chip.square")}[settings.chip_shape])]
    dice = (term("sixbysix.dice", n=len(seats)) if tuple(faces) == (1, 2, 3, 4, 5, 6) else
            term("sixbysix.dice_faces", n=len(seats), faces=", ".join(str(f) for f in faces)))
    cover = cover_file(f"{game}-cover-{file_suffix(options)}", game=label, version=definition.game.version,
                       files=[*files, single], pieces=pieces, extras=[dice, tools(), word("a glue stick for the markers")],
                       options=options, conventions=conventions, ink=ink, variant=definition.variant,
                       summary=quick_reference_lines(definition, language()))
    return [cover, *files, single]


def table_art(definition: Definition, game: SixBySixGame) -> SixBySixTable:
    """The table `boardlab play` draws with this module's art (printkit.table)."""
    from boardlab.printkit.games.sixbysix_table import SixBySixTable

    return SixBySixTable(definition, game)


def tts_box(definition: Definition) -> TtsBox:
    """6x6 on Tabletop Simulator's table (printkit.tts): the board, the player cards (tiles of
    their own long shape, each with its own back), a marker and the chips per colour, and the
    dice: standard six-sided dice in the seat colours when the die is the ordinary 1-6, else
    blocks showing the die's faces."""
    from boardlab.printkit.table import token_component
    from boardlab.printkit.tts import SIDES, TtsBlock, TtsBox, TtsDice, TtsPiece

    game, settings = definition.game.id, definition.print
    ink, paper = ink_and_paper(definition)
    seats = definition.components.seats
    width, height = card_size(definition)
    # a player card is a strip (a square per die face), not a card's shape: a tile with both sides
    cards = [TtsPiece(Component(card.name, width, height, card.front),
                      back=Component(card.back_name, width, height, card.back))
             for card in player_cards(definition)]
    markers: list[TtsPiece] = []
    chips: list[TtsPiece] = []
    for seat in seats:
        colour = definition.colours[seat]
        markers.append(TtsPiece(token_component(f"{game}-marker-{seat}", settings.board_square * 0.7, colour.hex,
                                                colour.symbol, ink, piece_image(definition, "standees", "marker")),
                                stand_up=True))
        chips.append(TtsPiece(token_component(f"{game}-chip-{seat}", settings.chip, colour.hex, colour.symbol, ink,
                                              piece_image(definition, "tokens", "chip")),
                              count=definition.components.chips_per_colour, shape="circle"))
    faces = tuple(definition.dice.faces)
    if faces == tuple(range(1, 7)):
        dice, blocks = [TtsDice("die", [definition.colours[seat].hex for seat in seats])], []
    else:  # a die of its own: a block per seat showing its faces
        edge = settings.board_square * 0.6
        sides = {side: Component(f"{game}-die-{k}", edge, edge, partial(
            draw_die_face, cx=edge / 2, cy=edge / 2, size=edge * 0.95, value=faces[k % len(faces)], face=paper, ink=ink))
            for k, side in enumerate(SIDES)}
        dice, blocks = [], [TtsBlock(f"{game}-die", sides, edge, count=len(seats))]
    return TtsBox(boards=[TtsPiece(board_component(definition))], tiles=[*cards, *chips], tokens=markers,
                  blocks=blocks, dice=dice)


def likeliest_sums(faces: Sequence[int], players: int, numbers: Iterable[int]) -> list[int]:
    """The board numbers of the `players` most probable sums of that many dice (ties: lower first).

    >>> likeliest_sums((1, 2, 3, 4, 5, 6), 2, range(2, 37))
    [7, 6]
    """
    weights: dict[int, int] = {}
    for roll in product(faces, repeat=players):
        weights[sum(roll)] = weights.get(sum(roll), 0) + 1
    ranked = sorted((n for n in numbers if n in weights), key=lambda n: (-weights[n], n))
    return ranked[:players]


def draw_covering_cards(canvas: Canvas, definition: Definition, players: int) -> None:
    """With `covering`, the cards of the colours nobody plays laid over the bottom rows their
    absence makes impossible (the setup's step), one card per row, the last row first."""
    if not definition.rules.covering:
        return
    from boardlab.analysis.sixbysix.board import allowed_numbers

    allowed = set(allowed_numbers(definition, players))
    side = definition.print.board_square
    unused = list(definition.components.seats[players:])
    width, _ = card_size(definition)
    for r in range(len(definition.board.cells) - 1, -1, -1):
        numbers = [int(t) for t in definition.board.cells[r] if t != definition.board.base]
        if not unused or not numbers or any(n in allowed for n in numbers):
            continue
        with canvas.clip(0, r * side, width, side), canvas.transform(dx=0, dy=r * side):
            draw_card_back(canvas, definition, unused.pop(0))


def setup_players(definition: Definition) -> int:
    """The number of players the setup drawing is set up for: a middling table."""
    return (definition.game.min_players + definition.game.max_players) // 2


def setup_drawing(definition: Definition) -> SetupDrawing:
    """The rulebook's setup example (`printkit.rulebook.setups`): the board as it is before the
    first round for a middling number of players, with the missing colours' cards over the rows
    their absence rules out (when cards cover rows) and the empty bank under it.  No markers: they
    are placed during a round."""
    width, height = printed_board_size(definition)

    def draw(canvas: Canvas) -> None:
        draw_printed_board(canvas, definition)
        draw_covering_cards(canvas, definition, setup_players(definition))
    return draw, width, height


def setup_caption(definition: Definition) -> str:
    """What the setup drawing shows, counted from the same definition."""
    from boardlab.analysis.sixbysix.board import allowed_numbers

    players = setup_players(definition)
    allowed = set(allowed_numbers(definition, players))
    rows = [[int(t) for t in row if t != definition.board.base] for row in definition.board.cells]
    covered = min(len(definition.components.seats) - players,
                  sum(1 for row in rows if row and not any(n in allowed for n in row)))
    if definition.rules.covering and covered:
        return plural("sixbysix.setup.covered", covered, players=players)
    return term("sixbysix.setup", players=players)


def worked_example(definition: Definition) -> WorkedExample | None:
    """The rulebook's worked example (`::: example`): one round played by the engine - a middling
    number of players, each bet and marker drawn by a seeded generator from the legal moves, each
    die from the engine's own dice - the first round from `EXAMPLE_SEED` on whose sum a marker
    stands.  Returns (draw, width, height, caption): the board with the markers, the dice in the
    players' colours under it, the bank's chips in the bank and a ring round the sum; the caption tells
    the round."""
    import random

    from boardlab.analysis.protocol import CHANCE
    from boardlab.analysis.sixbysix.engine import SixBySixGame
    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED, pawn

    players = (definition.game.min_players + definition.game.max_players) // 2
    game = SixBySixGame(definition, players)
    for seed in range(EXAMPLE_SEED, EXAMPLE_SEED + 200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        order = list(state.order)
        bets: dict[int, int] = {}
        markers: dict[int, int] = {}
        dice: dict[int, int] = {}
        held = bank = state.bank
        while state.current_player() != CHANCE:
            seat = state.current_player()
            move = rng.choice(state.legal_moves())
            bets[seat], markers[seat] = move
            state.apply(move)
        while len(dice) < len(order):
            seat = order[len(dice)]
            dice[seat] = state.sample_chance(rng)
            bank += dice[seat] != bets[seat]
            state.apply(dice[seat])
        total = sum(dice.values())
        winner = next((s for s in order if markers[s] == total), None)
        if winner is not None:
            break
    seats = definition.components.seats
    colour = {s: definition.colours[seats[s]] for s in order}
    width, height = printed_board_size(definition)
    grid = board_size(definition)[1]
    side = definition.print.board_square
    ink, paper = ink_and_paper(definition)
    places = {token: (c, r) for r, row in enumerate(definition.board.cells) for c, token in enumerate(row)}
    band = side * 1.3

    def draw(canvas: Canvas) -> None:
        draw_printed_board(canvas, definition)
        draw_covering_cards(canvas, definition, players)
        chip = side * 0.22  # the bank's chips at the moment of the sum, left of its name
        for k in range(min(bank, 8)):
            canvas.circle(side * 0.45 + k * chip * 1.25, grid + (height - grid) / 2, chip / 2, fill=paper, stroke=ink,
                          width=LINE * 2)
        for s in order:
            c, r = places[str(markers[s])]
            pawn(canvas, c * side + side * 0.86, r * side + side * 0.14, side * 0.24, colour[s], ink)
        if str(total) in places:
            c, r = places[str(total)]
            canvas.circle(c * side + side / 2, r * side + side / 2, side * 0.47, stroke=ink, width=1.4)
        die = side * 0.6
        gap = (width - die * len(order)) / (len(order) + 1)
        for k, s in enumerate(order):
            draw_die_face(canvas, gap + k * (die + gap) + die / 2, height + band / 2, die, dice[s],
                          face=colour[s].hex, ink=contrast_ink(colour[s].hex))

    moves = "; ".join(term("sixbysix.example.player", player=word(colour[s].label), bet=bets[s], number=markers[s],
                           die=dice[s]) for s in order)
    moves = moves[:1].upper() + moves[1:]
    if winner is None:  # no seed in the range put a marker on the sum: the bank stays
        caption = term("sixbysix.example.nobody", players=players, moves=moves, sum=total)
    else:
        # the bank counted once: the chips of the bets that missed, and what it already held
        counted = (plural("sixbysix.example.missed", bank) if not held else
                   term("sixbysix.example.held", bank=bank, missed=bank - held, held=held))
        caption = term("sixbysix.example", players=players, moves=moves, sum=total, winner=word(colour[winner].label),
                       bank=bank, counted=counted)
    return draw, width, height + band, caption

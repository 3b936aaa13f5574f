"""The drawn setup example of each game's rulebook, made from the print files' own art.

Each function takes a definition and returns `(draw, width, height)`: a drawing in mm for
`printkit.rulebook.figures.Figure`.  Every card, board and colour comes from the definition
and the game's print module; a Blockd example deal comes from the engine's own dealing.

- Blockd: a dealt grid (the engine's deal for `EXAMPLE_SEED`), every player's pawn on its start card;
- 6x6: the board with a marker for each of a middling number of players, on the likeliest sums;
- Links: the central card with a line grown from some of its sides, each card linking to the last;
- Deblockle: the board with every block on its start square, the rolled faces up.

>>> from boardlab.layouts import load
>>> draw, width, height = SETUPS["blockd"](load("blockd"))
>>> round(width / height, 3)
0.722
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

from boardlab.layouts import print_conventions
from boardlab.printkit.draw import Canvas
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.symbols import draw_symbol

#: the seed of the example deal and of the example's rolled faces (any fixed number will do)
EXAMPLE_SEED = 7
#: gap between neighbouring cards of an example, in mm at full size
CARD_GAP = 3.0


def _pawn(canvas: Canvas, cx: float, cy: float, size: float, colour, ink: str) -> None:
    """A pawn seen from above: a disc in the player's colour with the colour's symbol."""
    canvas.circle(cx, cy, size / 2, fill=colour.hex, stroke=ink, width=size * 0.06)
    draw_symbol(canvas, colour.symbol, cx, cy, size * 0.55, fill=contrast_ink(colour.hex))


def blockd(definition):
    from boardlab.analysis.blockd.engine import make_game, random_deal
    from boardlab.printkit.games.blockd import blockd_cards
    from boardlab.printkit.imposition import card_geometry

    geometry = card_geometry(definition.print, print_conventions())
    cards = blockd_cards(definition)
    game = make_game(definition, definition.game.max_players)
    card_ids = random_deal(game, random.Random(EXAMPLE_SEED))
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
                _pawn(canvas, x + geometry.width / 2, y + geometry.height * 0.42, geometry.width * 0.7, starts[card_id],
                      ink)
    return draw, columns * step_x - CARD_GAP, rows * step_y - CARD_GAP


def likeliest_sums(faces, players: int, numbers) -> list[int]:
    """The board numbers of the `players` most probable sums of that many dice (ties: lower first).

    >>> likeliest_sums((1, 2, 3, 4, 5, 6), 2, range(2, 37))
    [7, 6]
    """
    weights: dict[int, Fraction] = {}
    for roll in product(faces, repeat=players):
        weights[sum(roll)] = weights.get(sum(roll), 0) + 1
    ranked = sorted((n for n in numbers if n in weights), key=lambda n: (-weights[n], n))
    return ranked[:players]


def sixbysix(definition):
    from boardlab.printkit.games.sixbysix import board_size, draw_board

    width, height = board_size(definition)
    side = definition.print.board_square
    ink = ink_and_paper(definition)[0]
    players = (definition.game.min_players + definition.game.max_players) // 2
    chosen = likeliest_sums(definition.dice.faces, players, definition.board.numbers)
    places = {token: (c, r) for r, row in enumerate(definition.board.cells) for c, token in enumerate(row)}

    def draw(canvas: Canvas) -> None:
        draw_board(canvas, definition)
        for seat, number in zip(definition.components.seats, chosen):
            c, r = places[str(number)]
            _pawn(canvas, c * side + side * 0.86, r * side + side * 0.14, side * 0.24, definition.colours[seat], ink)
    return draw, width, height


def _links_chain(definition, length: int, start: int):
    """`length` game cards that link end to end: (card name, turned) from the line's root outwards."""
    from boardlab.printkit.games.links import end_name

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


def links(definition):
    from boardlab.printkit.games.links import links_cards
    from boardlab.printkit.imposition import card_geometry

    geometry = card_geometry(definition.print, print_conventions())
    cards = {card.name: card for card in links_cards(definition)}
    central = next(card for card in links_cards(definition) if card.name.startswith("central"))
    ink = ink_and_paper(definition)[0]
    w, h = geometry.width, geometry.height
    reach = 2  # cards per line in the example
    lines = [_links_chain(definition, reach - (k % 2), 2 * k) for k in range(min(definition.rules.lines, 3))]
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


def deblockle(definition):
    from boardlab.printkit.games.deblockle import board_size, draw_board, square_box

    width, height = board_size(definition)
    ink = ink_and_paper(definition)[0]
    rng = random.Random(EXAMPLE_SEED)
    names = sorted(definition.faces)

    def draw(canvas: Canvas) -> None:
        draw_board(canvas, definition)
        for player in definition.players:
            colour = definition.colours[player.colour]
            for square in player.start[:definition.rules.blocks]:
                x, y, w, h = square_box(definition, square)
                edge = definition.print.cube_edge
                left, top = x + (w - edge) / 2, y + (h - edge) / 2
                canvas.rect(left, top, edge, edge, fill=colour.hex, stroke=ink, width=0.6, radius=edge * 0.08)
                face = definition.faces[names[rng.randrange(len(names))]]
                draw_symbol(canvas, face.symbol, x + w / 2, y + h / 2, edge * 0.62, fill=contrast_ink(colour.hex))
    return draw, width, height


#: game id -> the function drawing its setup example
SETUPS = {"blockd": blockd, "sixbysix": sixbysix, "links": links, "deblockle": deblockle}

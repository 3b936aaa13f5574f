"""Deblockle on paper: the board (tiled where the paper is too small) and the cube nets.

Everything comes from the definition: files and ranks (`board`), the two home stars and the
start squares (`players`), the square size, cube edge and glue tab (`print`), the colours,
and the face on each side of the cube (`cube`, `faces[...].symbol`).

>>> from boardlab.layouts import load
>>> from boardlab.printkit.pages import PrintOptions
>>> files = print_files(load("deblockle"), PrintOptions("a4", "long", "duplex"))
>>> [(f.name, len(f.pages)) for f in files]
[('deblockle-cover-a4', 2), ('deblockle-board-a4', 2), ('deblockle-board-a3', 1), ('deblockle-cubes-a4', 2)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import math

from boardlab.layouts import print_conventions
from boardlab.layouts.deblockle import CUBE_SIDES, Definition
from boardlab.layouts.rulebook_facts import LIST_AND
from boardlab.layouts.terms import language, term, word
from boardlab.printkit.cover import cover_file, tools
from boardlab.printkit.decks import file_suffix
from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.faces import card_regions, region_colour
from boardlab.printkit.nets import net_component, net_pages
from boardlab.printkit.marks import footed_file, footer_label
from boardlab.printkit.packing import paper_size
from boardlab.printkit.pages import Component, PrintFile, PrintOptions
from boardlab.printkit.palette import contrast_ink, ink_and_paper
from boardlab.printkit.pictures import dressed, piece_image
from boardlab.printkit.symbols import draw_symbol
from boardlab.printkit.tiling import BoardGrid, board_files
from boardlab.printkit.units import MM_PER_POINT

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.engine import DeblockleGame
    from boardlab.printkit.games.deblockle_table import DeblockleTable
    from boardlab.printkit.rulebook.setups import SetupDrawing, WorkedExample
    from boardlab.printkit.tts import TtsBlock, TtsBox

LINE = 0.35  # mm: the board's grid lines
START_DASH = (1.2, 0.9)  # mm: the light outline of a start square


def border(definition: Definition) -> float:
    """Width in mm of the band round the grid that holds the file and rank labels: half a square."""
    return definition.print.board_square / 2


def board_size(definition: Definition) -> tuple[float, float]:
    """(width, height) of the board in mm: files x ranks squares plus the label band on each side.

    >>> from boardlab.layouts import load
    >>> board_size(load("deblockle"))
    (256.0, 256.0)
    """
    side, band = definition.print.board_square, border(definition)
    return definition.board.files * side + 2 * band, definition.board.ranks * side + 2 * band


def square_box(definition: Definition, name: str) -> tuple[float, float, float, float]:
    """(x, y, width, height) in board mm of an algebraic square; rank 1 is at the bottom.

    >>> from boardlab.layouts import load
    >>> square_box(load("deblockle"), "a1")
    (16.0, 208.0, 32.0, 32.0)
    """
    found = definition.board.square(name)
    assert found is not None, f"{name} is not a square of the board"  # names come from the checked definition
    x, y = found
    side, band = definition.print.board_square, border(definition)
    return band + (x - 1) * side, band + (definition.board.ranks - y) * side, side, side


def board_grid(definition: Definition) -> BoardGrid:
    """The lines between the squares (where a tile seam may run) and the playing area, in board mm.

    >>> from boardlab.layouts import load
    >>> grid = board_grid(load("deblockle"))
    >>> grid.xs[:3], grid.play_area
    ((16.0, 48.0, 80.0), (16.0, 16.0, 224.0, 224.0))
    """
    side, band = definition.print.board_square, border(definition)
    files, ranks = definition.board.files, definition.board.ranks
    return BoardGrid(tuple(band + k * side for k in range(files + 1)), tuple(band + k * side for k in range(ranks + 1)),
                     (band, band, files * side, ranks * side))


def draw_board(canvas: Canvas, definition: Definition) -> None:
    """The board at (0, 0): squares, the two home stars, lightly marked start squares, labels."""
    colours = definition.colours
    settings = definition.print
    ink, paper = ink_and_paper(definition)
    board, star = colours[settings.board_colour].hex, colours[settings.star_colour].hex
    side, band = settings.board_square, border(definition)
    files, ranks = definition.board.files, definition.board.ranks
    width, height = board_size(definition)
    canvas.rect(0, 0, width, height, fill=paper)
    canvas.rect(band, band, files * side, ranks * side, fill=board)
    for player in definition.players:
        x, y, w, h = square_box(definition, player.home_star)
        canvas.rect(x, y, w, h, fill=star)
        # the star in its owner's colour (the opponent scores here), on a paper halo so that a dark
        # star stays visible on the dark square in greyscale print
        draw_symbol(canvas, "star", x + w / 2, y + h / 2, side * 0.98, fill=paper)
        draw_symbol(canvas, "star", x + w / 2, y + h / 2, side * 0.72, fill=colours[player.colour].hex, stroke=ink)
    for player, count in zip(definition.players, definition.rules.counts):
        colour = colours[player.colour]
        for square in player.start[:count]:
            x, y, w, h = square_box(definition, square)
            inset = side * 0.1
            canvas.rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, stroke=colour.hex, width=LINE * 2,
                        dash=START_DASH)
            mark = side * 0.16
            draw_symbol(canvas, colour.symbol, x + inset + mark * 0.8, y + inset + mark * 0.8, mark,
                        fill=colour.hex, stroke=ink)
    for i in range(files + 1):
        canvas.line(band + i * side, band, band + i * side, band + ranks * side, stroke=ink, width=LINE)
    for j in range(ranks + 1):
        canvas.line(band, band + j * side, band + files * side, band + j * side, stroke=ink, width=LINE)
    canvas.rect(band, band, files * side, ranks * side, stroke=ink, width=LINE * 3)
    size = band * 0.5 / MM_PER_POINT
    lift = band * 0.18  # from the centre of the band to the text baseline
    for i in range(files):
        letter = chr(ord("a") + i)
        cx = band + (i + 0.5) * side
        canvas.text(cx, band / 2 + lift, letter, size=size, fill=ink, anchor="middle", bold=True)
        canvas.text(cx, height - band / 2 + lift, letter, size=size, fill=ink, anchor="middle", bold=True)
    for j in range(ranks):
        number = str(ranks - j)
        cy = band + (j + 0.5) * side + lift
        canvas.text(band / 2, cy, number, size=size, fill=ink, anchor="middle", bold=True)
        canvas.text(width - band / 2, cy, number, size=size, fill=ink, anchor="middle", bold=True)


def cube_faces(definition: Definition) -> dict[str, str]:
    """The symbol on each side of a cube (top, bottom, north, east, south, west), from `cube` and `faces`.

    >>> from boardlab.layouts import load
    >>> cube_faces(load("deblockle"))["north"]
    'cross'
    """
    return {side: definition.faces[getattr(definition.cube, side)].symbol for side in CUBE_SIDES}


def net_components(definition: Definition) -> list[Component]:
    """One net per block: each player's rules.blocks (a pair for a handicap), in the player's colour."""
    settings = definition.print
    ink = ink_and_paper(definition)[0]
    faces = cube_faces(definition)
    symbol = card_regions(definition, "cube")["symbol"]  # where a face's symbol goes (layouts/faces/deblockle.toml)
    nets = []
    for player, blocks in zip(definition.players, definition.rules.counts):
        colour = definition.colours[player.colour]
        for k in range(blocks):
            nets.append(net_component(f"{definition.game.id}-cube-{player.colour}-{k + 1}", edge=settings.cube_edge,
                                      tab=settings.glue_tab, faces=faces, colour=colour.hex, ink=ink,
                                      caption=f"{word(colour.label)}\n{term('nets.block', k=k + 1, n=blocks)}",
                                      symbol_box=symbol.box,
                                      symbol_fill=region_colour(definition, symbol, colour.hex, colour.hex)))
    return nets


def per_player(definition: Definition) -> str:
    """How many cubes each player has, for the cover: "4 per player", or "4 gold, 3 blue"."""
    counts = definition.rules.counts
    if counts[0] == counts[1]:
        return term("deblockle.per_player", n=counts[0])
    return ", ".join(f"{n} {word(definition.colours[p.colour].label)}" for p, n in zip(definition.players, counts))


def board_component(definition: Definition) -> Component:
    """The board as one component (its SVG, what tiling cuts up), with the designer's image."""
    board = Component(f"{definition.game.id}-board", *board_size(definition), lambda canvas: draw_board(canvas, definition))
    return dressed(board, piece_image(definition, "boards", "board"))


def print_files(definition: Definition, options: PrintOptions) -> list[PrintFile]:
    """Every Deblockle print file for `options`: the board (tiled, plus a one-page poster) and the cube nets.

    :raises BoardlabError: for an unknown paper or a piece larger than the printable area.
    """
    from boardlab.layouts.terms import language
    from boardlab.printkit.rulebook.quickref import quick_reference_lines

    conventions = print_conventions()
    label = definition.game.name
    board = board_component(definition)
    footer = footer_label(definition)
    ink, paper_colour = ink_and_paper(definition)
    files = board_files(board, conventions, game=definition.game.id, label=label, footer=footer,
                        paper=options.paper, ink=ink, paper_colour=paper_colour, grid=board_grid(definition))
    nets = net_components(definition)
    pages = net_pages(nets, paper_size(conventions, options.paper), conventions, gap=definition.print.net_gap)
    files.append(footed_file(f"{definition.game.id}-cubes-{options.paper}",
                             term("deblockle.nets_file", game=label, n=len(nets), edge=float(definition.print.cube_edge)),
                             pages, nets,
                             conventions, label=footer, ink=ink))
    board_d = definition.board
    pieces = [term("deblockle.board", files=board_d.files, ranks=board_d.ranks, square=float(definition.print.board_square),
                   paper=options.paper, poster=conventions.sheet.poster_paper),
              term("deblockle.cubes", n=len(nets), per=per_player(definition), edge=float(definition.print.cube_edge))]
    cover = cover_file(f"{definition.game.id}-cover-{file_suffix(options)}", game=label,
                       version=definition.game.version, files=files, pieces=pieces,
                       extras=[tools(cards=False), word("glue for the cubes and the board tiles; a blunt knife to score the folds")],
                       options=options, conventions=conventions, ink=ink, variant=definition.variant,
                       summary=quick_reference_lines(definition, language()))
    return [cover, *files]


def table_art(definition: Definition, game: DeblockleGame) -> DeblockleTable:
    """The table `boardlab play` draws with this module's art (printkit.table)."""
    from boardlab.printkit.games.deblockle_table import DeblockleTable

    return DeblockleTable(definition, game)


def tts_box(definition: Definition) -> TtsBox:
    """Deblockle on Tabletop Simulator's table (printkit.tts): the board and each player's
    blocks, cubes with the definition's face on each side."""
    from boardlab.printkit.games.deblockle_table import face_component
    from boardlab.printkit.tts import SIDES, TtsBlock, TtsBox, TtsPiece

    board = board_component(definition)
    blocks: list[TtsBlock] = []
    for player, count in zip(definition.players, definition.rules.counts):
        faces = {side: face_component(definition, player.colour, getattr(definition.cube, side)) for side in SIDES}
        blocks.append(TtsBlock(f"{definition.game.id}-block-{player.colour}", faces, definition.print.cube_edge,
                               count=count))
    return TtsBox(boards=[TtsPiece(board)], blocks=blocks)


def figure_components(definition: Definition) -> list[Component]:
    """The rulebook's symbol legend: each face of a block, as the nets print it in player 1's colour."""
    from boardlab.printkit.games.deblockle_table import face_component

    colour = definition.players[0].colour
    return [face_component(definition, colour, face) for face in definition.faces]


def setup_drawing(definition: Definition) -> SetupDrawing:
    """The rulebook's setup example (`printkit.rulebook.setups`): the board with every block on its
    start square, the rolled faces up."""
    from random import Random

    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED

    width, height = board_size(definition)
    ink = ink_and_paper(definition)[0]
    rng = Random(EXAMPLE_SEED)
    names = sorted(definition.faces)

    def draw(canvas: Canvas) -> None:
        draw_board(canvas, definition)
        for player, count in zip(definition.players, definition.rules.counts):
            colour = definition.colours[player.colour]
            for square in player.start[:count]:
                x, y, w, h = square_box(definition, square)
                edge = definition.print.cube_edge
                left, top = x + (w - edge) / 2, y + (h - edge) / 2
                canvas.rect(left, top, edge, edge, fill=colour.hex, stroke=ink, width=0.6, radius=edge * 0.08)
                face = definition.faces[names[rng.randrange(len(names))]]
                draw_symbol(canvas, face.symbol, x + w / 2, y + h / 2, edge * 0.62, fill=contrast_ink(colour.hex))
    return draw, width, height


def _arrow(canvas: Canvas, start: Point, end: Point, *, colour: str, width: float,
           dash: Sequence[float] | None = None) -> None:
    """A straight arrow from `start` to `end` (mm), its head at `end`."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = width * 4.5
    bx, by = x2 - ux * head, y2 - uy * head
    canvas.line(x1, y1, bx, by, stroke=colour, width=width, dash=dash)
    canvas.polygon([(x2, y2), (bx - uy * head * 0.5, by + ux * head * 0.5), (bx + uy * head * 0.5, by - ux * head * 0.5)],
                   fill=colour)


def hop_route(game: DeblockleGame, kind: str, start: int, end: int, occupied: int, avoid: int = -1) -> list[int]:
    """The squares a hop of `kind` steps on from `start` to `end` (both included), for drawing it:
    a slide's squares along its line, a Hoops hop's `rules.hoops_steps` single orthogonal steps
    (the first such route in N E S W order that visits no square twice and not `avoid`, where
    the drawing has another arrow; else the first that visits none twice; else the first), one
    step for the others.  `occupied` holds every block but the hopping one; `end` is one of
    the engine's own `hop_ends`, so a route always exists.

    >>> from boardlab.analysis.deblockle.engine import make_game
    >>> from boardlab.layouts import load
    >>> game = make_game(load("deblockle"))
    >>> b = game.board
    >>> [b.name(c) for c in hop_route(game, "hoops", b.cell("c2"), b.cell("a1"), 0)]
    ['c2', 'c1', 'b1', 'a1']
    >>> [b.name(c) for c in hop_route(game, "hoops", b.cell("c2"), b.cell("a1"), 0, avoid=b.cell("c1"))]
    ['c2', 'b2', 'b1', 'a1']
    >>> [b.name(c) for c in hop_route(game, "slide", b.cell("d1"), b.cell("g1"), 0)]
    ['d1', 'e1', 'f1', 'g1']
    """
    board = game.board
    if kind == "slide":
        for ray in board.rays[start]:
            if end in ray:
                return [start, *ray[:ray.index(end) + 1]]
    if kind != "hoops":
        return [start] if end == start else [start, end]
    routes: list[list[int]] = [[start]]
    for _ in range(game.rules.hoops_steps):
        routes = [route + [n] for route in routes for n in board.neighbour[route[-1]]
                  if n >= 0 and not occupied >> n & 1]
    arriving = [route for route in routes if route[-1] == end]
    if not arriving:
        raise ValueError(f"no Hoops route from {board.name(start)} to {board.name(end)}")
    simple = [route for route in arriving if len(set(route)) == len(route)]
    clear = [route for route in simple if avoid not in route]
    return (clear or simple or arriving)[0]


def listed(names: list[str]) -> str:
    """Names as a list in the language being written ("b2 and a2", "b2, c2 y a2")."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + LIST_AND.get(language(), " and ") + names[-1]


def worked_example(definition: Definition) -> WorkedExample | None:
    """The rulebook's worked example (`::: example`): a tip and a hop in a real position - the
    engine's own setup of `EXAMPLE_SEED` and the first of its legal moves whose hop leaves the
    tipped-onto square.  Returns (draw, width, height, caption): the board before the move, a
    dashed arrow for the tip, a solid one for the hop and a ring where the block ends; the caption
    says the move in the language being written.  None when the setup leaves no move."""
    from random import Random

    from boardlab.analysis.deblockle.engine import SCORED, make_game
    from boardlab.printkit.rulebook.setups import EXAMPLE_SEED

    game = make_game(definition)
    state = game.new_initial_state()
    state.apply(state.sample_chance(Random(EXAMPLE_SEED)))
    board, cube = game.board, game.cube
    moves = state.legal_moves()
    if state.is_terminal() or not moves:  # no move to show (a board too small for one)
        return None
    move = next((m for m in moves if m.to != SCORED and m.to != board.neighbour[m.frm][m.tip]), moves[0])
    seat = state.current_player()
    onto = board.neighbour[move.frm][move.tip]
    turned = cube.tips[state.orientation[move.frm]][move.tip]
    width, height = board_size(definition)
    ink = ink_and_paper(definition)[0]
    edge = definition.print.cube_edge
    kind = game.hop[turned]
    route = ([] if move.to == SCORED else
             hop_route(game, kind, onto, move.to, state.occupied & ~(1 << move.frm), avoid=move.frm))
    if kind == "slide":  # a slide is drawn as one straight arrow
        route = route[:1] + route[-1:]
    steps = [board.name(cell) for cell in route[1:-1]]

    def centre(cell: int) -> Point:
        x, y, w, h = square_box(definition, board.name(cell))
        return x + w / 2, y + h / 2

    def draw(canvas: Canvas) -> None:
        draw_board(canvas, definition)
        for s in range(2):
            colour = definition.colours[definition.players[s].colour]
            for cell, orientation in state.blocks(s):
                cx, cy = centre(cell)
                canvas.rect(cx - edge / 2, cy - edge / 2, edge, edge, fill=colour.hex, stroke=ink, width=0.6,
                            radius=edge * 0.08)
                face = definition.faces[cube.top(orientation)]
                draw_symbol(canvas, face.symbol, cx, cy, edge * 0.62, fill=contrast_ink(colour.hex))
        ring = definition.colours[definition.players[seat].colour].hex
        if move.to != SCORED:
            tx, ty = centre(move.to)
            canvas.circle(tx, ty, edge * 0.55, stroke=ink, width=1.6)
            canvas.circle(tx, ty, edge * 0.55, stroke=ring, width=0.8)
        _arrow(canvas, centre(move.frm), centre(onto), colour=ink, width=1.2, dash=(2.0, 1.5))
        if len(route) > 1:  # the hop as it is made: one segment a step (a slide is one straight line)
            points = [centre(cell) for cell in route]
            for a, b in zip(points[:-2], points[1:-1]):
                canvas.line(a[0], a[1], b[0], b[1], stroke=ink, width=1.4)
                canvas.circle(b[0], b[1], 1.0, fill=ink)
            _arrow(canvas, points[-2], points[-1], colour=ink, width=1.4)

    directions = {0: term("deblockle.direction.up"), 1: term("deblockle.direction.right"),
                  2: term("deblockle.direction.down"), 3: term("deblockle.direction.left")}
    caption = term("deblockle.example", player=word(definition.colours[definition.players[seat].colour].label),
                   start=board.name(move.frm), direction=directions[move.tip], onto=board.name(onto),
                   face=word(cube.top(turned)), end=board.name(move.to),
                   via=term("deblockle.example.via", n=len(route) - 1, squares=listed(steps)) if steps else "")
    return draw, width, height, caption


def aid_symbols(definition: Definition) -> list[tuple[str, str]]:
    """The player aid's row of symbols: each cube face as players see it, with its name in the
    language being written (`printkit.rulebook.aid`)."""
    return [(face.symbol, word(name)) for name, face in definition.faces.items()]

"""Deblockle's definition: board, star squares, the cube and the rule options; rules: layouts/rulebooks/deblockle.en.md."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from boardlab.layouts.common import SYMBOLS, Analysis, GameDefinition, PrintSettings, check_colour_ref
from boardlab.layouts.schema import Report, limits

SQUARE = re.compile(r"^([a-z])([1-9][0-9]?)$")
CUBE_SIDES = ("top", "bottom", "north", "east", "south", "west")
OPPOSITE = {"top": "bottom", "north": "south", "east": "west"}


@dataclass(frozen=True)
class Board:
    files: int = field(metadata=limits(min=3, max=26))
    ranks: int = field(metadata=limits(min=3, max=26))

    def square(self, name: str) -> tuple[int, int] | None:
        """(x, y), 1-based, of an algebraic square name, or None when it is not on the board.

        >>> Board(7, 7).square("d2"), Board(7, 7).square("h1")
        ((4, 2), None)
        """
        m = SQUARE.match(name)
        if not m:
            return None
        x, y = ord(m.group(1)) - ord("a") + 1, int(m.group(2))
        return (x, y) if 1 <= x <= self.files and 1 <= y <= self.ranks else None


@dataclass(frozen=True)
class Face:
    symbol: str  # vector art the printkit draws
    hop: Literal["score", "none", "orthogonal", "diagonal", "slide", "hoops"]  # how a block with this face up moves


@dataclass(frozen=True)
class Cube:
    """The cube's layout: the face on each side with the Star-bearing side up."""

    top: str  # the face on top (a name from [faces])
    bottom: str  # the face underneath
    north: str  # the face towards the far edge of the board
    east: str  # the face towards the right
    south: str  # the face towards the near edge
    west: str  # the face towards the left


@dataclass(frozen=True)
class Player:
    colour: str  # the player's colour, a name from [colours]
    home_star: str  # the player's own star square; the opponent scores there
    start: tuple[str, ...] = field(metadata=limits(min=1))  # start squares, in the order blocks are used


@dataclass(frozen=True)
class Rules:
    # blocks per player: one number for both, or a pair [player 1, player 2] (a handicap)
    blocks: int | tuple[int, int] = field(metadata=limits(min=1, max=4))
    no_touching: bool
    hopless_tip: Literal["illegal", "ends_turn"]
    hoops_steps: int = field(metadata=limits(min=1, max=6))
    setup: Literal["random", "adversarial"]
    max_turns: int = field(metadata=limits(min=1, max=100000))
    # points the source leaves open (each an Interpretations entry of the rulebooks)
    first: int = field(default=1, metadata=limits(min=1, max=2))  # the player who moves first
    both_blocked: Literal["fewer_blocks", "draw"] = "fewer_blocks"  # neither can move: fewer blocks left wins | draw
    slider_stop: Literal["before_star", "next_to_star"] = "before_star"  # where a slide may stop short of its end

    @property
    def counts(self) -> tuple[int, int]:
        """Blocks of player 1 and of player 2.

        >>> Rules(4, False, "illegal", 3, "random", 300).counts, Rules((4, 3), False, "illegal", 3, "random", 300).counts
        ((4, 4), (4, 3))
        """
        if isinstance(self.blocks, int):
            return self.blocks, self.blocks
        first, second = self.blocks
        return first, second

    @property
    def handicap(self) -> bool:
        """Whether the players start with different numbers of blocks."""
        return self.counts[0] != self.counts[1]


@dataclass(frozen=True)
class DeblocklePrint(PrintSettings):
    """The shared print settings plus Deblockle's board and cube sizes (millimetres)."""

    board_square: float = field(metadata=limits(min=15, max=80))  # must hold a cube with room to lift it
    cube_edge: float = field(metadata=limits(min=10, max=60))  # edge of a folded cube
    glue_tab: float = field(metadata=limits(min=3, max=20))  # depth of a cube net's glue tabs
    net_gap: float = field(metadata=limits(min=0, max=20))  # space between cube nets on a sheet
    board_colour: str  # a colour name: the board's squares
    star_colour: str  # a colour name: the star squares


#: the names `[art]` may give images to (layouts/art.py): the board
ART_NAMES = {"cards": (), "boards": ("board",), "tokens": (), "standees": ()}


#: the faces the print module lays out from `[layout]` (layouts/faces/deblockle.toml): kind -> its regions
FACE_REGIONS = {
    "cube": ("art", "symbol"),
}


def face_frame(d: "Definition", kind: str) -> tuple[float, float, float] | None:
    """(width, height, bleed) in mm of a cube face: one edge square, no bleed (the net's faces meet)."""
    edge = d.print.cube_edge
    return edge, edge, 0.0


@dataclass(frozen=True)
class Definition(GameDefinition):
    board: Board
    faces: dict[str, Face]
    cube: Cube
    players: tuple[Player, ...]
    rules: Rules
    print: DeblocklePrint
    analysis: Analysis = field(default_factory=Analysis)


def check(d: Definition, report: Report) -> None:
    """Cross-field checks: a cube shows each face once, squares are on the board and distinct."""
    for name, face in d.faces.items():
        if face.symbol not in SYMBOLS:
            report(("faces", name, "symbol"), f'unknown symbol "{face.symbol}"', ", ".join(sorted(SYMBOLS)))
    if len(d.faces) != 6:
        report(("faces",), f"{len(d.faces)} faces defined", "exactly six, one per cube side")
    scoring = [n for n, f in d.faces.items() if f.hop == "score"]
    if len(scoring) != 1:
        report(("faces",), f"{len(scoring)} faces with hop = \"score\"", "exactly one (the Star)")
    seen: dict[str, str] = {}
    for side in CUBE_SIDES:
        name = getattr(d.cube, side)
        if name not in d.faces:
            report(("cube", side), f'unknown face "{name}"', "faces defined: " + ", ".join(d.faces))
        elif name in seen:
            report(("cube", side), f'face "{name}" repeats the {seen[name]} side', "each face on exactly one side")
        else:
            seen[name] = side
    for name in d.faces:
        if name not in seen and len(seen) == len([s for s in CUBE_SIDES if getattr(d.cube, s) in d.faces]):
            report(("cube",), f'face "{name}" is on no side of the cube', "all six faces, each once")
    if scoring and d.cube.top != scoring[0]:
        report(("cube", "top"), f'the layout is given with "{scoring[0]}" on top', f'top = "{scoring[0]}"')
    if d.game.min_players != 2 or d.game.max_players != 2:
        report(("game", "max_players"), "Deblockle is for exactly two players", "min_players = max_players = 2")
    if len(d.players) != 2:
        report(("players",), f"{len(d.players)} players defined", "exactly two [[players]] tables")
    if not isinstance(d.rules.blocks, int):
        for i, count in enumerate(d.rules.blocks):
            if not 1 <= count <= 4:
                report(("rules", "blocks", i), f"{count} blocks for player {i + 1}", "1 to 4 blocks per player")
    used: dict[str, str] = {}
    stars = set()
    for i, player in enumerate(d.players):
        check_colour_ref(d.colours, player.colour, ("players", i, "colour"), report)
        if any(p.colour == player.colour for p in d.players[:i]):
            report(("players", i, "colour"), f'colour "{player.colour}" is already another player\'s',
                   "a colour of its own for each player")
        if d.board.square(player.home_star) is None:
            report(("players", i, "home_star"), f'"{player.home_star}" is not a square of the board',
                   f"a1..{chr(ord('a') + d.board.files - 1)}{d.board.ranks}")
        stars.add(player.home_star)
        if d.rules.counts[i] <= 4 and len(player.start) < d.rules.counts[i]:
            report(("players", i, "start"), f"{len(player.start)} start squares for {d.rules.counts[i]} blocks",
                   f"at least the player's rules.blocks ({d.rules.counts[i]})")
    for i, player in enumerate(d.players):
        for j, sq in enumerate(player.start):
            path = ("players", i, "start", j)
            if d.board.square(sq) is None:
                report(path, f'"{sq}" is not a square of the board', f"a1..{chr(ord('a') + d.board.files - 1)}{d.board.ranks}")
            elif sq in stars:
                report(path, f'"{sq}" is a star square', "a block never rests on a star")
            elif sq in used:
                report(path, f'"{sq}" is already the start of another block', "distinct squares")
            used[sq] = player.colour
    for key in ("board_colour", "star_colour"):
        check_colour_ref(d.colours, getattr(d.print, key), ("print", key), report)
    if d.print.glue_tab * 2 >= d.print.cube_edge:
        report(("print", "glue_tab"), f"a {d.print.glue_tab:g} mm tab does not fit a {d.print.cube_edge:g} mm edge",
               f"less than half the cube edge ({d.print.cube_edge / 2:g})")
    if d.print.cube_edge >= d.print.board_square:
        report(("print", "cube_edge"), f"a {d.print.cube_edge:g} mm cube does not fit a {d.print.board_square:g} mm square",
               f"less than board_square ({d.print.board_square:g})")
    if len(stars) != len(d.players):
        report(("players",), "two players share a home star", "one star square each")

"""6x6's definition: the dice, the numbered board and every rule option; rules: layouts/rulebooks/sixbysix.en.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from boardlab.layouts.common import Analysis as CommonAnalysis
from boardlab.layouts.common import GameDefinition, PrintSettings, StandeeSize, check_colour_ref
from boardlab.layouts.schema import Report, limits


@dataclass(frozen=True)
class Dice:
    faces: tuple[int, ...] = field(metadata=limits(min=2))  # the faces of every player's die


@dataclass(frozen=True)
class Board:
    base: str = field(metadata=limits(min=1))  # the token that marks the square where dice are rolled
    layout: tuple[str, ...] = field(metadata=limits(min=1))  # rows of tokens, top to bottom

    @property
    def cells(self) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(row.split()) for row in self.layout)

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(int(t) for row in self.cells for t in row if t != self.base)


@dataclass(frozen=True)
class Components:
    seats: tuple[str, ...] = field(metadata=limits(min=2))  # player colours in seat order
    chips_per_colour: int = field(metadata=limits(min=1, max=500))  # chips printed for each colour


@dataclass(frozen=True)
class Rules:
    chips: int = field(metadata=limits(min=1, max=500))  # starting chips per player
    unclaimed_bank: Literal["carry", "house"]
    lead: Literal["fixed", "rotate"]
    covering: bool  # an eliminated player's card covers the numbers that can no longer win
    max_rounds: int = field(metadata=limits(min=1, max=1000000))


@dataclass(frozen=True, kw_only=True)
class Analysis(CommonAnalysis):
    """The shared analysis settings, plus 6x6's pace per round and the casual chooser's number."""

    seconds_per_round: float = field(metadata=limits(min=1, max=3600))  # table time of one round
    favourite_number: int = field(metadata=limits(min=1, max=1000))  # the casual chooser's favourite number


@dataclass(frozen=True)
class SixBySixPrint(PrintSettings):
    """The shared print settings plus the sizes of 6x6's own pieces (millimetres)."""

    board_square: float = field(metadata=limits(min=15, max=80))  # a board square; a player card box is the same
    chip: float = field(metadata=limits(min=8, max=60))  # chip diameter (disc) or side (square)
    chip_shape: Literal["disc", "square"]  # the printed chips: discs or squares
    piece_gap: float = field(metadata=limits(min=0, max=10))  # space between chips (and standees) on a sheet
    marker: StandeeSize  # the folding marker standee


#: the names `[art]` may give images to (layouts/art.py): the player cards, the board, the chips, the markers
ART_NAMES = {"cards": ("card",), "boards": ("board",), "tokens": ("chip",), "standees": ("marker",)}


#: the faces the print module lays out from `[layout]` (layouts/faces/sixbysix.toml): kind -> its regions
FACE_REGIONS = {
    "front": ("art", "box", "die", "symbol"),
    "back": ("art", "symbol", "label"),
}


def face_frame(d: "Definition", kind: str) -> tuple[float, float, float] | None:
    """(width, height, bleed) in mm of a player card: one board square per die face, in a row (the
    regions of one box are written for the first and drawn in every box)."""
    side = d.print.board_square
    return len(d.dice.faces) * side, side, d.print.bleed


@dataclass(frozen=True)
class Definition(GameDefinition):
    dice: Dice
    board: Board
    components: Components
    rules: Rules
    analysis: Analysis
    print: SixBySixPrint


def check(d: Definition, report: Report) -> None:
    """Cross-field checks: the board holds exactly the sums every allowed player count needs."""
    for i, seat in enumerate(d.components.seats):
        check_colour_ref(d.colours, seat, ("components", "seats", i), report)
    if d.game.max_players > len(d.components.seats):
        report(("game", "max_players"), f"{d.game.max_players} players but only {len(d.components.seats)} seat colours",
               f"at most {len(d.components.seats)}")
    if d.game.min_players > d.game.max_players:
        report(("game", "min_players"), "more than max_players", f"at most {d.game.max_players}")
    if len(set(d.dice.faces)) != len(d.dice.faces):
        report(("dice", "faces"), "a face value appears twice", "distinct values")
    if min(d.dice.faces) < 1:
        report(("dice", "faces"), "face values must be positive", "1 or more")
    room = d.print.board_square - 2 * d.print.safe  # the inside of a player-card box
    if d.print.chip > room:
        report(("print", "chip"), f"a {d.print.chip:g} mm chip does not fit a card box ({room:g} mm inside)",
               f"at most board_square - 2 x safe = {room:g}")
    if d.print.marker.width > d.print.board_square:
        report(("print", "marker", "width"), f"a {d.print.marker.width:g} mm marker does not fit a"
               f" {d.print.board_square:g} mm square", f"at most board_square = {d.print.board_square:g}")
    widths = {len(row) for row in d.board.cells}
    if len(widths) != 1:
        report(("board", "layout"), "rows hold different numbers of squares", "every row the same length")
    bad = [t for row in d.board.cells for t in row if t != d.board.base and not t.isdigit()]
    if bad:
        report(("board", "layout"), f'unknown token "{bad[0]}"', f'board numbers or the base token "{d.board.base}"')
        return
    bases = sum(t == d.board.base for row in d.board.cells for t in row)
    if bases != 1:
        report(("board", "layout"), f"{bases} base squares", "exactly one")
    numbers = d.board.numbers
    if len(set(numbers)) != len(numbers):
        dup = sorted({n for n in numbers if numbers.count(n) > 1})
        report(("board", "layout"), f"number {dup[0]} appears twice", "each number once")
    if d.analysis.favourite_number not in numbers:
        report(("analysis", "favourite_number"), f"{d.analysis.favourite_number} is not on the board",
               f"a board number, {min(numbers)}..{max(numbers)}")
    lo, hi = min(d.dice.faces), max(d.dice.faces)
    need = set()
    for n in range(d.game.min_players, d.game.max_players + 1):
        need |= set(range(n * lo, n * hi + 1))
    missing, extra = sorted(need - set(numbers)), sorted(set(numbers) - need)
    if missing:
        report(("board", "layout"), f"number {missing[0]} is missing"
               + (f" ({len(missing)} missing in all)" if len(missing) > 1 else ""),
               f"the sums {min(need)}..{max(need)} of {d.game.min_players}..{d.game.max_players} dice")
    if extra:
        report(("board", "layout"), f"number {extra[0]} can never be rolled",
               f"the sums {min(need)}..{max(need)} of {d.game.min_players}..{d.game.max_players} dice")

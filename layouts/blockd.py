"""Blockd's definition: the cards, the grid and every rule option; rules: layouts/rulebooks/blockd.en.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from boardlab.layouts.common import Analysis, GameDefinition, PrintSettings, StandeeSize, check_colour_ref
from boardlab.layouts.schema import limits


@dataclass(frozen=True)
class Board:
    rows: int = field(metadata=limits(min=2, max=12))
    columns: int = field(metadata=limits(min=2, max=12))


@dataclass(frozen=True)
class Cards:
    suits: tuple[str, ...] = field(metadata=limits(min=2))  # one suit per colour, in seat order
    start_value: int = field(metadata=limits(min=0, max=0))  # the start card's value
    values: tuple[int, ...] = field(metadata=limits(min=1))  # number cards of every suit
    blind: int = field(metadata=limits(min=0, max=4))  # blind cards: always blocked


@dataclass(frozen=True)
class Rules:
    torus: bool
    pawns: Literal["pass", "block", "stack"]
    stacked_flip: Literal["last", "always"]  # with pawns = "stack": when a shared card turns face down
    eliminated_card: Literal["flip", "stay"]
    elimination: Literal["immediate", "end_of_round"]
    restore_bonus: bool
    start_steps: tuple[int, int]  # the step counts a player may choose on a start card
    max_turns: int = field(metadata=limits(min=1, max=100000))


@dataclass(frozen=True)
class BlockdPrint(PrintSettings):
    """The shared print settings plus Blockd's pawns (millimetres)."""

    pawn: StandeeSize  # the folding pawn standee; its base fits on a card
    piece_gap: float = field(metadata=limits(min=0, max=10))  # space between standees on a sheet


@dataclass(frozen=True)
class Definition(GameDefinition):
    board: Board
    cards: Cards
    rules: Rules
    print: BlockdPrint
    analysis: Analysis

    @property
    def card_count(self) -> int:
        return len(self.cards.suits) * (1 + len(self.cards.values)) + self.cards.blind


def check(d: Definition, report) -> None:
    """Cross-field checks: the deck fills the grid, suits are known colours, steps make sense."""
    for i, suit in enumerate(d.cards.suits):
        check_colour_ref(d.colours, suit, ("cards", "suits", i), report)
    if len(set(d.cards.suits)) != len(d.cards.suits):
        report(("cards", "suits"), "a colour appears twice", "each suit once")
    if d.game.max_players > len(d.cards.suits):
        report(("game", "max_players"), f"{d.game.max_players} players but only {len(d.cards.suits)} suits",
               f"at most {len(d.cards.suits)}")
    if d.game.min_players < 2:
        report(("game", "min_players"), "Blockd needs at least 2 players", "2 or more")
    if d.game.min_players > d.game.max_players:
        report(("game", "min_players"), "more than max_players", f"at most {d.game.max_players}")
    for i, value in enumerate(d.cards.values):
        if value < 1:
            report(("cards", "values", i), f"a number card must move at least 1 step (got {value})", "1 or more")
    if len(set(d.cards.values)) != len(d.cards.values):
        report(("cards", "values"), "a value appears twice", "distinct values")
    cells = d.board.rows * d.board.columns
    if d.card_count != cells:
        report(("cards",), f"{d.card_count} cards for a {d.board.rows} x {d.board.columns} grid of {cells} cells",
               "suits x (1 + number of values) + blind = rows x columns")
    low, high = d.rules.start_steps
    if not 1 <= low <= high:
        report(("rules", "start_steps"), f"[{low}, {high}] is not a range of step counts", "[low, high] with 1 <= low <= high")
    if high >= cells:
        report(("rules", "start_steps"), f"{high} steps cannot fit on {cells} cells", f"at most {cells - 1}")
    if max(d.cards.values, default=0) >= cells:
        report(("cards", "values"), f"{max(d.cards.values)} steps cannot fit on {cells} cells", f"at most {cells - 1}")
    longest = max([high, *d.cards.values])
    most = MAX_STEPS if cells <= COMPILED_CELLS else MAX_STEPS_LARGE
    if longest > most:
        key = ("rules", "start_steps") if high == longest else ("cards", "values")
        report(key, f"{longest} steps: a pawn's walks of more than {most} steps on a grid of {cells} cells are too many "
               "to tabulate (they grow about 2.7 times with every step)", f"at most {most} steps"
               + ("" if cells > COMPILED_CELLS else f" ({MAX_STEPS_LARGE} on grids of more than {COMPILED_CELLS} cells)"))


#: the longest walk a card may ask for: on grids of up to COMPILED_CELLS cells the walk tables are
#: built by compiled code (12 steps on a 6 x 6 torus: about 5 s, once, then read from the disk
#: cache); larger grids use the plain-Python twin
MAX_STEPS, MAX_STEPS_LARGE, COMPILED_CELLS = 12, 8, 63

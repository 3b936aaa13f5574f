"""Blockd's definition: the cards, the grid and every rule option; rules: layouts/rulebooks/blockd.en.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from boardlab.layouts.common import Analysis, GameDefinition, PrintSettings, StandeeSize, check_colour_ref
from boardlab.layouts.art import appearance
from boardlab.layouts.schema import Report, limits


@dataclass(frozen=True)
class Board:
    rows: int = field(metadata=limits(min=2, max=12))  # rows of the grid of cards dealt face up
    columns: int = field(metadata=limits(min=2, max=12))  # columns of the grid; rows x columns cards are dealt


#: the kinds of card a card list may hold
CARD_KINDS = ("start", "number", "blind")


@dataclass(frozen=True)
class CardRow:
    """One line of a card list: a kind of card and how many of it (`[[cards.cards]]` in the
    definition, or a row of the CSV file `cards.card_list` names; read as Links' are)."""

    kind: Literal["start", "number", "blind"]  # a suit's start card, a number card, or a blind card
    count: int = field(default=1, metadata=limits(min=1, max=144))  # how many copies of this card
    colour: str = ""  # the suit of a start or number card
    value: int = field(default=0, metadata=limits(min=0, max=143))  # a number card's steps
    image: str = field(default="", metadata=appearance())  # this card's own image (PNG, JPEG or SVG), relative to the list


@dataclass(frozen=True)
class Cards:
    """The deck: generated (per suit a start card and one number card of every value, then the
    blind cards), or, when `cards` is given (in the definition or through the CSV file
    `card_list`), exactly the cards listed; the list then also sets `suits` (in the order of
    their first row), `values` (every value listed) and `blind`, so that everything reading
    the deck reads the list."""

    suits: tuple[str, ...] = field(metadata=limits(min=2))  # one suit per colour, in seat order
    start_value: int = field(metadata=limits(min=0, max=0))  # the start card's value
    values: tuple[int, ...] = field(metadata=limits(min=1))  # number cards of every suit
    blind: int = field(metadata=limits(min=0, max=4))  # blind cards: always blocked
    cards: tuple[CardRow, ...] = ()  # an explicit card list: the whole deck
    card_list: str = ""  # a CSV file of the card list (kind,colour,value,count), beside the definition

    def __post_init__(self) -> None:
        if not self.cards:
            return
        numbers: dict[str, list[int]] = {}
        for row in self.cards:
            if row.kind != "blind":
                numbers.setdefault(row.colour, [])
                if row.kind == "number":
                    numbers[row.colour] += [row.value] * row.count
        sets = object.__setattr__
        sets(self, "_numbers", {suit: tuple(values) for suit, values in numbers.items()})
        sets(self, "suits", tuple(numbers))
        sets(self, "values", tuple(sorted({v for values in numbers.values() for v in values})))
        sets(self, "blind", sum(row.count for row in self.cards if row.kind == "blind"))

    @property
    def listed(self) -> bool:
        """Whether the deck is a card list (else generated from suits and values)."""
        return bool(self.cards)

    def numbers(self, suit: str) -> tuple[int, ...]:
        """The values of a suit's number cards, copies included, in the definition's order."""
        return self.__dict__["_numbers"].get(suit, ()) if self.cards else self.values

    @property
    def uniform(self) -> bool:
        """Whether every suit holds one number card of every value (as a generated deck does)."""
        return all(sorted(self.numbers(suit)) == sorted(self.values) for suit in self.suits)

    @property
    def number_count(self) -> int:
        """How many number cards the deck holds, every suit's."""
        return sum(len(self.numbers(suit)) for suit in self.suits)

    @property
    def by_suit(self) -> dict[str, tuple[int, ...]]:
        """Every suit's number cards, lowest first (the rulebook lists an uneven deck by it)."""
        return {suit: tuple(sorted(self.numbers(suit))) for suit in self.suits}

    @property
    def example_number(self) -> str:
        """The drawing of the first number card (the rulebook's components list shows it)."""
        suit = next((s for s in self.suits if self.numbers(s)), self.suits[0] if self.suits else "")
        return f"{suit}-{(self.numbers(suit) or self.values or (0,))[0]}"


@dataclass(frozen=True)
class Rules:
    torus: bool
    pawns: Literal["pass", "block", "stack"]  # pass: paths cross pawns, never end on one; block: a pawn is a wall; stack: pawns share cards
    stacked_flip: Literal["last", "always"]  # with pawns = "stack": when a shared card turns face down
    eliminated_card: Literal["flip", "stay"]  # flip: the card under an eliminated pawn turns face down; stay: it stays up
    elimination: Literal["immediate", "end_of_round"]  # a player without a move leaves at once, or all such at the round's end
    restore_bonus: bool
    start_steps: tuple[int, int]  # the step counts a player may choose on a start card
    max_turns: int = field(metadata=limits(min=1, max=100000))


@dataclass(frozen=True)
class BlockdPrint(PrintSettings):
    """The shared print settings plus Blockd's pawns (millimetres)."""

    pawn: StandeeSize  # the folding pawn standee; its base fits on a card
    piece_gap: float = field(metadata=limits(min=0, max=10))  # space between standees on a sheet


#: the names `[art]` may give images to (layouts/art.py): card kinds and the pawns' standees
ART_NAMES = {"cards": CARD_KINDS, "boards": (), "tokens": (), "standees": ("pawn",)}


#: the faces the print module lays out from `[layout]` (layouts/faces/blockd.toml): kind -> its regions
FACE_REGIONS = {
    "start": ("art", "corner_symbol", "steps", "label"),
    "number": ("art", "corner_value", "corner_symbol", "value", "label"),
    "blind": ("art", "band", "title", "corner"),
    "back": ("art", "title"),
}


def face_frame(d: "Definition", kind: str) -> tuple[float, float, float] | None:
    """(width, height, bleed) in mm of every face: the card."""
    from boardlab.layouts.faces import card_frame

    return card_frame(d)


@dataclass(frozen=True)
class Definition(GameDefinition):
    board: Board
    cards: Cards
    rules: Rules
    print: BlockdPrint
    analysis: Analysis

    @property
    def card_count(self) -> int:
        cards = self.cards
        return len(cards.suits) + cards.number_count + cards.blind


def check(d: Definition, report: Report) -> None:
    """Cross-field checks: the deck fills the grid, suits are known colours, steps make sense."""
    check_card_list(d, report)
    for i, suit in enumerate(() if d.cards.listed else d.cards.suits):  # a card list's rows are checked above
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
    if len(set(d.cards.values)) != len(d.cards.values) and not d.cards.listed:
        report(("cards", "values"), "a value appears twice", "distinct values")
    cells = d.board.rows * d.board.columns
    if d.card_count != cells:
        report(("cards", "cards") if d.cards.listed else ("cards",), f"{d.card_count} cards for a {d.board.rows} x {d.board.columns} grid of {cells} cells",
               "suits x (1 + number of values) + blind = rows x columns")
    low, high = d.rules.start_steps
    if not 1 <= low <= high:
        report(("rules", "start_steps"), f"[{low}, {high}] is not a range of step counts", "[low, high] with 1 <= low <= high")
    if high >= cells:
        report(("rules", "start_steps"), f"{high} steps cannot fit on {cells} cells", f"at most {cells - 1}")
    if max(d.cards.values, default=0) >= cells:
        report(values_key(d, max(d.cards.values)), f"{max(d.cards.values)} steps cannot fit on {cells} cells", f"at most {cells - 1}")
    longest = max([high, *d.cards.values])
    most = MAX_STEPS if cells <= COMPILED_CELLS else MAX_STEPS_LARGE
    if longest > most:
        key = ("rules", "start_steps") if high == longest else values_key(d, longest)
        report(key, f"{longest} steps: a pawn's walks of more than {most} steps on a grid of {cells} cells are too many "
               "to tabulate (they grow about 2.7 times with every step)", f"at most {most} steps"
               + ("" if cells > COMPILED_CELLS else f" ({MAX_STEPS_LARGE} on grids of more than {COMPILED_CELLS} cells)"))


def values_key(d: Definition, value: int) -> tuple:
    """Where a number card's value is written: `cards.values`, or a card list's first row of it."""
    rows = d.cards.cards
    return next((("cards", "cards", i, "value") for i, row in enumerate(rows) if row.kind == "number"
                 and row.value == value), ("cards", "values"))


def check_card_list(d: Definition, report: Report) -> None:
    """A card list's rows: start and number cards of known colours, number cards with a value,
    one start card per suit, blind cards with neither."""
    starts: dict[str, int] = {}
    for i, row in enumerate(d.cards.cards):
        where = ("cards", "cards", i)
        if row.kind == "blind":
            if row.colour or row.value:
                report(where + ("colour" if row.colour else "value",), "a blind card has no colour and no value",
                       "leave it empty")
            continue
        if not row.colour:
            report(where + ("colour",), f"a {row.kind} card needs its colour", f"one of {', '.join(d.colours)}")
        else:
            check_colour_ref(d.colours, row.colour, where + ("colour",), report)
        if row.kind == "start":
            starts[row.colour] = starts.get(row.colour, 0) + row.count
            if row.value:
                report(where + ("value",), f"a start card counts as {d.cards.start_value} steps", "leave value empty")
        elif row.value < 1:
            report(where + ("value",), "a number card needs its value (the steps it moves)", "1 or more")
    for suit in d.cards.suits if d.cards.listed else ():
        if starts.get(suit, 0) != 1:
            report(("cards", "cards"), f"{starts.get(suit, 0)} start cards of {suit} in the card list",
                   "exactly one start card of every colour listed")


#: the longest walk a card may ask for: on grids of up to COMPILED_CELLS cells the walk tables are
#: built by compiled code (12 steps on a 6 x 6 torus: about 5 s, once, then read from the disk
#: cache); larger grids use the plain-Python twin
MAX_STEPS, MAX_STEPS_LARGE, COMPILED_CELLS = 12, 8, 63


def card_list(d: Definition) -> tuple[CardRow, ...]:
    """The deck as card-list rows: a listed deck's own rows; a generated deck written out, per
    suit its start card and a row per number card, then the blind cards.

    >>> rows = card_list(__import__("boardlab.layouts", fromlist=["load"]).load("blockd"))
    >>> rows[0], rows[1], rows[-1]
    (CardRow(kind='start', count=1, colour='red', value=0, image=''), CardRow(kind='number', count=1, colour='red', value=1, image=''), CardRow(kind='blind', count=1, colour='', value=0, image=''))
    """
    cards = d.cards
    if cards.listed:
        return cards.cards
    rows = []
    for suit in cards.suits:
        rows.append(CardRow("start", 1, suit))
        rows += [CardRow("number", 1, suit, value) for value in cards.values]
    rows += [CardRow("blind", cards.blind)] if cards.blind else []
    return tuple(rows)

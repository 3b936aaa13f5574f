"""Links' definition: the deck (our assumption, rules: layouts/rulebooks/links.en.md) and the rule options."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement, combinations
from typing import Literal

from boardlab.layouts.common import Analysis, GameDefinition, PrintSettings, check_colour_ref
from boardlab.layouts.schema import limits


@dataclass(frozen=True)
class End:
    """One end of a card: a colour and a number of points."""

    colour: str
    points: int = field(metadata=limits(min=0, max=99))


@dataclass(frozen=True)
class Master:
    name: str = field(metadata=limits(min=1))  # printed on the card, e.g. "ONE"
    value: int = field(metadata=limits(min=1, max=20))  # captures when the line's count is at least value - 1
    count: int = field(metadata=limits(min=1, max=20))
    ends: tuple[End, End]  # used only when rules.master_links = "match"


@dataclass(frozen=True)
class Deck:
    end_colours: tuple[str, ...] = field(metadata=limits(min=1))
    end_points: tuple[int, ...] = field(metadata=limits(min=1))
    doubles: bool  # whether cards with two equal ends exist
    copies: int = field(metadata=limits(min=1, max=10))  # copies of every game card
    central: int = field(metadata=limits(min=1, max=1))
    empty: int = field(metadata=limits(min=0, max=50))
    masters: tuple[Master, ...]
    hand_size: int = field(metadata=limits(min=1, max=20))
    removed_empty: dict[int, int]  # player count -> empty cards removed before dealing

    @property
    def faces(self) -> tuple[End, ...]:
        return tuple(End(c, p) for c in self.end_colours for p in self.end_points)

    @property
    def game_cards(self) -> tuple[tuple[End, End], ...]:
        pairs = combinations_with_replacement(self.faces, 2) if self.doubles else combinations(self.faces, 2)
        return tuple(pair for pair in pairs for _ in range(self.copies))

    @property
    def size(self) -> int:
        return len(self.game_cards) + self.central + self.empty + sum(m.count for m in self.masters)


@dataclass(frozen=True)
class Rules:
    master_links: Literal["any", "match"]
    capturing_card: Literal["stays", "taken"]
    must_play: bool
    idle_master: Literal["stays", "barred"]  # master N on a count below N - 1: stays uncounted | may not be laid
    capture_count: int = field(metadata=limits(min=2, max=20))  # the game card making this count captures
    lines: int = field(metadata=limits(min=1, max=4))  # lines that can start from the central card
    max_turns: int = field(metadata=limits(min=1, max=100000))


@dataclass(frozen=True)
class Definition(GameDefinition):
    deck: Deck
    rules: Rules
    print: PrintSettings
    analysis: Analysis


def check(d: Definition, report) -> None:
    """Cross-field checks: colours exist, the removal table covers every player count and fits."""
    deck = d.deck
    for i, colour in enumerate(deck.end_colours):
        check_colour_ref(d.colours, colour, ("deck", "end_colours", i), report)
    if len(set(deck.end_colours)) != len(deck.end_colours):
        report(("deck", "end_colours"), "a colour appears twice", "each colour once")
    if len(set(deck.end_points)) != len(deck.end_points):
        report(("deck", "end_points"), "a point value appears twice", "distinct values")
    if not deck.game_cards:
        report(("deck", "doubles"), f"the deck has no game cards ({len(deck.faces)} end face(s), doubles = "
               f"{str(deck.doubles).lower()})", "at least two end faces, or doubles = true")
    names = [m.name for m in deck.masters]
    for i, master in enumerate(deck.masters):
        if names.count(master.name) > 1:
            report(("deck", "masters", i, "name"), f'master "{master.name}" appears twice', "distinct names")
        for j, end in enumerate(master.ends):
            check_colour_ref(d.colours, end.colour, ("deck", "masters", i, "ends", j, "colour"), report)
    if d.game.min_players > d.game.max_players:
        report(("game", "min_players"), "more than max_players", f"at most {d.game.max_players}")
    wanted = set(range(d.game.min_players, d.game.max_players + 1))
    table = deck.removed_empty
    for n in sorted(wanted - set(table)):
        report(("deck", "removed_empty"), f"no entry for {n} players",
               f"one entry for every player count {min(wanted)}..{max(wanted)}")
    for n in sorted(set(table) - wanted):
        report(("deck", "removed_empty", str(n)), f"{n} players is outside {min(wanted)}..{max(wanted)}",
               "only allowed player counts")
    for n, removed in sorted(table.items()):
        if removed < 0:
            report(("deck", "removed_empty", str(n)), f"cannot remove {removed} cards", "0 or more")
        elif n in wanted and removed <= deck.empty and n * deck.hand_size > deck.size - deck.central - removed:
            report(("deck", "hand_size"), f"{n} players x {deck.hand_size} cards do not fit in a deck of "
                   f"{deck.size - deck.central - removed}", "a smaller hand or a bigger deck")
    most = max(table.values(), default=0)
    if most > deck.empty:
        worst = min(n for n, removed in table.items() if removed == most)
        report(("deck", "empty"), f"{deck.empty} empty cards, but removed_empty removes {most} with {worst} players",
               f"at least {most}, or a smaller removed_empty")

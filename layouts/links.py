"""Links' definition: the deck (our assumption, rules: layouts/rulebooks/links.en.md) and the rule options."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations_with_replacement, combinations
from typing import TYPE_CHECKING, Literal

from boardlab.layouts.common import Analysis, GameDefinition, PrintSettings, check_colour_ref
from boardlab.layouts.art import appearance
from boardlab.layouts.schema import Report, limits

if TYPE_CHECKING:
    from boardlab.layouts.rulebook_facts import Pairs


@dataclass(frozen=True)
class End:
    """One end of a card: a colour and a number of points."""

    colour: str  # the end's colour, a name from [colours]
    points: int = field(metadata=limits(min=0, max=99))  # the end's points


@dataclass(frozen=True)
class Master:
    name: str = field(metadata=limits(min=1))  # printed on the card, e.g. "ONE"
    value: int = field(metadata=limits(min=1, max=20))  # captures when the line's count is at least value - 1
    count: int = field(metadata=limits(min=1, max=20))  # copies of this master card in the deck
    ends: tuple[End, End]  # used only when rules.master_links = "match"


#: the kinds of card a card list may hold
CARD_KINDS = ("game", "central", "empty", "master")


@dataclass(frozen=True)
class CardRow:
    """One line of a card list: a kind of card and how many of it (`[[deck.cards]]` in the
    definition, or a row of the CSV file `deck.card_list` names)."""

    kind: Literal["game", "central", "empty", "master"]  # a game card, the central card, an empty card or a master
    count: int = field(default=1, metadata=limits(min=1, max=50))  # how many copies of this card
    ends: str = ""  # game cards, and masters with master_links = "match": "red 1 / blue 2"
    value: int = field(default=0, metadata=limits(min=0, max=20))  # a master's capture value
    text: str = ""  # a master's name, printed on the card
    image: str = field(default="", metadata=appearance())  # this card's own image (PNG, JPEG or SVG), relative to the list


def parse_ends(text: str) -> tuple[End, End] | None:
    """The two ends a card list writes as "COLOUR POINTS / COLOUR POINTS", or None when malformed.

    >>> parse_ends("red 1 / blue 2")
    (End(colour='red', points=1), End(colour='blue', points=2))
    >>> parse_ends("red / blue 2") is None
    True
    """
    parts = [p.split() for p in text.split("/")]
    if len(parts) != 2 or any(len(p) != 2 or not p[1].isdigit() for p in parts):
        return None
    return End(parts[0][0], int(parts[0][1])), End(parts[1][0], int(parts[1][1]))


@dataclass(frozen=True)
class Deck:
    """The deck: generated (every pair of the end faces `end_colours` x `end_points`, `copies`
    times, then the central, empty and master cards), or, when `cards` is given (in the
    definition or through the CSV file `card_list`), exactly the cards listed; the list then
    also sets `central`, `empty`, `masters` and the end faces, so that everything reading the
    deck reads the list."""

    end_colours: tuple[str, ...] = field(metadata=limits(min=1))  # the colours a card's ends can have
    end_points: tuple[int, ...] = field(metadata=limits(min=1))  # the points a card's ends can have
    doubles: bool  # whether cards with two equal ends exist
    copies: int = field(metadata=limits(min=1, max=10))  # copies of every game card
    central: int = field(metadata=limits(min=1, max=1))
    empty: int = field(metadata=limits(min=0, max=50))
    masters: tuple[Master, ...]
    hand_size: int = field(metadata=limits(min=1, max=20))  # cards dealt to each player
    removed_empty: dict[int, int]  # player count -> empty cards removed before dealing
    cards: tuple[CardRow, ...] = ()  # an explicit card list: the whole deck
    card_list: str = ""  # a CSV file of the card list (kind,ends,value,count,text), beside the definition

    def __post_init__(self) -> None:
        if not self.cards:
            return
        listed = [parse_ends(row.ends) for row in self.cards if row.kind == "game"]
        ends = [end for pair in listed if pair for end in pair]
        colours = tuple(dict.fromkeys(end.colour for end in ends))
        faces = tuple(End(c, p) for c in colours for p in sorted({e.points for e in ends if e.colour == c}))
        masters = []
        for row in self.cards:
            if row.kind == "master":
                pair = parse_ends(row.ends) if row.ends else None
                masters.append(Master(row.text, row.value, row.count,
                                      pair if pair else (End(colours[0] if colours else "", 0),) * 2))
        sets = object.__setattr__
        sets(self, "_listed_faces", faces)
        sets(self, "end_colours", colours)
        sets(self, "end_points", tuple(sorted({e.points for e in ends})))
        sets(self, "doubles", any(p and p[0] == p[1] for p in listed))
        sets(self, "copies", 1)
        sets(self, "central", sum(row.count for row in self.cards if row.kind == "central"))
        sets(self, "empty", sum(row.count for row in self.cards if row.kind == "empty"))
        sets(self, "masters", tuple(masters))

    @property
    def listed(self) -> bool:
        """Whether the deck is a card list (else generated from the end faces)."""
        return bool(self.cards)

    @property
    def faces(self) -> tuple[End, ...]:
        if self.cards:
            return self.__dict__["_listed_faces"]
        return tuple(End(c, p) for c in self.end_colours for p in self.end_points)

    @property
    def game_cards(self) -> tuple[tuple[End, End], ...]:
        """Every game card, copies included; each card's ends in the order of `faces`."""
        if self.cards:
            order = {face: i for i, face in enumerate(self.faces)}
            out: list[tuple[End, End]] = []
            for row in self.cards:
                pair = parse_ends(row.ends) if row.kind == "game" else None
                if pair:
                    first, second = sorted(pair, key=order.__getitem__)
                    out += [(first, second)] * row.count
            return tuple(out)
        pairs = combinations_with_replacement(self.faces, 2) if self.doubles else combinations(self.faces, 2)
        return tuple(pair for pair in pairs for _ in range(self.copies))

    @property
    def example_card(self) -> str:
        """The component name of the game card the rulebook draws: the first with two different
        ends (else the first), e.g. "red1-red2".

        >>> from boardlab.layouts import load
        >>> load("links").deck.example_card
        'red1-red2'
        """
        cards = self.game_cards
        first, second = next((pair for pair in cards if pair[0] != pair[1]), cards[0] if cards else (End("", 0),) * 2)
        return f"{first.colour}{first.points}-{second.colour}{second.points}"

    @property
    def size(self) -> int:
        return len(self.game_cards) + self.central + self.empty + sum(m.count for m in self.masters)

    @property
    def card_groups(self) -> Pairs:
        """The game cards by the colours of their two ends, for a rulebook (`{deck.card_groups|pairs}`):
        (colour, colour) -> "how many (the points of each card, in the order of the colours; ×k: k copies)".

        >>> from boardlab.layouts import load
        >>> load("links").deck.card_groups[("red", "blue")]
        '4 (1/1, 1/2, 2/1, 2/2)'
        """
        from boardlab.layouts.rulebook_facts import Pairs, Raw

        groups: dict[tuple[str, str], Counter] = {}
        for first, second in self.game_cards:
            groups.setdefault((first.colour, second.colour), Counter())[(first.points, second.points)] += 1
        return Pairs({colours: Raw(f"{sum(cards.values())} (" + ", ".join(
            f"{a}/{b}" + (f" ×{n}" if n > 1 else "") for (a, b), n in sorted(cards.items())) + ")")
            for colours, cards in groups.items()})


@dataclass(frozen=True)
class Rules:
    master_links: Literal["any", "match"]
    capturing_card: Literal["stays", "taken"]
    must_play: bool
    idle_master: Literal["stays", "barred"]  # master N on a count below N - 1: stays uncounted | may not be laid
    capture_count: int = field(metadata=limits(min=2, max=20))  # the game card making this count captures
    lines: int = field(metadata=limits(min=1, max=4))  # lines that can start from the central card
    max_turns: int = field(metadata=limits(min=1, max=100000))  # a game reaching this many turns ends unfinished


#: the names `[art]` may give images to (layouts/art.py): the card kinds
ART_NAMES = {"cards": CARD_KINDS, "boards": (), "tokens": (), "standees": ()}


#: the faces the print module lays out from `[layout]` (layouts/faces/links.toml): kind -> its regions
FACE_REGIONS = {
    "game": ("art", "value", "badge", "symbol", "label"),
    "central": ("art",),
    "empty": ("art",),
    "master": ("art", "title", "corner_value", "end_band", "end_value", "end_badge", "end_symbol"),
    "back": ("art", "title"),
}


def face_frame(d: "Definition", kind: str) -> tuple[float, float, float] | None:
    """(width, height, bleed) in mm of every face: the card."""
    from boardlab.layouts.faces import card_frame

    return card_frame(d)


@dataclass(frozen=True)
class Definition(GameDefinition):
    deck: Deck
    rules: Rules
    print: PrintSettings
    analysis: Analysis

    @property
    def removed_empty(self) -> dict[int, int]:
        """`deck.removed_empty` for the player counts the game allows (what the rulebook lists: a
        variant for fewer players keeps the extended table's other entries, unused)."""
        wanted = range(self.game.min_players, self.game.max_players + 1)
        return {n: r for n, r in sorted(self.deck.removed_empty.items()) if n in wanted}


def check(d: Definition, report: Report) -> None:
    """Cross-field checks: colours exist, the removal table covers every player count and fits."""
    deck = d.deck
    check_card_list(d, report)
    for i, colour in enumerate(() if deck.listed else deck.end_colours):  # a card list's rows are checked above
        check_colour_ref(d.colours, colour, ("deck", "end_colours", i), report)
    if len(set(deck.end_colours)) != len(deck.end_colours):
        report(("deck", "end_colours"), "a colour appears twice", "each colour once")
    if len(set(deck.end_points)) != len(deck.end_points):
        report(("deck", "end_points"), "a point value appears twice", "distinct values")
    if not deck.game_cards:
        report(("deck", "cards") if deck.listed else ("deck", "doubles"), f"the deck has no game cards ({len(deck.faces)} end face(s), doubles = "
               f"{str(deck.doubles).lower()})", "at least two end faces, or doubles = true")
    names = [m.name for m in deck.masters]
    for i, master in enumerate(deck.masters):
        if names.count(master.name) > 1:
            report(("deck", "masters", i, "name"), f'master "{master.name}" appears twice', "distinct names")
        for j, end in enumerate(master.ends):
            check_colour_ref(d.colours, end.colour, ("deck", "masters", i, "ends", j, "colour"), report)
            if d.rules.master_links == "match" and end not in deck.faces:
                report(("deck", "cards") if deck.listed else ("deck", "masters", i, "ends", j),
                       f"master {master.name}'s end {end.colour} {end.points} is not an end of the deck's game cards "
                       "(with master_links = \"match\" a master links like a game card)",
                       ", ".join(f"{f.colour} {f.points}" for f in deck.faces))
    if d.game.min_players > d.game.max_players:
        report(("game", "min_players"), "more than max_players", f"at most {d.game.max_players}")
    wanted = set(range(d.game.min_players, d.game.max_players + 1))
    table = deck.removed_empty
    for n in sorted(wanted - set(table)):
        report(("deck", "removed_empty"), f"no entry for {n} players",
               f"one entry for every player count {min(wanted)}..{max(wanted)}")
    # entries for other player counts are unused, not wrong: a variant that plays with fewer
    # players cannot take the extended definition's entries out of the table
    for n in sorted(n for n in table if n < 1):
        report(("deck", "removed_empty", str(n)), f"{n} is not a number of players", "1 or more")
    for n, removed in sorted(table.items()):
        if removed < 0:
            report(("deck", "removed_empty", str(n)), f"cannot remove {removed} cards", "0 or more")
        elif n in wanted and removed <= deck.empty and n * deck.hand_size > deck.size - deck.central - removed:
            report(("deck", "hand_size"), f"{n} players x {deck.hand_size} cards do not fit in a deck of "
                   f"{deck.size - deck.central - removed}", "a smaller hand or a bigger deck")
    most = max((removed for n, removed in table.items() if n in wanted), default=0)
    if most > deck.empty:
        worst = min(n for n, removed in table.items() if removed == most and n in wanted)
        report(("deck", "cards") if deck.listed else ("deck", "empty"),
               f"{deck.empty} empty cards, but removed_empty removes {most} with {worst} players",
               f"at least {most}, or a smaller removed_empty")


def check_card_list(d: Definition, report: Report) -> None:
    """A card list's rows: ends written as the game reads them, known colours, one central card,
    masters with a name and a value."""
    for i, row in enumerate(d.deck.cards):
        where = ("deck", "cards", i)
        if row.kind == "game" or (row.kind == "master" and row.ends):
            pair = parse_ends(row.ends)
            if pair is None:
                report(where + ("ends",), f"ends {row.ends!r} are not two ends", '"COLOUR POINTS / COLOUR POINTS", e.g. "red 1 / blue 2"')
            else:
                for end in pair:
                    check_colour_ref(d.colours, end.colour, where + ("ends",), report)
        elif row.ends:
            report(where + ("ends",), f"{'an' if row.kind[0] in 'aeiou' else 'a'} {row.kind} card has no ends",
                   "leave ends empty")
        if row.kind == "master":
            if not row.text:
                report(where + ("text",), "a master card needs its name", 'e.g. "FIVE"')
            if row.value < 1:
                report(where + ("value",), "a master card needs its capture value", "1 to 20")
        elif row.text or row.value:
            report(where + ("text" if row.text else "value",), f"only master cards have a name and a value", "leave it empty")
    if d.deck.cards:
        if d.deck.central != 1:
            report(("deck", "cards"), f"{d.deck.central} central cards in the card list", "exactly one")
        if any(row.kind == "master" and not row.ends for row in d.deck.cards) and d.rules.master_links == "match":
            report(("deck", "cards"), "rules.master_links = \"match\" needs the ends of every master card", "ends on every master row")


def card_list(d: Definition) -> tuple[CardRow, ...]:
    """The deck as card-list rows: a listed deck's own rows; a generated deck written out, one
    row per distinct game card with its copies, then the central, empty and master cards with
    their ends (read only with rules.master_links = "match", written always: a variant of the list
    may take that rule, and the list is then the same deck).

    >>> rows = card_list(__import__("boardlab.layouts", fromlist=["load"]).load("links"))
    >>> rows[0], rows[-1].kind, sum(r.count for r in rows)
    (CardRow(kind='game', count=1, ends='red 1 / red 1', value=0, text='', image=''), 'master', 46)
    """
    deck = d.deck
    if deck.listed:
        return deck.cards
    ends = lambda pair: " / ".join(f"{end.colour} {end.points}" for end in pair)  # noqa: E731
    copies: dict[tuple[End, End], int] = {}
    for pair in deck.game_cards:
        copies[pair] = copies.get(pair, 0) + 1
    rows = [CardRow("game", n, ends(pair)) for pair, n in copies.items()]
    rows.append(CardRow("central", deck.central))
    rows += [CardRow("empty", deck.empty)] if deck.empty else []
    rows += [CardRow("master", m.count, ends(m.ends), m.value, m.name) for m in deck.masters]
    return tuple(rows)

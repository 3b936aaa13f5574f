"""The cards on the table: lines of play from the central card, and what a card laid on one does.

A `Line` holds the cards now on the table in one line, from the central card outwards, each
as (kind, exposed end); `run_start` is the index of the first card placed since the line's
last restart point (the central card, an empty card or the last capture) and `count` the
game cards among them.  `legal_plays` and `lay` are the rules of laying a card; the engine,
the positions of `boardlab moves` and the agents all use them.

Moves are `Move(kind, line, exposes)`: lay a card of `kind` at the end of line slot `line`,
leaving end `exposes` open (`WILD` for a wild card).  Starting a new line always uses the
lowest free slot (every free side of the central card is alike in this model).  `PASS` keeps
the cards (only with `rules.must_play = false`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from boardlab.analysis.links.cards import EMPTY, GAME, MASTER, WILD, LinksDeck

if TYPE_CHECKING:
    from boardlab.layouts.links import Rules


class Move(NamedTuple):
    """Lay a card of `kind` on line slot `line`, leaving `exposes` open; `PASS` lays nothing.

    >>> PASS.is_pass, Move(3, 0, 2).is_pass
    (True, False)
    """

    kind: int
    line: int
    exposes: int

    @property
    def is_pass(self) -> bool:
        return self.kind < 0


PASS = Move(-1, -1, WILD)


class Line:
    """One line of play (see the module docstring).

    `stayed` lists the indices of capturing cards that stayed on the table: such a card was
    laid against cards that have left since, so it need not link to the card now before it.
    """

    __slots__ = ("cards", "run_start", "count", "stayed")

    def __init__(self, cards: Iterable[tuple[int, int]] | None = None, run_start: int = 0, count: int = 0,
                 stayed: Iterable[int] = ()) -> None:
        self.cards: list[tuple[int, int]] = list(cards or [])
        self.run_start = run_start
        self.count = count
        self.stayed: list[int] = list(stayed)

    @property
    def end(self) -> int:
        """The exposed end: that of the last card, or `WILD` (the central card's side)."""
        return self.cards[-1][1] if self.cards else WILD

    @property
    def is_free(self) -> bool:
        return not self.cards

    def copy(self) -> "Line":
        return Line(self.cards, self.run_start, self.count, self.stayed)

    def key(self) -> tuple:
        return tuple(self.cards), self.run_start, self.count, tuple(self.stayed)


def capture_size(deck: LinksDeck, rules: Rules, line: Line, kind: int) -> int:
    """Cards a card of `kind` laid on `line` would capture (0: no capture).

    With `capturing_card = "taken"` the capturing card itself counts too.  Master ONE
    (value 1) captures on a count of 0 and takes nothing but itself.
    """
    if not captures(deck, rules, line, kind):
        return 0
    return len(line.cards) - line.run_start + (rules.capturing_card == "taken")


def captures(deck: LinksDeck, rules: Rules, line: Line, kind: int) -> bool:
    """Whether laying a card of `kind` on `line` captures (possibly nothing, for master ONE)."""
    k = deck.kinds[kind]
    if k.category == GAME:
        return line.count + 1 >= rules.capture_count
    return k.category == MASTER and line.count >= k.value - 1


def allowed(deck: LinksDeck, rules: Rules, line: Line, kind: int) -> bool:
    """Whether a card of `kind` may go on `line` at all (linking aside): under
    `idle_master = "barred"` master N may not be laid on a count below N - 1.

    >>> from boardlab.layouts import load
    >>> deck = LinksDeck(load("links-idle-master-barred"))
    >>> two = deck.kind_of("TWO")
    >>> allowed(deck, load("links").rules, Line(), two), allowed(deck, load("links-idle-master-barred").rules, Line(), two)
    (True, False)
    """
    k = deck.kinds[kind]
    return not (k.category == MASTER and rules.idle_master == "barred" and line.count < k.value - 1)


def legal_plays(deck: LinksDeck, rules: Rules, lines: list[Line], hand: Sequence[int], first_play: bool) -> list[Move]:
    """Every move of a player holding `hand` (kinds), in a fixed order.

    Plays on existing lines in slot order, then a new line on the lowest free slot; kinds in
    ascending order, exposed ends ascending.  `PASS` comes first when the player may keep their
    cards: `rules.must_play` is off, they have a play, and they are not making the game's first
    play.  A card the rules bar from a line (`allowed`) has no move there.
    """
    kinds = sorted(set(hand))
    moves = []
    free = -1
    for slot, line in enumerate(lines):
        if line.is_free:
            if free < 0:
                free = slot
            continue
        end = line.end
        for kind in kinds:
            if allowed(deck, rules, line, kind):
                for exposed in deck.exposures(kind, end):
                    moves.append(Move(kind, slot, exposed))
    if free >= 0:
        for kind in kinds:
            if allowed(deck, rules, lines[free], kind):
                for exposed in deck.exposures(kind, WILD):
                    moves.append(Move(kind, free, exposed))
    if moves and not rules.must_play and not first_play:
        moves.insert(0, PASS)
    return moves


def can_play(deck: LinksDeck, rules: Rules, lines: list[Line], hand: Sequence[int]) -> bool:
    """Whether a hand has any play (without listing the plays, except when masters may be barred)."""
    if not hand:
        return False
    if rules.idle_master == "barred":
        return bool(legal_plays(deck, rules, lines, hand, True))
    ends = set()
    for line in lines:
        if line.is_free:
            return True
        ends.add(line.end)
    if WILD in ends:
        return True
    return any(deck.links_to(kind, end) for kind in set(hand) for end in ends)


def lay(deck: LinksDeck, rules: Rules, line: Line, kind: int, exposes: int) -> tuple[list[int], str | None]:
    """Lay a card on `line` in place; return (kinds captured, what captured: "fifth", a master name or None)."""
    k = deck.kinds[kind]
    capturing = captures(deck, rules, line, kind)
    line.cards.append((kind, exposes))
    if k.category == EMPTY:
        line.run_start, line.count = len(line.cards), 0
        return [], None
    if k.category == GAME:
        line.count += 1
    if not capturing:
        return [], None
    cut = line.run_start
    if rules.capturing_card == "taken":
        taken = [c for c, _ in line.cards[cut:]]
        del line.cards[cut:]
    else:
        taken = [c for c, _ in line.cards[cut:-1]]
        del line.cards[cut:-1]
        line.stayed.append(cut)
    line.run_start, line.count = len(line.cards), 0
    return taken, ("fifth" if k.category == GAME else deck.master_names[k.master])

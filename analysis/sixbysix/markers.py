"""The exact value of marker choices: who wins a round, by seat, for different choosers.

A round's winner depends only on the markers and the sum of the dice (the bet face cannot
change any odds).  Markers are placed one at a time in seat order from the lead player, each
on a free allowed number (`board.allowed_numbers`).  Three choosers model players:

- ``greedy``: the most probable free number; **tie-break**: between equally probable numbers,
  the lower number (so with 6 players the greedy order is 21, 20, 22, 19, 23, ...).
- ``random``: every free allowed number equally likely.
- ``favourite-F``: F when free, else the nearest free number; **tie-break**: the lower number.

Greedy and favourite choosers are *preference orders*: they take the first free number of a
fixed order.  `seat_win_probabilities` evaluates any mix of choosers exactly by enumerating
the sets of taken numbers (merged, with exact fractions); it is the slow, obvious method.
`win_probability_after_random` is the closed form for one chooser after random choosers,
used where the enumeration would be too large (tests compare the two).

>>> from boardlab.analysis.sixbysix.dice import sum_probabilities
>>> p = sum_probabilities((1, 2, 3, 4, 5, 6), 2)
>>> seat_win_probabilities(p, tuple(range(2, 13)), [GREEDY, GREEDY])
(Fraction(1, 6), Fraction(5, 36))
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

from boardlab.layouts.errors import BoardlabError


@dataclass(frozen=True)
class Chooser:
    """How a player picks a marker number: ``greedy``, ``random`` or ``favourite`` (with a number)."""

    kind: str
    favourite: int | None = None

    @property
    def name(self) -> str:
        return f"favourite-{self.favourite}" if self.kind == "favourite" else self.kind

    def order(self, probabilities: Mapping[int, Fraction], allowed: Sequence[int]) -> tuple[int, ...] | None:
        """The chooser's preference order over `allowed`, or None for a uniformly random chooser.

        >>> Chooser("favourite", 7).order({}, (5, 6, 7, 8, 9))
        (7, 6, 8, 5, 9)
        """
        if self.kind == "random":
            return None
        if self.kind == "greedy":
            return tuple(sorted(allowed, key=lambda x: (-probabilities.get(x, 0), x)))
        favourite = self.favourite
        assert favourite is not None  # a favourite chooser names its number
        return tuple(sorted(allowed, key=lambda x: (abs(x - favourite), x)))

    @classmethod
    def parse(cls, text: str) -> "Chooser":
        """``greedy``, ``random`` or ``favourite-N``.

        :raises BoardlabError: for any other text.

        >>> Chooser.parse("favourite-9").favourite
        9
        """
        if text in ("greedy", "random"):
            return cls(text)
        m = re.fullmatch(r"favourite-(\d+)", text)
        if m:
            return cls("favourite", int(m.group(1)))
        raise BoardlabError(f"unknown marker chooser '{text}' (greedy, random, favourite-N)")


GREEDY = Chooser("greedy")
RANDOM = Chooser("random")


def greedy_numbers(probabilities: Mapping[int, Fraction], allowed: Sequence[int], players: int) -> tuple[int, ...]:
    """The numbers greedy choosers take, in seat order from the lead.

    >>> from boardlab.analysis.sixbysix.dice import sum_probabilities
    >>> greedy_numbers(sum_probabilities(range(1, 7), 6), range(2, 37), 6)
    (21, 20, 22, 19, 23, 18)
    """
    order = GREEDY.order(probabilities, tuple(allowed))
    assert order is not None  # greedy is a preference order
    return order[:players]


def seat_win_probabilities(probabilities: Mapping[int, Fraction], allowed: Sequence[int],
                           choosers: Sequence[Chooser]) -> tuple[Fraction, ...]:
    """Exact P(win the round) for each position in choosing order (position 0 chooses first).

    Enumerates every set of taken numbers the earlier choosers can leave, with its exact
    probability; cost grows like C(len(allowed), number of random choosers).

    :raises ValueError: when there are more choosers than allowed numbers.
    """
    allowed = tuple(allowed)
    if len(choosers) > len(allowed):
        raise ValueError(f"{len(choosers)} markers but only {len(allowed)} numbers")
    states: dict[frozenset, Fraction] = {frozenset(): Fraction(1)}
    wins = []
    for position, chooser in enumerate(choosers):
        order = chooser.order(probabilities, allowed)
        last = position == len(choosers) - 1
        following: dict[frozenset, Fraction] = {}
        win = Fraction(0)
        for taken, weight in states.items():
            if order is None:
                free = [x for x in allowed if x not in taken]
                picks = [(x, weight / len(free)) for x in free]
            else:
                picks = [(next(x for x in order if x not in taken), weight)]
            for number, q in picks:
                win += q * probabilities.get(number, 0)
                if not last:
                    key = taken | {number}
                    following[key] = following.get(key, 0) + q
        wins.append(win)
        states = following
    return tuple(wins)


def no_winner_probability(probabilities: Mapping[int, Fraction], seat_wins: Sequence[Fraction]) -> Fraction:
    """P(no marker stands on the sum): one minus the seats' chances (markers never share a number)."""
    return 1 - sum(seat_wins, Fraction(0))


def rotating_seat_win_probabilities(probabilities: Mapping[int, Fraction], allowed: Sequence[int],
                                    choosers_by_seat: Sequence[Chooser]) -> tuple[Fraction, ...]:
    """Per-seat P(win a round) averaged over every lead seat (``lead = "rotate"``, n rounds).

    >>> from boardlab.analysis.sixbysix.dice import sum_probabilities
    >>> p = sum_probabilities(range(1, 7), 2)
    >>> rotating_seat_win_probabilities(p, range(2, 13), [GREEDY, GREEDY])
    (Fraction(11, 72), Fraction(11, 72))
    """
    n = len(choosers_by_seat)
    totals = [Fraction(0)] * n
    for lead in range(n):
        seats = [(lead + i) % n for i in range(n)]
        wins = seat_win_probabilities(probabilities, allowed, [choosers_by_seat[s] for s in seats])
        for s, w in zip(seats, wins):
            totals[s] += w
    return tuple(t / n for t in totals)


def win_probability_after_random(probabilities: Mapping[int, Fraction], allowed: Sequence[int],
                                 position: int, chooser: Chooser) -> Fraction:
    """Exact P(win) of `chooser` choosing at `position` (0-based) after `position` random choosers.

    The random choosers leave a uniformly random set T of `position` taken numbers.  An order
    chooser takes its j-th preference (1-based) when its first j - 1 preferences are in T and
    the j-th is not: C(m - j, position - j + 1) of the C(m, position) sets, m = len(allowed).
    A random chooser wins with probability sum(p) / m by symmetry.

    >>> from boardlab.analysis.sixbysix.dice import sum_probabilities
    >>> p = sum_probabilities(range(1, 7), 2)
    >>> win_probability_after_random(p, range(2, 13), 1, GREEDY)
    Fraction(65, 396)
    """
    allowed = tuple(allowed)
    m = len(allowed)
    order = chooser.order(probabilities, allowed)
    if order is None:
        return sum((Fraction(probabilities.get(x, 0)) for x in allowed), Fraction(0)) / m
    sets = math.comb(m, position)
    total = Fraction(0)
    for j, number in enumerate(order[:position + 1], start=1):
        total += probabilities.get(number, 0) * Fraction(math.comb(m - j, position - j + 1), sets)
    return total


def choice_value(probabilities: Mapping[int, Fraction], allowed: Sequence[int], position: int,
                 chooser: Chooser, opponents: Chooser) -> Fraction:
    """Exact P(win) of `chooser` at `position` when every earlier seat is an `opponents` chooser.

    Later seats cannot take a number already chosen, so they do not matter.
    """
    if opponents.kind == "random":
        return win_probability_after_random(probabilities, allowed, position, chooser)
    return seat_win_probabilities(probabilities, allowed, [opponents] * position + [chooser])[-1]

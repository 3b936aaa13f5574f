"""Which board numbers can win with n players, and what each eliminated player's card covers.

Everything is read from the definition: the die faces, the player range and the board layout.
With n active players the possible sums are the support of `sum_distribution(faces, n)`.
A number is *dead* when no later player count (n, n - 1, ..., min_players) can roll it:
those are the numbers a laid-down card covers (option `covering`).
Numbers below the smallest sum (2 .. n - 1 with 1..6 dice) cannot win now but become possible
as players drop out, so they stay uncovered.

>>> from boardlab.layouts import load
>>> c = coverage(load("sixbysix"))
>>> c[6].cannot_win_below, c[6].cannot_win_above, c[6].covered_by_elimination
((2, 3, 4, 5), (), (31, 32, 33, 34, 35, 36))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from boardlab.analysis.sixbysix.dice import sum_distribution

if TYPE_CHECKING:
    from boardlab.layouts.sixbysix import Definition


@dataclass(frozen=True)
class PlayerCountCoverage:
    """The board seen by n active players."""

    players: int
    can_win: tuple[int, ...]  # board numbers that n dice can roll
    cannot_win_below: tuple[int, ...]  # below the smallest sum: possible again with fewer players
    cannot_win_above: tuple[int, ...]  # dead for the rest of the game: covered when covering is on
    covered_by_elimination: tuple[int, ...]  # what the card laid when going from n to n - 1 covers
    card_fits: bool  # that card covers exactly one card's worth of numbers (one per die face)
    card_is_a_row: bool  # and those numbers are one row of the board layout


def possible_sums(faces: Sequence[int], players: int) -> frozenset[int]:
    """The sums that `players` dice with `faces` can show.

    >>> sorted(possible_sums((1, 2, 3, 4, 5, 6), 2)) == list(range(2, 13))
    True
    """
    return frozenset(sum_distribution(faces, players).support())


def live_numbers(definition: Definition, players: int) -> frozenset[int]:
    """Board numbers some count of min_players .. `players` dice can still roll.

    >>> from boardlab.layouts import load
    >>> sorted(live_numbers(load("sixbysix"), 2)) == list(range(2, 13))
    True
    """
    faces = definition.dice.faces
    live: set[int] = set()
    for n in range(definition.game.min_players, players + 1):
        live |= possible_sums(faces, n)
    return frozenset(live) & frozenset(definition.board.numbers)


def allowed_numbers(definition: Definition, players: int) -> tuple[int, ...]:
    """The numbers a marker may stand on with `players` active players, in increasing order.

    With `covering` the dead numbers are covered (by the eliminated players' cards and, when the
    game started with fewer than the maximum, by the unused cards); without it, every number.

    >>> from boardlab.layouts import load
    >>> allowed_numbers(load("sixbysix"), 2)[-1], len(allowed_numbers(load("sixbysix"), 6))
    (12, 35)
    """
    if definition.rules.covering:
        return tuple(sorted(live_numbers(definition, players)))
    return tuple(sorted(definition.board.numbers))


def coverage(definition: Definition) -> dict[int, PlayerCountCoverage]:
    """Player count -> what the board looks like to that many players (min..max players)."""
    faces = definition.dice.faces
    board = frozenset(definition.board.numbers)
    rows = {frozenset(int(t) for t in row if t != definition.board.base) for row in definition.board.cells}
    out = {}
    for n in range(definition.game.min_players, definition.game.max_players + 1):
        sums = possible_sums(faces, n)
        live = live_numbers(definition, n)
        covered = live - live_numbers(definition, n - 1) if n > definition.game.min_players else frozenset()
        lowest = min(sums)
        out[n] = PlayerCountCoverage(
            players=n,
            can_win=tuple(sorted(board & sums)),
            cannot_win_below=tuple(sorted(x for x in board - sums if x < lowest)),
            cannot_win_above=tuple(sorted(board - live)),
            covered_by_elimination=tuple(sorted(covered)),
            card_fits=not covered or len(covered) == len(faces),
            card_is_a_row=not covered or frozenset(covered) in rows,
        )
    return out


@dataclass(frozen=True)
class BoardCheck:
    """Whether the board holds exactly the numbers every allowed player count needs."""

    needed: tuple[int, ...]
    missing: tuple[int, ...]
    never_rolled: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.never_rolled


def board_check(definition: Definition) -> BoardCheck:
    """Compare the board numbers with the sums of min_players .. max_players dice.

    >>> from boardlab.layouts import load
    >>> board_check(load("sixbysix")).ok
    True
    """
    needed = live_numbers_unbounded(definition)
    board = frozenset(definition.board.numbers)
    return BoardCheck(tuple(sorted(needed)), tuple(sorted(needed - board)), tuple(sorted(board - needed)))


def live_numbers_unbounded(definition: Definition) -> frozenset[int]:
    """Every sum some allowed player count can roll, whether or not it is on the board."""
    out: set[int] = set()
    for n in range(definition.game.min_players, definition.game.max_players + 1):
        out |= possible_sums(definition.dice.faces, n)
    return frozenset(out)

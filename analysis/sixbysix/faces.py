"""The exact value of each bet face for a marker number: which face a player should bet.

Whatever face a player bets, the die shows it with probability 1 / len(faces), so the chip comes
back as often.  But the refund only matters in a round the player does not win (a winner takes
the whole bank, their own chip included).  The value of betting face f with the marker on m is
therefore P(own die = f and sum != m) = P(die = f) * (1 - P(the other dice sum to m - f)), and
the best face is the one whose refund is least often wasted on a win: the face least compatible
with the marker.  Only the player's own marker matters: another player's win still returns the
refund.

**Tie-break**: between faces of equal value, the lowest face (`best_face`).

>>> best_face((1, 2, 3, 4, 5, 6), 2, 6)  # the other die can never show 0: a 6 never wins and refunds
6
>>> face_values((1, 2, 3, 4, 5, 6), 2, 6)[6], face_values((1, 2, 3, 4, 5, 6), 2, 6)[1]
(Fraction(1, 6), Fraction(5, 36))
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Sequence

from boardlab.analysis.sixbysix.dice import die_distribution, sum_distribution


@functools.lru_cache(maxsize=None)
def _face_values(faces: tuple[int, ...], players: int, marker: int) -> dict[int, Fraction]:
    die = die_distribution(faces)
    others = sum_distribution(faces, players - 1) if players > 1 else None
    values = {}
    for face in faces:
        win = others.probability(marker - face) if others is not None else Fraction(int(face == marker))
        values[face] = die.probability(face) * (1 - win)
    return values


def face_values(faces: Sequence[int], players: int, marker: int) -> dict[int, Fraction]:
    """Face -> exact P(the die shows it and the marker on `marker` does not win), `players` dice rolled.

    :raises ValueError: when `players` < 1.

    >>> face_values((1, 2), 2, 3)
    {1: Fraction(1, 4), 2: Fraction(1, 4)}
    """
    if players < 1:
        raise ValueError(f"need at least one player, got {players}")
    return dict(_face_values(tuple(faces), int(players), int(marker)))


def best_face(faces: Sequence[int], players: int, marker: int, among: Sequence[int] | None = None) -> int:
    """The face of highest value for `marker` (the lowest of equal faces), of the faces `among`
    when given (a player barred from some).

    >>> best_face((1, 2, 3, 4, 5, 6), 2, 7)  # every face is as good with 2 players on 7
    1
    >>> best_face((1, 2, 3, 4, 5, 6), 2, 6), best_face((1, 2, 3, 4, 5, 6), 2, 6, among=(1, 2))
    (6, 1)
    """
    values = _face_values(tuple(faces), int(players), int(marker))
    return max(values if among is None else among, key=lambda face: (values[face], -face))

"""The one routine for sums of dice: exact integer weights by repeated convolution.

Every 6x6 number that depends on dice (the tables, the engine's chance outcomes, the board
coverage, the print kit) comes from `sum_distribution`, so they cannot disagree.

>>> two = sum_distribution((1, 2, 3, 4, 5, 6), 2)
>>> two.probability(7), two.total
(Fraction(1, 6), 36)
>>> sum_distribution((1, 2, 3, 4, 5, 6), 6).probability(21)
Fraction(361, 3888)
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Sequence

from boardlab.analysis.chance import Distribution


def die_distribution(faces: Sequence[int]) -> Distribution:
    """One fair die with the given faces (each face weight 1), in the order given.

    :raises ValueError: when there are no faces.

    >>> die_distribution((1, 2, 3)).items()
    [(1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3))]
    """
    return sum_distribution(faces, 1)


@functools.lru_cache(maxsize=None)
def _sum_distribution(faces: tuple[int, ...], dice: int) -> Distribution:
    if dice == 1:
        return Distribution.uniform(faces)
    return _sum_distribution(faces, dice - 1).convolve(_sum_distribution(faces, 1))


def sum_distribution(faces: Sequence[int], dice: int) -> Distribution:
    """The sum of `dice` independent fair dice with `faces`: exact weights over faces ** dice.

    The weight of a sum is the number of ordered rolls giving it; `total` is len(faces) ** dice.
    Results are cached (a `Distribution` is never changed after it is made).

    :raises ValueError: when `dice` < 1 or there are no faces.

    >>> d = sum_distribution((1, 2, 3, 4, 5, 6), 3)
    >>> d.support()[0], d.support()[-1], d.weight(10), d.total
    (3, 18, 27, 216)
    """
    faces = tuple(faces)
    if dice < 1:
        raise ValueError(f"need at least one die, got {dice}")
    if not faces:
        raise ValueError("a die needs at least one face")
    return _sum_distribution(faces, int(dice))


def sum_probabilities(faces: Sequence[int], dice: int) -> dict[int, Fraction]:
    """Sum -> exact probability, in increasing order of the sum.

    >>> sum_probabilities((1, 2), 2)
    {2: Fraction(1, 4), 3: Fraction(1, 2), 4: Fraction(1, 4)}
    """
    d = sum_distribution(faces, dice)
    return {s: d.probability(s) for s in d.support()}

"""Chance with exact weights: one object answers both "sample one" and "the exact distribution".

Dice, deck draws and every other random event of an engine come from a `Distribution`, so
an exact table and a simulation of the same event cannot disagree.

>>> d6 = Distribution.uniform(range(1, 7))
>>> d6.probability(3)
Fraction(1, 6)
>>> two = d6.convolve(d6)
>>> two.probability(7), two.support()[0], two.support()[-1]
(Fraction(1, 6), 2, 12)
"""

from __future__ import annotations

import bisect
import itertools
import random
from fractions import Fraction
from typing import Any, Callable, Iterable

#: a chance outcome: any hashable value an engine defines (a face, a deal ...)
Outcome = Any


class Distribution:
    """A finite distribution with exact non-negative integer weights.

    :raises ValueError: when a weight is negative or every weight is zero.
    """

    __slots__ = ("_weights", "_outcomes", "_cumulative", "_total")

    def __init__(self, weights: dict[Outcome, int]):
        cleaned = {}
        for outcome, weight in weights.items():
            if int(weight) != weight or weight < 0:
                raise ValueError(f"weight of {outcome!r} must be a non-negative integer, got {weight!r}")
            if weight:
                cleaned[outcome] = int(weight)
        if not cleaned:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        self._weights = cleaned
        self._outcomes = list(cleaned)
        self._cumulative = list(itertools.accumulate(cleaned.values()))  # exact integers
        self._total = self._cumulative[-1]

    @classmethod
    def uniform(cls, outcomes: Iterable[Outcome]) -> "Distribution":
        """Every outcome equally likely; repeated outcomes add up."""
        weights: dict[Outcome, int] = {}
        for outcome in outcomes:
            weights[outcome] = weights.get(outcome, 0) + 1
        return cls(weights)

    @property
    def total(self) -> int:
        """The sum of the weights (the common denominator)."""
        return self._total

    def weight(self, outcome: Outcome) -> int:
        return self._weights.get(outcome, 0)

    def probability(self, outcome: Outcome) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def items(self) -> list[tuple[Outcome, Fraction]]:
        """(outcome, exact probability) pairs, in insertion order (the chance_outcomes form)."""
        return [(o, Fraction(w, self._total)) for o, w in self._weights.items()]

    def weights(self) -> dict[Outcome, int]:
        return dict(self._weights)

    def support(self) -> list[Outcome]:
        return sorted(self._weights)

    def sample(self, rng: random.Random) -> Outcome:
        """One outcome drawn with its exact weight (one call of `rng.randrange`)."""
        r = rng.randrange(self._total)
        return self._outcomes[bisect.bisect_right(self._cumulative, r)]

    def map(self, f: Callable[[Outcome], Outcome]) -> "Distribution":
        out: dict[Outcome, int] = {}
        for outcome, weight in self._weights.items():
            key = f(outcome)
            out[key] = out.get(key, 0) + weight
        return Distribution(out)

    def convolve(self, other: "Distribution", combine: Callable = lambda a, b: a + b) -> "Distribution":
        """The distribution of combine(a, b) for independent a ~ self and b ~ other."""
        out: dict[Outcome, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = combine(a, b)
                out[key] = out.get(key, 0) + wa * wb
        return Distribution(out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"Distribution({self._weights!r})"

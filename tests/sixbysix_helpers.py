"""Independent brute-force oracles for the 6x6 tests (no code from boardlab.analysis.sixbysix)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction


def brute_sums(faces, dice: int) -> dict[int, Fraction]:
    """P(sum) by listing every ordered roll."""
    counts = Counter(sum(roll) for roll in itertools.product(faces, repeat=dice))
    total = len(faces) ** dice
    return {s: Fraction(c, total) for s, c in sorted(counts.items())}


def brute_greedy_markers(faces, players: int, numbers) -> list[int]:
    """Markers of greedy choosers in choosing order: most rolls first, then the lower number."""
    counts = Counter(sum(roll) for roll in itertools.product(faces, repeat=players))
    ranked = sorted(numbers, key=lambda x: (-counts[x], x))
    return ranked[:players]


def brute_round_wins(faces, markers) -> list[Fraction]:
    """P(each marker wins) by listing every roll of len(markers) dice."""
    wins = [0] * len(markers)
    rolls = list(itertools.product(faces, repeat=len(markers)))
    for roll in rolls:
        total = sum(roll)
        for i, m in enumerate(markers):
            if m == total:
                wins[i] += 1
    return [Fraction(w, len(rolls)) for w in wins]


def brute_face_values(faces, players: int, marker: int) -> dict[int, Fraction]:
    """P(own die shows the face and the dice do not sum to the marker), by listing every roll."""
    rolls = list(itertools.product(faces, repeat=players))
    return {face: Fraction(sum(roll[0] == face and sum(roll) != marker for roll in rolls), len(rolls))
            for face in faces}


def brute_best_face(faces, players: int, marker: int) -> int:
    """The face of highest value, the lowest of equal faces."""
    values = brute_face_values(faces, players, marker)
    return min(faces, key=lambda face: (-values[face], face))


def with_rules(definition, **changes):
    """A copy of a definition with some rule options changed."""
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, **changes))

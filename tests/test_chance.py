"""Exact distributions: probabilities sum to exactly 1, sampling follows the integer weights."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from boardlab.analysis.chance import Distribution

weights = st.dictionaries(st.integers(-20, 20), st.integers(0, 50), min_size=1).filter(lambda d: any(d.values()))


@given(weights)
def test_probabilities_sum_to_exactly_one(w):
    d = Distribution(w)
    assert sum(p for _, p in d.items()) == 1
    assert d.total == sum(w.values())


class Counter:
    """An rng whose randrange walks through every value once: sampling must hit weights exactly."""

    def __init__(self):
        self.next = 0

    def randrange(self, n):
        value = self.next % n
        self.next += 1
        return value


@given(weights)
def test_sampling_every_random_number_once_reproduces_the_weights(w):
    d = Distribution(w)
    rng = Counter()
    seen: dict = {}
    for _ in range(d.total):
        o = d.sample(rng)
        seen[o] = seen.get(o, 0) + 1
    assert seen == {o: c for o, c in w.items() if c}


@given(st.lists(st.integers(1, 8), min_size=1, max_size=4), st.integers(1, 3))
def test_convolution_matches_brute_force(faces, n):
    die = Distribution.uniform(faces)
    total = die
    for _ in range(n - 1):
        total = total.convolve(die)
    brute: dict = {}
    for roll in itertools.product(faces, repeat=n):
        brute[sum(roll)] = brute.get(sum(roll), 0) + 1
    assert dict(total.items()) == {s: Fraction(c, len(faces) ** n) for s, c in brute.items()}


def test_bad_weights_are_refused():
    with pytest.raises(ValueError):
        Distribution({1: -1})
    with pytest.raises(ValueError):
        Distribution({1: 0})
    with pytest.raises(ValueError):
        Distribution({1: 0.5})

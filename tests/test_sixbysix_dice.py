"""The one dice routine against brute force over every roll and against the spec's facts."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis.sixbysix.dice import die_distribution, sum_distribution, sum_probabilities
from boardlab.layouts import load
from sixbysix_helpers import brute_sums

FACES = load("sixbysix").dice.faces


@pytest.mark.parametrize("dice", range(1, 7))
def test_sums_match_every_roll(dice):
    assert sum_probabilities(FACES, dice) == brute_sums(FACES, dice)


def test_spec_facts():
    six = sum_distribution(FACES, 6)
    assert six.probability(21) == Fraction(4332, 46656)
    assert six.probability(6) == Fraction(1, 46656)
    assert six.total == 46656
    assert sum_distribution(FACES, 2).probability(7) == Fraction(6, 36)
    for n in range(1, 7):
        assert sum_distribution(FACES, n).support() == list(range(n, 6 * n + 1))


def test_die_is_fair():
    assert die_distribution(FACES).items() == [(f, Fraction(1, 6)) for f in FACES]


def test_bad_counts():
    with pytest.raises(ValueError):
        sum_distribution(FACES, 0)
    with pytest.raises(ValueError):
        sum_distribution((), 2)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=5, unique=True), st.integers(1, 4))
def test_any_die_matches_brute_force(faces, dice):
    probabilities = sum_probabilities(faces, dice)
    assert probabilities == brute_sums(faces, dice)
    assert sum(probabilities.values()) == 1

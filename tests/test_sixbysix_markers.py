"""Exact marker values against independent enumerations over every roll and every choice."""

import dataclasses
import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis.sixbysix.board import board_check
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.sixbysix.markers import (GREEDY, RANDOM, Chooser, choice_value, greedy_numbers,
                                                 rotating_seat_win_probabilities, seat_win_probabilities,
                                                 win_probability_after_random)
from boardlab.layouts import BoardlabError, load

from sixbysix_helpers import brute_greedy_markers, brute_round_wins, brute_sums

DEFINITION = load("sixbysix")
FACES = DEFINITION.dice.faces
NUMBERS = tuple(sorted(DEFINITION.board.numbers))


@pytest.mark.parametrize("players", range(2, 7))
def test_greedy_per_seat_matches_enumeration_over_rolls(players):
    markers = brute_greedy_markers(FACES, players, NUMBERS)
    expected = brute_round_wins(FACES, markers)
    p = sum_probabilities(FACES, players)
    assert list(greedy_numbers(p, NUMBERS, players)) == markers
    got = seat_win_probabilities(p, NUMBERS, [GREEDY] * players)
    assert list(got) == expected
    assert all(isinstance(x, Fraction) for x in got)
    rotating = rotating_seat_win_probabilities(p, NUMBERS, [GREEDY] * players)
    assert rotating == tuple([sum(expected, Fraction(0)) / players] * players)


def test_six_player_greedy_values():
    p = sum_probabilities(FACES, 6)
    wins = seat_win_probabilities(p, NUMBERS, [GREEDY] * 6)
    assert wins[0] == Fraction(4332, 46656)  # the spec's P(sum = 21)
    assert wins[1] == wins[2] and wins[3] == wins[4]  # symmetric pairs around 21
    assert greedy_numbers(p, NUMBERS, 6) == (21, 20, 22, 19, 23, 18)  # tie-break: the lower number


def brute_after_random(probabilities, allowed, position, pick):
    """Average over every ordered sequence of `position` random choices before `pick`."""
    total, count = Fraction(0), 0
    for earlier in itertools.permutations(allowed, position):
        total += probabilities.get(pick(set(earlier)), 0)
        count += 1
    return total / count


@pytest.mark.parametrize("players", [2, 3, 4])
def test_closed_form_after_random_choosers(players):
    p = brute_sums(FACES, players)
    allowed = tuple(range(2, 6 * players + 1))
    for position in range(min(players, 3)):
        greedy = brute_after_random(p, allowed, position,
                                    lambda taken: min((x for x in allowed if x not in taken),
                                                      key=lambda x: (-p.get(x, 0), x)))
        favourite = brute_after_random(p, allowed, position,
                                       lambda taken: min((x for x in allowed if x not in taken),
                                                         key=lambda x: (abs(x - 7), x)))
        assert win_probability_after_random(p, allowed, position, GREEDY) == greedy
        assert win_probability_after_random(p, allowed, position, Chooser("favourite", 7)) == favourite
        assert win_probability_after_random(p, allowed, position, RANDOM) == Fraction(1, len(allowed))
        # the slow enumeration of taken sets agrees too
        assert seat_win_probabilities(p, allowed, [RANDOM] * position + [GREEDY])[-1] == greedy


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.lists(st.sampled_from(["greedy", "random", "favourite-7", "favourite-10"]),
                                   min_size=2, max_size=4))
def test_any_mix_of_choosers_matches_brute_force(players, names):
    """Every ordered choice sequence, every roll: the enumeration of taken sets is exact."""
    choosers = [Chooser.parse(n) for n in names]
    p = brute_sums(FACES, players)
    allowed = tuple(range(2, 6 * players + 1))
    got = seat_win_probabilities(p, allowed, choosers)
    expected = [Fraction(0)] * len(choosers)

    def walk(i, taken, weight):
        if i == len(choosers):
            return
        free = [x for x in allowed if x not in taken]
        c = choosers[i]
        if c.kind == "random":
            options = free
        elif c.kind == "greedy":
            options = [min(free, key=lambda x: (-p.get(x, 0), x))]
        else:
            options = [min(free, key=lambda x: (abs(x - c.favourite), x))]
        for x in options:
            w = weight / len(options)
            expected[i] += w * p.get(x, 0)
            walk(i + 1, taken | {x}, w)

    if sum(c.kind == "random" for c in choosers) <= 2:
        walk(0, frozenset(), Fraction(1))
        assert list(got) == expected
    assert sum(got) <= 1


def test_choice_value_against_favourites():
    p = sum_probabilities(FACES, 2)
    allowed = tuple(range(2, 13))
    # a favourite-7 player took 7: the greedy seat takes 6 (5/36), a random seat averages the rest
    assert choice_value(p, allowed, 1, GREEDY, Chooser("favourite", 7)) == Fraction(5, 36)
    assert choice_value(p, allowed, 1, RANDOM, Chooser("favourite", 7)) == (1 - Fraction(6, 36)) / 10


def test_parse_rejects_unknown():
    with pytest.raises(BoardlabError):
        Chooser.parse("clever")


def test_board_check_reports_a_bad_board():
    bad_board = dataclasses.replace(DEFINITION.board, layout=DEFINITION.board.layout[:-1])
    check = board_check(dataclasses.replace(DEFINITION, board=bad_board))
    assert not check.ok and check.missing == tuple(range(31, 37)) and check.never_rolled == ()

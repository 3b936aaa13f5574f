"""The exact two-player chain against an independent hand model and against seeded self-play."""

import itertools
import math
from fractions import Fraction

import pytest

from boardlab.analysis.runner import run_records
from boardlab.analysis.sixbysix.engine import AGENTS, SixBySixGame
from boardlab.analysis.sixbysix.two_player import two_player_game
from boardlab.analysis.stats import wilson_interval
from boardlab.layouts import load

from sixbysix_helpers import brute_best_face, brute_greedy_markers, with_rules

DEFINITION = load("sixbysix")
FACES = DEFINITION.dice.faces


@pytest.mark.parametrize("bank", ["carry", "house"])
def test_one_chip_each_by_hand(bank):
    """One chip each, seat 0 always leading: a round ends the game or returns to one chip each, empty bank."""
    lead, other = brute_greedy_markers(FACES, 2, range(2, 13))
    bet0, bet1 = brute_best_face(FACES, 2, lead), brute_best_face(FACES, 2, other)  # greedy agents' bets
    outcome = {"repeat": Fraction(0), 0: Fraction(0), 1: Fraction(0), "draw": Fraction(0)}
    cases = list(itertools.product(FACES, repeat=2))
    for die0, die1 in cases:
        r0, r1 = die0 == bet0, die1 == bet1
        pot = 2 - r0 - r1
        c0 = r0 + (pot if die0 + die1 == lead else 0)
        c1 = r1 + (pot if die0 + die1 == other else 0)
        key = "repeat" if c0 and c1 else "draw" if not c0 and not c1 else 0 if c0 else 1
        outcome[key] += Fraction(1, len(cases))
    duel = two_player_game(with_rules(DEFINITION, unclaimed_bank=bank), "fixed", chips=1)
    stop = 1 - outcome["repeat"]
    assert duel.win[0] == pytest.approx(float(outcome[0] / stop), abs=1e-12)
    assert duel.win[1] == pytest.approx(float(outcome[1] / stop), abs=1e-12)
    assert duel.draw == pytest.approx(float(outcome["draw"] / stop), abs=1e-12)
    assert duel.expected_rounds == pytest.approx(float(1 / stop), abs=1e-12)


@pytest.mark.parametrize("lead", ["fixed", "rotate"])
def test_chain_agrees_with_self_play(lead):
    definition = with_rules(DEFINITION, chips=6, lead=lead)
    duel = two_player_game(definition, lead)
    game = SixBySixGame(definition, 2, compare_lead=False)
    records, _ = run_records(game, [AGENTS["greedy"]] * 2, 3000, seed=21, workers=1, seat_rotation=False, progress=False)
    assert not any(r.unfinished for r in records)
    wins = sum(r.winners == (0,) for r in records)
    lo, hi = wilson_interval(wins, len(records), confidence=0.999)
    assert lo <= duel.win[0] <= hi
    lengths = [r.length for r in records]
    mean = sum(lengths) / len(lengths)
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (len(lengths) - 1))
    assert abs(mean - duel.expected_rounds) < 3.5 * sd / math.sqrt(len(lengths))


def test_fixed_lead_favours_the_starter():
    fixed, rotate = two_player_game(DEFINITION, "fixed"), two_player_game(DEFINITION, "rotate")
    assert fixed.win[0] > 0.6 > 0.4 > fixed.win[1]
    assert abs(rotate.win[0] - rotate.win[1]) < 0.01
    assert sum(fixed.win) + fixed.draw == pytest.approx(1)

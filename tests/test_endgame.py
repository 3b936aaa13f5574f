"""The endgame measure (`perfect.endgame_share`) against computations written out here.

The take-away game of tests/toygame has a known answer (the player to move loses exactly at a
multiple of take_max + 1), so every sampled decision's optimal moves, the perfect agent's score
and a random mover's expected score are computed by hand.  On Blockd, too large to solve from
its start, a plain minimax (no table, the result of seat 0 minus that of seat 1) agrees with the
solver on the values and the optimal moves of sampled endgame positions.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.perfect import PerfectAgent, Solver, endgame_share
from boardlab.layouts import load, register_game, registry
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.loader import load_with


@pytest.fixture
def toygame():
    from toygame.registration import GAME

    register_game(GAME)
    yield GAME
    registry.unregister_game(GAME.id)


def pile_game(players=2):
    definition = load_with("toygame", {("rules", "die_faces"): [1, 2, 3, 4], ("rules", "take_max"): 3,
                                       ("rules", "start"): 10})
    return engines.make_game(definition, players)


def winning_takes(counters: int) -> list[int]:
    """The take that leaves a multiple of 4 (the known answer), or every legal take when none does."""
    legal = list(range(1, min(3, counters) + 1))
    return [counters % 4] if counters % 4 else legal


def test_the_perfect_agent_plays_every_sampled_endgame_decision_optimally(toygame):
    game = pile_game()
    result = endgame_share(game, lambda g: PerfectAgent(), 40, seed=5, detail=True)
    assert result["positions"] == len(result["samples"]) == 40
    assert result["optimal"] == 40 and result["share"] == 1.0
    for state, moves, good, move in result["samples"]:
        assert good == winning_takes(state.pile) and len(good) < len(moves)
        assert move in good


def test_a_random_agent_scores_what_the_known_answer_says_on_the_sampled_positions(toygame):
    game = pile_game()
    result = endgame_share(game, lambda g: RandomAgent(), 60, seed=9, plies=6, detail=True)
    samples = result["samples"]
    assert result["positions"] == len(samples) == 60
    piles = [state.pile for state, *_ in samples]
    # the decisions that matter: a winning pile (not a multiple of 4) with more than one take
    assert all(p % 4 and p > 1 for p in piles)
    hits = sum(move == p % 4 for p, (_, _, _, move) in zip(piles, samples))
    assert result["optimal"] == hits and result["share"] == round(hits / 60, 6)
    assert 0 < hits < 60  # a random mover misses some: the count is not the perfect one
    expected = sum(Fraction(1, min(3, p)) for p in piles) / 60  # one winning take among min(3, p)
    assert result["random_share"] == round(float(expected), 6)
    assert 1 <= result["plies"][0] <= result["plies"][1] <= 6


def test_the_endgame_sample_is_reproducible_from_its_seed(toygame):
    game = pile_game()
    first = endgame_share(game, lambda g: RandomAgent(), 30, seed=3)
    assert endgame_share(game, lambda g: RandomAgent(), 30, seed=3) == first
    assert endgame_share(game, lambda g: RandomAgent(), 30, seed=4) != first


def test_more_than_two_players_are_refused_with_the_reason(toygame):
    with pytest.raises(BoardlabError, match="two players only"):
        endgame_share(pile_game(3), lambda g: RandomAgent(), 5, seed=1)


def minimax(state) -> Fraction:
    """Seat 0's result minus seat 1's under plain minimax, every line searched (no table)."""
    if state.is_terminal():
        returns = state.returns()
        return Fraction(returns[0]) - Fraction(returns[1])
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def test_plain_minimax_agrees_with_the_solver_on_blockd_endgames():
    game = engines.make_game(load("blockd"), 2)
    result = endgame_share(game, lambda g: RandomAgent(), 6, seed=11, plies=6, limit=1_000, detail=True)
    assert result["positions"] == 6 and result["plies"][1] > 2  # not only last moves
    for state, moves, good, _ in result["samples"]:
        seat = state.current_player()
        sign = 1 if seat == 0 else -1
        scored = []
        for move in moves:
            child = state.clone()
            child.apply(move)
            scored.append((move, sign * minimax(child)))
        best = max(v for _, v in scored)
        assert good == [m for m, v in scored if v == best]
        values = Solver().values(state)
        assert values[0] - values[1] == sign * best


def test_games_stopped_at_the_cap_give_no_endgame(toygame):
    """Two turns never empty a pile of 11 or more: every cheap game stops at the cap."""
    definition = load_with("toygame", {("rules", "die_faces"): [1, 2, 3, 4], ("rules", "take_max"): 3,
                                       ("rules", "start"): 10, ("rules", "max_turns"): 2})
    result = endgame_share(engines.make_game(definition, 2), lambda g: RandomAgent(), 3, seed=1)
    assert result["positions"] == 0 and result["games"] == 150 and result["share"] is None
    assert endgame_share(pile_game(), lambda g: RandomAgent(), 3, seed=1)["positions"] == 3

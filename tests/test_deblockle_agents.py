"""Deblockle's agents: greedy and the rollout policy read the turns-to-score table; MCTS
beats random and greedy (slow test: 200 games each, seats alternated)."""

from __future__ import annotations

import math
import random

import pytest

from boardlab.analysis import engines
from boardlab.analysis.deblockle.agents import (GreedyAgent, RushAgent, move_gain, promising_moves, race_estimate,
                                                total_turns)
from boardlab.analysis.deblockle.engine import SCORED, make_game
from boardlab.analysis.runner import run_records
from boardlab.layouts import load

D = load("deblockle")


def dealt(seed: int):
    state = make_game(D).new_initial_state()
    state.apply(state.sample_chance(random.Random(seed)))
    return state


def test_move_gain_is_the_tables_drop_for_the_moved_block():
    state = dealt(1)
    for move in state.legal_moves():
        after = state.clone()
        after.apply(move)
        assert move_gain(state, 0, move) == total_turns(state, 0) - total_turns(after, 0)


def test_greedy_scores_when_it_can_and_wins_with_the_last_block():
    state = make_game(D).state_from_position({"game": "deblockle", "to_move": 1, "blocks": [
        {"owner": 1, "at": "d5", "top": "X", "north": "Stop"},  # south face Star: a tip north scores
        {"owner": 2, "at": "a1", "top": "Stop", "north": "Cross"}]})
    move = GreedyAgent().choose(state, random.Random(1))
    assert move.to == SCORED and GreedyAgent.score(state, 0, move) == math.inf


def test_greedy_values_own_progress_and_the_opponents_best_reply():
    state = dealt(4)
    for move in state.legal_moves()[:6]:
        after = state.clone()
        after.apply(move)
        best_reply = max(move_gain(after, 1, r) for r in after.legal_moves())
        assert GreedyAgent.score(state, 0, move) == total_turns(after, 1) - best_reply - total_turns(after, 0)


def test_rush_takes_a_best_gain_and_promising_moves_keep_every_best_move():
    state = dealt(5)
    gains = [move_gain(state, 0, m) for m in state.legal_moves()]
    for seed in range(5):
        assert move_gain(state, 0, RushAgent(noise=0.0).choose(state, random.Random(seed))) == max(gains)
    kept = promising_moves(state, margin=1)
    assert {m for m, g in zip(state.legal_moves(), gains) if g >= max(gains) - 1} == set(kept)


def test_race_estimate_favours_the_player_with_fewer_turns_left():
    state = dealt(6)
    p0, p1 = race_estimate(state)
    assert abs(p0 + p1 - 1) < 1e-12
    assert (p0 > 0.5) == (total_turns(state, 0) - 0.5 < total_turns(state, 1))


def test_greedy_beats_random():
    game = make_game(D)
    table = engines.agent_factories("deblockle")
    _, summary = run_records(game, [table["greedy"], table["random"]], 10, seed=3, workers=1,
                     agent_names=["greedy", "random"], progress=False)
    assert summary["win_rate_by_agent"]["greedy"]["wins"] >= 9


@pytest.mark.slow
@pytest.mark.parametrize("opponent,least", [("random", 0.90), ("greedy", 0.60)])
def test_mcts_beats_random_and_greedy_over_200_games(opponent, least):
    game = make_game(D)
    table = engines.agent_factories("deblockle")
    _, summary = run_records(game, [table["mcts"], table[opponent]], 200, seed=1, agent_names=["mcts", opponent],
                     progress=False)
    r = summary["win_rate_by_agent"]["mcts"]
    assert r["seats_played"] == 200 and r["rate"] >= least, r

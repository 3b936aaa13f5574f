"""Blockd's compiled MCTS (`analysis/blockd/search.py`) against its Python twin (`mcts.MCTS` over the
reference engine), move for move: the same move in every position for the same seed, the agent's
rng left in the same state (the same draws), and whole games with the same records; on every rule
option the kernel plays, at every player count."""

from __future__ import annotations

import random

import numpy as np
import pytest

from blockd_definitions import engine_positions, option_definitions

from boardlab.analysis import mersenne
from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.blockd import kernel
from boardlab.analysis.blockd.agents import EXPLORATION, AGENTS, CompiledMCTSAgent, DestinationRandomAgent, GreedyAgent
from boardlab.analysis.blockd.engine import make_game
from boardlab.analysis.mcts import MCTSAgent
from boardlab.analysis.runner import make_match, play_one

DEFINITIONS = option_definitions()


def same_choice(fast, slow, state, seed):
    a, b = random.Random(seed), random.Random(seed)
    before = state.to_position()
    got, want = fast.choose(state, a), slow.choose(state.clone(), b)
    assert got == want
    assert a.getstate() == b.getstate()  # the same draws, so the rest of the game draws the same
    assert state.to_position() == before


def test_getrandbits64_is_pythons():
    mt = np.zeros(mersenne.STATE_WORDS, dtype=np.uint32)
    for seed in (0, 1, 99, 2**40 + 3):
        rng = random.Random(seed)
        mersenne.seed_state(mt, np.uint64(seed))
        for _ in range(700):  # past a twist of the 624 words
            assert int(mersenne.getrandbits64(mt)) == rng.getrandbits(64)


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_compiled_mcts_chooses_as_the_python_mcts(name):
    definition = DEFINITIONS[name]
    for players in sorted({2, definition.game.max_players}):
        game = make_game(definition, players)
        if kernel.unsupported(game) is not None:
            continue
        for i, state in enumerate(engine_positions(game, 8, seed=5 + players)):
            budget = (40, 7, 120)[i % 3]
            same_choice(CompiledMCTSAgent(budget, RandomAgent(), EXPLORATION),
                        MCTSAgent(budget, RandomAgent(), EXPLORATION), state, 1000 * players + i)


def test_the_destination_rollout_and_other_exploration_constants_are_compiled_too():
    game = make_game(DEFINITIONS["blockd"], 3)
    for i, state in enumerate(engine_positions(game, 10, seed=2)):
        c = (0.0, 0.7, 2.0)[i % 3]
        same_choice(CompiledMCTSAgent(50, DestinationRandomAgent(), c), MCTSAgent(50, DestinationRandomAgent(), c),
                    state, i)


def test_the_compiled_search_is_taken_and_greedy_rollouts_stay_in_python(monkeypatch):
    """The agent table's `mcts` takes the compiled path (a call is counted); `mcts-greedy` does not."""
    from boardlab.analysis.blockd import search

    calls = []
    real = search.mcts_move
    monkeypatch.setattr(search, "mcts_move", lambda *args: calls.append(1) or real(*args))
    game = make_game(DEFINITIONS["blockd"], 2)
    state = next(s for s in engine_positions(game, 20, seed=1) if len(s.legal_moves()) > 1)
    AGENTS["mcts-20"](game).choose(state, random.Random(1))
    assert calls == [1]
    greedy = AGENTS["mcts-greedy-5"](game)
    assert isinstance(greedy.search.rollout, GreedyAgent)
    greedy.choose(state, random.Random(1))
    assert calls == [1]


@pytest.mark.parametrize("players", [2, 4])
def test_compiled_mcts_plays_the_python_mcts_games(players):
    """Whole games through the runner: MCTS (budget 25) against greedy and random, compiled and in
    Python, seats rotated; every record is the same."""
    game = make_game(DEFINITIONS["blockd"], players)
    others = [lambda g: GreedyAgent(), lambda g: DestinationRandomAgent()] * 2
    names = ["mcts-25"] + ["greedy", "random", "greedy"][:players - 1]
    fast = make_match(game, [lambda g: CompiledMCTSAgent(25, RandomAgent(), EXPLORATION)] + others[:players - 1],
                      3, agent_names=names)
    slow = make_match(game, [lambda g: MCTSAgent(25, RandomAgent(), EXPLORATION)] + others[:players - 1], 3,
                      agent_names=names)
    for index in range(3):
        assert play_one(fast, index) == play_one(slow, index)

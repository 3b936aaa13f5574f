"""Deblockle's compiled greedy and MCTS agents against their Python twins, move for move: the
same move in every position for the same seed, the agent's rng left in the same state, and
whole games with the same records."""

from __future__ import annotations

import dataclasses
import random

import pytest

from deblockle_reference import definition_named

from boardlab.analysis import engines
from boardlab.analysis.deblockle.batch import play_block
from boardlab.analysis.deblockle.agents import CompiledGreedyAgent, CompiledMCTSAgent, GreedyAgent, python_mcts
from boardlab.analysis.deblockle.engine import make_game
from boardlab.analysis.runner import make_match, play_one

NAMES = ("deblockle", "deblockle-no-touching", "deblockle-hopless-ends-turn", "deblockle-two-blocks", "board-5x6",
         "board-open-points", "deblockle-handicap")


def positions(name: str, count: int, seed: int, turns: int = 120):
    """`count` positions of random games (some near the end), each with a seed for the agents."""
    definition = definition_named(name)
    definition = dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, max_turns=turns))
    game = make_game(definition)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ in range(rng.randrange(turns)):
            if state.is_terminal():
                break
            state.apply(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
        if not state.is_terminal():
            found.append((state, rng.getrandbits(32)))
    return found


def same_choice(fast, slow, state, seed):
    a, b = random.Random(seed), random.Random(seed)
    before = state.to_position()
    got, want = fast.choose(state, a), slow.choose(state.clone(), b)
    assert got == want
    assert a.getstate() == b.getstate()  # the same draws, so the rest of the game draws the same
    assert state.to_position() == before


@pytest.mark.parametrize("name", NAMES)
def test_compiled_greedy_chooses_as_the_python_greedy(name):
    for state, seed in positions(name, 25, 7):
        same_choice(CompiledGreedyAgent(), GreedyAgent(), state, seed)


@pytest.mark.parametrize("name", NAMES)
def test_compiled_mcts_chooses_as_the_python_mcts(name):
    for state, seed in positions(name, 6, 11):
        same_choice(CompiledMCTSAgent(60), python_mcts(60), state, seed)


def test_compiled_agents_play_the_python_agents_games():
    """Whole games through the runner: MCTS (budget 30) against greedy, each pair of agents compiled
    and in Python, seats rotated; every record is the same."""
    definition = definition_named("deblockle")
    game = make_game(dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, max_turns=80)))
    fast = make_match(game, [lambda g: CompiledMCTSAgent(30), lambda g: CompiledGreedyAgent()], 5,
                      agent_names=["mcts-30", "greedy"])
    slow = make_match(game, [lambda g: python_mcts(30), lambda g: GreedyAgent()], 5, agent_names=["mcts-30", "greedy"])
    for index in range(4):
        assert play_one(fast, index) == play_one(slow, index)


@pytest.mark.parametrize("name", ("deblockle", "deblockle-no-touching", "deblockle-two-blocks"))
def test_compiled_games_are_the_runners_games(name):
    """The runner's fast path for random, greedy and MCTS seats (`batch.play_block`) gives the
    records `runner.play_one` gives through the reference engine, agent by agent."""
    definition = definition_named(name)
    game = make_game(dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, max_turns=90)))
    factories = engines.agent_factories(game.id)
    for names in (["greedy", "random"], ["mcts-20", "greedy"], ["mcts-12", "mcts-6"], ["greedy", "greedy"]):
        match = make_match(game, [factories[n] for n in names], 3, agent_names=names)
        fast = play_block(game, match, 2, 6)
        assert fast is not None and len(fast) == 4
        assert fast == [play_one(match, i) for i in range(2, 6)]

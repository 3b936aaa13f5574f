"""Links agent strength over 200 four-player games per table (slow: `make test-slow`).

The issue's targets (MCTS wins at least 90% of games against three random players and 60%
against three greedy ones) are printed by `make bench`; they are not met (see the README: even a
search that sees every hand and the deck order reaches 90% against random players and 58% against
greedy ones, `bench_links.py --ceiling`).  What is asserted here is
what the agents do reach, with room for the noise of 200 games.
"""

from __future__ import annotations

import pytest

from boardlab.analysis import engines
from boardlab.analysis.links.agents import AGENTS
from boardlab.analysis.runner import run_records
from boardlab.analysis.stats import wilson_interval
from boardlab.layouts import load

GAMES = 200


def wins_alone(agent: str, opponent: str) -> int:
    game = engines.make_game(load("links"), 4)
    names = [agent] + [opponent] * 3
    records, _ = run_records(game, [AGENTS[n] for n in names], GAMES, seed=7, agent_names=names, progress=False)
    return sum(r.winners == (r.agents.index(agent),) for r in records)


@pytest.mark.slow
def test_mcts_is_clearly_stronger_than_random_and_greedy_players():
    mcts_random, greedy_random = wins_alone("mcts", "random"), wins_alone("greedy", "random")
    assert wilson_interval(mcts_random, GAMES)[0] > 0.5 and mcts_random > greedy_random
    mcts_greedy = wins_alone("mcts", "greedy")
    assert wilson_interval(mcts_greedy, GAMES)[0] > 0.25  # better than an equal share of four seats

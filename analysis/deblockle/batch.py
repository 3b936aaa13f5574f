"""Random Deblockle self-play by the compiled kernel: the runner's fast path.

`play_block(game, match, start, stop)` plays games start..stop-1 when every seat plays the
common random agent (uniform over the legal moves) and returns their `GameRecord`s; when the
agents are random, greedy and MCTS (any mix) it plays them by `search.play_agent_games`, which
gives the records of the reference path itself; otherwise it returns None and the runner plays
the games through the reference engine.

Randomness, and what matches the reference path:
- the setup of game i is the reference path's: `game.deal(Random(derive_seed(seed,
  CHANCE_STREAM, d)))` for its deal d (`Match.seating`), turned into start orientations by
  `game.placements` (random or adversarial setup); with one agent in every seat the runner gives
  every game a deal of its own (Deblockle does not turn deals round the table);
- the moves are not the reference path's (that would need one Python rng per seat): the
  move of game i at turn t is picked by `splitmix64(derive_seed(seed, BATCH_STREAM, i) +
  (t + 1) * golden)`.  A game's result is a function of (seed, i) alone: the same whatever
  the block size or the number of workers.
"""

from __future__ import annotations

import gc
import random

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from boardlab.analysis.seeds import derive_seeds
from boardlab.analysis.deblockle import kernel
from boardlab.analysis.runner import AGENT_STREAM, CHANCE_STREAM, GameRecord, Match, derive_seed

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.engine import DeblockleGame

#: stream of the kernel's move choices (the runner uses 0 for setups and 1 for agents)
BATCH_STREAM = 2
#: games per runner block on this path
BATCH_BLOCK = 4096


def unsupported(game: DeblockleGame, match: Match) -> str | None:
    """Why the kernel cannot play this match (None when it can)."""
    if game.board.cells > 62:
        return "boards of more than 62 squares"
    policies = {factory(game).random_policy for factory in match.agents}
    if policies != {"moves"}:
        return "not every seat plays the random agent"
    return None


def block_size(game: DeblockleGame, match: Match) -> int | None:
    return BATCH_BLOCK if unsupported(game, match) is None else None


def setups(game: DeblockleGame, seed: int, indices: ArrayLike) -> np.ndarray:
    """The start orientation of every block of games `indices`, as `runner.play_one` sets them up."""
    rows = []
    for s in derive_seeds(seed, CHANCE_STREAM, indices).tolist():
        rows.append(game.placements(game.deal(random.Random(s))))
    return np.array(rows, dtype=np.int64).reshape(len(rows), -1)


def compiled_seats(game: DeblockleGame, match: Match) -> list[tuple[int, int]] | None:
    """(kind, budget) of `search.play_agent_games` for each of the match's agents, or None when
    one of them is not an agent the compiled games play (random, greedy, MCTS) or the kernel
    cannot play the board."""
    from boardlab.analysis.agents import RandomAgent
    from boardlab.analysis.deblockle import search
    from boardlab.analysis.deblockle.agents import NEVER, CompiledGreedyAgent, CompiledMCTSAgent

    if search.search_tables(game, NEVER) is None:
        return None
    seats = []
    for factory in match.agents:
        agent = factory(game)
        if isinstance(agent, CompiledMCTSAgent):
            seats.append((search.MCTS, agent.iterations))
        elif isinstance(agent, CompiledGreedyAgent):
            seats.append((search.GREEDY, 0))
        elif type(agent) is RandomAgent:
            seats.append((search.RANDOM, 0))
        else:
            return None
    return seats


def play_block(game: DeblockleGame, match: Match, start: int, stop: int) -> list[GameRecord] | None:
    """Records of games start..stop-1 of `match`, or None when no compiled path plays its agents.

    Every seat random: the random self-play kernel (its own move stream, see the module
    docstring).  Otherwise, every agent random, greedy or MCTS: `search.play_agent_games`, the
    records `runner.play_one` gives (the same setups and the same agent draws).
    """
    indices = np.arange(start, stop)
    seating = [match.seating(i) for i in indices.tolist()]  # (deal, rotation, agent per seat) as play_one has them
    if unsupported(game, match) is None:
        orientations = setups(game, match.seed, [deal for deal, _, _ in seating])
        result = kernel.play_setups(game, orientations, derive_seeds(match.seed, BATCH_STREAM, indices))
        return _records(match, indices, seating, result)
    seats = compiled_seats(game, match)
    if seats is None:
        return None
    from boardlab.analysis.deblockle import agents, search

    orientations = setups(game, match.seed, [deal for deal, _, _ in seating])
    seeds = [[derive_seed(match.seed, AGENT_STREAM, i, s) for s in range(game.players)] for i in indices.tolist()]
    kinds = [[seats[a][0] for a in order] for _, _, order in seating]
    budgets = [[seats[a][1] for a in order] for _, _, order in seating]
    tables = search.search_tables(game, agents.NEVER)
    assert tables is not None  # the batch path plays only boards the kernel takes (`unsupported`)
    result = search.play_agents(game, orientations, seeds, kinds, budgets, tables, agents.EXPLORATION, agents.ROLLOUT_PLIES, agents.MARGIN, agents.RACE_SCALE)
    return _records(match, indices, seating, result)


def _records(match: Match, indices: np.ndarray, seating: Sequence[tuple[int, int, tuple[int, ...]]],
             result: kernel.KernelResult) -> list[GameRecord]:
    paused = gc.isenabled()  # thousands of small acyclic records: the cyclic GC would walk them for nothing
    gc.disable()
    try:
        return [GameRecord(index, deal, rotation, tuple(match.agent_names[a] for a in order), *result.record(g))
                for g, (index, (deal, rotation, order)) in enumerate(zip(indices.tolist(), seating))]
    finally:
        if paused:
            gc.enable()

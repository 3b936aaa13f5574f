"""Deblockle's agents: greedy (from the turns-to-score table) and MCTS.

Names, as `boardlab simulate --agents` takes them (the common `random` agent comes from
`analysis/agents.py`):
- `greedy`: plays the move after which (the opponent's total turns-to-score after their best
  reply) minus (its own total turns-to-score) is largest.  A total is the sum over a player's
  blocks on the board of the table's fewest turns for that block alone on an empty board
  (`reach.turns_to_score`), so it minimises its own total and, through the opponent's best
  reply, prefers moves that leave the opponent slow (blocking a path, no_touching).  A move
  that wins at once beats everything; ties are broken with its seeded rng.
- `mcts`, `mcts-N`: UCT (`analysis/mcts.py`) with `DEFAULT_BUDGET` or N iterations per move.
  Random rollouts would tell the search nothing (two random players score about one block
  each in 300 turns), so the search uses what the table knows:
  - every node tries only the `promising_moves`: those whose gain in turns-to-score is
    within `MARGIN` of the best gain (so it never wastes its budget on moves that go back);
  - a rollout is `ROLLOUT_PLIES` moves of `RushAgent` (each side takes its best gain),
    then `race_estimate` turns the two totals into a chance to win.

Both run on the compiled path (`search.py`: the same moves and draws as the Python agents
`GreedyAgent` and `python_mcts`, which stay their readable twins and are tested against them).

A search budget is a property of the agent, not a fact of the game, so it lives here.

>>> sorted(AGENTS)
['greedy', 'mcts']
>>> 'mcts-50' in AGENTS, AGENTS['mcts-50'](None).iterations
(True, 50)
"""

from __future__ import annotations

import functools
import math
import random
from typing import TYPE_CHECKING, Callable, Hashable

from boardlab.analysis.agents import Agent, AgentTable, OnePlyAgent, pick_best
from boardlab.analysis.mcts import MCTSAgent

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.board import Move
    from boardlab.analysis.deblockle.engine import DeblockleGame, DeblockleState

#: iterations per move of `mcts` (see README for its strength)
DEFAULT_BUDGET = 100
#: UCT exploration constant for results in [0, 1]
EXPLORATION = 0.7
#: turns-to-score of a block that can never score alone (larger than any real distance)
NEVER = 50
#: share of random moves of `RushAgent` by default (the search's rollouts use none)
RUSH_NOISE = 0.1
#: moves of a rollout before the race estimate takes over
ROLLOUT_PLIES = 4
#: a node tries the moves whose gain is at most this much below the best gain
MARGIN = 1
#: turns of lead worth odds of e to 1 in `race_estimate`
RACE_SCALE = 1.0


def block_turns(state: DeblockleState, seat: int, cell: int, orientation: int) -> int:
    return state.game.turns_to_score[seat].get((cell, orientation), NEVER)


def total_turns(state: DeblockleState, seat: int) -> int:
    """Sum of the table's turns-to-score over `seat`'s blocks on the board."""
    table = state.game.turns_to_score[seat]
    return sum(table.get(block, NEVER) for block in state.blocks(seat))


def move_gain(state: DeblockleState, seat: int, move: Move) -> int:
    """How much `move` lowers `seat`'s total turns-to-score (the moved block's change)."""
    before = block_turns(state, seat, move.frm, state.orientation[move.frm])
    if move.to < 0:  # scored (engine.SCORED; the engine imports this module, not the reverse)
        return before
    after = block_turns(state, seat, move.to, state.game.cube.tips[state.orientation[move.frm]][move.tip])
    return before - after


def race_estimate(state: DeblockleState, scale: float = RACE_SCALE) -> tuple[float, float]:
    """Each seat's chance to win guessed from the race of turns-to-score totals: the player to
    move is half a turn ahead; a lead of `scale` turns is worth odds of e to 1."""
    mover = state.current_player()
    other = 1 - mover
    lead = total_turns(state, other) - total_turns(state, mover) + 0.5
    p = 1.0 / (1.0 + math.exp(-lead / scale))
    return (p, 1.0 - p) if mover == 0 else (1.0 - p, p)


class GreedyAgent(OnePlyAgent):
    """One ply and the opponent's best reply, valued by the turns-to-score table."""

    name = "greedy"

    @staticmethod
    def value(after: DeblockleState, seat: int) -> float:
        """Opponent's total after their best reply minus own total."""
        other = 1 - seat
        theirs = total_turns(after, other)
        if after.current_player() == other:
            theirs -= max(move_gain(after, other, reply) for reply in after.legal_moves())
        return theirs - total_turns(after, seat)


class RushAgent(Agent):
    """The rollout policy of `mcts`: the move that lowers its own turns-to-score most (one
    table look-up per move, no look-ahead), a random move with probability `RUSH_NOISE`."""

    name = "rush"

    def __init__(self, noise: float = RUSH_NOISE) -> None:
        self.noise = noise

    def choose(self, state: DeblockleState, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        if len(moves) == 1 or (self.noise and rng.random() < self.noise):
            return moves[rng.randrange(len(moves))]
        seat = state.current_player()
        return pick_best(moves, lambda m: move_gain(state, seat, m), rng)


def promising_moves(state: DeblockleState, margin: int = MARGIN) -> list:
    """The legal moves whose gain in turns-to-score is within `margin` of the best gain."""
    moves = state.legal_moves()
    if len(moves) <= 1:
        return list(moves)
    seat = state.current_player()
    gains = [move_gain(state, seat, m) for m in moves]
    best = max(gains)
    return [m for m, g in zip(moves, gains) if g >= best - margin]


class CompiledGreedyAgent(GreedyAgent):
    """`GreedyAgent` on the compiled path (`search.greedy_choice`): the same move and the same
    draws for every position and seed; the Python agent where the kernel cannot play the board."""

    def choose(self, state: DeblockleState, rng: random.Random) -> Hashable:
        from boardlab.analysis.deblockle.engine import DeblockleState
        from boardlab.analysis.deblockle.search import greedy_move, search_tables

        tables = search_tables(state.game, NEVER) if type(state) is DeblockleState else None
        if tables is None:  # a board the kernel cannot play, or a view of a state (restricted play)
            return super().choose(state, rng)
        return greedy_move(state, rng, tables)


def python_mcts(iterations: int, name: str = "mcts") -> MCTSAgent:
    """The Python MCTS agent of this budget: the generic search over the engine with rush rollouts,
    the race estimate and the promising moves (the readable twin of `CompiledMCTSAgent`)."""
    return MCTSAgent(iterations, RushAgent(noise=0.0), EXPLORATION, name=name,
                     rollout_plies=ROLLOUT_PLIES, evaluate=race_estimate, candidates=promising_moves)


class CompiledMCTSAgent(Agent):
    """`python_mcts(iterations)` on the compiled path (`search.mcts_choice`): the same move and the
    same draws for every position and seed; the Python search where the kernel cannot play the board."""

    def __init__(self, iterations: int, name: str = "mcts") -> None:
        if iterations < 1:
            raise ValueError(f"an MCTS budget needs at least 1 iteration, got {iterations}")
        self.iterations = iterations
        self.name = name

    def choose(self, state: DeblockleState, rng: random.Random) -> Hashable:
        from boardlab.analysis.deblockle.engine import DeblockleState
        from boardlab.analysis.deblockle.search import mcts_move, search_tables

        moves = state.legal_moves()
        if len(moves) == 1:  # nothing to think about (the Python agent draws nothing either)
            return moves[0]
        tables = search_tables(state.game, NEVER) if type(state) is DeblockleState else None
        if tables is None:  # a board the kernel cannot play, or a view of a state (restricted play)
            return python_mcts(self.iterations, self.name).choose(state, rng)
        return mcts_move(state, rng, tables, self.iterations, EXPLORATION, ROLLOUT_PLIES, MARGIN, RACE_SCALE)

    def ratings(self, state: DeblockleState, rng: random.Random, deadline: float | None = None) -> list[tuple]:
        """Every legal move's (move, visits, summed result) from the Python twin's search of this
        budget (the compiled search gives only its move; `MCTSAgent.ratings`)."""
        return python_mcts(self.iterations, self.name).ratings(state, rng, deadline)


def mcts_agent(iterations: int) -> Callable[[DeblockleGame], CompiledMCTSAgent]:
    """A factory(game) of the (compiled) MCTS agent with this budget."""
    return functools.partial(_make_mcts, iterations)


def _make_mcts(iterations: int, game: DeblockleGame) -> CompiledMCTSAgent:
    budget = "" if iterations == DEFAULT_BUDGET else f"-{iterations}"
    return CompiledMCTSAgent(iterations, name=f"mcts{budget}")


def _greedy(game: DeblockleGame) -> CompiledGreedyAgent:
    return CompiledGreedyAgent()


#: Deblockle's own agents (engine.AGENTS); `mcts-N` resolves for any N >= 1
AGENTS = AgentTable({"greedy": _greedy, "mcts": mcts_agent(DEFAULT_BUDGET)},
                    families={"mcts": mcts_agent})

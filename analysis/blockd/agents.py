"""Blockd's agents: greedy (one ply of mobility) and MCTS with random or greedy rollouts.

Names, as `boardlab simulate --agents` takes them:
- `random`: a random player as a person would be one: it picks a destination uniformly among
  the cells it can reach, then whether to restore a card (a fair coin, when the cell is open
  without one; a restore is needed otherwise), then which card, uniformly among the cards
  whose restore opens a way there;
- `random-moves`: uniform over the legal moves, where every "restore X, then go to D" counts
  as a move of its own (so it restores far more often: with R face-down cards a destination
  open without a restore has R + 1 moves, R of them restores);
- `greedy`: plays the move after which its own mobility minus the opponents' summed mobility
  is largest (mobility: the distinct cells a pawn could end on if it moved now, no restore);
  a move that wins at once beats everything.  Ties are broken with its seeded rng.
- `mcts`, `mcts-N`: UCT (`analysis/mcts.py`) with `DEFAULT_BUDGET` or N iterations per move
  and random rollouts, played by its compiled twin (`search.py`: the same moves and draws) where
  the kernel plays the rules; `mcts-greedy`, `mcts-greedy-N`: the same with greedy rollouts
  (the Python search).

A search budget is a property of the agent, not a fact of the game, so it lives here and
not in the definition.

>>> sorted(name for name in AGENTS)
['greedy', 'mcts', 'mcts-greedy', 'random', 'random-moves']
>>> 'mcts-500' in AGENTS, 'mcts-greedy-20' in AGENTS, 'mcts-0' in AGENTS, 'mcts-x' in AGENTS
(True, True, False, False)
>>> AGENTS['mcts-500'](None).search.iterations
500
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Callable, Hashable

from boardlab.analysis.agents import Agent, AgentTable, OnePlyAgent, RandomAgent
from boardlab.analysis.mcts import MCTSAgent
from boardlab.analysis.protocol import State

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState, Move

#: iterations per move of `mcts` (chosen so that it beats random and greedy clearly; see README)
DEFAULT_BUDGET = 200
#: UCT exploration constant of Blockd's MCTS: below the textbook sqrt 2, which explored too
#: much at this budget (200 iterations: 83 of 100 games against greedy, against 71 of 100
#: for sqrt 2 at 150 iterations and 76 of 100 at 300)
EXPLORATION = 0.7


class DestinationRandomAgent(Agent):
    """Uniform over the destinations, then restore or not (a fair coin when both reach the
    destination), then the restored card uniformly among those that open a way there.

    >>> from boardlab.analysis.blockd.engine import _dealt_state
    >>> state = _dealt_state()
    >>> DestinationRandomAgent().choose(state, random.Random(1)) in state.legal_moves()
    True
    """

    name = "random"
    random_policy = "destination"

    def choose(self, state: BlockdState, rng: random.Random) -> Move:
        moves = state.legal_moves()
        targets = sorted({move.to for move in moves})
        to = targets[rng.randrange(len(targets))]
        ways = [move for move in moves if move.to == to]  # no restore first, then by restored card
        if ways[0].restore < 0 and (len(ways) == 1 or rng.random() < 0.5):
            return ways[0]
        restores = ways[1:] if ways[0].restore < 0 else ways
        return restores[rng.randrange(len(restores))]


class GreedyAgent(OnePlyAgent):
    """One ply: maximise own mobility minus the opponents' summed mobility after the move."""

    name = "greedy"

    @staticmethod
    def value(after: BlockdState, seat: int) -> float:
        mobility = [after.mobility(s) for s in range(after.players)]
        return mobility[seat] - (sum(mobility) - mobility[seat])


class CompiledMCTSAgent(MCTSAgent):
    """`MCTSAgent` whose search runs compiled (`search.mcts_choice`: the same move and the same
    draws) when its rollouts are the kernel's random play and the kernel plays the rules; the
    Python search otherwise (greedy rollouts, a restricted view of a state, rules the kernel
    does not know, a Python whose `random` is not the compiled twister's)."""

    def choose(self, state: State, rng: random.Random) -> Hashable:
        from boardlab.analysis.blockd import kernel
        from boardlab.analysis.blockd.engine import BlockdState, Move
        from boardlab.analysis.mersenne import twister_matches_python

        search = self.search
        weighting = kernel.WEIGHTINGS.get(search.rollout.random_policy or "")
        if (weighting is None or search.rollout_plies is not None or search.candidates is not None
                or type(state) is not BlockdState or state.mover < 0 or kernel.unsupported(state.game) is not None
                or not twister_matches_python()):
            return super().choose(state, rng)
        assert isinstance(state, BlockdState)  # for the type checker: its type was tested above
        moves = state.legal_moves()
        if len(moves) == 1:  # nothing to think about (the Python agent draws nothing either)
            return moves[0]
        from boardlab.analysis.blockd.search import mcts_move

        restore, to = mcts_move(state, rng, search.iterations, search.exploration, weighting)
        return Move(to, restore)


def mcts_agent(iterations: int, rollout: str = "random") -> Callable:
    """A factory(game) of an MCTS agent with this budget and rollout policy."""
    return functools.partial(_make_mcts, iterations, rollout)


def _make_mcts(iterations: int, rollout: str, game: BlockdGame) -> CompiledMCTSAgent:
    policy = GreedyAgent() if rollout == "greedy" else RandomAgent()
    suffix = "" if rollout == "random" else f"-{rollout}"
    budget = "" if iterations == DEFAULT_BUDGET else f"-{iterations}"
    return CompiledMCTSAgent(iterations, policy, EXPLORATION, name=f"mcts{suffix}{budget}")


def _greedy(game: BlockdGame) -> GreedyAgent:
    return GreedyAgent()


#: Blockd's own agents (engine.AGENTS); `mcts-N` and `mcts-greedy-N` resolve for any N >= 1
AGENTS = AgentTable(
    {"random": lambda game: DestinationRandomAgent(),
     "random-moves": lambda game: RandomAgent(),
     "greedy": _greedy,
     "mcts": mcts_agent(DEFAULT_BUDGET),
     "mcts-greedy": mcts_agent(DEFAULT_BUDGET, "greedy")},
    families={"mcts": lambda n: mcts_agent(n), "mcts-greedy": lambda n: mcts_agent(n, "greedy")})

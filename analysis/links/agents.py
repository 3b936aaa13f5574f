"""Links' agents.  Every one of them decides from an `Observation` (its own hand, the table,
the captured piles, hand sizes and the deck's size), never from the other hands or the deck.

Names, as `boardlab simulate links --agents` takes them:
- `random`: a uniformly random legal move;
- `greedy`: the move that captures the most cards now; between equal captures it keeps its
  wild cards (empty cards, wild masters) for later and plays rather than passes; remaining ties
  at random;
- `mcts`, `mcts-N`: determinised UCT: the budget (`DEFAULT_BUDGET` or N iterations) is shared
  among `SAMPLES` determinisations (the unseen cards dealt at random to the other hands, by
  their known sizes, and to the deck), a UCT search (`analysis/mcts.py`, random rollouts) runs
  on each, and the move with the most root visits summed over the samples is played.

>>> sorted(AGENTS)
['greedy', 'mcts', 'random']
>>> 'mcts-40' in AGENTS, AGENTS['mcts-40'](None).iterations
(True, 40)
"""

from __future__ import annotations

import functools
import random
from typing import Hashable

from boardlab.analysis.agents import Agent, AgentTable, RandomAgent
from boardlab.analysis.links.table import capture_size
from boardlab.analysis.mcts import MCTS

#: iterations per move of `mcts` (see the README for the strength it reaches)
DEFAULT_BUDGET = 200
#: determinisations a search's budget is shared among
SAMPLES = 8
#: UCT exploration constant (results are 0..1 shares of a win)
EXPLORATION = 0.7


class ObservingAgent(Agent):
    """An agent that sees the game only through the observation of the seat to move."""

    def choose(self, state, rng: random.Random) -> Hashable:
        return self.decide(state.observation(), rng)

    def decide(self, observation, rng: random.Random) -> Hashable:
        raise NotImplementedError


class RandomLinksAgent(ObservingAgent):
    """Uniform over the legal moves."""

    name = "random"

    def decide(self, observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        return moves[rng.randrange(len(moves))]


class GreedyAgent(ObservingAgent):
    """Most cards captured now; keeps wild cards; plays rather than passes; ties at random."""

    name = "greedy"

    def decide(self, observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        deck, rules = observation.game.deck, observation.game.rules
        lines = observation.table_lines()
        best, best_key = [], None
        for move in moves:
            if move.is_pass:
                key = (0, 0, 0)
            else:
                key = (capture_size(deck, rules, lines[move.line], move.kind), not deck.kinds[move.kind].is_wild, 1)
            if best_key is None or key > best_key:
                best, best_key = [move], key
            elif key == best_key:
                best.append(move)
        return best[rng.randrange(len(best))]


class DeterminisedMCTS(ObservingAgent):
    """UCT over determinisations of the observation (see the module docstring)."""

    def __init__(self, iterations: int, samples: int = SAMPLES, exploration: float = EXPLORATION,
                 name: str = "mcts"):
        if iterations < 1:
            raise ValueError(f"an MCTS budget needs at least 1 iteration, got {iterations}")
        self.iterations = iterations
        self.samples = max(1, min(samples, iterations))
        self.exploration = exploration
        self.name = name

    def decide(self, observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        game = observation.game
        visits = {move: 0 for move in moves}
        share, extra = divmod(self.iterations, self.samples)
        for sample in range(self.samples):
            budget = share + (sample < extra)
            state = game.determinise(observation, rng)
            search = MCTS(budget, RandomAgent(), self.exploration)  # rollouts in the sampled world
            root = search.search(state, rng)
            for move, child in root.children.items():
                visits[move] += child.visits
        return max(moves, key=lambda m: visits[m])  # ties: the first in move order


def mcts_agent(iterations: int):
    """A factory(game) of the determinised MCTS agent with this budget."""
    return functools.partial(_make_mcts, iterations)


def _make_mcts(iterations: int, game) -> DeterminisedMCTS:
    return DeterminisedMCTS(iterations, name="mcts" if iterations == DEFAULT_BUDGET else f"mcts-{iterations}")


def _random(game) -> RandomLinksAgent:
    return RandomLinksAgent()


def _greedy(game) -> GreedyAgent:
    return GreedyAgent()


#: Links' agents (engine.AGENTS); `random` replaces the common one so that it too sees only
#: the observation; `mcts-N` resolves for any N >= 1
AGENTS = AgentTable({"random": _random, "greedy": _greedy, "mcts": mcts_agent(DEFAULT_BUDGET)},
                    families={"mcts": mcts_agent})

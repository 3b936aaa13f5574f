"""Links' agents.  Every one of them decides from an `Observation` (its own hand, the table,
the captured piles, hand sizes and the deck's size), never from the other hands or the deck.

Names, as `boardlab simulate links --agents` takes them:
- `random`: a uniformly random legal move;
- `greedy`: the move that captures the most cards now; between equal captures it keeps its
  wild cards (empty cards, wild masters) for later and plays rather than passes; remaining ties
  at random;
- `mcts`, `mcts-N`: determinised flat UCT on the compiled kernel (`kernel.search`): every one
  of its `DEFAULT_BUDGET` (or N) iterations deals the unseen cards afresh, consistently with
  the observation (the other hands keep their known sizes, the rest is the deck), picks a move
  by UCB1, and plays the game out with greedy moves for every seat; the reward blends the
  share of the win with the score margin (`MARGIN`).  The move visited most is played.

Flat (UCB1 at the root only) keeps the search simple and fast.  Trials against three greedy
players (4 players, seats rotated, games won alone) found nothing clearly stronger: the
default won 654 of 1600 (40.9%); exploration 1.2 696 of 1600 (43.5%, within the noise);
budget 3000 183 of 400 against 182 of 400 for 1000 on the same deals; a win-share-only reward
80 of 200; careful rollouts (greedy that avoids leaving a count one short of a capture and
keeps masters for bigger captures) 79 of 200; every root move on the same deals 79 of 200; a
tree over the searcher's own moves (single-observer information-set MCTS, opponents greedy)
75 of 200 where the flat search won 83.  Random rollouts won 12 of 40.  Against three random
players all of them win about 70%.  What the search lacks is the other hands: shown them (the
deck order still hidden; `SeeingMCTS`, `bench_links.py --ceiling`) the same search wins 117 of
200 (58.5%) against greedy and 173 of 200 (86.5%) against random players (README, Speed).

- `ismcts`, `ismcts-N`: the same flat search over hands sampled consistently with the public
  history (`engine.Observation.conditions`: a seat that could not play held no card with a play
  on that table): up to `SAMPLES` deals of the other hands (fewer when N would give a deal fewer
  iterations than there are moves; each deal by up to `TRIES` shuffles, kept to one
  consistent with every condition), the N iterations shared among them with only the draw
  pile shuffled afresh; it plays the move of the best mean reward over all the deals.

These agents are the readable definitions.  The runner plays games among them (random, greedy,
mcts-N, ismcts-N, any mix) compiled end to end (`games.py`, through `batch.play_block`), the
same games move for move (`tests/test_links_games.py`).  A single decision of `ismcts-N`
(`boardlab play`'s hints, a report's probes, the benchmark) is one compiled call too
(`CompiledHistoryMCTS`, what the agent table makes: the deals and the searches of
`HistoryMCTS`, its plain twin, with the same draws); the other agents' single decisions run
here in Python, whose searches are `kernel.search`.

`SeeingMCTS` is not an agent of the game: it reads the state, for the benchmark's upper bounds.

>>> sorted(AGENTS)
['greedy', 'ismcts', 'mcts', 'random']
>>> 'mcts-40' in AGENTS, AGENTS['mcts-40'](None).iterations, AGENTS['mcts'](None).iterations
(True, 40, 1000)
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING, Any, Callable, Hashable

import numpy as np

from boardlab.analysis.agents import Agent, AgentTable, pick_best
from boardlab.analysis.links.table import Move, capture_size

if TYPE_CHECKING:
    from boardlab.analysis.links.engine import LinksGame, LinksState, Observation

#: iterations per move of `mcts` (see the README for the strength it reaches)
DEFAULT_BUDGET = 1000
#: UCT exploration constant (rewards are in 0..1)
EXPLORATION = 0.7
#: rollout policies (kernel.play_out): every seat random or greedy, the searching seat greedy
#: and the others random, or every move greedy or random with equal chance
ROLLOUTS = {"random": 0, "greedy": 1, "self-greedy": 2, "mixed": 3}
#: the rollout policy of `mcts`
ROLLOUT = "greedy"
#: weight of the score margin in the reward (the rest is the share of the win)
MARGIN = 0.5
#: deals of the other hands per move of `ismcts`, and shuffles tried for each to meet the history
SAMPLES = 16
TRIES = 200


class ObservingAgent(Agent):
    """An agent that sees the game only through the observation of the seat to move."""

    def choose(self, state: LinksState, rng: random.Random) -> Hashable:
        return self.decide(state.observation(), rng)

    def decide(self, observation: Observation, rng: random.Random) -> Hashable:
        raise NotImplementedError


class RandomLinksAgent(ObservingAgent):
    """Uniform over the legal moves."""

    name = "random"

    def decide(self, observation: Observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        return moves[rng.randrange(len(moves))]


class GreedyAgent(ObservingAgent):
    """Most cards captured now; keeps wild cards; plays rather than passes; ties at random."""

    name = "greedy"

    def decide(self, observation: Observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        deck, rules = observation.game.deck, observation.game.rules
        lines = observation.table_lines()

        def key(move: Move) -> tuple[int, int, int]:
            if move.is_pass:
                return (0, 0, 0)
            return (capture_size(deck, rules, lines[move.line], move.kind), not deck.kinds[move.kind].is_wild, 1)

        return pick_best(moves, key, rng)


class DeterminisedMCTS(ObservingAgent):
    """Determinised flat UCT on the compiled kernel (see the module docstring)."""

    def __init__(self, iterations: int, exploration: float = EXPLORATION, rollout: str = ROLLOUT,
                 margin: float = MARGIN, name: str = "mcts") -> None:
        if iterations < 1:
            raise ValueError(f"an MCTS budget needs at least 1 iteration, got {iterations}")
        self.iterations = iterations
        self.exploration = exploration
        self.policy = ROLLOUTS[rollout]
        self.margin = margin
        self.name = name

    def decide(self, observation: Observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        visits, _ = self.search(observation, rng)
        return moves[int(np.argmax(visits))]  # ties: the first in move order

    def ratings(self, state: Any, rng: random.Random, deadline: float | None = None) -> list[tuple]:
        """(move, visits, summed reward) for every legal move, searched from the observation of
        the seat to move (never from the other hands); compiled and quick, so `deadline` is not
        needed.  The visits add up to the budget."""
        observation = state.observation()
        visits, values = self.search(observation, rng)
        return [(move, int(v), float(w)) for move, v, w in zip(observation.legal_moves(), visits, values)]

    def search(self, observation: Observation, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
        """(visits, summed rewards) of the observation's moves, in move order."""
        from boardlab.analysis.links import kernel
        from boardlab.analysis.links.batch import pack

        game = observation.game
        root = pack(game.determinise(observation, rng))  # the hidden part is dealt again every iteration
        return self._search(game, root, observation.unseen(), len(observation.legal_moves()), rng,
                            kernel.HIDDEN_ALL)

    def _search(self, game: LinksGame, root: np.ndarray, pool: list[int], m: int, rng: random.Random,
                hidden: int, iterations: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        from boardlab.analysis.links import kernel
        from boardlab.analysis.links.batch import tables_of

        t = tables_of(game)
        visits, values = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64)
        found = kernel.search(root, t.offsets, t.kinds, t.rules, np.array(pool, dtype=np.int64),
                              iterations or self.iterations,
                              np.uint64(rng.getrandbits(64)), self.exploration, self.policy, self.margin,
                              visits, values, hidden)
        assert found == m, "the kernel and the engine disagree on the legal moves"
        return visits, values


class SeeingMCTS(DeterminisedMCTS):
    """NOT an agent of the game (it reads the state, not the observation): the same flat search
    allowed to see what a player cannot, as the benchmark's upper bound on the strength a search
    of this kind can reach.  `sees = "hands"`: every other hand, the draw pile's order dealt
    afresh every iteration; `sees = "all"`: every hand and the draw pile's order.
    """

    def __init__(self, iterations: int, sees: str, rollout: str = ROLLOUT, margin: float = MARGIN,
                 exploration: float = EXPLORATION) -> None:
        super().__init__(iterations, exploration, rollout, margin, name=f"sees-{sees}-{iterations}")
        self.sees = sees

    def choose(self, state: LinksState, rng: random.Random) -> Hashable:
        from boardlab.analysis.links import kernel
        from boardlab.analysis.links.batch import pack

        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        hidden = {"hands": kernel.HIDDEN_DECK, "all": kernel.HIDDEN_NONE}[self.sees]
        visits, _ = self._search(state.game, pack(state), [], len(moves), rng, hidden)
        return moves[int(np.argmax(visits))]


class HistoryMCTS(DeterminisedMCTS):
    """The flat search over deals consistent with the public history (see the module docstring).

    It plays the move of the best mean reward over all the deals (ties: the first in move
    order): each deal's own UCB1 share of a small budget spreads visits almost evenly, so
    summed visits would say little."""

    def decide(self, observation: Observation, rng: random.Random) -> Hashable:
        moves = observation.legal_moves()
        if len(moves) == 1:
            return moves[0]
        visits, values = self.search(observation, rng)
        return moves[int(np.argmax(values / np.maximum(visits, 1)))]

    def search(self, observation: Observation, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
        from boardlab.analysis.links import kernel
        from boardlab.analysis.links.batch import pack

        game = observation.game
        m = len(observation.legal_moves())
        samples = max(1, min(SAMPLES, self.iterations // m))  # each deal long enough to try every move
        visits, values = np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64)
        for i in range(samples):
            budget = self.iterations // samples + (1 if i < self.iterations % samples else 0)
            root = pack(game.determinise(observation, rng, tries=TRIES))
            v, w = self._search(game, root, [], m, rng, kernel.HIDDEN_DECK, budget)
            visits += v
            values += w
        return visits, values


class CompiledHistoryMCTS(HistoryMCTS):
    """`HistoryMCTS` (its plain twin) with the whole search compiled (`games.ismcts_decision`:
    every deal of the other hands and every search in one call), the same draws from `rng` and
    the same visits and rewards, so the same move; the Python search when the observation is not
    one the compiled search takes (`batch.observed`) or the running Python's `random` is not
    the compiled twister's."""

    def search(self, observation: Observation, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
        from boardlab.analysis.links import games
        from boardlab.analysis.links.batch import observed, tables_of
        from boardlab.analysis.mersenne import give_back, twister_matches_python, twister_of

        found = observed(observation) if twister_matches_python() else None
        if found is None:
            return super().search(observation, rng)
        s, events, masks, pile = found
        t = tables_of(observation.game)
        room = t.move_buffer().shape[0]
        visits, values = np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.float64)
        mt = twister_of(rng)
        m = games.ismcts_decision(s, t.offsets, t.kinds, t.rules, mt, self.iterations, self.exploration, self.policy,
                                  self.margin, events, masks, len(observation.blocked), pile, SAMPLES, TRIES,
                                  visits, values)
        give_back(rng, mt)
        assert m == len(observation.legal_moves()), "the kernel and the engine disagree on the legal moves"
        return visits[:m], values[:m]


def ismcts_agent(iterations: int) -> Callable:
    """A factory(game) of the history-consistent search with this budget."""
    return functools.partial(_make_ismcts, iterations)


def _make_ismcts(iterations: int, game: LinksGame) -> CompiledHistoryMCTS:
    return CompiledHistoryMCTS(iterations, name="ismcts" if iterations == DEFAULT_BUDGET else f"ismcts-{iterations}")


def mcts_agent(iterations: int) -> Callable:
    """A factory(game) of the determinised MCTS agent with this budget."""
    return functools.partial(_make_mcts, iterations)


def _make_mcts(iterations: int, game: LinksGame) -> DeterminisedMCTS:
    return DeterminisedMCTS(iterations, name="mcts" if iterations == DEFAULT_BUDGET else f"mcts-{iterations}")


def _random(game: LinksGame) -> RandomLinksAgent:
    return RandomLinksAgent()


def _greedy(game: LinksGame) -> GreedyAgent:
    return GreedyAgent()


#: Links' agents (engine.AGENTS); `random` replaces the common one so that it too sees only
#: the observation; `mcts-N` resolves for any N >= 1
AGENTS = AgentTable({"random": _random, "greedy": _greedy, "mcts": mcts_agent(DEFAULT_BUDGET),
                     "ismcts": ismcts_agent(DEFAULT_BUDGET)},
                    families={"mcts": mcts_agent, "ismcts": ismcts_agent})

"""Monte-Carlo tree search (UCT) over the engine protocol: any game, any number of players.

The search grows a tree from the state it is asked about, one node per iteration:
1. **select**: from the root, at a player's node take the child with the best UCT score, at a
   chance node draw an outcome with the state's exact chance weights (`sample_chance`);
2. **expand**: the first node with an untried move gets one new child;
3. **roll out**: a rollout agent (any `Agent`: random, greedy, ...) plays the game to its end,
   or for at most `rollout_plies` moves, after which `evaluate(state)` estimates the returns
   (a game may also narrow the moves a node tries with `candidates(state)`: a non-empty
   subset of `state.legal_codes()` chosen by game knowledge);
4. **back up**: every node on the path adds the result of the player who *moved into it*.

So each node's statistics are from the point of view of the player who chose it, and a
player picking among its children maximises its own mean result: the max-n reading of UCT,
which is right for any number of players and for non-zero-sum results.  A result is
`state.returns()`: 1 split among the winners, 0 for everyone in an unfinished game.

Discipline: the tree holds no states; each iteration clones the root state once and applies
moves to the clone in place.  The tree is keyed by the state's move codes
(`State.legal_codes` / `apply_code`: integers for engines that offer them, the moves
themselves otherwise), and a random rollout agent lets the engine play the rollout by its
compiled path when it has one (`State.random_playout`); other agents roll out move by move.  Every random choice (untried move order, chance outcomes, the
rollout agent's moves, ties) comes from the one rng passed in, so a search is a deterministic
function of (state, rng state, budget).

>>> import random
>>> from boardlab.analysis.agents import RandomAgent
>>> search = MCTS(iterations=200, rollout=RandomAgent())
>>> root = search.search(_Pile(5), random.Random(1))
>>> root.visits, search.best_move(root)      # take 1 and leave 4: the winning move of this Nim
(200, 1)
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Callable, Hashable, Sequence

from boardlab.analysis.agents import Agent, RandomAgent
from boardlab.analysis.protocol import CHANCE, TERMINAL, State

#: UCT exploration constant for results in [0, 1] (sqrt 2 is the textbook value for UCB1)
DEFAULT_EXPLORATION = math.sqrt(2)


class Node:
    """One node of the search tree.

    `mover` is the seat that moved into this node (`CHANCE` below a chance node, -1 at the root);
    `value` sums that seat's results over the `visits` iterations that passed through the node.
    """

    __slots__ = ("move", "mover", "visits", "value", "children", "untried")

    def __init__(self, move: Hashable, mover: int):
        self.move = move
        self.mover = mover
        self.visits = 0
        self.value = 0.0
        self.children: dict[Hashable, Node] = {}
        self.untried: list | None = None  # moves not expanded yet; None until the node is first reached

    def mean(self) -> float:
        """Mean result of `mover` through this node (0 when never visited)."""
        return self.value / self.visits if self.visits else 0.0


class MCTS:
    """UCT search with a budget in iterations.

    :raises ValueError: when the budget is not positive or the exploration constant is negative.
    """

    def __init__(self, iterations: int, rollout: Agent | None = None,
                 exploration: float = DEFAULT_EXPLORATION, rollout_plies: int | None = None,
                 evaluate: Callable[[Any], Sequence[float]] | None = None,
                 candidates: Callable[[Any], Sequence[Hashable]] | None = None):
        if (rollout_plies is None) != (evaluate is None):
            raise ValueError("a rollout limit needs an evaluation of the state where it stops, and only then")
        if iterations < 1:
            raise ValueError(f"an MCTS budget needs at least 1 iteration, got {iterations}")
        if exploration < 0:
            raise ValueError(f"the exploration constant must not be negative, got {exploration}")
        self.iterations = iterations
        self.rollout = rollout if rollout is not None else RandomAgent()
        self.exploration = exploration
        self.rollout_plies = rollout_plies
        self.evaluate = evaluate
        self.candidates = candidates

    def search(self, state: State, rng: random.Random, deadline: float | None = None) -> Node:
        """Run the budget from `state` (left unchanged) and return the root of the tree; with a
        `deadline` (a `time.monotonic()` value), stop early when it has passed (at least one
        iteration runs; `root.visits` counts those that did).

        :raises ValueError: when `state` is terminal.
        """
        if state.is_terminal():
            raise ValueError("cannot search from a terminal state")
        root = Node(None, -1)
        for done in range(self.iterations):
            if deadline is not None and done and time.monotonic() > deadline:
                break
            self._iterate(root, state.clone(), rng)
        return root

    def best_move(self, root: Node) -> Hashable:
        """The most visited child's move code (ties: the higher mean, then the first expanded);
        `state.move_of_code` turns it into the move."""
        best = max(root.children.values(), key=lambda n: (n.visits, n.mean()))
        return best.move

    def _iterate(self, root: Node, state: State, rng: random.Random) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                outcome = state.sample_chance(rng)
                state.apply(outcome)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = Node(outcome, CHANCE)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = list(state.legal_codes() if self.candidates is None else self.candidates(state))
            if node.untried:
                # expansion: one untried move, drawn at random so no move order is favoured
                code = node.untried.pop(rng.randrange(len(node.untried)))
                state.apply_code(code)
                child = node.children[code] = Node(code, player)
                path.append(child)
                break
            node = self._select(node)
            state.apply_code(node.move)
            path.append(node)
        returns = self._roll_out(state, rng)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.value += returns[visited.mover]

    def _roll_out(self, state: State, rng: random.Random) -> tuple[float, ...]:
        """The returns after the rollout agent plays `state` to its end (compiled when offered),
        or the evaluation after `rollout_plies` moves."""
        if self.rollout_plies is not None:
            plies = 0
            while not state.is_terminal() and plies < self.rollout_plies:
                if state.current_player() == CHANCE:
                    state.apply(state.sample_chance(rng))
                else:
                    state.apply(self.rollout.choose(state, rng))
                    plies += 1
            if state.is_terminal():
                return state.returns()
            assert self.evaluate is not None  # a rollout limit comes with its evaluation (__init__)
            return tuple(self.evaluate(state))
        policy = self.rollout.random_policy
        if policy is not None and not state.is_terminal():
            returns = state.random_playout(rng, policy)
            if returns is not None:
                return returns
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(self.rollout.choose(state, rng))
        return state.returns()

    def _select(self, node: Node) -> Node:
        log_parent = math.log(node.visits)
        c = self.exploration
        best: Node | None = None
        best_score = -math.inf
        for child in node.children.values():  # insertion order: ties go to the first expanded
            score = child.value / child.visits + c * math.sqrt(log_parent / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None  # a node is selected from only once it has children
        return best


class MCTSAgent(Agent):
    """Plays the move an `MCTS` search of the given budget visits most."""

    def __init__(self, iterations: int, rollout: Agent | None = None,
                 exploration: float = DEFAULT_EXPLORATION, name: str = "mcts",
                 rollout_plies: int | None = None, evaluate: Callable[[Any], Sequence[float]] | None = None,
                 candidates: Callable[[Any], Sequence[Hashable]] | None = None):
        self.search = MCTS(iterations, rollout, exploration, rollout_plies, evaluate, candidates)
        self.name = name

    def choose(self, state: State, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        if len(moves) == 1:  # nothing to think about
            return moves[0]
        return state.move_of_code(self.search.best_move(self.search.search(state, rng)))

    def ratings(self, state: State, rng: random.Random, deadline: float | None = None) -> list[tuple]:
        """(move, visits, summed result of the seat to move) for every legal move of `state`, from
        one search of this agent's budget (`deadline` as in `MCTS.search`); a move the search
        never tried has 0 visits.  The visits add up to the iterations run (`state`'s seat moves
        at the root, so every iteration goes through one of its moves)."""
        root = self.search.search(state, rng, deadline)
        found = {state.move_of_code(code): (child.visits, child.value) for code, child in root.children.items()}
        return [(move, *found.get(move, (0, 0.0))) for move in state.legal_moves()]


class _Pile(State):
    """Nim for the doctest: take 1 to 3 from a pile; who takes the last one wins."""

    def __init__(self, left: int, to_move: int = 0):
        self.left, self.to_move = left, to_move

    players = 2

    def current_player(self) -> int:
        return TERMINAL if self.left == 0 else self.to_move

    def legal_moves(self) -> list[int]:
        return [k for k in (1, 2, 3) if k <= self.left]

    def apply(self, move: int) -> None:
        self.left -= move
        self.to_move = 1 - self.to_move

    def clone(self) -> "_Pile":
        return _Pile(self.left, self.to_move)

    def winners(self) -> tuple[int, ...]:
        return (1 - self.to_move,)

    def transposition_key(self) -> tuple[int, int]:
        return self.left, self.to_move

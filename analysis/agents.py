"""Agents: who chooses a move.  Every agent takes its randomness from the rng it is given.

>>> import random
>>> RandomAgent().choose(_Stub(), random.Random(1)) in (1, 2, 3)
True
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any, Callable, Hashable, Iterable, Mapping, TypeVar

from boardlab.analysis.protocol import Game, State
from boardlab.layouts.limits import MAX_AGENT_NUMBER

#: a move, as a game's engine gives it
M = TypeVar("M", bound=Hashable)


#: what separates an agent's name from the element it is barred from (`restricted.py`)
WITHOUT = "-without-"


class Agent:
    """Chooses one legal move of the state's current player."""

    name = "agent"
    #: the uniform random policy this agent plays, so that a compiled path may play it instead:
    #: "moves" (every legal move alike), an engine's own policy name, or None (any other agent)
    random_policy: str | None = None

    def choose(self, state: Any, rng: random.Random) -> Hashable:
        """The move to play in `state` (a `State`, or a view of one such as restricted play's;
        Any: each game's agents take its own state class)."""
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniform over the legal moves."""

    name = "random"
    random_policy = "moves"

    def choose(self, state: Any, rng: random.Random) -> Hashable:
        return state.random_move(rng)


def pick_best(moves: Iterable[M], score: Callable[[M], Any], rng: random.Random) -> M:
    """A move of highest `score(move)` (any comparable values), ties broken uniformly by `rng`.

    >>> pick_best([1, 2, 3, 4], lambda m: m % 2, random.Random(1)) in (1, 3)
    True
    """
    best: list = []
    best_score = None
    for move in moves:
        value = score(move)
        if best_score is None or value > best_score:
            best, best_score = [move], value
        elif value == best_score:
            best.append(move)
    return best[rng.randrange(len(best))]


class OnePlyAgent(Agent):
    """Looks one move ahead: plays a move of highest `score` (ties at random; a lone move at once).

    A move that ends the game scores +inf when the mover is among the winners, -inf when it is
    not, 0 when the game stops unfinished; any other move scores the game's own
    `value(after, seat)` of the position it leads to.
    """

    def choose(self, state: Any, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        seat = state.current_player()
        return pick_best(moves, lambda move: self.score(state, seat, move), rng)

    @classmethod
    def score(cls, state: Any, seat: int, move: Hashable) -> float:
        """The one-ply value of `move` for `seat` (see the class docstring)."""
        after = state.clone()
        after.apply(move)
        if after.is_terminal():
            if after.is_unfinished():
                return 0.0
            return math.inf if seat in after.winners() else -math.inf
        return cls.value(after, seat)

    @staticmethod
    def value(after: Any, seat: int) -> float:
        """What the position `after` a move that did not end the game is worth to `seat`."""
        raise NotImplementedError


class AgentTable(dict):
    """Agent name -> factory(game), plus families of numbered names such as `mcts-500`.

    `families` maps a base name to a function of a positive integer N returning the factory
    of `BASE-N`; such names are found by `in` and `[]` without being listed.

    >>> table = AgentTable({"random": COMMON_AGENTS["random"]}, families={"deep": lambda n: n})
    >>> "deep-3" in table, table["deep-3"], "deep-0" in table, "deep" in table
    (True, 3, False, False)
    """

    #: the largest N of a numbered name (an MCTS budget beyond it would run for days)
    MAX_NUMBER = MAX_AGENT_NUMBER

    def __init__(self, fixed: Mapping[str, Callable] | Iterable[tuple[str, Callable]] = (),
                 families: Mapping[str, Callable[[int], Callable]] | None = None,
                 numbers: str = f"a whole number from 1 to {MAX_NUMBER:,}") -> None:
        super().__init__(fixed)
        self.families = dict(families or {})
        self.numbers = numbers  # what N may be, for messages

    def resolve(self, name: object) -> Callable | None:
        """The factory of a numbered name or of `BASE-without-ELEMENT` (BASE barred from the
        game's element, `restricted.py`), or None."""
        if not isinstance(name, str):
            return None
        if WITHOUT in name:
            base, _, element = name.partition(WITHOUT)
            if not element or base not in self:
                return None
            from boardlab.analysis.restricted import barred_factory
            return functools.partial(barred_factory, self[base], element)
        base, _, number = name.rpartition("-")
        if (base in self.families and number.isdigit() and number[0] != "0"
                and 0 < int(number) <= self.MAX_NUMBER):
            return self.families[base](int(number))
        return None

    def __missing__(self, name: str) -> Callable:
        factory = self.resolve(name)
        if factory is None:
            raise KeyError(name)
        return factory

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or self.resolve(name) is not None

    def listing(self) -> str:
        """The names for a message: every fixed name, then each family as `BASE-N`.

        >>> AgentTable({"random": None, "deep": None}, families={"deep": None}).listing()
        'random, deep, deep-N (N a whole number from 1 to 1,000,000)'
        """
        numbered = [f"{base}-N" for base in self.families]
        return ", ".join([*self, *numbered]) + (f" (N {self.numbers})" if numbered else "")

    def unknown(self, name: str) -> str:
        """Why `name` is not an agent of this table, in one line.

        >>> AgentTable({"random": None}, families={"deep": None}).unknown("deep-0")
        "unknown agent 'deep-0': the N of deep-N is a whole number from 1 to 1,000,000"
        """
        base, _, number = str(name).rpartition("-")
        if base in self.families:
            return f"unknown agent '{name}': the N of {base}-N is {self.numbers}"
        return f"unknown agent '{name}' (agents: {self.listing()})"

    def merged(self, first: dict) -> "AgentTable":
        """`first`'s entries, then this table's (a name in both keeps this table's factory)."""
        return AgentTable({**first, **self}, self.families, self.numbers)


class _Stub:
    def legal_moves(self) -> list[int]:
        return [1, 2, 3]

    random_move = State.random_move  # the protocol's default


def _perfect(game: Game) -> Agent:
    from boardlab.analysis.perfect import PerfectAgent  # it imports this module
    return PerfectAgent()


#: Agents every game has.  A game's engine module adds its own in `AGENTS` (name -> factory(game)).
#: `perfect` (`analysis/perfect.py`) plays only games small enough to solve exhaustively.
COMMON_AGENTS: dict[str, Callable] = {"random": lambda game: RandomAgent(), "perfect": _perfect}

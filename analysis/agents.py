"""Agents: who chooses a move.  Every agent takes its randomness from the rng it is given.

>>> import random
>>> RandomAgent().choose(_Stub(), random.Random(1)) in (1, 2, 3)
True
"""

from __future__ import annotations

import random
from typing import Callable, Hashable


class Agent:
    """Chooses one legal move of the state's current player."""

    name = "agent"

    def choose(self, state, rng: random.Random) -> Hashable:
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, state, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        return moves[rng.randrange(len(moves))]


class _Stub:
    def legal_moves(self):
        return [1, 2, 3]


#: Agents every game has.  A game's engine module adds its own in `AGENTS` (name -> factory(game)).
COMMON_AGENTS: dict[str, Callable] = {"random": lambda game: RandomAgent()}

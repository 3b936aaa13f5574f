"""The AI's view of a position (the hint of `boardlab play`): every legal move's estimated win
chance and share of a searching agent's visits, and after a game the moves that lost most
against its choice.

**The agent** (`hint_agent`): the definition's `analysis.skilled_agent` (the reports' skilled
player) when it is a search that says how it rates each move (an agent with `ratings`); else the
game's `mcts-N` with N = `HINT_BUDGET` iterations (Links: its determinised search, which sees
only the observation of the seat to move, never the other hands); else, for an engine without a
search agent (6x6), plain UCT with random play-outs and the same budget (`analysis/mcts.py`).
The reports' own skilled player, where the definition names none, is the strongest level of a
skill ladder that takes minutes to climb: too slow for a page, so the page names the agent it
used.

**A move's win chance** is the mean result the search backed up through it for the seat to move
(`State.returns`: 1 for a win, split among the winners of a shared win, 0 for a loss; the
search's own estimate where it cuts play-outs short, and for Links half the score margin counted
in, as that search does), its **visit share** the share of the search's iterations that went
through it.  At the root the seat to move chooses, so every iteration goes through exactly one
legal move: the visits of the moves add up to the iterations run (`Rating.visits`).

Time is bounded: a search stops at its deadline (`HINT_SECONDS`) with the iterations it ran,
and says so; the review of a finished game (`review`) shares `REVIEW_SECONDS` among the positions
of its moves played by hand (a long game is rated whole, each position more roughly) and says how
many it rated.  Every search draws from
its own seed (`derive_seed(seed, HINT_STREAM, ply)`): the same game gives the same numbers
unless a deadline cut a search short.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from boardlab.analysis.protocol import CHANCE, Game, State

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: iterations of the hint's search when the definition names no skilled agent
HINT_BUDGET = 1000
#: seconds one hint may search (a search cut short says how many iterations it ran)
HINT_SECONDS = 4.0
#: seconds the review of a finished game may take, all positions together
REVIEW_SECONDS = 30.0
#: the seed stream of the hint's searches (`runner.derive_seed`; 0 and 1 are the game's own)
HINT_STREAM = 8
#: moves the review lists
REVIEW_MOVES = 5


@dataclass(frozen=True)
class HintAgent:
    """The agent of the hints: its `name` as the page shows it, where it comes from (`source`:
    "skilled" for the definition's analysis.skilled_agent, "budget" for the fixed budget, "uct"
    for plain UCT), and the agent (with a `ratings` method)."""

    name: str
    source: str
    agent: Any
    margin: float = 0.0  # the weight of the score margin in its results (Links' search), else 0


def hint_agent(definition: GameDefinition, game: Game) -> HintAgent:
    """The searching agent of the hints for `game` (see the module docstring)."""
    from boardlab.analysis import engines
    from boardlab.analysis.agents import RandomAgent
    from boardlab.analysis.mcts import MCTSAgent

    known = engines.agent_factories(game.id)
    named = getattr(getattr(definition, "analysis", None), "skilled_agent", None)
    tried = [(named, "skilled")] if named and named in known else []
    tried += [(f"{family}-{HINT_BUDGET}", "budget") for family in known.families if family == "mcts"]
    for name, source in tried:
        agent = known[name](game)
        if callable(getattr(agent, "ratings", None)):
            return HintAgent(name, source, agent, float(getattr(agent, "margin", 0.0)))
    return HintAgent(f"uct-{HINT_BUDGET}", "uct", MCTSAgent(HINT_BUDGET, RandomAgent(), name=f"uct-{HINT_BUDGET}"))


@dataclass
class Rating:
    """One search's view of a position: per legal move (in `legal_moves()` order) its visits and
    summed result for the seat to move; `visits` their total, `budget` the iterations asked for."""

    agent: str
    seat: int
    budget: int
    visits: int
    counts: list[int]
    sums: list[float]
    seconds: float = 0.0

    def win(self, index: int) -> float | None:
        """The mean result of move `index` (None when the search never tried it)."""
        return self.sums[index] / self.counts[index] if self.counts[index] else None

    def best(self) -> int:
        """The move the agent plays: the most visited (ties: the higher win chance, then the first)."""
        return max(range(len(self.counts)), key=lambda i: (self.counts[i], self.win(i) or 0.0, -i))

    def to_json(self) -> dict:
        total = self.visits or 1
        return {"agent": self.agent, "seat": self.seat, "budget": self.budget, "visits": self.visits,
                "complete": self.visits >= self.budget, "seconds": round(self.seconds, 2), "best": self.best(),
                "moves": [{"index": i, "visits": n, "share": n / total, "win": self.win(i)}
                          for i, n in enumerate(self.counts)]}


def budget_of(agent: object) -> int:
    """The iterations an agent's search runs per position."""
    search = getattr(agent, "search", None)
    return int(getattr(search, "iterations", None) or getattr(agent, "iterations"))


def rate(hint: HintAgent, state: State, seed: int, deadline: float | None = None) -> Rating:
    """The agent's rating of every legal move of `state` (a seat to move, not chance), from one
    search drawn from `seed`, stopped at `deadline` (`time.monotonic()`) if it is reached.

    :raises ValueError: when nobody is to move (chance, or the game is over).
    """
    seat = state.current_player()
    if seat < 0 or seat == CHANCE:
        raise ValueError("a hint needs a seat to move")
    started = time.monotonic()
    found = hint.agent.ratings(state, random.Random(seed), deadline)
    legal = list(state.legal_moves())
    by_move = {move: (n, total) for move, n, total in found}
    counts = [int(by_move.get(move, (0, 0.0))[0]) for move in legal]
    sums = [float(by_move.get(move, (0, 0.0))[1]) for move in legal]
    return Rating(hint.name, seat, budget_of(hint.agent), sum(counts), counts, sums, time.monotonic() - started)


@dataclass
class Review:
    """The moves played by hand in a finished game that lost most win chance against the agent's
    choice: `moves` (at most `REVIEW_MOVES`, largest loss first, each a dict), and how many of
    the hand-played moves were rated (`rated` of `total`) within the time."""

    agent: str
    rated: int
    total: int
    moves: list[dict] = field(default_factory=list)
    #: (at most `REVIEW_MOVES`) moves played that the search never tried (outside its candidates)
    unrated: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"agent": self.agent, "rated": self.rated, "total": self.total, "moves": self.moves,
                "untried": self.unrated}


def review(hint: HintAgent, states: Sequence[tuple[int, State, int]], seed: int,
           seconds: float = REVIEW_SECONDS, describe: Callable[[State, int], str] | None = None) -> Review:
    """Rate each position `(ply, state before the move, index of the move played)` within
    `seconds` in all (each search gets an equal part of the time left: a long game is rated
    whole, each position more roughly); the moves whose win chance fell short of the agent's
    choice by most.  `describe(state, index)` names a move (its text in the move list)."""
    deadline = time.monotonic() + seconds
    out = Review(hint.name, 0, len(states))
    losses = []
    for k, (ply, state, played) in enumerate(states):
        now = time.monotonic()
        if k and now > deadline:
            break
        rating = rate(hint, state, hint_seed(seed, ply), now + (deadline - now) / (len(states) - k))
        out.rated += 1
        best = rating.best()
        played_win, best_win = rating.win(played), rating.win(best)
        entry: dict[str, Any] = {"ply": ply, "seat": rating.seat, "played": played, "best": best,
                 "played_win": rating.win(played), "best_win": rating.win(best), "visits": rating.visits,
                 "budget": rating.budget}
        if describe is not None:
            entry["played_text"], entry["best_text"] = describe(state, played), describe(state, best)
        if played_win is None or best_win is None:
            if len(out.unrated) < REVIEW_MOVES:
                out.unrated.append(entry)
        elif played != best:
            entry["loss"] = best_win - played_win
            losses.append(entry)
    losses.sort(key=lambda e: (-e["loss"], e["ply"]))
    out.moves = [e for e in losses if e["loss"] > 0][:REVIEW_MOVES]
    return out


def hint_seed(seed: int, ply: int) -> int:
    """The seed of the hint's search at `ply` of a game of `seed`."""
    from boardlab.analysis.runner import derive_seed

    return derive_seed(seed, HINT_STREAM, ply)

"""Perfect play: exhaustive search over the engine protocol, for games small enough to solve.

`Solver.values(state)` is the exact expected result of every seat under perfect play from
`state`: at a terminal state each winner's share of the win (1/k for k joint winners, nothing in
a game stopped at the cap or drawn), at a chance node the mean over `State.chance_outcomes`
weighted by their exact probabilities, at a player's node the child best for the player to move
(max-n: for two players this is the minimax value; with more, ties between moves equally good
for the mover are broken by the first in `legal_moves` order, so the values of the others are
those of one perfect player among several).  Values are `Fraction`s: a game's value is exact.

A state that offers `State.transposition_key` is searched once (the transposition table);
without a key the search is a plain tree search, still exact.  A search that would visit more
than `limit` positions, or reaches a chance node whose outcomes cannot be listed (a shuffled
deal: `chance_outcomes` not implemented), raises `TooLarge`: the game is too large to solve here,
and a report says so.

>>> from boardlab.analysis.mcts import _Pile
>>> Solver().values(_Pile(5)), Solver().values(_Pile(8))   # take 1 to 3; multiples of 4 lose
((Fraction(1, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(1, 1)))
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Hashable

from boardlab.analysis.agents import Agent
from boardlab.analysis.protocol import CHANCE, Game, State
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.runner import AgentFactory

#: the most positions one search may visit before its game counts as too large to solve
POSITION_LIMIT = 200_000
#: the most positions a solver keeps between searches (the table is emptied beyond it)
TABLE_LIMIT = 2_000_000


#: why a game is too large to solve (`TooLarge.reason`), in words (reports say it through their terms tables)
REASONS = {"deal": "its deal cannot be listed outcome by outcome", "deep": "a game runs too long",
           "positions": "more than {limit:,} positions from the start"}


class TooLarge(BoardlabError):
    """The game (or the position) is too large to solve exhaustively here; `reason` says why in
    one word: "deal" (chance outcomes that cannot be listed), "deep" or "positions"."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


def exact_returns(state: State) -> tuple[Fraction, ...]:
    """A terminal state's result per seat: 1/k to each of k winners, 0 to the others (and to all
    in a game stopped at the cap or ended without a winner)."""
    winners = () if state.is_unfinished() else state.winners()
    share = Fraction(1, len(winners)) if winners else Fraction(0)
    return tuple(share if seat in winners else Fraction(0) for seat in range(state.players))


class Solver:
    """Exact values of positions under perfect play (see the module docstring)."""

    def __init__(self, limit: int = POSITION_LIMIT):
        self.limit = limit
        self.table: dict[Hashable, tuple[Fraction, ...]] = {}
        self.positions = 0  # positions visited by the current search

    def values(self, state: State) -> tuple[Fraction, ...]:
        """Every seat's exact expected result from `state` under perfect play.

        :raises TooLarge: when the search would visit more than `limit` positions or meets a
            chance node whose outcomes cannot be listed.
        """
        self.positions = 0
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        try:
            return self._value(state)
        except RecursionError:
            raise TooLarge("perfect play: too large to solve exhaustively here (a game this long has too many positions)",
                           "deep") from None

    def move_values(self, state: State) -> list[tuple[Hashable, tuple[Fraction, ...]]]:
        """(move, values after it) for every legal move of the player to move at `state`.

        :raises TooLarge: as `values`.
        """
        self.positions = 0
        out = []
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            try:
                out.append((move, self._value(child)))
            except RecursionError:
                raise TooLarge("perfect play: too large to solve exhaustively here (a game this long has too many positions)",
                               "deep") from None
        return out

    def _value(self, state: State) -> tuple[Fraction, ...]:
        key = state.transposition_key()
        if key is not None:
            known = self.table.get(key)
            if known is not None:
                return known
        self.positions += 1
        if self.positions > self.limit:
            raise TooLarge(f"perfect play: too large to solve exhaustively here (more than {self.limit:,} positions "
                           "to search from this position)", "positions")
        if state.is_terminal():
            value = exact_returns(state)
        elif state.current_player() == CHANCE:
            try:
                outcomes = state.chance_outcomes()
            except NotImplementedError:
                raise TooLarge("perfect play: too large to solve exhaustively here (its chance outcomes, a shuffled deal, "
                               "cannot be listed one by one)", "deal") from None
            total = [Fraction(0)] * state.players
            for outcome, probability in outcomes:
                child = state.clone()
                child.apply(outcome)
                total = [t + probability * v for t, v in zip(total, self._value(child))]
            value = tuple(total)
        else:
            seat = state.current_player()
            best: tuple[Fraction, ...] | None = None
            for move in state.legal_moves():
                child = state.clone()
                child.apply(move)
                v = self._value(child)
                if best is None or v[seat] > best[seat]:
                    best = v
            assert best is not None  # a player's node has a legal move
            value = best
        if key is not None:
            self.table[key] = value
        return value


def optimal_moves(solver: Solver, state: State) -> list:
    """The moves of the player to move that keep its perfect-play value (all equally good).

    :raises TooLarge: as `Solver.values`.
    """
    seat = state.current_player()
    scored = solver.move_values(state)
    best = max(v[seat] for _, v in scored)
    return [move for move, v in scored if v[seat] == best]


class PerfectAgent(Agent):
    """Plays a move of highest perfect-play value for itself (ties at random; a lone move at once).

    :raises TooLarge: (from `choose`) in a game too large to solve.
    """

    name = "perfect"

    def __init__(self, limit: int = POSITION_LIMIT) -> None:
        self.solver = Solver(limit)

    def choose(self, state: State, rng: random.Random) -> Hashable:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        good = optimal_moves(self.solver, state)
        return good[rng.randrange(len(good))]


def game_value(game: Game, limit: int = POSITION_LIMIT) -> dict:
    """Whether a game is solved from its start within `limit` positions: {"solved": True, "unique",
    "value": every seat's perfect-play share of the results (two players; None with more, where
    perfect play is not unique), "exact", "positions"} or {"solved": False, "reason", "limit"}."""
    solver = Solver(limit)
    try:
        value = solver.values(game.new_initial_state())
    except TooLarge as err:
        return {"solved": False, "reason": err.reason, "limit": limit}
    # with more than two players one who cannot win may still choose who does: the values are
    # those of one tie-break among several, so no seat's perfect-play share is stated
    unique = game.players == 2
    return {"solved": True, "unique": unique, "value": [float(v) for v in value] if unique else None,
            "exact": [str(v) for v in value] if unique else None, "positions": len(solver.table) or solver.positions}


def optimal_share(game: Game, agent_factory: AgentFactory, games: int, seed: int, limit: int = POSITION_LIMIT) -> dict:
    """How often an agent plays a perfect move: over `games` games of the agent in every seat
    (seeds from `seed`), at every decision where some legal move loses value, whether the agent's
    move is one of the optimal ones: {"games", "decisions", "optimal", "share"}.

    :raises TooLarge: in a game too large to solve.
    """
    from boardlab.analysis.runner import derive_seed

    solver = Solver(limit)
    decisions = optimal = 0
    for index in range(games):
        rng = random.Random(derive_seed(seed, 17, index))
        agents = [agent_factory(game) for _ in range(game.players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            move = agents[state.current_player()].choose(state, rng)
            if len(moves) > 1:
                good = optimal_moves(solver, state)
                if len(good) < len(moves):  # a decision that matters
                    decisions += 1
                    optimal += move in good
            state.apply(move)
    return {"games": games, "decisions": decisions, "optimal": optimal,
            "share": round(optimal / decisions, 6) if decisions else None}


#: the derive_seed stream of the endgame sample (`endgame_share`): its cheap games, then each
#: sampled decision's agent (a stream apart from `optimal_share`'s 17)
ENDGAME_STREAM = 23
#: the most positions one endgame position's search may visit (beyond: the walk back stops); on
#: Blockd (2 players, seed 1) 2,000 reaches as far back as 20,000 (100 decisions 1 to 8 plies from
#: the end either way; 309 cheap games against 273) for about 30 CPU s against 240 (a shared machine;
#: nearly all of it the solver's: mcts-1024's
#: own moves there take 0.14 s for 30 decisions)
ENDGAME_LIMIT = 2_000
#: the most plies before a sampled game's end a decision is taken from
ENDGAME_PLIES = 12


def endgame_share(game: Game, agent_factory: AgentFactory, positions: int, seed: int,
                  plies: int = ENDGAME_PLIES, limit: int = ENDGAME_LIMIT, detail: bool = False,
                  player: AgentFactory | None = None, most_games: int | None = None) -> dict:
    """How often an agent plays a perfect move in the endgames of a game too large to solve
    from its start (two players).

    Cheap games are played by `player` in both seats (None: random moves; a game whose random
    games run to the turn cap passes a greedy player), game i from `derive_seed(seed,
    ENDGAME_STREAM, i)`, and each game's positions are kept.  A game stopped at its turn cap gives
    no endgame (its last positions are decided by the cap); in a game that ended by the rules,
    walking back from its end, every decision point at most
    `plies` plies before the end is solved exactly within `limit` positions (`Solver`), and the
    walk back stops at the first one that is not (`TooLarge`: too many positions, or a chance
    node whose outcomes cannot be listed: such a state is not sampled).  At a decision that
    matters (some legal move loses value) the agent (a new one from `agent_factory`, its moves
    drawn from `derive_seed(seed, ENDGAME_STREAM, i, k)` for the k-th decision of game i) chooses,
    and whether its move is optimal is counted.  Games are played until `positions` decisions that
    matter are sampled (or 50 games per position asked have been played, `most_games` when given:
    a game whose cheap games give none, e.g. all stopped at the cap, then has `positions` 0).  The
    games and decisions are the same whatever `positions` is: a smaller sample is the start of a
    larger one (a probe of a few positions is the start of the measure).

    Returns {"positions": decisions that matter sampled, "optimal": how many the agent played
    optimally, "share", "random_share": the chance that a uniformly random legal move is optimal,
    averaged over those decisions (what a random player would score), "plies": [fewest, most] plies
    before their game's end, "limit", "games": cheap games played, "solved": decision points solved
    (those that matter and those where every move is as good)}; with `detail`, also "samples": one
    (state, legal moves, optimal moves, move chosen) per decision that matters.

    :raises BoardlabError: with more than two players (perfect play is then not unique: a player
        who cannot win may still choose who does).
    """
    from boardlab.analysis.runner import derive_seed

    if game.players != 2:
        raise BoardlabError(f"endgame play is measured for two players only (with {game.players}, perfect play "
                            "is not unique: a player who cannot win may still choose who does)")
    solver = Solver(limit)
    samples: list[tuple[State, list, list, Hashable]] = []
    optimal = solved = games = 0
    random_share = Fraction(0)
    left: list[int] = []
    most = 50 * max(positions, 1) if most_games is None else most_games
    while len(samples) < positions and games < most:
        rng = random.Random(derive_seed(seed, ENDGAME_STREAM, games))
        state = game.new_initial_state()
        kept: list[State] = []  # the decision points of this game, in order
        players = [player(game) for _ in range(2)] if player is not None else None
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            kept.append(state.clone())
            state.apply(state.random_move(rng) if players is None else players[state.current_player()].choose(state, rng))
        if state.is_unfinished():
            kept = []  # stopped at the cap: no endgame
        end = len(kept)
        for index in range(end - 1, max(end - plies, 0) - 1, -1):
            if len(samples) >= positions:
                break
            position = kept[index]
            moves = list(position.legal_moves())
            if len(moves) == 1:
                continue
            try:
                good = optimal_moves(solver, position)
            except TooLarge:
                break
            solved += 1
            if len(good) == len(moves):
                continue  # every move is as good: a decision that does not matter
            agent = agent_factory(game)
            move = agent.choose(position.clone(), random.Random(derive_seed(seed, ENDGAME_STREAM, games, len(samples))))
            optimal += move in good
            random_share += Fraction(len(good), len(moves))
            left.append(end - index)
            samples.append((position, moves, good, move))
        games += 1
    count = len(samples)
    out: dict = {"positions": count, "optimal": optimal, "share": round(optimal / count, 6) if count else None,
                 "random_share": round(float(random_share / count), 6) if count else None,
                 "plies": [min(left), max(left)] if left else None, "limit": limit, "games": games, "solved": solved}
    if detail:
        out["samples"] = samples
    return out

"""The engine protocol every game implements (modelled on OpenSpiel's state API).

A `Game` is built from a definition and a player count; it makes `State`s.
The engine module that builds it is the `engine` part of the game's registry entry
(`boardlab.layouts.registry`).
A `State` is one position.  Its discipline (shared by every engine): `apply` changes the
state in place, `clone` gives an independent copy for search.
Chance is explicit: at a chance node `current_player()` is `CHANCE` and `chance_outcomes()`
lists every outcome with its exact probability; `sample_chance` draws one with those weights.
Events too large to list (shuffling a deck) may instead override `sample_chance` alone; such a
game says so with `Game.chance_listed = False`.

Optional capabilities are declared here, each a method or flag of `Game` with a default, so
the runner, the commands and the tests ask for them directly and never look for them:

============================  ===============================================================
`Game.rotates_deal`           the first chance outcome can be turned round the table
                              (`Game.rotate_deal`); the runner then rotates deals, not agents
`Game.play_block`             a batched or faster way to play games start..stop-1 of a match
                              (None: play them one by one); `Game.block_size` its block size
`Game.summarize`              the game's own simulation figures, kept under the key
                              `Game.id` of the summary; `Game.describe_summary` as text
`Game.reads_positions`        `Game.state_from_position` reads the JSON form of a position
                              and `State.to_position` writes it (perft files, `boardlab moves`)
`Game.chance_listed`          every chance node lists its outcomes (`State.chance_outcomes`)
`Game.hidden_information`     a player does not see the whole state (hands): a search of the
                              whole state is then no player's optimal play (no endgame measure)
`Game.skill_ladder`           the agents of the skill trace, weakest first (`analysis/skill.py`)
`Game.restrictions`           the optional elements a player chooses to use, as move filters
                              (`analysis/restricted.py`); `Game.restricted_agent` the agent barred
`Game.report_extras`          the game's own charts and tables in its balance report
============================  ===============================================================

A `State` may also offer integer move codes (`legal_codes`, `apply_code`, `move_of_code`), a
move drawn by its index (`random_move`) and a compiled random playout (`random_playout`), each
with a default here.  Further capabilities are added the same way: a flag or method with a
default here, and a check in tests/test_conformance.py.
Exact tables and `boardlab moves` are parts of the game's registry entry instead (they work on
a definition, not on one `Game`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Generic, Hashable, Sequence, TypeVar

from boardlab.analysis.chance import Distribution, Outcome
from boardlab.layouts.common import GameDefinition
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.restricted import Restriction
    from boardlab.analysis.runner import GameRecord, Match
    from boardlab.analysis.tally import SummaryTally, Tally

#: a move: each engine's own hashable value (a named tuple, an int ...); the protocol passes
#: moves (and chance outcomes, `chance.Outcome`) through unchanged, so it types them no further
Move = Any
#: the definition type of a game (its schema's `Definition`): `Game[blockd.Definition]` types every
#: rule key its engine reads
D = TypeVar("D", bound=GameDefinition)

CHANCE = -1
TERMINAL = -2
#: the smallest MCTS budget of the default skill ladder (`Game.skill_ladder`)
LADDER_START = 16


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it is applied to (or applied after the end)."""


class State(ABC):
    """One position of a game; seats are numbered 0 .. players - 1."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to move, `CHANCE` at a chance node, `TERMINAL` when the game is over."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """The legal moves of the player to move, in a fixed order; empty at chance/terminal nodes."""

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play `move` (or the chance outcome at a chance node) in place.

        :raises IllegalMoveError: when `move` is not legal here.
        """

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy."""

    def chance_outcomes(self) -> list[tuple[Outcome, Fraction]]:
        """(outcome, exact probability) at a chance node."""
        raise NotImplementedError(f"{type(self).__name__} lists no chance outcomes")

    def sample_chance(self, rng: random.Random) -> Outcome:
        """One chance outcome drawn with its exact probability."""
        outcomes = self.chance_outcomes()
        denominator = 1
        for _, p in outcomes:
            denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
        weights = {o: int(p * denominator) for o, p in outcomes}
        return Distribution(weights).sample(rng)

    # -- optional capabilities: an engine overrides them to be searched faster -------------
    def legal_codes(self) -> Sequence[Move]:
        """The legal moves in the form a search tree keys them by, in the order of `legal_moves`.

        An engine with integer move codes returns small ints here, cheaper to list and to
        apply than move objects; by default the codes are the moves themselves.
        """
        return self.legal_moves()

    def apply_code(self, code: Move) -> None:
        """Play the move of a code taken from `legal_codes()` of this state."""
        self.apply(code)

    def move_of_code(self, code: Move) -> Move:
        """The move (as `legal_moves` gives it) of a code of `legal_codes()`."""
        return code

    def transposition_key(self) -> Hashable | None:
        """A hashable value equal for two states exactly when their futures are the same (the
        player to move, everything the rules read, the turn count where a cap reads it), so that
        exhaustive search (`analysis/perfect.py`) solves each position once; None (the default):
        no key, every position is searched where it is reached."""
        return None

    def random_move(self, rng: random.Random) -> Move:
        """`legal_moves()[rng.randrange(len(legal_moves()))]`: the same draw and the same move;
        an engine may find the move by its index without listing them all."""
        moves = self.legal_moves()
        return moves[rng.randrange(len(moves))]

    def random_playout(self, rng: random.Random, policy: str) -> tuple[float, ...] | None:
        """Play on to the end with the random policy `policy` (an agent's `random_policy`,
        e.g. "moves": every legal move alike) and give `returns()`, or None when the engine
        has no fast playout for that policy (callers then play the agent move by move).
        The engine may change the state (callers pass a copy they no longer need).
        """
        return None

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Seats that won a finished game: one seat, several for a shared win, () for none."""

    def is_unfinished(self) -> bool:
        """True when the game stopped at its turn or round cap rather than by the rules."""
        return False

    def returns(self) -> tuple[float, ...]:
        """Per-seat result of a terminal state: 1 split among the winners, 0 otherwise."""
        out = [0.0] * self.players
        win = self.winners()
        if self.is_unfinished() or not win:
            return tuple(out)
        for seat in win:
            out[seat] = 1.0 / len(win)
        return tuple(out)

    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats."""

    def length(self) -> int:
        """The game's length so far in the engine's natural unit (turns or rounds)."""
        return 0

    def stats(self) -> dict[str, Any]:
        """Game-specific counters of a finished game, summed or summarised by `Game.summarize`."""
        return {}

    def to_position(self) -> dict:
        """The position in its JSON form (games with `Game.reads_positions`)."""
        raise NotImplementedError(f"{type(self).__name__} has no JSON position form")


class TurnState(State):
    """The bookkeeping of a game played turn by turn, which Blockd, Links and Deblockle share.

    A subclass keeps `mover` (a seat, `CHANCE` or `TERMINAL`), `won` (the winning seats once
    the game is over), `unfinished` (stopped at the turn cap), `turns` (the game's length, in
    the unit its engine's docstring names) and `_moves` (the mover's moves, None until asked
    for; reset it whenever the position changes), and gives `moves_of(seat)`.
    """

    mover: int
    won: tuple[int, ...]
    unfinished: bool
    turns: int
    _moves: list | None

    def moves_of(self, seat: int) -> list:
        """The legal moves of `seat` in this position, in the engine's order."""
        raise NotImplementedError

    def current_player(self) -> int:
        return self.mover

    def legal_moves(self) -> list:
        """The mover's moves (`moves_of`), computed once per position."""
        if self.mover < 0:
            return []
        if self._moves is None:
            self._moves = self.moves_of(self.mover)
        return self._moves

    def apply_outcome(self, play: Callable[[Outcome], object], outcome: Outcome) -> None:
        """Play a chance outcome with `play` (the engine's deal or setup), which checks it before it
        changes anything.

        :raises IllegalMoveError: when `play` refuses the outcome (not one of this chance node's).
        """
        try:
            play(outcome)
        except IllegalMoveError:
            raise
        except (TypeError, ValueError) as err:
            raise IllegalMoveError(f"{outcome!r} is not an outcome of this chance node: {err}") from None

    def check_move(self, move: Move) -> None:
        """:raises IllegalMoveError: when the game is over or `move` is not a legal move here."""
        if self.mover == TERMINAL or move not in self.legal_moves():
            raise IllegalMoveError(f"illegal move {move!r} in this position")

    def winners(self) -> tuple[int, ...]:
        return self.won

    def is_unfinished(self) -> bool:
        return self.unfinished

    def length(self) -> int:
        return self.turns


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


class Game(ABC, Generic[D]):
    """A game built from a definition and a player count (see the module docstring for the
    optional capabilities and their defaults)."""

    #: what `State.length()` counts, for reports ("turns", "rounds")
    length_unit = "turns"
    #: whether `rotate_deal` turns the first chance outcome round the table
    rotates_deal = False
    #: whether `state_from_position` / `State.to_position` read and write JSON positions
    reads_positions = False
    #: whether every chance node lists its outcomes (False: `State.sample_chance` only)
    chance_listed = True
    #: whether a player does not see the whole state (other hands): perfect play computed on the
    #: whole state is then not what a player could play (`skill.endgame_measure` skips such a game)
    hidden_information = False

    def __init__(self, definition: D, players: int) -> None:
        self.definition: D = definition
        self.players = players

    @property
    def id(self) -> str:
        """The game id of the definition (the registry's id)."""
        return self.definition.game.id

    @property
    def variant(self) -> str:
        """The definition's variant name ("baseline" for the game's own definition)."""
        return self.definition.variant

    @abstractmethod
    def new_initial_state(self) -> State:
        """The position before the first move (usually a chance node: the deal)."""

    def rotate_deal(self, outcome: Outcome, rotation: int) -> Outcome:
        """The first chance outcome (the deal) with seat s in the place seat (s + rotation) % n had.

        Only for games with `rotates_deal`; the runner then plays each deal once per rotation
        when one agent sits in every seat.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot rotate its deal")

    def play_block(self, match: Match, start: int, stop: int) -> list[GameRecord] | None:
        """Records (`runner.GameRecord`) of games start..stop-1 of `match` by a faster path, or
        None to let the runner play them one by one (`runner.play_one`).

        A fast path must give the records the runner's own path would give (or, for a batched
        path with its own move stream, the same deals; documented in the game's module).
        """
        return None

    def block_size(self, match: Match) -> int | None:
        """The runner's block size for `match` when `play_block` wants larger blocks (None: the
        runner's default).  Never a function of the worker count."""
        return None

    def skill_ladder(self, max_budget: int) -> list[str]:
        """The agent names of the skill trace (the balance report's skill section and `boardlab
        skill`), weakest first, each to be played against the one before it: by default random,
        greedy when the engine has it, then its MCTS with budgets doubling from `LADDER_START` up
        to `max_budget` when the engine has one (`mcts-N`); an engine with neither climbs through
        its own named agents in the order it lists them.  A game overrides it to put its own
        agents on the ladder."""
        from boardlab.analysis import engines

        known = engines.agent_factories(self.id)
        ladder = ["random"] + (["greedy"] if "greedy" in known else [])
        budget = LADDER_START
        while budget <= max_budget and f"mcts-{budget}" in known:
            ladder.append(f"mcts-{budget}")
            budget *= 2
        if len(ladder) == 1:  # perfect play closes a ladder only where the game is solved (`skill.traces`)
            ladder += [name for name in dict.keys(known) if name not in ("random", "perfect")]
        return ladder

    def restrictions(self) -> tuple[Restriction, ...]:
        """The optional elements a player chooses to use, each a `restricted.Restriction` (a move
        filter); a game declares them as data beside its engine.  None by default."""
        return ()

    def restriction(self, name: str) -> Restriction:
        """The declared element `name`.

        :raises BoardlabError: when the game declares no such element.
        """
        for restriction in self.restrictions():
            if restriction.name == name:
                return restriction
        known = ", ".join(r.name for r in self.restrictions()) or "none"
        raise BoardlabError(f"{self.id} has no element '{name}' to bar (elements: {known})")

    def restricted_agent(self) -> str:
        """The agent restricted play bars from each element: greedy when the engine has it, else random."""
        from boardlab.analysis import engines

        return "greedy" if "greedy" in engines.agent_factories(self.id) else "random"

    def is_pass(self, move: Move) -> bool:
        """True when `move` is a pass (the mover does nothing); reports count turns whose only move is one."""
        return False

    def summarize(self, records: list) -> dict[str, Any]:
        """The game's own figures over records (sorted by index); the runner files them under `self.id`.

        Seat wins, draws, lengths and agents are the runner's (`tally.SummaryTally`); this adds
        only what the game alone knows.  Empty: nothing to add.  A game that streams its
        summary overrides `tally` instead (and may keep this as its list-based twin).
        """
        return {}

    def tally(self, match: Match) -> "Tally":
        """A fresh `tally.Tally` of the game's own figures for games of `match`.

        The default keeps the records and calls `summarize` at the end (memory grows with the
        games); a game whose figures are counts and sums gives a tally of counts, so that
        `simulate` streams.
        """
        from boardlab.analysis.tally import RecordsTally
        return RecordsTally(self)

    def tally_block(self, match: Match, start: int, stop: int) -> SummaryTally | None:
        """The `tally.SummaryTally` of games start..stop-1 of `match` by a fast path that never
        builds records, or None (the runner then tallies the records of `play_block`).

        It must equal the tally of the records `play_block` gives for the same games.
        """
        return None

    def report_extras(self, seed: int) -> tuple[list, dict]:
        """The game's own charts and tables in its balance report, beside its exact tables, as
        (blocks of `report.document`, their data for the report's JSON), for this player count;
        `seed` for anything dealt.  None by default."""
        return [], {}

    def summary_charts(self, figures: dict[str, Any]) -> tuple[list, dict[str, Any]]:
        """Charts (blocks of `report.document`) of the figures `summarize` returned that read
        better drawn than listed, in the language being written, and the figures left for
        `describe_summary`'s text in the report (those drawn left out).  None by default."""
        return [], figures

    def describe_summary(self, figures: dict[str, Any]) -> str:
        """Plain-text lines for `figures` (what `summarize` returned), for `boardlab simulate` and
        the "own figures" of a balance report, in the language being written (a report in Spanish
        calls it inside `layouts.terms.speaking("es")`).  Its texts come from tables by language, as a
        report's do: a game of boardlab's own by `term` of its `summary.GAME.KEY` keys in
        layouts/terms/LANG.toml (`boardlab check` finds a key a table lacks), a game of its own
        package by its own table per language, picked by `layouts.terms.language()` (as the
        `TEXTS` of a `boardlab new-game` print module); its numbers by `report.wording` (`number`,
        `pct`, `series`, `spread`: `12,3 %` and `2,5; 3,1` in Spanish)."""
        return ""

    def state_from_position(self, data: dict) -> State:
        """The state of a position in its JSON form (games with `reads_positions`).

        :raises BoardlabError: when the position is malformed, or the game reads no positions.
        """
        raise BoardlabError(f"{self.id}: positions cannot be read for this game yet")

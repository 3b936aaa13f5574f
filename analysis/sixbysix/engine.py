"""The 6x6 rules engine (rules: layouts/rulebooks/sixbysix.en.md) with every rule option of the definition.

(The compiled fast path is kernel.py, tested record for record against this state played move
by move; the simulation summary is in summary.py.)

**State discipline**: the protocol's one discipline: `apply` changes a `SixBySixState` in
place and `clone` copies its few flat lists (chips, markers, bets, dice) for search.

A round, as nodes of the game tree:

1. one decision per active player, in seat order from the lead: a `Move` = (bet face, marker
   number); the bet chip leaves the player's stock at once;
2. one chance node per active player, in the same order: their die, with the exact weights of
   `dice.die_distribution` (the one dice routine); the bet chip comes back when the die shows the
   bet face, else it goes to the bank;
3. the sum of the dice pays the bank to the marker standing on it; with nobody there the bank
   stays (``unclaimed_bank = "carry"``) or leaves the game (``"house"``).

Decisions the spec leaves to the engine:

- Seats are numbered from the starting player (seat 0 won the opening roll-off), so the roll-off,
  which only decides who sits where, is not a node.
- ``lead = "rotate"`` (the default): the lead passes to the next active seat to the left every
  round.  ``lead = "fixed"``: seat 0 leads every round; once eliminated, the first active seat
  after it.
- ``covering = true``: markers may stand only on numbers some remaining player count can still
  roll (`board.allowed_numbers`): the eliminated players' cards cover the dead rows, and in a
  game started with fewer than the maximum players the unused cards cover theirs from the start.
- When the last players run out of chips in the same round, nobody is left: they share the win
  (a draw in simulation summaries).
- A game reaching ``max_rounds`` rounds with two or more players ends unfinished.

`length()` counts completed rounds (``length_unit = "rounds"``).

>>> from boardlab.layouts import load
>>> game = SixBySixGame(load("sixbysix"), 2)
>>> s = game.new_initial_state()
>>> s.current_player(), s.legal_moves()[0].text()
(0, '1@2')
>>> s.apply(Move.from_text("3@7")); s.apply(Move(5, 6)); s.current_player() == CHANCE
True
>>> s.chance_outcomes()[0]
(1, Fraction(1, 6))
"""

from __future__ import annotations

import dataclasses
import random
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple

from boardlab.analysis.agents import Agent, AgentTable, RandomAgent
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, IllegalMoveError, State
from boardlab.layouts import sixbysix as sixbysix_schema
from boardlab.analysis.runner import GameRecord, Match, play_one
from boardlab.analysis.sixbysix.board import allowed_numbers
from boardlab.analysis.sixbysix.dice import die_distribution, sum_probabilities
from boardlab.analysis.sixbysix.faces import best_face
from boardlab.analysis.sixbysix.markers import GREEDY, Chooser
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.analysis.sixbysix.search import SearchAgent
    from boardlab.analysis.sixbysix.summary import SixBySixTally
    from boardlab.analysis.tally import SummaryTally

LEADS = ("fixed", "rotate")

#: games per runner block when the compiled kernel plays them (`SixBySixGame.block_size`)
KERNEL_BLOCK = 512
#: rounds after which a game's chips are recorded for the "chips over time" summary
CHECKPOINTS = (10, 25, 50, 100, 250, 500, 1000)


class Move(NamedTuple):
    """A player's turn: a chip on `face` of their own card and their marker on board `number`."""

    face: int
    number: int

    def text(self) -> str:
        """``FACE@NUMBER``, e.g. ``3@21``."""
        return f"{self.face}@{self.number}"

    @classmethod
    def from_text(cls, text: str) -> "Move":
        """Parse ``FACE@NUMBER``.

        :raises ValueError: when the text is not of that form.

        >>> Move.from_text("6@21")
        Move(face=6, number=21)
        """
        m = re.fullmatch(r"\s*(\d+)\s*@\s*(\d+)\s*", text)
        if not m:
            raise ValueError(f"'{text}' is not a move (FACE@NUMBER, e.g. 3@21)")
        return cls(int(m.group(1)), int(m.group(2)))


class SixBySixGame(Game[sixbysix_schema.Definition]):
    """6x6 for `players` seats; `lead` overrides the definition's lead rule (for the lead twin).

    With `compare_lead` the batched `play_block` also plays every game under the other lead
    rule with the same seeds, so a simulation summary holds both (see `summarize`).

    :raises BoardlabError: when the player count or the lead rule is not allowed.
    """

    length_unit = "rounds"

    def __init__(self, definition: sixbysix_schema.Definition, players: int, lead: str | None = None,
                 compare_lead: bool = True) -> None:
        super().__init__(definition, players)
        definition.game.check_players(players)
        self.lead = definition.rules.lead if lead is None else lead
        if self.lead not in LEADS:
            raise BoardlabError(f"lead must be one of {', '.join(LEADS)}, not '{self.lead}'")
        self.compare_lead = compare_lead
        self.faces = tuple(definition.dice.faces)
        self.die = die_distribution(self.faces)
        self.die_outcomes = self.die.items()
        self.seats = tuple(definition.components.seats[:players])  # seat colours, seat 0 first
        self.rules = definition.rules
        #: active player count -> board numbers a marker may stand on, and their probabilities
        self.allowed = {n: allowed_numbers(definition, n) for n in range(1, players + 1)}
        self.probabilities = {n: sum_probabilities(self.faces, n) for n in range(1, players + 1)}
        self._orders: dict[Chooser, dict[int, tuple[int, ...]]] = {}
        #: the compiled kernel's tables per seat order of choosers (`kernel._cached_tables`)
        self.kernel_tables: dict[tuple, tuple] = {}
        self._twin: SixBySixGame | None = None

    def new_initial_state(self) -> "SixBySixState":
        return SixBySixState(self)

    def preference(self, chooser: Chooser, active: int) -> tuple[int, ...]:
        """The chooser's order over the allowed numbers with `active` players (cached)."""
        per_count = self._orders.setdefault(chooser, {})
        if active not in per_count:
            order = chooser.order(self.probabilities[active], self.allowed[active])
            assert order is not None  # only preference choosers (greedy, favourite) are asked
            per_count[active] = order
        return per_count[active]

    def twin(self) -> "SixBySixGame":
        """The same game under the other lead rule (made once)."""
        if self._twin is None:
            other = LEADS[1 - LEADS.index(self.lead)]
            self._twin = SixBySixGame(self.definition, self.players, lead=other, compare_lead=False)
        return self._twin

    def play_block(self, match: Match, start: int, stop: int) -> list[GameRecord]:
        """Games start..stop-1 (by `play_range`); with `compare_lead`, each again under the other lead.

        The twin game uses the same chance and agent seeds (common random numbers); its result
        goes into the record's stats as ``other_lead``.
        """
        records = play_range(match, start, stop)
        if not self.compare_lead:
            return records
        twin_game = self.twin()
        twin = dataclasses.replace(match, game=twin_game)
        out = []
        for record, other in zip(records, play_range(twin, start, stop)):
            stats = {**record.stats, "other_lead": {"lead": twin_game.lead, "winners": list(other.winners),
                                                    "unfinished": other.unfinished, "rounds": other.length}}
            out.append(dataclasses.replace(record, stats=stats))
        return out

    def summarize(self, records: list) -> dict[str, Any]:
        """Chip economy, game length in rounds and minutes, refund rates, and both lead rules
        (filed under "sixbysix" in the summary; `summary.summarize_records`): the list-based
        twin of `tally`."""
        from boardlab.analysis.sixbysix.summary import summarize_records
        return summarize_records(self, records)

    def tally(self, match: Match) -> SixBySixTally:
        """The figures of `summarize`, streamed (`summary.SixBySixTally`: counts, no records)."""
        from boardlab.analysis.sixbysix.summary import SixBySixTally
        return SixBySixTally(self)

    def block_size(self, match: Match) -> int | None:
        """`KERNEL_BLOCK` games a block when the compiled kernel plays the match (a block's seeds,
        tables and tally are numpy calls whose cost is per call), else the runner's default."""
        from boardlab.analysis.sixbysix import kernel
        return KERNEL_BLOCK if kernel.choosers_of(match) is not None else None

    def tally_block(self, match: Match, start: int, stop: int) -> SummaryTally | None:
        """The summary tally of games start..stop-1 straight from the compiled kernel's arrays
        (`kernel.tally_block`, no record built), or None when the kernel does not play them."""
        from boardlab.analysis.sixbysix.kernel import tally_block
        return tally_block(match, start, stop)

    def skill_ladder(self, max_budget: int) -> list[str]:
        """random, greedy, then the dice search `search-N` (`search.py`) with budgets doubling from
        `protocol.LADDER_START` up to `max_budget` (6x6 has no MCTS: its search is over the dice)."""
        from boardlab.analysis.protocol import LADDER_START

        ladder, budget = ["random", "greedy"], LADDER_START
        while budget <= max_budget:
            ladder.append(f"search-{budget}")
            budget *= 2
        return ladder

    def restrictions(self) -> tuple:
        """The optional elements (`restrictions.py`): the bet face and the marker."""
        from boardlab.analysis.sixbysix.restrictions import RESTRICTIONS
        return RESTRICTIONS

    def report_extras(self, seed: int) -> tuple[list, dict]:
        """The report's charts of this game (`extras.report_extras`)."""
        from boardlab.analysis.sixbysix.extras import report_extras
        return report_extras(self.definition, self.players, seed)

    def summary_charts(self, figures: dict) -> tuple[list, dict]:
        """The chips held over the game as a line chart (`summary.chips_chart`); the text keeps the rest."""
        from boardlab.analysis.sixbysix.summary import chips_chart
        if not figures.get("chips_over_time"):
            return [], figures
        return [chips_chart(figures["chips_over_time"], self.players)], {**figures, "chips_over_time": {}}

    def describe_summary(self, figures: dict) -> str:
        """The game-specific part of the summary as text (printed by `boardlab simulate`)."""
        from boardlab.analysis.sixbysix.summary import describe
        return describe(figures)


class SixBySixState(State):
    """One position: chips, bank, active players, this round's bets, markers and dice."""

    __slots__ = ("game", "chips", "active", "bank", "lead", "rounds", "order", "step", "rolling", "bets",
                 "markers", "dice", "allowed", "terminal", "unfinished", "winning", "first_elimination",
                 "eliminations", "no_winner_rounds", "largest_bank", "bets_by_face", "refunds_by_face",
                 "house_chips", "round_wins", "snapshots")

    def __init__(self, game: SixBySixGame, _copy: bool = False):
        self.game = game
        if _copy:
            return
        n = game.players
        self.chips = [game.rules.chips] * n
        self.active = [True] * n
        self.bank = 0
        self.lead = 0
        self.rounds = 0
        self.order: list[int] = []
        self.step = 0
        self.rolling = False
        self.bets = [0] * n
        self.markers = [0] * n  # 0: no marker this round
        self.dice = [0] * n
        self.allowed: tuple[int, ...] = ()
        self.terminal = False
        self.unfinished = False
        self.winning: tuple[int, ...] = ()
        self.first_elimination: int | None = None
        self.eliminations: list[int] = []
        self.no_winner_rounds = 0
        self.largest_bank = 0
        self.bets_by_face = [0] * len(game.faces)
        self.refunds_by_face = [0] * len(game.faces)
        self.house_chips = 0
        self.round_wins = [0] * n
        self.snapshots: list[list[int]] = []  # chips per seat, then the bank, after each checkpoint round
        self._begin_round(first=True)

    # -- protocol ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.rolling:
            return CHANCE
        return self.order[self.step]

    def free_numbers(self) -> list[int]:
        """Allowed numbers no marker occupies yet this round, in increasing order."""
        taken = {self.markers[s] for s in self.order[:self.step]}
        return [x for x in self.allowed if x not in taken]

    def legal_moves(self) -> list[Move]:
        if self.terminal or self.rolling:
            return []
        free = self.free_numbers()
        return [Move(face, number) for face in self.game.faces for number in free]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The die of the next player to roll: (face, exact probability) from the dice routine."""
        if not self.rolling or self.terminal:
            return []
        return list(self.game.die_outcomes)

    def sample_chance(self, rng: random.Random) -> int:
        return self.game.die.sample(rng)

    def apply(self, move: Any) -> None:  # a `Move` or a die face: whatever a caller gives, checked here
        """Play a `Move` (decision node) or a die face (chance node).

        :raises IllegalMoveError: on an illegal move or at a terminal state.
        """
        if self.terminal:
            raise IllegalMoveError("the game is over")
        if self.rolling:
            self._roll(move)
        else:
            self._place(move)

    def clone(self) -> "SixBySixState":
        c = SixBySixState(self.game, _copy=True)
        for name in self.__slots__:
            if name == "game":
                continue
            value = getattr(self, name)
            setattr(c, name, value[:] if isinstance(value, list) else value)
        return c

    def winners(self) -> tuple[int, ...]:
        return self.winning if self.terminal and not self.unfinished else ()

    def is_unfinished(self) -> bool:
        return self.unfinished

    def length(self) -> int:
        return self.rounds

    def stats(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "first_elimination": self.first_elimination,
                "eliminations": list(self.eliminations), "no_winner_rounds": self.no_winner_rounds,
                "largest_bank": self.largest_bank, "bets_by_face": list(self.bets_by_face),
                "refunds_by_face": list(self.refunds_by_face), "house_chips": self.house_chips,
                "round_wins": list(self.round_wins), "lead": self.game.lead,
                "chips_over_time": self.chips_over_time()}

    def chips_over_time(self) -> dict[str, list[int]]:
        """Checkpoint round -> chips per seat then the bank; a game already over keeps its last holdings."""
        return chips_over_time(self.snapshots, self.chips, self.bank, self.game.rules.max_rounds)

    def active_count(self) -> int:
        return sum(self.active)

    def __repr__(self) -> str:
        return (f"SixBySixState(round={self.rounds + 1}, chips={self.chips}, bank={self.bank}, "
                f"active={self.active}, lead={self.lead})")

    # -- rules ------------------------------------------------------------------------------
    def _place(self, move: Any) -> None:  # checked here: anything that is not a (face, number) pair is refused
        seat = self.order[self.step]
        try:
            face, number = move
        except (TypeError, ValueError):
            raise IllegalMoveError(f"{move!r} is not a move (a bet face and a marker number)") from None
        if face not in self.game.faces:
            raise IllegalMoveError(f"{face} is not a face of the die {self.game.faces}")
        if number not in self.allowed:
            raise IllegalMoveError(f"number {number} is not open for markers this round")
        if any(self.markers[s] == number for s in self.order[:self.step]):
            raise IllegalMoveError(f"a marker already stands on {number}")
        self.chips[seat] -= 1
        self.bets[seat] = face
        self.markers[seat] = number
        self.step += 1
        if self.step == len(self.order):
            self.step = 0
            self.rolling = True

    def _roll(self, face: int) -> None:
        if self.game.die.weight(face) == 0:
            raise IllegalMoveError(f"{face} is not a face of the die {self.game.faces}")
        seat = self.order[self.step]
        self.dice[seat] = face
        index = self.game.faces.index(self.bets[seat])
        self.bets_by_face[index] += 1
        if face == self.bets[seat]:
            self.chips[seat] += 1
            self.refunds_by_face[index] += 1
        else:
            self.bank += 1
        self.step += 1
        if self.step == len(self.order):
            self._resolve()

    def _resolve(self) -> None:
        total = sum(self.dice[s] for s in self.order)
        self.largest_bank = max(self.largest_bank, self.bank)
        winner = next((s for s in self.order if self.markers[s] == total), None)
        if winner is not None:
            self.chips[winner] += self.bank
            self.bank = 0
            self.round_wins[winner] += 1
        else:
            self.no_winner_rounds += 1
            if self.game.rules.unclaimed_bank == "house":
                self.house_chips += self.bank
                self.bank = 0
        self.rounds += 1
        if self.rounds in CHECKPOINTS:
            self.snapshots.append(self.chips + [self.bank])
        self._begin_round()

    def _begin_round(self, first: bool = False) -> None:
        n = self.game.players
        out = [s for s in range(n) if self.active[s] and self.chips[s] == 0]
        for s in out:
            self.active[s] = False
            self.eliminations.append(self.rounds)
        if out and self.first_elimination is None:
            self.first_elimination = self.rounds
        left = [s for s in range(n) if self.active[s]]
        if len(left) <= 1:
            self.terminal = True
            self.winning = tuple(left) if left else tuple(out)
            return
        if self.rounds >= self.game.rules.max_rounds:
            self.terminal = self.unfinished = True
            return
        if self.game.lead == "fixed":
            start = 0
        else:
            start = self.lead if first else self.lead + 1
        self.lead = next((start + i) % n for i in range(n) if self.active[(start + i) % n])
        self.order = [(self.lead + i) % n for i in range(n) if self.active[(self.lead + i) % n]]
        self.allowed = self.game.allowed[len(self.order)]
        self.step = 0
        self.rolling = False
        self.markers = [0] * n
        self.dice = [0] * n


def chips_over_time(snapshots: list[list[int]], chips: list[int], bank: int, max_rounds: int) -> dict[str, list[int]]:
    """Checkpoint round -> chips per seat then the bank; a game over before a checkpoint keeps its last holdings."""
    out = {}
    for i, checkpoint in enumerate(c for c in CHECKPOINTS if c <= max_rounds):
        out[str(checkpoint)] = list(snapshots[i] if i < len(snapshots) else chips + [bank])
    return out


class MarkerAgent(Agent):
    """Puts its marker by a `Chooser` (greedy, favourite-N) and bets the best face for it.

    The refund chance is 1/len(faces) whatever the face, but a refund is wasted in a round the
    player wins; the best face (`faces.best_face`) is the one least compatible with the marker.
    The agent draws no random number.  It keeps to the state's legal moves, so on a restricted
    view (`restricted.RestrictedView`) it takes its first preferred number among the moves left
    and the best of the faces left for it; on a plain state that is its preferred free number and
    the best face.
    """

    def __init__(self, chooser: Chooser, game: SixBySixGame):
        self.chooser = chooser
        self.name = chooser.name
        self.game = game

    def choose(self, state: SixBySixState, rng: random.Random) -> Move:
        active = len(state.order)
        if type(state) is SixBySixState:  # the same move from the free numbers, no move list made (tested)
            free = set(state.free_numbers())
            number = next(x for x in self.game.preference(self.chooser, active) if x in free)
            return Move(best_face(self.game.faces, active, number), number)
        moves = state.legal_moves()
        numbers = {move.number for move in moves}
        number = next(x for x in self.game.preference(self.chooser, active) if x in numbers)
        faces = [move.face for move in moves if move.number == number]
        return Move(best_face(self.game.faces, active, number, among=faces), number)


def marker_choosers(agents: Iterable[Agent]) -> list[Chooser | None] | None:
    """Per agent, its marker chooser (None for the common random agent), or None when an agent
    is of another kind (the compiled kernel plays only these two kinds)."""
    choosers: list[Chooser | None] = []
    for agent in agents:
        if type(agent) is MarkerAgent:
            choosers.append(agent.chooser)
        elif type(agent) is RandomAgent:
            choosers.append(None)
        else:
            return None
    return choosers


def play_range(match: Match, start: int, stop: int) -> list[GameRecord]:
    """Games start..stop-1 of a match: by the compiled kernel when it plays every agent and its
    twister draws what Python's does (the same records as the engine's own loop), else move by
    move with `runner.play_one` (the one written copy of the rules)."""
    from boardlab.analysis.sixbysix import kernel
    choosers = kernel.choosers_of(match)
    if choosers is not None:
        return kernel.play_records(match, list(range(start, stop)), choosers)
    return [play_one(match, i) for i in range(start, stop)]


def _favourite_factory(number: int | None) -> Callable[[SixBySixGame], MarkerAgent]:
    def factory(game: SixBySixGame) -> MarkerAgent:
        favourite = game.definition.analysis.favourite_number if number is None else number
        numbers = game.definition.board.numbers
        if favourite not in numbers:
            raise BoardlabError(f"agent favourite-{favourite}: {favourite} is not a board number "
                                f"({min(numbers)}..{max(numbers)})")
        return MarkerAgent(Chooser("favourite", favourite), game)
    return factory


def make_game(definition: sixbysix_schema.Definition, players: int) -> SixBySixGame:
    """The engine entry point (the `engine` part of the game's registry entry)."""
    return SixBySixGame(definition, players)


def _search_factory(samples: int) -> Callable[[Game], SearchAgent]:
    from boardlab.analysis.sixbysix.search import search_agent  # it imports this module
    return search_agent(samples)


#: greedy; favourite (the definition's `analysis.favourite_number`); favourite-N for a board
#: number N (checked against the game's board when the agent is made); search-N, the dice search
#: with N samples of dice per candidate move (`search.py`).  `random` comes from the common agents.
AGENTS = AgentTable({"greedy": lambda game: MarkerAgent(GREEDY, game), "favourite": _favourite_factory(None)},
                    families={"favourite": _favourite_factory, "search": _search_factory},
                    numbers="a number on the board (favourite-N), a whole number of samples (search-N)")

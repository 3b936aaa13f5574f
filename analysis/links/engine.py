"""Links' rules engine, with hidden hands: every rule option is read from the definition.

The rules in full, in our words: layouts/rulebooks/links.en.md.

The rules in short: the central card starts the table; each of its free sides (`rules.lines`)
may start a line.  In turn, from seat 1, a player lays at most one card from hand at the end
of a line it links to (touching ends of equal colour and points, or a wild card: empty,
master under `master_links = "any"`, central) or on a free side (any card), then draws one
card if the deck has any.  The count of a line is the number of game cards laid since its
last restart point (central card, empty card, last capture); a game card making the count
`rules.capture_count`, or master N laid on a count of at least N - 1, captures every card laid
since the restart point.  The game ends when the deck is empty and nobody can play; the score
is cards captured minus cards left in hand.

State discipline: `apply` changes the state in place, `clone` copies it (the protocol's).
The one chance event is the shuffle (`sample_chance`): a tuple of kinds, the hands seat by
seat (`deck.hand_size` each) and then the draw pile in drawing order.

Hidden information: agents get `observation(seat)`, an `Observation` holding only what that
seat sees (its hand, the table, every captured pile, hand sizes, the deck's size, and the
public history: how many cards each seat has drawn, and every turn a seat could not play, with
the table it could not play on), never another hand or the deck order.  `determinise` deals
the unseen cards at random; with `tries` it keeps to deals consistent with that history
(`consistent`).

Points the rules leave open (a rule option in the definition's `[rules]` where the reading
changes play; otherwise fixed here):
- A player with no play (an empty hand, or every line taken and nothing links) only draws;
  such turns count as turns "without a play".  With `must_play = false` a player who can play
  may pass (and draws), except on the game's first play, which must start a line.
- A game card laid on a wild end (central side, empty card, wild master) may leave either of
  its ends open: the player chooses (two moves), as anyone laying a card by hand would.  A master under `master_links = "match"` is
  laid like a game card.
- Master N laid on a count below N - 1 (an "idle" master), rule option `idle_master`:
  `"stays"` (default) it stays in the line without capturing and without counting (it is not
  a game card), and the next capture of that line takes it with the run; `"barred"` a master
  may not be laid where it would not capture, so only a master of value 1 can start a line.
- The count restarts after an empty card; the cards before it stay on the table for good.
- With `capturing_card = "taken"` the line's open end after a capture is again the one of its
  restart point; a line emptied that way is a free side again.
- Every free side of the central card is alike: a new line takes the lowest free slot.
- Equal best scores share the win, as the rules say (a draw for the runner).  A game still running after
  `rules.max_turns` turns ends unfinished.
- The lead (for "lead changes") is the one seat with the most captured cards; a tie is no lead.

>>> import random
>>> from boardlab.layouts import load
>>> game = make_game(load("links"), 4)
>>> state = game.new_initial_state()
>>> state.apply(state.sample_chance(random.Random(1)))
>>> state.current_player(), len(state.observation(0).hand), state.observation(0).deck_size
(0, 4, 24)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from boardlab.analysis.links.cards import LinksDeck
from boardlab.analysis.links.table import PASS, Line, Move, can_play, lay, legal_plays
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, TurnState
from boardlab.layouts import links as links_schema

if TYPE_CHECKING:
    from boardlab.analysis.links.batch import Tables
    from boardlab.analysis.links.summary import LinksTally
    from boardlab.analysis.runner import GameRecord, Match

FIFTH = "fifth"


@dataclass(frozen=True)
class Observation:
    """What one seat sees: its hand, the table, captured piles, hand sizes and the deck's size.

    It offers `current_player()` and `legal_moves()` like a state, so an agent written for the
    protocol can choose from it; it holds no reference to the state it was taken from.
    """

    game: "LinksGame"
    seat: int
    mover: int
    hand: tuple[int, ...]
    lines: tuple[tuple, ...]  # Line.key() of every slot
    captured: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    turns: int
    plays: int
    moves: tuple[Move, ...]
    draws: tuple[int, ...] = ()  # cards each seat has drawn so far (after the deal)
    #: every turn a seat could not play: (seat, cards it had drawn by then, Line.key() of every slot)
    blocked: tuple[tuple[int, int, tuple], ...] = ()

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def current_player(self) -> int:
        return self.mover

    def legal_moves(self) -> tuple[Move, ...]:
        return self.moves

    def table_lines(self) -> list[Line]:
        return [Line(*key) for key in self.lines]

    def unseen(self) -> list[int]:
        """The kinds this seat cannot see (other hands and the deck), one entry per card, by kind."""
        left = list(self.game.copies)
        for kind in self.hand:
            left[kind] -= 1
        for cards, *_ in self.lines:
            for kind, _ in cards:
                left[kind] -= 1
        for pile in self.captured:
            for kind in pile:
                left[kind] -= 1
        return [kind for kind, c in enumerate(left) for _ in range(c)]

    def conditions(self) -> list[tuple[int, int, frozenset]]:
        """What the public history says of the other hands, one condition per turn a seat other
        than this one could not play: (seat, least cards, kinds).  At least `least` of the
        cards that seat holds now are of `kinds`: every card it held then was of a kind with no
        play on that table, and of the cards it holds now all but those drawn since were held
        then.  (Each is a necessary condition of its own; `consistent` checks them all.)"""
        out = []
        for seat, drawn, lines in self.blocked:
            if seat == self.seat:
                continue
            least = self.hand_sizes[seat] - (self.draws[seat] - drawn)
            if least > 0:
                out.append((seat, least, self.game.unplayable_kinds(lines)))
        return out


def consistent(conditions: Sequence[tuple[int, int, Any]], hands: Sequence[Sequence[int]]) -> int:
    """How many of `conditions` (`Observation.conditions`) the hands (kinds per seat) break: 0
    for a deal consistent with the public history."""
    return sum(1 for seat, least, kinds in conditions if sum(1 for k in hands[seat] if k in kinds) < least)


class LinksGame(Game[links_schema.Definition]):
    """Links for a definition and a player count."""

    length_unit = "turns"
    rotates_deal = True
    reads_positions = True  # a position is what the player to move sees (docs/positions/links.md)
    chance_listed = False  # the deal is a shuffle of the whole deck: sampled, never listed
    hidden_information = True  # the other hands are hidden (`LinksState.observation`)
    _kernel_tables: Tables  # the compiled path's tables, made when first needed (`batch.tables_of`)

    def __init__(self, definition: links_schema.Definition, players: int) -> None:
        super().__init__(definition, players)
        self.deck = LinksDeck(definition)
        self.rules = definition.rules
        self.copies = self.deck.copies(players)
        self.cards = tuple(kind for kind, c in enumerate(self.copies) for _ in range(c))

    def new_initial_state(self) -> "LinksState":
        return LinksState(self)

    def rotate_deal(self, outcome: tuple[int, ...], rotation: int) -> tuple[int, ...]:
        """The same shuffle with the hands turned: seat s gets the hand seat s + rotation had.

        >>> from boardlab.layouts import load
        >>> game = make_game(load("links"), 2)
        >>> deal = game.new_initial_state().sample_chance(random.Random(2))
        >>> turned = game.rotate_deal(deal, 1)
        >>> turned[:4] == deal[4:8] and turned[4:8] == deal[:4] and turned[8:] == deal[8:]
        True
        """
        h, n = self.deck.hand_size, self.players
        hands = [outcome[s * h:(s + 1) * h] for s in range(n)]
        turned = [card for s in range(n) for card in hands[(s + rotation) % n]]
        return tuple(turned) + tuple(outcome[n * h:])

    def unplayable_kinds(self, lines: tuple) -> frozenset:
        """The kinds that have no play on a table of these `Line.key()`s (a later play, not the first)."""
        key = tuple(lines)
        cache = self.__dict__.setdefault("_unplayable", {})
        if key not in cache:
            table = [Line(*k) for k in key]
            cache[key] = frozenset(k for k in range(len(self.copies))
                                   if not legal_plays(self.deck, self.rules, table, [k], False))
        return cache[key]

    def determinise(self, observation: Observation, rng: random.Random, tries: int = 0) -> "LinksState":
        """A full state consistent with `observation`: the unseen cards dealt at random to the
        other hands (of their known sizes) and the deck.  With `tries` > 0 the deal is also
        consistent with the public history (`Observation.conditions`): up to `tries` shuffles
        are drawn and the first that breaks no condition is kept (when none does, the one
        breaking fewest, the earliest of those).

        :raises ValueError: when the observation's counts do not add up.
        """
        unseen = observation.unseen()
        others = sum(size for s, size in enumerate(observation.hand_sizes) if s != observation.seat)
        if len(unseen) != others + observation.deck_size:
            raise ValueError(f"{len(unseen)} unseen cards for {others} in other hands and "
                             f"{observation.deck_size} in the deck")
        conditions = observation.conditions() if tries > 0 else []
        best = None
        for _ in range(max(1, tries)):
            rng.shuffle(unseen)
            hands, at = [], 0
            for seat, size in enumerate(observation.hand_sizes):
                if seat == observation.seat:
                    hands.append(list(observation.hand))
                else:
                    hands.append(sorted(unseen[at:at + size]))
                    at += size
            broken = consistent(conditions, hands) if conditions else 0
            if best is None or broken < best[0]:
                best = (broken, hands, unseen[at:])
            if broken == 0:
                break
        assert best is not None  # the loop runs at least once
        return self.dealt(observation, best[1], best[2])

    def dealt(self, observation: Observation, hands: list[list[int]], deck: list[int]) -> "LinksState":
        """The state of `observation` with these hands (every seat's, the observer's its own) and
        this draw pile (next card last): `determinise`'s state once it has chosen the deal."""
        state = LinksState(self)
        state.hands, state.deck = hands, deck
        state.draws, state.blocked = list(observation.draws or [0] * self.players), list(observation.blocked)
        state.lines = observation.table_lines()
        state.captured = [list(p) for p in observation.captured]
        state.turns, state.plays = observation.turns, observation.plays
        state.mover = observation.mover
        state._moves = list(observation.moves) if observation.mover >= 0 else None
        return state

    def state_from_position(self, data: dict) -> "LinksState":
        """A state of a position: the unseen cards dealt to the other hands and the deck by a
        fixed shuffle (a position never says where they are; the moves do not depend on it).

        :raises BoardlabError: when the position is malformed, impossible, or for another player count.
        """
        from boardlab.analysis.links.position import state_from_position
        from boardlab.layouts.errors import BoardlabError

        state = state_from_position(self.definition, data, random.Random(0))
        if state.players != self.players:
            raise BoardlabError(f"the position is for {state.players} players, this game has {self.players}")
        return state

    def skill_ladder(self, max_budget: int) -> list[str]:
        """The default ladder (random, greedy, MCTS doubling up to `max_budget`) topped by the
        history-consistent search at the largest budget (`agents.HistoryMCTS`, `ismcts-N`): its
        step over the plain search at the same budget is what the public history is worth."""
        ladder = super().skill_ladder(max_budget)
        top = [name for name in ladder if name.startswith("mcts-")]
        return ladder + ([f"ismcts-{top[-1].rpartition('-')[2]}"] if top else [])

    def restrictions(self) -> tuple:
        """The optional elements (`restrictions.py`)."""
        from boardlab.analysis.links.restrictions import RESTRICTIONS
        return RESTRICTIONS

    def is_pass(self, move: Move) -> bool:
        """A pass is a move of its own (`Move.is_pass`): reports count the turns whose only move it is."""
        return move.is_pass

    def summarize(self, records: list) -> dict:
        """Links' own figures from a list of records (`summary.summarize`), the twin of `tally`."""
        from boardlab.analysis.links.summary import summarize
        return summarize(self, records)

    def tally(self, match: Match) -> LinksTally:
        """The figures of `summarize`, streamed (`summary.LinksTally`)."""
        from boardlab.analysis.links.summary import LinksTally
        return LinksTally(self)

    def describe_summary(self, figures: dict) -> str:
        from boardlab.analysis.links.summary import describe
        return describe(figures)

    def play_block(self, match: Match, start: int, stop: int) -> list[GameRecord] | None:
        """Games start..stop-1 by the compiled random self-play path, or None for other agents."""
        from boardlab.analysis.links.batch import play_block
        return play_block(self, match, start, stop)

    def block_size(self, match: Match) -> int | None:
        """The runner's block size when the compiled path plays this match (None: the default)."""
        from boardlab.analysis.links.batch import block_size
        return block_size(self, match)


class LinksState(TurnState):
    """One Links position (see the module docstring)."""

    def __init__(self, game: LinksGame):
        n = game.players
        self.game = game
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: list[int] = []  # the draw pile, next card last
        self.lines = [Line() for _ in range(game.rules.lines)]
        self.captured: list[list[int]] = [[] for _ in range(n)]
        self.mover = CHANCE
        self.turns = 0  # the length: turns taken (with or without a play)
        self.plays = 0  # cards laid so far
        self.unfinished = False
        self.won: tuple[int, ...] = ()
        self._moves: list[Move] | None = None
        self.counters = {"blocked_turns": 0, "passes": 0, "lead_changes": 0, "leader": -1}
        self.captures: dict[str, list[int]] = {}  # what captured -> [captures, cards]
        self.draws = [0] * n  # cards each seat has drawn (the public history, `Observation`)
        self.blocked: list[tuple[int, int, tuple]] = []  # (seat, its draws by then, the table) per turn it could not play

    # -- protocol -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    def clone(self) -> "LinksState":
        other = object.__new__(LinksState)
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        other.deck = self.deck[:]
        other.lines = [line.copy() for line in self.lines]
        other.captured = [p[:] for p in self.captured]
        other.counters = dict(self.counters)
        other.captures = {k: v[:] for k, v in self.captures.items()}
        other.draws = self.draws[:]
        other.blocked = self.blocked[:]
        return other

    def sample_chance(self, rng: random.Random) -> tuple[int, ...]:
        """A shuffle of the deck: hands seat by seat, then the draw pile in drawing order."""
        return shuffled(self.game, rng)

    def apply(self, move: Any) -> None:
        """Deal (at the chance node) or play `move` and draw, in place.

        :raises IllegalMoveError: when the move is not legal here.
        """
        if self.mover == CHANCE:
            self.apply_outcome(self._deal, move)
            return
        self.check_move(move)
        seat = self.mover
        if move.is_pass:
            self.counters["passes"] += 1
        else:
            self.hands[seat].remove(move.kind)
            taken, by = lay(self.game.deck, self.game.rules, self.lines[move.line], move.kind, move.exposes)
            self.plays += 1
            if by is not None:
                self.captured[seat].extend(taken)
                tally = self.captures.setdefault(by, [0, 0])
                tally[0] += 1
                tally[1] += len(taken)
        self._end_turn(seat)

    def scores(self) -> list[int]:
        """Cards captured minus cards in hand, per seat."""
        return [len(p) - len(h) for p, h in zip(self.captured, self.hands)]

    def stats(self) -> dict:
        return {"scores": self.scores(), "captures": {k: list(v) for k, v in sorted(self.captures.items())},
                "blocked_turns": self.counters["blocked_turns"], "passes": self.counters["passes"],
                "lead_changes": self.counters["lead_changes"], "left_in_hands": sum(map(len, self.hands)),
                "rounds": -(-self.turns // self.game.players)}

    def to_position(self) -> dict:
        """What the player to move sees, in the JSON form of positions (docs/positions/links.md)."""
        from boardlab.analysis.links.position import position_of
        return position_of(self)

    # -- hidden information ---------------------------------------------------------------
    def observation(self, seat: int | None = None) -> Observation:
        """What `seat` (default: the player to move) sees."""
        seat = self.mover if seat is None else seat
        moves = tuple(self.legal_moves()) if seat == self.mover else ()
        return Observation(self.game, seat, self.mover, tuple(sorted(self.hands[seat])),
                           tuple(line.key() for line in self.lines), tuple(tuple(p) for p in self.captured),
                           tuple(len(h) for h in self.hands), len(self.deck), self.turns, self.plays, moves,
                           tuple(self.draws), tuple(self.blocked))

    def cards_in_play(self) -> list[int]:
        """Every card of the game wherever it is (hands, deck, table, captured), for invariant checks."""
        out = [k for h in self.hands for k in h] + list(self.deck)
        out += [k for line in self.lines for k, _ in line.cards] + [k for p in self.captured for k in p]
        return out

    # -- turn order -----------------------------------------------------------------------
    def moves_of(self, seat: int) -> list[Move]:
        """The moves `seat` would have if it were to move now (`table.legal_plays`)."""
        game = self.game
        return legal_plays(game.deck, game.rules, self.lines, self.hands[seat], self.plays == 0)

    def _deal(self, outcome: Sequence[int]) -> None:
        if sorted(outcome) != list(self.game.cards):
            raise ValueError("a deal must hold every card of the deck exactly once")
        h, n = self.game.deck.hand_size, self.game.players
        self.hands = [sorted(outcome[s * h:(s + 1) * h]) for s in range(n)]
        self.deck = list(reversed(outcome[n * h:]))
        self._next_player(-1)

    def _end_turn(self, seat: int) -> None:
        if self.deck:
            self.hands[seat].append(self.deck.pop())
            self.draws[seat] += 1
        self.turns += 1
        self._track_lead()
        self._next_player(seat)

    def _track_lead(self) -> None:
        sizes = [len(p) for p in self.captured]
        best = max(sizes)
        leader = sizes.index(best) if best and sizes.count(best) == 1 else -1
        if leader >= 0 and leader != self.counters["leader"]:
            if self.counters["leader"] >= 0:
                self.counters["lead_changes"] += 1
            self.counters["leader"] = leader

    def _next_player(self, seat: int) -> None:
        """Hand the turn to the next seat with a play; seats without one only draw."""
        game = self.game
        n = game.players
        self._moves = None
        while True:
            if not self.deck and not any(can_play(game.deck, game.rules, self.lines, h) for h in self.hands):
                self._finish()
                return
            if self.turns >= game.rules.max_turns:
                self.unfinished = True
                self._finish()
                return
            seat = (seat + 1) % n
            moves = self.moves_of(seat)
            if moves:
                self.mover, self._moves = seat, moves
                return
            self.counters["blocked_turns"] += 1
            self.blocked.append((seat, self.draws[seat], tuple(line.key() for line in self.lines)))
            if self.deck:
                self.hands[seat].append(self.deck.pop())
                self.draws[seat] += 1
            self.turns += 1
            self._track_lead()

    def _finish(self) -> None:
        self.mover = TERMINAL
        self._moves = None
        if self.unfinished:
            self.won = ()
            return
        scores = self.scores()
        best = max(scores)
        self.won = tuple(s for s, v in enumerate(scores) if v == best)


def shuffled(game: LinksGame, rng: random.Random) -> tuple[int, ...]:
    """The one shuffle of a game (`LinksState.sample_chance`, and the compiled path's deals)."""
    cards = list(game.cards)
    rng.shuffle(cards)
    return tuple(cards)


def make_game(definition: links_schema.Definition, players: int) -> LinksGame:
    """The engine's entry point (see analysis/engines.py)."""
    return LinksGame(definition, players)


from boardlab.analysis.links.agents import AGENTS  # noqa: E402,F401  (Links' agents, seen through observations)

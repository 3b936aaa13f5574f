"""Blockd's rules engine (rules: layouts/rulebooks/blockd.en.md), every rule option read from the definition.

(Why one module of about 700 lines: the state's rules, its move queries and the protocol's
optional capabilities it offers - integer move codes, random moves by index, compiled
playouts - are methods of the one `BlockdState` class; the move text/JSON forms and the deal
sit beside it because every caller of the engine needs them.)

State discipline: `BlockdState.apply` changes the state in place and `clone` gives an
independent copy (the protocol's discipline).  The deal (`Deal`) is immutable and shared
between clones; everything that changes is small: an int mask of face-down cards, a list of
pawn cells, per-seat flags and counters.

Fast path: per (cell, step counts) the game keeps a table of self-avoiding walks, each as
(mask of cells entered, destination) (see `boardlab.analysis.blockd.walks`).  One pass over
the table with the blocked mask gives every destination, and with the restore bonus also
every destination that needs exactly one face-down card turned up (a walk whose entered
cells hit exactly one blocked cell, and that cell may be restored).
`tests/blockd_reference.py` is the slow, obvious twin (a plain recursive path search).

Points the spec leaves open, fixed here:
- Seat s plays the suit `cards.suits[s]`; its pawn starts on that suit's start card.
- `pawns = "stack"` with `stacked_flip = "last"`: a card is turned face down when the last
  pawn on it leaves (or is eliminated), so a face-down card never holds a pawn.  With
  `stacked_flip = "always"` it turns face down when any pawn leaves (or is eliminated); a pawn
  still on it stands on a face-down card and moves off it by the card's value (the walk's own
  start cell is never entered, so it is not blocked for that pawn).
- A turn cap: the rules are resolved first (eliminations, the end of the game); a game that
  is still going once `max_turns` turns were played ends unfinished.
- `elimination = "end_of_round"`: a round is one pass over the seats in seat order; a player
  found without a move is marked, makes no move and leaves with the others marked at the end
  of the round.  If everyone leaves, the most recent mover wins; if nobody ever moved there
  is no winner.
- Rounds are numbered from 1; the round changes when play passes from the last seat in the
  game back to the first.

>>> import random
>>> from boardlab.layouts import load
>>> game = make_game(load("blockd"), 2)
>>> state = game.new_initial_state()
>>> state.apply(state.sample_chance(random.Random(3)))
>>> state.current_player(), len(state.legal_moves()), state.mobility(0)  # 24 cells less the blind card and the other pawn
(0, 22, 22)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from boardlab.analysis.blockd.walks import Grid, walk_table
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, TurnState
from boardlab.layouts import blockd as blockd_schema
from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    import numpy as np

    from boardlab.analysis.blockd.tally import BlockdTally
    from boardlab.analysis.runner import GameRecord, Match
    from boardlab.analysis.tally import SummaryTally

#: agent name -> factory(game); filled by the agents module of the search work (part B)
from boardlab.analysis.blockd.agents import AGENTS  # noqa: E402,F401  (the agents module fills it)


def cells_of(mask: int) -> list[int]:
    """The cells of a mask, ascending.

    >>> cells_of(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_cell(mask: int, n: int) -> int:
    """The n-th (0-based) cell of a mask, ascending.

    >>> nth_cell(0b10110, 2)
    4
    """
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def destinations(walks: Sequence[tuple[int, int]], blocked: int, others: int, pawns: str) -> int:
    """Mask of the destinations of a walk table, given blocked cards, other pawns and the pawns rule.

    `pawns` is the definition's `rules.pawns`: "pass" (paths cross pawns, never end on one),
    "block" (pawns cannot be entered) or "stack" (pawns may share a cell).

    >>> walks = walk_table(Grid(1, 4, torus=False), 0, (1, 2))
    >>> bin(destinations(walks, 0, 0b0010, "pass")), bin(destinations(walks, 0, 0b0010, "block"))
    ('0b100', '0b0')
    """
    if pawns == "block":
        blocked |= others
    reach = 0
    for mask, destination in walks:
        if not mask & blocked:
            reach |= 1 << destination
    return reach & ~others if pawns == "pass" else reach


def has_destination(walks: Sequence[tuple[int, int]], blocked: int, others: int, pawns: str) -> bool:
    """Whether `destinations(...)` is not empty (stops at the first open walk)."""
    if pawns == "block":
        blocked |= others
    for mask, destination in walks:
        if not mask & blocked and (pawns != "pass" or not others >> destination & 1):
            return True
    return False


class Move(NamedTuple):
    """A move: the destination cell and the restored cell (-1 when no card is restored).

    >>> m = Move(13, restore=1)
    >>> m.text(5), m.to_json(5)
    ('restore 0,1 to 2,3', {'restore': [0, 1], 'to': [2, 3]})
    >>> Move.from_text('restore 0,1 to 2,3', 5) == m == Move.from_json({'restore': [0, 1], 'to': [2, 3]}, 5)
    True
    >>> Move(7).text(5)
    'to 1,2'
    """

    to: int
    restore: int = -1

    def sort_key(self) -> tuple[int, int]:
        """The order of `boardlab moves`: by restored cell (none first), then destination."""
        return self.restore, self.to

    def text(self, columns: int) -> str:
        to = "to {},{}".format(*divmod(self.to, columns))
        return to if self.restore < 0 else "restore {},{} ".format(*divmod(self.restore, columns)) + to

    def to_json(self, columns: int) -> dict:
        out = {} if self.restore < 0 else {"restore": list(divmod(self.restore, columns))}
        out["to"] = list(divmod(self.to, columns))
        return out

    @classmethod
    def from_text(cls, text: str, columns: int) -> "Move":
        """Parse the `text` form.

        :raises ValueError: when the text is not a move.
        """
        words = text.split()
        try:
            if len(words) == 2 and words[0] == "to":
                return cls(_parse_cell(words[1], columns))
            if len(words) == 4 and words[0] == "restore" and words[2] == "to":
                return cls(_parse_cell(words[3], columns), _parse_cell(words[1], columns))
        except ValueError:
            pass
        raise ValueError(f"not a Blockd move: '{text}' (write 'to R,C' or 'restore R,C to R,C')")

    @classmethod
    def from_json(cls, data: dict, columns: int) -> "Move":
        """Parse the JSON form.

        :raises ValueError: when the data is not a move.
        """
        if not isinstance(data, dict) or "to" not in data or set(data) - {"to", "restore"}:
            raise ValueError(f"not a Blockd move: {data!r}")
        to = _cell_from_pair(data["to"], columns)
        return cls(to, _cell_from_pair(data["restore"], columns) if "restore" in data else -1)


def _parse_cell(word: str, columns: int) -> int:
    row, column = (int(part) for part in word.split(","))
    if not 0 <= column < columns or row < 0:
        raise ValueError(word)
    return row * columns + column


def _cell_from_pair(pair: Any, columns: int) -> int:
    if (not isinstance(pair, list) or len(pair) != 2 or not all(type(v) is int for v in pair)
            or not 0 <= pair[1] < columns or pair[0] < 0):
        raise ValueError(f"not a cell: {pair!r}")
    return pair[0] * columns + pair[1]


class DeckCard(NamedTuple):
    """One card: suit index into `cards.suits` and value; the blind card has suit and value -1."""

    suit: int
    value: int

    @property
    def is_blind(self) -> bool:
        return self.suit < 0


class Deal:
    """A deal: the card on every cell and the lookups derived from it (immutable, shared)."""

    __slots__ = ("card_ids", "suit", "value", "walks", "blind", "suit_cells", "start", "compiled")

    def __init__(self, game: "BlockdGame", card_ids: Sequence[int]):
        self.card_ids = tuple(card_ids)
        cards = [game.cards[i] for i in self.card_ids]
        self.suit = tuple(card.suit for card in cards)
        self.value = tuple(card.value for card in cards)
        self.blind = sum(1 << cell for cell, card in enumerate(cards) if card.is_blind)
        self.walks = tuple(() if card.is_blind else walk_table(game.grid, cell, game.step_counts(card))
                           for cell, card in enumerate(cards))
        self.suit_cells = tuple(sum(1 << cell for cell, s in enumerate(self.suit) if s == suit)
                                for suit in range(len(game.suits)))
        self.start = tuple(self.card_ids.index(game.start_card(suit)) for suit in range(len(game.suits)))
        self.compiled: tuple[np.ndarray, np.ndarray] | None = None  # the compiled kernel's arrays of this deal, made when first needed


_MASK64 = (1 << 64) - 1
_GOLDEN64 = 0x9E3779B97F4A7C15


def splitmix64(value: int) -> int:
    """The splitmix64 finaliser of a 64-bit value (a fixed, well-mixed hash).

    >>> splitmix64(0) != splitmix64(1)
    True
    """
    z = value & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def random_deal(game: "BlockdGame", rng: random.Random) -> tuple[int, ...]:
    """A uniformly random deal: the card id on every cell.

    One 64-bit draw of `rng` is the deal's key; cell i gets a sort key
    `splitmix64(key + (i + 1) * golden)` and the cards are laid in the (stable) order of those
    keys.  The batched self-play path computes the same deals for thousands of games at once
    with numpy from the same keys (`batch.deal_cards`), which a shuffle could not.

    >>> game = make_game(_definition(), 4)
    >>> sorted(random_deal(game, random.Random(1))) == list(range(game.grid.cells))
    True
    """
    key = rng.getrandbits(64)
    sort_keys = [splitmix64(key + (i + 1) * _GOLDEN64) for i in range(len(game.cards))]
    return tuple(sorted(range(len(game.cards)), key=sort_keys.__getitem__))


class BlockdGame(Game[blockd_schema.Definition]):
    """Blockd for a definition and a player count; seat s plays suit `cards.suits[s]`."""

    length_unit = "turns"
    rotates_deal = True
    reads_positions = True
    chance_listed = False  # a deal is one of 24! arrangements: sampled, never listed

    def __init__(self, definition: blockd_schema.Definition, players: int) -> None:
        super().__init__(definition, players)
        cards, rules = definition.cards, definition.rules
        self.grid = Grid.from_definition(definition)
        self.suits = tuple(cards.suits)
        self.rules = rules
        #: a card turns face down when any pawn leaves it, even with another pawn still on it
        self.flip_at_once = rules.pawns != "stack" or rules.stacked_flip == "always"
        low, high = rules.start_steps
        self.start_steps = tuple(range(low, high + 1))
        deck = []
        for suit, name in enumerate(self.suits):
            deck.append(DeckCard(suit, cards.start_value))
            deck.extend(DeckCard(suit, value) for value in cards.numbers(name))
        deck.extend(DeckCard(-1, -1) for _ in range(cards.blind))
        self.cards = tuple(deck)
        #: a deal turns round the table when the played suits hold the same cards (a card list
        #: may give them different ones; the runner then rotates the agents instead)
        self.rotates_deal = len({tuple(sorted(cards.numbers(s))) for s in self.suits[:players]}) == 1
        self.letters = tuple(definition.colours[s].letter for s in self.suits)
        self.blind_letter = definition.colours[definition.print.back_colour].letter
        if len(self.cards) != self.grid.cells:
            raise BoardlabError(f"{len(self.cards)} cards for {self.grid.cells} cells")

    def rotate_deal(self, card_ids: tuple[int, ...], rotation: int) -> tuple[int, ...]:
        """The same deal with the players' suits relabelled: seat s starts where seat s + rotation did.

        Played once per rotation, every seat meets every starting place of one deal, so deal luck
        cancels out of seat results (the runner does this when one agent sits in every seat).
        Suits of absent players keep their cards.

        >>> game = make_game(_definition(), 2)
        >>> card_ids = random_deal(game, random.Random(3))
        >>> turned = game.rotate_deal(card_ids, 1)
        >>> turned.index(game.start_card(0)) == card_ids.index(game.start_card(1))
        True
        """
        n = self.players
        ids: dict[DeckCard, list[int]] = {}  # every copy of a card, in deck order
        for i, card in enumerate(self.cards):
            ids.setdefault(card, []).append(i)
        relabel = [ids[DeckCard((c.suit - rotation) % n, c.value)][ids[c].index(i)] if 0 <= c.suit < n else i
                   for i, c in enumerate(self.cards)]
        return tuple(relabel[c] for c in card_ids)

    def start_card(self, suit: int) -> int:
        """The card id of a suit's start card."""
        return self.cards.index(DeckCard(suit, self.definition.cards.start_value))

    def step_counts(self, card: DeckCard) -> tuple[int, ...]:
        """The step counts a pawn on this card may choose: its value, or the start range."""
        if card.value == self.definition.cards.start_value:
            return self.start_steps
        return (card.value,)

    def token(self, card_id: int) -> str:
        """The text of a card in positions: suit letter and value, or the blind letter."""
        card = self.cards[card_id]
        return self.blind_letter if card.is_blind else f"{self.letters[card.suit]}{card.value}"

    def deal_of(self, card_ids: Sequence[int]) -> Deal:
        """The `Deal` of card ids (the card id on every cell).

        :raises ValueError: when `card_ids` is not an arrangement of the whole deck.
        """
        if sorted(card_ids) != list(range(len(self.cards))):
            raise ValueError("a deal must place every card exactly once")
        return Deal(self, card_ids)

    def new_initial_state(self) -> "BlockdState":
        """The chance node before the deal."""
        return BlockdState(self)

    def state_from_position(self, data: Any) -> "BlockdState":
        """The state of a position in the JSON form of docs/positions/blockd.md.

        The state is a snapshot: its mover is `to_move`, even when that player has no move.

        :raises BoardlabError: when the position is malformed (one line saying what is wrong).
        """
        from boardlab.analysis.blockd.position import parse_position
        return parse_position(self, data)

    def play_block(self, match: Match, start: int, stop: int) -> list[GameRecord] | None:
        """Games start..stop-1 of a match by the batched random self-play path
        (`boardlab.analysis.blockd.batch`), or None when its agents are not all random."""
        from boardlab.analysis.blockd.batch import play_block
        return play_block(self, match, start, stop)

    def block_size(self, match: Match) -> int | None:
        """The runner's block size when the batched path plays this match (None: the default)."""
        from boardlab.analysis.blockd.batch import block_size
        return block_size(self, match)

    def restrictions(self) -> tuple:
        """The optional elements (`restrictions.py`); the restore bonus only where the rules have it."""
        from boardlab.analysis.blockd.restrictions import RESTRICTIONS
        return tuple(r for r in RESTRICTIONS if r.name != "restore" or self.rules.restore_bonus)

    def summarize(self, records: list) -> dict:
        """Eliminations by round, restore bonuses earned and used, tie-break and unfinished games
        (filed under "blockd" in the summary), counted one record at a time."""
        tally = self.tally(None)
        tally.add(records)
        return tally.result()

    def tally(self, match: Match | None) -> "BlockdTally":
        """The counts of `summarize`, streamed (`blockd.tally.BlockdTally`)."""
        from boardlab.analysis.blockd.tally import BlockdTally
        return BlockdTally()

    def tally_block(self, match: Match, start: int, stop: int) -> SummaryTally | None:
        """The summary tally of games start..stop-1 straight from the compiled games' arrays
        (`batch.tally_block`, no record built), or None when the batched path does not play them."""
        from boardlab.analysis.blockd.batch import tally_block
        return tally_block(self, match, start, stop)

    def report_extras(self, seed: int) -> tuple[list, dict]:
        """The report's charts of this game (`extras.report_extras`)."""
        from boardlab.analysis.blockd.extras import report_extras
        return report_extras(self.definition, self.players, seed)

    def describe_summary(self, figures: dict) -> str:
        """The Blockd lines of `boardlab simulate`'s plain-text output, in the language being
        written (`layouts.terms.speaking`; the `summary.blockd.*` terms)."""
        from boardlab.analysis.report.wording import number, pct, series
        from boardlab.layouts.terms import term

        b = figures
        total = sum(b["eliminations_by_round"].values())
        rounds = series(term("summary.blockd.round", round=r, share=pct(k / total))
                         for r, k in b["eliminations_by_round"].items()) if total else ""
        lines = [term("summary.blockd.eliminations", total=number(total, "d"), rounds=rounds) if total else
                 term("summary.blockd.no_eliminations"),
                 term("summary.blockd.restores", earned=number(b["restores_earned_per_game"], ".2f"),
                      used=number(b["restores_used_per_game"], ".2f")),
                 term("summary.blockd.tiebreak", games=number(b["decided_by_tiebreak"], "d"),
                      share=pct(b["tiebreak_share"]))]
        if b["unfinished"]:
            lines.append(term("summary.blockd.unfinished", games=number(b["unfinished"], "d"),
                              cap=number(self.rules.max_turns, "d")))
        return "\n".join(lines)


class BlockdState(TurnState):
    """One Blockd position (see the module docstring for the discipline and open points)."""

    def __init__(self, game: BlockdGame):
        n = game.players
        self.game = game
        self.deal: Deal | None = None
        self.down = 0  # face-down cards (the blind cards are apart, in deal.blind)
        self.pawns = [-1] * n  # cell per seat, -1 once the pawn has left the board
        self.marked = [False] * n  # end_of_round: found without a move, leaves at the round's end
        self.restore = [False] * n  # earned the restore bonus for the seat's next turn
        self.mover = CHANCE
        self.turns = 0  # the length: turns played (moves made)
        self.round = 1
        self.last_mover = -1
        self.won: tuple[int, ...] = ()
        self.unfinished = False
        self.eliminations: list[tuple[int, int]] = []  # (round, seat)
        self.restores_earned = 0
        self.restores_used = 0
        self.tiebreak = False
        self._moves: list[Move] | None = None

    # -- protocol -------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.game.players

    def clone(self) -> "BlockdState":
        other = object.__new__(BlockdState)
        other.__dict__.update(self.__dict__)
        other.pawns = self.pawns[:]
        other.marked = self.marked[:]
        other.restore = self.restore[:]
        other.eliminations = self.eliminations[:]
        return other

    def sample_chance(self, rng: random.Random) -> tuple[int, ...]:
        return random_deal(self.game, rng)

    def apply(self, move: Any) -> None:
        """Deal (at the chance node) or play `move` in place.

        :raises IllegalMoveError: when the move is not legal here.
        """
        if self.mover == CHANCE:
            self.apply_outcome(self._deal, move)
            return
        self.check_move(move)
        self._play(move.to, move.restore)

    def _play(self, to: int, restore: int) -> None:
        """The mover goes to `to` after restoring card `restore` (-1: none); the move is legal."""
        seat, rules = self.mover, self.game.rules
        left = self.pawns[seat]
        if restore >= 0:
            self.down &= ~(1 << restore)
            self.restores_used += 1
        self.pawns[seat] = to
        if self.game.flip_at_once or left not in self.pawns:
            self.down |= 1 << left
        deal = self.deal
        assert deal is not None  # dealt by the first chance outcome
        earned = rules.restore_bonus and deal.suit[to] == seat
        self.restore[seat] = earned
        self.restores_earned += earned
        self.turns += 1
        self.last_mover = seat
        self._advance(seat)

    def stats(self) -> dict:
        return {"eliminations": [list(e) for e in self.eliminations], "restores_earned": self.restores_earned,
                "restores_used": self.restores_used, "tiebreak": self.tiebreak, "rounds": self.round}

    # -- queries --------------------------------------------------------------------------
    @property
    def blocked(self) -> int:
        """Cells no path may enter: face-down cards and blind cards."""
        deal = self.deal
        assert deal is not None  # dealt by the first chance outcome
        return self.down | deal.blind

    def pawn_mask(self, without: int = -1) -> int:
        """Cells holding a pawn, except the pawn of seat `without`."""
        mask = 0
        for seat, cell in enumerate(self.pawns):
            if cell >= 0 and seat != without:
                mask |= 1 << cell
        return mask

    def destinations_from(self, cell: int, others: int) -> int:
        """Mask of the cells a pawn on `cell` could end on now (no restore), given the pawns `others`.

        >>> state = _dealt_state()
        >>> bin(state.destinations_from(state.pawns[0], state.pawn_mask(0))).count("1")  # 24 less blind and 3 pawns
        20
        """
        deal = self.deal
        assert deal is not None  # dealt by the first chance outcome
        return destinations(deal.walks[cell], self.blocked, others, self.game.rules.pawns)

    def mobility(self, seat: int) -> int:
        """How many distinct cells `seat`'s pawn could end on if it moved now (no restore); 0 off the board."""
        cell = self.pawns[seat]
        if cell < 0:
            return 0
        return self.destinations_from(cell, self.pawn_mask(seat)).bit_count()

    def _move_masks(self, seat: int) -> tuple[int, int, dict[int, int]]:
        """(plain, restorable, via) of `seat`'s moves: `plain` the destinations without a
        restore, `via[r]` those after restoring card r (a mask per restorable card, `plain`
        included), both after the landing rule.

        One pass over the walk table: a walk that hits no blocked cell is a plain move (and a
        move after any restore); a walk that hits exactly one blocked cell that may be
        restored is a move after restoring that cell.
        """
        pawns = self.game.rules.pawns
        others = self.pawn_mask(seat)
        blocked = self.blocked | (others if pawns == "block" else 0)
        restorable = self.down if self.restore[seat] and self.game.rules.restore_bonus else 0
        landing = ~others if pawns != "stack" else -1
        reach = 0
        via: dict[int, int] = {}
        deal = self.deal
        assert deal is not None  # dealt by the first chance outcome
        for mask, destination in deal.walks[self.pawns[seat]]:
            hit = mask & blocked
            if not hit:
                reach |= 1 << destination
            elif restorable and not hit & (hit - 1) and hit & restorable:
                via[hit] = via.get(hit, 0) | 1 << destination
        reach &= landing
        return reach, restorable, {r: (reach | via.get(1 << r, 0)) & landing for r in cells_of(restorable)}

    def moves_of(self, seat: int) -> list[Move]:
        """The moves `seat` would have if it were to move now (restore bonus as earned), sorted by
        (restore, destination)."""
        if self.pawns[seat] < 0:
            return []
        plain, _, via = self._move_masks(seat)
        moves = [Move(to) for to in cells_of(plain)]
        for restored, reach in via.items():
            moves.extend(Move(to, restored) for to in cells_of(reach))
        return moves

    def random_move(self, rng: random.Random) -> Move:
        """`legal_moves()[rng.randrange(len(legal_moves()))]`, found by counting destinations
        per restored card instead of listing every move."""
        if self._moves is not None:
            return self._moves[rng.randrange(len(self._moves))]
        plain, _, via = self._move_masks(self.mover)
        index = rng.randrange(plain.bit_count() + sum(reach.bit_count() for reach in via.values()))
        if index < plain.bit_count():
            return Move(nth_cell(plain, index))
        index -= plain.bit_count()
        for restored, reach in via.items():
            if index < reach.bit_count():
                return Move(nth_cell(reach, index), restored)
            index -= reach.bit_count()
        raise AssertionError("not reached: the index is below the move count")

    def has_move(self, seat: int) -> bool:
        """Whether `seat` could move now (stops at the first legal move it finds)."""
        cell = self.pawns[seat]
        if cell < 0:
            return False
        pawns = self.game.rules.pawns
        others = self.pawn_mask(seat)
        blocked = self.blocked | (others if pawns == "block" else 0)
        restorable = self.down if self.restore[seat] and self.game.rules.restore_bonus else 0
        landing = ~others if pawns != "stack" else -1
        deal = self.deal
        assert deal is not None  # dealt by the first chance outcome
        for mask, destination in deal.walks[cell]:
            if landing >> destination & 1:
                hit = mask & blocked
                if not hit or (restorable and not hit & (hit - 1) and hit & restorable):
                    return True
        return False

    # -- integer move codes and compiled playouts (the protocol's optional capabilities) ----
    def legal_codes(self) -> list[int]:
        """The legal moves as integers `(restore + 1) * cells + to`, in the order of `legal_moves`.

        >>> state = _dealt_state()
        >>> [state.move_of_code(c) for c in state.legal_codes()] == state.legal_moves()
        True
        """
        if self.mover < 0:
            return []
        cells = self.game.grid.cells
        plain, _, via = self._move_masks(self.mover)
        codes = cells_of(plain)
        for restored, reach in via.items():
            base = (restored + 1) * cells
            codes.extend(base + to for to in cells_of(reach))
        return codes

    def move_of_code(self, code: int) -> Move:
        restore, to = divmod(code, self.game.grid.cells)
        return Move(to, restore - 1)

    def apply_code(self, code: int) -> None:
        """Play the move of a code from `legal_codes()` (not checked again)."""
        restore, to = divmod(code, self.game.grid.cells)
        self._play(to, restore - 1)

    def random_playout(self, rng: random.Random, policy: str) -> tuple[float, ...] | None:
        """`returns()` after random play to the end by the compiled kernel, or None when the
        kernel does not play this policy or these rules (the state is left unchanged).

        `policy` is an agent's `random_policy`: "moves" or "destination".
        """
        from boardlab.analysis.blockd import kernel  # here: numba's start-up only when a game is played

        weighting = kernel.WEIGHTINGS.get(policy)
        if weighting is None or self.mover < 0 or kernel.unsupported(self.game) is not None:
            return None
        winner = kernel.playout_winner(self, rng.getrandbits(64), weighting)
        out = [0.0] * self.players
        if winner >= 0:
            out[winner] = 1.0
        return tuple(out)

    def to_position(self) -> dict:
        """The position in the JSON form of docs/positions/blockd.md (only between turns)."""
        from boardlab.analysis.blockd.position import position_of
        return position_of(self)

    # -- turn order -----------------------------------------------------------------------
    def _deal(self, card_ids: Sequence[int]) -> None:
        game = self.game
        self.deal = game.deal_of(card_ids)
        self.pawns = [self.deal.start[seat] for seat in range(game.players)]
        self._advance(-1)

    def _leave(self, seats: list[int]) -> None:
        """The pawns of `seats` leave the board; their cards turn face down under `flip`."""
        cells = [self.pawns[seat] for seat in seats]
        for seat in seats:
            self.pawns[seat] = -1
            self.marked[seat] = False
            self.restore[seat] = False
            self.eliminations.append((self.round, seat))
        if self.game.rules.eliminated_card == "flip":
            for cell in cells:
                if self.game.flip_at_once or cell not in self.pawns:
                    self.down |= 1 << cell

    def _next_seat(self, after: int) -> int:
        """The next seat after `after` still to play this round, or -1 when the round is over."""
        for seat in range(after + 1, self.game.players):
            if self.pawns[seat] >= 0 and not self.marked[seat]:
                return seat
        return -1

    def _finish(self, winners: tuple[int, ...]) -> None:
        self.mover = TERMINAL
        self.won = winners
        self._moves = None

    def _advance(self, after: int) -> None:
        """Find the next player who can move, resolving eliminations and the end of the game."""
        immediate = self.game.rules.elimination == "immediate"
        seat = after
        while True:
            seat = self._next_seat(seat)
            if seat < 0:  # the round is over
                marked = [s for s in range(self.game.players) if self.marked[s]]
                if marked:
                    self._leave(marked)
                left = [s for s in range(self.game.players) if self.pawns[s] >= 0]
                if len(left) == 1:
                    self._finish((left[0],))
                    return
                if not left:
                    self.tiebreak = self.last_mover >= 0
                    self._finish((self.last_mover,) if self.last_mover >= 0 else ())
                    return
                self.round += 1
                seat = self._next_seat(-1)
            if self.has_move(seat):
                break
            if immediate:
                self._leave([seat])
                left = [s for s in range(self.game.players) if self.pawns[s] >= 0]
                if len(left) == 1:
                    self._finish((left[0],))
                    return
            else:
                self.marked[seat] = True
        self.mover = seat
        self._moves = None  # listed when asked for
        if self.turns >= self.game.rules.max_turns:
            self.unfinished = True
            self._finish(())


def make_game(definition: blockd_schema.Definition, players: int) -> BlockdGame:
    """The engine's entry point (see analysis/engines.py)."""
    return BlockdGame(definition, players)


def _definition() -> blockd_schema.Definition:
    from boardlab.layouts import load
    return load("blockd")


def _dealt_state(seed: int = 3) -> BlockdState:
    state = make_game(_definition(), 4).new_initial_state()
    state.apply(state.sample_chance(random.Random(seed)))
    return state

"""Deblockle's rules engine (rules: layouts/rulebooks/deblockle.en.md), every rule option read from the definition.

A turn: the mover tips one of its blocks onto an orthogonally adjacent open square, then the
block hops by the face now on top (Stop: no hop; Cross: one square orthogonally; X: one square
diagonally; Slider: along a line of free squares; Hoops: `rules.hoops_steps` single
orthogonal steps).  Tipping Star-up onto the opponent's home star scores the block.  A player
without a move passes; the first to score all their blocks wins; when neither can move, fewer
blocks left wins.  The board, stars, start squares, faces and cube come from the definition.

State discipline: `DeblockleState.apply` changes the state in place and `clone` gives an
independent copy.  The board is two lists over the cells (owner seat or -1, orientation) and
a bit mask of occupied cells; everything fixed (neighbours, rays, the cube's tip table) is
computed once per game.  `tests/deblockle_reference.py` is the slow, obvious twin (rotation
matrices and exhaustive step sequences), compared on random positions.

Seats: seat 0 is player 1 (the first `[[players]]` table, who moves first unless `first = 2`),
seat 1 player 2.
Cells and moves are those of `board.py` (cells file by file, so cell order is (file, rank)).

Points the rules leave open, fixed here (each one a rule option or stated):
- `hopless_tip` (option): "illegal" (default), a tip after which no hop is possible is not
  a move; "ends_turn": it is a move that ends on the tipped-onto square.
- `hoops_steps` (option, default 3): the number of single steps of a Hoops hop.  With an even
  number a Hoops hop may end where it started; that still counts as a hop.
- `setup` (option): the rules let the placer choose the square and the rotation of every
  rolled block; the simulation models the placer.  "random" (default, a casual placer) gives
  every block a uniformly random orientation of the 24 on its own start square;
  "adversarial" (a spiteful placer) keeps the rolled top faces and chooses the squares and
  rotations whose summed turns-to-score on an empty board (`analysis/deblockle/reach.py`) is
  largest (`placements`).
- A block's hop starts from the square it was tipped onto; the square it came from is empty
  by then, so a hop may cross or end on it.
- Slider: stopping points are the end of the slide and, by `slider_stop` (option), every
  square just before a star square on the way ("before_star", default) or every square of the
  slide orthogonally next to a star square ("next_to_star", the source's words read
  literally); never the tipped-onto square itself: it must move.
- `first` (option, default 1): the player who moves first (the source: the youngest player,
  or the winner of the last game).
- `both_blocked` (option): when neither player can move, "fewer_blocks" (default) gives the
  game to the player with fewer blocks left (equal: a draw); "draw" makes it a draw.
- `no_touching` (option): a move is illegal if, after it, any block of the mover is
  orthogonally next to a block of the opponent.
- Turns count moves played; a pass is not a turn but is counted for the blocked player.  The
  end of the game by the rules is checked before the turn cap: a game still going after
  `max_turns` moves ends unfinished.

>>> import random
>>> from boardlab.layouts import load
>>> game = make_game(load("deblockle"), 2)
>>> state = game.new_initial_state()
>>> state.apply(state.sample_chance(random.Random(1)))
>>> state.current_player(), len(state.legal_moves()) > 0
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from boardlab.analysis.deblockle.board import SCORED, BoardGeometry, Move  # noqa: F401 (Move, SCORED: engine API)
from boardlab.analysis.deblockle.cube import Cube
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, TurnState
from boardlab.layouts import deblockle as deblockle_schema

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.summary import DeblockleTally
    from boardlab.analysis.runner import GameRecord, Match


def _square(board: BoardGeometry, name: str) -> int:
    """The cell of a square the definition names (its check has refused any not on the board)."""
    cell = board.cell(name)
    assert cell is not None, name
    return cell


class DeblockleGame(Game[deblockle_schema.Definition]):
    """Deblockle for a definition (two players)."""

    length_unit = "turns"
    reads_positions = True
    chance_listed = False  # the setup draws one of 24 orientations per block: sampled, never listed

    def __init__(self, definition: deblockle_schema.Definition, players: int = 2) -> None:
        super().__init__(definition, players)
        self.rules = definition.rules
        self.board = board = BoardGeometry(definition.board.files, definition.board.ranks)
        self.cube = Cube.from_definition(definition)
        self.home_star = tuple(_square(board, p.home_star) for p in definition.players)
        #: target[seat]: the star where seat scores (the opponent's home star)
        self.target = (self.home_star[1], self.home_star[0])
        self.stars = frozenset(self.home_star)
        self.star_mask = sum(1 << c for c in self.stars)
        #: cells where a slide may stop short of its end whatever the direction (`slider_stop`)
        self.slide_stops = 0 if self.rules.slider_stop == "before_star" else sum(
            1 << n for c in self.stars for n in board.neighbour[c] if n >= 0 and n not in self.stars)
        #: each seat's start cells, as many as its blocks (`rules.blocks`, a pair for a handicap)
        self.starts = tuple(tuple(_square(board, sq) for sq in p.start[:n])
                            for p, n in zip(definition.players, self.rules.counts))
        hops = {name: face.hop for name, face in definition.faces.items()}
        #: hop kind of the face on top of each orientation
        self.hop = tuple(hops[faces[0]] for faces in self.cube.orientations)
        self.star_face = next(name for name, kind in hops.items() if kind == "score")

    def new_initial_state(self) -> "DeblockleState":
        """The chance node before the setup (the orientation of every block)."""
        return DeblockleState(self)

    def play_block(self, match: Match, start: int, stop: int) -> list[GameRecord] | None:
        """Games start..stop-1 of a match by the compiled random self-play path
        (`analysis/deblockle/batch.py`), or None when its agents are not all random."""
        from boardlab.analysis.deblockle.batch import play_block
        return play_block(self, match, start, stop)

    def block_size(self, match: Match) -> int | None:
        """The runner's block size when the compiled path plays this match (None: the default)."""
        from boardlab.analysis.deblockle.batch import block_size
        return block_size(self, match)

    def restrictions(self) -> tuple:
        """The optional elements (`restrictions.py`)."""
        from boardlab.analysis.deblockle.restrictions import RESTRICTIONS
        return RESTRICTIONS

    def summarize(self, records: list) -> dict:
        """Ends, first-player share, blocked players and blocks scored (`summary.summarize`): the
        list-based twin of `tally`."""
        from boardlab.analysis.deblockle.summary import summarize
        return summarize(records, max(self.rules.counts))

    def tally(self, match: Match) -> DeblockleTally:
        """The figures of `summarize`, streamed (`summary.DeblockleTally`: counts, no records)."""
        from boardlab.analysis.deblockle.summary import DeblockleTally
        return DeblockleTally(max(self.rules.counts))

    def describe_summary(self, figures: dict) -> str:
        """The Deblockle lines of `boardlab simulate`'s plain-text output."""
        from boardlab.analysis.deblockle.summary import describe
        return describe(figures)

    def state_from_position(self, data: Any) -> "DeblockleState":
        """The state of a position in the JSON form of docs/positions/deblockle.md.

        :raises BoardlabError: when the position is malformed or impossible (one line saying what).
        """
        from boardlab.analysis.deblockle.position import parse_position
        return parse_position(self, data)

    def deal(self, rng: random.Random) -> tuple[int, ...]:
        """A setup: one orientation drawn uniformly of the 24 per block, player 1's blocks first
        (in the order of their start squares), then player 2's."""
        count = len(self.cube.orientations)
        return tuple(rng.randrange(count) for _ in range(sum(len(s) for s in self.starts)))

    @cached_property
    def turns_to_score(self) -> tuple[dict[tuple[int, int], int], ...]:
        """Per seat, the fewest turns from each (cell, orientation) to score alone on an empty board."""
        from boardlab.analysis.deblockle.reach import fewest_turns
        return tuple(fewest_turns(self, seat) for seat in range(2))

    def placements(self, rolled: Sequence[int]) -> tuple[int, ...]:
        """The orientation every block starts in, given the rolled orientations of a setup
        (`deal`'s order: player 1's start squares, then player 2's).

        `setup = "random"`: each block lies on its start square as it was rolled.
        `setup = "adversarial"`: each player's blocks are set down by the opponent choosing, for
        the rolled top faces, the square and the rotation of every block that give the most
        turns to score (`reach.adversarial_placement`)."""
        if self.rules.setup == "random":
            return tuple(rolled)
        from boardlab.analysis.deblockle.reach import adversarial_placement
        out, i = [], 0
        cache = self.__dict__.setdefault("_placements", {})
        for seat, cells in enumerate(self.starts):
            tops = tuple(self.cube.top(o) for o in rolled[i:i + len(cells)])
            if (seat, tops) not in cache:
                cache[seat, tops] = [o for _, o in adversarial_placement(self, cells, tops, self.turns_to_score[seat])]
            out += cache[seat, tops]
            i += len(cells)
        return tuple(out)

    # -- moves ---------------------------------------------------------------------------
    def hop_ends(self, kind: str, start: int, occupied: int) -> list[int]:
        """Cells where a hop of `kind` from `start` may end, given the occupied cells (sorted).

        >>> from boardlab.layouts import load
        >>> game = make_game(load("deblockle"), 2)
        >>> b = game.board
        >>> [b.name(c) for c in game.hop_ends("slide", b.cell("d1"), 0)]    # passes d2 and stops before d6 or at d7
        ['a1', 'd5', 'd7', 'g1']
        """
        board = self.board
        blocked = occupied | self.star_mask
        if kind == "none":
            return [start]
        if kind == "orthogonal":
            return sorted(n for n in board.neighbour[start] if n >= 0 and not blocked >> n & 1)
        if kind == "diagonal":
            return sorted(n for n in board.diagonals[start] if not blocked >> n & 1)
        if kind == "slide":
            ends = set()
            for ray in board.rays[start]:
                path = []
                for cell in ray:
                    if occupied >> cell & 1:
                        break
                    path.append(cell)
                for i, cell in enumerate(path):
                    if cell not in self.stars and (i == len(path) - 1 or path[i + 1] in self.stars
                                                   or self.slide_stops >> cell & 1):
                        ends.add(cell)
            return sorted(ends)
        if kind == "hoops":
            here = {start}
            for _ in range(self.rules.hoops_steps):
                here = {n for c in here for n in board.neighbour[c] if n >= 0 and not occupied >> n & 1}
            return sorted(c for c in here if c not in self.stars)
        raise ValueError(f"no hop of kind {kind!r}")

    def moves_from(self, seat: int, cell: int, orientation: int, occupied: int) -> list[Move]:
        """The moves of `seat`'s block on `cell` (in `orientation`), `occupied` holding every block
        including this one; without the `no_touching` test, which needs the whole board."""
        board, cube = self.board, self.cube
        others = occupied & ~(1 << cell)
        moves = []
        for direction in range(4):
            onto = board.neighbour[cell][direction]
            if onto < 0 or others >> onto & 1:
                continue
            turned = cube.tips[orientation][direction]
            kind = self.hop[turned]
            if onto in self.stars:
                if onto == self.target[seat] and kind == "score":
                    moves.append(Move(cell, direction, SCORED))
                continue
            if kind == "score":
                continue  # the Star may come up only on the opponent's home star
            ends = self.hop_ends(kind, onto, others)
            if not ends and self.rules.hopless_tip == "ends_turn":
                ends = [onto]
            moves.extend(Move(cell, direction, end) for end in ends)
        return moves


def _cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class DeblockleState(TurnState):
    """One Deblockle position (see the module docstring for the discipline and open points)."""

    def __init__(self, game: DeblockleGame):
        cells = game.board.cells
        self.game = game
        self.owner = [-1] * cells  # seat of the block on each cell, -1 when empty
        self.orientation = [-1] * cells
        self.occupied = 0
        self.masks = [0, 0]  # cells holding each seat's blocks
        self.left = [0, 0]  # blocks on the board per seat
        self.mover = CHANCE
        self.turns = 0  # the length: moves played (passes are not counted)
        self.won: tuple[int, ...] = ()
        self.unfinished = False
        self.end = ""  # how the game ended: "scored", "no_moves" or "cap"
        self.passes = [0, 0]  # turns each seat was blocked (passed)
        self.blocked_spells = [0, 0]  # separate runs of passes per seat
        self.scored_turns: list[list[int]] = [[], []]  # game turn of each block scored, per seat
        self._moves: list[Move] | None = None

    # -- protocol ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return 2

    def clone(self) -> "DeblockleState":
        other = object.__new__(DeblockleState)
        other.__dict__.update(self.__dict__)
        other.owner = self.owner[:]
        other.orientation = self.orientation[:]
        other.left = self.left[:]
        other.masks = self.masks[:]
        other.passes = self.passes[:]
        other.blocked_spells = self.blocked_spells[:]
        other.scored_turns = [self.scored_turns[0][:], self.scored_turns[1][:]]
        return other

    def sample_chance(self, rng: random.Random) -> tuple[int, ...]:
        return self.game.deal(rng)

    def to_position(self) -> dict:
        """The position in its JSON form (only between turns)."""
        from boardlab.analysis.deblockle.position import position_of
        return position_of(self)

    def apply(self, move: Any) -> None:
        """Set up (at the chance node) or play `move` in place.

        :raises IllegalMoveError: when the move is not legal here.
        """
        if self.mover == CHANCE:
            self.apply_outcome(self._setup, move)
            return
        self.check_move(move)
        seat = self.mover
        self._play(seat, move)
        self.turns += 1
        if move.to == SCORED:
            self.scored_turns[seat].append(self.turns)
        if self.left[seat] == 0:
            self._finish((seat,), "scored")
            return
        self._advance(1 - seat)

    def stats(self) -> dict:
        return {"passes": self.passes[:], "blocked_spells": self.blocked_spells[:],
                "scored_turns": [t[:] for t in self.scored_turns], "end": self.end}

    # -- queries ------------------------------------------------------------------------------
    def blocks(self, seat: int) -> list[tuple[int, int]]:
        """(cell, orientation) of `seat`'s blocks on the board, by cell."""
        return [(c, self.orientation[c]) for c in _cells(self.masks[seat])]

    def moves_of(self, seat: int) -> list[Move]:
        """The moves `seat` would have if it were to move now, sorted by (from cell, tip direction
        N E S W, to cell)."""
        game = self.game
        moves = []
        for cell, orientation in self.blocks(seat):
            moves.extend(game.moves_from(seat, cell, orientation, self.occupied))
        if game.rules.no_touching and moves:
            near = 0  # cells orthogonally next to an opponent's block
            for cell in _cells(self.masks[1 - seat]):
                near |= game.board.around[cell]
            mine = self.masks[seat]
            moves = [m for m in moves
                     if not (mine & ~(1 << m.frm) | (0 if m.to == SCORED else 1 << m.to)) & near]
        return moves

    # -- changes ------------------------------------------------------------------------------
    def place(self, seat: int, cell: int, orientation: int) -> None:
        """Put a block on an empty cell (setup and positions)."""
        self.owner[cell] = seat
        self.orientation[cell] = orientation
        self.occupied |= 1 << cell
        self.masks[seat] |= 1 << cell
        self.left[seat] += 1

    def _play(self, seat: int, move: Move) -> None:
        orientation = self.orientation[move.frm]
        self.owner[move.frm] = -1
        self.orientation[move.frm] = -1
        self.occupied &= ~(1 << move.frm)
        self.masks[seat] &= ~(1 << move.frm)
        self.left[seat] -= 1
        if move.to != SCORED:
            self.place(seat, move.to, self.game.cube.tips[orientation][move.tip])

    def _setup(self, rolled: Sequence[int]) -> None:
        game = self.game
        blocks = sum(len(cells) for cells in game.starts)
        if len(rolled) != blocks or not all(isinstance(o, int) and 0 <= o < len(game.cube.orientations) for o in rolled):
            raise ValueError(f"a setup is {blocks} orientation numbers, one per block")
        placed = iter(game.placements(rolled))
        for seat, cells in enumerate(game.starts):
            for cell in cells:
                self.place(seat, cell, next(placed))
        self._advance(game.rules.first - 1)

    def _finish(self, winners: tuple[int, ...], how: str) -> None:
        self.mover = TERMINAL
        self.won = winners
        self.end = how
        self._moves = None

    def _advance(self, seat: int) -> None:
        """`seat` moves next if it can; otherwise it passes if the other can; otherwise the game ends."""
        moves = self.moves_of(seat)
        if not moves:
            other = 1 - seat
            moves = self.moves_of(other)
            if not moves:  # neither can move: fewer blocks left wins, or a draw (`both_blocked`)
                a, b = self.left
                draw = a == b or self.game.rules.both_blocked == "draw"
                self._finish(() if draw else ((0,) if a < b else (1,)), "no_moves")
                return
            if not self._passing:  # a new spell: the last time round, nobody passed
                self.blocked_spells[seat] += 1
            self.passes[seat] += 1
            self._passing = True
            seat = other
        else:
            self._passing = False
        self.mover = seat
        self._moves = moves
        if self.turns >= self.game.rules.max_turns:
            self.unfinished = True
            self._finish((), "cap")

    _passing = False  # the mover's opponent passed the last time play came round


#: agent name -> factory(game) (the engine module's AGENTS, see analysis/engines.py)
from boardlab.analysis.deblockle.agents import AGENTS  # noqa: E402,F401


def make_game(definition: deblockle_schema.Definition, players: int = 2) -> DeblockleGame:
    """The engine's entry point (the `engine` part of the game's registry entry)."""
    return DeblockleGame(definition, players)

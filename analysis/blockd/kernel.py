"""Blockd's compiled fast path: whole random games on integer bitmasks, compiled with numba.

(Why one module of about 700 lines: the compiled functions call one another and share the
layout of the position vector `st`; numba compiles a function together with what it calls,
so they stay together, and the Python entry points at the end are their only doors.)

The functions of a turn are inlined into their callers (`inline="always"`), and the loops over
turns and games (`play_on`, `play_games`) are compiled without numba's reference counting
(`_nrt=False`): numba counts the references of every array it passes or copies with atomic
increments and decrements, which `perf` showed to be about two thirds of a game's time even
after inlining.  Those loops allocate nothing (the caller gives them their scratch arrays), so
they need none of it; the arrays are their caller's and outlive the call.

The reference engine (`engine.BlockdState`) stays the readable definition of the rules; this
module plays the same rules in a handful of `numba.njit(cache=True)` functions over plain
integers, for the hot loops: random self-play (`play_games`, used by `simulate` through
`batch.play_block`) and the random rollouts of MCTS (`playout`).  The tests compare it with
the engine move by move (`tests/test_blockd_kernel.py`).

A position is an int64 vector `st` (fields `DOWN` .. `DONE` below) and per-seat arrays
`pawns`, `marked`, `bonus`; the deal is the step-count class and the suit of the card on
every cell and the mask of blind cards.  The walk tables of the engine
(`walks.walk_table`, built by `walks_kernel`) are laid flat per step-count class and cell:
`masks[j]` (cells entered) and `dests[j]` (destination) for j in `spans[c, cell]`
(`graph_kernel` reads these), and, padded, for the games: walks `walk_lo[c, cell]` .. `walk_hi[c, cell] - 1` of
`walk_masks` and `walk_bits` (the destination's bit; padded with walks that reach nothing).

Move generation is the engine's `moves_of`: a walk hitting no blocked cell gives a
destination without a restore, a walk hitting exactly one restorable card gives a
destination after restoring it.  `reach` tests every walk of the mover's cell without a
branch (the compiler tests 8 walks per vector instruction on AVX-512): once for the plain
moves, once per restorable card with that card taken out of the wall.  Moves are numbered as the
engine lists them (no restore first, then per restored card ascending, destinations
ascending), so a uniform number in [0, moves) is a uniform legal move.

Turn t of a game whose move key is k draws the uniform number of
`splitmix64(k + (t + 1) * golden)` (`batch.uniforms`); with the `DESTINATION` weighting a
second number comes from `splitmix64` of the first draw.

Rule options: every option of `BlockdRules` that `unsupported` knows with the values it
lists; anything else (an unknown option, a board of more than 62 cells) makes the callers use
the reference engine instead, never other rules.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING

import numpy as np
from boardlab.analysis.jit import NO_REFCOUNT, njit


from boardlab.analysis.splitmix import GOLDEN, splitmix, to_unit

try:  # LLVM's count-trailing-zeros; a plain loop replaces it if a numba version lacks it
    from numba.cpython.unsafe.numbers import trailing_zeros
except ImportError:  # pragma: no cover
    trailing_zeros = None

from boardlab.analysis.blockd import walks_kernel
from boardlab.analysis.blockd.walks import walk_rows

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from boardlab.analysis.blockd.engine import BlockdGame, BlockdState

#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

#: the largest board whose cells fit an int64 mask
MAX_CELLS = 62

#: how a random player weighs its legal moves: every (restore, destination) move alike, or
#: the destination first (uniform over the cells it can reach), then the restore choice: when
#: the cell is open without a restore, no restore or a restore with probability 1/2 each; the
#: restored card uniform over those that open a way there (see `agents.DestinationRandomAgent`)
MOVES, DESTINATION = 0, 1
#: an agent's `random_policy` -> the kernel's weighting
WEIGHTINGS = {"moves": MOVES, "destination": DESTINATION}

#: the walks of a cell are padded to a multiple of this many (walks that reach nothing), so that
#: `reach` tests them all in the compiler's vector loop: a remainder would go one walk at a time
WALK_STEP = 16

# rule options as integers
PASS, BLOCK, STACK = 0, 1, 2
PAWNS = {"pass": PASS, "block": BLOCK, "stack": STACK}

#: the options the kernel plays, with the values it knows; any other field or value -> reference path
SUPPORTED = {
    "torus": None,  # any value: the walk tables carry it
    "pawns": ("pass", "block", "stack"),
    "eliminated_card": ("flip", "stay"),
    "elimination": ("immediate", "end_of_round"),
    "restore_bonus": None,
    "start_steps": None,
    "max_turns": None,
    "stacked_flip": ("last", "always"),
}

# fields of the position vector `st`
# (PLAIN, RESTORABLE: the mover's `moves`, found by `advance`, which leaves their `via` in its scratch)
DOWN, BLIND, MOVER, TURNS, ROUND, LAST, WINNER, UNFINISHED, TIEBREAK, EARNED, USED, N_ELIM, DONE, PLAIN, RESTORABLE \
    = range(15)
FIELDS = 15
# fields of the rule vector `rules`
R_PLAYERS, R_PAWNS, R_FLIP, R_IMMEDIATE, R_RESTORE, R_MAX_TURNS, R_AT_ONCE = range(7)



def unsupported(game: BlockdGame) -> str | None:
    """Why the kernel cannot play this game's rules (None when it can); found once per game.

    >>> from boardlab.layouts import load
    >>> from boardlab.analysis.blockd.engine import make_game
    >>> unsupported(make_game(load("blockd"), 4)) is None
    True
    """
    if "_kernel_unsupported" not in game.__dict__:
        game.__dict__["_kernel_unsupported"] = _unsupported(game)
    return game.__dict__["_kernel_unsupported"]


def _unsupported(game: BlockdGame) -> str | None:
    if game.grid.cells > MAX_CELLS:
        return f"{game.grid.cells} cells (the compiled path handles at most {MAX_CELLS})"
    for f in dataclasses.fields(game.rules):
        if f.name not in SUPPORTED:
            return f"rule option {f.name} is not played by the compiled path"
        values = SUPPORTED[f.name]
        if values is not None and getattr(game.rules, f.name) not in values:
            return f"{f.name} = {getattr(game.rules, f.name)!r} is not played by the compiled path"
    return None


class KernelTables:
    """The game's walk tables stacked per step-count class, per-card lookups and the rule vector."""

    def __init__(self, game: BlockdGame) -> None:
        cells = game.grid.cells
        classes: list[tuple[int, ...]] = []
        card_class, card_suit = [], []
        for card in game.cards:
            card_suit.append(card.suit)
            if card.is_blind:
                card_class.append(-1)
                continue
            steps = game.step_counts(card)
            if steps not in classes:
                classes.append(steps)
            card_class.append(classes.index(steps))
        self.cells = cells
        # per class and cell, (masks, destinations) of `walks.walk_table`: built by the compiled
        # path and kept on disk (`walks_kernel`); a set-up over a second shows its progress
        progress = walks_kernel.Progress(f"Blockd walk tables, {game.grid.rows} x {game.grid.columns}"
                                         f"{' torus' if game.grid.torus else ''}, step classes", len(classes))
        self._rows = []
        for c, steps in enumerate(classes):
            self._rows.append(walk_rows(game.grid, steps))
            progress.step(c + 1)
        progress.close()
        self.counts = np.array([[len(m) for m, _ in per_class] for per_class in self._rows],
                               dtype=np.int64).reshape(len(classes), cells)
        # The same walks flat, for the compiled games: walks `walk_lo[c, cell]` .. `walk_hi[c, cell] - 1`
        # of `walk_masks` (cells entered) and `walk_bits` (the destination's bit), in 32-bit
        # integers when the board fits them (half the memory to read).
        narrow = np.int32 if cells <= 31 else np.int64
        padded = self.counts + (-self.counts % WALK_STEP)  # mask 0, bit 0: open, but adds no destination
        self.walk_hi = np.cumsum(padded.ravel()).reshape(padded.shape).astype(np.int64)
        self.walk_lo = self.walk_hi - padded
        total = int(padded.sum())
        self.walk_masks = np.zeros(total, dtype=narrow)
        self.walk_bits = np.zeros(total, dtype=narrow)
        for c, per_class in enumerate(self._rows):
            for cell, (masks, dests) in enumerate(per_class):
                lo = self.walk_lo[c, cell]
                self.walk_masks[lo:lo + len(masks)] = masks
                self.walk_bits[lo:lo + len(masks)] = np.int64(1) << dests
        self.card_class = np.array(card_class, dtype=np.int64)
        self.card_suit = np.array(card_suit, dtype=np.int64)
        self.card_blind = np.array([card.is_blind for card in game.cards], dtype=bool)
        self.start_card = np.array([game.start_card(s) for s in range(game.players)], dtype=np.int64)
        r = game.rules
        self.rules = np.array([game.players, PAWNS[r.pawns], r.eliminated_card == "flip",
                               r.elimination == "immediate", bool(r.restore_bonus), r.max_turns,
                               game.flip_at_once], dtype=np.int64)

    @functools.cached_property
    def _graph_arrays(self) -> tuple[Arr, Arr, Arr, Arr]:
        """`masks`, `dests`, `skips` (the index of the first walk of the next destination) laid flat,
        every class's rows one after the other, and `spans[c, cell]` = (first, end) of a row: made
        when first asked for (`graph_kernel` reads them; the games read `walk_masks`)."""
        spans = np.zeros(self.counts.shape + (2,), dtype=np.int64)
        spans[..., 1] = np.cumsum(self.counts.ravel()).reshape(self.counts.shape)
        spans[..., 0] = spans[..., 1] - self.counts
        rows = [row for per_class in self._rows for row in per_class]
        masks = np.concatenate([m for m, _ in rows]).astype(np.int64) if rows else np.zeros(0, np.int64)
        dests = np.concatenate([d for _, d in rows]).astype(np.int64) if rows else np.zeros(0, np.int64)
        skips = np.concatenate([lo + np.searchsorted(d, d, side="right")  # each row is sorted by destination
                                for lo, (_, d) in zip(spans[..., 0].ravel().tolist(), rows)]) if rows else masks
        return masks, dests, skips.astype(np.int64), spans

    @property
    def masks(self) -> np.ndarray:
        return self._graph_arrays[0]

    @property
    def dests(self) -> np.ndarray:
        return self._graph_arrays[1]

    @property
    def skips(self) -> np.ndarray:
        return self._graph_arrays[2]

    @property
    def spans(self) -> np.ndarray:
        return self._graph_arrays[3]

    def deal_arrays(self, card_ids: ArrayLike) -> tuple[Arr, Arr, Arr, Arr]:
        """(class per cell, suit per cell, blind mask, start cell per seat) of deals (rows of card ids)."""
        card_ids = np.asarray(card_ids, dtype=np.int64)
        cls = self.card_class[card_ids]
        suit = self.card_suit[card_ids]
        bits = np.int64(1) << np.arange(card_ids.shape[-1], dtype=np.int64)
        blind = np.where(self.card_blind[card_ids], bits, 0).sum(axis=-1).astype(np.int64)
        starts = np.argmax(card_ids[..., None, :] == self.start_card[:, None], axis=-1).astype(np.int64)
        return cls, suit, blind, starts


_TABLES: dict[tuple, KernelTables] = {}


def tables_of(game: BlockdGame) -> KernelTables:
    """The game's `KernelTables`, built once per game object and shared by equal games
    (`boardlab tables` makes a game object per block of deals)."""
    tables = game.__dict__.get("_kernel_tables")
    if tables is None:
        key = (game.grid, game.cards, game.start_steps, game.definition.cards.start_value, game.players,
               repr(game.rules))
        tables = _TABLES.get(key)
        if tables is None:
            tables = _TABLES[key] = KernelTables(game)
        game.__dict__["_kernel_tables"] = tables
    return tables


# -- bits and random numbers ----------------------------------------------------------------
@njit(cache=True)
def popcount(x: Int) -> Int:
    """Set bits of a non-negative int64 (the classic SWAR sum)."""
    v = np.uint64(x)
    v = v - ((v >> np.uint64(1)) & np.uint64(0x5555555555555555))
    v = (v & np.uint64(0x3333333333333333)) + ((v >> np.uint64(2)) & np.uint64(0x3333333333333333))
    v = (v + (v >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((v * np.uint64(0x0101010101010101)) >> np.uint64(56))


if trailing_zeros is not None:
    @njit(cache=True)
    def low_index(x: Int) -> Int:
        """The index of the lowest set bit of a non-zero int64 (one machine instruction)."""
        return np.int64(trailing_zeros(x))
else:  # pragma: no cover - numba without the intrinsic
    @njit(cache=True)
    def low_index(x: Int) -> Int:
        """The index of the lowest set bit of a non-zero int64."""
        i = 0
        while not (x >> i) & 1:
            i += 1
        return i


@njit(cache=True)
def nth_bit(x: Int, n: Int) -> Int:
    """The index of the n-th (0-based) set bit of x."""
    for _ in range(n):
        x &= x - 1
    return low_index(x)


@njit(cache=True)
def draw(key: np.uint64, turn: Int) -> np.uint64:
    """The uint64 draw of turn `turn` of the stream `key` (`batch.uniforms` before scaling)."""
    return splitmix(key + np.uint64(turn + 1) * GOLDEN)


# -- moves ----------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _context(st: Arr, pawns: Arr, bonus: Arr, rules: Arr, seat: Int) -> tuple[Int, Int, Int, Int]:
    """(wall, others, restorable, landing) of `seat`'s move."""
    others = np.int64(0)
    for s in range(rules[R_PLAYERS]):
        if s != seat and pawns[s] >= 0:
            others |= np.int64(1) << pawns[s]
    wall = st[DOWN] | st[BLIND]
    if rules[R_PAWNS] == BLOCK:
        wall |= others
    restorable = st[DOWN] if bonus[seat] and rules[R_RESTORE] else np.int64(0)
    landing = ~others if rules[R_PAWNS] != STACK else np.int64(-1)
    return wall, others, restorable, landing


@njit(cache=True)
def reach(masks: Arr, bits: Arr, first: Int, stop: Int, wall: Int) -> Int:
    """The destinations of walks first .. stop - 1 (unsigned) that enter no cell of `wall`.

    Branch-free over the walks, so that the compiler tests many walks per vector instruction
    (the unsigned index spares numba's negative-index check, which would stop it).
    """
    w = masks.dtype.type(wall)
    out = bits.dtype.type(0)
    none = bits.dtype.type(0)
    j = first
    while j < stop:
        out |= bits[j] if masks[j] & w == 0 else none
        j += np.uint64(1)
    return np.int64(out)


@njit(cache=True, inline="always")
def moves(st: Arr, pawns: Arr, bonus: Arr, cls: Arr, rules: Arr, masks: Arr, bits: Arr, lo: Arr, hi: Arr, seat: Int,
          via: Arr) -> tuple[Int, Int]:
    """The moves of `seat` as masks: returns `plain` (destinations without a restore) and
    fills `via[r]`, for every restorable card r, with the destinations after restoring r
    (`plain` included), both after the landing rule.

    A walk reaches its destination after restoring card r when r is the only blocked cell it
    enters, or it enters none: exactly the walks open once r is taken out of the wall, so
    `via[r]` is `reach` with that wall.
    """
    wall, others, restorable, landing = _context(st, pawns, bonus, rules, seat)
    cell = pawns[seat]
    c = cls[cell]
    first = np.uint64(lo[c, cell])
    stop = np.uint64(hi[c, cell])
    plain = reach(masks, bits, first, stop, wall) & landing
    r = restorable
    while r:
        k = low_index(r)
        via[k] = reach(masks, bits, first, stop, wall & ~(np.int64(1) << k)) & landing
        r &= r - 1
    return plain, restorable


@njit(cache=True, inline="always")
def any_move(plain: Int, restorable: Int, via: Arr) -> bool:
    """Whether the masks of `moves` hold a move."""
    if plain:
        return True
    while restorable:
        if via[low_index(restorable)]:
            return True
        restorable &= restorable - 1
    return False


@njit(cache=True, inline="always")
def pick(plain: Int, restorable: Int, via: Arr, u1: float, u2: float, weighting: Int) -> tuple[Int, Int]:
    """The chosen move (restored card or -1, destination) for the uniform numbers u1, u2."""
    if weighting == MOVES:
        total = popcount(plain)
        r = restorable
        while r:
            total += popcount(via[low_index(r)])
            r &= r - 1
        n = min(np.int64(u1 * total), total - 1)
        first = popcount(plain)
        if n < first:
            return -1, nth_bit(plain, n)
        n -= first
        r = restorable
        while r:
            k = low_index(r)
            size = popcount(via[k])
            if n < size:
                return k, nth_bit(via[k], n)
            n -= size
            r &= r - 1
        return -1, -1  # not reached: n < total
    union = plain
    r = restorable
    while r:
        union |= via[low_index(r)]
        r &= r - 1
    count = popcount(union)
    to = nth_bit(union, min(np.int64(u1 * count), count - 1))
    ways = 0  # restorable cards that open a way to `to`
    r = restorable
    while r:
        ways += (via[low_index(r)] >> to) & 1
        r &= r - 1
    if (plain >> to) & 1:
        if ways == 0 or u2 < 0.5:
            return -1, to
        u2 = 2.0 * u2 - 1.0
    n = min(int(u2 * ways), ways - 1)
    r = restorable
    while r:
        k = low_index(r)
        if (via[k] >> to) & 1:
            if n == 0:
                return k, to
            n -= 1
        r &= r - 1
    return -1, -1  # not reached


# -- turn order -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _leave(st: Arr, pawns: Arr, marked: Arr, bonus: Arr, rules: Arr, leaving: Int, elim: Arr) -> None:
    """The pawns of the seats in the mask `leaving` (bit s: seat s) leave the board (engine `_leave`)."""
    n = rules[R_PLAYERS]
    gone = np.int64(0)
    for s in range(n):
        if (leaving >> s) & 1:
            gone |= np.int64(1) << pawns[s]
            pawns[s] = -1
            marked[s] = 0
            bonus[s] = 0
            elim[st[N_ELIM], 0] = st[ROUND]
            elim[st[N_ELIM], 1] = s
            st[N_ELIM] += 1
    if rules[R_FLIP]:
        still = np.int64(0)
        if not rules[R_AT_ONCE]:  # a card still holding a pawn stays up
            for s in range(n):
                if pawns[s] >= 0:
                    still |= np.int64(1) << pawns[s]
        st[DOWN] |= gone & ~still


@njit(cache=True, inline="always")
def _next_seat(pawns: Arr, marked: Arr, n: Int, after: Int) -> Int:
    for s in range(after + 1, n):
        if pawns[s] >= 0 and not marked[s]:
            return s
    return -1


@njit(cache=True, inline="always")
def _left(pawns: Arr, n: Int) -> tuple[Int, Int]:
    count, last = 0, -1
    for s in range(n):
        if pawns[s] >= 0:
            count += 1
            last = s
    return count, last


@njit(cache=True, inline="always")
def advance(st: Arr, pawns: Arr, marked: Arr, bonus: Arr, cls: Arr, rules: Arr, masks: Arr, bits: Arr, lo: Arr,
            hi: Arr, elim: Arr, after: Int, via: Arr) -> None:
    """Find the next player who can move, resolving eliminations and the end (engine `_advance`);
    the mover's moves are left in `st[PLAIN]`, `st[RESTORABLE]` and `via`."""
    n = rules[R_PLAYERS]
    seat = after
    while True:
        seat = _next_seat(pawns, marked, n, seat)
        if seat < 0:  # the round is over
            leaving = np.int64(0)
            for s in range(n):
                if marked[s]:
                    leaving |= np.int64(1) << s
            if leaving:
                _leave(st, pawns, marked, bonus, rules, leaving, elim)
            count, last = _left(pawns, n)
            if count == 1:
                st[WINNER] = last
                st[DONE] = 1
                return
            if count == 0:
                st[TIEBREAK] = st[LAST] >= 0
                st[WINNER] = st[LAST]
                st[DONE] = 1
                return
            st[ROUND] += 1
            seat = _next_seat(pawns, marked, n, -1)
        plain, restorable = moves(st, pawns, bonus, cls, rules, masks, bits, lo, hi, seat, via)
        if any_move(plain, restorable, via):
            st[PLAIN] = plain
            st[RESTORABLE] = restorable
            break
        if rules[R_IMMEDIATE]:
            _leave(st, pawns, marked, bonus, rules, np.int64(1) << seat, elim)
            count, last = _left(pawns, n)
            if count == 1:
                st[WINNER] = last
                st[DONE] = 1
                return
        else:
            marked[seat] = 1
    st[MOVER] = seat
    if st[TURNS] >= rules[R_MAX_TURNS]:
        st[UNFINISHED] = 1
        st[WINNER] = -1
        st[DONE] = 1


@njit(cache=True, inline="always")
def apply_move(st: Arr, pawns: Arr, marked: Arr, bonus: Arr, cls: Arr, suit: Arr, rules: Arr, masks: Arr, bits: Arr,
               lo: Arr, hi: Arr, elim: Arr, restore: Int, to: Int, via: Arr) -> None:
    """The mover plays (restore, to) and play passes on (engine `apply`); the move must be legal."""
    seat = st[MOVER]
    left = pawns[seat]
    if restore >= 0:
        st[DOWN] &= ~(np.int64(1) << restore)
        st[USED] += 1
    pawns[seat] = to
    still = False
    for s in range(rules[R_PLAYERS]):
        if pawns[s] == left:  # (a loop that stops: not worth vector code for a few seats)
            still = True
            break
    if rules[R_AT_ONCE] or not still:
        st[DOWN] |= np.int64(1) << left
    earned = rules[R_RESTORE] != 0 and suit[to] == seat
    bonus[seat] = earned
    st[EARNED] += earned
    st[TURNS] += 1
    st[LAST] = seat
    advance(st, pawns, marked, bonus, cls, rules, masks, bits, lo, hi, elim, seat, via)


@njit(cache=True, **NO_REFCOUNT)
def play_on(st: Arr, pawns: Arr, marked: Arr, bonus: Arr, cls: Arr, suit: Arr, rules: Arr, masks: Arr, bits: Arr,
            lo: Arr, hi: Arr, elim: Arr, key: np.uint64, weighting: Int, history: Arr, via: Arr) -> None:
    """Random moves from a position with a mover until the game ends; `history[t]` gets
    (seat, restore, to) of turn t when `history` has rows; `via` is scratch of 64 int64."""
    if st[DONE]:
        return
    plain, restorable = moves(st, pawns, bonus, cls, rules, masks, bits, lo, hi, st[MOVER], via)
    while True:
        seat = st[MOVER]
        z = draw(key, st[TURNS])
        restore, to = pick(plain, restorable, via, to_unit(z), to_unit(splitmix(z)), weighting)
        if st[TURNS] < history.shape[0]:
            history[st[TURNS], 0] = seat
            history[st[TURNS], 1] = restore
            history[st[TURNS], 2] = to
        apply_move(st, pawns, marked, bonus, cls, suit, rules, masks, bits, lo, hi, elim, restore, to, via)
        if st[DONE]:
            return
        plain = st[PLAIN]
        restorable = st[RESTORABLE]


@njit(cache=True, **NO_REFCOUNT)
def play_games(cls: Arr, suit: Arr, blind: Arr, starts: Arr, keys: Arr, rules: Arr, masks: Arr, bits: Arr, lo: Arr,
               hi: Arr, weighting: Int, out: Arr, elim: Arr, histories: Arr, scratch: Arr) -> None:
    """Play one random game per row of `cls`/`suit`/`blind`/`starts` from its deal.

    `out[g]` receives the final position vector, `elim[g, k]` the k-th elimination (round,
    seat); game g's moves go to `histories[g]` when g < len(histories).  `scratch` is an int64
    array of `64 + 3 * players` items (this function allocates nothing: see the module docstring).
    """
    n = rules[R_PLAYERS]
    via = scratch[:64]
    pawns = scratch[64:64 + n]
    marked = scratch[64 + n:64 + 2 * n]
    bonus = scratch[64 + 2 * n:64 + 3 * n]
    no_history = histories[:0, 0]
    for g in range(cls.shape[0]):
        st = out[g]
        st[:] = 0
        st[BLIND] = blind[g]
        st[ROUND] = 1
        st[LAST] = -1
        st[WINNER] = -1
        for s in range(n):
            pawns[s] = starts[g, s]
            marked[s] = 0
            bonus[s] = 0
        advance(st, pawns, marked, bonus, cls[g], rules, masks, bits, lo, hi, elim[g], -1, via)
        history = histories[g] if g < histories.shape[0] else no_history
        play_on(st, pawns, marked, bonus, cls[g], suit[g], rules, masks, bits, lo, hi, elim[g], keys[g],
                weighting, history, via)


# -- Python entry points --------------------------------------------------------------------
@dataclasses.dataclass
class KernelResult:
    """Per game (in the order of the inputs): the final position vectors `out` (fields `DOWN`
    .. `DONE`), eliminations `elim[g, k] = (round, seat)` for k < `out[g, N_ELIM]`, and the
    move histories `(seat, restore, to)` per turn of the first `len(histories)` games."""

    out: np.ndarray
    elim: np.ndarray
    histories: np.ndarray

    @property
    def winner(self) -> np.ndarray:
        """The winning seat per game, -1 when none (unfinished or nobody ever moved)."""
        return self.out[:, WINNER]

    @property
    def length(self) -> np.ndarray:
        return self.out[:, TURNS]

    @property
    def unfinished(self) -> np.ndarray:
        return self.out[:, UNFINISHED].astype(bool)

    def record(self, g: int) -> tuple[tuple[int, ...], bool, int, dict]:
        """(winners, unfinished, length, stats) of game g, as the engine's `winners()`,
        `is_unfinished()`, `length()` and `stats()` give them."""
        return record_fields(self.out[g].tolist(), self.elim[g].tolist())

    def history(self, g: int) -> list[tuple[int, int, int]]:
        """The moves of recorded game g, as (seat, restore, to) tuples."""
        return [tuple(row) for row in self.histories[g, :self.out[g, TURNS]].tolist()]


def record_fields(st: list[int], gone: list[list[int]]) -> tuple[tuple[int, ...], bool, int, dict]:
    """(winners, unfinished, length, stats) from a final position vector and its eliminations (lists)."""
    winner = st[WINNER]
    stats = {"eliminations": gone[:st[N_ELIM]], "restores_earned": st[EARNED], "restores_used": st[USED],
             "tiebreak": bool(st[TIEBREAK]), "rounds": st[ROUND]}
    return (winner,) if winner >= 0 else (), bool(st[UNFINISHED]), st[TURNS], stats


def play_deals(game: BlockdGame, card_ids: ArrayLike, move_keys: Arr, weighting: int = MOVES,
               recorded: int = 0) -> KernelResult:
    """Random self-play of one game per row of `card_ids` (card id per cell), moves drawn
    from the stream of `move_keys[g]`; the histories of the first `recorded` games are kept.

    :raises ValueError: when the kernel does not play these rules (`unsupported`).
    """
    why = unsupported(game)
    if why:
        raise ValueError(why)
    t = tables_of(game)
    cls, suit, blind, starts = t.deal_arrays(card_ids)
    count = len(cls)
    out = np.zeros((count, FIELDS), dtype=np.int64)
    elim = np.zeros((count, game.players, 2), dtype=np.int64)
    histories = np.zeros((min(recorded, count), game.rules.max_turns, 3), dtype=np.int64)
    keys = np.asarray(move_keys, dtype=np.uint64)
    scratch = np.zeros(64 + 3 * game.players, dtype=np.int64)
    play_games(cls, suit, blind, starts, keys, t.rules, t.walk_masks, t.walk_bits, t.walk_lo, t.walk_hi, weighting,
               out, elim, histories, scratch)
    return KernelResult(out, elim, histories)


@njit(cache=True)
def playout(packed: Arr, cls: Arr, suit: Arr, rules: Arr, masks: Arr, bits: Arr, lo: Arr, hi: Arr, key: np.uint64,
            weighting: Int) -> Int:
    """The winner (-1: none, or unfinished) of random play from a packed position:
    the `FIELDS` position fields, then pawns, marked and bonus per seat."""
    n = rules[R_PLAYERS]
    st = packed[:FIELDS]
    pawns = packed[FIELDS:FIELDS + n]
    marked = packed[FIELDS + n:FIELDS + 2 * n]
    bonus = packed[FIELDS + 2 * n:FIELDS + 3 * n]
    elim = np.zeros((n, 2), dtype=np.int64)
    play_on(st, pawns, marked, bonus, cls, suit, rules, masks, bits, lo, hi, elim, key, weighting,
            np.zeros((0, 3), dtype=np.int64), np.zeros(64, dtype=np.int64))
    return st[WINNER] if not st[UNFINISHED] else -1


def deal_arrays_of(state: BlockdState) -> tuple[np.ndarray, np.ndarray]:
    """(step-count class, suit) of the card on every cell of a state's deal, kept on its shared `Deal`."""
    deal = state.deal
    assert deal is not None  # a dealt position
    if deal.compiled is None:
        t = tables_of(state.game)
        card_ids = np.array(deal.card_ids, dtype=np.int64)
        deal.compiled = (t.card_class[card_ids], t.card_suit[card_ids])
    return deal.compiled


def playout_winner(state: BlockdState, key: int, weighting: int) -> int:
    """The winner of random play to the end from an engine state (-1: none); the state is unchanged.

    The deal's per-cell arrays are made once per deal (kept on the shared `Deal`).
    """
    deal = state.deal
    assert deal is not None  # a dealt position
    arrays = deal_arrays_of(state)
    t = tables_of(state.game)
    packed = np.array([state.down, deal.blind, state.mover, state.turns, state.round, state.last_mover, -1, 0,
                       0, 0, 0, 0, 0, 0, 0, *state.pawns, *state.marked, *state.restore], dtype=np.int64)
    return int(playout(packed, arrays[0], arrays[1], t.rules, t.walk_masks, t.walk_bits, t.walk_lo, t.walk_hi,
                       np.uint64(key), weighting))


class Position:
    """An engine position (`BlockdState` at a player's turn) as the kernel's arrays."""

    __slots__ = ("st", "pawns", "marked", "bonus", "cls", "suit", "elim", "tables")

    def __init__(self, state: BlockdState) -> None:
        game = state.game
        t = self.tables = tables_of(game)
        deal = state.deal
        assert deal is not None  # a dealt position
        card_ids = np.array(deal.card_ids, dtype=np.int64)
        self.cls = t.card_class[card_ids]
        self.suit = t.card_suit[card_ids]
        self.st = np.zeros(FIELDS, dtype=np.int64)
        st = self.st
        st[DOWN], st[BLIND], st[MOVER], st[TURNS] = state.down, deal.blind, state.mover, state.turns
        st[ROUND], st[LAST], st[WINNER] = state.round, state.last_mover, -1
        st[EARNED], st[USED], st[TIEBREAK] = state.restores_earned, state.restores_used, state.tiebreak
        self.pawns = np.array(state.pawns, dtype=np.int64)
        self.marked = np.array(state.marked, dtype=np.int64)
        self.bonus = np.array(state.restore, dtype=np.int64)
        self.elim = np.zeros((game.players, 2), dtype=np.int64)

    def moves(self, seat: int) -> tuple[int, int, np.ndarray]:
        """(plain, restorable, via) of `seat` (see `moves`)."""
        t = self.tables
        via = np.zeros(64, dtype=np.int64)
        plain, restorable = moves(self.st, self.pawns, self.bonus, self.cls, t.rules, t.walk_masks, t.walk_bits,
                                  t.walk_lo, t.walk_hi, seat, via)
        return int(plain), int(restorable), via

    def has_move(self, seat: int) -> bool:
        return bool(any_move(*self.moves(seat)))

    def play_on(self, key: int, weighting: int = MOVES, record: bool = False) -> list[tuple[int, ...]]:
        """Random moves to the end of the game (in place); the moves played when `record`."""
        t = self.tables
        history = np.zeros((t.rules[R_MAX_TURNS] if record else 0, 3), dtype=np.int64)
        start = int(self.st[TURNS])
        play_on(self.st, self.pawns, self.marked, self.bonus, self.cls, self.suit, t.rules, t.walk_masks,
                t.walk_bits, t.walk_lo, t.walk_hi, self.elim, np.uint64(key), weighting, history, np.zeros(64, dtype=np.int64))
        return [tuple(row) for row in history[start:self.st[TURNS]].tolist()]


def listed_moves(plain: int, restorable: int, via: Arr) -> list[tuple[int, int]]:
    """The moves of `Position.moves` as (restore, to) pairs in the kernel's numbering."""
    out = [(-1, to) for to in range(64) if plain >> to & 1]
    for r in range(64):
        if restorable >> r & 1:
            out.extend((r, to) for to in range(64) if int(via[r]) >> to & 1)
    return out

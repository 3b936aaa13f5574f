"""Deblockle's compiled fast path: whole random games on integer bitmasks, compiled with numba.

The reference engine (`engine.DeblockleState`) stays the readable definition of the rules;
this module plays the same rules in `numba.njit(cache=True)` functions over plain integers,
for random self-play (`play_games`, used by `simulate` through `DeblockleGame.play_block`).
`tests/test_deblockle_kernel.py` replays its games move by move through the engine.

A game is an int64 vector `st` (fields `MOVER` .. `SCORED1` below), the orientation of the
block on every cell (`orient`, -1 for an empty cell) and the cells of each seat's blocks
(`masks`).  The fixed tables are the engine's: neighbours, diagonals, the cube's tip table,
the hop kind of each orientation's top face, the star squares and each seat's target star.

Moves are generated exactly as the engine lists them (blocks by cell, tip directions N E S W,
destinations by cell; the `no_touching` filter keeps that order), so a uniform number in
[0, moves) is a uniform legal move, and move k of the kernel is `legal_moves()[k]` of the
engine.  Turn t of a game whose move key is k draws `splitmix64(k + (t + 1) * golden)`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike
from boardlab.analysis.jit import njit

from boardlab.analysis.splitmix import GOLDEN, splitmix

# hop kinds (the definition's `faces.*.hop`)
HOPS = ("score", "none", "orthogonal", "diagonal", "slide", "hoops")
SCORE, NONE, ORTHOGONAL, DIAGONAL, SLIDE, HOOPS = range(6)
# how a game ended (engine `stats()["end"]`)
ENDS = ("", "scored", "no_moves", "cap")
# fields of the game vector `st`
(MOVER, TURNS, WINNER, DRAW, UNFINISHED, END, PASSING, LEFT0, LEFT1, PASS0, PASS1, SPELL0, SPELL1,
 SCORED0, SCORED1) = range(15)
FIELDS = 15
# fields of the rule vector
R_HOPS_STEPS, R_ENDS_TURN, R_NO_TOUCHING, R_MAX_TURNS, R_BLOCKS, R_FIRST, R_BLOCKED_DRAW, R_SLIDE_STOPS, R_BLOCKS1 = range(9)
# R_BLOCKS: player 1's blocks, R_BLOCKS1: player 2's (equal unless a handicap)
#: room for the option rows of one position (one per block and tip direction)
OPTION_ROOM = 64

_ONE = np.int64(1)
#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.engine import DeblockleGame


class KernelTables:
    """The engine's fixed tables as arrays (built once per game object)."""

    def __init__(self, game: DeblockleGame) -> None:
        board, cube, rules = game.board, game.cube, game.rules
        cells = board.cells
        if cells > 62:
            raise ValueError(f"the kernel plays boards of at most 62 squares, not {cells}")
        self.neighbour = np.array(board.neighbour, dtype=np.int64).reshape(cells, 4)
        diag = np.full((cells, 4), -1, dtype=np.int64)
        for c, ds in enumerate(board.diagonals):
            diag[c, :len(ds)] = sorted(ds)
        self.diagonal = diag
        self.around = np.array(board.around, dtype=np.int64)
        self.tips = np.array(cube.tips, dtype=np.int64)
        self.hop = np.array([HOPS.index(kind) for kind in game.hop], dtype=np.int64)
        self.star_mask = np.int64(game.star_mask)
        self.target = np.array(game.target, dtype=np.int64)
        self.rules = np.array([rules.hoops_steps, rules.hopless_tip == "ends_turn", rules.no_touching,
                               rules.max_turns, rules.counts[0], rules.first - 1, rules.both_blocked == "draw",
                               game.slide_stops, rules.counts[1]], dtype=np.int64)
        self.starts = start_array(game)


def start_array(game: DeblockleGame) -> np.ndarray:
    """Each seat's start cells as a row, padded with -1 where a seat has fewer blocks (a handicap)."""
    starts = np.full((2, max(1, max(len(s) for s in game.starts))), -1, dtype=np.int64)
    for seat, cells in enumerate(game.starts):
        starts[seat, :len(cells)] = cells
    return starts


@njit(cache=True)
def set_up(st: Arr, masks: Arr, orient: Arr, setup: Arr, starts: Arr, rules: Arr) -> None:
    """Put every block on its start cell in the orientation of `setup` (seat 0's blocks in start
    order, then seat 1's), each seat with its own number of blocks."""
    i = 0
    for seat in range(2):
        count = rules[R_BLOCKS] if seat == 0 else rules[R_BLOCKS1]
        for k in range(count):
            cell = starts[seat, k]
            orient[cell] = setup[i]
            masks[seat] |= _ONE << cell
            i += 1
        st[LEFT0 + seat] = count


def tables_of(game: DeblockleGame) -> KernelTables:
    tables = game.__dict__.get("_kernel_tables")
    if tables is None:
        tables = game.__dict__["_kernel_tables"] = KernelTables(game)
    return tables


@njit(cache=True)
def bit_index(low: Int) -> Int:
    """The index of the single set bit of `low` (a popcount of the bits below it)."""
    x = np.uint64(low - 1)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def draw_index(key: np.uint64, turn: Int, n: Int) -> Int:
    """A uniform index in [0, n) from the draw of turn `turn` of the stream `key`."""
    z = splitmix(key + np.uint64(turn + 1) * GOLDEN)
    u = np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    return int(u * n)


@njit(cache=True)
def popcount(x: Int) -> Int:
    """Set bits of a non-negative int64."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def hop_ends(kind: Int, start: Int, occupied: Int, neighbour: Arr, diagonal: Arr, around: Arr, star_mask: Int,
             hoops_steps: Int, slide_stops: Int) -> Int:
    """Mask of the cells where a hop of `kind` from `start` may end (engine `hop_ends`;
    `slide_stops`: the cells where a slide may stop short whatever its direction)."""
    blocked = occupied | star_mask
    if kind == NONE:
        return _ONE << start
    if kind == ORTHOGONAL:
        return around[start] & ~blocked
    ends = np.int64(0)
    if kind == DIAGONAL:
        for d in range(4):
            n = diagonal[start, d]
            if n >= 0 and not (blocked >> n) & 1:
                ends |= _ONE << n
        return ends
    if kind == SLIDE:
        for d in range(4):
            cell = neighbour[start, d]
            while cell >= 0 and not (occupied >> cell) & 1:
                nxt = neighbour[cell, d]
                last = nxt < 0 or (occupied >> nxt) & 1
                if not (star_mask >> cell) & 1 and (last or (star_mask >> nxt) & 1 or (slide_stops >> cell) & 1):
                    ends |= _ONE << cell
                cell = nxt
        return ends
    # hoops: the cells reachable by exactly `hoops_steps` single steps over free squares
    here = _ONE << start
    for _ in range(hoops_steps):
        nxt = np.int64(0)
        rest = here
        while rest:
            low = rest & -rest
            nxt |= around[bit_index(low)]
            rest ^= low
        here = nxt & ~occupied
    return here & ~star_mask


@njit(cache=True)
def generate(seat: Int, masks: Arr, orient: Arr, tb_neighbour: Arr, tb_diagonal: Arr, tb_around: Arr, tb_tips: Arr,
             tb_hop: Arr, star_mask: Arr, target: Arr, rules: Arr, opt: Arr) -> tuple[Int, Int]:
    """`seat`'s moves as option rows (from, tip, mask of destinations, scored) in `opt`, in the
    engine's order; returns (rows, moves).  A scored row has mask 1 and counts one move."""
    occupied = masks[0] | masks[1]
    mine = masks[seat]
    near = np.int64(0)
    touching = rules[R_NO_TOUCHING]
    if touching:
        theirs = masks[1 - seat]
        while theirs:
            low = theirs & -theirs
            near |= tb_around[bit_index(low)]
            theirs ^= low
    rows = 0
    moves = 0
    rest = mine
    while rest:
        low = rest & -rest
        cell = bit_index(low)
        rest ^= low
        others = occupied & ~low
        mine_left = mine & ~low
        if touching and mine_left & near:
            continue  # a block that stays put already touches: no move of this block is legal
        o = orient[cell]
        for d in range(4):
            onto = tb_neighbour[cell, d]
            if onto < 0 or (others >> onto) & 1:
                continue
            turned = tb_tips[o, d]
            kind = tb_hop[turned]
            if (star_mask >> onto) & 1:
                if onto == target[seat] and kind == SCORE:
                    opt[rows, 0] = cell
                    opt[rows, 1] = d
                    opt[rows, 2] = 1
                    opt[rows, 3] = 1
                    rows += 1
                    moves += 1
                continue
            if kind == SCORE:
                continue
            ends = hop_ends(kind, onto, others, tb_neighbour, tb_diagonal, tb_around, star_mask, rules[R_HOPS_STEPS],
                            rules[R_SLIDE_STOPS])
            if ends == 0 and rules[R_ENDS_TURN]:
                ends = _ONE << onto
            if touching:
                ends &= ~near
            if ends:
                opt[rows, 0] = cell
                opt[rows, 1] = d
                opt[rows, 2] = ends
                opt[rows, 3] = 0
                rows += 1
                moves += popcount(ends)
    return rows, moves


@njit(cache=True)
def pick(opt: Arr, rows: Int, k: Int) -> tuple[Int, Int, Int]:
    """The k-th move (from, tip, to; to = -1: scored) of the option rows."""
    for r in range(rows):
        if opt[r, 3]:
            if k == 0:
                return opt[r, 0], opt[r, 1], -1
            k -= 1
            continue
        ends = opt[r, 2]
        n = popcount(ends)
        if k < n:
            for _ in range(k):
                ends &= ends - 1
            return opt[r, 0], opt[r, 1], bit_index(ends & -ends)
        k -= n
    return -1, -1, -1


@njit(cache=True)
def advance(st: Arr, seat: Int, masks: Arr, orient: Arr, tb_neighbour: Arr, tb_diagonal: Arr, tb_around: Arr,
            tb_tips: Arr, tb_hop: Arr, star_mask: Arr, target: Arr, rules: Arr, opt: Arr) -> tuple[Int, Int]:
    """`seat` moves next if it can, else passes if the other can, else the game ends (engine `_advance`).
    Returns (option rows, moves) of the new mover (the rows in `opt`)."""
    rows, n = generate(seat, masks, orient, tb_neighbour, tb_diagonal, tb_around, tb_tips, tb_hop, star_mask,
                       target, rules, opt)
    if n == 0:
        other = 1 - seat
        rows, n = generate(other, masks, orient, tb_neighbour, tb_diagonal, tb_around, tb_tips, tb_hop, star_mask,
                           target, rules, opt)
        if n == 0:
            a, b = st[LEFT0], st[LEFT1]
            draw = a == b or rules[R_BLOCKED_DRAW]
            st[WINNER] = -1 if draw else (0 if a < b else 1)
            st[DRAW] = draw
            st[END] = 2
            st[MOVER] = -2
            return 0, 0
        if not st[PASSING]:
            st[SPELL0 + seat] += 1
        st[PASS0 + seat] += 1
        st[PASSING] = 1
        seat = other
    else:
        st[PASSING] = 0
    st[MOVER] = seat
    if st[TURNS] >= rules[R_MAX_TURNS]:
        st[UNFINISHED] = 1
        st[END] = 3
        st[MOVER] = -2
        return 0, 0
    return rows, n


@njit(cache=True)
def play_move(st: Arr, masks: Arr, orient: Arr, frm: Int, tip: Int, to: Int, tb_neighbour: Arr, tb_diagonal: Arr,
              tb_around: Arr, tb_tips: Arr, tb_hop: Arr, star_mask: Arr, target: Arr, rules: Arr,
              opt: Arr) -> tuple[Int, Int]:
    """The mover plays (from, tip, to) (to = -1: scores the block), then play advances (engine
    `apply`).  Returns (option rows, moves) of the next mover (the rows in `opt`); a game that
    ends leaves the mover -2."""
    seat = st[MOVER]
    o = orient[frm]
    orient[frm] = -1
    masks[seat] &= ~(_ONE << frm)
    st[TURNS] += 1
    if to < 0:
        st[LEFT0 + seat] -= 1
        st[SCORED0 + seat] += 1
        if st[LEFT0 + seat] == 0:
            st[WINNER] = seat
            st[END] = 1
            st[MOVER] = -2
            return 0, 0
    else:
        orient[to] = tb_tips[o, tip]
        masks[seat] |= _ONE << to
    return advance(st, 1 - seat, masks, orient, tb_neighbour, tb_diagonal, tb_around, tb_tips, tb_hop, star_mask,
                   target, rules, opt)


@njit(cache=True)
def play_games(orientations: Arr, keys: Arr, tb_neighbour: Arr, tb_diagonal: Arr, tb_around: Arr, tb_tips: Arr,
               tb_hop: Arr, star_mask: Arr, target: Arr, rules: Arr, starts: Arr, out: Arr, scored: Arr,
               histories: Arr) -> None:
    """Play one random game per row of `orientations` (the setup: orientation per block, seat 0's
    blocks in start order, then seat 1's).  `out[g]` gets the final game vector, `scored[g, s, k]`
    the turn of seat s's k-th scored block; game g's moves go to `histories[g]` (rows
    (from, tip, to)) when g < len(histories)."""
    cells = tb_neighbour.shape[0]
    orient = np.full(cells, -1, dtype=np.int64)
    masks = np.zeros(2, dtype=np.int64)
    opt = np.zeros((OPTION_ROOM, 4), dtype=np.int64)
    for g in range(orientations.shape[0]):
        st = out[g]
        st[:] = 0
        st[WINNER] = -1
        orient[:] = -1
        masks[:] = 0
        set_up(st, masks, orient, orientations[g], starts, rules)
        rows, n = advance(st, rules[R_FIRST], masks, orient, tb_neighbour, tb_diagonal, tb_around, tb_tips, tb_hop, star_mask,
                          target, rules, opt)
        key = keys[g]
        while st[MOVER] >= 0:
            seat = st[MOVER]
            k = draw_index(key, st[TURNS], n)
            frm, tip, to = pick(opt, rows, k)
            if g < histories.shape[0] and st[TURNS] < histories.shape[1]:
                histories[g, st[TURNS], 0] = frm
                histories[g, st[TURNS], 1] = tip
                histories[g, st[TURNS], 2] = to
            rows, n = play_move(st, masks, orient, frm, tip, to, tb_neighbour, tb_diagonal, tb_around, tb_tips,
                                tb_hop, star_mask, target, rules, opt)
            if to < 0:
                scored[g, seat, st[SCORED0 + seat] - 1] = st[TURNS]


class KernelResult:
    """Per game: the final game vectors `out`, the scoring turns and the recorded move histories."""

    def __init__(self, out: Arr, scored: Arr, histories: Arr) -> None:
        self.out, self.scored, self.histories = out, scored, histories

    def record(self, g: int) -> tuple[tuple[int, ...], bool, int, dict]:
        """(winners, unfinished, length, stats) of game g, as the engine's `winners()`,
        `is_unfinished()`, `length()` and `stats()` give them."""
        st = self.out[g].tolist()
        scored = self.scored[g].tolist()
        winner = st[WINNER]
        stats = {"passes": [st[PASS0], st[PASS1]], "blocked_spells": [st[SPELL0], st[SPELL1]],
                 "scored_turns": [scored[0][:st[SCORED0]], scored[1][:st[SCORED1]]], "end": ENDS[st[END]]}
        return (winner,) if winner >= 0 else (), bool(st[UNFINISHED]), st[TURNS], stats

    def history(self, g: int) -> list[tuple[int, int, int]]:
        """The moves (from, tip, to) of recorded game g."""
        return [tuple(row) for row in self.histories[g, :self.out[g, TURNS]].tolist()]


def play_setups(game: DeblockleGame, orientations: ArrayLike, move_keys: Arr, recorded: int = 0) -> KernelResult:
    """Random self-play of one game per row of `orientations` (as `play_games` takes them),
    moves drawn from the stream of `move_keys[g]`; the histories of the first `recorded` games are kept."""
    t = tables_of(game)
    orientations = np.asarray(orientations, dtype=np.int64).reshape(len(move_keys), -1)
    count = len(orientations)
    out = np.zeros((count, FIELDS), dtype=np.int64)
    scored = np.zeros((count, 2, max(game.rules.counts)), dtype=np.int64)
    histories = np.zeros((min(recorded, count), game.rules.max_turns, 3), dtype=np.int64)
    keys = np.asarray(move_keys, dtype=np.uint64)
    play_games(orientations, keys, t.neighbour, t.diagonal, t.around, t.tips, t.hop, t.star_mask, t.target, t.rules,
               t.starts, out, scored, histories)
    return KernelResult(out, scored, histories)

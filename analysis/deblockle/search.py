"""Deblockle's greedy and MCTS agents on the compiled path: the same choices as their Python twins.

`agents.GreedyAgent` and the MCTS of `agents.python_mcts` (the generic `analysis/mcts.py` over
the reference engine, with rush rollouts, the race estimate and the promising moves) are the
readable definitions.  This module plays them in `numba.njit(cache=True)` functions over the
kernel's position (`kernel.py`: a game vector, the seats' cell masks, the orientation per
cell) and gives the same move for every position and seed:

- the moves are the kernel's, in the engine's order (`kernel.generate`), and a move is played
  by `kernel.play_move`, the kernel's own `apply`;
- the turns-to-score table is an array `[seat, cell, orientation]` (`agents.NEVER` where the
  block can never score alone), so every gain, total and estimate is the Python agents' integer
  or float, computed in the same order;
- every random draw is the Python agent's: the agent's `random.Random` is handed over as its
  Mersenne Twister state (`analysis/mersenne.py`, the compiled copy of CPython's generator),
  the compiled search draws `randrange` exactly where the Python one does (ties, untried moves,
  rollout ties, including `randrange(1)` for a lone rollout move), and the state is handed back,
  so the rest of the game draws what it would have drawn after the Python agent's move.

The tree of `mcts_choice` is the compiled tree every compiled search shares (`analysis/uct.py`,
the twin of `analysis/mcts.py`'s); this module gives it Deblockle's positions, promising moves
and rollouts.  `tests/test_deblockle_search.py` compares the compiled and the Python agents
move for move, on positions and over whole games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike
from boardlab.analysis.jit import njit

from boardlab.analysis import uct
from boardlab.analysis.deblockle import kernel
from boardlab.analysis.deblockle.kernel import LEFT0, MOVER, OPTION_ROOM, UNFINISHED, WINNER, generate, play_move
from boardlab.analysis.mersenne import STATE_WORDS, give_back, randrange, seed_state, twister_of

_ONE = np.int64(1)
#: a compiled function's array argument, and its integer (a Python int, or numpy's inside the kernel)
Arr = np.ndarray
Int = int | np.integer

if TYPE_CHECKING:
    from boardlab.analysis.deblockle.board import Move
    from boardlab.analysis.deblockle.engine import DeblockleGame, DeblockleState


class SearchTables:
    """The kernel's tables and the turns-to-score table as arrays (built once per game object)."""

    def __init__(self, game: DeblockleGame, never: int) -> None:
        self.kernel = kernel.tables_of(game)
        cells, orientations = game.board.cells, len(game.cube.orientations)
        tts = np.full((2, cells, orientations), never, dtype=np.int64)
        for seat in range(2):
            for (cell, orientation), turns in game.turns_to_score[seat].items():
                tts[seat, cell, orientation] = turns
        self.tts = tts
        # the most moves of a position: every block tipped four ways onto every square
        self.room = max(game.rules.counts) * 4 * cells + 1


def search_tables(game: DeblockleGame, never: int) -> SearchTables | None:
    """The game's `SearchTables`, or None when the kernel cannot play its board."""
    if game.board.cells > 62 or 4 * max(game.rules.counts) > OPTION_ROOM:
        return None
    tables = game.__dict__.get("_search_tables")
    if tables is None:
        tables = game.__dict__["_search_tables"] = SearchTables(game, never)
    return tables


def position_arrays(state: DeblockleState) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game vector, masks, orientations) of an engine state between turns, as the kernel keeps them."""
    st = np.zeros(kernel.FIELDS, dtype=np.int64)
    st[MOVER] = state.mover
    st[kernel.TURNS] = state.turns
    st[WINNER] = -1
    st[kernel.PASSING] = int(state._passing)
    st[LEFT0], st[LEFT0 + 1] = state.left
    masks = np.array(state.masks, dtype=np.int64)
    orient = np.array(state.orientation, dtype=np.int64)
    return st, masks, orient


# -- the pieces both agents use ---------------------------------------------------------------
@njit(cache=True)
def list_moves(opt: np.ndarray, rows: Int, out: np.ndarray) -> Int:
    """The moves of the option rows into `out` (rows from, tip, to) in the engine's order; returns their number."""
    m = 0
    for r in range(rows):
        if opt[r, 3]:
            out[m, 0], out[m, 1], out[m, 2] = opt[r, 0], opt[r, 1], -1
            m += 1
            continue
        ends = opt[r, 2]
        while ends:
            low = ends & -ends
            out[m, 0], out[m, 1], out[m, 2] = opt[r, 0], opt[r, 1], kernel.bit_index(low)
            m += 1
            ends ^= low
    return m


@njit(cache=True)
def total_turns(tts: np.ndarray, seat: Int, masks: np.ndarray, orient: np.ndarray) -> Int:
    """`agents.total_turns`: the table's turns summed over `seat`'s blocks."""
    total = 0
    rest = masks[seat]
    while rest:
        low = rest & -rest
        cell = kernel.bit_index(low)
        total += tts[seat, cell, orient[cell]]
        rest ^= low
    return total


@njit(cache=True)
def move_gain(tts: np.ndarray, tips: np.ndarray, seat: Int, orient: np.ndarray, frm: Int, tip: Int, to: Int) -> Int:
    """`agents.move_gain`: how much the move lowers `seat`'s total."""
    before = tts[seat, frm, orient[frm]]
    if to < 0:
        return before
    return before - tts[seat, to, tips[orient[frm], tip]]


@njit(cache=True)
def pick_best(scores: np.ndarray, m: Int, mt: np.ndarray) -> Int:
    """`agents.pick_best`: the index of a highest of `scores[:m]`, ties uniformly by `randrange`
    (the j-th of the highest, in order: two passes, nothing allocated)."""
    top = scores[0]
    for k in range(1, m):
        if scores[k] > top:
            top = scores[k]
    count = 0
    for k in range(m):
        if scores[k] == top:
            count += 1
    j = randrange(mt, count)
    for k in range(m):
        if scores[k] == top:
            if j == 0:
                return k
            j -= 1
    return -1  # not reached: j < count


@njit(cache=True)
def rush_pick(tts: np.ndarray, tips: np.ndarray, seat: Int, orient: np.ndarray, moves: np.ndarray, m: Int, mt: np.ndarray,
              scores: np.ndarray) -> Int:
    """`agents.RushAgent(noise=0)`: a move of largest gain, ties (and a lone move) by `randrange`."""
    if m == 1:
        return randrange(mt, 1)
    for k in range(m):
        scores[k] = move_gain(tts, tips, seat, orient, moves[k, 0], moves[k, 1], moves[k, 2])
    return pick_best(scores, m, mt)


# -- greedy -----------------------------------------------------------------------------------
@njit(cache=True)
def greedy_choice(st: Arr, masks: Arr, orient: Arr, neighbour: Arr, diagonal: Arr, around: Arr, tips: Arr, hop: Arr,
                  star_mask: Arr, target: Arr, rules: Arr, tts: Arr, mt: Arr, room: Int) -> Int:
    """The index (in the engine's move order) of `agents.GreedyAgent`'s move in this position."""
    opt = np.zeros((OPTION_ROOM, 4), dtype=np.int64)
    seat = st[MOVER]
    other = 1 - seat
    rows, _ = generate(seat, masks, orient, neighbour, diagonal, around, tips, hop, star_mask, target, rules, opt)
    moves = np.empty((room, 3), dtype=np.int64)
    replies = np.empty((room, 3), dtype=np.int64)
    m = list_moves(opt, rows, moves)
    if m == 1:
        return 0
    s2, masks2, orient2 = np.empty_like(st), np.empty_like(masks), np.empty_like(orient)
    scores = np.empty(m, dtype=np.float64)
    for k in range(m):
        s2[:] = st
        masks2[:] = masks
        orient2[:] = orient
        r2, _ = play_move(s2, masks2, orient2, moves[k, 0], moves[k, 1], moves[k, 2], neighbour, diagonal, around,
                          tips, hop, star_mask, target, rules, opt)
        if s2[MOVER] < 0:
            if s2[UNFINISHED]:
                score = 0.0
            elif s2[WINNER] == seat:
                score = math.inf
            else:
                score = -math.inf
        else:
            theirs = total_turns(tts, other, masks2, orient2)
            if s2[MOVER] == other:
                n2 = list_moves(opt, r2, replies)
                most = -(1 << 40)
                for j in range(n2):
                    g = move_gain(tts, tips, other, orient2, replies[j, 0], replies[j, 1], replies[j, 2])
                    if g > most:
                        most = g
                theirs -= most
            score = float(theirs - total_turns(tts, seat, masks2, orient2))
        scores[k] = score
    return pick_best(scores, m, mt)


# -- MCTS -------------------------------------------------------------------------------------
@njit(cache=True)
def mcts_choice(st0: Arr, masks0: Arr, orient0: Arr, neighbour: Arr, diagonal: Arr, around: Arr, tips: Arr, hop: Arr,
                star_mask: Arr, target: Arr, rules: Arr, tts: Arr, mt: Arr, room: Int, iterations: Int,
                exploration: float, plies: Int, margin: Int, scale: float) -> tuple[Int, Int, Int]:
    """(from, tip, to) of the move `agents.python_mcts` plays in this position (see the module
    docstring): the tree is `analysis/uct.py`'s, the positions, candidates and rollouts are Deblockle's."""
    opt = np.zeros((OPTION_ROOM, 4), dtype=np.int64)
    moves = np.empty((room, 3), dtype=np.int64)
    ints, value, pool, kids = uct.new_tree(iterations, 3, room)
    used = 0
    count = 1
    st, masks, orient = np.empty_like(st0), np.empty_like(masks0), np.empty_like(orient0)
    path = np.empty(iterations + 1, dtype=np.int64)
    gains = np.empty(room, dtype=np.int64)
    scores = np.empty(room, dtype=np.float64)
    returns = np.zeros(2, dtype=np.float64)
    rows = 0
    for _ in range(iterations):
        st[:] = st0
        masks[:] = masks0
        orient[:] = orient0
        if not uct.reached(ints, 0):  # the root's moves are listed once, in the first iteration
            rows, _ = generate(st[MOVER], masks, orient, neighbour, diagonal, around, tips, hop, star_mask, target,
                               rules, opt)
        node = 0
        path[0] = 0
        depth = 1
        while st[MOVER] >= 0:
            player = st[MOVER]
            if not uct.reached(ints, node):  # first reached: the promising moves of its position
                m = list_moves(opt, rows, moves)
                best = -(1 << 40)
                for k in range(m):
                    gains[k] = move_gain(tts, tips, player, orient, moves[k, 0], moves[k, 1], moves[k, 2])
                    if gains[k] > best:
                        best = gains[k]
                c = 0
                for k in range(m):  # kept in place, in order
                    if m <= 1 or gains[k] >= best - margin:
                        moves[c, 0], moves[c, 1], moves[c, 2] = moves[k, 0], moves[k, 1], moves[k, 2]
                        c += 1
                pool, kids, used = uct.open_node(ints, pool, kids, used, node, moves, c)
            expanding = uct.untried(ints, node)
            if expanding:  # expansion: one untried move drawn at random, then the rollout
                node = uct.expand(ints, pool, kids, node, count, player, mt)
                count += 1
            else:  # selection: UCT over the children
                node = uct.select(ints, value, kids, node, exploration)
            rows, _ = play_move(st, masks, orient, ints[node, uct.MOVE], ints[node, uct.MOVE + 1],
                                ints[node, uct.MOVE + 2], neighbour, diagonal, around, tips, hop, star_mask, target,
                                rules, opt)
            path[depth] = node
            depth += 1
            if expanding:
                break
        # roll out: `plies` rush moves, then the result or the race estimate
        played = 0
        while st[MOVER] >= 0 and played < plies:
            m = list_moves(opt, rows, moves)
            k = rush_pick(tts, tips, st[MOVER], orient, moves, m, mt, scores)
            rows, _ = play_move(st, masks, orient, moves[k, 0], moves[k, 1], moves[k, 2], neighbour, diagonal, around,
                                tips, hop, star_mask, target, rules, opt)
            played += 1
        returns[0], returns[1] = 0.0, 0.0
        if st[MOVER] < 0:
            if not st[UNFINISHED] and st[WINNER] >= 0:
                returns[st[WINNER]] = 1.0
        else:
            me = st[MOVER]
            lead = total_turns(tts, 1 - me, masks, orient) - total_turns(tts, me, masks, orient) + 0.5
            p = 1.0 / (1.0 + math.exp(-lead / scale))
            returns[me], returns[1 - me] = p, 1.0 - p
        uct.back_up(ints, value, path, depth, returns)
    pick = uct.best(ints, value, kids)
    return ints[pick, uct.MOVE], ints[pick, uct.MOVE + 1], ints[pick, uct.MOVE + 2]


# -- the calls from the agents ----------------------------------------------------------------
def greedy_move(state: DeblockleState, rng: random.Random, tables: SearchTables) -> Move:
    """`GreedyAgent().choose(state, rng)` on the compiled path (rng advanced the same)."""
    t = tables.kernel
    st, masks, orient = position_arrays(state)
    mt = twister_of(rng)
    k = greedy_choice(st, masks, orient, t.neighbour, t.diagonal, t.around, t.tips, t.hop, t.star_mask, t.target,
                      t.rules, tables.tts, mt, tables.room)
    give_back(rng, mt)
    return state.legal_moves()[k]


def mcts_move(state: DeblockleState, rng: random.Random, tables: SearchTables, iterations: int, exploration: float,
              plies: int, margin: int, scale: float) -> Move:
    """The compiled twin of the Python MCTS agent's `choose` (rng advanced the same)."""
    from boardlab.analysis.deblockle.board import Move

    t = tables.kernel
    st, masks, orient = position_arrays(state)
    mt = twister_of(rng)
    frm, tip, to = mcts_choice(st, masks, orient, t.neighbour, t.diagonal, t.around, t.tips, t.hop, t.star_mask,
                               t.target, t.rules, tables.tts, mt, tables.room, iterations, exploration, plies, margin,
                               scale)
    give_back(rng, mt)
    return Move(int(frm), int(tip), int(to))


# -- whole games ------------------------------------------------------------------------------
#: what a seat plays in `play_agent_games`
RANDOM, GREEDY, MCTS = range(3)


@njit(cache=True)
def play_agent_games(orientations: Arr, seeds: Arr, kinds: Arr, budgets: Arr, neighbour: Arr, diagonal: Arr, around: Arr,
                     tips: Arr, hop: Arr, star_mask: Arr, target: Arr, rules: Arr, starts: Arr, tts: Arr, room: Int,
                     exploration: float, plies: Int, margin: Int, scale: float, out: Arr, scored: Arr) -> None:
    """Games as `runner.play_one` plays them with these agents: row g of `orientations` is the
    setup (as `kernel.play_games` takes it), seat s of game g plays `kinds[g, s]` (RANDOM: the
    common random agent, `randrange` over the moves; GREEDY; MCTS with `budgets[g, s]`
    iterations) drawing from `random.Random(seeds[g, s])`.  `out[g]` and `scored[g]` as
    `kernel.play_games` fills them."""
    cells = neighbour.shape[0]
    orient = np.full(cells, -1, dtype=np.int64)
    masks = np.zeros(2, dtype=np.int64)
    opt = np.zeros((OPTION_ROOM, 4), dtype=np.int64)
    mts = np.zeros((2, STATE_WORDS), dtype=np.uint32)
    for g in range(orientations.shape[0]):
        st = out[g]
        st[:] = 0
        st[WINNER] = -1
        orient[:] = -1
        masks[:] = 0
        for seat in range(2):
            seed_state(mts[seat], seeds[g, seat])
        kernel.set_up(st, masks, orient, orientations[g], starts, rules)
        rows, n = kernel.advance(st, rules[kernel.R_FIRST], masks, orient, neighbour, diagonal, around, tips, hop,
                                 star_mask, target, rules, opt)
        while st[MOVER] >= 0:
            seat = st[MOVER]
            mt = mts[seat]
            kind = kinds[g, seat]
            if kind == RANDOM:
                frm, tip, to = kernel.pick(opt, rows, randrange(mt, n))
            elif kind == GREEDY:
                frm, tip, to = kernel.pick(opt, rows, greedy_choice(st, masks, orient, neighbour, diagonal, around,
                                                                    tips, hop, star_mask, target, rules, tts, mt,
                                                                    room))
            elif n == 1:
                frm, tip, to = kernel.pick(opt, rows, 0)
            else:
                frm, tip, to = mcts_choice(st, masks, orient, neighbour, diagonal, around, tips, hop, star_mask,
                                           target, rules, tts, mt, room, budgets[g, seat], exploration, plies,
                                           margin, scale)
            rows, n = play_move(st, masks, orient, frm, tip, to, neighbour, diagonal, around, tips, hop, star_mask,
                                target, rules, opt)
            if to < 0:
                scored[g, seat, st[kernel.SCORED0 + seat] - 1] = st[kernel.TURNS]


def play_agents(game: DeblockleGame, orientations: Sequence | Arr, seeds: ArrayLike, kinds: ArrayLike, budgets: ArrayLike,
                tables: SearchTables, exploration: float, plies: int, margin: int, scale: float) -> kernel.KernelResult:
    """`play_agent_games` of one game per row of `orientations` (arrays as it takes them)."""
    t = tables.kernel
    count = len(orientations)
    out = np.zeros((count, kernel.FIELDS), dtype=np.int64)
    scored = np.zeros((count, 2, max(game.rules.counts)), dtype=np.int64)
    play_agent_games(np.asarray(orientations, dtype=np.int64).reshape(count, -1), np.asarray(seeds, dtype=np.uint64),
                     np.asarray(kinds, dtype=np.int64), np.asarray(budgets, dtype=np.int64), t.neighbour, t.diagonal,
                     t.around, t.tips, t.hop, t.star_mask, t.target, t.rules, t.starts, tables.tts, tables.room,
                     exploration, plies, margin, scale, out, scored)
    return kernel.KernelResult(out, scored, np.zeros((0, 1, 3), dtype=np.int64))

"""Blockd's MCTS on the compiled path: every iteration of a decision in one compiled call.

`mcts.MCTS` over the reference engine (`engine.BlockdState`) with random rollouts is the readable
definition: it clones the root state per iteration, applies move codes in Python and hands each
rollout to the kernel (`BlockdState.random_playout`).  `mcts_choice` runs the same search over
the kernel's position arrays (`kernel.py`) and the compiled tree every compiled search shares
(`analysis/uct.py`), and plays the same move for every position and seed:

- a node's untried moves are listed in the engine's order (`BlockdState.legal_codes`: the plain
  destinations ascending, then per restorable card ascending its destinations ascending), from
  the kernel's `moves`, the engine's `moves_of` (the kernel's tests hold them equal);
- a move is played by the kernel's `apply_move`, the engine's `apply`;
- every random draw is the Python search's, from the search's `random.Random` handed over as its
  Mersenne Twister state (`analysis/mersenne.py`): `randrange` for the untried move a node
  expands, and `getrandbits(64)` per rollout (none when the expansion ended the game), the key
  of the kernel's random play to the end (`kernel.play_on`, as `random_playout` calls it); the
  state is handed back, so the rest of the game draws what it would have after the Python move.

Per decision, Python builds the root's arrays and hands the generator over and back; the
iterations allocate nothing (the tree, the scratch position and the move list are made once per
decision).  `tests/test_blockd_search.py` compares the compiled and the Python search move for
move and draw for draw, on positions and over whole games.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from boardlab.analysis import uct
from boardlab.analysis.blockd import kernel
from boardlab.analysis.blockd.kernel import DONE, MOVER, UNFINISHED, WINNER, low_index
from boardlab.analysis.jit import njit
from boardlab.analysis.mersenne import getrandbits64, give_back, twister_of

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdState

Arr = np.ndarray
Int = int | np.integer


@njit(cache=True)
def list_moves(plain: Int, restorable: Int, via: Arr, out: Arr) -> Int:
    """The moves of the kernel's masks into `out` as rows (restore, to), in the engine's order
    (`BlockdState.legal_codes`); returns their number."""
    m = 0
    rest = plain
    while rest:
        out[m, 0], out[m, 1] = -1, low_index(rest)
        m += 1
        rest &= rest - 1
    r = restorable
    while r:
        k = low_index(r)
        rest = via[k]
        while rest:
            out[m, 0], out[m, 1] = k, low_index(rest)
            m += 1
            rest &= rest - 1
        r &= r - 1
    return m


@njit(cache=True)
def mcts_choice(st0: Arr, pawns0: Arr, marked0: Arr, bonus0: Arr, cls: Arr, suit: Arr, rules: Arr, masks: Arr,
                bits: Arr, lo: Arr, hi: Arr, mt: Arr, iterations: Int, exploration: float, weighting: Int,
                room: Int) -> tuple[Int, Int]:
    """(restore, to) of the move `mcts.MCTS(iterations, random rollouts, exploration)` plays from
    this position (see the module docstring); `room`: at least the most moves of a position."""
    n = rules[kernel.R_PLAYERS]
    ints, value, pool, kids = uct.new_tree(iterations, 2, room)
    used = 0
    count = 1
    st, pawns, marked, bonus = np.empty_like(st0), np.empty_like(pawns0), np.empty_like(marked0), np.empty_like(bonus0)
    elim = np.zeros((n, 2), dtype=np.int64)
    via = np.zeros(64, dtype=np.int64)
    listed = np.empty((room, 2), dtype=np.int64)
    path = np.empty(iterations + 1, dtype=np.int64)
    returns = np.zeros(n, dtype=np.float64)
    no_history = np.zeros((0, 3), dtype=np.int64)
    for _ in range(iterations):
        st[:] = st0
        pawns[:] = pawns0
        marked[:] = marked0
        bonus[:] = bonus0
        node = 0
        path[0] = 0
        depth = 1
        while not st[DONE]:
            player = st[MOVER]
            if not uct.reached(ints, node):  # first reached: its legal moves, in the engine's order
                plain, restorable = kernel.moves(st, pawns, bonus, cls, rules, masks, bits, lo, hi, player, via)
                m = list_moves(plain, restorable, via, listed)
                pool, kids, used = uct.open_node(ints, pool, kids, used, node, listed, m)
            expanding = uct.untried(ints, node)
            if expanding:  # expansion: one untried move drawn at random, then the rollout
                node = uct.expand(ints, pool, kids, node, count, player, mt)
                count += 1
            else:  # selection: UCT over the children
                node = uct.select(ints, value, kids, node, exploration)
            kernel.apply_move(st, pawns, marked, bonus, cls, suit, rules, masks, bits, lo, hi, elim,
                              ints[node, uct.MOVE], ints[node, uct.MOVE + 1], via)
            path[depth] = node
            depth += 1
            if expanding:
                break
        if not st[DONE]:  # roll out: random play to the end, keyed by one 64-bit draw
            kernel.play_on(st, pawns, marked, bonus, cls, suit, rules, masks, bits, lo, hi, elim, getrandbits64(mt),
                           weighting, no_history, via)
        returns[:] = 0.0
        if not st[UNFINISHED] and st[WINNER] >= 0:
            returns[st[WINNER]] = 1.0
        uct.back_up(ints, value, path, depth, returns)
    pick = uct.best(ints, value, kids)
    return ints[pick, uct.MOVE], ints[pick, uct.MOVE + 1]


def root_arrays(state: BlockdState) -> tuple[Arr, Arr, Arr, Arr]:
    """(st, pawns, marked, bonus) of an engine state at a player's turn, as the kernel keeps them."""
    deal = state.deal
    assert deal is not None  # a dealt position
    st = np.array([state.down, deal.blind, state.mover, state.turns, state.round, state.last_mover, -1, 0,
                   int(state.tiebreak), state.restores_earned, state.restores_used, 0, 0, 0, 0], dtype=np.int64)
    return (st, np.array(state.pawns, dtype=np.int64), np.array(state.marked, dtype=np.int64),
            np.array(state.restore, dtype=np.int64))


def mcts_move(state: BlockdState, rng: random.Random, iterations: int, exploration: float, weighting: int) -> tuple[int, int]:
    """(restore, to) of the Python search's move from `state` by `mcts_choice` (`rng` advanced the
    same); the state is unchanged and must be at a player's turn, on rules the kernel plays."""
    t = kernel.tables_of(state.game)
    cls, suit = kernel.deal_arrays_of(state)
    st, pawns, marked, bonus = root_arrays(state)
    cells = state.game.grid.cells
    mt = twister_of(rng)
    restore, to = mcts_choice(st, pawns, marked, bonus, cls, suit, t.rules, t.walk_masks, t.walk_bits, t.walk_lo,
                              t.walk_hi, mt, iterations, exploration, weighting, cells * (cells + 1))
    give_back(rng, mt)
    return int(restore), int(to)

"""`trap_distance` compiled: a depth-first search on bitmasks over the kernel's walk tables.

`graph.trap_distance` is the readable reference (a breadth-first search over (cell, face-down
cards) pairs); `trap_distance` here answers the same question with the same reading of the
rules (the other pawns stand still, every move of the pawn turns the card it leaves face down
unless a stacked pawn keeps it up, no restore) by iterative deepening: for m = 1, 2, ...
`dead_end_within(m)` walks every sequence of at most m moves with an explicit stack of
destination masks and stops at the first that ends without a move.  It is used by
`boardlab tables blockd`; the tests compare the two on positions of every rule option.

>>> from boardlab.analysis.blockd.engine import _dealt_state
>>> from boardlab.analysis.blockd import graph
>>> state = _dealt_state()
>>> [trap_distance(state, seat) for seat in range(4)] == [graph.trap_distance(state, seat) for seat in range(4)]
True
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardlab.analysis.blockd import kernel
from boardlab.analysis.blockd.kernel import BLOCK, STACK, low_index


@njit(cache=True)
def _reach(masks, dests, skips, counts, c, cell, wall, landing):
    """Mask of the destinations of a pawn on `cell` (class c), given the walls and the landing mask."""
    out = np.int64(0)
    j = 0
    end = counts[c, cell]
    while j < end:
        bit = np.int64(1) << dests[c, cell, j]
        if not bit & landing:
            j = skips[c, cell, j]
        elif masks[c, cell, j] & wall == 0:
            out |= bit
            j = skips[c, cell, j]
        else:
            j += 1
    return out


@njit(cache=True)
def _dead_end_within(cls, masks, dests, skips, counts, start, down, blind, others, rule, keep_stacked, moves):
    """Whether some sequence of 1..`moves` moves from `start` ends on a cell without a move."""
    landing = ~others if rule != STACK else np.int64(-1)
    extra = others if rule == BLOCK else np.int64(0)
    at = np.zeros(moves, dtype=np.int64)
    downs = np.zeros(moves, dtype=np.int64)
    left = np.zeros(moves, dtype=np.int64)  # destinations still to try at each depth
    at[0], downs[0] = start, down
    left[0] = _reach(masks, dests, skips, counts, cls[start], start, down | blind | extra, landing)
    depth = 0
    while depth >= 0:
        if left[depth] == 0:
            depth -= 1
            continue
        to = low_index(left[depth])
        left[depth] &= left[depth] - 1
        here = at[depth]
        stays = keep_stacked and (others >> here) & 1
        after = downs[depth] if stays else downs[depth] | (np.int64(1) << here)
        onward = _reach(masks, dests, skips, counts, cls[to], to, after | blind | extra, landing)
        if onward == 0:
            return True
        if depth + 1 < moves:
            depth += 1
            at[depth], downs[depth], left[depth] = to, after, onward
    return False


def trap_distance(state, seat: int, horizon: int = 3) -> int | None:
    """`graph.trap_distance`, compiled (it falls back to it for rules the kernel does not play).

    :raises ValueError: when `horizon` is negative.
    """
    from boardlab.analysis.blockd import graph
    if horizon < 0:
        raise ValueError(f"horizon must not be negative, got {horizon}")
    game = state.game
    cell = state.pawns[seat]
    if cell < 0 or kernel.unsupported(game) is not None:
        return graph.trap_distance(state, seat, horizon)
    t = kernel.tables_of(game)
    layout = state.layout
    cls = kernel.deal_arrays_of(state)[0]
    others = state.pawn_mask(seat)
    rule = kernel.PAWNS[game.rules.pawns]
    keep = not game.flip_at_once
    landing = ~others if rule != STACK else -1
    wall = state.down | layout.blind | (others if rule == BLOCK else 0)
    if not _reach(t.masks, t.dests, t.skips, t.counts, cls[cell], cell, wall, landing):
        return 0
    for moves in range(1, horizon + 1):
        if _dead_end_within(cls, t.masks, t.dests, t.skips, t.counts, cell, state.down, layout.blind, others, rule,
                            keep, moves):
            return moves
    return None

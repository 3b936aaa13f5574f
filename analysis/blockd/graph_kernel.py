"""The measures of `graph.py` that `boardlab tables blockd` takes, compiled on bitmasks.

`graph.py` is the readable reference (networkx); here the move graph is one reach mask per
cell, made by the kernel's walk tables, and `graph_figures` gives dead cells, strongly
connected components (from each open cell's closure: u and v share a component when each is
in the other's closure) and per-cell reach masks for `reachable_count`.

`trap_distance` compiled: a depth-first search on bitmasks over the kernel's walk tables.

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

from typing import TYPE_CHECKING

import numpy as np
from boardlab.analysis.jit import njit

from boardlab.analysis.blockd import kernel
from boardlab.analysis.blockd.kernel import BLOCK, STACK, Arr, Int, low_index

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdState


@njit(cache=True, inline="always")
def _reach(masks: Arr, dests: Arr, skips: Arr, spans: Arr, c: Int, cell: Int, wall: Int, landing: Int) -> Int:
    """Mask of the destinations of a pawn on `cell` (class c), given the walls and the landing mask."""
    out = np.int64(0)
    j = spans[c, cell, 0]
    end = spans[c, cell, 1]
    while j < end:
        bit = np.int64(1) << dests[j]
        if not bit & landing:
            j = skips[j]
        elif masks[j] & wall == 0:
            out |= bit
            j = skips[j]
        else:
            j += 1
    return out


@njit(cache=True, inline="always")
def _has_reach(masks: Arr, dests: Arr, skips: Arr, spans: Arr, c: Int, cell: Int, wall: Int, landing: Int) -> bool:
    """Whether `_reach(...)` is not empty (stops at the first destination)."""
    j = spans[c, cell, 0]
    end = spans[c, cell, 1]
    while j < end:
        if not (landing >> dests[j]) & 1:
            j = skips[j]
        elif masks[j] & wall == 0:
            return True
        else:
            j += 1
    return False


@njit(cache=True)
def _dead_end_within(cls: Arr, masks: Arr, dests: Arr, skips: Arr, spans: Arr, start: Int, down: Int, blind: Int,
                     others: Int, rule: Int, keep_stacked: bool, moves: Int) -> bool:
    """Whether some sequence of 1..`moves` moves from `start` ends on a cell without a move."""
    landing = ~others if rule != STACK else np.int64(-1)
    extra = others if rule == BLOCK else np.int64(0)
    at = np.zeros(moves, dtype=np.int64)
    downs = np.zeros(moves, dtype=np.int64)
    left = np.zeros(moves, dtype=np.int64)  # destinations still to try at each depth
    at[0], downs[0] = start, down
    left[0] = _reach(masks, dests, skips, spans, cls[start], start, down | blind | extra, landing)
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
        if depth + 1 == moves:  # the last move: only whether `to` is a dead end matters
            if not _has_reach(masks, dests, skips, spans, cls[to], to, after | blind | extra, landing):
                return True
            continue
        onward = _reach(masks, dests, skips, spans, cls[to], to, after | blind | extra, landing)
        if onward == 0:
            return True
        depth += 1
        at[depth], downs[depth], left[depth] = to, after, onward
    return False


@njit(cache=True)
def _figures(cls: Arr, masks: Arr, dests: Arr, skips: Arr, spans: Arr, blocked: Int, pawn_mask: Int, rule: Int,
             reach: Arr) -> tuple[Int, Int, Int]:
    """Fill `reach[cell]` (the move graph) and return (dead cells, components, largest component)."""
    cells = reach.shape[0]
    for cell in range(cells):
        reach[cell] = 0
        if (blocked >> cell) & 1:
            continue
        others = pawn_mask & ~(np.int64(1) << cell)
        landing = ~others if rule != STACK else np.int64(-1)
        wall = blocked | (others if rule == BLOCK else np.int64(0))
        reach[cell] = _reach(masks, dests, skips, spans, cls[cell], cell, wall, landing)
    closure = np.zeros(cells, dtype=np.int64)
    dead = 0
    for cell in range(cells):
        if (blocked >> cell) & 1:
            continue
        dead += reach[cell] == 0
        seen = np.int64(1) << cell
        frontier = seen
        while frontier:
            following = np.int64(0)
            f = frontier
            while f:
                following |= reach[low_index(f)]
                f &= f - 1
            frontier = following & ~seen
            seen |= following
        closure[cell] = seen
    assigned = np.int64(0)
    parts = 0
    largest = 0
    for cell in range(cells):
        if (blocked >> cell) & 1 or (assigned >> cell) & 1:
            continue
        part = np.int64(0)
        c = closure[cell]
        while c:
            v = low_index(c)
            if (closure[v] >> cell) & 1:
                part |= np.int64(1) << v
            c &= c - 1
        assigned |= part
        parts += 1
        size = 0
        while part:
            part &= part - 1
            size += 1
        largest = max(largest, size)
    return dead, parts, largest


def graph_figures(state: BlockdState) -> tuple[int, int, int, list[int]] | None:
    """(dead cells, components, largest component size, reach mask per cell) of a dealt
    position's move graph, or None when the kernel does not play its rules."""
    game = state.game
    if kernel.unsupported(game) is not None:
        return None
    t = kernel.tables_of(game)
    reach = np.zeros(game.grid.cells, dtype=np.int64)
    dead, parts, largest = _figures(kernel.deal_arrays_of(state)[0], t.masks, t.dests, t.skips, t.spans,
                                    state.blocked, state.pawn_mask(), kernel.PAWNS[game.rules.pawns], reach)
    return int(dead), int(parts), int(largest), reach.tolist()


def reachable_count(reach: list[int], cell: int, turns: int) -> int:
    """How many cells other than `cell` a pawn there reaches within `turns` moves (`graph.reachable_within`)."""
    seen = frontier = 1 << cell
    for _ in range(turns):
        following = 0
        while frontier:
            low = frontier & -frontier
            following |= reach[low.bit_length() - 1]
            frontier ^= low
        frontier = following & ~seen
        seen |= following
    return seen.bit_count() - 1


def trap_distance(state: BlockdState, seat: int, horizon: int = 3) -> int | None:
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
    deal = state.deal
    assert deal is not None  # a dealt position
    cls = kernel.deal_arrays_of(state)[0]
    others = state.pawn_mask(seat)
    rule = kernel.PAWNS[game.rules.pawns]
    keep = not game.flip_at_once
    landing = ~others if rule != STACK else -1
    wall = state.down | deal.blind | (others if rule == BLOCK else 0)
    if not _reach(t.masks, t.dests, t.skips, t.spans, cls[cell], cell, wall, landing):
        return 0
    for moves in range(1, horizon + 1):
        if _dead_end_within(cls, t.masks, t.dests, t.skips, t.spans, cell, state.down, deal.blind, others, rule,
                            keep, moves):
            return moves
    return None

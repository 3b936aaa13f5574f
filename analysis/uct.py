"""The tree of `analysis/mcts.py` compiled: UCT's bookkeeping once, for every compiled search.

A compiled search (a game's kernel, e.g. `deblockle/search.py`) keeps its own positions,
candidate moves and rollouts, and leaves to these functions everything the tree decides: which
untried move a node expands, which child it selects, how a result is backed up and which move
is played in the end.  They decide as `mcts.MCTS` does (the readable twin), draw for draw:

- the tree is arrays with a row per node (a node per iteration at most; row 0 is the root):
  `ints[node]` holds the seat that moved into it (`MOVER`, -1 at the root), its `VISITS`, where
  its slices start (`AT`), how many untried moves it has left (`UNTRIED`, -1 until it is first
  reached: the Python node's None), how many children (`CHILDREN`), and from `MOVE` on the move
  into it (a game's move as `width` integers); `value[node]` sums the mover's results;
- a node's untried moves are a slice of `pool`, its candidates in the order the game lists them,
  kept in the order the Python list keeps them after each `pop(i)`; its children, in the order
  expanded (UCT's ties go to the first), are the same slice of `kids`;
- the one random draw of the tree, the untried move to expand, is `randrange` on the search's
  Mersenne Twister state (`analysis/mersenne.py`) where `MCTS` calls `rng.randrange`.

Chance inside the tree is not here (no compiled search needs it yet).  `tests/test_uct.py` grows
trees with these functions and with `MCTS` on the same games and seeds and finds them equal.
"""

from __future__ import annotations

import math

import numpy as np
from boardlab.analysis.jit import njit

from boardlab.analysis.mersenne import randrange

#: the columns of `ints`: the seat that moved into the node, its visits, where its slices of
#: `pool` and `kids` start, its untried moves left (-1: never reached), its children; then the move
MOVER, VISITS, AT, UNTRIED, CHILDREN, MOVE = range(6)


@njit(cache=True)
def new_tree(iterations: int, width: int, room: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(ints, value, pool, kids) of an empty tree for `iterations` iterations of moves `width`
    integers wide, with first room for `room` untried moves (it grows as needed)."""
    nodes = iterations + 1
    ints = np.zeros((nodes, MOVE + width), dtype=np.int64)
    ints[:, UNTRIED] = -1
    ints[0, MOVER] = -1
    return ints, np.zeros(nodes, dtype=np.float64), np.empty((room, width), dtype=np.int64), \
        np.empty(room, dtype=np.int64)


@njit(cache=True)
def reached(ints: np.ndarray, node: int) -> bool:
    """Whether `node` has been reached before (its untried moves are listed)."""
    return ints[node, UNTRIED] >= 0


@njit(cache=True)
def open_node(ints: np.ndarray, pool: np.ndarray, kids: np.ndarray, used: int, node: int, candidates: np.ndarray,
              count: int) -> tuple[np.ndarray, np.ndarray, int]:
    """List the first `count` rows of `candidates` as `node`'s untried moves (it is first
    reached); returns (pool, kids, used), grown when needed."""
    need = used + count
    if need > pool.shape[0]:
        size = max(need, 2 * pool.shape[0])
        grown = np.empty((size, pool.shape[1]), dtype=np.int64)
        grown[:used] = pool[:used]
        pool = grown
        more = np.empty(size, dtype=np.int64)
        more[:used] = kids[:used]
        kids = more
    pool[used:need] = candidates[:count]
    ints[node, AT] = used
    ints[node, UNTRIED] = count
    return pool, kids, need


@njit(cache=True)
def untried(ints: np.ndarray, node: int) -> bool:
    """Whether `node` has a move left to expand."""
    return ints[node, UNTRIED] > 0


@njit(cache=True)
def expand(ints: np.ndarray, pool: np.ndarray, kids: np.ndarray, node: int, child: int, player: int,
           mt: np.ndarray) -> int:
    """Expansion (`MCTS._iterate`): one untried move of `node`, drawn by `randrange`, becomes node
    `child` (the next free row), moved into by `player`; returns `child` (its move: `ints[child, MOVE:]`)."""
    return expand_at(ints, pool, kids, node, child, player, randrange(mt, ints[node, UNTRIED]))


@njit(cache=True)
def expand_at(ints: np.ndarray, pool: np.ndarray, kids: np.ndarray, node: int, child: int, player: int,
              j: int) -> int:
    """Expansion of untried move `j` of `node` (0: the first left, in the order the moves were
    listed), chosen by the search, not drawn: `expand` draws it; a flat search that tries the
    root's moves in order (Links' `kernel.search`) takes 0 every time."""
    at, left = ints[node, AT], ints[node, UNTRIED]
    ints[child, MOVE:] = pool[at + j]
    for i in range(at + j, at + left - 1):  # list.pop(j)
        pool[i] = pool[i + 1]
    ints[node, UNTRIED] = left - 1
    ints[child, MOVER] = player
    kids[at + ints[node, CHILDREN]] = child
    ints[node, CHILDREN] += 1
    return child


@njit(cache=True)
def select(ints: np.ndarray, value: np.ndarray, kids: np.ndarray, node: int, exploration: float) -> int:
    """Selection (`MCTS._select`): the child of best UCT score, ties to the first expanded."""
    log_parent = math.log(ints[node, VISITS])
    at = ints[node, AT]
    pick, top = -1, -math.inf
    for i in range(ints[node, CHILDREN]):
        child = kids[at + i]
        visits = ints[child, VISITS]
        score = value[child] / visits + exploration * math.sqrt(log_parent / visits)
        if score > top:
            pick, top = child, score
    return pick


@njit(cache=True)
def back_up(ints: np.ndarray, value: np.ndarray, path: np.ndarray, depth: int, returns: np.ndarray) -> None:
    """Every node of `path[:depth]` counts the iteration and adds the result of its mover."""
    for d in range(depth):
        node = path[d]
        ints[node, VISITS] += 1
        if ints[node, MOVER] >= 0:
            value[node] += returns[ints[node, MOVER]]


@njit(cache=True)
def best(ints: np.ndarray, value: np.ndarray, kids: np.ndarray) -> int:
    """`MCTS.best_move`: the root's most visited child, then the higher mean, then the first expanded."""
    at = ints[0, AT]
    pick = kids[at]
    for i in range(1, ints[0, CHILDREN]):
        child = kids[at + i]
        if ints[child, VISITS] > ints[pick, VISITS] or (
                ints[child, VISITS] == ints[pick, VISITS]
                and value[child] / ints[child, VISITS] > value[pick] / ints[pick, VISITS]):
            pick = child
    return pick

"""The move graph of a Blockd position (networkx) and what it says about the board.

`move_graph(state)` is a directed graph on all cells: an edge u -> v when a pawn standing on
u could end its move on v now, with the cards face down as they are now and the pawns where
they are (a pawn already on u is the one moving; every other pawn stays put and counts for
the `pawns` rule).  No restore is used.  A blocked cell (face down or blind) has no edges.

From it: mobility per cell (out-degree), dead cells (face-up cells with no way out), strongly
connected components, and the cells reachable within t turns.  The graph ignores that every
move turns a card face down; `trap_distance` does not.

>>> from boardlab.analysis.blockd.engine import _dealt_state
>>> state = _dealt_state()
>>> graph = move_graph(state)
>>> graph.number_of_nodes(), mobility(graph)[state.pawns[0]] == state.mobility(0)
(25, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

from boardlab.analysis.blockd.engine import destinations, has_destination, cells_of

if TYPE_CHECKING:
    from boardlab.analysis.blockd.engine import BlockdState


def _others(state: BlockdState, cell: int) -> int:
    """Pawns other than the ones standing on `cell` (one of which would be the mover)."""
    return state.pawn_mask() & ~(1 << cell)


def move_graph(state: BlockdState) -> nx.DiGraph:
    """The move graph of a dealt position (see the module docstring).

    Node attributes: `row`, `column`, `open` (face up) and `pawn` (seat standing there or -1).
    """
    grid = state.game.grid
    blocked = state.blocked
    graph = nx.DiGraph()
    for cell in range(grid.cells):
        row, column = grid.row_column(cell)
        seat = state.pawns.index(cell) if cell in state.pawns else -1
        graph.add_node(cell, row=row, column=column, open=not blocked >> cell & 1, pawn=seat)
    rule = state.game.rules.pawns
    deal = state.deal
    assert deal is not None  # a dealt position
    for cell in range(grid.cells):
        if blocked >> cell & 1:
            continue
        reach = destinations(deal.walks[cell], blocked, _others(state, cell), rule)
        graph.add_edges_from((cell, to) for to in cells_of(reach))
    return graph


def mobility(graph: nx.DiGraph) -> dict[int, int]:
    """Per face-up cell, how many cells a pawn there could end on (out-degree)."""
    return {cell: graph.out_degree(cell) for cell, data in graph.nodes(data=True) if data["open"]}


def dead_cells(graph: nx.DiGraph) -> list[int]:
    """Face-up cells from which a pawn would have no move (restore not counted), ascending."""
    return sorted(cell for cell, degree in mobility(graph).items() if degree == 0)


def components(graph: nx.DiGraph) -> list[list[int]]:
    """Strongly connected components of the face-up cells, largest first (ties: lowest cell first)."""
    open_cells = [cell for cell, data in graph.nodes(data=True) if data["open"]]
    parts = [sorted(part) for part in nx.strongly_connected_components(graph.subgraph(open_cells))]
    return sorted(parts, key=lambda part: (-len(part), part[0]))


def reachable_within(graph: nx.DiGraph, cell: int, turns: int) -> dict[int, int]:
    """Cells a pawn on `cell` can reach in at most `turns` moves, ignoring future flips,
    with the fewest moves for each (the start cell at 0).

    >>> g = nx.DiGraph([(0, 1), (1, 2), (2, 3)])
    >>> reachable_within(g, 0, 2)
    {0: 0, 1: 1, 2: 2}
    """
    return dict(sorted(nx.single_source_shortest_path_length(graph, cell, cutoff=turns).items()))


def trap_distance(state: BlockdState, seat: int, horizon: int = 3) -> int | None:
    """The fewest moves after which `seat`'s pawn could stand without a move, if it moved alone.

    Precisely: the opponents' pawns stand still and nothing else changes, except that every
    move of this pawn turns the card it leaves face down (as in play); no restore is used.
    The result is the smallest m >= 0 such that some sequence of m legal moves of the pawn
    ends on a cell from which it has no move: 0 when it has no move now, 1 when one of its
    moves leads to a dead end, and so on.  None when no sequence of at most `horizon` moves
    does (or the pawn has left the board).  Low values flag a pawn near a dead end; a pawn
    that plays carelessly can be out within that many of its own turns.

    :raises ValueError: when `horizon` is negative.
    """
    if horizon < 0:
        raise ValueError(f"horizon must not be negative, got {horizon}")
    cell = state.pawns[seat]
    if cell < 0:
        return None
    deal = state.deal
    assert deal is not None  # a dealt position
    walks, blind, rule = deal.walks, deal.blind, state.game.rules.pawns
    others = state.pawn_mask(seat)
    if not has_destination(walks[cell], state.down | blind, others, rule):
        return 0
    frontier = {(cell, state.down)}
    seen = set(frontier)
    for moves in range(1, horizon + 1):
        following = set()
        for at, down in frontier:
            reach = destinations(walks[at], down | blind, others, rule)
            keep = not state.game.flip_at_once and others >> at & 1  # a stacked pawn keeps the card up
            after = down if keep else down | 1 << at
            for to in cells_of(reach):
                if (to, after) in seen:
                    continue
                if not has_destination(walks[to], after | blind, others, rule):
                    return moves
                seen.add((to, after))
                following.add((to, after))
        frontier = following
    return None

"""The reachability graph of one Deblockle block alone on an empty board (networkx).

States are (cell, orientation) for every cell that is not a star square; an edge is one
legal turn of that block (tip and hop, by the engine's own move generator, with the
definition's rule options); every scoring tip leads to the one sink `SCORED`.  The fewest
turns to score from a state is its shortest-path distance to the sink, found by one
breadth-first search on the reversed graph.  A state from which the sink cannot be reached
is left out of the distance table (it never scores alone).

Distances depend on the seat: each player scores on the other's home star.

>>> from boardlab.layouts import load
>>> from boardlab.analysis.deblockle.engine import make_game
>>> game = make_game(load("deblockle"))
>>> graph = reachability_graph(game, 0)
>>> graph.number_of_nodes()                         # 47 squares x 24 orientations, and the sink
1129
>>> table = turns_to_score(game, 0)
>>> min(table.values()), len(table)
(1, 1128)
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from itertools import combinations_with_replacement, permutations
from math import factorial
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from boardlab.analysis.deblockle.engine import SCORED as _SCORED_MOVE

if TYPE_CHECKING:  # networkx is imported where the graph is built: a game played needs only `fewest_turns`
    import networkx as nx

    from boardlab.analysis.deblockle.engine import DeblockleGame

#: the sink of the graph: the block has been scored
SCORED = "scored"


def reachability_graph(game: DeblockleGame, seat: int) -> nx.DiGraph:
    """States (cell, orientation) of `seat`'s lone block and the turns between them.

    Every edge carries `moves`, the list of (tip direction, destination) giving it.
    """
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_node(SCORED)
    cube = game.cube
    states = [(cell, o) for cell in range(game.board.cells) if cell not in game.stars
              for o in range(len(cube.orientations))]
    graph.add_nodes_from(states)
    for cell, o in states:
        for move in game.moves_from(seat, cell, o, 1 << cell):
            target = SCORED if move.to == _SCORED_MOVE else (move.to, cube.tips[o][move.tip])
            if graph.has_edge((cell, o), target):
                graph[(cell, o)][target]["moves"].append((move.tip, move.to))
            else:
                graph.add_edge((cell, o), target, moves=[(move.tip, move.to)])
    return graph


def turns_to_score(game: DeblockleGame, seat: int, graph: nx.DiGraph | None = None) -> dict[tuple[int, int], int]:
    """Fewest turns for `seat`'s lone block to score from each (cell, orientation) that can."""
    import networkx as nx

    graph = reachability_graph(game, seat) if graph is None else graph
    lengths = nx.single_source_shortest_path_length(graph.reverse(copy=False), SCORED)
    return {state: d for state, d in lengths.items() if state != SCORED}


def fewest_turns(game: DeblockleGame, seat: int) -> dict[tuple[int, int], int]:
    """`turns_to_score` without networkx: the same breadth-first search from the sink, over the
    turns kept as plain lists (what every game played needs, at a fraction of the start-up: the
    graph's import and build cost a Deblockle command a third of a second). The tests hold the
    two equal on every definition and seat.

    >>> from boardlab.layouts import load
    >>> from boardlab.analysis.deblockle.engine import make_game
    >>> game = make_game(load("deblockle"))
    >>> fewest_turns(game, 1) == turns_to_score(game, 1)
    True
    """
    cube = game.cube
    into: dict = {SCORED: []}  # state -> the states one turn before it
    for cell in range(game.board.cells):
        if cell in game.stars:
            continue
        for o in range(len(cube.orientations)):
            for move in game.moves_from(seat, cell, o, 1 << cell):
                target = SCORED if move.to == _SCORED_MOVE else (move.to, cube.tips[o][move.tip])
                into.setdefault(target, []).append((cell, o))
    turns: dict[tuple[int, int], int] = {}
    frontier: deque = deque((before, 1) for before in into[SCORED])
    while frontier:
        state, distance = frontier.popleft()
        if state in turns:
            continue
        turns[state] = distance
        frontier.extend((before, distance + 1) for before in into.get(state, ()))
    return turns


def start_figures(game: DeblockleGame, seat: int, cell: int, table: dict) -> dict:
    """Turns to score from one start square over the 24 orientations: min, exact mean, max,
    and the adversarial placement (per rolled top face, the rotation that costs most).

    Values are None when some orientation can never score (its distance is infinite).
    """
    cube = game.cube
    turns = [table.get((cell, o)) for o in range(len(cube.orientations))]
    by_top: dict[str, dict[str, int | None]] = {}
    for face in cube.faces:
        options = [table.get((cell, o)) for o in cube.with_top(face)]
        by_top[face] = {"best": _min(options), "worst": _max(options)}
    known = [t for t in turns if t is not None]
    if len(known) < len(turns):
        return {"min": _min(turns), "mean": None, "max": None, "adversarial_mean": None,
                "adversarial_cost": None, "never": len(turns) - len(known), "by_top": by_top}
    mean = Fraction(sum(known), len(known))
    worst = [v["worst"] for v in by_top.values() if v["worst"] is not None]
    assert len(worst) == len(by_top)  # every orientation scores here, so every face has a worst
    adversarial = Fraction(sum(worst), len(by_top))
    return {"min": min(known), "mean": mean, "max": max(known), "adversarial_mean": adversarial,
            "adversarial_cost": adversarial - mean, "never": 0, "by_top": by_top}


def worst_by_top(game: DeblockleGame, cell: int, table: dict) -> dict:
    """Per face, the most turns to score from `cell` with that face up (the worst rotation), or
    None when some rotation with that face up can never score."""
    cube = game.cube
    return {face: _max([table.get((cell, o)) for o in cube.with_top(face)]) for face in cube.faces}


def adversarial_placement(game: DeblockleGame, cells: Sequence[int], tops: Sequence[str], table: dict) -> tuple[tuple[int, int], ...]:
    """Where and how a spiteful placer sets rolled blocks down: the rolled faces `tops` (one per
    block) go onto the start squares `cells`, each face up, the square and rotation of every block
    chosen so that the summed turns to score (each block alone on an empty board) is largest.

    Returns (cell, orientation) per cell of `cells`, in that order.  Ties go to the first
    assignment of blocks to squares (`itertools.permutations` order) and the first rotation in the
    cube's order; a rotation that can never score counts as the worst of all.
    """
    cube = game.cube
    worst = {}
    for cell in set(cells):
        for face in set(tops):
            worst[cell, face] = max(cube.with_top(face), key=lambda o: (table.get((cell, o), _NEVER), -o))
    best: int | None = None
    chosen: tuple[int, ...] = ()
    for order in permutations(range(len(tops))):
        total = sum(table.get((cell, worst[cell, tops[i]]), _NEVER) for cell, i in zip(cells, order))
        if best is None or total > best:
            best, chosen = total, order
    return tuple((cell, worst[cell, tops[i]]) for cell, i in zip(cells, chosen))


def adversarial_setup(game: DeblockleGame, cells: Sequence[int], table: dict) -> Fraction | None:
    """The exact mean, over the rolls (every top face equally likely for every block), of the
    largest summed turns to score a spiteful placer can give by choosing square and rotation for
    every rolled block (`adversarial_placement`); None when some choice never scores."""
    by_cell = {cell: worst_by_top(game, cell, table) for cell in cells}
    if any(v is None for w in by_cell.values() for v in w.values()):
        return None
    faces = game.cube.faces
    total = 0
    for roll in combinations_with_replacement(faces, len(cells)):  # a multiset of faces, with its count
        ways = factorial(len(roll))
        for face in set(roll):
            ways //= factorial(roll.count(face))
        total += ways * max(sum(by_cell[cell][face] for cell, face in zip(cells, order))
                            for order in set(permutations(roll)))
    return Fraction(total, len(faces) ** len(cells))


_NEVER = 10 ** 9  # turns to score of a state that never scores: worse than any that does


def _min(values: Iterable[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return min(known) if known else None


def _max(values: Sequence[int | None]) -> int | None:
    return None if any(v is None for v in values) else max(v for v in values if v is not None)

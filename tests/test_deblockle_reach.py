"""The reachability graph of a lone block and its turns-to-score table, against a graph built
by the slow twin (tests/deblockle_reference.py) and searched by a plain breadth-first search."""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import pytest

from deblockle_reference import Ref, definition_named

from boardlab.analysis.deblockle.engine import make_game
from boardlab.analysis.deblockle.reach import SCORED, fewest_turns, reachability_graph, start_figures, turns_to_score


def reference_distances(definition, owner: int) -> dict:
    """(square, top, north) -> fewest turns to score, by the twin's moves and a backward BFS."""
    cube_ref = Ref(definition, {"blocks": [], "to_move": owner}).cube
    faces = list(cube_ref.normal_of)
    files, ranks = definition.board.files, definition.board.ranks
    stars = {p.home_star for p in definition.players}
    squares = [f"{chr(ord('a') + x)}{y + 1}" for x in range(files) for y in range(ranks)]
    predecessors: dict = {}
    for sq in squares:
        if sq in stars:
            continue
        for top in faces:
            for north in faces:
                matrix = cube_ref.matrix(top, north)
                if matrix is None:
                    continue
                ref = Ref(definition, {"blocks": [{"owner": owner, "at": sq, "top": top, "north": north}],
                                       "to_move": owner})
                for _, tip, to in ref.moves():
                    turned = cube_ref.tip(matrix, tip)
                    target = "scored" if to == "scored" else (
                        to, cube_ref.face_at(turned, (0, 0, 1)), cube_ref.face_at(turned, (0, 1, 0)))
                    predecessors.setdefault(target, set()).add((sq, top, north))
    distance = {"scored": 0}
    queue = deque(["scored"])
    while queue:
        node = queue.popleft()
        for before in predecessors.get(node, ()):
            if before not in distance:
                distance[before] = distance[node] + 1
                queue.append(before)
    del distance["scored"]
    return distance


def named(game, table) -> dict:
    cube = game.cube
    return {(game.board.name(c), cube.top(o), cube.north(o)): d for (c, o), d in table.items()}


@pytest.mark.parametrize("name,seat", [("deblockle", 0), ("board-5x6", 1)])
def test_turns_to_score_equal_the_twins_shortest_paths(name, seat):
    definition = definition_named(name)
    game = make_game(definition)
    assert named(game, turns_to_score(game, seat)) == reference_distances(definition, seat + 1)


@pytest.mark.parametrize("name", ["deblockle", "deblockle-hopless-ends-turn", "deblockle-two-blocks",
                                  "deblockle-no-touching", "deblockle-handicap", "board-5x6", "board-3x3"])
def test_the_plain_search_that_games_use_equals_the_graphs(name):
    """`fewest_turns` (what the engine's agents and search use, without networkx) against
    `turns_to_score` (networkx's breadth-first search over the reachability graph), both seats."""
    game = make_game(definition_named(name))
    for seat in (0, 1):
        assert fewest_turns(game, seat) == turns_to_score(game, seat)
    assert game.turns_to_score == (turns_to_score(game, 0), turns_to_score(game, 1))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["deblockle-hopless-ends-turn", "deblockle-two-blocks", "board-3x3"])
def test_turns_to_score_of_the_variants(name):
    definition = definition_named(name)
    game = make_game(definition)
    for seat in (0, 1):
        assert named(game, turns_to_score(game, seat)) == reference_distances(definition, seat + 1)


def test_graph_shape_and_distance_rules():
    game = make_game(definition_named("deblockle"))
    graph = reachability_graph(game, 0)
    table = turns_to_score(game, 0, graph)
    assert graph.number_of_nodes() == 47 * 24 + 1 and graph.out_degree(SCORED) == 0
    target = game.target[0]
    # exactly the states next to the opponent's star whose tip onto it brings the Star up score in one turn
    ones = {s for s, d in table.items() if d == 1}
    expected = {(c, o) for c in range(game.board.cells) if c not in game.stars for o in range(24)
                for d in range(4) if game.board.neighbour[c][d] == target and game.cube.top(game.cube.tip(o, d)) == "Star"}
    # 4 squares next to the star x the 4 rotations with the Star on the side away from it
    assert ones == expected and len(ones) == 16
    for u, v in graph.edges:  # a shortest-path table drops by at most one along every edge
        if u in table:
            assert v == SCORED or table[u] <= table[v] + 1


def test_start_figures_are_exact_fractions_of_the_table():
    game = make_game(definition_named("deblockle"))
    table = turns_to_score(game, 0)
    for cell in game.starts[0]:
        f = start_figures(game, 0, cell, table)
        turns = [table[(cell, o)] for o in range(24)]
        assert f["mean"] == Fraction(sum(turns), 24) and (f["min"], f["max"]) == (min(turns), max(turns))
        worst = [max(table[(cell, o)] for o in game.cube.with_top(face)) for face in game.cube.faces]
        assert f["adversarial_mean"] == Fraction(sum(worst), 6) and f["adversarial_cost"] >= 0


def brute_force_spite(definition, seat: int) -> tuple[Fraction, dict]:
    """The spiteful placer by brute force on the twin's distances: for every ordered roll of the
    player's blocks (each face equally likely), every way to put the blocks on distinct start
    squares and every (top, north) rotation keeping the rolled face up; the mean of the largest
    summed turns to score, and that largest sum per sorted roll."""
    from itertools import permutations, product

    distance = reference_distances(definition, seat + 1)
    cube_ref = Ref(definition, {"blocks": [], "to_move": seat + 1}).cube
    faces = list(cube_ref.normal_of)
    rotations = {top: [n for n in faces if cube_ref.matrix(top, n) is not None] for top in faces}
    squares = list(definition.players[seat].start[:definition.rules.blocks])
    best: dict = {}
    total = Fraction(0)
    for roll in product(faces, repeat=len(squares)):
        key = tuple(sorted(roll))  # the placer's best depends only on the faces rolled, not their order
        if key not in best:
            best[key] = max(sum(distance[(sq, top, north)] for sq, top, north in zip(order, roll, norths))
                            for order in permutations(squares)
                            for norths in product(*(rotations[top] for top in roll)))
        total += best[key]
    return total / len(faces) ** len(squares), best


@pytest.mark.parametrize("name,blocks", [("deblockle", 4), ("board-5x6", 2)])
def test_the_adversarial_setup_total_is_the_brute_force_maximum_over_squares_and_rotations(name, blocks):
    import dataclasses

    from boardlab.analysis.deblockle.tables import player_document

    d = definition_named(name)
    d = dataclasses.replace(d, rules=dataclasses.replace(d.rules, blocks=blocks))
    game = make_game(d)
    for seat in range(2):
        expected, _ = brute_force_spite(d, seat)
        doc = player_document(game, seat, reachability_graph(game, seat))
        assert Fraction(doc["setup_total"]["adversarial_mean"]) == expected
        mean = sum(Fraction(f["mean"]) for f in doc["start"].values())
        assert Fraction(doc["setup_total"]["adversarial_cost"]) == expected - mean
        if name == "deblockle":  # the figures of the game as defined: 6899/432 turns, 1409/432 the spite
            assert (expected, expected - mean) == (Fraction(6899, 432), Fraction(1409, 432))


def test_the_adversarial_setup_places_squares_and_rotations_for_the_most_turns():
    import dataclasses
    import random

    from boardlab.layouts import load

    d = load("deblockle")
    d = dataclasses.replace(d, rules=dataclasses.replace(d.rules, setup="adversarial"))
    game = make_game(d)
    best = [brute_force_spite(d, seat)[1] for seat in range(2)]
    table = game.turns_to_score
    for seed in range(6):
        state = game.new_initial_state()
        rolled = state.sample_chance(random.Random(seed))
        state.apply(rolled)
        i = 0
        for seat, cells in enumerate(game.starts):
            tops = sorted(game.cube.top(o) for o in rolled[i:i + len(cells)])
            placed = [state.orientation[c] for c in cells]
            assert sorted(game.cube.top(o) for o in placed) == tops  # the rolled faces stay up
            assert sum(table[seat][(c, o)] for c, o in zip(cells, placed)) == best[seat][tuple(tops)]
            i += len(cells)

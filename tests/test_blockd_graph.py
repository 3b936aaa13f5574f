"""The Blockd move graph, trap distance and tables against the reference and hand-built positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from blockd_definitions import NAMES, all_down_except, definition_named, grid_with, with_rules
from blockd_reference import Ref, random_position

from boardlab.analysis.blockd import graph as g
from boardlab.analysis.blockd.engine import make_game
from boardlab.analysis.blockd.tables import BLOCK, REACH_TURNS, TRAP_HORIZON, tables
from boardlab.analysis.runner import CHANCE_STREAM, derive_seed
from boardlab.analysis.tables import TableOptions
from boardlab.layouts import load

DEFINITIONS = {name: definition_named(name) for name in NAMES}


def probe_ends(ref: Ref, cell) -> set:
    """Reference destinations of a pawn put on `cell`, the pawns already there being the mover."""
    probe = ref.clone()
    probe.pawn = {colour: at for colour, at in ref.pawn.items() if at != cell}
    probe.pawn["probe"] = cell
    return probe.ends("probe", probe.down)


def brute_trap(ref: Ref, colour: str, horizon: int):
    """Trap distance by plain recursion over the pawn's own move sequences."""
    ends = ref.ends(colour, ref.down)
    if not ends:
        return 0
    if horizon == 0:
        return None
    best = None
    for to in ends:
        child = ref.clone()
        start = child.pawn[colour]
        child.pawn[colour] = to
        if child.flips_at_once() or start not in [at for who, at in child.pawn.items() if who != colour]:
            child.down.add(start)
        sub = brute_trap(child, colour, horizon - 1)
        if sub is not None and (best is None or sub + 1 < best):
            best = sub + 1
    return best


cases = st.tuples(st.sampled_from(NAMES), st.integers(0, 2**32), st.floats(0, 0.9))


def drawn_position(case):
    """(definition, position JSON, engine state, reference) of a hypothesis case."""
    name, seed, down_share = case
    d = DEFINITIONS[name]
    players = d.game.max_players
    position = random_position(d, players, random.Random(seed), down_share=down_share)
    return d, position, make_game(d, players).state_from_position(position), Ref(d, players, position)


@settings(max_examples=150, deadline=None)
@given(cases)
def test_graph_edges_match_the_reference(case):
    d, position, state, ref = drawn_position(case)
    graph = g.move_graph(state)
    columns = d.board.columns
    for cell in graph:
        rc = divmod(cell, columns)
        expected = set() if rc in ref.down or ref.is_blind(rc) else probe_ends(ref, rc)
        assert {divmod(v, columns) for v in graph.successors(cell)} == expected
    assert g.dead_cells(graph) == sorted(c for c, m in g.mobility(graph).items() if m == 0)
    open_cells = {c for c in graph if graph.nodes[c]["open"]}
    assert sorted(c for part in g.components(graph) for c in part) == sorted(open_cells)


@settings(max_examples=80, deadline=None)
@given(cases.filter(lambda case: case[2] > 0.5))
def test_trap_distance_matches_a_plain_recursion(case):
    d, position, state, ref = drawn_position(case)
    for colour in position["pawns"]:
        seat = d.cards.suits.index(colour)
        assert g.trap_distance(state, seat, 3) == brute_trap(ref, colour, 3), colour


def line_position(d, up: dict, pawns: dict) -> dict:
    return {"grid": grid_with(d, up), "down": all_down_except(d, *up), "pawns": pawns, "to_move": next(iter(pawns)),
            "restore": False}


FLAT = with_rules(load("blockd"), torus=False, restore_bonus=False)


def test_corridor():
    """Red at the end of a corridor of four value-1 cards on a flat board."""
    up = {(0, 0): "R1", (0, 1): "B1", (0, 2): "G1", (0, 3): "Y1"}
    state = make_game(FLAT, 2).state_from_position(line_position(FLAT, up, {"red": [0, 0]}))
    graph = g.move_graph(state)
    assert sorted(graph.edges) == [(0, 1), (1, 2), (2, 1), (2, 3), (3, 2)]  # no pawn may end on red's cell
    assert g.mobility(graph) == {0: 1, 1: 1, 2: 2, 3: 1}
    assert g.dead_cells(graph) == []
    assert g.components(graph) == [[1, 2, 3], [0]]
    assert g.reachable_within(graph, 0, 2) == {0: 0, 1: 1, 2: 2}
    assert g.trap_distance(state, 0, horizon=3) == 3  # every step flips the card behind
    assert g.trap_distance(state, 0, horizon=2) is None
    assert g.trap_distance(state, 1) is None  # blue has no pawn


def test_square_is_a_cycle_for_the_graph_but_a_trap_in_three_moves():
    up = {(0, 0): "R1", (0, 1): "B1", (1, 0): "G1", (1, 1): "Y1"}
    state = make_game(FLAT, 2).state_from_position(line_position(FLAT, up, {"red": [0, 0]}))
    graph = g.move_graph(state)
    assert g.components(graph) == [[1, 5, 6], [0]]
    assert g.trap_distance(state, 0) == 3


def test_dead_end_beside_a_corridor():
    """Red on (0, 1): left is a dead end (its only way out is red's card, flipped), right a corridor."""
    up = {(0, 0): "R1", (0, 1): "B1", (0, 2): "G1", (0, 3): "Y1", (0, 4): "R2"}
    state = make_game(FLAT, 2).state_from_position(line_position(FLAT, up, {"red": [0, 1]}))
    assert g.trap_distance(state, 0) == 1
    graph = g.move_graph(state)
    assert g.dead_cells(graph) == [0]  # its only neighbour holds red's pawn
    stuck = {(0, 0): "R1", (0, 1): "B1"}
    position = line_position(FLAT, stuck, {"red": [0, 0], "blue": [0, 1]})
    state = make_game(FLAT, 2).state_from_position(position)
    assert g.trap_distance(state, 0) == 0 and g.dead_cells(g.move_graph(state)) == [0, 1]


def test_tables_do_not_depend_on_workers_and_start_from_the_reference():
    d = load("blockd")
    deals = 40  # two jobs of BLOCK deals, so two workers really share them
    assert deals > BLOCK
    one = tables(d, TableOptions(players=2, deals=deals, seed=7, workers=1))
    two = tables(d, TableOptions(players=2, deals=deals, seed=7, workers=2))
    assert one.data == two.data
    start = one.data["by_players"]["2"]["start"]
    game = make_game(d, 2)
    counts = []
    for deal in range(deals):  # the same deals, measured by the reference
        state = game.new_initial_state()
        state.apply(state.sample_chance(random.Random(derive_seed(7, CHANCE_STREAM, deal))))
        ref = Ref(d, 2, state.to_position())
        counts += [len(ref.ends(colour, ref.down)) for colour in ref.pawn]
    assert start["positions"] == deals and start["mobility"]["count"] == 2 * deals
    assert start["mobility"]["mean"] == round(sum(counts) / len(counts), 3)
    for entry in one.data["by_players"]["2"].values():
        assert sum(entry["trap_distance"].values()) == pytest.approx(1.0, abs=1e-3)
    assert one.data["reach_turns"] == REACH_TURNS and one.data["trap_horizon"] == TRAP_HORIZON
    titles = [t.title for t in one.tables]
    assert len(titles) == 6 and all(t.endswith("2 players") for t in titles)

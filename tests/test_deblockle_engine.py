"""The Deblockle engine against its slow twin (tests/deblockle_reference.py), the perft file,
the cube's invariants and hand-built positions for every hop symbol and rule option."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings, strategies as st

from blockd_reference import read_perft  # (the perft file format is common)
from deblockle_reference import NORMALS, PERFT_FILE, Ref, RefCube, definition_named, random_position

from boardlab.analysis.deblockle.cube import DIRECTIONS, SIDES, Cube
from boardlab.analysis.deblockle.engine import SCORED, Move, make_game
from boardlab.analysis.deblockle.position import position_of
from boardlab.analysis.protocol import CHANCE, TERMINAL
from boardlab.layouts import BoardlabError, load

NAMES = ("deblockle", "deblockle-no-touching", "deblockle-hopless-ends-turn", "deblockle-two-blocks", "board-5x6",
         "board-3x3", "board-open-points", "deblockle-handicap")
DEFINITIONS = {name: definition_named(name) for name in NAMES}


def with_rules(definition, **changes):
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, **changes))


def engine_moves(state) -> list[tuple[str, str, str]]:
    return [tuple(m.to_json(state.game.board).values()) for m in state.legal_moves()]


def state_of(definition, blocks, to_move=1):
    """A position from (owner, square, top, north) tuples."""
    data = {"game": "deblockle", "to_move": to_move,
            "blocks": [{"owner": o, "at": sq, "top": t, "north": n} for o, sq, t, n in blocks]}
    return make_game(definition).state_from_position(data)


def bringing_up(definition, face: str, direction: str) -> tuple[str, str]:
    """A (top, north) whose tip in `direction` brings `face` on top, found by the reference cube."""
    cube = RefCube(definition)
    for top in cube.normal_of:
        for north in cube.normal_of:
            m = cube.matrix(top, north)
            if m is not None and top != face and cube.face_at(cube.tip(m, direction), (0, 0, 1)) == face:
                return top, north
    raise AssertionError(face)


def ends(state, square: str, direction: str) -> set[str]:
    return {to for frm, tip, to in engine_moves(state) if frm == square and tip == direction}


# -- perft and the twin --------------------------------------------------------------------
PERFT = read_perft(PERFT_FILE)


# the engine against the counts: tests/test_perft.py (every perft file, one routine)


def test_perft_file_covers_every_rule_option():
    assert {e["definition"] for e in PERFT} == set(NAMES) - {"board-3x3", "board-open-points", "deblockle-handicap"}
    assert all(max(e["perft"]) >= 2 for e in PERFT)


@settings(max_examples=120, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2 ** 32 - 1), near=st.sampled_from((0.0, 0.4, 0.9)))
def test_moves_agree_with_the_reference_on_random_positions(name, seed, near):
    definition = DEFINITIONS[name]
    position = random_position(definition, random.Random(seed), near_stars=near)
    state = make_game(definition).state_from_position(position)
    assert engine_moves(state) == Ref(definition, position).moves()


@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_the_reference_move_by_move(name):
    definition = DEFINITIONS[name]
    game = make_game(definition)
    rng = random.Random(7)
    for _ in range(2):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal() and state.turns < 60:
            position = position_of(state)
            ref = Ref(definition, position)
            assert engine_moves(state) == ref.moves()
            move = rng.choice(state.legal_moves())
            state.apply(move)
            ref.play(tuple(move.to_json(game.board).values()))
            if state.is_terminal():
                assert state.unfinished or ref.winner == (state.winners()[0] + 1 if state.winners() else 0)
            else:
                assert ref.winner is None and ref.to_move == state.current_player() + 1


# -- the cube ----------------------------------------------------------------------------------
CUBE = Cube.from_definition(load("deblockle"))


def test_cube_has_24_orientations_four_per_top_face():
    assert len(set(CUBE.orientations)) == 24
    for face in CUBE.faces:
        assert len(CUBE.with_top(face)) == 4
        assert len({CUBE.north(o) for o in CUBE.with_top(face)}) == 4


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=40))
def test_opposite_pairs_and_clockwise_order_hold_after_any_tips(tips):
    definition = load("deblockle")
    layout = definition.cube
    normal = {getattr(layout, side): NORMALS[side] for side in NORMALS}  # body normals of the layout
    ref = RefCube(definition)
    o = CUBE.star_up
    matrix = ref.matrix(layout.top, layout.north)
    for direction in tips:
        o = CUBE.tip(o, direction)
        matrix = ref.tip(matrix, DIRECTIONS[direction])
        faces = dict(zip(SIDES, CUBE.orientations[o]))
        for a, b in (("top", "bottom"), ("north", "south"), ("east", "west")):  # still opposite in the layout
            assert normal[faces[a]] == tuple(-v for v in normal[faces[b]])
        # clockwise seen from above: north x top = east in the layout's own frame (a rotation, not a mirror)
        n, t = normal[faces["north"]], normal[faces["top"]]
        cross = (n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0])
        assert cross == normal[faces["east"]]
        assert (faces["top"], faces["north"]) == (ref.face_at(matrix, (0, 0, 1)), ref.face_at(matrix, (0, 1, 0)))


def test_tipping_brings_the_far_side_up_as_the_rules_say():
    o = CUBE.star_up  # Star up, Cross north, Slider east, X south, Hoops west
    assert CUBE.orientations[CUBE.tip(o, 0)][:2] == ("X", "Star")  # north: the old south comes up
    assert CUBE.top(CUBE.tip(o, 1)) == "Hoops"  # east: the old west comes up
    assert CUBE.top(CUBE.tip(o, 2)) == "Cross"
    assert CUBE.top(CUBE.tip(o, 3)) == "Slider"
    for o in range(24):
        for d, back in ((0, 2), (1, 3), (2, 0), (3, 1)):
            assert CUBE.tip(CUBE.tip(o, d), back) == o
        assert CUBE.tip(CUBE.tip(CUBE.tip(CUBE.tip(o, 0), 0), 0), 0) == o


# -- every symbol, by hand ------------------------------------------------------------------------
D = load("deblockle")


def test_stop_ends_the_turn_on_the_tipped_onto_square():
    top, north = bringing_up(D, "Stop", "N")
    state = state_of(D, [(1, "a3", top, north)])
    assert ends(state, "a3", "N") == {"a4"}


def test_cross_and_x_hop_one_square_and_x_at_the_edge():
    top, north = bringing_up(D, "Cross", "S")
    state = state_of(D, [(1, "b2", top, north), (2, "c1", "Stop", "Cross")])
    # b2 -> tip S -> b1, Cross: a1 is open, c1 holds a block, b2 was left empty by the tip
    assert ends(state, "b2", "S") == {"a1", "b2"}
    top, north = bringing_up(D, "X", "W")
    state = state_of(D, [(1, "b1", top, north)])
    assert ends(state, "b1", "W") == {"b2"}  # a corner has one diagonal
    blocked = state_of(D, [(1, "b1", top, north), (2, "b2", "Stop", "Cross")])
    assert ends(blocked, "b1", "W") == set()  # no hop: the tip is no move ...
    loose = state_of(load("deblockle-hopless-ends-turn"), [(1, "b1", top, north), (2, "b2", "Stop", "Cross")])
    assert ends(loose, "b1", "W") == {"a1"}  # ... unless hopless tips end the turn


def test_slider_passes_a_star_and_stops_before_one():
    top, north = bringing_up(D, "Slider", "E")
    state = state_of(D, [(1, "c1", top, north)])
    # from d1: north over d2 (a star) to d7, or stop on d5 just before the star d6; west to a1; east to g1
    assert ends(state, "c1", "E") == {"a1", "d5", "d7", "g1"}
    walled = state_of(D, [(1, "c4", top, north), (2, "d7", "Stop", "Cross"), (2, "d3", "Stop", "Cross")])
    # from d4: north the slide would end on the star d6 (d7 holds a block): it stops on d5; south blocked at once
    # from d4: north the slide would end on the star d6 (d7 holds a block), so it stops on d5;
    # south d3 holds a block (no slide); east to g4; west over c4, which the tip left empty, to a4
    assert ends(walled, "c4", "E") == {"d5", "g4", "a4"}
    # the source's words read literally: a slide may also stop on any square next to a star,
    # d3 beside d2 which it has passed (d1, next to d2, is where it started: it must move)
    near = state_of(with_rules(D, slider_stop="next_to_star"), [(1, "c1", top, north)])
    assert ends(near, "c1", "E") == {"a1", "d3", "d5", "d7", "g1"}


def test_hoops_steps_may_revisit_squares_and_cross_stars_but_not_end_on_them():
    top, north = bringing_up(D, "Hoops", "S")
    hemmed = state_of(D, [(1, "a2", top, north), (2, "b1", "Stop", "Cross"), (2, "a3", "Stop", "Cross"),
                          (2, "b2", "Stop", "Cross")])
    assert ends(hemmed, "a2", "S") == {"a2"}  # a1 -> a2 -> a1 -> a2: the only walk
    top, north = bringing_up(D, "Hoops", "N")
    state = state_of(D, [(1, "d3", top, north)])
    got = ends(state, "d3", "N")  # from d4
    assert "d6" not in got and "d2" not in got
    assert "d7" in got  # d5, d6 (a star: crossed), d7
    assert "d4" not in got  # three steps never come back to the start


def test_star_up_tip_scores_only_on_the_opponents_star():
    top, north = bringing_up(D, "Star", "N")
    gold = state_of(D, [(1, "d5", top, north)])
    assert Move(gold.game.board.cell("d5"), 0, SCORED) in gold.legal_moves()
    assert ends(gold, "d5", "N") == {"scored"}
    blue = state_of(D, [(2, "d5", top, north), (1, "a1", "Stop", "Cross")], to_move=2)
    assert ends(blue, "d5", "N") == set()  # its own home star
    plain = state_of(D, [(1, "c4", top, north)])
    assert ends(plain, "c4", "N") == set()  # the Star may not come up on an ordinary square
    top, north = bringing_up(D, "Stop", "N")
    other_face = state_of(D, [(1, "d5", top, north)])
    assert ends(other_face, "d5", "N") == set()  # only a Star-up tip enters a star


def test_no_touching_forbids_ending_next_to_an_opponent():
    top, north = bringing_up(D, "Stop", "E")
    free = state_of(D, [(1, "a4", top, north), (2, "c4", "Stop", "Cross")])
    assert ends(free, "a4", "E") == {"b4"}
    touching = state_of(load("deblockle-no-touching"), [(1, "a4", top, north), (2, "c4", "Stop", "Cross")])
    assert ends(touching, "a4", "E") == set()
    diagonal = state_of(load("deblockle-no-touching"), [(1, "a4", top, north), (2, "c5", "Stop", "Cross")])
    assert ends(diagonal, "a4", "E") == {"b4"}  # diagonal contact is allowed


# -- the flow of a game -----------------------------------------------------------------------------
def test_setup_puts_every_block_on_its_start_square():
    for name, definition in DEFINITIONS.items():
        game = make_game(definition)
        state = game.new_initial_state()
        assert state.current_player() == CHANCE
        state.apply(state.sample_chance(random.Random(1)))
        for seat, player in enumerate(definition.players):
            blocks = definition.rules.counts[seat]
            assert sorted(game.board.name(c) for c, _ in state.blocks(seat)) == sorted(player.start[:blocks])


def test_scoring_the_last_block_wins():
    top, north = bringing_up(D, "Star", "N")
    state = state_of(D, [(1, "d5", top, north), (2, "a1", "Stop", "Cross")])
    state.apply(Move(state.game.board.cell("d5"), 0, SCORED))
    assert state.current_player() == TERMINAL and state.winners() == (0,) and state.stats()["end"] == "scored"
    assert state.stats()["scored_turns"] == [[1], []]


def test_a_blocked_player_passes_and_the_other_keeps_moving():
    # blue's only block in the corner a1 is walled in by gold blocks on a2 and b1 (tips need an empty square)
    state = state_of(D, [(2, "a1", "Stop", "Cross"), (1, "a2", "Stop", "Cross"), (1, "b1", "Stop", "Cross"),
                         (1, "g7", "Stop", "Cross")])
    g7 = state.game.board.cell("g7")
    move = next(m for m in state.legal_moves() if m.frm == g7)
    state.apply(move)
    assert state.current_player() == 0 and state.passes == [0, 1] and state.blocked_spells == [0, 1]
    move = next(m for m in state.legal_moves() if m.frm == move.to)
    state.apply(move)
    assert state.current_player() == 0 and state.passes == [0, 2] and state.blocked_spells == [0, 1]


def test_when_neither_can_move_fewer_blocks_wins():
    # 3 x 3 board, stars b1 (gold) and b3 (blue): gold's b2 scores on b3; then every tip left is
    # onto a star without the Star coming up, or brings the Star up on an ordinary square
    small = definition_named("board-3x3")
    position = {"game": "deblockle", "to_move": 1, "blocks": [
        {"owner": 1, "at": "a1", "top": "Cross", "north": "Stop"}, {"owner": 1, "at": "b2", "top": "Cross", "north": "Stop"},
        {"owner": 2, "at": "c3", "top": "Cross", "north": "Star"}, {"owner": 2, "at": "c1", "top": "Cross", "north": "Stop"}]}
    state = make_game(small).state_from_position(position)
    scoring = state.legal_moves()[engine_moves(state).index(("b2", "N", "scored"))]
    state.apply(scoring)
    ref = Ref(small, position)
    ref.play(("b2", "N", "scored"))
    assert state.is_terminal() and state.winners() == (0,) and state.stats()["end"] == "no_moves"
    assert ref.winner == 1
    drawn = with_rules(small, both_blocked="draw")  # the other reading: two blocked players draw
    state = make_game(drawn).state_from_position(position)
    state.apply(scoring)
    ref = Ref(drawn, position)
    ref.play(("b2", "N", "scored"))
    assert state.is_terminal() and state.winners() == () and state.stats()["end"] == "no_moves"
    assert ref.winner == 0


def test_the_first_player_is_a_rule_option():
    for first in (1, 2):
        state = make_game(with_rules(D, first=first)).new_initial_state()
        state.apply(state.sample_chance(random.Random(4)))
        assert state.current_player() == first - 1 and state.length() == 0


def test_turn_cap_ends_the_game_unfinished():
    game = make_game(with_rules(D, max_turns=5))
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply(state.sample_chance(rng))
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    assert state.is_unfinished() and state.length() == 5 and state.winners() == () and state.returns() == (0.0, 0.0)


def test_clone_is_independent():
    state = make_game(D).new_initial_state()
    state.apply(state.sample_chance(random.Random(2)))
    copy = state.clone()
    copy.apply(copy.legal_moves()[0])
    assert position_of(state)["to_move"] == 1 and state.turns == 0 and copy.turns == 1
    assert position_of(state) != position_of(copy)


def test_illegal_move_is_refused():
    state = make_game(D).new_initial_state()
    state.apply(state.sample_chance(random.Random(2)))
    with pytest.raises(ValueError):
        state.apply(Move(0, 0, 5))


def test_position_round_trips():
    rng = random.Random(4)
    for name, definition in DEFINITIONS.items():
        position = random_position(definition, rng)
        state = make_game(definition).state_from_position(position)
        again = position_of(state)
        key = lambda b: b["at"]  # noqa: E731
        assert sorted(again["blocks"], key=key) == sorted(position["blocks"], key=key)
        assert again["to_move"] == position["to_move"]


def test_move_json_refuses_nonsense():
    board = make_game(D).board
    for bad in ({"from": "c1", "tip": "Q", "to": "c2"}, {"from": "z9", "tip": "N", "to": "c2"}, [1]):
        with pytest.raises(ValueError):
            Move.from_json(bad, board)


def test_position_errors_are_boardlab_errors():
    with pytest.raises(BoardlabError):
        state_of(D, [(1, "d2", "Stop", "Cross")])

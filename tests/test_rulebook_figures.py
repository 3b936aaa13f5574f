"""The rulebooks' figures are drawn from engine moves, and their captions say what they show.

Deblockle: every hop of a real position is drawn along a route the rules allow (a Hoops hop as
its single orthogonal steps, never one diagonal line), checked step by step here against the
board's own neighbours, and the worked example's caption names the squares it passes.
"""

from __future__ import annotations

from random import Random

from boardlab.analysis.deblockle.engine import SCORED, make_game
from boardlab.layouts import load
from boardlab.layouts.terms import speaking
from boardlab.printkit.games.deblockle import hop_route, worked_example
from boardlab.printkit.rulebook.setups import EXAMPLE_SEED


def positions(count: int):
    game = make_game(load("deblockle"))
    rng = Random(7)
    for _ in range(count):
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        for _ply in range(rng.randrange(12)):
            moves = state.legal_moves()
            if state.is_terminal() or not moves:
                break
            state.apply(moves[rng.randrange(len(moves))])
        if not state.is_terminal():
            yield game, state


def test_every_hop_is_drawn_along_a_route_the_rules_allow() -> None:
    hoops = 0
    for game, state in positions(40):
        board = game.board
        for move in state.legal_moves():
            if move.to == SCORED:
                continue
            onto = board.neighbour[move.frm][move.tip]
            kind = game.hop[game.cube.tips[state.orientation[move.frm]][move.tip]]
            occupied = state.occupied & ~(1 << move.frm)
            route = hop_route(game, kind, onto, move.to, occupied, avoid=move.frm)
            assert route[0] == onto and route[-1] == move.to
            assert not any(occupied >> cell & 1 for cell in route[1:])
            steps = list(zip(route, route[1:]))
            if kind == "hoops":
                hoops += 1
                assert len(steps) == game.rules.hoops_steps
                assert all(b in board.neighbour[a] for a, b in steps)  # single orthogonal steps
            elif kind == "orthogonal":
                assert len(steps) == 1 and route[1] in board.neighbour[onto]
            elif kind == "diagonal":
                assert len(steps) == 1 and route[1] in board.diagonals[onto]
            elif kind == "slide":
                assert all(b in board.neighbour[a] for a, b in steps)
                assert len({board.neighbour[a].index(b) for a, b in steps}) <= 1  # one straight line
    assert hoops > 20


def test_the_worked_example_names_the_squares_of_its_hop() -> None:
    definition = load("deblockle")
    game = make_game(definition)
    state = game.new_initial_state()
    state.apply(state.sample_chance(Random(EXAMPLE_SEED)))
    for language, through in (("en", "through"), ("es", "pasando por")):
        with speaking(language):
            caption = worked_example(definition)[3]
        move = next(m for m in state.legal_moves()
                    if m.to != SCORED and m.to != game.board.neighbour[m.frm][m.tip])
        onto = game.board.neighbour[move.frm][move.tip]
        kind = game.hop[game.cube.tips[state.orientation[move.frm]][move.tip]]
        route = hop_route(game, kind, onto, move.to, state.occupied & ~(1 << move.frm), avoid=move.frm)
        if kind == "hoops":
            assert through in caption
            for cell in route[1:-1]:
                assert game.board.name(cell) in caption.split(through)[1]
        else:
            assert through not in caption

"""6x6's dice search (`search-N`): its compiled values against the plain twin over the engine, its
candidates against brute force, whole games move for move, and its agent name on the ladder."""

from __future__ import annotations

import itertools
import random

import pytest

from boardlab.analysis import engines
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.runner import Match, play_one
from boardlab.analysis.sixbysix.engine import MarkerAgent, Move, SixBySixGame
from boardlab.analysis.sixbysix.markers import GREEDY
from boardlab.analysis.sixbysix.search import (SearchAgent, candidates, compiled_values, plain_values, value)
from boardlab.analysis.restricted import RestrictedView
from boardlab.layouts import load
from tests.sixbysix_helpers import brute_face_values, brute_sums, with_rules


def positions(game, seed: int, count: int):
    """`count` decision positions of random play (every step of a round, later rounds too)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if rng.random() < 0.2:
                found.append(state.clone())
            state.apply(state.random_move(rng))
    return found


RULES = [dict(), dict(unclaimed_bank="house"), dict(lead="fixed"), dict(covering=False),
         dict(chips=2, max_rounds=6), dict(chips=1)]


@pytest.mark.parametrize("players,rules", list(itertools.product([2, 3, 5], RULES)))
def test_compiled_values_equal_the_plain_twin(players, rules):
    game = SixBySixGame(with_rules(load("sixbysix"), **rules), players)
    for i, state in enumerate(positions(game, 17 * players, 6)):
        moves = candidates(state)
        seed = random.Random(i).getrandbits(64)
        for ahead in (0, 2):  # the agent's own (none), and rounds of greedy play ahead
            plain = plain_values(state, moves, seed, 7, ahead)
            assert compiled_values(state, moves, seed, 7, ahead) == pytest.approx(plain, abs=1e-12)
            assert all(-0.5 <= v <= 1.5 for v in plain)


def test_candidates_are_greedys_numbers_with_their_best_faces_by_brute_force():
    definition = load("sixbysix")
    for players in (2, 3, 4):
        game = SixBySixGame(definition, players)
        for state in positions(game, players, 8):
            k = len(state.order)
            sums = brute_sums(game.faces, k)
            legal = state.legal_moves()
            numbers = sorted({m.number for m in legal}, key=lambda x: (-sums.get(x, 0), x))[:3]
            expected = []
            for number in numbers:
                values = brute_face_values(game.faces, k, number)
                expected += sorted(game.faces, key=lambda f: (-values[f], f))[:2]
            got = candidates(state)
            assert [m.face for m in got] == expected
            assert [m.number for m in got] == [x for x in numbers for _ in range(2)]
            assert set(got) <= set(legal)


def test_marker_agents_choose_on_the_state_as_from_its_move_list():
    """The marker agents' short way on the engine's state (no move list) plays what their general
    way plays on a view of every legal move (`RestrictedView` with nothing barred)."""
    from boardlab.analysis.sixbysix.markers import Chooser

    for players in (2, 4, 6):
        game = SixBySixGame(with_rules(load("sixbysix"), covering=players != 4), players)
        agents = [MarkerAgent(GREEDY, game), MarkerAgent(Chooser("favourite", 9), game)]
        for state in positions(game, players, 30):
            for agent in agents:
                assert agent.choose(state, None) == agent.choose(RestrictedView(state, state.legal_moves()), None)


def test_candidates_on_a_restricted_view_keep_to_its_moves():
    game = SixBySixGame(load("sixbysix"), 3)
    state = game.new_initial_state()
    allowed = [m for m in state.legal_moves() if m.face == 4]  # barred from betting any other face
    view = RestrictedView(state, allowed)
    got = candidates(view)
    assert got and all(m.face == 4 for m in got) and len(got) == 3  # one face per number is left
    agent = SearchAgent(8)
    assert agent.choose(view, random.Random(3)) in allowed


@pytest.mark.parametrize("players,rules", [(2, dict()), (3, dict(unclaimed_bank="house")), (4, dict(covering=False))])
def test_round_expectation_is_the_mean_over_every_roll_of_the_engine(players, rules):
    from fractions import Fraction
    from boardlab.analysis.sixbysix.search import _greedy_tables, round_expectation

    game = SixBySixGame(with_rules(load("sixbysix"), **rules), players)
    die, sums = _greedy_tables(game)[-2:]
    checked = 0
    for state in positions(game, 5 + players, 40):
        if state.step != 0:
            continue
        greedy = MarkerAgent(GREEDY, game)
        while state.current_player() != CHANCE:  # every marker placed, no die rolled
            state.apply(greedy.choose(state, random.Random(0)))
        k = len(state.order)
        for seat in state.order:
            mean = Fraction(0)
            for roll in itertools.product(game.faces, repeat=k):  # every roll, played by the engine
                s = state.clone()
                for face in roll:
                    s.apply(face)
                mean += (s.chips[seat] + Fraction(s.bank, k)) / len(game.faces) ** k
            assert round_expectation(state, seat, die, sums, rules == dict(unclaimed_bank="house")) == \
                pytest.approx(float(mean), abs=1e-9)
            checked += 1
    assert checked >= 10


def test_value_is_the_chip_share_or_the_win():
    game = SixBySixGame(with_rules(load("sixbysix"), chips=1), 2)
    state = game.new_initial_state()
    assert value(state, 0) == pytest.approx(0.5)
    state.apply(Move(1, 2))
    state.apply(Move(1, 3))
    state.apply(2)  # both dice miss their bets (the bank takes both chips) and sum to 4: nobody wins
    state.apply(2)
    assert state.is_terminal() and value(state, 0) == value(state, 1) == 0.5  # both out at once: a shared win
    game = SixBySixGame(load("sixbysix"), 3)
    state = game.new_initial_state()
    for move in (Move(6, 10), Move(1, 11), Move(1, 9), 6, 2, 3):  # seat 0's refund; 11 comes up: seat 1 wins 2
        state.apply(move)
    assert state.chips == [20, 21, 19] and state.bank == 0
    assert [value(state, s) for s in range(3)] == [pytest.approx(c / 60) for c in (20, 21, 19)]
    for move in (Move(6, 10), Move(1, 11), Move(1, 9), 1, 2, 3):  # nobody's sum (6); seat 0 misses its 6
        state.apply(move)
    assert state.bank == 3 and [value(state, s) for s in range(3)] == [pytest.approx((c + 1) / 60) for c in (19, 20, 18)]


def test_whole_games_move_for_move_compiled_and_plain():
    for players, rules in ((2, dict(chips=4)), (3, dict(chips=3, unclaimed_bank="house")), (4, dict(chips=2))):
        game = SixBySixGame(with_rules(load("sixbysix"), **rules), players)
        for seed in range(3):
            played = []
            for compiled in (True, False):
                rng, state, moves = random.Random(seed), game.new_initial_state(), []
                agents = [SearchAgent(6, compiled=compiled, ahead=seed % 2)] + [MarkerAgent(GREEDY, game)] * (players - 1)
                while not state.is_terminal():
                    seat = state.current_player()
                    move = state.sample_chance(rng) if seat == CHANCE else agents[seat].choose(state, rng)
                    moves.append(move)
                    state.apply(move)
                played.append(moves)
            assert played[0] == played[1]


def test_a_large_budget_finds_the_most_probable_sum():
    # two players, the first to choose: 7 is the likeliest sum (6 rolls in 36), and taking it
    # leaves the other player 6 or 8 (5 in 36): greedy's move is the best one, and the search finds it
    game = SixBySixGame(load("sixbysix"), 2)
    move = SearchAgent(4000).choose(game.new_initial_state(), random.Random(1))
    assert move.number == 7


def test_search_is_an_agent_of_6x6_and_its_ladder_steps_past_greedy():
    known = engines.agent_factories("sixbysix")
    assert "search-64" in known and "search-0" not in known
    game = SixBySixGame(load("sixbysix"), 2)
    assert known["search-32"](game).samples == 32
    assert game.skill_ladder(64) == ["random", "greedy", "search-16", "search-32", "search-64"]
    # a match of it through the runner: records with the agent's name, the same for the same seed
    match = Match(game, (known["search-8"], known["greedy"]), ("search-8", "greedy"), 5, True)
    first, again = play_one(match, 1), play_one(match, 1)
    assert first == again and set(first.agents) == {"search-8", "greedy"}

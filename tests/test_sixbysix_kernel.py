"""6x6's compiled kernel against its twin, the engine played move by move (`play_one`).

The kernel draws exactly the numbers Python's `random.Random` draws (the compiled Mersenne
Twister of `analysis/mersenne.py`, tested in tests/test_mersenne.py), so its records must equal
the engine's record for record, whatever the rule options, player count, agents or seat rotation,
and its moves (its log: every marker and die, in order) the engine's move for move.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis import engines
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.runner import AGENT_STREAM, CHANCE_STREAM, Match, derive_seed, play_one, run_records
from boardlab.analysis.sixbysix import kernel
from boardlab.analysis.sixbysix.engine import SixBySixGame
from boardlab.layouts import load

from sixbysix_helpers import with_rules

DEFINITION = load("sixbysix")


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), chips=st.integers(1, 8), bank=st.sampled_from(["carry", "house"]),
       lead=st.sampled_from(["fixed", "rotate"]), covering=st.booleans(), rotation=st.booleans(),
       agents=st.lists(st.sampled_from(["greedy", "random", "favourite", "favourite-30"]), min_size=6, max_size=6),
       seed=st.integers(0, 10 ** 6), max_rounds=st.sampled_from([7, 120, 2000]))
def test_kernel_records_equal_the_engine_on_every_rule_option(players, chips, bank, lead, covering, rotation, agents, seed, max_rounds):
    definition = with_rules(DEFINITION, chips=chips, unclaimed_bank=bank, lead=lead, covering=covering,
                            max_rounds=max_rounds)
    game = SixBySixGame(definition, players, compare_lead=False)
    known = engines.agent_factories("sixbysix")
    names = tuple(agents[:players])
    match = Match(game, tuple(known[a] for a in names), names, seed, rotation)
    choosers = kernel.choosers_of(match)
    assert choosers is not None
    indices = list(range(0, 3 * players, 2))
    assert kernel.play_records(match, indices, choosers) == [play_one(match, i) for i in indices]


def test_kernel_records_equal_the_engine_move_by_move():
    for players in (2, 4, 6):
        game = SixBySixGame(with_rules(DEFINITION, chips=5), players)
        known = engines.agent_factories("sixbysix")
        names = ("random", "greedy", "favourite", "random", "favourite-20", "greedy")[:players]
        match = Match(game, tuple(known[a] for a in names), names, 8, True)
        records = kernel.play_records(match, list(range(2 * players)), kernel.choosers_of(match))
        assert records == [play_one(match, i) for i in range(2 * players)]


def engine_moves(match: Match, index: int) -> list[tuple[int, int, int]]:
    """Game `index` as `runner.play_one` plays it over the engine (the one written copy of the
    rules), as the kernel logs it: (seat, face, number) for a marker, (-1, face, 0) for a die."""
    game = match.game
    deal, _, order = match.seating(index)
    chance = random.Random(derive_seed(match.seed, CHANCE_STREAM, deal))
    agents = [match.agents[a](game) for a in order]
    rngs = [random.Random(derive_seed(match.seed, AGENT_STREAM, index, s)) for s in range(game.players)]
    state = game.new_initial_state()
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            face = state.sample_chance(chance)
            moves.append((-1, face, 0))
            state.apply(face)
        else:
            move = agents[player].choose(state, rngs[player])
            moves.append((player, move.face, move.number))
            state.apply(move)
    return moves


@pytest.mark.parametrize("players, bank, lead, covering, max_rounds",
                         [(2, "carry", "rotate", False, 120), (3, "house", "fixed", True, 2000),
                          (5, "carry", "fixed", True, 40), (6, "house", "rotate", False, 7)])
def test_the_kernel_plays_the_engines_moves_one_by_one(players, bank, lead, covering, max_rounds):
    """Every marker and every die of the kernel's games, in order, are the engine's."""
    definition = with_rules(DEFINITION, chips=4, unclaimed_bank=bank, lead=lead, covering=covering,
                            max_rounds=max_rounds)
    game = SixBySixGame(definition, players, compare_lead=False)
    known = engines.agent_factories("sixbysix")
    names = ("random", "greedy", "favourite", "random", "favourite-20", "greedy")[:players]
    match = Match(game, tuple(known[a] for a in names), names, 3, True)
    indices = list(range(3 * players))
    room = 2 * players * max_rounds
    played = kernel.play_arrays(match, indices, kernel.choosers_of(match), log_room=room)
    log, logged = played[-2], played[-1]
    for g, index in enumerate(indices):
        assert 0 < logged[g] <= room
        assert [tuple(row) for row in log[g, :logged[g]].tolist()] == engine_moves(match, index)


def test_simulate_uses_the_kernel_and_gives_the_reference_summary():
    game = SixBySixGame(with_rules(DEFINITION, chips=6), 6)
    factories = [engines.agent_factories("sixbysix")["random"]] * 6
    fast, summary = run_records(game, factories, 40, seed=2, workers=1, progress=False)
    slow_game = SixBySixGame(with_rules(DEFINITION, chips=6), 6, compare_lead=False)
    match = Match(slow_game, tuple(factories), ("random",) * 6, 2, False)
    assert [(r.winners, r.length, r.stats["round_wins"]) for r in fast] == \
        [(r.winners, r.length, r.stats["round_wins"]) for r in (play_one(match, i) for i in range(40))]
    two = run_records(game, factories, 40, seed=2, workers=2, progress=False)[1]
    strip = lambda s: {k: v for k, v in s.items() if k != "seconds"}  # noqa: E731
    assert strip(two) == strip(summary)


def test_other_agents_are_not_played_by_the_kernel():
    class Stubborn:
        def choose(self, state, rng):
            return state.legal_moves()[0]
    game = SixBySixGame(DEFINITION, 2, compare_lead=False)
    assert kernel.choosers_of(Match(game, (lambda g: Stubborn(),) * 2, ("stubborn",) * 2, 1, False)) is None

"""Blockd's compiled kernel against its slow twin, the reference engine, move by move.

- moves: on positions reached by the engine (every rule option, every grid), the kernel's
  moves equal `legal_moves()` in the engine's order, its existence check agrees, and its
  numbering picks each move for exactly one slice of [0, 1) (so a uniform number is a
  uniform move); the destination-first weighting picks what its Python twin picks;
- games: every kernel game, replayed move by move through the engine, is legal at every turn
  and ends with the same winners, length, unfinished flag and statistics (both weightings);
- playouts from engine positions (as MCTS runs them) replay through the engine the same way.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.analysis.blockd import batch, kernel
from boardlab.analysis.blockd.engine import make_game
from boardlab.analysis.runner import CHANCE_STREAM, derive_seed
from boardlab.layouts import load

from blockd_definitions import engine_positions, option_definitions
from blockd_replay import replay

DEFINITIONS = option_definitions()


def destination_twin(moves, u1: float, u2: float):
    """The destination-first choice, written plainly over the engine's move list."""
    targets = sorted({m.to for m in moves})
    to = targets[min(int(u1 * len(targets)), len(targets) - 1)]
    plain = [m for m in moves if m.to == to and m.restore < 0]
    restores = [m for m in moves if m.to == to and m.restore >= 0]
    if plain and (not restores or u2 < 0.5):
        return plain[0]
    if plain:
        u2 = 2 * u2 - 1
    return restores[min(int(u2 * len(restores)), len(restores) - 1)]


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_moves_and_numbering_equal_the_engine(name):
    definition = DEFINITIONS[name]
    rng = random.Random(5)
    for players in sorted({definition.game.min_players, definition.game.max_players}):
        game = make_game(definition, players)
        states = engine_positions(game, 120, seed=players)
        assert any(s.restore[s.current_player()] and s.down for s in states) or not definition.rules.restore_bonus
        for state in states:
            position = kernel.Position(state)
            for seat in range(players):
                if state.pawns[seat] < 0:
                    continue
                plain, restorable, via = position.moves(seat)
                listed = kernel.listed_moves(plain, restorable, via)
                expected = [(m.restore, m.to) for m in state.moves_of(seat)]
                assert listed == expected
                assert position.has_move(seat) == bool(expected)
            seat = state.current_player()
            plain, restorable, via = position.moves(seat)
            moves = state.legal_moves()
            total = len(moves)
            for i, move in enumerate(moves):  # move i owns [i / total, (i + 1) / total) (up to rounding at the ends)
                for u in ((i + 0.01) / total, (i + 0.5) / total, (i + 0.99) / total):
                    assert kernel.pick(plain, restorable, via, u, 0.0, kernel.MOVES) == (move.restore, move.to)
            for _ in range(5):
                u1, u2 = rng.random(), rng.random()
                twin = destination_twin(moves, u1, u2)
                assert kernel.pick(plain, restorable, via, u1, u2, kernel.DESTINATION) == (twin.restore, twin.to)


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_kernel_games_replay_through_the_engine(name):
    definition = DEFINITIONS[name]
    for players in range(definition.game.min_players, definition.game.max_players + 1):
        game = make_game(definition, players)
        count = 30
        cards = batch.deal_cards(game, [derive_seed(7, CHANCE_STREAM, d) for d in range(count)])
        keys = batch.derive_seeds(7, batch.BATCH_STREAM, np.arange(count))
        for weighting in (kernel.MOVES, kernel.DESTINATION):
            result = kernel.play_deals(game, cards, keys, weighting, recorded=count)
            for g in range(count):
                history = result.history(g)
                state = replay(game, cards[g], history)
                assert state.is_terminal()
                assert result.record(g) == (state.winners(), state.is_unfinished(), state.length(), state.stats())
                assert len(history) == state.length()


@pytest.mark.parametrize("name", ["blockd", "blockd-pawns-stack", "blockd-end-of-round", "torus-2x5"])
def test_playouts_from_engine_positions_replay_through_the_engine(name):
    game = make_game(DEFINITIONS[name], DEFINITIONS[name].game.max_players)
    for i, state in enumerate(engine_positions(game, 60, seed=11)):
        position = kernel.Position(state)
        history = position.play_on(key=1000 + i, weighting=i % 2, record=True)
        after = replay(game, None, history, state=state)
        assert after.is_terminal()
        st = position.st.tolist()
        winners, unfinished, length, stats = kernel.record_fields(st, position.elim.tolist())
        assert (winners, unfinished, length) == (after.winners(), after.is_unfinished(), after.length())
        assert (stats["restores_earned"], stats["restores_used"], stats["rounds"], stats["tiebreak"]) == \
            (after.restores_earned, after.restores_used, after.round, after.tiebreak)
        assert stats["eliminations"] == [list(e) for e in after.eliminations[len(state.eliminations):]]
        # the packed entry point MCTS uses plays the same game and leaves the state alone
        before = state.to_position()
        assert kernel.playout_winner(state, 1000 + i, i % 2) == (winners[0] if winners and not unfinished else -1)
        assert state.to_position() == before
        returns = state.clone().random_playout(random.Random(i), "moves")
        assert sum(returns) in (0.0, 1.0) and len(returns) == state.players


def test_kernel_draws_are_the_batch_uniforms():
    keys = np.array([0, 1, 2**63 + 5, 2**64 - 1], dtype=np.uint64)
    turns = np.array([0, 7, 399, 3])
    expected = batch.uniforms(keys, turns)
    got = [kernel.to_unit(kernel.draw(k, int(t))) for k, t in zip(keys, turns)]
    assert got == expected.tolist()


def test_the_variants_exercise_what_they_should():
    """The replays above meet eliminations, restores, tie-breaks and the cap."""
    def results(name, players=4, count=200):
        game = make_game(DEFINITIONS[name], players)
        cards = batch.deal_cards(game, [derive_seed(3, CHANCE_STREAM, d) for d in range(count)])
        result = kernel.play_deals(game, cards, batch.derive_seeds(3, batch.BATCH_STREAM, np.arange(count)))
        return [result.record(g) for g in range(count)]
    base = results("blockd")
    assert sum(stats["restores_used"] for *_, stats in base) > 0
    assert all(len(stats["eliminations"]) == 3 for *_, stats in base)
    assert np.mean([unfinished for _, unfinished, _, _ in results("cap-12")]) > 0.5
    assert any(stats["tiebreak"] for *_, stats in results("blockd-end-of-round"))
    assert all(stats["restores_used"] == stats["restores_earned"] == 0 for *_, stats in results("blockd-no-restore"))


def test_the_destination_weighting_restores_less_often():
    """The fair baseline: fewer restores than uniform over moves, on the same deals."""
    game = make_game(load("blockd"), 4)
    count = 2000
    cards = batch.deal_cards(game, [derive_seed(3, CHANCE_STREAM, d) for d in range(count)])
    keys = batch.derive_seeds(3, batch.BATCH_STREAM, np.arange(count))
    out = [kernel.play_deals(game, cards, keys, w).out for w in (kernel.MOVES, kernel.DESTINATION)]
    used = [o[:, kernel.USED].sum() / o[:, kernel.EARNED].sum() for o in out]
    assert used[1] < used[0] - 0.05, used  # 0.75 against 0.85 of the bonuses earned


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_compiled_trap_distance_equals_the_reference(name):
    from boardlab.analysis.blockd import graph, graph_kernel as traps
    definition = DEFINITIONS[name]
    game = make_game(definition, definition.game.max_players)
    found = set()
    for state in engine_positions(game, 25, seed=3):
        for seat in range(game.players):
            for horizon in (0, 1, 3):
                expected = graph.trap_distance(state, seat, horizon)
                assert traps.trap_distance(state, seat, horizon) == expected
                found.add(expected)
    assert len(found) >= 2  # the positions are not all alike


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_compiled_graph_figures_equal_networkx(name):
    from boardlab.analysis.blockd import graph, graph_kernel
    definition = DEFINITIONS[name]
    game = make_game(definition, definition.game.max_players)
    for state in engine_positions(game, 25, seed=4):
        g = graph.move_graph(state)
        parts = graph.components(g)
        dead, count, largest, reach = graph_kernel.graph_figures(state)
        assert (dead, count, largest) == (len(graph.dead_cells(g)), len(parts), len(parts[0]) if parts else 0)
        assert reach == [sum(1 << v for v in g.successors(cell)) for cell in range(game.grid.cells)]
        for cell in range(game.grid.cells):
            for turns in (1, 2, 3):
                assert graph_kernel.reachable_count(reach, cell, turns) == len(graph.reachable_within(g, cell, turns)) - 1


def test_random_move_by_index_is_the_listed_move():
    """`random_move` draws what `legal_moves()[rng.randrange(len(...))]` draws, without the list."""
    for name in ("blockd", "blockd-pawns-stack", "torus-2x5"):
        game = make_game(DEFINITIONS[name], DEFINITIONS[name].game.max_players)
        for i, state in enumerate(engine_positions(game, 60, seed=8)):
            fresh = state.clone()
            fresh._moves = None  # not listed yet: counted from the masks
            a, b = random.Random(i), random.Random(i)
            assert fresh.random_move(a) == state.legal_moves()[b.randrange(len(state.legal_moves()))]
            assert a.random() == b.random()  # the same draws were used


def test_the_destination_random_agent_plays_the_kernels_weighting():
    """The Python agent's choices follow the exact probabilities of the destination-first weighting."""
    from boardlab.analysis.blockd.agents import DestinationRandomAgent
    game = make_game(load("blockd"), 2)
    state = next(s for s in engine_positions(game, 400, seed=2)
                 if s.restore[s.current_player()] and s.down and len(s.legal_moves()) < 40
                 and any(m.restore < 0 for m in s.legal_moves()))
    moves = state.legal_moves()
    targets = sorted({m.to for m in moves})
    exact = {}
    for to in targets:
        ways = [m for m in moves if m.to == to]
        plain = [m for m in ways if m.restore < 0]
        restores = [m for m in ways if m.restore >= 0]
        for m in plain:
            exact[m] = (1 / len(targets)) * (0.5 if restores else 1.0)
        for m in restores:
            exact[m] = (1 / len(targets)) * (0.5 if plain else 1.0) / len(restores)
    assert abs(sum(exact.values()) - 1) < 1e-12
    agent, rng, draws = DestinationRandomAgent(), random.Random(6), 20000
    counts = {m: 0 for m in moves}
    for _ in range(draws):
        counts[agent.choose(state, rng)] += 1
    for m, p in exact.items():
        sigma = (p * (1 - p) / draws) ** 0.5
        assert abs(counts[m] / draws - p) < 5 * sigma + 1e-9, (m, counts[m] / draws, p)

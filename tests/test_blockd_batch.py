"""The batched random self-play of Blockd against its slow twin, the reference engine.

- seeds: the vectorised SeedSequence equals `derive_seed`;
- moves: on positions reached by the engine, the batch's move sets equal `legal_moves()`, and
  its move numbering is a bijection onto them (so a uniform number is a uniform move);
- games: every recorded batch game, replayed move by move through the engine, is legal at
  every turn and ends with the same winners, length, unfinished flag and statistics;
- the runner: same deals as the reference path, same records whatever the worker count or
  block size, fallback to the reference path for other agents.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import COMMON_AGENTS, RandomAgent
from boardlab.analysis.blockd import batch
from boardlab.analysis.blockd.engine import Move, make_game
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.runner import CHANCE_STREAM, Match, derive_seed, run
from boardlab.layouts import load

from blockd_definitions import definition_named


def with_rules(definition, **changes):
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, **changes))


def definitions():
    """Every shipped Blockd definition and variant, plus a short turn cap, other start steps,
    a flat 4 x 4 board and the engine's test grids (every rule option the batch reads)."""
    base = load("blockd")
    out = {name: load(name) for name in ("blockd", "blockd-flat", "blockd-pawns-block", "blockd-pawns-stack",
                                         "blockd-end-of-round", "blockd-eliminated-card-stay",
                                         "blockd-no-restore")}
    out["cap-12"] = with_rules(base, max_turns=12)
    out["start-2-3"] = with_rules(base, start_steps=(2, 3))
    out["stack-end-of-round-stay"] = with_rules(base, pawns="stack", elimination="end_of_round",
                                                eliminated_card="stay")
    out["block-flat-end-of-round"] = with_rules(base, pawns="block", torus=False, elimination="end_of_round")
    small = dataclasses.replace(base, board=dataclasses.replace(base.board, rows=4, columns=4),
                                cards=dataclasses.replace(base.cards, values=(1, 2), blind=4))
    out["flat-4x4"] = with_rules(small, torus=False)
    narrow = dataclasses.replace(base, board=dataclasses.replace(base.board, rows=2, columns=5),
                                 cards=dataclasses.replace(base.cards, values=(1,), blind=2))
    out["torus-2x5"] = narrow  # up and down reach the same cell
    for name in ("grid-6x6-purple", "grid-3x4-flat"):  # 36 cells: int64 masks; 5 players
        out[name] = definition_named(name)
    return out


DEFINITIONS = definitions()


def test_vectorised_seeds_equal_derive_seed():
    for seed in (0, 1, 99, 2**32 + 5, 2**64 + 3):
        for stream in (0, 2):
            indices = [0, 1, 2, 63, 64, 1000, 2**31, 2**32 - 1]
            got = batch.derive_seeds(seed, stream, indices)
            assert [int(v) for v in got] == [derive_seed(seed, stream, i) for i in indices]
    with pytest.raises(ValueError):
        batch.derive_seeds(1, 0, [2**32])


def test_uniforms_are_uniform_and_keyed():
    keys = np.arange(20000, dtype=np.uint64)
    u = batch.uniforms(keys, np.zeros(20000, dtype=np.int64))
    assert ((0 <= u) & (u < 1)).all()
    counts = np.bincount((u * 10).astype(int), minlength=10)
    assert (abs(counts - 2000) < 200).all()  # ~4.5 standard deviations
    again = batch.uniforms(keys, np.ones(20000, dtype=np.int64))
    assert not np.isclose(u, again).any()


def engine_positions(game, count: int, seed: int):
    """States where someone is to move, from random engine games."""
    rng = random.Random(seed)
    agent = RandomAgent()
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        state.apply(state.sample_chance(rng))
        while not state.is_terminal() and len(out) < count:
            if rng.random() < 0.5:
                out.append(state.clone())
            state.apply(agent.choose(state, rng))
    return out


def batch_moves(game, states):
    """Per state, the batch's moves as a list in its numbering."""
    tables = batch.tables_of(game)
    rules = game.rules
    seat = [s.current_player() for s in states]
    cells = np.array([s.pawns[p] for s, p in zip(states, seat)])
    card = np.array([s.layout.card_ids[c] for s, c in zip(states, cells)])
    others = np.array([s.pawn_mask(p) for s, p in zip(states, seat)], dtype=tables.dtype)
    blocked = np.array([s.down | s.layout.blind for s in states], dtype=tables.dtype)
    restorable = np.array([s.down if s.restore[p] and rules.restore_bonus else 0 for s, p in zip(states, seat)],
                          dtype=tables.dtype)
    plain, via = batch.move_masks(tables, rules, tables.card_class[card], cells, blocked, others, restorable)
    counts_plain, counts_via, total = batch.count_moves(tables, plain, via, restorable)
    out = []
    for i in range(len(states)):
        rows = np.full(total[i], i)
        restored, to = batch.pick_moves(tables, plain, via, restorable, counts_plain, counts_via, rows,
                                        np.arange(total[i]))
        out.append([Move(int(t), int(r)) for r, t in zip(restored, to)])
    return out


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_move_sets_and_numbering_equal_the_engine(name):
    definition = DEFINITIONS[name]
    for players in sorted({definition.game.min_players, definition.game.max_players}):
        game = make_game(definition, players)
        states = engine_positions(game, 150, seed=players)
        assert any(s.restore[s.current_player()] and s.down for s in states) or not definition.rules.restore_bonus
        for state, moves in zip(states, batch_moves(game, states)):
            assert len(moves) == len(set(moves)), "a move numbered twice"
            assert moves == state.legal_moves()  # same moves, in the engine's order


def replay(game, deal_seed: int, history):
    """The engine state after replaying a batch game; asserts every move was legal."""
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(deal_seed)))
    for turn, (seat, restore, to) in enumerate(history):
        assert state.current_player() == seat, f"turn {turn}: engine has seat {state.current_player()} to move"
        move = Move(to, restore)
        assert move in state.legal_moves(), f"turn {turn}: {move} is not legal in the engine"
        state.apply(move)
    return state


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_batch_games_replay_through_the_engine(name):
    definition = DEFINITIONS[name]
    for players in range(definition.game.min_players, definition.game.max_players + 1):
        game = make_game(definition, players)
        count = 40
        seeds = [derive_seed(7, CHANCE_STREAM, d) for d in range(count)]
        keys = batch.derive_seeds(7, batch.BATCH_STREAM, np.arange(count))
        result = batch.play_games(game, seeds, keys, record=set(range(count)))
        for g in range(count):
            state = replay(game, seeds[g], result.histories[g])
            assert state.is_terminal()
            assert state.winners() == result.winners[g]
            assert state.length() == result.length[g] == len(result.histories[g])
            assert state.is_unfinished() == result.unfinished[g]
            assert state.stats() == result.stats[g]


def test_the_variants_exercise_what_they_should():
    """The replays above meet eliminations, restores, tie-breaks and the cap."""
    def results(name, players=4, count=200):
        game = make_game(DEFINITIONS[name], players)
        seeds = [derive_seed(3, CHANCE_STREAM, d) for d in range(count)]
        return batch.play_games(game, seeds, batch.derive_seeds(3, batch.BATCH_STREAM, np.arange(count)))
    base = results("blockd")
    assert sum(s["restores_used"] for s in base.stats) > 0
    assert all(len(s["eliminations"]) == 3 for s in base.stats)
    assert results("cap-12").unfinished.mean() > 0.5
    assert any(s["tiebreak"] for s in results("blockd-end-of-round").stats)
    assert all(s["restores_used"] == s["restores_earned"] == 0 for s in results("blockd-no-restore").stats)


def match_of(game, seed=5, agents=None, rotation=True):
    agents = agents or [COMMON_AGENTS["random"]] * game.players
    return Match(game, tuple(agents), tuple(["random"] * game.players), seed, rotation)


def test_play_block_deals_like_the_reference_path():
    game = make_game(load("blockd"), 3)
    match = match_of(game)
    records = batch.play_block(game, match, 0, 30)
    cards = batch.deal_cards(game, batch.derive_seeds(5, CHANCE_STREAM, [r.deal for r in records]).tolist())
    for record, row in zip(records, cards):
        state = game.new_initial_state()
        assert state.current_player() == CHANCE
        state.apply(state.sample_chance(random.Random(derive_seed(5, CHANCE_STREAM, record.deal))))
        assert tuple(row) == state.layout.card_ids
        assert (record.deal, record.rotation) == match.seating(record.index)[:2]
    plain = match_of(game, rotation=False)
    records = batch.play_block(game, plain, 10, 20)
    assert [(r.index, r.deal, r.rotation) for r in records] == [(i, i, 0) for i in range(10, 20)]


def test_results_do_not_depend_on_blocks_or_workers():
    game = make_game(load("blockd"), 4)
    match = match_of(game)
    whole = batch.play_block(game, match, 0, 300)
    pieces = batch.play_block(game, match, 0, 64) + batch.play_block(game, match, 64, 200) + \
        batch.play_block(game, match, 200, 300)
    assert whole == pieces
    factories = [engines.agent_factories("blockd")["random"]] * 4
    games = 2 * batch.BATCH_BLOCK + 100  # three blocks, so two workers really share them
    one = run(game, factories, games, seed=9, workers=1, progress=False)
    two = run(game, factories, games, seed=9, workers=2, progress=False)
    assert len(one[0]) == games
    assert one[0] == two[0]
    strip = lambda s: {k: v for k, v in s.items() if k != "seconds"}
    assert strip(one[1]) == strip(two[1])


def test_other_agents_use_the_reference_path():
    game = make_game(load("blockd"), 2)
    greedy = engines.agent_factories("blockd")["greedy"]
    match = match_of(game, agents=[COMMON_AGENTS["random"], greedy])
    assert batch.play_block(game, match, 0, 4) is None
    assert game.play_block(match, 0, 4) is None and game.block_size(match) is None
    assert game.block_size(match_of(game)) == batch.BATCH_BLOCK


@pytest.mark.slow
@pytest.mark.parametrize("name", ["blockd", "blockd-end-of-round", "blockd-pawns-stack"])
def test_batch_and_reference_agree_in_distribution(name):
    """Same deals, independent move choices: win rates by seat and mean length agree."""
    from boardlab.analysis.stats import two_proportion_test
    game = make_game(DEFINITIONS[name], 4)
    factories = [COMMON_AGENTS["random"]] * 4
    games = 2000
    fast_records, fast = run(game, factories, games, seed=11, workers=1, progress=False)
    slow_records = [__import__("boardlab.analysis.runner", fromlist=["play_one"]).play_one(
        match_of(game, seed=11), i) for i in range(games)]
    slow_wins = [sum(1 for r in slow_records if r.winners == (s,)) for s in range(4)]
    for seat in range(4):
        assert two_proportion_test(fast["wins_by_seat"][seat], games, slow_wins[seat], games) > 0.001
    fast_len = np.array([r.length for r in fast_records], dtype=float)
    slow_len = np.array([r.length for r in slow_records], dtype=float)
    se = np.sqrt(fast_len.var() / games + slow_len.var() / games)
    assert abs(fast_len.mean() - slow_len.mean()) < 4 * se


def test_boards_too_large_for_int64_masks_use_the_reference_path():
    base = load("blockd")
    values = tuple(range(1, 16))  # 4 suits x 16 cards = 64 cells
    big = dataclasses.replace(base, board=dataclasses.replace(base.board, rows=8, columns=8),
                              cards=dataclasses.replace(base.cards, values=values, blind=0))
    game = make_game(big, 2)
    match = match_of(game)
    assert batch.unsupported(game, match).startswith("64 cells")
    assert batch.play_block(game, match, 0, 2) is None and game.block_size(match) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_block_deals_are_the_layouts_the_reference_path_deals_turned_or_not(players):
    """With one agent everywhere the runner turns each deal round the table; the batch must too."""
    game = make_game(load("blockd"), players)
    for rotate in (False, True):
        match = Match(game, (RandomAgent,) * players, ("random",) * players, 9, True, rotate_deals=rotate)
        indices = np.arange(0, 3 * players)
        deal_of, rotation_of, card_ids = batch.block_deals(game, match, indices)
        for i in indices.tolist():
            deal, rotation, _ = match.seating(i)
            state = game.new_initial_state()
            outcome = state.sample_chance(random.Random(derive_seed(9, CHANCE_STREAM, deal)))
            turn = match.deal_rotation(i)
            expected = game.rotate_deal(outcome, turn) if turn else outcome
            assert (deal_of[i], rotation_of[i]) == (deal, rotation)
            assert tuple(card_ids[i].tolist()) == tuple(expected)
        if rotate:  # every seat starts once on every start card of the deal
            starts = {tuple(card_ids[i].tolist()).index(game.start_card(0)) for i in range(players)}
            assert len(starts) == players

"""The batched random self-play of Blockd (the runner's hook) against the reference path.

- seeds: the vectorised SeedSequence equals `derive_seed`;
- the runner: same deals as the reference path, same records as the reference engine's
  replay, the same records whatever the worker count or block size, fallback to the
  reference path for other agents and for boards or rules the kernel does not play;
- the summary tally made from the kernel's arrays equals the tally of the block's records.
(The compiled games themselves are compared with the engine in test_blockd_kernel.py.)
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import COMMON_AGENTS, RandomAgent
from boardlab.analysis.blockd import batch, kernel
from boardlab.analysis.blockd.engine import make_game
from boardlab.analysis.protocol import CHANCE
from boardlab.analysis.runner import CHANCE_STREAM, Match, derive_seed, run_records
from boardlab.analysis.tally import SummaryTally
from boardlab.layouts import load

from blockd_definitions import option_definitions


DEFINITIONS = option_definitions()


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
        assert tuple(row) == state.deal.card_ids
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
    one = run_records(game, factories, games, seed=9, workers=1, progress=False)
    two = run_records(game, factories, games, seed=9, workers=2, progress=False)
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
    fast_records, fast = run_records(game, factories, games, seed=11, workers=1, progress=False)
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


def test_rule_options_the_kernel_does_not_play_use_the_reference_path():
    """A rule option the kernel does not know (or a value it does not play) is never played as another rule."""
    @dataclasses.dataclass(frozen=True)
    class NewRules(type(load("blockd").rules)):
        tunnels: bool = True
    base = load("blockd")
    game = make_game(dataclasses.replace(base, rules=NewRules(**dataclasses.asdict(base.rules))), 2)
    match = match_of(game)
    assert "tunnels" in batch.unsupported(game, match)
    assert batch.play_block(game, match, 0, 2) is None and game.block_size(match) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_block_deals_are_the_reference_paths_deals_turned_or_not(players):
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


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_a_blocks_tally_from_arrays_equals_the_tally_of_its_records(name):
    """`tally_block` (no record built) against `SummaryTally.add` of `play_block`'s records."""
    definition = DEFINITIONS[name]
    players = min(4, definition.game.max_players)
    game = make_game(definition, players)
    seen = 0
    for rotation, rotate_deals in ((True, True), (True, False), (False, False)):
        match = Match(game, (COMMON_AGENTS["random"],) * players, ("random",) * players, 3, rotation, rotate_deals)
        from_records = SummaryTally(match)
        from_records.add(batch.play_block(game, match, 5, 205))
        pieces = [batch.tally_block(game, match, a, b) for a, b in ((5, 70), (70, 71), (71, 205))]
        from_arrays = SummaryTally(match)
        for piece in reversed(pieces):
            from_arrays.merge(piece)
        expected = from_records.result(game, match, 0.0)
        assert from_arrays.result(game, match, 0.0) == expected
        assert expected["games"] == 200
        seen += sum(expected["blockd"]["eliminations_by_round"].values())
    assert seen > 0


def test_tally_block_declines_what_the_batch_path_does_not_play():
    game = make_game(load("blockd"), 2)
    greedy = engines.agent_factories("blockd")["greedy"]
    match = match_of(game, agents=[COMMON_AGENTS["random"], greedy])
    assert batch.tally_block(game, match, 0, 4) is None and game.tally_block(match, 0, 4) is None

"""The streamed summaries of 6x6, Links and Deblockle (`Game.tally`) against their list-based
twins (`Game.summarize`), and memory that stays flat in the number of games (every game).

A tally must give exactly the figures (the same JSON, byte for byte) that the list-based
`summarize` gives for the same records, however the games are split into blocks, in whatever
order the blocks' tallies are merged, after the trip through pickle that a worker's tally makes.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import pickle
import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis import engines, runner
from boardlab.analysis.deblockle.summary import DeblockleTally
from boardlab.analysis.deblockle.summary import summarize as summarize_deblockle
from boardlab.analysis.runner import GameRecord, make_match, run, run_records
from boardlab.analysis.sixbysix.engine import SixBySixGame
from boardlab.analysis.store import decode_record, encode_record
from boardlab.analysis.tally import Histogram, RecordsTally, SummaryTally
from boardlab.layouts import load


def with_rules(definition, **changes):
    return dataclasses.replace(definition, rules=dataclasses.replace(definition.rules, **changes))


#: (label, game maker, agent names (one name: every seat), games): defaults, variants, mixed agents,
#: capped games (unfinished ones), and 6x6 without the other lead's replays
CONFIGS = [
    ("sixbysix-6", lambda: engines.make_game(load("sixbysix"), 6), ["random"], 200),
    ("sixbysix-2-fixed", lambda: engines.make_game(load("sixbysix-lead-fixed"), 2), ["random"], 200),
    ("sixbysix-house-mixed", lambda: engines.make_game(load("sixbysix-house-bank"), 3),
     ["greedy", "random", "favourite-7"], 150),
    ("sixbysix-capped", lambda: SixBySixGame(with_rules(load("sixbysix"), max_rounds=40), 4), ["random"], 150),
    ("sixbysix-no-checkpoint", lambda: SixBySixGame(with_rules(load("sixbysix"), max_rounds=8), 3), ["random"], 80),
    ("sixbysix-one-lead", lambda: SixBySixGame(load("sixbysix"), 4, compare_lead=False), ["favourite"], 120),
    ("links-4", lambda: engines.make_game(load("links"), 4), ["random"], 300),
    ("links-master-match-mixed", lambda: engines.make_game(load("links-master-match"), 3),
     ["greedy", "random", "random"], 100),
    ("links-taken-8", lambda: engines.make_game(load("links-capturing-card-taken"), 8), ["random"], 150),
    ("links-capped", lambda: engines.make_game(with_rules(load("links"), max_turns=41), 3), ["random"], 200),
    ("deblockle", lambda: engines.make_game(load("deblockle"), 2), ["random"], 40),
    ("deblockle-two-blocks-mixed", lambda: engines.make_game(load("deblockle-two-blocks"), 2),
     ["greedy", "random"], 60),
    ("deblockle-capped", lambda: engines.make_game(with_rules(load("deblockle"), max_turns=32), 2), ["greedy"], 16),
]


def played(config, seed: int = 4):
    """(game, match, records sorted by index) of one configuration."""
    _, make, names, games = config
    game = make()
    table = engines.agent_factories(game.id)
    names = names * game.players if len(names) == 1 else names
    agents = [table[n] for n in names]
    records, _ = run_records(game, agents, games, seed=seed, workers=1, agent_names=names, progress=False)
    return game, make_match(game, agents, seed, agent_names=names), records


def merged_tally(game, match, records, rng: random.Random):
    """The game's tally of `records` cut at random into blocks (records shuffled), each block's
    tally pickled as a worker sends it, merged in a shuffled order."""
    shuffled = records[:]
    rng.shuffle(shuffled)
    cuts = sorted(rng.sample(range(1, len(records)), min(6, len(records) - 1))) if len(records) > 1 else []
    tallies = []
    for a, b in zip([0, *cuts], [*cuts, len(records)]):
        tally = game.tally(match)
        tally.add(shuffled[a:b])
        tallies.append(pickle.loads(pickle.dumps(tally)))
    tallies.append(game.tally(match))  # a block with no game merges as nothing
    rng.shuffle(tallies)
    total = tallies[0]
    for tally in tallies[1:]:
        total.merge(tally)
    return total


@pytest.mark.parametrize("config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_the_tally_gives_the_json_of_the_list_based_summary(config):
    game, match, records = played(config)
    assert not isinstance(game.tally(match), RecordsTally)
    want = json.dumps(game.summarize(records))
    for attempt in range(3):
        got = merged_tally(game, match, records, random.Random(f"{config[0]}-{attempt}")).result()
        assert json.dumps(got) == want
    if config[0].endswith("capped"):  # the capped configurations do exercise unfinished games
        assert any(r.unfinished for r in records) and not all(r.unfinished for r in records)
    # records read back from the results store (lists where the engine wrote tuples) give the same
    stored = [decode_record(r.index, encode_record(r)) for r in records]
    assert json.dumps(merged_tally(game, match, stored, random.Random(1)).result()) == want


SIX_BY_SIX = [c for c in CONFIGS if c[0].startswith("sixbysix")]


@pytest.mark.parametrize("config", SIX_BY_SIX, ids=[c[0] for c in SIX_BY_SIX])
def test_six_by_six_tally_from_the_kernels_arrays_equals_the_tally_of_its_records(config):
    """`Game.tally_block` (no record built) against the summary tally of the same games' records,
    block by block as the runner cuts them, merged: the whole summary, byte for byte."""
    game, match, records = played(config)
    blocks = runner.blocks_of(match, len(records))
    fast = SummaryTally(match)
    for start, stop in blocks:
        block = game.tally_block(match, start, stop)
        assert block is not None
        fast.merge(pickle.loads(pickle.dumps(block)))
    slow = SummaryTally(match)
    slow.add(records)
    assert json.dumps(fast.result(game, match, 0.0)) == json.dumps(slow.result(game, match, 0.0))
    assert game.tally_block(match, 5, 5).games == 0


@pytest.mark.parametrize("config", CONFIGS[::3], ids=[c[0] for c in CONFIGS[::3]])
def test_no_game_gives_the_list_based_summary_of_no_record(config):
    game = config[1]()
    table = engines.agent_factories(game.id)
    match = make_match(game, [table["random"]] * game.players, 1)
    assert json.dumps(game.tally(match).result()) == json.dumps(game.summarize([]))


def test_six_by_six_compares_both_leads_only_when_every_game_was_replayed():
    game, match, records = played(CONFIGS[0], seed=2)
    assert set(game.summarize(records)["by_lead"]) == {"fixed", "rotate"}
    one_bare = [dataclasses.replace(r, stats={k: v for k, v in r.stats.items() if k != "other_lead"})
                if r.index == 7 else r for r in records]
    bare_summary = game.summarize(one_bare)
    assert list(bare_summary["by_lead"]) == [game.lead] and "lead_seat1_p_value" not in bare_summary
    assert json.dumps(merged_tally(game, match, one_bare, random.Random(2)).result()) == json.dumps(bare_summary)


@st.composite
def deblockle_records(draw, blocks: int = 3):
    """Deblockle records with what random play never shows: passes, blocked spells, "no_moves" ends."""
    count = draw(st.integers(0, 12))
    records = []
    for index in range(count):
        passes = draw(st.lists(st.integers(0, 9), min_size=2, max_size=2))
        spells = [draw(st.integers(min(p, 1), p)) for p in passes]
        scored = [sorted(draw(st.lists(st.integers(1, 80), max_size=blocks, unique=True))) for _ in range(2)]
        end = draw(st.sampled_from(["scored", "no_moves", "cap"]))
        winners = () if end == "cap" else draw(st.sampled_from([(0,), (1,), (0, 1)]))
        records.append(GameRecord(index, index, 0, ("random", "random"), winners, end == "cap", 40,
                                  {"passes": passes, "blocked_spells": spells, "scored_turns": scored, "end": end}))
    return records


@settings(max_examples=150, deadline=None)
@given(deblockle_records(), st.randoms(use_true_random=False))
def test_deblockle_tally_counts_passes_and_spells_as_its_twin_does(records, rng):
    class Blocks:  # the one thing DeblockleTally asks of the game: its tally, by block count
        def tally(self, match):
            return DeblockleTally(3)
    total = merged_tally(Blocks(), None, records, rng)
    assert json.dumps(total.result()) == json.dumps(summarize_deblockle(records, 3))


# -- memory flat in the number of games ---------------------------------------------------------

def leaves(value, path="tally", floats=None) -> tuple[int, dict]:
    """(histogram entries, float leaves by path) of a tally's attributes; fails on anything but
    integers, names, floats and histograms of integers (a record, an array...)."""
    floats = {} if floats is None else floats
    entries = 0
    if isinstance(value, Histogram):
        assert all(type(k) is int and type(v) is int for k, v in value.counts.items()), path
        entries = len(value.counts)
    elif isinstance(value, (list, tuple, dict)):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        entries = sum(leaves(v, f"{path}[{k!r}]", floats)[0] for k, v in items)
    elif hasattr(value, "__dict__") or hasattr(value, "__slots__"):
        names = list(vars(value)) if hasattr(value, "__dict__") else list(value.__slots__)
        entries = sum(leaves(getattr(value, name), f"{path}.{name}", floats)[0] for name in names)
    elif type(value) is float:
        floats[path] = value
    else:
        assert value is None or type(value) in (int, bool, str), f"{path} holds {type(value).__name__}"
    return entries, floats


#: (game, players, games N): the tally of N and of 10 N games is compared
FLAT = [("blockd", 4, 64), ("sixbysix", 6, 64), ("links", 4, 64), ("deblockle", 2, 16)]


@pytest.mark.parametrize("game_id,players,games", FLAT)
def test_a_summary_tally_holds_counts_only_and_grows_only_with_distinct_values(game_id, players, games):
    game = engines.make_game(load(game_id), players)
    match = make_match(game, [engines.agent_factories(game_id)["random"]] * players, 1)
    empty, small, large = SummaryTally(match), runner.tally_block(match, 0, games), runner.tally_block(match, 0, 10 * games)
    assert (small.games, large.games) == (games, 10 * games)
    entries, floats = zip(*(leaves(t) for t in (small, large)))  # histogram entries: one per distinct value
    assert floats[0] == floats[1] == leaves(empty)[1]  # a float is a constant of the game, never accumulated
    sizes = len(pickle.dumps(small)), len(pickle.dumps(large))
    # a pickled histogram entry is two small integers (at most 10 bytes); a few integer sums grow a
    # byte or two as they pass 256 or 65536; a record would add hundreds of bytes per game
    assert sizes[1] - sizes[0] <= 10 * (entries[1] - entries[0]) + 128
    records = runner.play_block(match, 0, games)
    assert sizes[1] < len(pickle.dumps(records))


def peak_bytes(game, agents, games: int) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        run(game, agents, games, seed=1, workers=1, progress=False)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_peak_memory_of_a_streamed_run_is_flat_in_the_number_of_games():
    game = engines.make_game(load("links"), 4)
    # the runner's usual 64-game blocks rather than the compiled path's 2048 (any block size
    # gives the same games), so that 100 blocks play in about a second
    game.block_size = lambda match: None
    agents = [engines.agent_factories("links")["random"]] * 4
    run(game, agents, 64, seed=1, workers=1, progress=False)  # compiled code and caches loaded before measuring
    small, large = peak_bytes(game, agents, 640), peak_bytes(game, agents, 6400)
    # the same run keeping every record (the fallback `RecordsTally`): the measure sees growth
    game.tally = lambda match: RecordsTally(game)
    kept_small, kept_large = peak_bytes(game, agents, 640), peak_bytes(game, agents, 6400)
    assert kept_large - kept_small > 2_000_000  # about 1 kB a record
    assert large < 1.5 * small
    assert large - small < (kept_large - kept_small) / 10

"""Streamed summaries (`analysis/tally.py`): counts that merge in any order equal the summary of
the whole list of records, and `runner.run` (streamed, no records kept) equals `run_records`."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.analysis import engines
from boardlab.analysis.runner import make_match, run, run_records, summarize
from boardlab.analysis.stats import describe_lengths
from boardlab.analysis.tally import Histogram, SummaryTally, percentile_of_counts
from boardlab.layouts import load


def strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "seconds"}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-50, 500), min_size=0, max_size=80))
def test_a_histogram_describes_its_values_as_numpy_does(values):
    h = Histogram()
    h.add(values)
    assert h.describe() == describe_lengths(values)
    arrays = Histogram()
    arrays.add_array(np.array(values, dtype=np.int64))
    assert arrays.counts == h.counts


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=40), st.floats(0, 100))
def test_percentiles_of_counts_are_numpys(values, q):
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    assert percentile_of_counts(counts, q) == float(np.percentile(values, q))


#: (game, players, agents): every engine, with one agent everywhere and with mixed agents
MATCHES = [("blockd", 4, ["random"]), ("blockd", 3, ["greedy", "random", "random"]),
           ("sixbysix", 4, ["random"]), ("sixbysix", 3, ["greedy", "random", "favourite-7"]),
           ("links", 4, ["random"]), ("links", 3, ["greedy", "random", "random"]),
           ("deblockle", 2, ["random"]), ("deblockle", 2, ["greedy", "random"])]


def setup(game_id: str, players: int, names: list[str]):
    game = engines.make_game(load(game_id), players)
    table = engines.agent_factories(game_id)
    names = names * players if len(names) == 1 else names
    return game, [table[n] for n in names], names


@pytest.mark.parametrize("game_id,players,names", MATCHES)
def test_tallies_merged_in_any_order_give_the_summary_of_all_records(game_id, players, names):
    game, agents, names = setup(game_id, players, names)
    games = 40 if game_id == "deblockle" else 120
    records, summary = run_records(game, agents, games, seed=3, workers=1, agent_names=names, progress=False)
    match = make_match(game, agents, 3, agent_names=names)
    rng = random.Random(game_id)
    shuffled = records[:]
    rng.shuffle(shuffled)
    cuts = sorted(rng.sample(range(1, games), 5))
    parts = [shuffled[a:b] for a, b in zip([0, *cuts], [*cuts, games])]
    tallies = []
    for part in parts:
        tally = SummaryTally(match)
        tally.add(part)
        tallies.append(pickle.loads(pickle.dumps(tally)))  # as a worker sends it back
    rng.shuffle(tallies)
    total = SummaryTally(match)
    for tally in tallies:
        total.merge(tally)
    assert strip(total.result(game, match, 0.0)) == strip(summary)
    assert strip(summarize(game, match, list(reversed(records)), 0.0)) == strip(summary)


@pytest.mark.parametrize("game_id,players,names", MATCHES[::3])
def test_the_streamed_run_equals_the_run_that_keeps_records(game_id, players, names):
    game, agents, names = setup(game_id, players, names)
    games = 30 if game_id == "deblockle" else 150
    _, kept = run_records(game, agents, games, seed=5, workers=1, agent_names=names, progress=False)
    for workers in (1, 2):
        assert strip(run(game, agents, games, seed=5, workers=workers, agent_names=names, progress=False)) == strip(kept)


@pytest.mark.parametrize("rotating", [False, True])
def test_common_figures_from_arrays_equal_those_from_records(rotating):
    game, agents, names = setup("blockd", 3, ["greedy", "random", "random"] if rotating else ["random"])
    records, _ = run_records(game, agents, 90, seed=8, workers=1, agent_names=names, progress=False)
    match = make_match(game, agents, 8, agent_names=names)
    from_records, from_arrays = SummaryTally(match), SummaryTally(match)
    from_records.add(records)
    from_arrays.add_arrays(np.array([r.index for r in records]),
                           np.array([r.winners[0] if len(r.winners) == 1 and not r.unfinished else -1
                                     for r in records]),
                           np.array([r.unfinished for r in records]), np.array([r.length for r in records]))
    from_arrays.own = from_records.own  # the game's own figures are not the arrays' part
    assert from_arrays.result(game, match, 0.0) == from_records.result(game, match, 0.0)

"""compare keeps tallies, not records (issue 35): its numbers, read a chunk of records at a time, are
those the records give whole (the plain twin: every record in memory, the metrics computed on them,
the rotation group the unit as in the tallies' per-group sums)."""

from __future__ import annotations

from boardlab.analysis.report.compare import CompareOptions, compare, length_summary
from boardlab.analysis.report.jobs import Job, _prepare, play_jobs
from boardlab.analysis.report.metrics import headline_series, pair_groups, paired_ratio_difference
from boardlab.analysis.store import ResultStore
from boardlab.layouts import load


def test_the_store_reads_games_in_chunks_as_it_reads_them_whole(tmp_path):
    job = Job(load("blockd"), 3, ("random",) * 3, 100, 2)
    with ResultStore(tmp_path / "s.sqlite") as store:
        whole = play_jobs([job], store, workers=1, progress=False)[0].records
        config = _prepare(job, store)[2]
        chunks = list(store.record_chunks(config, 100, size=7))
    assert [len(c) for c in chunks] == [7] * 14 + [2]
    assert [r for c in chunks for r in c] == whole


def test_compare_chunk_by_chunk_gives_the_numbers_of_the_records_whole(tmp_path, monkeypatch):
    original = ResultStore.record_chunks
    monkeypatch.setattr(ResultStore, "record_chunks", lambda self, config, games, size=8192:
                        original(self, config, games, 13))  # many chunks, one odd at the end
    base, variant = load("blockd"), load("blockd-flat")
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = compare(base, [variant], store, CompareOptions(players=2, games=300, agent="random", workers=1,
                                                                progress=False))
        outcomes = play_jobs([Job(base, 2, ("random",) * 2, 300, 1), Job(variant, 2, ("random",) * 2, 300, 1)],
                             store, workers=1, progress=False)
    shown = result["comparisons"][0]
    b, v = (headline_series(o.records, 2) for o in outcomes)
    # the plain twin: every record in memory, the pairs grouped by their deals (the rotation group the unit)
    groups = pair_groups([r.deal for r in outcomes[0].records], [r.deal for r in outcomes[1].records], 2)
    assert len(set(groups)) < 300  # Blockd turns its deals: games in groups, not one game a group
    assert set(shown["metrics"]) == set(b)
    for name in b:
        twin = paired_ratio_difference(v[name], b[name], groups)
        mine = shown["metrics"][name]
        # "significant" is decided over the run's tests (false-discovery control); the metric's own, as the twin's
        assert {k: x for k, x in mine.items() if k not in ("equivalence", "significant", "significant_alone")} == \
            {k: x for k, x in twin.items() if k != "significant"}
        assert mine["significant_alone"] == twin["significant"] and (mine["significant"] <= twin["significant"])
    unit = result["length_unit"]
    assert shown["length"] == {"baseline": length_summary(outcomes[0].records, base, unit, 2),
                               "variant": length_summary(outcomes[1].records, variant, unit, 2)}

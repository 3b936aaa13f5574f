"""The metric table (`analysis.report.metrics.HEADLINE`): one entry reaches every command.

A metric added to the table, with its name and description in both languages' terms, must appear in the
report's rule table, in `compare`, in a sweep (JSON, charts, tables), in `tune` (goals, text,
help) and in the verdict's targets, with values computed here independently.  The game is Pile
(tests/toygame) with a die that always shows 1 and one counter a turn: a game of `start` lasts
exactly start + 1 turns, so "longer than 5 turns" is 0 for start 4 and 1 for start 5.
"""

from __future__ import annotations

import dataclasses

import pytest

from boardlab.analysis.report import metrics
from boardlab.analysis.report.compare import CompareOptions, compare, compare_markdown
from boardlab.analysis.report.jobs import Job, play_jobs
from boardlab.analysis.report.metrics import HEADLINE, Metric, find_metric, headline_series, metric
from boardlab.analysis.report.sections import sensitivity_blocks, sensitivity_data
from boardlab.analysis.report.sweep_report import sweep_document
from boardlab.analysis.report.verdict import targets
from boardlab.analysis.store import ResultStore
from boardlab.analysis.sweep import SweepOptions, metric_names, parse_axis, sweep
from boardlab.analysis.tune import TuneOptions, check_goals, parse_goal, tune, tune_text
from boardlab.layouts import load, register_game, registry
from boardlab.layouts.loader import load_with
from boardlab.layouts.terms import speaking, table

LONG = Metric("long_games", ("long game share",), "share", ("pct", "pp", "ci_pp"), "lower", "all games",
              "games longer than 5 turns over all games",
              lambda records, players: ([int(r.length > 5) for r in records], [1] * len(records)))
NAMES = {"en": "long games", "es": "partidas largas"}
HOW = {"en": "Games longer than 5 turns over all games (counted over all games).",
       "es": "Las partidas de más de 5 turnos sobre todas las partidas (contado sobre todas las partidas)."}


@pytest.fixture
def pile(tmp_path, monkeypatch):
    """Pile registered, a variant whose die always shows 1 and that takes one counter a turn, and
    the long-games metric in the table with its name in English and Spanish."""
    from toygame.registration import GAME

    register_game(GAME)
    variant = tmp_path / "pile-one.toml"
    variant.write_text('extends = "toygame"\n\n[rules]\ndie_faces = [1]\ntake_max = 1\nstart = 4\n')
    monkeypatch.setattr(metrics, "HEADLINE", HEADLINE + (LONG,))
    for lang, name in NAMES.items():
        monkeypatch.setitem(table(lang), "report.metric.long_games", name)
        monkeypatch.setitem(table(lang), "report.metric.long_games.how", HOW[lang])
    yield str(variant)
    registry.unregister_game(GAME.id)


def test_every_metric_has_a_name_in_every_language_and_its_old_names_still_work():
    for m in HEADLINE:
        for lang in ("en", "es"):
            assert f"report.metric.{m.id}" in table(lang), (m.id, lang)
            if m.sweep:  # a sweep's glossary describes it: in English the code's own words
                assert f"report.metric.{m.id}.how" in table(lang), (m.id, lang)
        if m.sweep:
            assert table("en")[f"report.metric.{m.id}.how"] == f"{m.how[0].upper()}{m.how[1:]} (counted over {m.counts})."
        assert all(metric(alias) is m for alias in m.aliases)
        assert m.direction in ("fair", "zero", "higher", "lower", "stated")
    assert metric("draw share").id == "draws" and metric("unfinished share").id == "capped"
    assert metric("mean length").id == "length" and metric("seat 1 win share").id == "seat_1_share"
    assert find_metric("chips_left") is None
    # the old names are still goals `tune` understands
    assert parse_goal("unfinished<=5%").metric == "capped"


def test_a_new_metric_reaches_report_compare_sweep_and_tune_in_both_languages(pile, tmp_path, capsys):
    base = load(pile)
    longer = load_with(pile, {("rules", "start"): 5})
    assert "long_games" in metric_names(base)
    with ResultStore(tmp_path / "r.sqlite") as store:
        # the report's rule table: the default (5 turns) against start = 5 (6 turns)
        short_out, long_out = play_jobs([Job(base, 2, ("random",) * 2, 40, 1), Job(longer, 2, ("random",) * 2, 40, 1)],
                                        store, 1, False)
        assert headline_series(long_out.records, 2)["long_games"] == ([1] * 40, [1] * 40)
        data = sensitivity_data(short_out, [("rules.start", 5, long_out)], 2, [])
        d = data["alternatives"][0]["metrics"]["long_games"]
        assert (d["baseline"], d["variant"], d["difference"]) == (0.0, 1.0, 1.0)
        for lang, name in NAMES.items():
            with speaking(lang):
                rows = sensitivity_blocks(data, 2, "turns")[0]["rows"]
            assert [r[1] for r in rows if r[1] == name] == [name]
        # the verdict aims it at 0 (lower is better)
        length = {"unit": "turns", "stated_minutes": 2}
        assert targets(2, {"seats": {"fair_share": 0.5}, "length": length})["long_games"] == 0.0

        # compare
        result = compare(base, [longer], store, CompareOptions(players=2, games=40, agent="random", workers=1,
                                                               progress=False))
        m = result["comparisons"][0]["metrics"]["long_games"]
        assert (m["baseline"], m["variant"]) == (0.0, 1.0)
        assert "| long games | 0.0% | 100.0% | +100.0 pts | +100.0 .. +100.0 pts | significant change |" \
            in compare_markdown(result)

        # a sweep: JSON, chart and table
        axis = parse_axis(pile, base, "rules.start=4,5")
        swept = sweep(pile, base, [axis], store, SweepOptions(players=(2,), agent="random", games=40, workers=1,
                                                              progress=False))
        points = swept["by_players"][0]["points"]
        assert [p["metrics"]["long_games"]["value"] for p in points] == [0.0, 1.0]
        doc = sweep_document(swept)
        blocks = doc["sections"][0]["blocks"]
        assert any(b.get("id") == "long_games-2" or "long games" in str(b.get("title", "")) for b in blocks)
        headline_table = next(b for b in blocks if str(b.get("title", "")).startswith("Every point"))
        assert "long games" in [c["name"] for c in headline_table["columns"]]
        assert ["long games", HOW["en"]] in doc["glossary"]
        with speaking("es"):
            assert ["partidas largas", HOW["es"]] in sweep_document(swept)["glossary"]

        # tune: a goal in %, met only by the short pile
        goals = [parse_goal("long_games<=10%")]
        check_goals(goals, metric_names(base))
        tuned = tune(pile, base, [axis], goals, store, TuneOptions(players=2, agent="random", first_games=40,
                                                                   games=80, workers=1, progress=False))
        assert tuned["meeting"] == [{"rules.start": 4}]
        assert "long_games: 0.0% (0.0% .. 4.6%)" in tune_text(tuned)

    # the command's help lists it
    from boardlab.cli import main
    with pytest.raises(SystemExit):
        main(["tune", "--help"])
    assert "long_games" in capsys.readouterr().out.replace("\n", " ")


def test_a_share_point_is_a_wilson_interval_of_the_counted_games():
    """The sweep's value of a share against a direct count: 3 draws in 4 games, seat 1 on decided games."""
    from boardlab.analysis.stats import wilson_interval

    R = dataclasses.make_dataclass("R", ["winners", "unfinished", "length"])
    games = [R((), False, 3), R((0, 1), False, 4), R((0, 1), False, 4), R((0,), False, 5), R((), True, 9)]
    draws = metrics.point_value(metric("draws"), games, 2)
    lo, hi = wilson_interval(3, 5)
    lo90, hi90 = wilson_interval(3, 5, 0.90)
    assert draws == {"value": 0.6, "ci95": [round(lo, 6), round(hi, 6)], "ci90": [round(lo90, 6), round(hi90, 6)], "n": 5}
    advantage = metrics.point_value(metric("first_player_advantage"), games, 2)
    lo, hi = wilson_interval(2, 3)  # seat 1: half of two shared wins and one win, of 3 decided games
    assert advantage["value"] == round(2 / 3 - 0.5, 6) and advantage["ci95"] == [round(lo - .5, 6), round(hi - .5, 6)]
    assert metrics.point_value(metric("last_seat_share"), games, 2) is None
    assert metrics.point_value(metric("minutes"), games, 2, None) is None
    # every game's length, the stopped one at its cap: (3 + 4 + 4 + 5 + 9) / 5, a lower bound
    length = metrics.point_value(metric("length"), games, 2)
    assert (length["value"], length["at_least"], length["capped"]) == (5.0, True, 0.2)

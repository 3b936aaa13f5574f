"""The verdict's remedy search over the numbers in the rules (`analysis.report.remedy`).

The median's interval is checked against exact binomial sums written here; the search runs on
Pile (tests/toygame) with a die that always shows 1 and one counter a turn, where a game of
`start` lasts exactly start + 1 turns (the die's 1 is added to `start`), so which values of
`start` meet a length goal is known before anything is played.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from boardlab.analysis.report.metrics import median_interval, median_ranks
from boardlab.analysis.report.remedy import between, first_values, numeric_keys, search_key
from boardlab.analysis.store import ResultStore
from boardlab.analysis.tune import Goal
from boardlab.layouts import register_game, registry
from boardlab.layouts.loader import load_with


def exact_ranks(n: int) -> tuple[int, int]:
    """The largest j with P(B <= j - 1) <= 1/40 for B binomial(n, 1/2), by exact fractions; (1, n) when none."""
    best = 1
    for j in range(1, n // 2 + 1):
        if Fraction(sum(comb(n, i) for i in range(j)), 2 ** n) <= Fraction(1, 40):
            best = j
    return best, n + 1 - best


@pytest.mark.parametrize("n", list(range(1, 90)) + [500, 901])
def test_the_median_ranks_are_the_exact_binomial_ones(n):
    assert median_ranks(n) == exact_ranks(n)


def test_the_median_interval_puts_stopped_games_last_and_marks_the_cap():
    finished, stopped = [7, 3, 9, 1, 5, 4, 8, 2, 6, 10, 11, 12], [40] * 8  # 20 games: ranks 6 and 15
    d = median_interval(finished, stopped)
    ordered = sorted(finished) + stopped
    assert d["ci95"] == [float(ordered[5]), float(ordered[14])] == [6.0, 40.0]
    assert d["value"] == 10.5 and d["capped"] == 0.4 and d["at_least"] is False
    assert median_interval([1, 2], [9, 9, 9])["at_least"] is True  # more than half never ended


@pytest.fixture
def pile():
    from toygame.registration import GAME

    register_game(GAME)
    yield load_with("toygame", {("rules", "die_faces"): [1], ("rules", "take_max"): 1, ("rules", "start"): 40})
    registry.unregister_game(GAME.id)


def test_the_numbers_searched_leave_the_cap_out(pile):
    assert numeric_keys(pile, "turns") == [("start", 40, 0, 100), ("take_max", 1, 1, 10)]


def test_the_search_names_the_value_nearest_the_written_one_that_meets_the_goal(pile, tmp_path):
    """length<=20 holds for start <= 19 exactly (every game lasts start + 1 turns)."""
    goal = Goal("length", "<=", 20.0, "length<=20")
    limits = {"max_capped": 0.05, "difference": 0.05}
    with ResultStore(tmp_path / "r.sqlite") as store:
        found = search_key(pile, "start", 40, 0, 100, goal, 2, "random", store, 40, 1, limits, workers=1,
                           progress=False)
    assert found is not None
    tried = sorted(set(first_values(40, 0, 100)) | set(between(10, 40)))
    assert found["tried"] == tried
    meeting = [v for v in tried if v + 1 <= 20]
    assert found["value"] == max(meeting) and found["met"] and found["confirmed"]
    assert found["seed"] == 2 and found["metrics"]["capped"]["value"] == 0.0


def test_a_goal_no_value_meets_names_the_closest_unconfirmed(pile, tmp_path):
    goal = Goal("length", "<=", 1.0, "length<=1")  # no game lasts one turn
    with ResultStore(tmp_path / "r.sqlite") as store:
        found = search_key(pile, "start", 40, 0, 100, goal, 2, "random", store, 40, 1,
                           {"max_capped": 0.05, "difference": 0.05}, workers=1, progress=False)
    assert found["value"] == min(first_values(40, 0, 100)) and not found["met"] and not found["confirmed"]
    assert found["metrics"]["length"]["value"] == found["value"] + 1


def numeric_data(met: bool) -> dict:
    """A 4-player count whose median game takes 192 minutes against 30, with chips searched."""
    seats = {"fair_share": 0.25, "by_seat": [{"share": 0.257}, {"share": 0.25}, {"share": 0.25}, {"share": 0.243}],
             "draw_share": {"share": 0.0}, "unfinished_share": {"share": 0.001}}
    metrics = {"median_minutes": {"value": 23.4, "ci95": [22.0, 25.0], "at_least": False},
               "draws": {"value": 0.02, "ci95": [0.012, 0.031]}, "capped": {"value": 0.0, "ci95": [0.0, 0.004]},
               "first_player_advantage": {"value": -0.01, "ci95": [-0.04, 0.02]}}
    key = {"key": "chips", "written": 20, "tried": [5, 6, 7, 8, 9, 10, 40], "goal": "median_minutes<=30",
           "value": 8, "met": met, "confirmed": met, "games": 900, "seed": 2, "metrics": metrics}
    return {"seats": seats, "length": {"table_minutes": {"median": 192.0}, "at_least": {"median": False},
                                       "stated_minutes": 30},
            "numeric": {"problem": "length", "goal": "median_minutes<=30", "keys": [key]}}


def test_the_verdict_states_the_number_in_median_minutes_with_its_side_effects():
    from boardlab.analysis.report.verdict import _numeric
    from boardlab.layouts.terms import speaking

    problem = {"kind": "length", "metric": "length"}
    said = _numeric(numeric_data(True), problem, 4)
    assert said == ("The number in the rules that reaches the target: `chips = 8` instead of 20, the median table "
                    "time 3.2 hours to 23 minutes, but draw share 0.0% to 2.0% (confirmed on 900 new games, seed 2).")
    with speaking("es"):
        assert _numeric(numeric_data(True), problem, 4) == (
            "El número de las reglas que alcanza el objetivo: `chips = 8` en lugar de 20, el tiempo mediano en la "
            "mesa de 3,2 horas a 23 minutos, pero partidas sin un único ganador de 0,0\xa0% a 2,0\xa0% (confirmado en 900 "
            "partidas nuevas, semilla 2).")
    assert _numeric(numeric_data(False), problem, 4) == (
        "No number in the rules tried reaches the target: `chips` 5, 6, 7, 8, 9, 10 or 40 instead of 20.")


def test_the_length_finding_states_options_and_numbers_in_median_minutes():
    from boardlab.analysis.report.findings import _length

    d = numeric_data(True)
    d["length"].update({"unit": "rounds", "median": 288.0, "seconds_per_unit": 40, "games": 1800,
                        "finished_games": 1798, "capped": {"share": 0.001}})
    # the alternative's mean falls to 60 rounds (40 minutes) but its median to 42 rounds (28 minutes)
    d["sensitivity"] = {"alternatives": [{"option": "unclaimed_bank", "value": "house",
                                          "metrics": {"length": {"discovery": True, "difference": -300.0,
                                                                 "variant": 60.0}},
                                          "median_length": {"baseline": 288.0, "variant": 42.0,
                                                            "baseline_at_least": False, "variant_at_least": False}}]}
    text = _length("6x6", {4: d}, lambda option, value: f"`{option} = {value}`")[0]["text"]
    assert "`unclaimed_bank = house`, to 28 minutes (median table time" in text
    assert "The number in the rules that reaches the target: `chips = 8` instead of 20, to 23 minutes" in text
    assert "40 minutes" not in text


def sized_search(pile, tmp_path, monkeypatch, minutes: float):
    """numeric_remedies on Pile within a budget of `minutes` (all of it the remedies'), every probe
    reading 0.001 CPU seconds a game and the CPU clock standing still; the worst problem is a length
    over 20 turns (length<=20 holds for start <= 19 exactly)."""
    from boardlab.analysis import budget as budget_module
    from boardlab.analysis.report import jobs, levels, remedy, verdict

    monkeypatch.setattr(jobs, "estimated_seconds",
                        lambda js, store: (0.001 * sum(j.games for j in js), sum(j.games for j in js)))
    monkeypatch.setattr(budget_module, "cpu_seconds", lambda: 0.0)
    monkeypatch.setattr(verdict, "worst_problem", lambda n, d: {"kind": "length", "metric": "length"})
    monkeypatch.setattr(levels, "skilled_view", lambda d: ("", d))
    monkeypatch.setattr(remedy, "goal_for", lambda problem, d, n: Goal("length", "<=", 20.0, "length<=20"))
    monkeypatch.setattr(remedy, "_off_target", lambda goal, d, n: True)
    budget = budget_module.Budget(minutes, {"remedies": 1})
    by_players = {"2": {"length": {"table_minutes": {"median": 41.0}}}}
    with ResultStore(tmp_path / "r.sqlite") as store:
        remedy.numeric_remedies(pile, by_players, store, "random", lambda n: 400, 1, workers=1, progress=False,
                                budget=budget)
    return by_players["2"]["numeric"], budget.bought()


def test_the_search_plays_what_the_reports_budget_pays_for(pile, tmp_path, monkeypatch):
    numeric, bought = sized_search(pile, tmp_path, monkeypatch, 0.05)
    # 3 s; start races 3 first values (10, 20, 80), take_max 1 (2): each value, up to REFINE = 4 more and the
    # confirmation at 0.001 s a game: 8 x 400 x 0.001 + 6 x 400 x 0.001 = 5.6 s wanted, scaled by 3 / 5.6:
    # 214 games a value each
    assert [(p["phase"], p["detail"], p["wanted"], p["games"]) for p in bought["phases"]] == \
        [("remedies", "rules.start", 400, 214), ("remedies", "rules.take_max", 400, 214)]
    start = next(k for k in numeric["keys"] if k["key"] == "start")
    assert start["met"] and start["confirmed"] and start["games"] == 214 and start["value"] == 16
    assert "left_out" not in numeric


def test_a_search_the_budget_cannot_pay_for_is_left_out_and_named(pile, tmp_path, monkeypatch):
    numeric, bought = sized_search(pile, tmp_path, monkeypatch, 0.01)
    # 0.6 s of the 5.6 wanted: 42 games a value, fewer than the race's first 100: neither key searched
    assert [p["games"] for p in bought["phases"]] == [0, 0]
    assert numeric["keys"] == [] and numeric["left_out"] == ["rules.start", "rules.take_max"]
    assert [x["detail"] for x in bought["left_out"]] == ["rules.start", "rules.take_max"]


@pytest.mark.parametrize("game", ["blockd", "sixbysix", "links", "deblockle"])
def test_could_search_is_true_wherever_a_committed_report_searched(game):
    """`could_search` (asked before the levels play, from the model agent's games alone) is true for
    every committed report whose verdict searched a number (a player count with "numeric"), and
    false for Blockd (no number in its rules) and wherever no model-agent figure misses a goal; the
    reports' figures are their own, read from the JSON."""
    import json
    from pathlib import Path

    from boardlab.analysis.report.remedy import could_search
    from boardlab.layouts import load

    data = json.loads((Path(__file__).parent.parent / "reports" / f"{game}.json").read_text())["data"]
    searched = any("numeric" in d for d in data["by_players"].values())
    possible = could_search(load(game), data["by_players"])
    assert possible or not searched
    if game == "blockd":  # no number in its rules: nothing to search, whatever its games
        assert not possible

"""Capped games are censored, not dropped: Kaplan-Meier lengths, "at least", and `tune` refusing
a length goal that rests on games stopped at the cap.

The product-limit estimate is checked against a brute-force one written here (every distinct
time of an ending, the games still at risk counted one by one) on random small samples, and
the race game is Pile (tests/toygame), whose short `max_turns` stops most games.
"""

from __future__ import annotations

import json
import random

import pytest

from boardlab.analysis.stats import describe_censored_lengths, kaplan_meier, restricted_mean, survival_quantile
from boardlab.cli import main
from boardlab.layouts import register_game, registry


def brute_force_survival(finished: list[int], censored: list[int], t: float) -> float:
    """S(t) = product over the times s <= t at which a game ended of (1 - ended at s / at risk at s),
    at risk: every game, finished or censored, lasting s or longer."""
    s = 1.0
    for time in sorted(set(finished)):
        if time > t:
            break
        at_risk = sum(1 for x in finished + censored if x >= time)
        s *= 1 - finished.count(time) / at_risk
    return s


@pytest.mark.parametrize("seed", range(40))
def test_kaplan_meier_equals_the_brute_force_product_limit(seed):
    rng = random.Random(seed)
    cap = rng.randint(3, 12)
    lengths = [rng.randint(1, cap + 3) for _ in range(rng.randint(1, 25))]
    # a game reaching the cap is stopped there (censored); one in five others is censored earlier too
    ended = [x < cap and rng.random() > 0.2 for x in lengths]
    finished = [x for x, e in zip(lengths, ended) if e]
    censored = [min(x, cap) for x, e in zip(lengths, ended) if not e]
    times, survival = kaplan_meier(finished, censored)
    for t in range(0, cap + 2):
        i = max((k for k, x in enumerate(times) if x <= t), default=None)
        mine = 1.0 if i is None else survival[i]
        assert mine == pytest.approx(brute_force_survival(finished, censored, t), abs=1e-6)


def test_quantiles_and_mean_say_at_least_when_the_cap_decides_them():
    # 10 games: 3 end at 5, 6, 7 turns; 7 are stopped at the 20-turn cap
    d = describe_censored_lengths([5, 6, 7], [20] * 7)
    assert (d["median"], d["p90"], d["max"]) == (20.0, 20.0, 20)
    assert d["at_least"] == {"mean": True, "median": True, "p90": True, "max": True}
    assert d["mean"] == (5 + 6 + 7 + 7 * 20) / 10  # the mean up to the cap: the stopped games at the cap
    # 6 of 10 end (at 1..6), 4 stopped at 20: the median is known (S falls to 0.5 at 5), the 90th percentile not
    d = describe_censored_lengths([1, 2, 3, 4, 5, 6], [20] * 4)
    assert (d["median"], d["at_least"]["median"]) == (5.5, False)
    assert (d["p90"], d["at_least"]["p90"]) == (20.0, True)
    # no censoring: the usual median, and the 90th percentile the smallest length 9 in 10 games reach
    times, survival = kaplan_meier(list(range(1, 11)), [])
    assert survival_quantile(times, survival, 0.5) == (5.5, False)
    assert survival_quantile(times, survival, 0.9) == (9.5, False)
    assert restricted_mean(times, survival) == 5.5


@pytest.fixture
def pile(tmp_path):
    from toygame.registration import GAME

    register_game(GAME)
    yield
    registry.unregister_game(GAME.id)


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tune_never_names_a_cap_that_stops_most_games_as_meeting_a_length_goal(pile, tmp_path, capsys):
    """Pile of 11 to 16 counters, 1 to 3 a turn: no game ends within 3 turns, few within 4.  Counted
    on finished games only, max_turns 4 would "meet" length<=6 (every finished game lasts at most
    4 turns); with the stopped games counted at the cap and analysis.max_capped at 5%, it misses."""
    store = str(tmp_path / "r.sqlite")
    code, out, err = run(["tune", "toygame", "--goal", "length<=6", "--over", "rules.max_turns=3,4,5,200",
                          "--players", "2", "--games", "80", "--workers", "1", "--store", store, "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    race = {r["values"]["rules.max_turns"]: r for r in result["race"]}
    assert race[3]["goals"]["length<=6"] == "missed" and race[4]["goals"]["length<=6"] == "missed"
    for c in result["confirmation"]:
        m = c["metrics"]["length"]
        assert not c["meets_every_goal"] or m["capped"] <= 0.05
    assert all(v["rules.max_turns"] not in (3, 4) for v in result["meeting"])
    # the sweep of the same points: the capped share beside every length, the length a lower bound
    code, out, err = run(["sweep", "toygame", "--vary", "rules.max_turns=3,200", "--players", "2", "--games", "80",
                          "--workers", "1", "--store", store, "--json", "--out", str(tmp_path / "s")], capsys)
    assert code == 0, err
    points = json.loads(out)["by_players"][0]["points"]
    capped3 = points[0]["metrics"]["length"]
    assert capped3["at_least"] and capped3["capped"] == 1.0 and capped3["value"] == 3.0
    assert points[1]["metrics"]["length"]["at_least"] is False


def test_tune_writes_the_winning_variant_and_never_replaces_a_file(pile, tmp_path, capsys):
    from boardlab.layouts import load

    target = tmp_path / "tuned.toml"
    store = str(tmp_path / "r.sqlite")
    args = ["tune", "toygame", "--goal", "length>=1", "--over", "rules.start=2,3", "--players", "2", "--games", "40",
            "--workers", "1", "--store", store, "--write-variant", str(target)]
    code, out, err = run(args, capsys)
    assert code == 0, err
    # both meet it; the one nearer the written start (10) is written
    assert f"Wrote {target}: rules.start = 3." in out
    written = load(target)
    assert written.rules.start == 3 and written.rules.take_max == load("toygame").rules.take_max
    before = target.read_bytes()
    code, out, err = run(args, capsys)
    assert code == 2 and err.strip() == f"boardlab tune: --write-variant {target}: the file exists already; name a new file"
    assert target.read_bytes() == before


def test_a_length_finding_gives_the_capped_share_beside_it():
    from types import SimpleNamespace

    from boardlab.analysis.report import sections
    from boardlab.analysis.report.findings import findings, select_findings

    # 100 games of 60 turns at 30 s (30 minutes against a 10-minute target), 10 more stopped at the 200-turn cap
    records = [SimpleNamespace(winners=(i % 2,), unfinished=False, length=60, stats={}) for i in range(100)]
    records += [SimpleNamespace(winners=(), unfinished=True, length=200, stats={}) for _ in range(10)]
    definition = SimpleNamespace(game=SimpleNamespace(minutes=10, assumptions=()),
                                 analysis=SimpleNamespace(seconds_per_turn=30, difference=0.05))
    outcome = SimpleNamespace(records=records)
    data = {"2": {"seats": sections.seats_data(outcome, 2, 0.05), "skill": {"pairings": []},
                  "length": sections.length_data(outcome, definition, "turns"), "sensitivity": {"alternatives": []}}}
    select_findings(data)
    (length,) = [f for f in findings("Game", data) if f["kind"] == "length"]
    assert "(9.1% stop at the turn cap, counted as lasting at least that long)" in length["text"]

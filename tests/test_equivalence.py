"""Balanced means shown balanced: the equivalence test (TOST) behind every "balanced".

The test's p-values are checked against a direct computation with the normal tail written out
(math.erfc), its decision against the 90% Wilson interval found by solving the score equation,
and the report's sentences on synthetic seats 2 points apart: not balanced on 400 games,
balanced on 40,000 (the designer's difference 5 points).
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from boardlab.analysis.report import sections
from boardlab.analysis.report.findings import findings, select_findings
from boardlab.analysis.report.metrics import equivalence_test, seats_equivalence
from boardlab.analysis.report.verdict import verdict

Z95_ONE_SIDED = 1.6448536269514722


def upper_tail(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def direct_tost(x: float, n: int, p0: float, margin: float) -> float:
    """max of the two one-sided score tests' p-values, written out."""
    low, high = p0 - margin, p0 + margin
    p_low = upper_tail((x - n * low) / math.sqrt(n * low * (1 - low))) if low > 0 else 0.0
    p_high = upper_tail(-(x - n * high) / math.sqrt(n * high * (1 - high))) if high < 1 else 0.0
    return max(p_low, p_high)


def score_roots(x: float, n: int, z: float) -> tuple[float, float]:
    """The shares p where (x - n p)^2 = z^2 n p (1 - p): the ends of the Wilson interval."""
    a, b, c = n * n + z * z * n, -(2 * n * x + z * z * n), x * x
    d = math.sqrt(b * b - 4 * a * c)
    return (-b - d) / (2 * a), (-b + d) / (2 * a)


@pytest.mark.parametrize("x, n, p0, margin", [(5100, 10000, 0.5, 0.05), (51, 100, 0.5, 0.05), (204, 400, 0.5, 0.05),
                                              (130, 600, 1 / 6, 0.05), (1, 50, 1 / 8, 0.2), (33.5, 100, 1 / 3, 0.1),
                                              (260, 1000, 0.25, 0.02)])
def test_tost_equals_the_direct_computation_and_the_90_percent_interval(x, n, p0, margin):
    t = equivalence_test(x, n, p0, margin)
    assert t["p_value"] == pytest.approx(direct_tost(x, n, p0, margin), abs=1e-12)
    lo, hi = score_roots(x, n, Z95_ONE_SIDED)
    assert t["equivalent"] == (p0 - margin < lo and hi < p0 + margin)
    assert t["up_to"] == pytest.approx(max(p0 - lo, hi - p0), abs=1e-6)


def test_the_seats_are_balanced_only_when_every_seat_is():
    # 3 seats: two 3.3 points over a fair third (inside 5 points even at their 90% ends), one 6.7 under
    s = seats_equivalence([1100, 1100, 800], 3000, 0.05)
    assert s["by_seat"][0] < 0.05 and s["by_seat"][2] > 0.05 and not s["equivalent"]
    assert s["p_value"] == max(s["by_seat"])


def seat_data(wins: list[int]) -> dict:
    """A report's data for two seats winning these games (finished, 20 turns at 30 s)."""
    records = [SimpleNamespace(winners=(seat,), unfinished=False, length=20, stats={})
               for seat, k in enumerate(wins) for _ in range(k)]
    definition = SimpleNamespace(game=SimpleNamespace(minutes=10, assumptions=()),
                                 analysis=SimpleNamespace(seconds_per_turn=30, difference=0.05))
    outcome = SimpleNamespace(records=records)
    data = {"2": {"seats": sections.seats_data(outcome, 2, 0.05),
                  "length": sections.length_data(outcome, definition, "turns"),
                  "skill": {"pairings": []}, "sensitivity": {"alternatives": []}}}
    select_findings(data)
    return data


def test_seats_two_points_apart_are_not_balanced_on_400_games_and_are_on_40000():
    """51% against 49%, the designer's difference 5 points."""
    few, many = seat_data([204, 196]), seat_data([20400, 19600])
    texts = [f["text"] for f in findings("Game", few)]
    assert not any(t.startswith("The seats are balanced") for t in texts)
    assert ("No seat imbalance found at every player count, but the seats are not shown balanced: a seat could "
            "still be up to 5.1 points from a fair share (90% interval), more than the 5.0 points that matter; about "
            "1,339 games would tell.") in texts  # (z_.95 + z_.90)^2 * 0.25 / (0.05 - 0.01)^2: seat 1 stays 1 point over
    assert 0.05 < score_roots(204, 400, Z95_ONE_SIDED)[1] - 0.5 < 0.0515  # 5.09 points: just outside
    line = verdict(few, lambda o, v: o)["by_players"]["2"]["lines"][1]
    assert line.startswith("- Seats: no imbalance found, but not shown balanced: a seat could still be up to 5.1 points")
    assert few["2"]["seats"]["equivalence"]["equivalent"] is False

    seats = many["2"]["seats"]
    # 40,000 games: seat 1's one point over fair is certain (z = 4, a discovery) but well inside 5 points
    assert seats["first_player_advantage"]["discovery"]
    assert seats["equivalence"]["equivalent"] is True
    up_to = score_roots(20400, 40000, Z95_ONE_SIDED)[1] - 0.5
    assert seats["equivalence"]["up_to"] == pytest.approx(up_to, abs=1e-6)
    texts = [f["text"] for f in findings("Game", many)]
    assert texts[0] == ("The seats are balanced at every player count: every seat's share of decided games lies "
                        "within 5.0 points of a fair one (equivalence test, p < 0.001); no seat is more than "
                        f"{up_to * 100:.1f} points off (90% interval).")
    assert not any("Seat 1 wins more" in t for t in texts)  # below the difference that matters: tables only
    line = verdict(many, lambda o, v: o)["by_players"]["2"]
    assert line["lines"][1].startswith("- Seats: balanced: every seat's share of decided games lies within 5.0 "
                                       "points of a fair 50.0%")
    assert line["problem"] is None


def test_compare_says_no_change_only_when_the_change_is_shown_within_the_designers_difference():
    from boardlab.analysis.report.compare import change_verdict
    from boardlab.analysis.report.metrics import paired_difference, paired_equivalence

    # 10,000 paired games; the variant wins 100 more than the baseline: +1 point, certain, and small
    base = [0] * 5000 + [1] * 5000
    var = [1] * 100 + [0] * 4900 + [1] * 5000
    d = paired_difference(var, base)
    assert d["significant"]
    e = paired_equivalence(d, 0.05)
    # written out: the per-pair differences are 1 (100 times) or 0, mean 0.01, sd sqrt(0.01 * 0.99 * n / (n - 1))
    se = math.sqrt(0.01 * 0.99 / 9999)
    assert e["p_value"] == pytest.approx(max(upper_tail((0.01 + 0.05) / se), upper_tail((0.05 - 0.01) / se)), abs=1e-12)
    assert e["up_to"] == pytest.approx(0.01 + Z95_ONE_SIDED * se, abs=1e-6)
    assert change_verdict(d, "seat_1_share", 0.05) == "significant change, but within 5.0 points (equivalence test, p < 0.001)"
    # 40 pairs, 2 differing either way: nothing found, nothing shown
    few = paired_difference([1, 0] + [0] * 38, [0, 1] + [0] * 38)
    e = paired_equivalence(few, 0.05)
    assert not few["significant"] and not e["equivalent"]
    se = math.sqrt(2 / 39) / math.sqrt(40)
    assert e["up_to"] == pytest.approx(Z95_ONE_SIDED * se, abs=1e-6)
    assert change_verdict(few, "draws", 0.05).startswith(
        f"no change found, but not shown within 5.0 points: it could be up to {e['up_to'] * 100:.1f} points")
    # 40,000 pairs differing in 400 games either way: no change, shown
    many = paired_difference([1, 0] * 200 + [0] * 39600, [0, 1] * 200 + [0] * 39600)
    assert change_verdict(many, "capped", 0.05).startswith("no change: within 5.0 points (equivalence test, p < 0.001)")
    # a length has no designer's margin: the old wording
    assert change_verdict(paired_difference([10, 12, 11], [11, 11, 11]), "length", 0.05).startswith(
        "no significant change (the games detect")


def test_a_tune_near_goal_on_a_share_is_an_equivalence_test():
    from boardlab.analysis.report.metrics import metric, point_value
    from boardlab.analysis.tune import parse_goal

    near = parse_goal("first_player_advantage~0")
    # 10,000 decided games, seat 1 winning 5,100: +1 point, certainly not 0 (the old rule: missed), yet
    # its 90% interval (solved from the score equation) lies well within 5 points: met
    games = [SimpleNamespace(winners=(0,), unfinished=False, length=5)] * 5100 + \
        [SimpleNamespace(winners=(1,), unfinished=False, length=5)] * 4900
    m = point_value(metric("first_player_advantage"), games, 2)
    lo, hi = score_roots(5100, 10000, Z95_ONE_SIDED)
    assert m["ci90"] == [round(lo - 0.5, 6), round(hi - 0.5, 6)]
    assert m["ci95"][0] > 0 and near.status(m) == "missed"  # without the designer's margin
    assert near.status(m, final=False, margin=0.05) == "met"
    # 100 games, 51 to 49: nothing shown either way
    few = point_value(metric("first_player_advantage"), games[5049:5149], 2)
    assert near.status(few, final=True, margin=0.05) == "unsure"
    # 1,000 games, 700 to 300: 20 points off, surely beyond 5: missed
    far = point_value(metric("first_player_advantage"), games[:700] + games[-300:], 2)
    assert near.status(far, margin=0.05) == "missed"


def test_games_needed_give_the_seats_test_its_power_at_seven_seats():
    """The games a report says "would tell" must give the seats' intersection-union test about
    80% power when the seats are exactly fair: simulated with multinomial deals (seeded), the
    test at the stated count succeeds in at least 75% of runs, while at the one-seat count
    (420 decided games, what the report used to say) it succeeds far less often."""
    import numpy as np
    from boardlab.analysis.report.metrics import seats_equivalence

    rng = np.random.default_rng(20261202)

    def power(decided: int, runs: int = 400) -> float:
        shown = 0
        for counts in rng.multinomial(decided, [1 / 7] * 7, size=runs):
            shown += seats_equivalence([float(c) for c in counts], decided, 0.05)["equivalent"]
        return shown / runs

    stated = seats_equivalence([100.0] * 7, 700, 0.05)["games_needed"]  # exactly fair so far
    assert stated == 721
    assert power(stated) >= 0.75
    assert power(420) < 0.6


def test_compare_holds_the_false_discovery_rate_over_every_metric_of_every_variant():
    """Benjamini-Hochberg by hand for p = 0.001, 0.04, 0.045, 0.9 (m = 4): the bounds k 5% / 4 are
    1.25%, 2.5%, 3.75%, 5%; 0.04 > 2.5% and 0.045 > 3.75%, so only 0.001 is kept.  The two whose
    intervals alone exclude 0 but are not kept say so in their verdict."""
    from boardlab.analysis.report.compare import change_verdict, with_false_discovery_control

    def d(p, alone):
        return {"p_value": p, "significant": alone, "mdd": 0.02, "sd": 0.5, "difference": 0.03, "ci95": [0.01, 0.05]}
    result = {"comparisons": [{"metrics": {"length": d(0.001, True), "draws": d(0.04, True)}},
                              {"metrics": {"length": d(0.045, True), "draws": d(0.9, False)}}]}
    with_false_discovery_control(result)
    got = [(m["significant_alone"], m["significant"]) for c in result["comparisons"] for m in c["metrics"].values()]
    assert got == [(True, True), (True, False), (True, False), (False, False)]
    assert result["fdr"] == {"rate": 0.05, "tests": 4, "kept": 1}
    said = change_verdict(result["comparisons"][0]["metrics"]["draws"], "draws", 0.05)
    assert said == ("not significant once all the comparison's tests are counted (p = 0.040 alone: the "
                    "false-discovery control does not keep it)")
    assert change_verdict(result["comparisons"][0]["metrics"]["length"], "length", 0.05) == "significant change"

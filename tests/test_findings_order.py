"""Findings ranked by what a designer would change, and only what matters to the designer.

Synthetic report data with exact counts: a seat off fair by more than `analysis.difference` comes
before every rule effect; a certain rule effect smaller than the difference stays out of the
findings (it is in the rule table); drawn and capped shares are findings only over their
thresholds (`analysis.max_draws`, `analysis.max_capped`).
"""

from __future__ import annotations

from types import SimpleNamespace

from boardlab.analysis.report import sections
from boardlab.analysis.report.findings import TIERS, findings, select_findings
from boardlab.analysis.report.verdict import worst_problem


def records(wins, no_winner=0, unfinished=0, length=20):
    out = [SimpleNamespace(winners=(seat,), unfinished=False, length=length, stats={})
           for seat, k in enumerate(wins) for _ in range(k)]
    out += [SimpleNamespace(winners=(), unfinished=False, length=length, stats={}) for _ in range(no_winner)]
    out += [SimpleNamespace(winners=(), unfinished=True, length=200, stats={}) for _ in range(unfinished)]
    for i, record in enumerate(out):  # each game a deal of its own: every pair its own rotation group
        record.deal = i
    return out


def report_data(base, players, alternatives=(), max_draws=0.10, max_capped=0.05):
    definition = SimpleNamespace(game=SimpleNamespace(minutes=10, assumptions=()),
                                 analysis=SimpleNamespace(seconds_per_turn=30, difference=0.05,
                                                          max_draws=max_draws, max_capped=max_capped))
    outcome = SimpleNamespace(records=base)
    data = {str(players): {"seats": sections.seats_data(outcome, players, 0.05),
                           "length": sections.length_data(outcome, definition, "turns"),
                           "skill": {"pairings": []}, "thresholds": sections.thresholds(definition),
                           "sensitivity": sections.sensitivity_data(
                               outcome, [(o, v, SimpleNamespace(records=r)) for o, v, r in alternatives], players, [])}}
    select_findings(data)
    return data


def test_a_seat_imbalance_comes_before_a_larger_rule_effect_and_small_effects_stay_out():
    # 3 players, 3,000 decided games: seat 3 wins 40% against a fair 33.3% (+6.7 points, 1.3 times the
    # 5 points that matter); rule "big" moves seat 1 by -10 points, rule "small" by +1.5 (certain, but small)
    base = records([900, 900, 1200])
    big = records([600, 1100, 1300])
    small = records([945, 855, 1200])
    data = report_data(base, 3, [("big", True, big), ("small", True, small)])
    alts = {a["option"]: a for a in data["3"]["sensitivity"]["alternatives"]}
    assert alts["small"]["metrics"]["seat_1_share"]["discovery"]  # a real effect of +1.5 points...
    found = findings("Game", data)
    texts = [f["text"] for f in found]
    assert not any("`small" in t for t in texts)  # ...below the designer's difference: not a finding
    kinds = [f["kind"] for f in found]
    assert kinds.index("seats") < kinds.index("rule")
    order = [(TIERS.get(f["kind"], 9), -f["score"]) for f in found]
    assert order == sorted(order)
    seats = next(f for f in found if f["kind"] == "seats")
    assert abs(seats["score"] - (1200 / 3000 - 1 / 3) / 0.05) < 1e-4  # the shares are kept to 6 decimals


def test_draws_and_capped_games_are_findings_only_over_their_thresholds():
    # 2,000 games: 1,500 decided evenly, 300 drawn (15%), 200 stopped at the cap (10%)
    data = report_data(records([750, 750], no_winner=300, unfinished=200), 2)
    kinds = {f["kind"]: f for f in findings("Game", data)}
    assert kinds["draws"]["text"] == ("With 2 players, 15.0% of games end without a single winner, more than the 10% "
                                      "the definition accepts (analysis.max_draws).")
    assert abs(kinds["draws"]["score"] - 1.5) < 1e-9 and abs(kinds["unfinished"]["score"] - 2.0) < 1e-9
    problem = worst_problem(2, data["2"])
    assert problem["kind"] == "capped"  # twice its threshold, against draws at 1.5 times theirs
    # the same games judged with higher thresholds: neither is a finding
    data = report_data(records([750, 750], no_winner=300, unfinished=200), 2, max_draws=0.2, max_capped=0.2)
    assert not {"draws", "unfinished"} & {f["kind"] for f in findings("Game", data)}


def test_an_option_that_changes_no_game_has_no_rows_and_no_test_and_a_long_game_is_fixed_in_median_minutes():
    from boardlab.analysis.report.verdict import verdict

    # 400 games of 60 turns at 30 s: a median of 30 minutes against 10 stated; "short" halves every game,
    # "idle" changes nothing
    base = records([200, 200], length=60)
    short = records([200, 200], length=30)
    data = report_data(base, 2, [("short", True, short), ("idle", True, records([200, 200], length=60))])
    alts = {a["option"]: a for a in data["2"]["sensitivity"]["alternatives"]}
    assert alts["idle"].get("inert") and not alts["short"].get("inert")
    assert data["2"]["seats"]  # the idle option's 4 metrics are no tests: 2 seat tests + 4 of "short"
    from boardlab.analysis.report.findings import report_tests
    assert len(list(report_tests(data))) == 2 + 4
    blocks = sections.sensitivity_blocks(data["2"]["sensitivity"], 2, "turns")
    assert not any(row[0] == "`idle = true`" for row in blocks[0]["rows"])
    assert blocks[1]["text"].startswith("Changed no game, in any headline metric") and "`idle = true`" in blocks[1]["text"]
    v = verdict(data, lambda o, val: f"`{o} = {str(val).lower()}`")["by_players"]["2"]
    assert v["problem"]["kind"] == "length"
    # the problem in median table minutes, the remedy too: 60 turns at 30 s = 30 minutes, 30 turns = 15
    assert v["lines"][-1] == ("- Worst problem: the table time (30 minutes against the target time of 10 minutes). The rule "
                              "option that moves it most: `short = true`, the median table time 30 minutes to 15 "
                              "minutes.")
    # no rule option tried: no sentence about rule options
    v = verdict(report_data(base, 2), lambda o, val: o)["by_players"]["2"]
    assert v["lines"][-1] == "- Worst problem: the table time (30 minutes against the target time of 10 minutes)."

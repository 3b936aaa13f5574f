"""The report's statistics on records with exact, hand-chosen counts (no simulation, no randomness).

Seats are judged on decided games (draws and unfinished games beside them), findings are
selected under false-discovery control, and every "no difference" carries its power.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace

import pytest

from boardlab.analysis.report import sections
from boardlab.analysis.report.findings import findings, select_findings
from boardlab.analysis.report.metrics import (_exact_multinomial_brute, benjamini_hochberg, equality_test,
                                              exact_multinomial_test, headline_series, paired_difference,
                                              paired_ratio_difference, seat_statistics, trials_needed)


@dataclass(frozen=True)
class Record:
    winners: tuple
    unfinished: bool
    length: int
    agents: tuple = ()
    deal: int = 0  # the rotation group (the deal its seats rotate over): the ladder's unit


def games(wins_by_seat, no_winner=0, shared=(), unfinished=0, length=20):
    """Records with exactly these results, in a fixed order (seat wins, shared wins, draws, unfinished)."""
    out = [Record((seat,), False, length) for seat, k in enumerate(wins_by_seat) for _ in range(k)]
    out += [Record(tuple(w), False, length) for w in shared]
    out += [Record((), False, length) for _ in range(no_winner)]
    out += [Record((), True, 1000) for _ in range(unfinished)]
    return out


def report_data(records, players, minutes=15, seconds=30):
    """The report's per-player-count data of these records as the baseline (no skill, no rule options)."""
    definition = SimpleNamespace(game=SimpleNamespace(minutes=minutes, assumptions=()),
                                 analysis=SimpleNamespace(seconds_per_turn=seconds, difference=0.05))
    outcome = SimpleNamespace(records=records)
    data = {str(players): {"seats": sections.seats_data(outcome, players, 0.05),
                           "length": sections.length_data(outcome, definition, "turns"),
                           "skill": {"pairings": []}, "sensitivity": {"alternatives": []}}}
    select_findings(data)
    # what a report writes: the JSON, read back
    return json.loads(json.dumps(data))


def seat_findings(data):
    return [f for f in findings("Game", data) if f["kind"] == "seats"]


def test_fair_seats_with_15_percent_draws_give_no_seat_finding():
    # 2,000 games: 300 draws (15%), the 1,700 decided split evenly
    records = games([850, 850], no_winner=300)
    data = report_data(records, 2)
    seats = data["2"]["seats"]
    assert (seats["decided"], seats["credits"], seats["draws"]) == (1700, [850, 850], 300)
    assert seats["by_seat"][0]["share"] == 0.5 and seats["first_player_advantage"]["p_value"] == 1.0
    assert seat_findings(data) == []
    balanced = [f for f in findings("Game", data) if f["kind"] == "balanced"]
    assert len(balanced) == 1 and balanced[0]["text"].startswith("The seats are balanced at every player count")
    # counted against every seat, the draws would have made seat 1 look short: 850 of 2,000 is 42.5%,
    # 7.5 points under a fair 50% (z = -6.7)
    assert 850 / 2000 - 0.5 == pytest.approx(-0.075)


def test_one_seat_eight_points_ahead_is_a_finding_whose_numbers_are_the_jsons():
    # the same 1,700 decided games, seat 1 winning 58% of them (986) and 15% draws
    records = games([986, 714], no_winner=300)
    data = report_data(records, 2)
    seats = data["2"]["seats"]
    advantage = seats["first_player_advantage"]
    # chi-square on 1 df against 850 / 850: (136^2 / 850) * 2; its p-value is erfc(sqrt(x / 2))
    x = 2 * 136 ** 2 / 850
    assert seats["equality"]["statistic"] == pytest.approx(x) and seats["equality"]["p_value"] == pytest.approx(
        math.erfc(math.sqrt(x / 2)))
    # the score test is the same test on one seat: z^2 = x
    assert advantage["p_value"] == pytest.approx(math.erfc(math.sqrt(x / 2)))
    (found,) = seat_findings(data)
    assert found["text"] == ("Seat 1 wins more than a fair share of decided games with 2 players: 58.0% against "
                             "50.0% (+8.0 points, p < 0.001).")
    # the finding's numbers are the JSON's
    assert f"{advantage['rate']:.1%}" in found["text"] and f"{advantage['advantage'] * 100:+.1f} points" in found["text"]
    assert advantage["rate"] == 0.58 and advantage["advantage"] == 0.08


def test_the_verdict_names_the_rule_option_that_evens_the_seats_by_its_rulebook_name():
    from boardlab.analysis.report.verdict import verdict
    records = games([986, 714], no_winner=300)
    # two rule alternatives on the same seeds: one brings seat 1 to 51%, one moves it to 60%
    evens = games([867, 833], no_winner=300)
    worse = games([1020, 680], no_winner=300)
    definition = SimpleNamespace(game=SimpleNamespace(minutes=15, assumptions=()),
                                 analysis=SimpleNamespace(seconds_per_turn=30, difference=0.05))
    base = SimpleNamespace(records=records)
    data = {"2": {"seats": sections.seats_data(base, 2, 0.05), "length": sections.length_data(base, definition, "turns"),
                  "skill": {"pairings": []},
                  "sensitivity": sections.sensitivity_data(base, [("lead", "rotate", SimpleNamespace(records=evens)),
                                                                  ("lead", "odd", SimpleNamespace(records=worse))],
                                                           2, [])}}
    select_findings(data)
    names = {("lead", "rotate"): "Rotating lead"}
    v = verdict(data, lambda option, value: f"{names.get((option, value), '?')} (`{option} = {value}`)")
    lines = v["by_players"]["2"]["lines"]
    assert lines[1] == ("- Seats: not balanced: seat 1 wins 58.0% of decided games against a fair 50.0% (+8.0 points, "
                        "p < 0.001). Beside the seats: 15.0% of games end without a single winner.")
    # 20 turns at 30 s: 10 minutes against 15 stated is said, but a short game is no problem to fix: the seats are
    assert v["by_players"]["2"]["problem"]["kind"] == "seats"
    assert lines[4] == ("- Worst problem: seat 1's share of decided games (58.0% against a fair 50.0%). The rule "
                        "option that moves it most: Rotating lead (`lead = rotate`), seat 1 win share 58.0% to 51.0%.")
    assert lines[2] == ("- Time: a median game lasts 20 turns, about 10 minutes at the table (30 s a turn), against "
                        "the target time of 15 minutes: 67% of it; 9 games in 10 end within 10 minutes.")
    seat_problem = __import__("boardlab.analysis.report.verdict", fromlist=["x"]).remedies_for(
        {"metric": "seat_1_share", "target": 0.5}, data["2"], 2)
    assert [(r["option"], r["value"], r["variant"]) for r in seat_problem] == [("lead", "rotate", 0.51)]


def test_three_seats_one_ahead_and_shared_wins_counted_as_shares():
    # 3 players: 600 decided games; seat 3 eight points ahead (248 of 600 = 41.3%); 60 shared wins of two seats
    shared = [(0, 1)] * 60  # 30 credits each to seats 1 and 2
    records = games([146, 146, 248], shared=shared, no_winner=90, unfinished=10)
    data = report_data(records, 3)
    seats = data["3"]["seats"]
    assert seats["decided"] == 600 and seats["credits"] == [176, 176, 248]
    assert (seats["shared"], seats["no_winner"], seats["draws"], seats["unfinished"]) == (60, 90, 150, 10)
    expected = 200
    x = sum((c - expected) ** 2 / expected for c in (176, 176, 248))
    assert seats["equality"]["statistic"] == pytest.approx(x)
    assert seats["equality"]["p_value"] == pytest.approx(math.exp(-x / 2))  # chi-square on 2 df
    texts = [f["text"] for f in seat_findings(data)]
    assert ("With 3 players the seats are not equal (p < 0.001): seat 3 wins 41.3% of decided games and seat 1 "
            "29.3%, against a fair 33.3%.") in texts
    # and the length counts the 10 games stopped at the 1000-turn cap as lasting that long (a lower
    # bound, the capped share beside it); the median is a length 690 of 700 games reach: 20 turns
    length = data["3"]["length"]
    assert (length["finished_games"], length["mean"], length["capped"]["count"]) == (690, (690 * 20 + 10_000) / 700, 10)
    assert length["median"] == 20.0 and length["at_least"] == {"mean": True, "median": False, "p90": False, "max": True}


def test_too_few_games_to_tell_names_the_games_that_would():
    records = games([30, 20])  # 50 decided games, 60% against 50%: p = 0.157
    data = report_data(records, 2)
    (found,) = [f for f in findings("Game", data) if f["kind"] == "too few"]
    needed = trials_needed(0.05, 0.5)
    assert needed == math.ceil((1.959964 + 0.841621) ** 2 * 0.25 / 0.05 ** 2)
    # no imbalance found is not balance: the 90% interval of 30 of 50 reaches 70.6%, 20.6 points off
    # (the score equation (30 - 50 p)^2 = 1.645^2 * 50 p (1 - p) solved for its upper root)
    z2, n, x = 1.6448536 ** 2, 50, 30
    a, b, c = n * n + z2 * n, -(2 * n * x + z2 * n), x * x
    upper = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    equivalence_needed = math.ceil((1.6448536 + 1.2815516) ** 2 * 0.25 / 0.05 ** 2)  # 857
    assert found["text"] == ("No seat imbalance found at every player count, but the seats are not shown balanced: a "
                             f"seat could still be up to {(upper - 0.5) * 100:.1f} points from a fair share (90% "
                             f"interval), more than the 5.0 points that matter; about {equivalence_needed:,} games "
                             "would tell.")
    assert not any("no better" in f["text"] for f in findings("Game", data))


@pytest.mark.parametrize("counts", [[3, 1, 0], [2, 2, 1], [4, 0, 0, 1], [6, 1], [1, 1, 1, 1], [5, 0, 0],
                                    [0, 0, 0, 7], [3, 3, 2, 1, 0]])
def test_exact_multinomial_test_equals_the_brute_force_one(counts):
    assert exact_multinomial_test(counts) == pytest.approx(_exact_multinomial_brute(counts), abs=1e-12)


def test_small_counts_use_the_exact_test():
    # 4 decided games among 2 seats (2 expected each): exact; 4-0 has probability 2 / 16 both ways
    t = equality_test([4, 0], 4)
    assert t["test"] == "exact multinomial" and t["p_value"] == pytest.approx(Fraction(2, 16))


def test_benjamini_hochberg_against_the_definition():
    p = [0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205, 0.212, 0.216]
    # the largest k with p_(k) <= 0.05 k / 10 is k = 2 (0.008 <= 0.01; 0.039 > 0.015, 0.042 > 0.025, ...)
    assert benjamini_hochberg(p) == [True, True] + [False] * 8
    assert benjamini_hochberg([0.04, 0.03]) == [True, True]  # 0.04 <= 0.05 * 2 / 2


def test_paired_ratio_difference_is_the_delta_method_on_the_pairs():
    # variant: 2 of 3 decided games won; baseline: 2 of 4
    variant = ([1, 0, 1, 0], [1, 1, 1, 0])
    baseline = ([1, 1, 0, 0], [1, 1, 1, 1])
    d = paired_ratio_difference(variant, baseline)
    rv, rb, mv, mb = Fraction(2, 3), Fraction(1, 2), Fraction(3, 4), Fraction(1)
    u = [(x - rv * c) / mv - (y - rb * e) / mb for x, c, y, e in zip(*variant, *baseline)]
    var = sum(t * t for t in u) / 3
    half = 1.959964 * math.sqrt(var / 4)
    assert d["difference"] == pytest.approx(float(rv - rb), abs=1e-6)
    assert d["ci95"] == pytest.approx([float(rv - rb) - half, float(rv - rb) + half], abs=1e-5)
    # with every denominator 1 it is the mean of the per-game differences
    assert paired_ratio_difference(([1, 0, 1], [1, 1, 1]), ([0, 0, 1], [1, 1, 1])) == paired_difference([1, 0, 1],
                                                                                                       [0, 0, 1])


def test_headline_series_count_shares_of_decided_games_and_lengths_of_every_game():
    records = [Record((0,), False, 10), Record((0, 1), False, 20), Record((), False, 30), Record((), True, 99)]
    s = headline_series(records, 2)
    assert s["seat_1_share"] == ([1.0, 0.5, 0.0, 0.0], [1, 1, 0, 0])
    assert s["length"] == ([10, 20, 30, 99], [1, 1, 1, 1])  # the stopped game counted at its cap
    assert s["draws"][0] == [0, 1, 1, 0] and s["capped"][0] == [0, 0, 0, 1]


def ladder(players, *steps):
    """The report's skill data of a ladder random, then steps (agent, wins, decided): `decided`
    games of each level against the one below, seats alternating, the level winning `wins`."""
    from boardlab.analysis.skill import Pairing, ladder_result

    pairings, below = [], "random"
    for agent, won, played in steps:
        records = []
        for i in range(played):
            agents = (agent,) + (below,) * (players - 1) if i % 2 == 0 else (below,) * (players - 1) + (agent,)
            mine = agents.index(agent)
            seat = mine if i < won else (mine + 1) % players
            records.append(Record((seat,), False, 20, agents, deal=i // 2))
        pairings.append(Pairing(agent, below, players).add(records))
        below = agent
    return sections.skill_data(ladder_result("random", pairings, players, steps[0][2]), 0.05)


def skill_findings(players, *steps):
    data = report_data(games([850, 850]), players)
    data[str(players)]["skill"] = ladder(players, *steps)
    select_findings(data)
    return [f for f in findings("Game", data) if f["kind"] in ("skill", "luck", "too few")]


def test_skill_matters_with_its_depth_and_the_steps_it_could_not_tell_apart_with_their_power():
    found = skill_findings(2, ("greedy", 100, 120), ("mcts-16", 26, 40), ("mcts-32", 22, 40))
    # p: greedy < 0.001, mcts-16 0.040 (one-sided, 26 of 40), mcts-32 0.32: Benjamini-Hochberg over the
    # three keeps only the first (0.040 > 2 x 0.05 / 3), so the depth is 1.  Two players, a chain:
    # each step's rating is 400 log10 of its odds with half a win added to each side
    rating = 400 * sum(math.log10((w + 0.5) / (n - w + 0.5)) for w, n in ((100, 120), (26, 40), (22, 40)))
    mdd = (1.959964 + 0.841621) * math.sqrt(0.25 / 40)
    assert len(found) == 1 and found[0]["kind"] == "skill"
    text = found[0]["text"]
    assert text.startswith(f"Skill matters: 2 groups of levels told apart with 2 players (random < greedy ~ mcts-16 ~ "
                           f"mcts-32; the strongest, mcts-32, rated {rating:.0f} Elo above random, 95% interval ")
    assert text.endswith(f"Searching longer showed no significant gain above greedy with 2 players: these 40 "
                         f"decided games per level detect {mdd * 100:.1f} points; about 785 games per level would detect "
                         f"5.0 points.")


def test_luck_dominates_only_where_the_games_could_have_told():
    # 1,000 decided games, the level winning 510: no gain (p = 0.27), and 1,000 games detect 4.4 points
    found = skill_findings(2, ("greedy", 510, 1000))
    odds = 510.5 / 490.5
    mdd = (1.959964 + 0.841621) * math.sqrt(0.25 / 1000)
    assert [f["text"] for f in found] == [
        f"Luck dominates with 2 players: no level is significantly better than the one below (1,000 games per "
        f"level, enough to detect {mdd * 100:.1f} points); by the ratings greedy would win about "
        f"{odds / (odds + 1):.0%} of decided games against random, against a fair 50%."]
    # 11 of 20: too few games to tell
    found = skill_findings(2, ("greedy", 11, 20))
    mdd = (1.959964 + 0.841621) * math.sqrt(0.25 / 20)
    assert [f["text"] for f in found] == [
        f"Too few games to tell whether skill matters with 2 players: no level is significantly better than the "
        f"one below, and these 20 games per level detect only {mdd * 100:.1f} points; about 785 would detect "
        f"5.0 points."]


def test_restricted_play_findings_say_what_an_element_decides_or_that_too_few_games_tell():
    from boardlab.analysis.skill import Pairing, gain_p_value

    def element(name, won, played):
        """`played` games of g against g barred from `name`, seats alternating, g winning `won`."""
        records = []
        for i in range(played):
            agents = ("g", "g-without") if i % 2 == 0 else ("g-without", "g")
            mine = agents.index("g")
            records.append(Record((mine if i < won else 1 - mine,), False, 20, agents, deal=i // 2))
        row = Pairing("g", "g-without", 2).add(records).as_dict()
        row["p_value"] = gain_p_value(row["wins"], row["decided"], 0.5, "two-sided")
        return {"element": name, "description": f"using {name}", **row}

    data = report_data(games([850, 850]), 2)
    data["2"]["restricted"] = sections.restricted_data(
        {"agent": "g", "players": 2, "games_per_element": 100, "fair_share": 0.5, "seconds": 1.0,
         "elements": [element("a", 90, 100), element("b", 50, 100), element("c", 20, 100)]}, 0.05)
    assert "seconds" not in data["2"]["restricted"]  # the document holds no clock time
    select_findings(data)
    texts = [f["text"] for f in findings("Game", data) if f["kind"] in ("element", "too few")]
    # a: 90 of 100, d = (0.9 - 0.5) / 0.5 = 80%; c: the full agent wins 20 of 100; b: 100 games detect 28.0 points
    mdd = (1.959964 + 0.841621) * math.sqrt(0.25 / 100)
    assert texts == ["Using a matters: against the same agent barred from it, g wins 90% of decided games with 2 "
                     "players (a fair share is 50%); it decides most games (80% of them) (100 games each).",
                     "g does better barred from using c: against it the full agent wins only 20% of decided games "
                     "with 2 players (a fair share is 50%) (100 games each).",
                     f"Too few games to tell whether using b matters to g (100 games each): they detect only "
                     f"{mdd * 100:.1f} points; about 785 games would."]


def test_skill_matters_at_several_counts_is_one_finding_grouped_by_depth():
    data = {**report_data(games([850, 850]), 2), **report_data(games([600, 600, 600]), 3)}
    data["2"]["skill"] = ladder(2, ("greedy", 100, 120))
    data["3"]["skill"] = ladder(3, ("greedy", 90, 120))
    select_findings(data)
    found = [f for f in findings("Game", data) if f["kind"] == "skill"]
    # one step each: 2 players, odds (100 + 1/2) / (20 + 1/2); 3 players, the tested seat against two
    # copies, so its odds over one are 2 (90 + 1/2) / (30 + 1/2)
    two, three = 400 * math.log10(100.5 / 20.5), 400 * math.log10(2 * 90.5 / 30.5)
    low, high = sorted([two, three])
    assert [f["text"] for f in found] == [
        f"Skill matters at every player count: 2 groups of levels told apart with 2 and 3 players; the strongest level "
        f"(greedy) is rated {low:.0f} to {high:.0f} Elo above random (120 games per level)."]


def test_a_remedy_that_makes_another_problem_worse_says_so_and_an_equal_one_without_comes_first():
    from boardlab.analysis.report.verdict import remedies_for

    def metric(base, variant, discovery=True):
        return {"baseline": base, "variant": variant, "discovery": discovery}

    alternatives = [
        {"option": "lead", "value": "fixed",  # ends the capped games, but seat 1 goes from 51% to 64%
         "metrics": {"capped": metric(0.1, 0.0), "seat_1_share": metric(0.51, 0.64)}},
        {"option": "cap", "value": "lower",  # the same gain, and seat 1 closer to fair
         "metrics": {"capped": metric(0.1, 0.0), "seat_1_share": metric(0.51, 0.50)}},
        {"option": "deck", "value": "short",  # a smaller gain; its seat change is not a selected effect
         "metrics": {"capped": metric(0.1, 0.05), "seat_1_share": metric(0.51, 0.70, False)}}]
    d = {"seats": {"fair_share": 0.5}, "length": {}, "sensitivity": {"alternatives": alternatives}}
    remedies = remedies_for({"metric": "capped", "target": 0.0}, d, 2)
    assert [(r["option"], r["worse"]) for r in remedies] == [
        ("cap", []), ("lead", [{"metric": "seat_1_share", "baseline": 0.51, "variant": 0.64}])]
    d["sensitivity"]["alternatives"] = alternatives[2:]
    assert remedies_for({"metric": "capped", "target": 0.0}, d, 2)[0]["worse"] == []

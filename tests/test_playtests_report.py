"""Playtests against the model: the measured pace, the report's "Your playtests" section, the statistics."""

from __future__ import annotations

import json
import math
import random
from types import SimpleNamespace

from boardlab.analysis.playtests import MIN_PACE_GAMES, TableGame, measured_paces, ratio_pace
from boardlab.analysis.report.your_playtests import exact_interval, level_log_likelihood, percentile
from boardlab.cli import main

TINY = ["--games", "48", "--skill-games", "6", "--decision-games", "4", "--deals", "4", "--skill-budget", "16", "--workers", "1",
        "--lang", "en", "--players", "3"]
TRUE_PACE = 52.0  # seconds a round at the table that "played" the log below
WINNERS = [0, 0, 1, 0, 2, 1, 0, 0, 1, 0, 2, 0]  # seat 1 (the starter) won 7 of 12


def table_log(path, games=len(WINNERS), seed=7):
    """A CSV log of 3-player 6x6 games at TRUE_PACE a round (minutes with a few seconds of noise a
    round), the starter listed second so that seat numbering is exercised; returns the rows' truth."""
    rng = random.Random(seed)
    names = ["Ana", "Bruno", "Carmen"]
    lines = ["date,players,seats,started,winners,rounds,minutes"]
    truth = []
    for i in range(games):
        rounds = rng.randint(15, 40)
        seconds = sum(rng.gauss(TRUE_PACE, 6) for _ in range(rounds))
        starter = names[1]
        order = ["Bruno", "Carmen", "Ana"]  # playing order from the starter: seat 1, 2, 3
        lines.append(f"2026-11-{1 + i:02d},3,{';'.join(names)},{starter},{order[WINNERS[i]]},{rounds},"
                     f"{seconds / 60:.2f}")
        truth.append((rounds, round(seconds / 60, 2)))
    path.write_text("\n".join(lines) + "\n")
    return truth


def test_the_ratio_pace_against_its_formula_and_the_true_pace(tmp_path):
    truth = table_log(tmp_path / "log.csv")
    games = [TableGame("sixbysix", "baseline", "h", "2026-01-01", ("a", "b", "c"), (0,), r, "rounds", m)
             for r, m in truth]
    pace = ratio_pace(games, 3)
    rounds, seconds = [r for r, _ in truth], [60 * m for _, m in truth]
    estimate = sum(seconds) / sum(rounds)
    assert pace.seconds == round(estimate, 1)
    assert pace.low <= TRUE_PACE <= pace.high and pace.games == len(truth)
    # its half-width by the textbook ratio-estimator formula, written out again here
    n, mean_rounds = len(truth), sum(rounds) / len(truth)
    s2 = sum((y - estimate * x) ** 2 for x, y in zip(rounds, seconds)) / (n - 1)
    half = 2.200985 * math.sqrt(s2 / n) / mean_rounds  # t(0.975, 11)
    assert abs((pace.high - pace.low) / 2 - half) < 0.1
    # rounds are measured per player count; fewer than 3 timed games measure nothing
    assert [p.players for p in measured_paces(games, "h", "rounds")] == [3]
    assert measured_paces(games[:MIN_PACE_GAMES - 1], "h", "rounds") == ()
    assert measured_paces(games, "another hash", "rounds") == ()
    # turns: one pace for every player count as well
    turns = [TableGame("x", "baseline", "h", "2026-01-01", ("a", "b"), (0,), r, "turns", m) for r, m in truth]
    assert [p.players for p in measured_paces(turns, "h", "turns")] == [2, None]


def test_exact_intervals_against_their_closed_forms():
    # with no success (or all), the Clopper-Pearson bound is the root of a binomial tail: 1 - (alpha/2)^(1/n)
    for n in (1, 5, 12):
        assert math.isclose(exact_interval(0, n)[1], 1 - 0.025 ** (1 / n), rel_tol=1e-9)
        assert math.isclose(exact_interval(n, n)[0], 0.025 ** (1 / n), rel_tol=1e-9)
    assert exact_interval(0, 0) == (0.0, 1.0)
    # the lower bound of k of n solves P(X >= k) = 0.025, checked by summing the binomial terms
    low, high = exact_interval(3, 10)
    assert math.isclose(sum(math.comb(10, j) * low ** j * (1 - low) ** (10 - j) for j in range(3, 11)), 0.025,
                        rel_tol=1e-6)
    assert math.isclose(sum(math.comb(10, j) * high ** j * (1 - high) ** (10 - j) for j in range(0, 4)), 0.025,
                        rel_tol=1e-6)


def test_the_level_likelihood_by_hand():
    R = SimpleNamespace
    records = [R(winners=(0,), unfinished=False, length=10), R(winners=(0,), unfinished=False, length=12),
               R(winners=(1,), unfinished=False, length=30), R(winners=(), unfinished=True, length=50)]
    # seat 1 won with length 11: winner (2 + 1/2) / (4 + 3/2); lengths within 1 of 11: 2 of 4, over 3 values
    expected = math.log(2.5 / 5.5) + math.log(2 / (4 * 3))
    assert math.isclose(level_log_likelihood([(0, 11)], records, 2, 1), expected)
    # no single winner, no length logged; a length no model game came near gets half a game
    assert math.isclose(level_log_likelihood([(2, None)], records, 2, 1), math.log(1.5 / 5.5))
    assert math.isclose(level_log_likelihood([(1, 100)], records, 2, 1),
                        math.log(1.5 / 5.5) + math.log(0.5 / 12))
    assert percentile(12, [10, 12, 30, 50]) == 0.375


def test_the_report_sets_the_table_beside_the_model_and_uses_the_measured_pace(tmp_path, capsys):
    store, out = tmp_path / "r.sqlite", tmp_path / "out"
    argv = ["report", "sixbysix", "--store", str(store), "--out", str(out), *TINY]
    assert main(argv) == 0
    before = json.loads((out / "sixbysix.json").read_text())
    length = before["data"]["by_players"]["3"]["length"]
    assert length["seconds_per_unit"] == 40 and length["pace_assumed"] and "pace_measured" not in length
    assert not before["data"]["playtests"]["by_players"]
    truth = table_log(tmp_path / "log.csv")
    assert main(["playtests", "import", "sixbysix", str(tmp_path / "log.csv"), "--store", str(store)]) == 0
    assert main(argv) == 0
    after = json.loads((out / "sixbysix.json").read_text())
    length = after["data"]["by_players"]["3"]["length"]
    rounds, seconds = [r for r, _ in truth], [60 * m for _, m in truth]
    measured = round(sum(seconds) / sum(rounds), 1)
    assert length["seconds_per_unit"] == measured and "pace_assumed" not in length
    low, high = length["pace_measured"]["ci95"]
    assert low <= TRUE_PACE <= high and length["pace_measured"]["games"] == len(truth)
    assert length["table_minutes"]["median"] == round(length["median"] * measured / 60, 2)
    # the same simulated games: only the minutes changed
    assert length["median"] == before["data"]["by_players"]["3"]["length"]["median"]
    table = after["data"]["playtests"]["by_players"]["3"]
    assert table["wins_by_seat"] == [WINNERS.count(s) for s in range(3)] and table["decided"] == len(WINNERS)
    assert [g["length"] for g in table["logged"]] == rounds
    assert table["pace"]["seconds"] == measured
    assert list(table["model_share_by_seat"])[0] == "greedy"  # the report's model agent first, then the ladder
    text = (out / "sixbysix.md").read_text()
    section = text[text.index("## Your playtests"):text.index("## Exact tables")]
    assert "| 1 | 7 | 58.3% |" in section and "2026-11-01 | Bruno, Carmen, Ana | Bruno" in section
    assert "12 decided games can tell only a seat difference of" in section
    verdict = text[:text.index("## Findings")]
    minutes_line = next(line for line in verdict.splitlines() if line.startswith("- Time"))
    assert f"{measured:g} s a round, measured from {len(truth)} playtests at 3 players" in minutes_line
    assert "our assumption" not in minutes_line
    head = text[text.index("| pace |"):].splitlines()[0]
    assert f"{measured:g} s a round" in head and "table minutes at 3 players use it" in head


def test_games_of_earlier_rules_and_other_variants_are_counted_and_left_out():
    from boardlab.analysis.report.your_playtests import playtests_blocks, playtests_data
    from boardlab.analysis.store import definition_hash
    from boardlab.layouts import load

    definition = load("sixbysix")
    current = definition_hash(definition)

    def game(definition_hash, variant="baseline", winners=(0,)):
        return TableGame("sixbysix", variant, definition_hash, "2026-11-28", ("a", "b", "c"), winners, 20, "rounds", 15)

    logged = [game(current), game(current, winners=()), game("0" * 64), game("1" * 64),
              game(definition_hash(load("sixbysix-house-bank")), "sixbysix-house-bank")]
    R = SimpleNamespace
    model = [R(winners=(s % 3,), unfinished=False, length=20 + s) for s in range(30)]
    data = playtests_data(definition, logged, [2, 3], "rounds", {3: {"greedy": model}}, "greedy", 0.05)
    assert (data["games"], data["earlier_rules"], data["other_variants"]) == (2, 2, 1)
    table = data["by_players"]["3"]
    assert list(data["by_players"]) == ["3"] and table["decided"] == 1 and table["wins_by_seat"] == [1, 0, 0]
    assert table["model_share_by_seat"]["greedy"] == [10 / 30] * 3
    assert [g["percentile"] for g in table["logged"]] == [round(0.5 / 30, 4)] * 2  # one model game of 20 rounds, the lowest
    words = " ".join(b.get("text", "") for b in playtests_blocks(data))
    assert "2 games logged under earlier rules (another definition hash) are kept and left out here." in words
    assert "1 game of another variant belongs to that variant's report." in words
    assert "1 decided game can tell only a seat difference of" in words
    assert "Only one level of the model (greedy) was played to compare with." in words
    assert "0 of these games logged both minutes and rounds" not in words  # 2 timed games: too few, said so
    assert "2 of these games logged both minutes and rounds: a measured pace needs 3" in words


def test_playtests_report_prints_the_section_with_the_levels_asked_for(tmp_path, capsys):
    store = tmp_path / "r.sqlite"
    table_log(tmp_path / "log.csv", games=4)
    assert main(["playtests", "import", "sixbysix", str(tmp_path / "log.csv"), "--store", str(store)]) == 0
    capsys.readouterr()
    assert main(["playtests", "report", "sixbysix", "--store", str(store), "--games", "12", "--agents",
                 "random,greedy", "--workers", "1", "--lang", "en", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Your playtests: 6x6 (baseline)")
    assert "| seat | table wins | table share | exact 95% interval | model: random | model: greedy |" in out
    assert f"| 1 | {WINNERS[:4].count(0)} | " in out and "measured from 4 playtests at 3 players" in out
    assert "4 decided games can tell only a seat difference of" in out
    assert main(["playtests", "report", "sixbysix", "--store", str(store), "--agents", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_sweep_and_tune_take_their_minutes_at_the_measured_pace(tmp_path, capsys):
    store = tmp_path / "r.sqlite"
    log = tmp_path / "log.csv"
    log.write_text("date,players,seats,winners,rounds,minutes\n"
                   "2026-11-01,2,A;B,A,10,10\n2026-11-02,2,A;B,B,20,19\n2026-11-03,2,A;B,A,30,31\n")
    assert main(["playtests", "import", "sixbysix", str(log), "--store", str(store)]) == 0
    measured = round(60 * 60 / 60, 1)  # 60 minutes over 60 rounds: 60 s a round
    capsys.readouterr()
    common = ["--players", "2", "--games", "12", "--agent", "random", "--workers", "1", "--store", str(store), "--json"]
    assert main(["sweep", "sixbysix", "--vary", "rules.chips=3,4", "--out", str(tmp_path / "out"), *common]) == 0
    result = json.loads(capsys.readouterr().out)
    block = result["by_players"][0]
    assert block["pace"]["seconds_per_unit"] == measured and block["pace"]["pace_measured"]["games"] == 3
    for point in block["points"]:
        assert math.isclose(point["metrics"]["minutes"]["value"], point["metrics"]["length"]["value"] * measured / 60,
                            rel_tol=1e-5)
    head = (tmp_path / "out" / "sixbysix-rules-chips.md").read_text()
    assert "60 s a round, measured from 3 playtests at 2 players" in head
    assert main(["tune", "sixbysix", "--goal", "minutes<=30", "--over", "rules.chips=3,4", *common[:-1]]) == 0
    assert "table minutes at 60 s a round, measured from 3 playtests at 2 players" in capsys.readouterr().out

"""Balance reports and comparisons, run as a user runs them with tiny game counts.

The full-size reports are built by `make reports`, never here.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.analysis.report.document import format_cell
from boardlab.analysis.report.metrics import paired_difference, sprt
from boardlab.analysis.stats import wilson_interval
from boardlab.cli import main
from boardlab.printkit.report_markdown import markdown

# a report small enough for the suite: its search levels stop at 16 (the default 1,024 tripled its time)
TINY = ["--games", "48", "--skill-games", "6", "--decision-games", "4", "--deals", "4", "--skill-budget", "16",
        "--workers", "1", "--lang", "en"]


def _report(tmp_path, game, *extra, store="r.sqlite", out="out"):
    return main(["report", game, "--store", str(tmp_path / store), "--out", str(tmp_path / out), *TINY, *extra])


def test_sixbysix_ladder_climbs_its_dice_search_and_each_level_has_its_decisions(tmp_path):
    assert _report(tmp_path, "sixbysix", "--players", "2", "--skill-budget", "32") == 0
    document = json.loads((tmp_path / "out" / "sixbysix.json").read_text())
    d = document["data"]["by_players"]["2"]
    trace = d["skill"]
    assert [level["agent"] for level in trace["levels"]][:3] == ["random", "greedy", "search-16"]
    for p in trace["pairings"]:  # sequential steps: 6, 12 or 24 games, each with its decision
        assert p["games"] == 6 * 2 ** (p["looks_played"] - 1) and p["decision"] in ("better", "no gain", "undecided at the cap")
    beginner, skilled = d["levels"][0], d["levels"][-1]
    assert beginner["agent"] == "greedy" and skilled["agent"] in [level["agent"] for level in trace["levels"][1:]]
    assert beginner["decisions"] == d["decisions"]  # greedy is the model agent: its observed games
    table = next(b for s in document["sections"] for b in s["blocks"]
                 if b["kind"] == "table" and b["title"] == "Decisions, 2 players")
    if skilled["agent"] != "greedy":  # the skilled level's own observed games, in a column of its own
        assert skilled["decisions"]["games"] == 6 and skilled["decisions"]["decisions"] > 0
        assert [c["name"] for c in table["columns"]] == ["measure", "greedy in every seat",
                                                         f"skilled players, {skilled['agent']}"]
    else:
        assert len(table["columns"]) == 2


def _tables(document):
    for section in document["sections"]:
        for block in section["blocks"]:
            if block["kind"] == "table":
                yield block


def test_report_writes_every_form_and_markdown_figures_equal_the_json(tmp_path):
    # a skill budget below the first search level: the ladder is random and greedy only
    assert _report(tmp_path, "sixbysix", "--players", "2", "--skill-budget", "8") == 0
    out = tmp_path / "out"
    document = json.loads((out / "sixbysix.json").read_text())
    md = (out / "sixbysix.md").read_text()
    assert (out / "sixbysix.pdf").read_bytes().startswith(b"%PDF")
    titles = [s["title"] for s in document["sections"]]
    for wanted in ("Verdict", "Findings", "2 players", "Seats", "Game length", "Decisions", "Skill", "6x6's own figures",
                   "Open-rule sensitivity", "Exact tables"):
        assert wanted in titles
    # the verdict page comes first, before the head, then the findings: text generated from the numbers
    assert titles[:2] == ["Verdict", "Findings"] and md.startswith("# 6x6: balance report (baseline)\n\n## Verdict\n")
    for section in document["sections"][:2]:
        assert all(block["kind"] == "text" for block in section["blocks"])
    verdict = document["data"]["verdict"]["by_players"]["2"]["lines"]
    assert [line.split(":")[0].split(" (")[0] for line in verdict[1:]] == \
        ["- Seats", "- Time", "- Skill", "- Luck against skill", "- Worst problem"]
    # every line names the players it speaks for: this ladder reaches no level above greedy
    assert all("greedy" in line for line in verdict[1:])
    assert verdict[1].startswith("- Seats (beginners and skilled players, greedy): ")
    # 6x6's source states no playing time: its 30 minutes are the definition's target, never "stated"
    assert "against the target time of 30 minutes" in verdict[2] and "stated" not in verdict[2]
    # every table row of the JSON appears, formatted, in the Markdown
    for block in _tables(document):
        for row in block["rows"]:
            cells = [format_cell(v, c["format"]).replace("|", "\\|") for v, c in zip(row, block["columns"])]
            assert "| " + " | ".join(cells) + " |" in md
    # and the Markdown is exactly what the JSON renders to, plus the run-time line of the head
    again = markdown({**document, "run": None}, "sixbysix").splitlines()
    assert [line for line in md.splitlines() if not line.startswith("| run time |")] == again
    # charts: one SVG per chart block, beside the Markdown
    charts = [b for s in document["sections"] for b in s["blocks"] if b["kind"] == "chart"]
    assert {c["chart"] for c in charts} >= {"whiskers", "histogram", "bars"}
    for c in charts:
        assert (out / "sixbysix" / f"{c['id']}.svg").read_text().startswith("<?xml")
        # both axes named (a histogram's values are games, its axis the length), none twice
        assert c["axis"] and (c.get("x_axis") or c["chart"] == "histogram") and c.get("x_axis") != c["axis"]
    named = {c["id"]: (c.get("x_axis"), c["axis"]) for c in charts}
    assert named["seats-2"] == ("seat", "share of decided games")
    assert named["sixbysix-sums-2"] == ("dice sum", "probability")
    assert named["skill-2-players"] == ("level", "rating (Elo)")  # 6x6 climbs no MCTS budget
    # 6x6's chips over the game: a line chart of the summary's means (a line a seat, one for the
    # bank, rounds on a log scale), no longer a table in the fixed-width text
    over_time = document["data"]["by_players"]["2"]["game"]["summary"]["chips_over_time"]
    chips = next(c for c in charts if c["id"] == "sixbysix-chips-2")
    assert chips["chart"] == "lines" and named["sixbysix-chips-2"] == ("after round (log scale)",
                                                                     "mean chips (a player out holds 0)")
    assert chips["x_labels"] == list(over_time) and chips["x_values"] == [
        pytest.approx(math.log10(int(r))) for r in over_time]
    assert [s["label"] for s in chips["series"]] == ["seat 1", "seat 2", "bank"]
    for seat in range(2):
        assert chips["series"][seat]["values"] == [c["mean_chips_by_seat"][seat] for c in over_time.values()]
    assert chips["series"][2]["values"] == [c["mean_bank"] for c in over_time.values()]
    texts = [b["text"] for s in document["sections"] for b in s["blocks"] if b["kind"] == "pre"]
    assert texts and not any("after round" in t for t in texts)
    # the lengths in table minutes at the game's pace, in round bins (1, 2 or 5 times a power of
    # ten, starting at a multiple of the width), at most 20, with the 30-minute target on the axis
    length = document["data"]["by_players"]["2"]["length"]
    histogram = next(c for c in charts if c["id"] == "length-2")
    edges, counts = histogram["edges"], histogram["counts"]
    widths = {round(b - a, 9) for a, b in zip(edges, edges[1:])}
    assert len(widths) == 1 and len(counts) <= 20 and sum(counts) == length["finished_games"]
    width = widths.pop()
    exponent = math.floor(math.log10(width))
    assert round(width / 10 ** exponent, 9) in (1, 2, 5) and width >= length["seconds_per_unit"] / 60 - 1e-9
    assert all(abs(e / width - round(e / width)) < 1e-6 for e in edges)
    assert histogram["marker"] == 30 and edges[0] <= 30 <= edges[-1]
    assert histogram["axis"] == "table minutes, at 40 s a round"
    # the seat figures are the Wilson intervals of the credits over the decided games
    seats = document["data"]["by_players"]["2"]["seats"]
    assert seats["decided"] + seats["no_winner"] + seats["unfinished"] == seats["games"] == 48
    assert sum(s["wins"] for s in seats["by_seat"]) == pytest.approx(seats["decided"])
    for s in seats["by_seat"]:
        lo, hi = wilson_interval(s["wins"], seats["decided"])
        assert s["ci95"] == [round(lo, 6), round(hi, 6)]
    # a finding's numbers are the JSON's: every rule finding names the JSON's default and changed values
    by_players = document["data"]["by_players"]
    for f in document["data"]["findings"]:
        if f["kind"] == "rule":
            for n in f["players"]:
                alt = next(a for a in by_players[str(n)]["sensitivity"]["alternatives"]
                           if a["option"] == f["option"] and a["value"] == f["value"])
                m = alt["metrics"][f["metric"]]
                assert m["discovery"]
                shown = (f"{m['baseline']:.1f} to {m['variant']:.1f}" if f["metric"] == "length" else
                         f"{m['baseline']:.1%} to {m['variant']:.1%}")
                assert shown in f["text"]
    # every rule option that is a choice was varied
    alternatives = document["data"]["by_players"]["2"]["sensitivity"]["alternatives"]
    assert {(a["option"], a["value"]) for a in alternatives} >= {("unclaimed_bank", "house"), ("covering", False)}


def test_an_unchanged_report_reruns_from_the_store_byte_identical(tmp_path, monkeypatch):
    assert _report(tmp_path, "blockd", "--players", "2") == 0
    first = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("blockd.*")}
    from boardlab.analysis import runner

    def no_play(*args, **kwargs):
        raise AssertionError("a rerun of an unchanged report played games")

    # every game a report plays goes through a backend (local processes by default)
    monkeypatch.setattr(runner.LocalBackend, "play", no_play)
    with pytest.raises(AssertionError, match="played games"):  # the guard does catch a report that plays
        _report(tmp_path, "blockd", "--players", "2", store="fresh.sqlite", out="fresh")
    assert _report(tmp_path, "blockd", "--players", "2") == 0  # no_play above: a rerun plays nothing
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").glob("blockd.*")} == first


def test_a_killed_report_resumes_to_the_same_json(tmp_path):
    # small counts (the kill lands at the first stored block, whatever the size): the report's every
    # phase still runs, resumed from the store
    args = ["report", "blockd", "--players", "3", "--games", "600", "--skill-games", "3", "--decision-games", "12",
            "--deals", "4", "--skill-budget", "16", "--workers", "1", "--lang", "en"]
    whole = subprocess.run([sys.executable, "-m", "boardlab.cli", *args, "--store", str(tmp_path / "whole.sqlite"),
                            "--out", str(tmp_path / "whole")], capture_output=True, text=True, timeout=300)
    assert whole.returncode == 0, whole.stderr
    store = tmp_path / "cut.sqlite"
    cut = subprocess.Popen([sys.executable, "-m", "boardlab.cli", *args, "--store", str(store),
                            "--out", str(tmp_path / "cut")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stored = 0
    deadline = time.monotonic() + 120
    while stored == 0 and time.monotonic() < deadline and cut.poll() is None:
        time.sleep(0.05)
        try:
            with sqlite3.connect(store, timeout=1) as db:
                stored = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        except sqlite3.Error:
            pass
    if cut.poll() is None:
        os.kill(cut.pid, signal.SIGKILL)
    cut.wait()
    assert not (tmp_path / "cut" / "blockd.json").exists(), "the run finished before it could be killed"
    assert stored > 0
    again = subprocess.run([sys.executable, "-m", "boardlab.cli", *args, "--store", str(store),
                            "--out", str(tmp_path / "cut")], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "cut" / "blockd.json").read_bytes() == (tmp_path / "whole" / "blockd.json").read_bytes()


def test_compare_finds_the_lead_change_and_no_change_against_itself(tmp_path, capsys):
    store = str(tmp_path / "c.sqlite")
    assert main(["compare", "sixbysix", "sixbysix-lead-fixed", "--until-decided", "--json", "--players", "2",
                 "--store", store, "--workers", "1"]) == 0
    lead = json.loads(capsys.readouterr().out)["comparisons"][0]
    assert lead["sprt"]["decision"] == "changed" and lead["sprt"]["stopped_by"] == "decision"
    assert lead["metrics"]["seat_1_share"]["significant"]
    assert main(["compare", "sixbysix", "sixbysix", "--games", "96", "--json", "--players", "3", "--store", store,
                 "--workers", "1"]) == 0
    same = json.loads(capsys.readouterr().out)["comparisons"][0]
    assert not any(m["significant"] for m in same["metrics"].values())
    assert all(m["difference"] == 0 for m in same["metrics"].values())
    assert main(["compare", "sixbysix", "sixbysix", "--games", "96", "--players", "3", "--store", store]) == 0
    assert "no change: the games came out the same" in capsys.readouterr().out


def test_sprt_and_paired_difference_against_hand_computed_values():
    # 30 of 100 paired games differ by +1: mean 0.3, sample variance 0.3 * 0.7 * 100 / 99
    variant, baseline = [1] * 30 + [0] * 70, [0] * 100
    d = paired_difference(variant, baseline)
    half = 1.959964 * (0.3 * 0.7 * 100 / 99 / 100) ** 0.5
    assert d["difference"] == 0.3 and d["ci95"] == pytest.approx([0.3 - half, 0.3 + half], abs=1e-5)
    s = sprt(variant, baseline, 0.05)
    var = 0.3 * 0.7 * 100 / 99
    assert s["llr_up"] == pytest.approx(100 * (0.05 * 0.3 - 0.05 ** 2 / 2) / var, abs=1e-5)
    assert s["bounds"] == pytest.approx([math.log(0.05 / 0.975), math.log(0.95 / 0.025)], abs=1e-6) and s["decision"] == "changed"
    assert sprt([1, 0, 0, 1] * 10, [0, 1, 1, 0] * 10, 0.05)["decision"] == "undecided"


@pytest.mark.parametrize("argv, message", [
    (["report", "nosuchgame"], "unknown game"),
    (["report", "blockd", "--players", "9"], "not 9"),
    (["compare", "blockd", "sixbysix-lead-fixed"], "variant of sixbysix"),
    (["report", "blockd", "--agent", "nobody"], "unknown agent"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    assert main(argv + ["--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "o")]
                if argv[0] == "report" else argv + ["--store", str(tmp_path / "s.sqlite")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_corrupt_store_is_refused_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"garbage" * 1000)
    assert main(["report", "blockd", "--store", str(bad), "--out", str(tmp_path / "o"), *TINY]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a usable results store" in err[0]
    assert bad.read_bytes() == b"garbage" * 1000 and not (tmp_path / "o").exists()


def test_a_game_without_engine_gets_a_report_saying_so(tmp_path, monkeypatch):
    import dataclasses
    from boardlab.analysis.report import build
    from boardlab.layouts.registry import game_entry
    monkeypatch.setattr(build, "game_entry", lambda game_id: dataclasses.replace(game_entry(game_id), engine=None))
    assert _report(tmp_path, "deblockle") == 0
    assert "no rules engine yet" in (tmp_path / "out" / "deblockle.md").read_text()


def test_findings_are_generated_from_the_numbers_and_ordered():
    from boardlab.analysis.report.findings import findings, select_findings

    def alt(option, value, base, variant, p):
        # the medians 9/10 of the means: the finding speaks in the median, as the problem does
        return {"option": option, "value": value,
                "metrics": {"length": {"baseline": base, "variant": variant, "difference": variant - base,
                                            "ci95": [0, 0], "p_value": p}},
                "median_length": {"baseline": base * 0.9, "variant": variant * 0.9, "baseline_at_least": False,
                                  "variant_at_least": False}}

    power = {"mdd": 0.02, "difference": 0.05, "enough": True, "games_needed": 800}
    seats = {"first_player_advantage": {"p_value": 0.5, "rate": 0.5, "fair_share": 0.5, "advantage": 0.0,
                                        "power": power},
             "equality": {"p_value": 0.5}, "fair_share": 0.5,
             "equivalence": {"margin": 0.05, "p_value": 0.001, "equivalent": True, "up_to": 0.02, "games_needed": 857},
             "by_seat": [{"share": 0.5}, {"share": 0.5}], "balance": 1.0, "unfinished_share": {"share": 0.0}}
    data = {"2": {"seats": seats, "skill": {"pairings": []},
                  "length": {"unit": "rounds", "median": 270, "finished_games": 10, "seconds_per_unit": 40,
                             "stated_minutes": 30, "table_minutes": {"median": 180.0}},
                  "sensitivity": {"alternatives": [alt("bank", "house", 300, 40, 1e-9), alt("cover", False, 300, 250, 1e-4),
                                                   alt("other", True, 300, 299, 0.4)]}}}
    # 5 tests: the BH thresholds are 0.01, 0.02, ...; 1e-9 and 1e-4 pass, 0.4 and 0.5 do not
    assert select_findings(data) == {"tests": 5, "discoveries": 2, "false_discovery_rate": 0.05,
                                     "largest_p_selected": 1e-4}
    found = findings("Game", data)
    assert found[0]["text"].startswith("As written, a 2-player game of Game lasts a median of 270 rounds, "
                                       "3.0 hours at a pace of 40 s a round, against the target time of 30 "
                                       "minutes; the rule options that shorten it most: `bank = house`, to 24 "
                                       "minutes or `cover = false`, to 2.5 hours (median table time, a game stopped "
                                       "at the cap counted as lasting at least that long).")
    # ordered as the glossary promises: problems, rule effects, ..., what was not found; by size within each
    from boardlab.analysis.report.findings import TIERS
    order = [(TIERS.get(f["kind"], 9), -f["score"]) for f in found]
    assert order == sorted(order) and [f["kind"] for f in found] == ["length", "rule", "rule", "balanced"]
    assert any("`cover = false` changes the mean length: 300.0 to 250.0 (-17%) with 2 players." == f["text"]
               for f in found)
    assert not any("`other" in f["text"] for f in found)
    assert any(f["text"].startswith("The seats are balanced at every player count") for f in found)

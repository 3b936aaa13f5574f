"""The skill trace: the Bradley-Terry (Luce) fit against cases computed by hand, the counting of a
pairing's games, the default ladder of every game, and `boardlab skill` end to end (seeded,
resumable through the store, the same whatever the worker count, bad input refused)."""

from __future__ import annotations

import json
import math

import pytest

from boardlab.analysis import engines, skill
from boardlab.analysis.runner import GameRecord
from boardlab.analysis.skill import ELO, Pairing, ratings
from boardlab.cli import main
from boardlab.layouts import game_ids, load

Z = 1.959963984540054


def test_two_player_chain_is_the_log_odds_of_each_step():
    """Levels a < b < c, 2 players: each step's rating is 400 log10 of its odds (with half a win
    added to each side), and its variance adds the variance of the step below (1 / (N p (1 - p)))."""
    steps = [(70, 28), (55, 40)]
    fit = ratings(["a", "b", "c"], [Pairing("b", "a", 2, wins=70, losses=28), Pairing("c", "b", 2, wins=55, losses=40)])
    want, variance = [0.0], [0.0]
    for wins, losses in steps:
        n = wins + losses + 1
        p = (wins + 0.5) / n
        want.append(want[-1] + 400 * math.log10((wins + 0.5) / (losses + 0.5)))
        variance.append(variance[-1] + 1 / (n * p * (1 - p)))
    assert fit.elo == pytest.approx(want, abs=1e-6)
    half = [Z * ELO * math.sqrt(v) for v in variance]
    assert fit.low == pytest.approx([w - h for w, h in zip(want, half)], abs=1e-6)
    assert fit.high == pytest.approx([w + h for w, h in zip(want, half)], abs=1e-6)


def test_several_players_compare_one_seat_with_the_others_together():
    """4 players, one tested seat against 3 of the level below: the tested level wins with
    probability pi_A / (pi_A + 3 pi_B), so its odds over one opponent are 3 (w + 1/2) / (l + 1/2)."""
    fit = ratings(["a", "b"], [Pairing("b", "a", 4, wins=40, losses=60)])
    assert fit.elo[1] == pytest.approx(400 * math.log10(3 * 40.5 / 60.5), abs=1e-6)
    n, p = 101, 40.5 / 101  # the information of one logistic step with the offset log 3
    assert fit.high[1] - fit.elo[1] == pytest.approx(Z * ELO / math.sqrt(n * p * (1 - p)), abs=1e-6)


def test_a_pairing_counts_decided_games_only():
    def record(winners, unfinished=False, agents=("x", "y")):
        return GameRecord(0, 0, 0, agents, winners, unfinished, 10)

    pairing = Pairing("x", "y", 2).add([record((0,)), record((1,)), record((1,), agents=("y", "x")), record(()),
                                       record((0, 1)), record((), True), record((0,), agents=("y", "x"))])
    assert (pairing.games, pairing.wins, pairing.losses, pairing.drawn, pairing.shared, pairing.unfinished) == \
        (7, 2, 2, 1, 1, 1)
    assert pairing.p_value == pytest.approx(11 / 16)  # P(X >= 2) for X ~ Binomial(4, 1/2)
    assert not pairing.significant


def test_a_pairings_interval_takes_the_rotation_group_as_its_unit():
    """100 decided games in 50 deals, each deal played with the tested level in both seats.  When
    every deal splits (one win, one loss) the deals' shares agree and the interval is the games'
    own Wilson interval; when each deal goes one way twice (25 deals won twice, 25 lost twice) a
    deal is one piece of evidence, not two: the cluster variance of the deals' shares, 0.5 squared
    over 49 per deal, makes 100 x 0.25 / 100 / (0.25 x 50 / (50 x 49)) = 49 effective games."""
    from boardlab.analysis.stats import wilson_interval

    def games(outcomes):
        return [GameRecord(2 * deal + rotation, deal, rotation, ("x", "y") if rotation == 0 else ("y", "x"),
                           ((0,) if rotation == 0 else (1,)) if won else ((1,) if rotation == 0 else (0,)), False, 10)
                for deal, pair in enumerate(outcomes) for rotation, won in enumerate(pair)]

    split = Pairing("x", "y", 2).add(games([(True, False)] * 50)).as_dict()
    assert split["ci95"] == [round(x, 6) for x in wilson_interval(50, 100)]
    assert (split["rotation_groups"], split["effective_decided"]) == (50, 100.0)
    together = Pairing("x", "y", 2).add(games([(True, True)] * 25 + [(False, False)] * 25)).as_dict()
    assert together["share"] == 0.5 and together["effective_decided"] == pytest.approx(49.0)
    assert together["ci95"] == [round(x, 6) for x in wilson_interval(24.5, 49)]
    assert together["ci95"][1] - together["ci95"][0] > split["ci95"][1] - split["ci95"][0]


def test_every_games_default_ladder_starts_random_and_doubles_its_budgets():
    for game_id in game_ids("engine"):
        game = engines.make_game(load(game_id))
        known = engines.agent_factories(game_id)
        ladder = game.skill_ladder(64)
        assert ladder[0] == "random" and len(set(ladder)) == len(ladder)
        assert ("greedy" in ladder) == ("greedy" in known)
        budgets = [skill.budget_of(name) for name in ladder if name.startswith("mcts-")]
        assert budgets == ([16, 32, 64] if "mcts-16" in known else [])


def run_skill(tmp_path, capsys, *extra):
    code = main(["skill", game_ids("engine")[0], "--games", "6", "--max-budget", "16", "--store",
                 str(tmp_path / "s.sqlite"), "--out", str(tmp_path), "--json", *extra])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def test_skill_command_is_seeded_resumable_and_the_same_on_any_worker_count(tmp_path, capsys, monkeypatch):
    first = run_skill(tmp_path, capsys, "--workers", "1")
    levels = [level["agent"] for level in first["levels"]]
    assert levels[0] == "random" and first["levels"][0]["rating"] == 0
    assert [p["agent"] for p in first["pairings"]] == levels[1:]
    looks = first["sequential"]["looks"]
    assert looks == [first["games_per_level"] * k for k in skill.LOOKS]
    for p in first["pairings"]:  # a step plays on to the next look until it is decided
        assert p["games"] == looks[p["looks_played"] - 1] and p["decision"] in (skill.BETTER, skill.NO_GAIN, skill.UNDECIDED)
        assert (p["decision"] == skill.UNDECIDED) == (p["looks_played"] == len(looks) and not p["significant"]
                                                        and p["decision"] != skill.NO_GAIN)
    assert (tmp_path / f"{first['game']}-{first['players']}p.svg").read_text().startswith("<?xml")
    game = engines.make_game(load(first["game"]), first["players"])
    assert [e["element"] for e in first["restricted"]["elements"]] == [r.name for r in game.restrictions()]
    # a rerun plays nothing: every game comes back from the store
    from boardlab.analysis import runner

    def refuse(*args, **kwargs):
        raise AssertionError("a rerun played games")

    monkeypatch.setattr(runner.LocalBackend, "play", refuse)
    assert first["budget"].pop("cpu_seconds_spent") >= 0  # the CPU of this run (the rest of the budget's figures stay)
    again = run_skill(tmp_path, capsys, "--workers", "2")
    again["budget"].pop("cpu_seconds_spent")
    assert again == first
    monkeypatch.undo()
    other = tmp_path / "other"
    other.mkdir()
    fresh = run_skill(other, capsys, "--workers", "2")  # played again from an empty store, on 2 workers
    fresh["budget"].pop("cpu_seconds_spent")
    assert fresh.pop("seconds") > 0 and first.pop("seconds") > 0
    assert fresh["restricted"].pop("seconds") > 0 and first["restricted"].pop("seconds") > 0
    assert fresh == first


@pytest.mark.parametrize("args,message", [(["--players", "99"], "players"), (["--max-budget", "0"], "at least 1"),
                                          (["--games", "x"], "whole number")])
def test_skill_refuses_bad_input_in_one_line(tmp_path, capsys, args, message):
    try:
        code = main(["skill", game_ids("engine")[0], "--store", str(tmp_path / "s.sqlite"), *args])
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_links_ladder_is_topped_by_the_history_search_played_even_after_a_stall(tmp_path):
    """Links' ladder ends with ismcts at the largest budget.  With 2 games a level nothing is
    significant, so the doublings 32 / 16 and 64 / 32 stall the climb: mcts-128 is never played,
    and the top, ismcts-128, is played against mcts-64, the last level reached."""
    from boardlab.analysis.store import ResultStore

    game = engines.make_game(load("links"), 2)
    assert game.skill_ladder(128) == ["random", "greedy", "mcts-16", "mcts-32", "mcts-64", "mcts-128", "ismcts-128"]
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = skill.trace(load("links"), 2, 2, 128, 1, store)
    assert [level["agent"] for level in result["levels"]] == ["random", "greedy", "mcts-16", "mcts-32", "mcts-64",
                                                              "ismcts-128"]
    assert (result["pairings"][-1]["agent"], result["pairings"][-1]["below"]) == ("ismcts-128", "mcts-64")
    assert result["stopped"].startswith("two consecutive budget doublings without a significant gain; ismcts-128")


def test_a_cpu_budget_cuts_the_ladder_short_and_plays_the_same_games(tmp_path, monkeypatch):
    """A level whose estimate passes the CPU budget is not played: the ladder stops there, says so,
    and the levels it did play are the same games as without a budget (the estimates are fixed
    here, so the cut does not depend on the machine's speed)."""
    from boardlab.analysis.report import jobs
    from boardlab.analysis.store import ResultStore

    definition = load("blockd")
    with ResultStore(tmp_path / "whole.sqlite") as store:
        whole = skill.trace(definition, 2, 6, 64, 3, store)
    assert len(whole["pairings"]) >= 3
    last = whole["pairings"][-2:]  # two doublings without a gain make a plateau, at the ladder's top too
    assert (whole["stopped"] == "two consecutive budget doublings without a significant gain") == \
        ([p["agent"] for p in last] == [f"mcts-{b}" for b in (32, 64)] and not any(p["significant"] for p in last))
    rounds = []
    allowed = whole["pairings"][0]["looks_played"] + whole["pairings"][1]["looks_played"]  # a round: one look of a step

    def estimate(round_jobs, store):
        rounds.append([job.agents for job in round_jobs])
        return (0.0 if len(rounds) <= allowed else 3600.0), 6

    monkeypatch.setattr(jobs, "estimated_seconds", estimate)
    with ResultStore(tmp_path / "cut.sqlite") as store:
        cut = skill.traces(definition, [2], 6, 64, 3, store, cpu_minutes=30)[2]
    ladder = engines.make_game(definition, 2).skill_ladder(64)
    # the rounds of two steps played: those steps, as without a budget
    played = len(cut["pairings"])
    assert played == 2
    assert cut["pairings"] == whole["pairings"][:played]
    assert [level["agent"] for level in cut["levels"]] == ladder[:played + 1]
    assert cut["stopped"].startswith(f"the CPU budget of 30 minutes: {ladder[played + 1]} against {ladder[played]} "
                                     "would take about 60.0 min more (6 games)")
    assert cut["budget"]["left_out"] == ladder[played + 1:] and cut["budget"]["levels_played"] == played + 1
    assert "left out: " + ", ".join(ladder[played + 1:]) in skill.describe(cut)


def test_a_step_the_budget_cannot_buy_stops_its_own_ladder_and_the_others_climb_on(tmp_path, monkeypatch):
    """The ladders of several player counts climb together, but each step asks the budget on its
    own: the 3-player ladder's second step does not fit and stops that ladder there, while the
    2-player ladder climbs to where it would have gone without a budget (the same games)."""
    from boardlab.analysis.report import jobs
    from boardlab.analysis.store import ResultStore

    definition = load("blockd")
    with ResultStore(tmp_path / "whole.sqlite") as store:
        whole = skill.trace(definition, 2, 6, 32, 3, store)
    ladder = engines.make_game(definition, 3).skill_ladder(32)
    asked: list[tuple] = []

    def estimate(step_jobs, store):
        assert len(step_jobs) == 1  # one ladder's step an ask
        job = step_jobs[0]
        asked.append((job.players, job.agents[0]))
        return (3600.0 if job.players == 3 and job.agents[0] != ladder[1] else 0.0), 6  # past its first step

    monkeypatch.setattr(jobs, "estimated_seconds", estimate)
    with ResultStore(tmp_path / "cut.sqlite") as store:
        both = skill.traces(definition, [2, 3], 6, 32, 3, store, cpu_minutes=30)
    assert both[2]["pairings"] == whole["pairings"] and both[2]["stopped"] == whole["stopped"]
    cut = both[3]
    assert len(cut["pairings"]) == 1 and cut["budget"]["left_out"] == ladder[2:]
    assert cut["stopped"].startswith(f"the CPU budget of 30 minutes: {ladder[2]} against {ladder[1]} ")
    assert [a for n, a in asked if n == 3 and a != ladder[1]] == [ladder[2]]  # asked once, never again


def test_the_probe_estimates_only_what_the_store_lacks(tmp_path):
    from boardlab.analysis.report.jobs import Job, estimated_seconds, play_jobs
    from boardlab.analysis.store import ResultStore

    definition = load("blockd")
    job = Job(definition, 2, ("greedy", "random"), 10, 1)
    with ResultStore(tmp_path / "s.sqlite") as store:
        seconds, games = estimated_seconds([job], store)
        assert games == 10 and seconds > 0
        play_jobs([job], store, workers=1, progress=False)
        assert estimated_seconds([job], store) == (0.0, 0)


def test_the_rating_chart_has_an_elo_axis_that_holds_every_rating():
    """The chart of rating against budget is on the Elo scale (no percent axis, no fair-share line):
    its drawn axis reaches the top rating, 784, and no tick reads as a percentage.  (A comment once
    swallowed the chart's scale, and every report drew its ratings on a 0-100% axis, random alone
    visible.)"""
    import re

    from boardlab.analysis.skill import rating_chart
    from boardlab.printkit.charts import chart_drawing, svg_text

    levels = [{"agent": "random", "budget": 0, "rating": 0.0, "ci95": [0.0, 0.0]},
              {"agent": "greedy", "budget": 0, "rating": 266.2, "ci95": [185.2, 347.1]},
              {"agent": "mcts-16", "budget": 16, "rating": 784.0, "ci95": [628.0, 939.0], "at_least": 700.0}]
    block = rating_chart({"players": 2, "levels": levels})
    assert block["scale"] == "rating" and block["reference"] is None
    assert block["values"] == [0.0, 266.2, 700.0] and block["high"] == [0.0, 347.1, 700.0]  # a bound: its point
    ticks = re.findall(r">([^<]*)</text>", svg_text(chart_drawing(block)))
    numbers = [float(t.replace(",", "")) for t in ticks if re.fullmatch(r"-?[\d,]+(\.\d+)?", t)]
    assert not any(t.strip().endswith("%") for t in ticks)
    assert max(numbers) >= 700.0

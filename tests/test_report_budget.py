"""A report within its CPU budget (issue 35): every phase's games sized from the probe's cost per game,
and the report saying what the budget bought and left out, in its head (both languages) and JSON.

The probe is fixed here (`jobs.estimated_seconds`: 0.05 s a game, whatever the machine) and the CPU
clock stands still, so the sizes are sums done by hand and no wall-clock or machine speed enters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.cli import main

DATA = Path(__file__).parent / "data"
#: the fixed probe: CPU seconds a game
COST = 0.05


def fixed_probe(monkeypatch):
    from boardlab.analysis import budget
    from boardlab.analysis.report import jobs

    monkeypatch.setattr(jobs, "estimated_seconds",
                        lambda js, store: (COST * sum(j.games for j in js), sum(j.games for j in js)))
    monkeypatch.setattr(budget, "cpu_seconds", lambda: 0.0)
    fixed_endgame_probe(monkeypatch)


def fixed_endgame_probe(monkeypatch):
    """The endgame measure's probe (`skill.endgame_probe`) at COST a decision: its sample is the real one."""
    from boardlab.analysis import skill

    probe = skill.endgame_probe
    monkeypatch.setattr(skill, "endgame_probe", lambda *args: (probe(*args)[0], COST))


def report_json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    return printed[0]["report"]


def test_a_blockd_variant_on_a_6x6_grid_is_sized_to_its_budget_and_says_so(tmp_path, monkeypatch, capsys):
    fixed_probe(monkeypatch)
    report = report_json(capsys, ["report", "blockd", "--variant", str(DATA / "blockd-grid-6x6-purple.toml"),
                                  "--players", "2", "--budget", "0.1", "--skill-games", "8", "--skill-budget", "16",
                                  "--decision-games", "40", "--workers", "1", "--lang", "en", "--json",
                                  "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path)])
    budget = report["data"]["budget"]
    assert budget["cpu_minutes"] == 0.1 and not budget["quick"]
    phases = {}
    for p in budget["phases"]:
        phases.setdefault(p["phase"], []).append(p)
    # 6 s; self-play's share 40 of 110: 2.18 s at 0.05 s a game = 43.6 games of the 2,400 wanted, 42 in
    # whole rotations of the seats
    assert [(p["wanted"], p["games"]) for p in phases["self-play"]] == [(2400, 42)]
    # the decisions: 5 of the 70 shares still waiting, of the 3.9 s free: 0.279 s = 5 games of 40
    assert [(p["wanted"], p["games"]) for p in phases["decisions"]] == [(40, 5)]
    # alternatives: at most half the self-play games (21) each; 15 of 65 shares of 3.65 s = 0.842 s for
    # 7 x 21 x 0.05 = 7.35 s: 21 x 0.842 / 7.35 = 2.41, 2 games each
    assert [(p["wanted"], p["games"]) for p in phases["alternatives"]] == [(21, 2)] * 7
    # the skill trace: 20 of the 50 shares still waiting of 6 s (skill 20, the endgame decisions 2, restricted
    # play 8, levels and remedies 10 each): 2.4 s; each step 8 games, 0.4 s, and, undecided at 8 (a sequential step,
    # `skill.step_decision`), 16 at its second look, 0.8 s: two steps fit (the second's looks asked with
    # 1.2 s taken: 20/50 of 7.2, less 1.2, is 1.68 s for 0.4; then 20/50 of 7.6, less 1.6, is 1.44 s for 0.8)
    # mcts-16 wins 4 of 16 against greedy at its second look: no gain at 16 independent games (the share's
    # upper 98.3% bound 54.5%, below 55%), but at its 8 rotation groups' effective size, 10.5 games, the bound
    # is 62.1%: undecided, so its third look (32 games, 1.6 s) is asked. The CPU clock stands still
    # here, so the 6 s are all free again; the skill's share counts the 2.4 s its steps took
    # (`Budget.allowance`): 20/50 of 6 + 2.4, less the 2.4, is 0.96 s, and the third look does not fit
    assert [p["games"] for p in phases["skill"]] == [8, 16, 8, 16, 0]
    assert all(p["players"] == 2 for p in phases["skill"])  # each ladder's step its own ask
    # the endgame decisions (Blockd is not solved from its start): the clock still stands, so 6 s are free;
    # their share 2 against the 28 still waiting (restricted play 8, levels and remedies 10) is 2/30 of 6 s,
    # 0.4 s: 8 decisions at 0.05 s, all the 8 asked (as many as the skill games a level, --skill-games 8)
    assert [(p["wanted"], p["games"]) for p in phases["endgame"]] == [(8, 8)]
    endgame = report["data"]["by_players"]["2"]["skill"]["perfect"]["endgame"]
    assert endgame["measured"] and endgame["asked"] == 8
    assert report["data"]["by_players"]["2"]["seats"]["games"] == 42  # the report measured what was bought
    head = dict(report["head"])
    assert head["CPU budget"].startswith("0.1 CPU minutes: self-play: 42 games at 2 players (a share ")
    assert "left out: 2,358 games of self-play at 2 players" in head["CPU budget"]
    assert "endgame decisions: 8 decisions at 2 players" in head["CPU budget"]
    assert head["games"].startswith("42 with 2")


def test_every_phase_within_its_budget_plays_what_it_wants_and_nothing_is_left_out(tmp_path, monkeypatch, capsys):
    fixed_probe(monkeypatch)
    report = report_json(capsys, ["report", "blockd", "--players", "2", "--budget", "60", "--games", "40",
                                  "--skill-games", "4", "--skill-budget", "16", "--decision-games", "4",
                                  "--workers", "1", "--lang", "es", "--json", "--store", str(tmp_path / "s.sqlite"),
                                  "--out", str(tmp_path)])
    budget = report["data"]["budget"]
    assert budget["left_out"] == [] and all(p["games"] == p["wanted"] for p in budget["phases"])
    words = dict(report["head"])["presupuesto de CPU"]
    assert words.startswith("60 minutos de CPU: partidas entre jugadores iguales: 40 partidas con 2 jugadores")
    assert words.endswith("; no quedó nada fuera")


def test_quick_runs_within_a_minute_and_says_it_is_quick(tmp_path, monkeypatch, capsys):
    fixed_probe(monkeypatch)
    report = report_json(capsys, ["report", "blockd", "--players", "2", "--quick", "--skill-games", "4",
                                  "--skill-budget", "16", "--decision-games", "4", "--workers", "1", "--lang", "en",
                                  "--json", "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path)])
    budget = report["data"]["budget"]
    assert budget["cpu_minutes"] == 1.0 and budget["quick"]
    # 60 s, self-play's 40 of 110 shares: 21.8 s = 436 games of 2,400
    assert [p["games"] for p in budget["phases"] if p["phase"] == "self-play"] == [436]
    assert "(a quick run)" in dict(report["head"])["CPU budget"]


@pytest.mark.parametrize("argv", [["--budget", "-1"], ["--budget", "nan"], ["--budget", "20000"]])
def test_a_bad_budget_is_one_line(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["report", "blockd", *argv])
    assert stop.value.code == 2
    assert "--budget" in capsys.readouterr().err


def test_a_ladder_the_budget_ended_is_said_in_each_language_without_a_clock():
    from boardlab.analysis.report.sections import stopped_words
    from boardlab.layouts import load
    from boardlab.layouts.terms import speaking

    with speaking("en", load("blockd")):
        said = stopped_words("the CPU budget: mcts-64")
    assert said.startswith("The ladder stopped where the report's CPU budget ended: its next level, mcts-64, did not fit")
    with speaking("es", load("blockd")):
        said = stopped_words("the CPU budget: mcts-64")
    assert said.startswith("La escalera se detuvo donde acabó el presupuesto de CPU del informe: su nivel siguiente, "
                           "MCTS-64, no cabía")


def test_the_ladders_the_budget_stopped_are_one_item_naming_their_player_counts():
    from boardlab.analysis.report.budgeted import bought_words
    from boardlab.layouts import load
    from boardlab.layouts.terms import speaking

    step = {"phase": "skill", "detail": "mcts-32 against mcts-16", "wanted": 120}
    data = {"cpu_minutes": 10.0, "quick": False,
            "phases": [{**step, "players": 2, "games": 120}, {**step, "players": 3, "games": 0},
                       {**step, "players": 5, "games": 0}],
            "left_out": [{**step, "players": 3, "games": 120}, {**step, "players": 5, "games": 120}]}
    with speaking("en", load("sixbysix")):
        said = bought_words(data)
    assert said == ("10 CPU minutes: skill trace: 1 step, 120 games; left out: the skill trace's steps after "
                    "the last one played at 3 and 5 players")
    with speaking("es", load("sixbysix")):
        said = bought_words(data)
    assert said.endswith("los pasos de la escalera de habilidad tras el último jugado con 3 y 5 jugadores")
    element = {"phase": "restricted", "detail": "bet-face", "players": 2, "wanted": 120}
    data = {**data, "phases": [{**element, "games": 0}], "left_out": [{**element, "games": 120}]}
    with speaking("es", load("sixbysix")):  # an element left out is named in the report's language
        assert bought_words(data).endswith("120 partidas de juego restringido con 2 jugadores (`cara-apuesta`)")


def test_every_language_of_one_run_is_the_games_the_first_one_bought(tmp_path, monkeypatch, capsys):
    """--lang all: the second language's probes read other costs (here: half, as a machine's speed
    varies), yet it plays the games the first one bought (its sizes replayed), not a new sizing."""
    from boardlab.analysis import budget
    from boardlab.analysis.report import build, jobs

    cost = [COST]
    monkeypatch.setattr(jobs, "estimated_seconds",
                        lambda js, store: (cost[0] * sum(j.games for j in js), sum(j.games for j in js)))
    monkeypatch.setattr(budget, "cpu_seconds", lambda: 0.0)
    fixed_endgame_probe(monkeypatch)
    first = build.build_report

    def then_cheaper(*args, **kwargs):
        document = first(*args, **kwargs)
        cost[0] = COST / 2
        return document

    monkeypatch.setattr(build, "build_report", then_cheaper)
    assert main(["report", "blockd", "--players", "2", "--budget", "0.1", "--skill-games", "8", "--skill-budget", "16",
                 "--decision-games", "40", "--workers", "1", "--lang", "all", "--json",
                 "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path)]) == 0
    spanish, english = (printed["report"]["data"] for printed in json.loads(capsys.readouterr().out))
    assert spanish["budget"] == english["budget"]
    assert [p["games"] for p in spanish["budget"]["phases"] if p["phase"] == "self-play"] == [42]
    assert spanish["by_players"]["2"]["seats"] == english["by_players"]["2"]["seats"]


@pytest.mark.parametrize("compiles", [True, False])
def test_a_probe_that_compiled_is_played_again_and_its_compile_is_not_a_games_cost(compiles, tmp_path, monkeypatch):
    """The probe's first call of a path may compile it (a rule set the cached kernels were not built
    for: a 6 x 6 grid's report from an empty store sized its self-play to 28 games of 2,400): a first
    call that compiled is played again and the second call's cost per game counts. The CPU clock
    is the test's: 10 s for the first call's compile (a real numba compile, a function no cache
    holds), 0.5 s a game."""
    import time

    import numba

    from boardlab.analysis import runner
    from boardlab.analysis.report.jobs import REPROBE, Job, estimated_seconds
    from boardlab.analysis.store import ResultStore
    from boardlab.layouts import load

    clock, calls = [0.0], []

    def play_block(match, start, stop):
        calls.append(stop - start)
        if len(calls) == 1:
            clock[0] += 10.0  # the compile, or (without one) a first call as dear
            if compiles:
                def fresh(x):
                    return x + 1
                assert numba.njit(fresh)(1) == 2
        clock[0] += 0.5 * (stop - start)
        return []

    monkeypatch.setattr(time, "process_time", lambda: clock[0])
    monkeypatch.setattr(runner, "play_block", play_block)
    job = Job(load("blockd"), 2, ("random", "random"), 100, 1)
    seconds, missing = estimated_seconds([job], ResultStore(tmp_path / "s.sqlite"))
    assert missing == 100 and 10.0 + 2 * 0.5 >= REPROBE
    if compiles:  # played again: 2 games at 0.5 s, 0.5 s a game for the 100 missing
        assert (calls, seconds) == ([2, 2], 50.0)
    else:  # a first call that compiled nothing and took past REPROBE is the game's cost: (10 + 1) / 2 a game
        assert (calls, seconds) == ([2], 550.0)

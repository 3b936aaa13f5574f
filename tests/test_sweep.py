"""`boardlab sweep` and `boardlab tune`: values, grids, common seeds, the store, goals and the race.

The synthetic space is Pile (tests/toygame): with `take_max = 1` every turn takes one counter, so
a game lasts exactly as many turns as the pile holds; the exact length distribution of any
point is computed here by brute force over the die and every legal move (random play picks
each legal move with equal probability), independently of the engine and the runner.
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from functools import lru_cache

import pytest

from boardlab.analysis.report.compare import CompareOptions, compare
from boardlab.analysis.runner import LocalBackend
from boardlab.analysis.store import ResultStore
from boardlab.analysis.sweep import SweepOptions, parse_axis, parse_values, sweep
from boardlab.analysis.tune import TuneOptions, budget_line, check_goals, parse_goal, tune, tune_text
from boardlab.cli import main
from boardlab.layouts import BoardlabError, load, register_game, registry
from boardlab.layouts.loader import load_with
from boardlab.layouts.terms import speaking
from test_languages import english_words, tokens


@pytest.fixture
def pile(tmp_path):
    """Pile registered, and a variant of it whose die always shows 1 (a pile of start + 1)."""
    from toygame.registration import GAME

    register_game(GAME)
    variant = tmp_path / "pile-one.toml"
    variant.write_text('extends = "toygame"\n\n[rules]\ndie_faces = [1]\n')
    yield str(variant)
    registry.unregister_game(GAME.id)


class NothingToPlay(LocalBackend):
    def play(self, jobs, player=None):
        raise AssertionError(f"asked to play {len(jobs)} blocks")


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@lru_cache(maxsize=None)
def length_distribution(pile: int, take_max: int) -> dict[int, Fraction]:
    """Exact distribution of the number of turns random play takes to empty `pile` counters."""
    if pile == 0:
        return {0: Fraction(1)}
    moves = range(1, min(take_max, pile) + 1)
    out: dict[int, Fraction] = {}
    for take in moves:
        for turns, p in length_distribution(pile - take, take_max).items():
            out[turns + 1] = out.get(turns + 1, Fraction(0)) + p / len(moves)
    return out


# -- values -----------------------------------------------------------------------------------

def test_values_are_lists_or_ranges_read_as_the_keys_type():
    assert parse_values("10..40:5", int, "k") == (10, 15, 20, 25, 30, 35, 40)
    assert parse_values("10..12", int, "k") == (10, 11, 12)
    assert parse_values("3,4,5", int, "k") == (3, 4, 5)
    assert parse_values("true,false", bool, "k") == (True, False)
    assert parse_values("1.5,2", float, "k") == (1.5, 2)
    for text, why in (("40..10", "holds no values"), ("1..5:0", "step"), ("3,x", "not a whole number"),
                      ("3,3", "listed twice"), ("maybe", "not true or false")):
        with pytest.raises(BoardlabError, match=why):
            parse_values(text, bool if text == "maybe" else int, "k")


def test_an_axis_is_checked_by_the_definitions_own_schema():
    d = load("sixbysix")
    axis = parse_axis("sixbysix", d, "rules.unclaimed_bank=house,carry")
    assert axis.values == ("house", "carry")
    for text, why in (("rules.chips=0,5", "must be at least 1"), ("rules.chip=3", "did you mean rules.chips"),
                      ("print.chip=10,12", "change how the game looks"), ("rules.lead=left", "unknown value"),
                      ("board.layout=1", "only a single number"), ("rules.chips", "KEY=VALUES"),
                      ("rules.covering=1..2", "a range")):
        with pytest.raises(BoardlabError, match=why):
            parse_axis("sixbysix", d, text)


def test_a_variant_built_from_key_changes_equals_the_variant_file(tmp_path):
    (tmp_path / "v.toml").write_text('extends = "sixbysix"\n\n[rules]\nchips = 12\nunclaimed_bank = "house"\n')
    from_file = load(tmp_path / "v.toml")
    built = load_with("sixbysix", {("rules", "chips"): 12, ("rules", "unclaimed_bank"): "house"})
    assert built.rules == from_file.rules and built.game == from_file.game
    assert built.variant == "baseline with rules.chips = 12, rules.unclaimed_bank = house"


# -- sweeps -----------------------------------------------------------------------------------

def test_a_key_that_changes_nothing_gives_identical_points(pile, tmp_path):
    """Pile never reaches 200 turns (a pile of at most 16): the cap changes no game."""
    d = load("toygame")
    axes = [parse_axis("toygame", d, "rules.max_turns=200,300,400")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = sweep("toygame", d, axes, store, SweepOptions(players=(2,), agent="random", games=150, workers=1,
                                                               progress=False))
    points = result["by_players"][0]["points"]
    assert [p["values"]["rules.max_turns"] for p in points] == [200, 300, 400]
    assert points[0]["metrics"] == points[1]["metrics"] == points[2]["metrics"]
    assert points[0]["metrics"]["capped"]["value"] == 0 and points[0]["metrics"]["draws"]["value"] == 0


def test_a_sweep_plays_every_point_on_the_same_seeds_and_resumes_from_the_store(pile, tmp_path):
    """take_max = 1: every game of start s lasts exactly s + 1 turns and seat 1 wins when that is odd."""
    d = load(pile)
    axes = [parse_axis(pile, d, "rules.start=2..5"), parse_axis(pile, d, "rules.take_max=1,2")]
    store_path = tmp_path / "r.sqlite"
    options = SweepOptions(players=(2,), agent="random", games=100, workers=1, progress=False)
    with ResultStore(store_path) as store:
        first = sweep(pile, d, axes, store, options)
    with ResultStore(store_path) as store:  # a rerun finds every game in the store: nothing to play
        again = sweep(pile, d, axes, store, dataclasses.replace(options, backend=NothingToPlay()))
    assert first == again
    points = first["by_players"][0]["points"]
    assert [tuple(p["values"].values()) for p in points] == [(s, t) for s in range(2, 6) for t in (1, 2)]
    for p in points:
        start, take_max = p["values"]["rules.start"], p["values"]["rules.take_max"]
        exact = length_distribution(start + 1, take_max)
        mean = sum(k * q for k, q in exact.items())
        m = p["metrics"]
        if take_max == 1:
            assert m["length"] == {"value": start + 1, "ci95": [start + 1, start + 1], "n": 100, "at_least": False,
                                   "capped": 0.0}
            assert m["first_player_advantage"]["value"] == (0.5 if (start + 1) % 2 else -0.5)
        else:
            lo, hi = m["length"]["ci95"]
            assert lo <= mean <= hi or abs(m["length"]["value"] - float(mean)) < 0.5
        assert m["start"]["value"] == start + 1  # the game's own figure: the pile after the die


def test_sweep_command_writes_the_report_and_reports_a_refused_point(tmp_path, capsys):
    """6x6's check() refuses a favourite number that is not on the board; the other point is played."""
    code, out, err = run(["sweep", "sixbysix", "--vary", "analysis.favourite_number=7,40", "--players", "2",
                          "--games", "12", "--agent", "random", "--workers", "1", "--store", str(tmp_path / "r.sqlite"),
                          "--out", str(tmp_path / "out"), "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    points = result["by_players"][0]["points"]
    assert points[0]["values"] == {"analysis.favourite_number": 7} and points[0]["games"] == 12
    assert points[1]["refused"] == "analysis.favourite_number: 40 is not on the board"
    name = tmp_path / "out" / "sixbysix-analysis-favourite-number"
    assert json.loads(name.with_suffix(".json").read_text())["data"] == result
    assert (name / "minutes-2.svg").read_text().startswith("<?xml")
    assert name.with_suffix(".pdf").read_bytes().startswith(b"%PDF")
    assert "40 is not on the board" in name.with_suffix(".md").read_text()


@pytest.mark.parametrize("argv, said", [
    (["sweep", "sixbysix", "--vary", "rules.chipz=3"], "did you mean rules.chips"),
    (["sweep", "sixbysix", "--vary", "rules.chips=0..3"], "must be at least 1"),
    (["sweep", "sixbysix", "--vary", "rules.chips=40..10"], "holds no values"),
    (["sweep", "sixbysix", "--vary", "print.chip=12"], "change how the game looks"),
    (["sweep", "sixbysix", "--vary", "rules.chips=3", "--vary", "rules.chips=4"], "varied twice"),
    (["sweep", "sixbysix", "--vary", "rules.chips=3", "--players", "9"], "2 to 6 players"),
    (["sweep", "blockd", "--vary", "board.rows=1,5"], "board.rows=1: must be at least 2"),
    (["tune", "sixbysix", "--goal", "speed<=3", "--over", "rules.chips=3,4"], "no metric 'speed'"),
    (["tune", "sixbysix", "--goal", "minutes<=30", "--goal", "minutes>=40", "--over", "rules.chips=3,4"],
     "contradictory goals"),
    (["tune", "sixbysix", "--goal", "minutes=30", "--over", "rules.chips=3,4"], "never exactly"),
    (["tune", "sixbysix", "--goal", "minutes<=", "--over", "rules.chips=3,4"], "write METRIC<=X"),
    (["sweep", "sixbysix", "--vary", "analysis.favourite_number=40,41"], "every point is refused"),
    (["tune", "sixbysix", "--goal", "minutes<=30", "--over", "analysis.favourite_number=40,41"],
     "every point is refused"),
    (["sweep", "sixbysix", "--vary", "rules.chips=3,4", "--lang", "fr"], "6x6 has no language 'fr' (languages: es, en)"),
    (["tune", "sixbysix", "--goal", "minutes<=30", "--over", "rules.chips=3,4", "--lang", "EN"], "no language 'EN'"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_played(argv, said, tmp_path, capsys):
    store = tmp_path / "r.sqlite"
    code, out, err = run(argv + ["--store", str(store), "--out", str(tmp_path / "out")] if argv[0] == "sweep"
                         else argv + ["--store", str(store)], capsys)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1 and out == ""
    assert not store.exists() and not (tmp_path / "out").exists()


# -- goals and the tuner ----------------------------------------------------------------------

def test_goals_read_and_judge_against_the_interval():
    g = parse_goal("draws<=5%")
    assert (g.metric, g.op, g.target) == ("draws", "<=", 0.05)
    assert [g.status({"value": v, "ci95": ci}) for v, ci in ((0.01, [0.0, 0.04]), (0.05, [0.03, 0.07]),
                                                            (0.09, [0.06, 0.12]))] == ["met", "unsure", "missed"]
    near = parse_goal("first_player_advantage~0")
    assert near.status({"value": 0.01, "ci95": [-0.02, 0.04]}) == "met"
    assert near.status({"value": 0.05, "ci95": [0.01, 0.09]}) == "missed"
    check_goals([parse_goal("length<=5"), parse_goal("length>=5")], ["length"])  # one value meets both
    with pytest.raises(BoardlabError, match="contradictory"):
        check_goals([parse_goal("first_player_advantage~0"), parse_goal("first_player_advantage>=0.1")],
                    ["first_player_advantage"])


def test_tune_finds_the_known_best_point_of_a_tiny_space(pile, tmp_path):
    """Only a point whose every game lasts exactly 5 turns meets length<=5 and length>=5 with a
    95% interval; the exact distributions say which: a pile of 5 taken one by one."""
    exact = {(s, t): length_distribution(s + 1, t) for s in range(0, 8) for t in (1, 2, 3)}
    known = [{"rules.start": s, "rules.take_max": t} for (s, t), dist in exact.items() if dist == {5: 1}]
    assert known == [{"rules.start": 4, "rules.take_max": 1}]
    d = load(pile)
    axes = [parse_axis(pile, d, "rules.start=0..7"), parse_axis(pile, d, "rules.take_max=1..3")]
    goals = [parse_goal("length<=5"), parse_goal("length>=5")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = tune(pile, d, axes, goals, store, TuneOptions(players=2, agent="random", first_games=40, games=160,
                                                               workers=1, progress=False))
        assert result["meeting"] == known
        best = next(c for c in result["confirmation"] if c["meets_every_goal"])
        assert best["metrics"]["length"]["ci95"] == [5, 5] and best["games"] == 160
        # the confirmation run is a plain run of the variant on its seed: compare plays the same games
        variant = load_with(pile, {("rules", "start"): 4, ("rules", "take_max"): 1})
        assert variant.variant == best["variant"]
        compared = compare(d, [variant], store, CompareOptions(players=2, games=160, seed=result["confirmation_seed"],
                                                               agent="random", workers=1, progress=False))
    metrics = compared["comparisons"][0]["metrics"]
    assert metrics["length"]["variant"] == best["metrics"]["length"]["value"] == 5
    assert metrics["draws"]["variant"] == best["metrics"]["draws"]["value"] == 0
    assert metrics["capped"]["variant"] == best["metrics"]["capped"]["value"] == 0
    # compare's seat 1 win share is of the decided games, as the sweep's advantage; an odd pile of 5
    # taken one by one: seat 1 takes the last counter of every game
    assert metrics["seat_1_share"]["variant"] == best["metrics"]["first_player_advantage"]["value"] + 0.5 == 1
    assert "Meets every goal in the confirmation run:\n  rules.start = 4, rules.take_max = 1" in tune_text(result)


def test_a_tune_whose_goal_no_value_meets_says_so_and_names_the_closest(pile, tmp_path, capsys):
    """Every game lasts at least one turn; the shortest point is a pile of 1 (start 0)."""
    code, out, err = run(["tune", "toygame", "--variant", pile, "--goal", "length<=0.5", "--over", "rules.start=0..3",
                          "--players", "2", "--games", "40", "--workers", "1", "--store", str(tmp_path / "r.sqlite"),
                          "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["meeting"] == [] and result["confirmation"] == []
    assert result["closest"]["length<=0.5"]["values"] == {"rules.start": 0}
    assert result["closest"]["length<=0.5"]["metric"]["value"] == 1
    code, out, err = run(["tune", "toygame", "--variant", pile, "--goal", "length<=0.5", "--over", "rules.start=0..3",
                          "--players", "2", "--games", "40", "--workers", "1", "--store", str(tmp_path / "r.sqlite")],
                         capsys)
    assert "No value in range meets every goal" in out and "length<=0.5: rules.start = 0: length 1.0" in out


def test_the_balance_interval_holds_every_seat_at_once():
    """Wilson intervals at 1 - 0.05/3 each, written out here: the balance lies between 1 minus the
    widest and 1 minus the narrowest gap they allow."""
    from statistics import NormalDist

    from boardlab.analysis.report.metrics import balance_interval

    def wilson(k, n, z):
        p = k / n
        centre, half = p + z * z / (2 * n), z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5
        return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)

    z = NormalDist().inv_cdf(1 - 0.05 / 3 / 2)
    wins = [500, 300, 200]
    (lo1, hi1), (lo2, hi2), (lo3, hi3) = (wilson(w, 1000, z) for w in wins)
    b = balance_interval(wins, 1000)
    assert b["value"] == 0.7
    assert b["ci95"] == pytest.approx([1 - (hi1 - lo3), 1 - (lo1 - hi3)], abs=1e-6)
    even = balance_interval([100, 100], 200)
    assert even["value"] == 1.0 and even["ci95"][1] == 1.0  # overlapping intervals allow no gap at all


def test_a_sweep_gives_the_same_points_whatever_the_worker_count(pile, tmp_path):
    d = load("toygame")
    axes = [parse_axis("toygame", d, "rules.take_max=2,3")]
    results = []
    for workers in (1, 2):
        with ResultStore(tmp_path / f"r{workers}.sqlite") as store:
            results.append(sweep("toygame", d, axes, store, SweepOptions(players=(3,), agent="random", games=130,
                                                                         workers=workers, progress=False)))
    assert results[0] == results[1]


def fixed_probe(monkeypatch, cost: float) -> None:
    """Every probe reads `cost` CPU seconds a game and the CPU clock stands still: a budget's sizes
    are then sums by hand, whatever the machine."""
    from boardlab.analysis import budget
    from boardlab.analysis.report import jobs

    monkeypatch.setattr(jobs, "estimated_seconds",
                        lambda js, store: (cost * sum(j.games for j in js), sum(j.games for j in js)))
    monkeypatch.setattr(budget, "cpu_seconds", lambda: 0.0)


def test_a_sweep_within_its_budget_plays_every_point_the_same_fewer_games_and_says_so(pile, tmp_path, monkeypatch):
    from boardlab.analysis.report.sweep_report import sweep_document

    fixed_probe(monkeypatch, 0.001)
    d = load(pile)
    axes = [parse_axis(pile, d, "rules.start=2..5"), parse_axis(pile, d, "rules.take_max=1,2")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = sweep(pile, d, axes, store, SweepOptions(players=(2,), agent="random", games=100, workers=1,
                                                          progress=False, cpu_minutes=0.01))
    # 0.6 s for 8 points x 100 games x 0.001 s = 0.8 s: 75 games a point, 74 in whole rotations of 2 seats
    assert result["budget"]["games_per_point"] == {"2": 74} and result["budget"]["left_out"] == {"2": 26}
    assert {p["games"] for p in result["by_players"][0]["points"]} == {74}
    assert {p["metrics"]["length"]["n"] for p in result["by_players"][0]["points"]} == {74}
    head = dict(sweep_document(result)["head"])
    assert head["games per point"].startswith("74, random")
    assert head["CPU budget"] == ("0.01 CPU minutes: 74 games a point at 2 players; "
                                  "left out: 26 games a point at 2 players")
    with speaking("es"):
        head = dict(sweep_document(result)["head"])
    said = head["presupuesto de CPU"]
    assert said == ("0,01 minutos de CPU: 74 partidas por punto con 2 jugadores; "
                    "quedó fuera: 26 partidas por punto con 2 jugadores")
    assert sorted(tokens(said) & english_words()) == []


def test_a_tune_whose_budget_ends_the_race_confirms_what_it_can_and_says_where_it_stopped(pile, tmp_path,
                                                                                         monkeypatch):
    from boardlab.analysis import budget, tune as tuner

    fixed_probe(monkeypatch, 0.001)
    clock = [0.0]  # the CPU clock: the probe's 0.001 s for every game played, none for a stored one
    play = tuner.play_points

    def timed(points, players, agent, games, *args, **kwargs):
        clock[0] += 0.001 * sum(games - p.games for p in points if p.definition is not None)
        play(points, players, agent, games, *args, **kwargs)

    monkeypatch.setattr(tuner, "play_points", timed)
    monkeypatch.setattr(budget, "cpu_seconds", lambda: clock[0])
    d = load(pile)
    axes = [parse_axis(pile, d, "rules.start=0..7"), parse_axis(pile, d, "rules.take_max=1..3")]
    goals = [parse_goal("length<=5"), parse_goal("length>=5")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = tune(pile, d, axes, goals, store, TuneOptions(players=2, agent="random", first_games=40, games=160,
                                                               workers=1, progress=False, cpu_minutes=0.01))
    # 0.6 s: the race's 70 of 100 shares (0.42 s) cannot pay the first round (24 x 40 x 0.001 s =
    # 0.96 s), which is played all the same and spends more than the whole budget; no second round
    # (its 40 new games, 0.04 s, find nothing free); the confirmation, required, plays its least:
    # one rotation of the 2 seats
    assert clock[0] == pytest.approx(0.96 + 2 * 2 * 0.001)
    assert len(result["rounds"]) == 1 and result["rounds"][0]["unsure"] > 0
    assert result["budget"]["stopped"] == "the CPU budget stopped the race before 80 games (1 candidate still unsure)"
    assert result["confirmation_games"] == 2
    assert [(p["phase"], p["wanted"], p["games"]) for p in result["budget"]["phases"]] == \
        [("race", 40, 40), ("race", 80, 0), ("confirmation", 160, 2)]
    unsure = result["rounds"][0]["unsure"]
    assert unsure == 1 and len(result["confirmation"]) == 2  # the race's one unsure candidate and the one settled
    assert result["budget"]["stopped_at"] == {"games": 80, "unsure": 1}
    assert budget_line(result["budget"]) == (
        "CPU budget: 0.01 CPU minutes bought race 40 of 40 games a candidate (24 candidates), race 0 of 80 games a "
        "candidate (1 candidate), confirmation 2 of 160 games a candidate (2 candidates); the CPU budget "
        "stopped the race before 80 games (1 candidate still unsure)")
    assert budget_line(result["budget"]) in tune_text(result)
    with speaking("es"):
        said = budget_line(result["budget"])
    assert said == (
        "presupuesto de CPU: con 0,01 minutos de CPU, carrera, 40 de 40 partidas por candidato (24 candidatos), "
        "carrera, 0 de 80 partidas por candidato (1 candidato), confirmación, 2 de 160 partidas por "
        "candidato (2 candidatos); el presupuesto de CPU detuvo la carrera antes de 80 partidas (1 candidato "
        "aún sin decidir)")
    assert sorted(tokens(said) & english_words()) == []


# -- the race's group-sequential design: a simulation of its looks -----------------------------------

def crossing_chance(z: float, times, drift: float = 0.0, step: float = 0.01) -> tuple[float, float]:
    """The chance that a standardised sum crosses below -z or above z at any of its looks (then
    stops), computed without the race: W a Brownian motion with `drift` per unit of time, looked
    at at `times`, its density carried from look to look on a grid (the normal transition
    convolved, the crossed mass removed at each look).  (below, above)."""
    import math

    import numpy as np

    edge = (z + 9) * math.sqrt(times[-1]) + abs(drift) * times[-1]
    x = np.arange(-round(edge / step), round(edge / step) + 1) * step
    density, before, below, above = None, 0.0, 0.0, 0.0
    for t in times:
        dt = t - before
        if density is None:
            density = np.exp(-(x - drift * dt) ** 2 / (2 * dt)) / math.sqrt(2 * math.pi * dt)
        else:
            half = round(9 * math.sqrt(dt) / step)
            u = np.arange(-half, half + 1) * step
            kernel = np.exp(-(u - drift * dt) ** 2 / (2 * dt)) / math.sqrt(2 * math.pi * dt) * step
            density = np.convolve(density, kernel, mode="same")
        bound = z * math.sqrt(t)
        below += float(density[x < -bound].sum() * step)
        above += float(density[x > bound].sum() * step)
        density = np.where(np.abs(x) <= bound, density, 0.0)
        before = t
    return below, above


def raced(share: float, design, goal: str, replications: int, seed: int) -> list:
    """The tune's own race (`tune.race`) of `replications` candidates of a game whose first seat
    wins each game with chance `share`, every candidate's tallies drawn game by game's count
    (binomial, one numpy generator on `seed`) up to each look, its first-player advantage the
    point's share metric (`metrics.share_value`, as a sweep point's tallies give it)."""
    import numpy as np

    from boardlab.analysis.report.metrics import share_value
    from boardlab.analysis.sweep import Point
    from boardlab.analysis.tune import Candidate, race

    rng = np.random.default_rng(seed)
    candidates = [Candidate(Point({"replicate": i}, definition=object())) for i in range(replications)]
    wins = [0] * replications

    def play(racing, games, look):
        before = design.looks[look - 1] if look else 0
        for c in racing:
            i = c.point.values["replicate"]
            wins[i] += int(rng.binomial(games - before, share))
            c.point.games = games
            c.point.metrics = {"first_player_advantage": share_value(wins[i], games, 0.5)}
        return True

    race(candidates, [parse_goal(goal)], design, play)
    return candidates


def within(hits: int, n: int, p: float, z: float = 3.29) -> bool:
    """`hits` of `n` is a plausible draw of chance `p` (normal approximation, 99.9% two-sided)."""
    return abs(hits / n - p) <= z * (p * (1 - p) / n) ** 0.5 + 1 / n


def test_a_looks_interval_of_a_share_is_its_wilson_interval_at_that_level():
    """`tune.at_level` of a share point (`metrics.share_value`, shifted or not) against the Wilson
    interval of its counts at the look's level, computed directly from the counts."""
    from boardlab.analysis.report.metrics import share_value
    from boardlab.analysis.stats import wilson_interval
    from boardlab.analysis.tune import at_level

    for n in (12, 200, 1600):
        for hits in sorted({0, 1, n // 7, n // 2, n - 1, n}):
            for shift in (0.0, 0.5, 1 / 3):
                m = share_value(hits, n, shift)
                assert at_level(m, "ci95", 0.05, True) == tuple(m["ci95"])
                for alpha in (0.0125, 0.05 / 3):
                    lo, hi = wilson_interval(hits, n, 1 - alpha)
                    assert at_level(m, "ci95", alpha, True) == pytest.approx((lo - shift, hi - shift), abs=1e-5)
                    lo, hi = wilson_interval(hits, n, 1 - 2 * alpha)
                    assert at_level(m, "ci90", alpha, True) == pytest.approx((lo - shift, hi - shift), abs=1e-5)


def test_the_race_judged_at_full_alpha_every_look_settles_a_null_goal_too_often_and_bonferroni_does_not():
    """A pure-chance game (the first seat wins half the games) raced on first_player_advantage<=0,
    whose target is its true value: every verdict, met or missed, is a wrong one.  At the full 5%
    at each of the 4 planned looks (200, 400, 800, 1,600 games: the race before its design) the
    race settles the goal about 14% of the time; at 5% / 4 a look (Bonferroni, the race's design)
    at most 5%.  The rates of the race's own code, simulated from one seed, against those of a
    Brownian motion crossing the same boundaries (computed, not simulated)."""
    from statistics import NormalDist

    from boardlab.analysis.report.metrics import ALPHA
    from boardlab.analysis.stats import wilson_interval
    from boardlab.analysis.tune import Design, race_looks

    looks = race_looks(200, 1600)
    assert looks == (200, 400, 800, 1600)
    times = [g / looks[0] for g in looks]
    z = NormalDist().inv_cdf
    replications = 4000
    for design, seed in ((Design(looks, ALPHA), 1), (Design.bonferroni(looks), 2)):
        candidates = raced(0.5, design, "first_player_advantage<=0", replications, seed)
        missed = sum(c.dropped_at is not None for c in candidates)
        met = sum(c.dropped_at is None and c.met() for c in candidates)
        low, high = crossing_chance(z(1 - design.per_look / 2), times)
        assert within(met, replications, low) and within(missed, replications, high)  # met: the interval's top <= 0
        wrong = (met + missed) / replications
        lower, upper = wilson_interval(met + missed, replications, 0.99)
        if design.per_look == ALPHA:  # the old race: well above ALPHA, computed and simulated
            assert low + high > 2.5 * ALPHA and lower > 2 * ALPHA, wrong
        else:  # the race's design: within ALPHA, computed and simulated
            assert design.per_look == ALPHA / 4 and low + high <= ALPHA and lower <= ALPHA, wrong
    # the same seed races the same way
    again = raced(0.5, Design.bonferroni(looks), "first_player_advantage<=0", 300, 2)
    assert [(c.dropped_at, c.statuses) for c in again] == \
        [(c.dropped_at, c.statuses) for c in raced(0.5, Design.bonferroni(looks), "first_player_advantage<=0", 300, 2)]


def test_the_race_with_its_design_finds_a_real_difference():
    """The first seat wins 45% of the games (an advantage of -5 points): first_player_advantage<=0
    is met by the last look about 94% of the time (the crossing chance of the Brownian motion with
    the drift of that advantage, computed) and never missed; at 60% (+10 points) the goal is missed
    and the candidate dropped, at the first look about 65% of the time (computed), by the last
    always."""
    import math
    from statistics import NormalDist

    from boardlab.analysis.tune import Design, race_looks

    looks = race_looks(200, 1600)
    design = Design.bonferroni(looks)
    times = [g / looks[0] for g in looks]
    z = NormalDist().inv_cdf(1 - design.per_look / 2)
    drift = -0.05 / math.sqrt(0.45 * 0.55) * math.sqrt(looks[0])  # per unit of time: per first look's games
    low, high = crossing_chance(z, times, drift)
    candidates = raced(0.45, design, "first_player_advantage<=0", 1000, 3)
    met = sum(c.dropped_at is None and c.met() for c in candidates)
    assert low > 0.9 and within(met, 1000, low), (met, low)
    assert sum(c.dropped_at is not None for c in candidates) == 0 and high < 1e-3
    far = raced(0.6, design, "first_player_advantage<=0", 300, 4)
    drift = 0.1 / math.sqrt(0.6 * 0.4) * math.sqrt(looks[0])
    first = sum(c.dropped_at == looks[0] for c in far)
    _, at_first = crossing_chance(z, times[:1], drift)
    _, at_any = crossing_chance(z, times, drift)
    assert within(first, 300, at_first), (first, at_first)
    assert at_any > 0.999 and all(c.dropped_at is not None for c in far)


# -- a point's tallies against its records; sequential points ---------------------------------------

def close(a, b) -> bool:
    """Equal JSON values, floats within 1e-9 (exact sums against float sums)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) <= 1e-9
    return a == b


@pytest.mark.parametrize("players", [2, 3])
def test_a_points_tallies_give_the_metrics_of_its_records(players):
    """PointTally (a chunk at a time, no record kept) against point_metrics of the records: shared wins,
    games without a winner, games stopped at the cap, a figure some game lacks, float figures."""
    import random

    from boardlab.analysis.runner import GameRecord
    from boardlab.analysis.sweep import PointTally, point_metrics

    d = load("sixbysix")  # a definition with a stated pace: the minutes metrics are measured too
    rng = random.Random(players)
    records = []
    for i in range(700):
        kind = rng.random()
        unfinished = kind < 0.1
        winners = () if unfinished or kind < 0.15 else tuple(sorted(rng.sample(range(players), 1 + (kind > 0.85))))
        stats = {"chips": rng.randint(0, 40), "share": rng.random(), "flag": True}
        if i != 300:
            stats["sometimes"] = rng.random()
        records.append(GameRecord(i, i, 0, ("greedy",) * players, winners, unfinished,
                                  rng.choice([120]) if unfinished else rng.randint(5, 119), stats))
    tally = PointTally(players)
    for start in range(0, len(records), 64):
        tally.add(records[start:start + 64])
    fast, slow = tally.metrics(d), point_metrics(records, d, players)
    assert list(fast) == list(slow) and "sometimes" not in fast and "chips" in fast and "median_minutes" in fast
    assert close(fast, slow)


def test_a_point_that_differs_stops_at_the_first_look_and_a_null_one_plays_to_the_cap(pile, tmp_path):
    """Pile as written (start 10, max_turns 200) is the base: start 60 makes every game far longer (it
    stops after the first look, a quarter of the games), max_turns 300 changes no game (a game of at
    most 60 counters never reaches 200 turns), so that point plays every game."""
    from math import erfc, sqrt

    from boardlab.analysis.report.sweep_report import budget_words

    d = load("toygame")
    axes = [parse_axis("toygame", d, "rules.start=10,60"), parse_axis("toygame", d, "rules.max_turns=200,300")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = sweep("toygame", d, axes, store, SweepOptions(players=(2,), agent="random", games=400, workers=1,
                                                               progress=False))
    with ResultStore(tmp_path / "fixed.sqlite") as store:  # every point's first 100 games, on their own
        first = sweep("toygame", d, axes, store, SweepOptions(players=(2,), agent="random", games=100, workers=1,
                                                              progress=False, sequential=False))
    block = result["by_players"][0]
    assert block["sequential"] == {"base": {"rules.start": 10, "rules.max_turns": 200}, "looks": [100, 200, 400]}
    points = {tuple(p["values"].values()): p for p in block["points"]}
    fixed = {tuple(p["values"].values()): p for p in first["by_players"][0]["points"]}
    assert points[(10, 200)]["games"] == 400 and "stop" not in points[(10, 200)]
    assert points[(10, 300)]["games"] == 400
    assert points[(10, 300)]["stop"] == {"games": 400, "p_value": 1.0, "differs": False, "answered_early": False}
    assert points[(10, 300)]["metrics"] == points[(10, 200)]["metrics"]
    for longer in ((60, 200), (60, 300)):
        assert points[longer]["games"] == 100 and points[longer]["stop"]["answered_early"]
        assert points[longer]["metrics"] == fixed[longer]["metrics"]  # its first 100 games
    # the p-value by hand: each metric's difference over the root of the two squared interval widths / 2 z,
    # its two-sided normal p, the smallest times 4 metrics times 3 looks
    z95 = 1.959963984540054
    ps = []
    for name in ("first_player_advantage", "length", "draws", "capped"):
        a, b = fixed[(60, 200)]["metrics"][name], fixed[(10, 200)]["metrics"][name]
        se = sqrt((a["ci95"][1] - a["ci95"][0]) ** 2 + (b["ci95"][1] - b["ci95"][0]) ** 2) / (2 * z95)
        diff = a["value"] - b["value"]
        ps.append(erfc(abs(diff) / se / sqrt(2)) if se else float(diff == 0))
    assert points[(60, 200)]["stop"]["p_value"] == pytest.approx(min(1.0, min(ps) * 4 * 3), abs=1e-6)
    assert result["budget"]["answered_early"] == {"2": {"points": 2, "games": 600}}
    assert budget_words(result) == ("no limit: 400 games a point at 2 players (2 points at 2 players answered before "
                                    "the cap: they differ from the written rules; 600 games not played); nothing "
                                    "left out")
    with speaking("es"):
        said = budget_words(result)
    assert said == ("sin límite: 400 partidas por punto con 2 jugadores (2 puntos con 2 jugadores respondidos antes del "
                    "tope: difieren de las reglas escritas; 600 partidas sin jugar); no quedó nada fuera")
    assert sorted(tokens(said) & english_words()) == []


def test_a_grid_without_the_written_rules_plays_every_point_to_the_cap_and_says_why(pile, tmp_path):
    """Start 20 and 60 (the toy game's written start is 10): nothing to measure the points against, so
    each plays all 400 games - the same games as a sweep asked for every game - and the report says so."""
    from boardlab.analysis.report.sweep_report import sequential_note

    d = load("toygame")
    axes = [parse_axis("toygame", d, "rules.start=20,60")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = sweep("toygame", d, axes, store, SweepOptions(players=(2,), agent="random", games=400, workers=1,
                                                               progress=False))
        every = sweep("toygame", d, axes, store, SweepOptions(players=(2,), agent="random", games=400, workers=1,
                                                              progress=False, sequential=False))
    block = result["by_players"][0]
    assert block["sequential"] == {"base": None, "written": {"rules.start": 10}, "looks": [400]}
    assert [p["games"] for p in block["points"]] == [400, 400]
    assert [p["metrics"] for p in block["points"]] == [p["metrics"] for p in every["by_players"][0]["points"]]
    assert "sequential" not in every["by_players"][0]
    assert result["budget"]["answered_early"] == {}
    said = sequential_note(block)
    assert said.startswith("No point of the grid is the written rules (`rules.start = 10`)") and "all 400 games" in said
    with speaking("es"):
        dicho = sequential_note(block)
    assert "(`rules.start = 10`)" in dicho and "sus 400 partidas" in dicho
    assert sorted(tokens(re.sub(r"`[^`]*`", " ", dicho)) & english_words()) == []  # code (`rules.start`) aside


def test_a_points_median_from_its_histograms_is_the_median_interval_of_its_lengths():
    """PointTally.median (Kaplan-Meier from the histograms) against metrics.median_interval of the lengths,
    on 300 random sets of finished and capped games (no game, none finished, none capped included)."""
    import random

    from boardlab.analysis.report.metrics import median_interval
    from boardlab.analysis.sweep import PointTally

    for trial in range(300):
        rng = random.Random(trial)
        finished = [rng.randint(1, 30) for _ in range(rng.randint(0, 60))]
        stopped = [rng.choice([30, 31, 40])] * rng.randint(0, 20)
        tally = PointTally(2)
        tally.finished.counts.update(finished)
        tally.stopped.counts.update(stopped)
        assert close(tally.median(), median_interval(finished, stopped)), trial


# -- the confirmation of several finalists: Holm's step-down -----------------------------------------

@pytest.mark.parametrize("p_values", [(0.01, 0.02, 0.06), (0.01, 0.03, 0.04), (0.03, 0.001, 0.02), (0.2, 0.3, 0.04)])
def test_the_confirmation_judges_its_finalists_by_holm_as_computed_by_hand(p_values):
    """Three finalists, one goal `length<=5`, each length's normal 95% interval built so that its
    one-sided test of the goal has the two-sided p-value given (met at the level a exactly when
    p <= a); Holm's procedure done here by the book (sorted p-values against 5% / 3, 5% / 2, 5%,
    stopping at the first that fails) says which are confirmed, and `confirm` agrees; judging each
    at 5% alone would confirm every p below 5%."""
    from statistics import NormalDist

    from boardlab.analysis.report.metrics import Z95
    from boardlab.analysis.sweep import Point
    from boardlab.analysis.tune import confirm

    se = 0.1
    points = []
    for i, p in enumerate(p_values):
        value = 5 - NormalDist().inv_cdf(1 - p / 2) * se  # the upper end at level p lands on 5
        points.append(Point({"k": i}, metrics={"length": {"value": value, "ci95": [value - Z95 * se,
                                                                                    value + Z95 * se]}}))
    by_the_book = set()
    for step, i in enumerate(sorted(range(3), key=lambda i: p_values[i])):
        if p_values[i] > 0.05 / (3 - step):
            break
        by_the_book.add(i)
    judged = confirm(points, [parse_goal("length<=5")])
    assert {i for i, (statuses, _) in enumerate(judged) if statuses["length<=5"] == "met"} == by_the_book
    assert {i for i, p in enumerate(p_values) if p <= 0.05} >= by_the_book
    expected = {(0.01, 0.02, 0.06): {0, 1}, (0.01, 0.03, 0.04): {0}, (0.03, 0.001, 0.02): {0, 1, 2},
                (0.2, 0.3, 0.04): set()}[p_values]  # by hand, from the p-values above
    assert by_the_book == expected
    # Bonferroni (5% / 3 for all) would confirm only p <= 1.67%: fewer whenever Holm steps on
    assert {i for i, p in enumerate(p_values) if p <= 0.05 / 3} <= by_the_book


def test_a_tunes_confirmation_states_holm_over_its_finalists(pile, tmp_path):
    d = load(pile)
    axes = [parse_axis(pile, d, "rules.start=3..5"), parse_axis(pile, d, "rules.take_max=1")]
    goals = [parse_goal("length<=9")]
    with ResultStore(tmp_path / "r.sqlite") as store:
        result = tune(pile, d, axes, goals, store, TuneOptions(players=2, agent="random", first_games=40, games=40,
                                                               workers=1, progress=False))
    assert result["confirmation_design"] == {"finalists": 3, "method": "holm", "alpha": 0.05,
                                             "levels": [0.016667, 0.025, 0.05]}
    # every game of a pile of start + 1 taken one by one lasts start + 1 turns: each interval a point
    # below 9, met at any level, all three at the first step
    assert [c["alpha"] for c in result["confirmation"]] == [0.016667] * 3
    assert result["meeting"] == [{"rules.start": s, "rules.take_max": 1} for s in (5, 4, 3)]  # nearest the written 10
    assert [c["metrics"]["length"]["ci95"] for c in result["confirmation"]] == [[6, 6], [5, 5], [4, 4]]
    assert "each goal judged at 1.67%, 2.5% and 5% in turn (Holm's step-down over the 3 candidates" in \
        tune_text(result)

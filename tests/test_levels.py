"""Player levels, perfect play and luck against skill (analysis/perfect.py, analysis/report/levels.py).

The take-away game of tests/toygame has a known answer: the player to move loses exactly when
the pile is a multiple of take_max + 1.  With a d4 added to a start of 10 the first mover faces
11, 12, 13 or 14 counters and wins three positions in four under perfect play.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardlab.analysis import engines
from boardlab.analysis.perfect import PerfectAgent, Solver, TooLarge, game_value
from boardlab.analysis.report.build import ReportOptions, build_report
from boardlab.analysis.report.levels import clustered_share, pairing_share
from boardlab.analysis.store import ResultStore
from boardlab.layouts import load, register_game, registry
from boardlab.layouts.loader import load_with


@pytest.fixture
def toygame():
    from toygame.registration import GAME

    register_game(GAME)
    yield GAME
    registry.unregister_game(GAME.id)


def pile(faces, take_max=3, start=10):
    return load_with("toygame", {("rules", "die_faces"): faces, ("rules", "take_max"): take_max,
                                 ("rules", "start"): start})


def mover_wins(counters: int, take_max: int) -> bool:
    """The take-away game's known answer, written out: a multiple of take_max + 1 loses."""
    return counters % (take_max + 1) != 0


def test_the_solver_gives_the_known_value_of_the_take_away_game(toygame):
    for faces, take_max in (([1, 2, 3, 4], 3), ([1, 2, 3, 4, 5, 6], 3), ([1, 1, 2, 5], 2)):
        game = engines.make_game(pile(faces, take_max), 2)
        wins = Fraction(sum(mover_wins(10 + f, take_max) for f in faces), len(faces))
        assert Solver().values(game.new_initial_state()) == (wins, 1 - wins)
    value = game_value(engines.make_game(pile([1, 2, 3, 4]), 2))
    assert value["solved"] and value["exact"] == ["3/4", "1/4"]


def test_the_perfect_agent_leaves_a_losing_pile_whenever_it_can(toygame):
    game = engines.make_game(pile([1, 2, 3, 4]), 2)
    agent = PerfectAgent()
    for counters in range(1, 30):
        state = game.state_from_position({"game": "toygame", "pile": counters, "to_move": 0})
        for seed in range(3):
            move = agent.choose(state, random.Random(seed))
            if mover_wins(counters, 3):
                assert not mover_wins(counters - move, 3) or counters - move == 0
            else:
                assert move in (1, 2, 3)  # every move loses: any legal one


def test_a_game_too_large_to_solve_says_why():
    assert game_value(engines.make_game(load("blockd"), 2)) == {"solved": False, "reason": "deal",
                                                                  "limit": 200_000}
    state = engines.make_game(load("blockd"), 2).new_initial_state()
    with pytest.raises(TooLarge):
        Solver().values(state)


def test_the_take_away_report_closes_its_ladder_with_perfect_play(toygame, tmp_path):
    """The ladder ends with perfect play, the strongest bot's distance to it is reported, and the
    skilled level (perfect) finds seat 1 ahead where perfect play gives it 3 positions in 4."""
    options = ReportOptions(games=480, skill_games=60, decision_games=4, table_deals=2, workers=1,
                            progress=False, players=2)
    document = build_report(pile([1, 2, 3, 4]), ResultStore(tmp_path / "r.sqlite"), options)
    d = document["data"]["by_players"]["2"]
    skill = d["skill"]
    assert [level["agent"] for level in skill["levels"]] == ["random", "perfect"]
    perfect = skill["perfect"]
    assert perfect["solved"] and perfect["exact"] == ["3/4", "1/4"] and perfect["bot"] == "random"
    # random against perfect: it wins only from a losing start and a lucky run
    assert perfect["against_perfect"]["share"] < 0.25
    moves = perfect["optimal_moves"]
    assert moves["decisions"] > 0 and 0 < moves["share"] < 1
    levels = {x["level"]: x for x in d["levels"]}
    assert levels["skilled"]["agent"] == "perfect" and levels["beginner"]["agent"] == "random"
    seat1 = levels["skilled"]["seats"]["by_seat"][0]["share"]
    assert abs(seat1 - 0.75) < 0.08  # 120 games of perfect self-play: seat 1 wins from 11, 13 and 14
    texts = [f["text"] for f in document["data"]["findings"]]
    assert any(t.startswith("Skilled players (perfect in every seat): Seat 1 wins more than a fair share") for t in texts)
    assert any(t.startswith("With 2 players: Perfect play (solved exactly") for t in texts)
    verdict = document["data"]["verdict"]["by_players"]["2"]["lines"]
    seats = [line for line in verdict if line.startswith("- Seats (skilled players, perfect): not balanced")]
    assert seats, verdict
    assert any(line.startswith("- Worst problem (skilled players, perfect): seat 1") for line in verdict), verdict


def test_a_game_of_pure_chance_has_no_skill_finding_and_a_skill_share_around_zero(toygame, tmp_path):
    """With take_max = 1 every move is forced: the pile's parity alone decides the game."""
    options = ReportOptions(games=240, skill_games=120, decision_games=4, table_deals=2, workers=1,
                            progress=False, players=2)
    document = build_report(pile([1, 2, 3, 4], take_max=1), ResultStore(tmp_path / "r.sqlite"), options)
    d = document["data"]["by_players"]["2"]
    share = d["skill_share"]["against_random"]
    assert share["holds_zero"] and share["skill_ci95"][0] <= 0 <= share["skill_ci95"][1]
    kinds = {f["kind"] for f in document["data"]["findings"]}
    assert not kinds & {"skill", "skill share"}


def test_the_rotation_group_interval_widens_for_dependent_games():
    """Groups that repeat one result (both games of a deal won, or both lost) hold half the
    information of independent games: the effective size halves and the interval widens."""
    from collections import namedtuple

    R = namedtuple("R", "deal won")
    same = [R(d, d % 2) for d in range(100) for _ in range(2)]
    c = clustered_share(same, lambda r: r.won, lambda r: r.deal)
    assert c["share"] == 0.5 and c["effective"] == pytest.approx(100, rel=0.02)
    independent = clustered_share([R(i, i % 2) for i in range(200)], lambda r: r.won, lambda r: r.deal)
    assert c["ci95"][1] - c["ci95"][0] > 1.35 * (independent["ci95"][1] - independent["ci95"][0])


def test_pairing_share_counts_only_single_winners():
    from collections import namedtuple

    R = namedtuple("R", "deal agents winners unfinished")
    games = [R(0, ("a", "b"), (0,), False), R(0, ("b", "a"), (1,), False), R(1, ("a", "b"), (1,), False),
             R(1, ("b", "a"), (), False), R(2, ("a", "b"), (0, 1), False), R(2, ("b", "a"), (), True)]
    s = pairing_share(games, "a", 2)
    assert (s["wins"], s["decided"], s["games"]) == (2, 3, 6)
    assert s["skill_share"] == pytest.approx((2 / 3 - 0.5) / 0.5)


def test_the_definition_may_name_its_skilled_players(tmp_path, capsys):
    from boardlab.analysis.report.levels import skilled_agent
    from boardlab.cli import main

    trace = {"levels": [{"agent": "random", "rating": 0.0}, {"agent": "greedy", "rating": 300.0}],
             "pairings": [{"agent": "greedy", "below": "random", "distinguished": True}]}
    assert skilled_agent(load("blockd"), trace) == "greedy"
    assert skilled_agent(load_with("blockd", {("analysis", "skilled_agent"): "mcts-256"}), trace) == "mcts-256"
    variant = tmp_path / "strong.toml"
    variant.write_text('extends = "blockd"\n\n[analysis]\nskilled_agent = "mcts-256"\n')
    assert main(["check", str(variant)]) == 0
    variant.write_text('extends = "blockd"\n\n[analysis]\nskilled_agent = "deep-blue"\n')
    assert main(["check", str(variant)]) == 2
    err = capsys.readouterr().err
    assert "strong.toml:4: analysis.skilled_agent: unknown agent 'deep-blue'" in err and err.count("\n") == 1


def _trace(chain: str) -> dict:
    """A skill trace from a chain as a report writes it ("random < greedy ~ mcts-16")."""
    names = chain.replace("<", " ").replace("~", " ").split()
    marks = [c for c in chain if c in "<~"]
    return {"levels": [{"agent": n, "rating": 100.0 * i} for i, n in enumerate(names)],
            "pairings": [{"agent": n, "below": b, "distinguished": m == "<"}
                         for n, b, m in zip(names[1:], names, marks)]}


def test_the_skilled_level_is_the_cheapest_of_the_ladders_top_group():
    """The skilled level is the level of the ladder's last step told apart: no level above it is
    shown stronger. 6x6 at 3 players ("random < greedy ~ search-16 ~ search-32", the last step
    undecided) names greedy, not search-32, the highest rated; Blockd's "random < greedy ~ mcts-16 ~
    mcts-32 < mcts-64" names mcts-64; a ladder with no step told apart names the beginner's level
    (greedy), never one below it. The definition's analysis.skilled_agent overrides all of them."""
    from boardlab.analysis.report.levels import skilled_agent, skilled_rule

    cases = {"random < greedy ~ search-16 ~ search-32": "greedy",
             "random < greedy ~ mcts-16 ~ mcts-32 < mcts-64": "mcts-64",
             "random < greedy < mcts-16 ~ mcts-32": "mcts-16",
             "random ~ greedy ~ mcts-16": "greedy",  # nothing told apart: the beginner's level, not random
             "random < mcts-16 ~ mcts-32": "mcts-16"}
    for chain, agent in cases.items():
        assert skilled_agent(load("blockd"), _trace(chain), "greedy") == agent, chain
        assert skilled_rule(load("blockd"), _trace(chain)) == "top group"
    assert skilled_agent(load("blockd"), _trace("random ~ a ~ b")) == "a"  # no beginner in it: never random play
    assert skilled_agent(load("blockd"), {"levels": [{"agent": "random", "rating": 0.0}], "pairings": []}) == "random"
    named = load_with("blockd", {("analysis", "skilled_agent"): "mcts-256"})
    assert (skilled_agent(named, _trace("random < greedy")), skilled_rule(named, _trace("random < greedy"))) == \
        ("mcts-256", "named")


def test_the_reports_head_says_how_the_skilled_level_was_chosen():
    from boardlab.analysis.report.build import _level_words
    from boardlab.layouts.terms import speaking

    def data(rule: str) -> dict:
        return {"2": {"levels": [{"level": "beginner", "agent": "greedy", "games": 10, "model": True},
                                 {"level": "skilled", "agent": "mcts-64", "games": 10, "model": True, "chosen_by": rule}]}}

    options = ReportOptions(progress=False)
    assert _level_words(data("top group"), options) == (
        "; player levels: beginners greedy; skilled players mcts-64 (the cheapest level of the skill ladder's top "
        "group, not below the beginners': no level above it is significantly stronger)")
    assert _level_words(data("named"), options).endswith("mcts-64 (named by the definition's `analysis.skilled_agent`)")
    with speaking("es"):
        assert _level_words(data("top group"), options) == (
            "; niveles de jugador: principiantes (voraz); expertos (MCTS-64), el nivel de menor coste del grupo "
            "superior de la escalera de habilidad, no por debajo del de los principiantes (ningún nivel por encima es "
            "significativamente más fuerte)")

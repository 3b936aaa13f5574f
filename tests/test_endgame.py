"""The endgame measure (`perfect.endgame_share`) against computations written out here.

The take-away game of tests/toygame has a known answer (the player to move loses exactly at a
multiple of take_max + 1), so every sampled decision's optimal moves, the perfect agent's score
and a random mover's expected score are computed by hand.  On Blockd, too large to solve from
its start, a plain minimax (no table, the result of seat 0 minus that of seat 1) agrees with the
solver on the values and the optimal moves of sampled endgame positions.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from boardlab.analysis import engines
from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.perfect import PerfectAgent, Solver, endgame_share
from boardlab.layouts import load, register_game, registry
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.loader import load_with


@pytest.fixture
def toygame():
    from toygame.registration import GAME

    register_game(GAME)
    yield GAME
    registry.unregister_game(GAME.id)


def pile_game(players=2):
    definition = load_with("toygame", {("rules", "die_faces"): [1, 2, 3, 4], ("rules", "take_max"): 3,
                                       ("rules", "start"): 10})
    return engines.make_game(definition, players)


def winning_takes(counters: int) -> list[int]:
    """The take that leaves a multiple of 4 (the known answer), or every legal take when none does."""
    legal = list(range(1, min(3, counters) + 1))
    return [counters % 4] if counters % 4 else legal


def test_the_perfect_agent_plays_every_sampled_endgame_decision_optimally(toygame):
    game = pile_game()
    result = endgame_share(game, lambda g: PerfectAgent(), 40, seed=5, detail=True)
    assert result["positions"] == len(result["samples"]) == 40
    assert result["optimal"] == 40 and result["share"] == 1.0
    for state, moves, good, move in result["samples"]:
        assert good == winning_takes(state.pile) and len(good) < len(moves)
        assert move in good


def test_a_random_agent_scores_what_the_known_answer_says_on_the_sampled_positions(toygame):
    game = pile_game()
    result = endgame_share(game, lambda g: RandomAgent(), 60, seed=9, plies=6, detail=True)
    samples = result["samples"]
    assert result["positions"] == len(samples) == 60
    piles = [state.pile for state, *_ in samples]
    # the decisions that matter: a winning pile (not a multiple of 4) with more than one take
    assert all(p % 4 and p > 1 for p in piles)
    hits = sum(move == p % 4 for p, (_, _, _, move) in zip(piles, samples))
    assert result["optimal"] == hits and result["share"] == round(hits / 60, 6)
    assert 0 < hits < 60  # a random mover misses some: the count is not the perfect one
    expected = sum(Fraction(1, min(3, p)) for p in piles) / 60  # one winning take among min(3, p)
    assert result["random_share"] == round(float(expected), 6)
    assert 1 <= result["plies"][0] <= result["plies"][1] <= 6


def test_the_endgame_sample_is_reproducible_from_its_seed(toygame):
    game = pile_game()
    first = endgame_share(game, lambda g: RandomAgent(), 30, seed=3)
    assert endgame_share(game, lambda g: RandomAgent(), 30, seed=3) == first
    assert endgame_share(game, lambda g: RandomAgent(), 30, seed=4) != first


def test_more_than_two_players_are_refused_with_the_reason(toygame):
    with pytest.raises(BoardlabError, match="two players only"):
        endgame_share(pile_game(3), lambda g: RandomAgent(), 5, seed=1)


def minimax(state) -> Fraction:
    """Seat 0's result minus seat 1's under plain minimax, every line searched (no table)."""
    if state.is_terminal():
        returns = state.returns()
        return Fraction(returns[0]) - Fraction(returns[1])
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move)
        values.append(minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


def test_plain_minimax_agrees_with_the_solver_on_blockd_endgames():
    game = engines.make_game(load("blockd"), 2)
    result = endgame_share(game, lambda g: RandomAgent(), 6, seed=11, plies=6, limit=1_000, detail=True)
    assert result["positions"] == 6 and result["plies"][1] > 2  # not only last moves
    for state, moves, good, _ in result["samples"]:
        seat = state.current_player()
        sign = 1 if seat == 0 else -1
        scored = []
        for move in moves:
            child = state.clone()
            child.apply(move)
            scored.append((move, sign * minimax(child)))
        best = max(v for _, v in scored)
        assert good == [m for m, v in scored if v == best]
        values = Solver().values(state)
        assert values[0] - values[1] == sign * best


def test_games_stopped_at_the_cap_give_no_endgame(toygame):
    """Two turns never empty a pile of 11 or more: every cheap game stops at the cap."""
    definition = load_with("toygame", {("rules", "die_faces"): [1, 2, 3, 4], ("rules", "take_max"): 3,
                                       ("rules", "start"): 10, ("rules", "max_turns"): 2})
    result = endgame_share(engines.make_game(definition, 2), lambda g: RandomAgent(), 3, seed=1)
    assert result["positions"] == 0 and result["games"] == 150 and result["share"] is None
    assert endgame_share(pile_game(), lambda g: RandomAgent(), 3, seed=1)["positions"] == 3


# the endgame measure in a report's skill trace (`skill.endgame_measure`)

def unsolved_pile():
    """The take-away pile from a start of 40 (plus the d4): with the report's solver held to 500
    positions (`small_solver`) too large to solve from its start; its endgames (a few counters
    left) are solved exactly."""
    return load_with("toygame", {("rules", "die_faces"): [1, 2, 3, 4], ("rules", "take_max"): 3,
                                 ("rules", "start"): 40})


def fixed_cost(monkeypatch, seconds: float):
    """The probe's cost per decision fixed (the CPU clock is the machine's); its sample is the real one."""
    from boardlab.analysis import skill

    probe = skill.endgame_probe
    monkeypatch.setattr(skill, "endgame_probe", lambda *args: (probe(*args)[0], seconds))


def small_solver(monkeypatch):
    """The report's check whether a game is solved from its start (`perfect.game_value`), held to
    500 positions: the pile from 40 has more (a pile, a seat and a turn count each)."""
    import functools

    from boardlab.analysis import perfect

    monkeypatch.setattr(perfect, "game_value", functools.partial(perfect.game_value, limit=500))


def trace_with_budget(tmp_path, budget):
    from boardlab.analysis import skill
    from boardlab.analysis.store import ResultStore

    # 120 skill games a level (a report's default): 100 endgame decisions asked (at most as many as those games)
    return skill.traces(unsolved_pile(), [2], 120, 16, 3, ResultStore(tmp_path / "s.sqlite"), budget=budget)[2]


def test_a_report_trace_of_an_unsolved_game_measures_its_strongest_bot_in_endgames(toygame, tmp_path, monkeypatch):
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.report.budgeted import bought_data, bought_words
    from boardlab.analysis.report.levels import perfect_words
    from boardlab.layouts.terms import speaking

    fixed_cost(monkeypatch, 0.1)
    small_solver(monkeypatch)
    # a minute of CPU, the clock standing still: the endgame's share, 2 of the 22 shares still waiting
    # (skill 20, whose ladder here has no step: the pile game's only agent is random play), is
    # 60 x 2 / 22 = 5.45 s; 100 decisions at 0.1 s would take 10 s: 100 x 5.45 / 10 = 54 fit (least 20)
    budget = Budget(1.0, shares={"skill": 20, "endgame": 2}, clock=lambda: 0.0)
    trace = trace_with_budget(tmp_path, budget)
    perfect = trace["perfect"]
    assert not perfect["solved"] and perfect["reason"] == "positions"
    game = engines.make_game(unsolved_pile(), 2)
    direct = endgame_share(game, lambda g: RandomAgent(), 54, seed=3)  # the bot: the ladder's only level
    assert perfect["endgame"] == {"measured": True, "bot": "random", "asked": 54, **direct}
    assert direct["positions"] == 54 and 0 < direct["optimal"] < 54
    rows = [p for p in budget.bought()["phases"] if p["phase"] == "endgame"]
    assert [(p["wanted"], p["games"]) for p in rows] == [(100, 54)]
    with speaking("en", unsolved_pile()):
        said = perfect_words(trace)
        head = bought_words(bought_data(budget))
    assert said.startswith("Perfect play: not computed; the game is too large to solve exhaustively here (more than "
                           "500 positions from the start). In endgames (54 decisions at most ")
    from scipy.stats import beta
    k, n = direct["optimal"], direct["positions"]  # Clopper-Pearson from the beta quantiles, 0 < k < n
    low, high = beta.ppf(0.025, k, n - k + 1), beta.ppf(0.975, k + 1, n - k)
    assert said.endswith(f"random plays an optimal move at {direct['share']:.1%} of the decisions where the choice "
                         f"matters (95% interval {low:.1%} to {high:.1%}); a random move would be optimal at "
                         f"{direct['random_share']:.1%}.")
    assert "endgame decisions: 54 decisions at 2 players" in head and "46 endgame decisions at 2 players" in head
    with speaking("es", unsolved_pile()):
        said = perfect_words(trace)
        short = perfect_words(trace, short=True)
    assert " En los finales de partida (54 decisiones a " in said and "una jugada al azar lo sería en el " in said
    spanish = {k: f"{direct[k]:.1%}".replace(".", ",").replace("%", "\u00a0%") for k in ("share", "random_share")}
    spanish.update({k: f"{v:.1%}".replace(".", ",").replace("%", "\u00a0%") for k, v in (("low", low), ("high", high))})
    assert said.endswith(f"una jugada óptima en el {spanish['share']} de las decisiones en las que la elección importa "
                         f"(intervalo del 95 % de {spanish['low']} a {spanish['high']}); "
                         f"una jugada al azar lo sería en el {spanish['random_share']}.")
    assert short == (" Juego perfecto: demasiado grande para resolverlo (más de 500 posiciones desde el inicio). En los "
                     f"finales, azar elige una jugada óptima en el {spanish['share']} de las decisiones que importan "
                     f"(una jugada al azar: {spanish['random_share']}).")


def test_a_budget_too_small_for_the_endgame_measure_leaves_it_out_and_says_so(toygame, tmp_path, monkeypatch):
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.report.levels import perfect_words
    from boardlab.layouts.terms import speaking

    fixed_cost(monkeypatch, 1.0)  # 5.45 s buy 5 decisions: fewer than the 20 worth measuring
    small_solver(monkeypatch)
    budget = Budget(1.0, shares={"skill": 20, "endgame": 2}, clock=lambda: 0.0)
    trace = trace_with_budget(tmp_path, budget)
    assert trace["perfect"]["endgame"] == {"measured": False, "bot": "random", "reason": "budget", "asked": 100}
    with speaking("en", unsolved_pile()):
        assert perfect_words(trace).endswith(" The endgame measure of random (how often it plays an optimal move "
                                             "near a game's end) was left out for the CPU budget.")
    with speaking("es", unsolved_pile()):
        assert perfect_words(trace, short=True).endswith(" La medida de los finales quedó fuera por el presupuesto de CPU.")


def test_without_a_budget_the_whole_count_is_measured(toygame, tmp_path, monkeypatch):
    small_solver(monkeypatch)
    trace = trace_with_budget(tmp_path, None)
    direct = endgame_share(engines.make_game(unsolved_pile(), 2), lambda g: RandomAgent(), 100, seed=3)
    assert trace["perfect"]["endgame"] == {"measured": True, "bot": "random", "asked": 100, **direct}


def test_hidden_hands_get_no_endgame_measure():
    from boardlab.analysis.report.levels import endgame_words
    from boardlab.analysis.skill import endgame_measure
    from boardlab.layouts.terms import speaking

    links = engines.make_game(load("links"), 2)
    said = endgame_measure(links, "greedy", 1, None, "random")
    assert said == {"measured": False, "bot": "greedy", "reason": "hidden"}
    assert not engines.make_game(load("blockd"), 2).hidden_information
    with speaking("en", load("links")):
        assert endgame_words(said) == (" No endgame measure: the players do not see each other's hands, so a search "
                                       "that sees the whole game is not play a player could make.")
    with speaking("es", load("links")):
        assert endgame_words(said, short=True) == " Sin medida de los finales (manos ocultas)."


def test_endgames_too_large_are_said_without_a_figure():
    from boardlab.analysis.report.levels import endgame_words
    from boardlab.layouts.terms import speaking

    said = {"measured": False, "bot": "mcts-64", "reason": "too_large", "games": 10, "limit": 2000, "plies": 12}
    with speaking("en", load("deblockle")):
        text = endgame_words(said)
    assert text.startswith(" Even its endgames are too large: no decision where the choice matters, at most 12 moves "
                           "before the end of 10 sampled games, could be solved exactly here (0 decisions solved;")
    assert "%" not in text

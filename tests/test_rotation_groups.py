"""The rotation group (the games of one deal played in every seat rotation) as the statistical
unit of compare, the skill ladder and restricted play (issue 32 item 5): intervals and tests of
the same unit, checked against independent computations on small hand-made data and against
simulations in which the games of a deal are dependent."""

from __future__ import annotations

import math
import random
from collections import namedtuple
from math import comb

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import binomtest

from boardlab.analysis.report.compare import Tally, paired_sums
from boardlab.analysis.report.metrics import Z95, pair_groups, paired_ratio_difference, sprt
from boardlab.analysis.skill import ALPHA, Pairing, elo_lower_bound, gain_p_value, step_decision

Game = namedtuple("Game", "agents winners unfinished deal")


def _se(d: dict) -> float:
    return (d["ci95"][1] - d["ci95"][0]) / (2 * Z95)


# --- compare: the paired difference over rotation groups ---------------------------------------

def test_a_tiny_paired_difference_over_groups_has_the_standard_error_worked_by_hand():
    """Per-game differences 1, 0 | 0, 1 | 0, 0 (three groups of two), mean 1/3. The groups' sums of
    the centred differences are 1/3, 1/3 and -2/3: the cluster variance is 3/2 x (1/9 + 1/9 + 4/9)
    / 6^2 = 1/36, a standard error of 1/6; the six games as independent give sqrt(4/90)."""
    variant, baseline = [1, 0, 1, 1, 0, 0], [0, 0, 1, 0, 0, 0]
    grouped = paired_ratio_difference(variant, baseline, [0, 0, 1, 1, 2, 2])
    single = paired_ratio_difference(variant, baseline)
    assert grouped["difference"] == single["difference"] == pytest.approx(1 / 3, abs=1e-6)
    assert _se(grouped) == pytest.approx(1 / 6, abs=1e-6)
    assert _se(single) == pytest.approx(math.sqrt(4 / 90), abs=1e-6)
    assert grouped["groups"] == 3 and single["groups"] == 6 and grouped["games"] == 6
    # the per-game equivalent spread: se = sd / sqrt(games)
    assert grouped["sd"] == pytest.approx(math.sqrt(6) / 6, abs=1e-6)


def test_the_grouped_ratio_difference_is_the_brute_force_cluster_sandwich():
    """Random ratio series (shares of decided games) in groups of uneven sizes: the standard error
    is k / (k - 1) times the sum over groups of the squared group sums of every game's influence
    (x_i - R d_i) / sum(d) (variant minus baseline), computed here game by game with numpy."""
    rng = np.random.default_rng(5)
    sizes = rng.integers(1, 5, 40)
    groups = np.repeat(np.arange(40), sizes)
    n = len(groups)
    dv, db = rng.integers(0, 2, n), rng.integers(0, 2, n)
    xv, xb = dv * rng.integers(0, 2, n), db * (rng.random(n) < 0.3)
    d = paired_ratio_difference((list(map(int, xv)), list(map(int, dv))), (list(map(int, xb)), list(map(int, db))),
                                list(map(int, groups)))
    rv, rb = xv.sum() / dv.sum(), xb.sum() / db.sum()
    influence = (xv - rv * dv) / dv.sum() - (xb - rb * db) / db.sum()
    by_group = np.bincount(groups, weights=influence)
    k = len(by_group)
    assert d["difference"] == pytest.approx(rv - rb, abs=1e-6)
    assert _se(d) == pytest.approx(math.sqrt(k / (k - 1) * (by_group ** 2).sum()), abs=2e-6)


def test_single_games_as_groups_give_the_per_game_result():
    rng = random.Random(3)
    v = [rng.random() for _ in range(30)]
    b = [rng.random() for _ in range(30)]
    assert paired_ratio_difference(v, b, list(range(30))) == paired_ratio_difference(v, b)
    assert sprt(v, b, 0.1, groups=list(range(30))) == sprt(v, b, 0.1)


def test_dependent_deals_make_the_game_level_test_overconfident_but_not_the_group_level_one():
    """No true difference; each deal of four games adds one shared effect to the variant's four
    games (a rule that helps some deals and hurts others, mean 0). Over 400 comparisons of 100
    deals, the game-level test calls a change at the 5% level far more often than 5%; the
    group-level test about 5% of the time."""
    rng = np.random.default_rng(11)
    game_level = group_level = 0
    runs, deals, size = 400, 100, 4
    groups = list(np.repeat(np.arange(deals), size))
    for _ in range(runs):
        deal = np.repeat(rng.normal(0, 1, deals), size)  # the deal's own luck, on both sides
        shared = np.repeat(rng.normal(0, 1, deals), size)  # the variant's effect on that deal
        base = deal + rng.normal(0, 0.5, deals * size)
        var = deal + shared + rng.normal(0, 0.5, deals * size)
        game_level += paired_ratio_difference(list(var), list(base))["significant"]
        group_level += paired_ratio_difference(list(var), list(base), groups)["significant"]
    # a game's difference has variance 1 + 0.5, two thirds of it the deal's: the game-level variance
    # of the mean is 1 + 3 x 2/3 = 3 times too small, so it rejects P(|Z| > 1.96 / sqrt 3) = 26% of the time
    assert game_level / runs > 0.15
    assert 0.02 <= group_level / runs <= 0.09, group_level


def _tally(games: list[tuple[int, int, tuple]], rotated: bool) -> Tally:
    """The Tally folded from (index, deal, winners) two-player games, in two chunks."""
    from boardlab.analysis.runner import GameRecord

    records = [GameRecord(i, deal, 0, ("random", "random"), winners, False, 10) for i, deal, winners in games]
    out = Tally.fold(2)(None, [records[:1], records[1:]])
    assert out.rotated == rotated
    return out


def test_a_side_that_rotates_its_deals_pairs_with_one_that_does_not_by_blocks_of_the_players():
    """Baseline: games 0-3 on deals 0, 0, 1, 1 (rotated); variant: every game its own deal. The
    variant's games are summed in blocks of two, and the result is that of the records whole
    grouped by `pair_groups`."""
    base = [(0, 0, (0,)), (1, 0, (1,)), (2, 1, (0, 1)), (3, 1, (0,))]  # seat 1: 1, 0, 1/2, 1
    var = [(0, 0, (1,)), (1, 1, ()), (2, 2, (0,)), (3, 3, (0,))]  # seat 1: 0, drawn, 1, 1
    b, v = _tally(base, True), _tally(var, False)
    assert b.series["seat_1_share"] == ([1.0, 1.5], [2, 2]) and b.games == 4
    assert v.series["seat_1_share"] == ([0.0, 0.0, 1.0, 1.0], [1, 0, 1, 1])
    sb, sv = paired_sums(b, v, 2)
    assert sv["seat_1_share"] == ([0.0, 2.0], [1, 2]) and sb["seat_1_share"] == b.series["seat_1_share"]
    groups = pair_groups([g[1] for g in base], [g[1] for g in var], 2)
    assert groups == [0, 0, 1, 1]
    whole = paired_ratio_difference(([0.0, 0.0, 1.0, 1.0], [1, 0, 1, 1]), ([1.0, 0.0, 0.5, 1.0], [1, 1, 1, 1]), groups)
    assert paired_ratio_difference(sv["seat_1_share"], sb["seat_1_share"], games=4) == whole
    assert whole["groups"] == 2 and whole["games"] == 4


# --- the skill ladder and restricted play: the test of the interval's unit ----------------------

def test_the_gain_p_value_is_the_binomial_one_for_whole_counts():
    """The incomplete-beta tails against scipy's exact binomial test, and the two-sided p-value
    against twice the smaller tail summed from binomial coefficients."""
    for wins, decided, fair in [(60, 100, 0.5), (9, 20, 1 / 3), (0, 7, 0.25), (7, 7, 0.25), (31, 120, 1 / 6)]:
        assert gain_p_value(wins, decided, fair) == pytest.approx(
            binomtest(wins, decided, fair, alternative="greater").pvalue, rel=1e-9, abs=1e-12)
        assert gain_p_value(wins, decided, fair, "less") == pytest.approx(
            binomtest(wins, decided, fair, alternative="less").pvalue, rel=1e-9, abs=1e-12)
        upper = sum(comb(decided, j) * fair ** j * (1 - fair) ** (decided - j) for j in range(wins, decided + 1))
        lower = sum(comb(decided, j) * fair ** j * (1 - fair) ** (decided - j) for j in range(0, wins + 1))
        assert gain_p_value(wins, decided, fair, "two-sided") == pytest.approx(min(1.0, 2 * min(upper, lower)),
                                                                               rel=1e-9, abs=1e-12)


def test_a_ladder_step_is_tested_at_the_effective_size_of_its_rotation_groups():
    """Three players, six deals, the tested level winning 1, 1, 2, 2, 3 and 3 of each deal's three
    games: share 12/18 = 2/3; the groups' residuals (w - 2) / 3 give a cluster variance of
    (4/9) / (6 x 5) = 2/135 against the binomial 1/81, so the effective size is
    18 x (1/81) / (2/135) = 15 games, 10 of them won: the p-value is scipy's binomial test of 10
    of 15 at 1/3, not that of 12 of 18."""
    records = []
    for deal, won in enumerate([1, 1, 2, 2, 3, 3]):
        for rotation in range(3):
            agents = tuple("b" if (s + rotation) % 3 == 0 else "a" for s in range(3))
            winner = agents.index("b") if rotation < won else (agents.index("b") + 1) % 3
            records.append(Game(agents, (winner,), False, deal))
    p = Pairing("b", "a", 3).add(records)
    assert (p.wins, p.decided, p.grouped["groups"]) == (12, 18, 6)
    assert p.counts() == pytest.approx((10, 15))
    assert p.p_value == pytest.approx(binomtest(10, 15, 1 / 3, alternative="greater").pvalue, rel=1e-9)
    assert p.p_value > binomtest(12, 18, 1 / 3, alternative="greater").pvalue
    # the sequential step's Bonferroni p-value is the same test's, times the looks
    step_decision(p, 1, 0.05)
    assert p.p_value == pytest.approx(min(1.0, 3 * binomtest(10, 15, 1 / 3, alternative="greater").pvalue))


def test_dependent_deals_make_the_game_level_binomial_overconfident_but_not_the_group_level_test():
    """Two players, no true gain: in 80% of the deals one coin decides both of its games (the
    tested level wins both rotations or neither), else each game has its own coin. Over 400
    ladder steps of 60 deals, the game-level binomial test finds a gain at the 5% level about
    twice as often as 5%; the test at the groups' effective size stays near 5%."""
    rng = random.Random(7)
    game_level = group_level = 0
    runs = 400
    for _ in range(runs):
        records = []
        for deal in range(60):
            together = rng.random() < 0.8
            first = rng.random() < 0.5
            for rotation in range(2):
                won = first if together else rng.random() < 0.5
                agents = ("b", "a") if rotation == 0 else ("a", "b")
                records.append(Game(agents, (agents.index("b") if won else 1 - agents.index("b"),), False, deal))
        p = Pairing("b", "a", 2).add(records)
        game_level += binomtest(p.wins, p.decided, 0.5, alternative="greater").pvalue < ALPHA
        group_level += p.p_value < ALPHA
    assert game_level / runs > 0.08
    assert group_level / runs < 0.065


def test_a_level_that_won_every_game_has_an_elo_lower_bound_over_its_rotation_groups():
    """60 deals of two games all won: the least share q with a chance of 5% of winning every deal
    (q ** 60 = 0.05, solved here by root finding), as Luce odds; not the prior's rating, and below
    the bound that counts the 120 games as independent."""
    records = [Game(("b", "a") if i % 2 == 0 else ("a", "b"), (0 if i % 2 == 0 else 1,), False, i // 2)
               for i in range(120)]
    p = Pairing("b", "a", 2).add(records)
    q = brentq(lambda x: x ** 60 - 0.05, 0.5, 1 - 1e-12)
    assert p.as_dict()["elo_at_least"] == pytest.approx(round(400 * math.log10(q / (1 - q)), 1))
    assert p.as_dict()["elo_at_least"] < elo_lower_bound(120, 120)
    # three players: odds against two copies
    q3 = brentq(lambda x: x ** 40 - 0.05, 0.3, 1 - 1e-12)
    assert elo_lower_bound(120, 120, 3, groups=40) == pytest.approx(400 * math.log10(q3 / (1 - q3) * 2))
    assert elo_lower_bound(119, 120, groups=60) is None


def test_a_level_above_a_step_won_outright_is_shown_at_its_least_rating_not_the_priors():
    """greedy wins all 120 games (60 deals) against random, mcts-16 wins 70 of 120 against greedy:
    greedy's rating is its step's bound over 60 groups (q ** 60 = 0.05), not the prior's
    400 log10(120.5 / 0.5); mcts-16's is that bound plus its own fitted step. The table shows
    "≥", the verdict says "at least"."""
    from boardlab.analysis.report import sections
    from boardlab.analysis.report.document import format_cell
    from boardlab.analysis.report.verdict import _skill
    from boardlab.analysis.skill import ladder_result

    def games(agent, below, won):
        out = []
        for i in range(120):
            agents = (agent, below) if i % 2 == 0 else (below, agent)
            out.append(Game(agents, (agents.index(agent) if i < won else 1 - agents.index(agent),), False, i // 2))
        return out

    pairings = [Pairing("greedy", "random", 2).add(games("greedy", "random", 120)),
                Pairing("mcts-16", "greedy", 2).add(games("mcts-16", "greedy", 70))]
    result = ladder_result("random", pairings, 2, 120)
    levels = {level["agent"]: level for level in result["levels"]}
    q = brentq(lambda x: x ** 60 - 0.05, 0.5, 1 - 1e-12)
    bound = 400 * math.log10(q / (1 - q))
    assert levels["greedy"]["rating"] == pytest.approx(400 * math.log10(120.5 / 0.5), abs=0.1)  # the prior's
    assert levels["greedy"]["at_least"] == pytest.approx(bound, abs=0.1)
    step = levels["mcts-16"]["rating"] - levels["greedy"]["rating"]
    assert step == pytest.approx(400 * math.log10(70.5 / 50.5), abs=0.2)
    assert levels["mcts-16"]["at_least"] == pytest.approx(bound + step, abs=0.2)
    assert "at_least" not in levels["random"]
    assert format_cell({"at_least": levels["greedy"]["at_least"]}, "rating") == f"≥ {bound:,.0f}"
    data = sections.skill_data(result, 0.05)
    table = sections.skill_blocks(data, 2)[0]
    assert table["rows"][1][1:3] == [{"at_least": levels["greedy"]["at_least"]}, None]
    line = _skill(data)
    top = levels["mcts-16"]["at_least"]
    assert f"mcts-16, is rated at least {top:,.0f} Elo above random" in line, line

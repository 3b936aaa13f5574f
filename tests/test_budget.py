"""The CPU budget's sharing out (analysis/budget.py), against sums done by hand on a clock of the test's own."""

from __future__ import annotations

import pytest

from boardlab.analysis.budget import Ask, Budget, minutes_of


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_phases_of_one_kind_sized_together_keep_their_proportion():
    clock = Clock()
    b = Budget(2.0, clock=clock)  # 120 s, one kind: all of it
    # wanted: 1000 games at 0.1 s (100 s) and 600 at 0.1 s (60 s): 160 s > 120 s, scale 0.75
    got = b.fit("self-play", [Ask("2 players", 0.1, 1000, step=2), Ask("3 players", 0.1, 600, step=3)])
    assert got == [750, 450]
    assert b.free() == pytest.approx(120 - 75 - 45)
    assert [x["games"] for x in b.bought()["left_out"]] == [250, 150]


def test_games_in_the_store_cost_nothing_and_are_kept():
    b = Budget(1.0, clock=Clock())
    # 400 wanted, 300 stored: 100 missing at 1 s = 100 s > 60 s; 60 of the missing fit
    assert b.games_for("skill", 1.0, 400, stored=300) == 360
    assert b.bought()["phases"][0]["estimated_seconds"] == 60.0


def test_a_phase_that_cannot_play_its_least_is_left_out_and_leaves_the_cpu_to_the_next():
    b = Budget(1.0, shares={"skill": 1, "restricted": 1}, clock=Clock())
    assert b.games_for("skill", 1.0, 100, least=100) == 0  # half of 60 s: 30 s, not 100 s
    assert b.free() == 60.0
    assert b.games_for("restricted", 0.5, 100) == 100  # its allowance: all that is free (no kind waits)


def test_shares_split_what_is_free_and_spent_cpu_counts_after_settle():
    clock = Clock()
    b = Budget(10.0, shares={"self-play": 3, "skill": 1, "levels": 1}, clock=clock)  # 600 s
    assert b.allowance("self-play") == pytest.approx(600 * 3 / 5)
    assert b.games_for("self-play", 1.0, 1000) == 360
    assert b.free() == pytest.approx(240)  # 360 reserved
    clock.now += 200  # it played for less than its estimate
    b.settle()
    assert b.free() == pytest.approx(400)
    assert b.allowance("skill") == pytest.approx(400 / 2)  # skill and levels wait, one share each
    assert b.games_for("skill", 10.0, 15, least=15) == 15  # 150 s fits
    assert b.games_for("skill", 10.0, 15, least=15) == 0  # 50 s left of its 200 s: a second step does not fit
    assert b.allowance("levels") == pytest.approx(400 - 150)


def test_cpu_a_phase_left_unspent_flows_on_to_the_next_ask_but_a_kind_keeps_to_its_share():
    """A ladder's next step may take its share of what is free now, not only what is left of the
    allowance it got at its first step: CPU the steps before it did not spend flows on (the 6x6
    report's ladder stopped at greedy with 3.8 of its 10 minutes unspent).  But its share counts
    what its own steps took: a kind asked round after round does not take a share of what is left
    each time (the ladder drained the budget that way and the player levels got one rotation)."""
    clock = Clock()
    b = Budget(10.0, shares={"self-play": 3, "skill": 1, "levels": 1}, clock=clock)  # 600 s
    assert b.games_for("self-play", 1.0, 1000) == 360
    clock.now += 200  # self-play took 200 s of its 360
    b.settle()
    assert b.games_for("skill", 10.0, 15, least=15) == 15  # 150 s of its 400 / 2
    clock.now += 50  # the step took 50 s of its estimated 150
    b.settle()
    # left of the allowance: 200 - 150 = 50 s; free now 350 s; skill's half of 350 + the 150 it
    # took is 250, less the 150: 100 s
    assert b.allowance("skill") == pytest.approx(100)
    assert b.games_for("skill", 10.0, 10, least=10) == 10  # 100 s fits 100 (not the 50 s left)
    clock.now += 100  # as estimated
    b.settle()
    # free 250 s; skill's half of 250 + 250 taken is 250, all taken: nothing (a share of what is
    # free now, 125 s, would have let it go on)
    assert b.allowance("skill") == pytest.approx(0)
    assert b.games_for("skill", 10.0, 1) == 0
    assert b.allowance("levels") == pytest.approx(600 - 350)  # the last kind: all that is free


def test_no_limit_gives_every_phase_what_it_wants_and_still_lists_it():
    b = Budget(None)
    assert b.games_for("self-play", 99.0, 2400) == 2400
    assert b.bought()["phases"][0]["games"] == 2400 and b.bought()["left_out"] == []
    assert minutes_of(0, False, 10.0) is None and minutes_of(None, True, 10.0) == 1.0
    with pytest.raises(ValueError):
        Budget(-1)


def test_a_required_phase_plays_its_least_past_the_budget():
    b = Budget(0.5, clock=Clock())  # 30 s
    assert b.fit("self-play", [Ask("2 players", 1.0, 2400, least=2, step=2, required=True),
                               Ask("3 players", 100.0, 2160, least=3, step=3, required=True)]) == [2, 3]


def test_a_phase_shared_by_cost_gives_the_cheap_ask_all_its_games():
    # 120 s: a cheap ask (1200 games at 0.01 s: 12 s) and two costly ones (200 games at 1 s: 200 s each)
    asks = [Ask("greedy", 0.01, 1200, step=2), Ask("mcts", 1.0, 200, step=2), Ask("mcts against random", 1.0, 200, step=2)]
    # by one common factor (120 / 412) the cheap ask would get 348 games
    assert Budget(2.0, clock=Clock()).fit("levels", asks) == [348, 58, 58]
    # by cost: the cheap one takes its 12 s in full, the two others 54 s each: 54 games
    b = Budget(2.0, clock=Clock())
    assert b.fit("levels", asks, share_cost=True) == [1200, 54, 54]
    assert b.free() == pytest.approx(120 - 12 - 54 - 54)


def test_the_report_head_names_each_phase_and_player_count_left_out_once():
    from boardlab.analysis.report.budgeted import bought_words
    from boardlab.layouts.terms import speaking

    data = {"cpu_minutes": 3.0, "quick": False,
            "phases": [{"phase": "levels", "detail": "2: mcts-256, mcts-256", "players": 2, "wanted": 1200, "games": 164},
                       {"phase": "levels", "detail": "2: mcts-256, random", "players": 2, "wanted": 120, "games": 16}],
            "left_out": [{"phase": "levels", "detail": "2: mcts-256, mcts-256", "players": 2, "games": 1036},
                         {"phase": "levels", "detail": "2: mcts-256, random", "players": 2, "games": 104}]}
    with speaking("en"):
        words = bought_words(data)
    assert words.count("of player levels at 2 players") == 1 and "1,140 games of player levels" in words


def test_a_kind_withdrawn_holds_no_cpu_back_and_one_never_asked_still_does():
    # 60 s, shares skill 2, restricted 1, levels 1
    shares = {"skill": 2, "restricted": 1, "levels": 1}
    kept = Budget(1.0, shares=shares, clock=Clock())
    assert kept.allowance("skill") == 30.0  # 2 of 4 shares: restricted and levels wait
    assert kept.allowance("levels") == 60.0 / 2  # 1 of 2: restricted, never asked, still waits
    gone = Budget(1.0, shares=shares, clock=Clock())
    gone.withdraw("restricted")  # nothing to restrict
    assert gone.allowance("skill") == 40.0  # 2 of 3 shares
    assert gone.allowance("levels") == 60.0  # all that is free: no kind waits
    assert gone.bought()["phases"] == [] and gone.free() == 60.0  # withdrawing reserves and spends nothing


@pytest.mark.parametrize("share_cost", [False, True])
def test_an_exact_fit_is_not_cut_a_game_short_by_float_dust(share_cost):
    # three asks of 10 games at 0.1 s, and 0.6 s: 2 games each exactly
    # (0.6 / 3 / 0.1 is 1.9999999999999996 in floats, and int() of it is 1)
    asks = [Ask(str(i), 0.1, 10) for i in range(3)]
    assert Budget(0.6 / 60, clock=Clock()).fit("levels", asks, share_cost=share_cost) == [2, 2, 2]
    assert Budget(0.59 / 60, clock=Clock()).fit("levels", asks, share_cost=share_cost) == [1, 1, 1]

"""The simulation runner on a small race game: reproducible, worker-independent, honest intervals."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import pytest
from scipy.stats import binomtest

from boardlab.analysis.agents import RandomAgent
from boardlab.analysis.chance import Distribution
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, State
from boardlab.analysis.runner import BLOCK, CHANCE_STREAM, Match, Progress, derive_seed, run_records
from boardlab.analysis.stats import wilson_interval


class RaceState(State):
    """Players race to `target`: a d6 is rolled, then the mover steps 1 or the roll.

    Discipline: in-place apply, clone copies the small lists.
    """

    def __init__(self, game):
        self.game = game
        self.pos = [0] * game.players
        self.mover = 0
        self.roll = None
        self.turns = 0

    @property
    def players(self):
        return self.game.players

    def current_player(self):
        if any(p >= self.game.target for p in self.pos) or self.turns >= self.game.cap:
            return TERMINAL
        return CHANCE if self.roll is None else self.mover

    def chance_outcomes(self):
        return Distribution.uniform(range(1, 7)).items()

    def legal_moves(self):
        if self.current_player() < 0:
            return []
        return sorted({1, self.roll})

    def apply(self, move):
        if self.roll is None:
            self.roll = move
            return
        self.pos[self.mover] += move
        self.roll = None
        self.mover = (self.mover + 1) % self.players
        self.turns += 1

    def clone(self):
        other = RaceState(self.game)
        other.pos, other.mover, other.roll, other.turns = list(self.pos), self.mover, self.roll, self.turns
        return other

    def winners(self):
        return tuple(i for i, p in enumerate(self.pos) if p >= self.game.target)

    def is_unfinished(self):
        return not self.winners()

    def length(self):
        return self.turns

    def stats(self):
        return {"sixes": 0}


class RaceGame(Game):
    id = "race"  # a game without a definition names itself
    variant = "baseline"

    def __init__(self, players=2, target=10, cap=1000):
        super().__init__(None, players)
        self.target, self.cap = target, cap

    def new_initial_state(self):
        return RaceState(self)

    def summarize(self, records):
        return {"mean_turns_all": sum(r.length for r in records) / len(records)}


class StepAgent(RandomAgent):
    """Always takes the bigger step."""

    name = "big"

    def choose(self, state, rng):
        return max(state.legal_moves())


def random_factory(game):
    return RandomAgent()


def big_factory(game):
    return StepAgent()


def exact_first_player_win(target: int) -> Fraction:
    """P(seat 0 wins) in the 2-player race with random agents, by recursion over positions."""

    @functools.cache
    def p(mine: int, theirs: int) -> Fraction:
        # probability that the player to move (at `mine`) wins
        total = Fraction(0)
        for roll in range(1, 7):
            steps = sorted({1, roll})
            for step in steps:
                weight = Fraction(1, 6) / len(steps)
                total += weight * (1 if mine + step >= target else 1 - p(theirs, mine + step))
        return total

    return p(0, 0)


def strip_seconds(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_same_seed_same_numbers_whatever_the_worker_count():
    game = RaceGame(players=3)
    agents = [random_factory] * 3
    rec1, s1 = run_records(game, agents, 300, seed=7, workers=1, progress=False)
    rec2, s2 = run_records(game, agents, 300, seed=7, workers=2, progress=False)
    rec3, s3 = run_records(game, agents, 300, seed=7, workers=1, progress=False)
    assert rec1 == rec2 == rec3
    assert strip_seconds(s1) == strip_seconds(s2) == strip_seconds(s3)
    _, other = run_records(game, agents, 300, seed=8, workers=1, progress=False)
    assert strip_seconds(other) != strip_seconds(s1)


def test_games_do_not_depend_on_how_many_are_played():
    game = RaceGame()
    short, _ = run_records(game, [random_factory] * 2, BLOCK + 5, seed=3, workers=1, progress=False)
    long, _ = run_records(game, [random_factory] * 2, 3 * BLOCK, seed=3, workers=2, progress=False)
    assert short == long[:BLOCK + 5]


def test_seat_rotation_replays_each_deal_with_agents_rotated():
    game = RaceGame()
    records, summary = run_records(game, [random_factory, big_factory], 40, seed=1, workers=1,
                           agent_names=["random", "big"], progress=False)
    assert [r.deal for r in records[:4]] == [0, 0, 1, 1]
    assert records[0].agents == ("random", "big") and records[1].agents == ("big", "random")
    by_agent = summary["win_rate_by_agent"]
    assert by_agent["big"]["seats_played"] == by_agent["random"]["seats_played"] == 40
    assert by_agent["big"]["wins"] + by_agent["random"]["wins"] == sum(summary["wins_by_seat"])
    assert by_agent["big"]["wins"] > by_agent["random"]["wins"]  # always stepping far is better


def test_summary_counts_and_intervals_are_honest():
    game = RaceGame()
    records, s = run_records(game, [random_factory] * 2, 2000, seed=11, workers=2, progress=False)
    assert s["games"] == 2000 == sum(s["wins_by_seat"]) + s["draws"] + s["unfinished"]
    for wins, rate in zip(s["wins_by_seat"], s["win_rate_by_seat"]):
        assert rate["rate"] == wins / 2000
        assert rate["ci95"] == list(wilson_interval(wins, 2000))
    exact = float(exact_first_player_win(10))
    lo, hi = s["win_rate_by_seat"][0]["ci95"]
    assert lo <= exact <= hi, (lo, exact, hi)
    lengths = sorted(r.length for r in records)
    assert s["length"]["min"] == lengths[0] and s["length"]["max"] == lengths[-1]
    assert s["race"]["mean_turns_all"] == pytest.approx(sum(lengths) / len(lengths))


def test_capped_games_count_as_unfinished():
    game = RaceGame(target=30, cap=6)  # nobody can walk 30 in 3 turns
    _, s = run_records(game, [random_factory] * 2, 10, seed=1, workers=1, progress=False)
    assert s["unfinished"] == 10 and s["wins_by_seat"] == [0, 0]
    assert s["win_rate_by_seat"][0]["ci95"] == list(wilson_interval(0, 10))


def test_wrong_agent_count_is_refused():
    with pytest.raises(ValueError):
        run_records(RaceGame(), [random_factory], 10, seed=1)


@pytest.mark.parametrize("k,n", [(0, 10), (5, 10), (10, 10), (37, 200), (1, 1), (499, 1000), (3, 2000)])
def test_wilson_interval_matches_scipy(k, n):
    expected = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(expected.low, abs=1e-12)
    assert hi == pytest.approx(expected.high, abs=1e-12)


def test_derived_seeds_are_distinct_streams():
    seeds = {derive_seed(1, kind, i) for kind in (0, 1) for i in range(1000)}
    assert len(seeds) == 2000
    assert derive_seed(1, 0, 5) == derive_seed(1, 0, 5)


def test_progress_bar_is_silent_off_a_terminal(capsys):
    import io
    stream = io.StringIO()
    bar = Progress(10, stream=stream, delay=0)
    bar.update(5)
    bar.close()
    assert stream.getvalue() == ""

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = Progress(10, stream=tty, delay=0)
    bar.update(5)
    bar.close()
    assert "5/10 games" in tty.getvalue() and tty.getvalue().endswith("\n")


def test_sample_chance_follows_the_exact_weights():
    state = RaceGame().new_initial_state()
    rng = random.Random(5)
    counts = [0] * 7
    for _ in range(6000):
        counts[state.sample_chance(rng)] += 1
    for face in range(1, 7):
        lo, hi = wilson_interval(counts[face], 6000, confidence=0.999)
        assert lo <= 1 / 6 <= hi


def test_one_agent_everywhere_and_no_deal_rotation_gives_every_game_its_own_deal():
    records, summary = run_records(RaceGame(), [random_factory] * 2, 10, seed=1, workers=1, progress=False)
    assert [r.deal for r in records] == list(range(10))
    assert summary["seat_rotation"] == "none"


class TurnedRaceGame(RaceGame):
    """The race with a deal: a head start for one seat, which `rotate_deal` passes round."""

    rotates_deal = True

    def new_initial_state(self):
        return HeadStartState(self)

    def rotate_deal(self, outcome, rotation):
        seat, start = outcome
        return ((seat - rotation) % self.players, start)


class HeadStartState(RaceState):
    def __init__(self, game):
        super().__init__(game)
        self.dealt = False

    def current_player(self):
        return CHANCE if not self.dealt else super().current_player()

    def chance_outcomes(self):
        if not self.dealt:
            return Distribution.uniform((seat, 3) for seat in range(self.players)).items()
        return super().chance_outcomes()

    def apply(self, move):
        if not self.dealt:
            seat, start = move
            self.pos[seat] = start
            self.dealt = True
            return
        super().apply(move)

    def clone(self):
        other = super().clone()
        other.__class__ = HeadStartState
        other.dealt = self.dealt
        return other


def test_one_agent_everywhere_turns_the_deal_so_every_seat_gets_the_head_start():
    game = TurnedRaceGame(players=3)
    records, summary = run_records(game, [random_factory] * 3, 30, seed=2, workers=1, progress=False)
    assert summary["seat_rotation"] == "deal turned for every seat"
    assert [r.deal for r in records[:6]] == [0, 0, 0, 1, 1, 1]
    # replay the first deal by hand: each rotation moves the head start to another seat
    heads = []
    for index in range(3):
        match = Match(game, (random_factory,) * 3, ("random",) * 3, 2, True, rotate_deals=True)
        rng = random.Random(derive_seed(2, CHANCE_STREAM, 0))
        outcome = game.new_initial_state().sample_chance(rng)
        turn = match.deal_rotation(index)
        heads.append(game.rotate_deal(outcome, turn)[0] if turn else outcome[0])
    assert sorted(heads) == [0, 1, 2]


def test_progress_line_ticks_while_no_block_has_finished():
    """A phase whose first games take minutes still shows its line, redrawn by its own thread."""
    import io
    import time as clock

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = Progress(4, "games of mcts-4096", stream=tty, delay=0, tick=0.01)
    for _ in range(500):  # waits for the thread's first line (at most 5 s), asserts no duration
        if "none finished yet" in tty.getvalue():
            break
        clock.sleep(0.01)
    bar.close()
    assert "0/4 games of mcts-4096" in tty.getvalue() and "none finished yet" in tty.getvalue()
    written = tty.getvalue()
    clock.sleep(0.05)
    assert tty.getvalue() == written  # closed: the thread draws no more

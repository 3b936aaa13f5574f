"""The tuner: which values of some rule keys meet every one of a designer's goals.

A goal is a metric of `analysis.sweep.point_metrics` (a headline metric or a game's own figure)
against a target (`parse_goal`): `minutes<=30`, `balance>=0.95`, `draws<=5%`, or
`first_player_advantage~0` (the target lies within the metric's 95% interval).  Against its
interval a goal is *met* (the whole interval on the right side; for `~`, the target inside it
once the candidate has played every game it may), *missed* (the whole interval on the wrong
side; for `~`, the target outside) or *unsure*.

The search is a race on common seeds (`tune`): every candidate (a point of the grid) plays a
first batch of games; a candidate that misses a goal is dropped; a candidate still unsure of a
goal plays twice as many games (the same seed, so its first games are reused from the results
store), until every goal is settled or it reaches the most games a candidate may play.

The race is group-sequential (`Design`): its looks are planned before any game is played
(`race_looks`: the first batch, doubling, the last at the most games), and at every look each
goal is judged on intervals at the level ALPHA / looks instead of ALPHA (Bonferroni over the
planned looks, as a sweep's sequential points and the skill ladder's steps do), so that however
many looks a candidate takes, the chance that the race settles a goal wrongly - met or missed
when the metric's true value is on the goal's target - stays within ALPHA (`at_level` widens
each interval to that level).  Judged at the full ALPHA at every look, four looks settle such a
goal about 2.5 times as often as ALPHA says (tests/test_sweep.py simulates both).  The budget may
stop the race before its last look; fewer looks than planned only make it more conservative.
The best candidates that nothing dropped are then played again on fresh seeds (the confirmation
run: seed + 1, so the race's luck cannot carry over); the values that meet every goal there are
the answer.  The finalists are judged together by Holm's step-down (`confirm`: 5% / k for the
first, then 5% / (k - 1) ...), so that any of them is wrongly said to meet every goal at most 5%
of the time; judged at 5% each, k finalists could be up to k times as often.  When none does, the answer says so and names, for each goal, the candidate that
came closest.  A confirmation run is a plain run of that variant on its seed: `boardlab
compare` of the same variant on the same seed plays exactly the same games.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from boardlab.analysis.report.metrics import ALPHA, find_metric
from boardlab.analysis.sweep import Axis, Point, play_points, playable_grid, refusal, value_text
from boardlab.layouts.errors import BoardlabError
from boardlab.common.notes import quiet

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.store import ResultStore

#: the largest target of a goal either way (a length of a million turns is already no game)
MAX_GOAL = 1_000_000
GOAL = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(<=|>=|<|>|~|=)\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*(%?)\s*$")


@dataclass(frozen=True)
class Goal:
    """A metric against a target: `op` is "<=", ">=" or "~" (the target within the interval)."""

    metric: str
    op: str
    target: float
    text: str

    def status(self, m: dict | None, final: bool = True, max_capped: float = 1.0, margin: float | None = None,
               alpha: float = ALPHA) -> str:
        """"met", "missed" or "unsure" of a metric {"value", "ci95"}; a metric with no value is missed.

        A `~` goal is met only in a `final` judgement (after every game a candidate may play):
        before that, a target inside a wide interval says little, so it is unsure.  A length or
        minutes goal is missed when more than `max_capped` of the games were stopped at the cap
        (`capped_reason`): such a figure rests on games that never ended.

        >>> g = parse_goal("minutes<=30")
        >>> g.status({"value": 20, "ci95": [18, 22]}), g.status({"value": 31, "ci95": [29, 33]})
        ('met', 'unsure')
        >>> near = parse_goal("first_player_advantage~0")
        >>> near.status({"value": 0.05, "ci95": [0.01, 0.09]}), near.status({"value": 0.0, "ci95": [-0.1, 0.1]}, False)
        ('missed', 'unsure')

        With a `margin` (the designer's `analysis.difference`, for a share) and the metric's 90%
        interval, a `~` goal is an equivalence test: met when the 90% interval lies within the
        margin of the target (two one-sided tests at 5%: the value shown near enough, at any
        stage), missed when the 95% interval lies wholly beyond the margin, else unsure.

        >>> near.status({"value": 0.01, "ci95": [0.004, 0.016], "ci90": [0.005, 0.015]}, False, margin=0.05)
        'met'
        >>> near.status({"value": 0.0, "ci95": [-0.1, 0.1], "ci90": [-0.08, 0.08]}, True, margin=0.05)
        'unsure'

        At a level `alpha` other than ALPHA (a look of the race, `Design`) the intervals are
        widened to it first (`at_level`): an interval that settles a goal at 5% may not at 1.25%.

        >>> close = {"value": 28, "ci95": [26, 29.9]}
        >>> g.status(close), g.status(close, alpha=0.0125)
        ('met', 'unsure')
        """
        if m is None or m.get("value") is None or self.capped_reason(m, max_capped):
            return "missed"
        headline = find_metric(self.metric)
        share = headline is not None and headline.unit in ("share", "points")  # `metrics.share_value`
        lo, hi = at_level(m, "ci95", alpha, share)
        if self.op == "~" and margin is not None and m.get("ci90"):
            lo90, hi90 = at_level(m, "ci90", alpha, share)
            if self.target - margin < lo90 and hi90 < self.target + margin:
                return "met"
            return "missed" if lo > self.target + margin or hi < self.target - margin else "unsure"
        if self.op == "~":
            return "missed" if not lo <= self.target <= hi else "met" if final else "unsure"
        if self.op == "<=":
            return "met" if hi <= self.target else "missed" if lo > self.target else "unsure"
        return "met" if lo >= self.target else "missed" if hi < self.target else "unsure"

    def tested(self, difference: float | None = None) -> bool:
        """Whether "met" is a test's rejection with an error rate (`<=`, `>=`, and `~` on a share
        with a margin: an equivalence test), not a target merely inside an interval (`~` otherwise).

        >>> parse_goal("minutes<=30").tested(), parse_goal("length~40").tested(0.05)
        (True, False)
        >>> parse_goal("first_player_advantage~0").tested(0.05), parse_goal("first_player_advantage~0").tested()
        (True, False)
        """
        return self.op != "~" or _margin(self, difference) is not None

    def capped_reason(self, m: dict | None, max_capped: float) -> str:
        """Why a length or minutes goal cannot be met at a point, in the language being written:
        more than `max_capped` of its games stopped at the cap; "" when it can.

        >>> parse_goal("minutes<=30").capped_reason({"value": 20, "ci95": [18, 22], "capped": 0.92}, 0.05)
        '92.0% of the games stopped at the cap, more than the 5.0% analysis.max_capped allows'
        """
        headline = find_metric(self.metric)
        if m is None or headline is None or headline.unit not in ("length", "minutes"):
            return ""
        capped = m.get("capped", 0.0)
        if capped <= max_capped:
            return ""
        from boardlab.analysis.report.wording import pct, say

        return say("tune.capped_reason", share=pct(capped), limit=pct(max_capped))

    def shortfall(self, m: dict | None) -> float:
        """How far the metric's value is from meeting the goal (0 or less: its value meets it)."""
        if m is None or m.get("value") is None:
            return float("inf")
        v = m["value"]
        if self.op == "~":
            return abs(v - self.target)
        return v - self.target if self.op == "<=" else self.target - v


def at_level(m: dict, key: str, alpha: float, share: bool = False) -> tuple[float, float]:
    """A metric's interval `key` at the level `alpha` instead of ALPHA: "ci95" (two-sided at
    ALPHA) as the two-sided interval at `alpha`, "ci90" (the equivalence test's, one-sided ALPHA
    each way) as the one at `alpha` each way.  A `share` of games (`metrics.share_value`: its
    value, less its shift, over n games) gets its Wilson interval at that level, computed again;
    any other metric has each side's distance from its value stretched by the ratio of the normal
    quantiles, z(1 - alpha / 2) / z(1 - ALPHA / 2) (z(1 - alpha) / z(1 - ALPHA) for "ci90"):
    exact for a mean's normal interval (a length, minutes, a game's own figure), the normal
    approximation of the width for the balance's Wilson bounds and a median's order statistics.
    At ALPHA itself the interval is returned as it is.

    >>> at_level({"value": 10.0, "ci95": [9.0, 11.5]}, "ci95", 0.05)
    (9.0, 11.5)
    >>> [round(x, 4) for x in at_level({"value": 10.0, "ci95": [9.0, 11.5]}, "ci95", 0.05 / 4)]  # z 2.4977 / 1.96
    [8.7256, 11.9115]
    >>> draws = {"value": 0.02, "ci95": [0.007804, 0.050287], "n": 200}  # 4 of 200 (`metrics.share_value`)
    >>> [round(x, 4) for x in at_level(draws, "ci95", 0.0125, True)]  # Wilson's at 98.75%
    [0.0062, 0.0629]
    >>> [round(x, 4) for x in at_level(draws, "ci95", 0.0125)]  # stretched: too narrow at the edge
    [0.0045, 0.0586]
    """
    from statistics import NormalDist

    from boardlab.analysis.stats import wilson_interval

    lo, hi = m[key]
    if alpha == ALPHA:
        return lo, hi
    if share and m.get("n"):
        shift = m.get("shift", 0.0)
        n = m["n"]
        hits = min(max((m["value"] + shift) * n, 0.0), n)  # the value is rounded to 6 places
        low, high = wilson_interval(hits, n, 1 - alpha if key == "ci95" else 1 - 2 * alpha)
        return low - shift, high - shift
    z = NormalDist().inv_cdf
    factor = z(1 - alpha / 2) / z(1 - ALPHA / 2) if key == "ci95" else z(1 - alpha) / z(1 - ALPHA)
    v = m["value"]
    return v - (v - lo) * factor, v + (hi - v) * factor


def race_looks(first_games: int, games: int) -> tuple[int, ...]:
    """The race's looks, planned before any game is played: the games a candidate has played at
    each, from `first_games` doubling, the last `games` (the most a candidate may play).

    >>> race_looks(200, 1600), race_looks(300, 1000), race_looks(200, 100)
    ((200, 400, 800, 1600), (300, 600, 1000), (100,))
    """
    looks = [min(first_games, games)]
    while looks[-1] < games:
        looks.append(min(looks[-1] * 2, games))
    return tuple(looks)


@dataclass(frozen=True)
class Design:
    """The race's group-sequential design: its looks (games a candidate has played at each,
    planned in advance) and the level every goal is judged at at each look."""

    looks: tuple[int, ...]
    per_look: float  # two-sided: a goal met or missed wrongly at most per_look / 2 each way a look

    @classmethod
    def bonferroni(cls, looks: tuple[int, ...], alpha: float = ALPHA) -> Design:
        """`alpha` spent evenly over the planned looks: alpha / looks at each (Bonferroni), which
        holds whatever the stopping and whatever the dependence of the looks' intervals.

        >>> Design.bonferroni((200, 400, 800, 1600)).per_look
        0.0125
        """
        return cls(tuple(looks), alpha / len(looks))

    def json(self) -> dict:
        return {"looks": list(self.looks), "alpha": round(self.per_look * len(self.looks), 6),
                "alpha_per_look": round(self.per_look, 6), "spending": "bonferroni"}


def parse_goal(text: str) -> Goal:
    """A goal `METRIC<=X`, `METRIC>=X` (< and > read the same), `METRIC~X`; X may end in % for a share.

    >>> parse_goal("draws<=5%")
    Goal(metric='draws', op='<=', target=0.05, text='draws<=5%')

    :raises BoardlabError: when the text is not a goal.
    """
    m = GOAL.match(text)
    if not m:
        raise BoardlabError(f"--goal '{text}': write METRIC<=X, METRIC>=X or METRIC~X, e.g. minutes<=30")
    metric, op, number, percent = m.groups()
    if op == "=":
        raise BoardlabError(f"--goal '{text}': a metric is never exactly a number; write {metric}~{number}{percent} "
                            f"(the number within its 95% interval)")
    target = float(number) / (100 if percent else 1)
    if not math.isfinite(target) or abs(target) > MAX_GOAL:  # 400 digits are a float's infinity
        raise BoardlabError(f"--goal '{text}': {number} is beyond any value a metric takes (at most "
                            f"{MAX_GOAL:,.0f} either way)")
    headline = find_metric(metric)
    metric = headline.id if headline else metric  # an older name of a headline metric: its name now
    if percent and not (headline and headline.is_share):
        raise BoardlabError(f"--goal '{text}': {metric} is not a share; give it without %")
    if headline and headline.is_share and not 0 <= target <= 1:
        raise BoardlabError(f"--goal '{text}': {metric} is a share, from 0% to 100%; "
                            f"{number}{percent} is outside")
    return Goal(metric, {"<": "<=", ">": ">="}.get(op, op), target, text.strip())


def check_goals(goals: Sequence[Goal], known: Sequence[str]) -> None:
    """:raises BoardlabError: for a goal on an unknown metric, or goals no value could meet together."""
    for g in goals:
        if g.metric not in known:
            raise BoardlabError(f"--goal '{g.text}': no metric '{g.metric}' (metrics: {', '.join(known)})")
    for metric in dict.fromkeys(g.metric for g in goals):
        mine = [g for g in goals if g.metric == metric]
        low = max((g.target for g in mine if g.op in (">=", "~")), default=float("-inf"))
        high = min((g.target for g in mine if g.op in ("<=", "~")), default=float("inf"))
        near = {g.target for g in mine if g.op == "~"}
        if low > high or len(near) > 1:
            raise BoardlabError(f"contradictory goals: {' and '.join(g.text for g in mine)} cannot all hold")


@dataclass(frozen=True)
class TuneOptions:
    players: int
    agent: str
    first_games: int = 200  # games every candidate plays first
    games: int = 1600  # the most games a candidate plays in the race; the confirmation run plays this many
    finalists: int = 3  # candidates confirmed on fresh seeds
    max_capped: float = 0.05  # the most games stopped at the cap a length or minutes goal may rest on
    difference: float = 0.05  # the margin of a `~` goal on a share: within it is "the same" (equivalence)
    seed: int = 1
    workers: int | None = None
    progress: bool = True
    backend: Any = None
    cpu_minutes: float | None = None  # the tune's CPU budget (race and confirmation); None: no limit
    quick: bool = False

#: the tune's phases and their shares of its CPU budget
SHARES = {"race": 70, "confirmation": 30}


def _round_cost(points: Sequence[Point], n: int, agent: str, games: int, seed: int, store: ResultStore,
                budget: Budget) -> float:
    """CPU seconds per game of all `points` together at `games` games (a probe of a few of them)."""
    from boardlab.analysis.budget import sampled_cost
    from boardlab.analysis.report.jobs import Job

    if not budget.limited:
        return 0.0
    jobs = [Job(p.definition, n, (agent,) * n, games, seed) for p in points]
    return sampled_cost(jobs, store) * len(points)


@dataclass
class Candidate:
    point: Point
    statuses: dict[str, str] = field(default_factory=dict)
    dropped_at: int | None = None  # games played when a goal was missed

    def settled(self) -> bool:
        return all(s != "unsure" for s in self.statuses.values())

    def met(self) -> bool:
        return all(s == "met" for s in self.statuses.values())


def _judge(point: Point, goals: Sequence[Goal], final: bool = True, max_capped: float = 1.0,
           difference: float | None = None, alpha: float = ALPHA) -> dict[str, str]:
    """Each goal's status at a point, judged at the level `alpha`; a `~` goal on a share is an
    equivalence test within `difference`."""
    return {g.text: g.status(point.metrics.get(g.metric), final, max_capped, _margin(g, difference), alpha)
            for g in goals}


def race(candidates: Sequence[Candidate], goals: Sequence[Goal], design: Design,
         play: Callable[[list[Candidate], int, int], bool], max_capped: float = 1.0,
         difference: float | None = None, progress: bool = False) -> list[dict]:
    """The race of `candidates` over the looks of `design`: at look i `play(racing, games, i)`
    brings every racing candidate's point to `games` games (its metrics set; False: the budget
    refused them, and the race stops there), then every goal of each is judged at
    `design.per_look`; a candidate that misses one is dropped (`dropped_at`), one whose every goal
    is settled stops, the others race on to the next look.  Returns the rounds played."""
    rounds: list[dict] = []
    racing = list(candidates)
    for i, games in enumerate(design.looks):
        if not racing or not play(racing, games, i):
            break
        for c in racing:
            c.statuses = _judge(c.point, goals, final=i == len(design.looks) - 1, max_capped=max_capped,
                                difference=difference, alpha=design.per_look)
            if "missed" in c.statuses.values():
                c.dropped_at = games
        dropped = [c for c in racing if c.dropped_at is not None]
        unsure = [c for c in racing if c.dropped_at is None and not c.settled()]
        rounds.append({"games": games, "candidates": len(racing), "dropped": len(dropped),
                       "settled": len(racing) - len(dropped) - len(unsure), "unsure": len(unsure)})
        if progress:
            from boardlab.analysis.report.wording import games as count, say

            _say(say("tune.progress.race", k=len(racing), games=count(games), dropped=len(dropped), unsure=len(unsure)),
                 progress)
        racing = unsure
    return rounds


def holm_levels(k: int, alpha: float = ALPHA) -> list[float]:
    """The levels of Holm's step-down over `k` candidates: alpha / k, alpha / (k - 1), ..., alpha.

    >>> [round(a, 6) for a in holm_levels(3)]
    [0.016667, 0.025, 0.05]
    """
    return [alpha / (k - i) for i in range(k)]


def confirm(points: Sequence[Point], goals: Sequence[Goal], max_capped: float = 1.0,
            difference: float | None = None, alpha: float = ALPHA) -> list[tuple[dict[str, str], float]]:
    """Each confirmed point's goals and the level they were judged at, by Holm's step-down over
    the points, so that the chance that any of them is said to meet every goal when it does not
    stays within `alpha` (without it, k finalists would each be judged at `alpha`, up to k times
    as often in all).  A point meets every goal at the level a when each goal is met at a (its
    p-value, the largest of its goals', is at most a: an intersection-union test needs no
    correction over the goals); with m points not yet met, every one meeting every goal at
    alpha / m is confirmed and m falls by their number, until a step confirms none.  The others'
    goals are stated at the last level tried.  A `~` goal that is not an equivalence test (its
    target within the interval: a non-rejection, not a claim with an error rate) is judged at
    `alpha` at every step, never at a wider interval.

    >>> g = parse_goal("length<=5")
    >>> near = lambda v: Point({"k": v}, metrics={"length": {"value": v, "ci95": [v - 0.2, v + 0.2]}})
    >>> [(s["length<=5"], round(a, 4)) for s, a in confirm([near(4.76), near(4.7), near(4.5)], [g])]
    [('met', 0.05), ('met', 0.0167), ('met', 0.0167)]

    The first, unsure at 5% / 3 (its interval 4.52 .. 5.004 at that level), is met at 5% once the
    other two are (Bonferroni would leave it unsure).  Two that would each meet the goal at 5%
    on their own meet it at 5% / 2 neither:

    >>> [(s["length<=5"], round(a, 4)) for s, a in confirm([near(4.78), near(4.79)], [g])]
    [('unsure', 0.025), ('unsure', 0.025)]
    """
    judged: list[tuple[dict[str, str], float]] = [({}, alpha)] * len(points)
    open_ = list(range(len(points)))
    while open_:
        level = alpha / len(open_)
        for i in open_:
            judged[i] = ({g.text: g.status(points[i].metrics.get(g.metric), True, max_capped, _margin(g, difference),
                                           level if g.tested(difference) else alpha) for g in goals}, level)
        still = [i for i in open_ if any(v != "met" for v in judged[i][0].values())]
        if len(still) == len(open_):
            break
        open_ = still
    return judged


def _margin(goal: Goal, difference: float | None) -> float | None:
    headline = find_metric(goal.metric)
    return difference if goal.op == "~" and headline is not None and headline.unit in ("share", "points") else None


def _say(text: str, progress: bool) -> None:
    if progress and sys.stderr.isatty() and not quiet():
        print(text, file=sys.stderr)


def _changes(point: Point, written: dict[str, Any], axes: Sequence[Axis]) -> float:
    """How far a point's values are from the written ones: per key, steps along its list of values."""
    total = 0.0
    for a in axes:
        v, w = point.values[a.name], written[a.name]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and isinstance(w, (int, float)):
            span = (max(a.values) - min(a.values)) or 1
            total += abs(v - w) / span * (len(a.values) - 1)
        else:
            total += 0 if v == w else 1
    return total


def tune(base: str, definition: GameDefinition, axes: Sequence[Axis], goals: Sequence[Goal], store: ResultStore,
         options: TuneOptions, points: Sequence[Point] | None = None) -> dict:
    """The race and the confirmation run (see the module docstring); the result is JSON-ready.

    `points` is the grid of `axes` when the caller has made it already (`playable_grid`).
    """
    from boardlab.analysis.sweep import _get, _unit, point_json

    from boardlab.analysis.playtests import carry_measured_pace, with_measured_pace
    from boardlab.analysis.report.sections import pace_data
    from boardlab.analysis.report.wording import games as count, say, say_plural

    n = options.players
    points = list(points) if points is not None else playable_grid(base, axes, n)
    carry_measured_pace(points, definition, store)  # table minutes at the pace playtests measured, if any
    candidates = [Candidate(p) for p in points if p.definition is not None]
    written = {a.name: _get(definition, a.key) for a in axes}
    from boardlab.analysis.budget import Budget

    budget = Budget(options.cpu_minutes, SHARES, options.quick)
    design = Design.bonferroni(race_looks(options.first_games, options.games))
    stop: dict = {}  # where the budget stopped the race: {"cut": words, "at": {"games", "unsure"}}

    def play(racing: list[Candidate], games: int, look: int) -> bool:
        cost = _round_cost([c.point for c in racing], n, options.agent, games, options.seed, store, budget)
        granted = budget.games_for("race", cost, games, least=games, required=look == 0,
                                   stored=design.looks[look - 1] if look else 0, detail=f"{len(racing)} candidates")
        budget.note("race", f"{len(racing)} candidates", candidates=len(racing))
        if not granted:
            stop["cut"] = say_plural("tune.stopped", len(racing), games=count(games), k=len(racing))
            stop["at"] = {"games": games, "unsure": len(racing)}
            _say(stop["cut"], options.progress)
            return False
        play_points([c.point for c in racing], n, options.agent, games, options.seed, store, options.workers,
                    options.progress, options.backend, budget.estimate("race", f"{len(racing)} candidates")
                    if budget.limited else None)
        budget.settle()
        return True

    rounds = race(candidates, goals, design, play, options.max_capped, options.difference, options.progress)
    alive = [c for c in candidates if c.dropped_at is None]
    alive.sort(key=lambda c: (sum(s != "met" for s in c.statuses.values()), _changes(c.point, written, axes),
                              sum(max(g.shortfall(c.point.metrics.get(g.metric)), 0) for g in goals)))
    finalists = alive[:options.finalists]
    confirm_seed = options.seed + 1
    confirmed = [Point(dict(c.point.values), c.point.definition) for c in finalists]
    confirm_games = options.games
    if confirmed:
        cost = _round_cost(confirmed, n, options.agent, options.games, confirm_seed, store, budget)
        confirm_games = budget.games_for("confirmation", cost, options.games, least=min(n, options.games), step=n,
                                         required=True, detail=f"{len(confirmed)} candidates")
        budget.note("confirmation", f"{len(confirmed)} candidates", candidates=len(confirmed))
        _say(say("tune.progress.confirmation", k=len(confirmed), games=count(confirm_games), seed=confirm_seed),
             options.progress)
        play_points(confirmed, n, options.agent, confirm_games, confirm_seed, store, options.workers,
                    options.progress, options.backend, budget.estimate("confirmation") if budget.limited else None)
    confirmation = []
    for p, (statuses, judged) in zip(confirmed, confirm(confirmed, goals, options.max_capped, options.difference)):
        confirmation.append({**point_json(p), "variant": p.definition.variant, "goals": statuses,
                             "alpha": round(judged, 6), "meets_every_goal": all(s == "met" for s in statuses.values())})
    meeting = [c for c in confirmation if c["meets_every_goal"]]
    # each item judged as its run judged it: a finalist at its Holm level, a race candidate at the looks'
    pool = [(c["values"], c["metrics"], "confirmation", c["alpha"]) for c in confirmation] + \
           [(c.point.values, c.point.metrics, "race", design.per_look) for c in candidates]
    closest = {}
    for g in goals:
        # a point whose length rests on too many capped games is closest only when every point is such
        best = min(pool, key=lambda item: (bool(g.capped_reason(item[1].get(g.metric), options.max_capped)),
                                           g.shortfall(item[1].get(g.metric))))
        closest[g.text] = {"values": best[0], "metric": best[1].get(g.metric), "from": best[2],
                           "status": g.status(best[1].get(g.metric), max_capped=options.max_capped,
                                              margin=_margin(g, options.difference),
                                              alpha=best[3] if best[2] == "race" or g.tested(options.difference)
                                              else ALPHA),  # as `confirm` judges a goal that is no test
                           "why": g.capped_reason(best[1].get(g.metric), options.max_capped)}
    return {"game": definition.game.id, "name": definition.game.name,
            "base": getattr(definition, "variant", "baseline"), "players": n, "agent": options.agent,
            "axes": [{"key": a.name, "values": list(a.values)} for a in axes], "written": written,
            "goals": [g.text for g in goals], "max_capped": options.max_capped, "seed": options.seed,
            "confirmation_seed": confirm_seed,
            "first_games": min(options.first_games, options.games), "games": options.games, "rounds": rounds,
            "design": design.json(),
            "length_unit": _unit(definition), "pace": pace_data(with_measured_pace(definition, store), _unit(definition), n),
            "refused": [{"values": p.values, "refused": refusal(p)} for p in points if p.refused],
            "race": [{"values": c.point.values, "games": c.point.games, "goals": c.statuses,
                      "dropped": c.dropped_at is not None} for c in candidates],
            "confirmation": confirmation, "meeting": [c["values"] for c in meeting], "closest": closest,
            "confirmation_design": {"finalists": len(confirmed), "method": "holm", "alpha": ALPHA,
                                    "levels": [round(a, 6) for a in holm_levels(len(confirmed))]},
            "confirmation_games": confirm_games,
            "budget": _budget_data(budget, stop.get("cut", ""), stop.get("at"))}


def _budget_data(budget: Budget, cut: str, stopped_at: dict | None) -> dict:
    """What the tune's budget bought: the race's rounds and the confirmation run it paid for (each
    with its candidates), and where it stopped the race (`cut` in words and `stopped_at`
    {"games", "unsure"}: the games of the round it could not pay and the candidates still unsure;
    empty and None: it did not)."""
    bought = budget.bought()
    return {"cpu_minutes": bought["cpu_minutes"], "quick": bought["quick"], "stopped": cut,
            "stopped_at": stopped_at,
            "phases": [{"phase": p["phase"], "detail": p["detail"], "candidates": p["candidates"],
                        "wanted": p["wanted"], "games": p["games"]} for p in bought["phases"]]}


def budget_line(budget: dict) -> str:
    """The tune's line of what its CPU budget bought (each round of the race and the confirmation,
    games a candidate of those wanted) and where it stopped the race, in the language being written.

    >>> budget_line({"cpu_minutes": 2.0, "quick": False, "stopped": "", "stopped_at": None, "phases": [
    ...     {"phase": "race", "detail": "3 candidates", "candidates": 3, "wanted": 200, "games": 200}]})
    'CPU budget: 2 CPU minutes bought race 200 of 200 games a candidate (3 candidates); nothing left out'
    """
    from boardlab.analysis.report.budgeted import limit_words
    from boardlab.analysis.report.wording import games as count, say, say_plural

    bought = ", ".join(say_plural("budget.tune_phase", p["candidates"], phase=say(f"budget.phase.{p['phase']}"),
                                  games=count(p["games"]), wanted=count(p["wanted"]), k=p["candidates"])
                       for p in budget["phases"])
    stop = budget.get("stopped_at")
    end = say_plural("budget.race_stopped", stop["unsure"], games=count(stop["games"]), k=stop["unsure"]) if stop \
        else say("budget.nothing_left")
    return say("budget.tune", limit=limit_words(budget["cpu_minutes"], budget["quick"]), phases=bought) + end


def design_line(design: dict) -> str:
    """The race's design in words, in the language being written: its planned looks and the
    level of each.

    >>> design_line({"looks": [200, 400, 800, 1600], "alpha": 0.05, "alpha_per_look": 0.0125, "spending": "bonferroni"})
    'race design: looks at 200, 400, 800 and 1,600 games a candidate, planned in advance; every goal judged at 1.25% at each look (5% over 4 looks, Bonferroni), so the looks together settle a goal wrongly at most 5% of the time'
    """
    from boardlab.analysis.report.wording import games as count, listed, number, say_plural
    from boardlab.layouts.terms import term

    def share(x: float) -> str:
        return term("report.percent", n=number(x * 100, "g"))

    looks = design["looks"]
    return say_plural("tune.design", len(looks), looks=listed(count(g) for g in looks), k=len(looks),
                      per_look=share(design["alpha_per_look"]), alpha=share(design["alpha"]))


def holm_words(design: dict | None) -> str:
    """How the confirmation judged several finalists together (Holm's step-down), in the language
    being written; "" for one finalist or none.

    >>> holm_words({"finalists": 3, "method": "holm", "alpha": 0.05, "levels": [0.016667, 0.025, 0.05]})
    "; each goal judged at 1.67%, 2.5% and 5% in turn (Holm's step-down over the 3 candidates: 5% / 3 first), so that any of them is wrongly said to meet every goal at most 5% of the time"
    """
    from boardlab.analysis.report.wording import listed, number, say
    from boardlab.layouts.terms import term

    if not design or design["finalists"] < 2:
        return ""

    def share(x: float) -> str:
        return term("report.percent", n=number(round(x * 100, 2), "g"))

    return say("tune.holm", levels=listed(share(a) for a in design["levels"]), k=design["finalists"],
               alpha=share(design["alpha"]))


def variant_text(result: dict, values: dict[str, Any], extends: str) -> str:
    """A variant file holding `values` (KEY -> value, as the tuner's points have them) over `extends`,
    its comments in the language being written (the keys and values as TOML writes them).

    >>> r = {"name": "6x6", "players": 4, "agent": "greedy", "goals": ["minutes<=30"], "confirmation_seed": 2,
    ...      "games": 1600}
    >>> print(variant_text(r, {"rules.chips": 12, "rules.unclaimed_bank": "house", "game.minutes": 30}, "sixbysix"))
    # Written by `boardlab tune`: these values met every goal (minutes<=30) in its confirmation run
    # (6x6, 4 players, greedy in every seat, 1,600 games on seed 2).
    extends = "sixbysix"
    <BLANKLINE>
    [game]
    minutes = 30
    <BLANKLINE>
    [rules]
    chips = 12
    unclaimed_bank = "house"
    <BLANKLINE>
    """
    import json

    from boardlab.analysis.report.wording import games as count, say

    def toml(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return json.dumps(value) if isinstance(value, str) else repr(value)

    sections: dict[str, list[str]] = {}
    for key, value in values.items():
        section, _, name = key.rpartition(".")
        sections.setdefault(section, []).append(f"{name} = {toml(value)}")
    lines = ["# " + say("tune.variant.head", goals="; ".join(result["goals"])),
             "# " + say("tune.variant.run", name=result["name"], players=result["players"], agent=result["agent"],
                        games=count(result.get("confirmation_games", result["games"])),
                        seed=result["confirmation_seed"]),
             f"extends = {json.dumps(extends)}"]
    for section in sorted(sections):
        lines += ["", f"[{section}]", *sections[section]]
    return "\n".join(lines) + "\n"


def _goal_metric(text: str) -> str:
    """The metric a goal's text names, an older name of a headline metric as its name now.

    >>> _goal_metric("unfinished share<=5%"), _goal_metric("chips_left>=2")
    ('capped', 'chips_left')
    """
    name = re.split(r"<=|>=|<|>|~", text)[0].strip()
    headline = find_metric(name)
    return headline.id if headline else name


def tune_text(result: dict) -> str:
    """What the tuner found, in plain words and in the language being written
    (`layouts.terms.speaking`): the values meeting every goal with each metric's interval, or that
    none does and which came closest on each goal.  What the designer typed (goals, keys, values,
    metric names) is written as typed."""
    from boardlab.analysis.report.sweep_report import interval_text, pace_text, shown_format
    from boardlab.analysis.report.wording import games as count, pct, say, say_plural

    def said(values: dict) -> str:
        return ", ".join(f"{k} = {value_text(v)}" for k, v in values.items())

    goals = result["goals"]
    metrics = list(dict.fromkeys(_goal_metric(g) for g in goals))
    race = result["race"]
    searched = say_plural("tune.searched", len(race), k=len(race),
                          sizes=" x ".join(str(len(a["values"])) for a in result["axes"]),
                          keys=", ".join(a["key"] for a in result["axes"]))
    lines = [say("tune.head", name=result["name"], players=result["players"], agent=result["agent"],
                 goals="; ".join(goals)),
             searched + (say("tune.refused", k=len(result["refused"])) if result["refused"] else "") +
             say("tune.race", seed=result["seed"], first=count(result["first_games"]), games=count(result["games"]),
                 dropped=sum(r["dropped"] for r in result["rounds"]))]
    if result.get("design"):
        lines.append(design_line(result["design"]))
    lines.append(say_plural("tune.confirmation", len(result["confirmation"]), k=len(result["confirmation"]),
                            games=count(result.get("confirmation_games", result["games"])),
                            seed=result["confirmation_seed"]) + holm_words(result.get("confirmation_design")))
    if result.get("budget"):
        lines.append(budget_line(result["budget"]))
    if "minutes" in metrics and result.get("pace"):
        lines.append(say("tune.pace", pace=pace_text(result["pace"], result["length_unit"])))
    lines.append("")
    meeting = [c for c in result["confirmation"] if c["meets_every_goal"]]
    if meeting:
        lines.append(say("tune.meets"))
        for c in meeting:
            lines.append(f"  {said(c['values'])}")
            for m in metrics:
                lines.append(f"      {m}: {interval_text(c['metrics'][m], shown_format(m))}")
        confirmed = [c["values"] for c in result["confirmation"]]
        others = [r["values"] for r in race if all(s == "met" for s in r["goals"].values())
                  and r["values"] not in confirmed]
        if others:
            lines += ["", say("tune.also", k=len(others))]
            lines += [f"  {said(v)}" for v in others]
    else:
        lines.append(say("tune.none_confirmed" if result["confirmation"] else "tune.none_race"))
        lines.append(say("tune.closest"))
        for g, best in result["closest"].items():
            m = _goal_metric(g)
            metric = best["metric"]
            capped = metric.get("capped") if metric and best.get("why") else None
            why = say("tune.capped_why", share=pct(capped), limit=pct(result["max_capped"])) \
                if capped is not None else ""
            lines.append("  " + say("tune.closest_item", goal=g, values=said(best["values"]), metric=m,
                                    interval=interval_text(metric, shown_format(m)) if metric else "-",
                                    status=say(f"tune.status.{best['status']}"), why=why,
                                    source=say(f"budget.phase.{best['from']}")))
    return "\n".join(lines) + "\n"

"""A command's CPU budget, shared out between its phases: what each may play, and what it bought.

A command that plays games in phases (a report: self-play, decisions, rule alternatives, the skill
ladder, restricted play, the player levels; a sweep's points; a tune's race) holds one `Budget`
of CPU minutes.  Before a phase plays, it measures what a game costs (`probe_costs`: a few games
played here and timed, `jobs.estimated_seconds`) and asks the budget how many games it may play:

    games = budget.games_for("self-play", cost_per_game, wanted=2400, detail="2 players")

The answer is `wanted` when that fits the phase's allowance, else the most games that fit (rounded
down to `step`, whole rotations of the seats), or 0 when fewer than `least` fit (the phase is left
out, and said so; a `required` phase plays its `least` then, past the budget).  A kind's allowance
is its share (`shares[phase]`) of the CPU still free, against the shares of the kinds not asked
yet; a kind without a share may take all that is free.  A kind asked again (a ladder's next step,
the next player count) may take the larger of what is left of its allowance and its share of the
CPU free now together with what its own earlier asks were granted, less those grants: CPU that the
kinds before it left unspent (a phase that played for less than its estimate, a phase that wanted
less than its share) flows on to the asks after it, the kinds not asked yet keep their proportion
of it, and a kind that asks round after round never takes more than its share of the whole.
Several phases of one kind sized together (`fit`) are scaled by one factor, so each keeps its
proportion.

The CPU counted is this process's and that of its local workers that have ended (`cpu_seconds`);
games already in the results store cost nothing and are not asked for.  Granted estimates are
reserved until the phase has played (`settle`), so phases sized together do not each take the
whole.  `bought()` is what the budget bought, for JSON: every phase with the games it wanted and
got, its estimate and its power (`note`), and what was left out and why.

With no limit (`minutes` None) every phase gets what it wants, and `bought()` still lists them.

>>> b = Budget(1.0, shares={"self-play": 3, "skill": 1}, clock=lambda: 0.0)
>>> b.games_for("self-play", 0.01, wanted=10_000, step=2)  # 45 s of 60 s: 4,500 games of 10,000
4500
>>> b.games_for("skill", 0.5, wanted=400, least=400)  # 15 s free: 400 games would take 200 s
0
>>> [(p["phase"], p["games"], p["wanted"]) for p in b.bought()["phases"]]
[('self-play', 4500, 10000), ('skill', 0, 400)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from boardlab.analysis.report.jobs import Job
    from boardlab.analysis.store import ResultStore

#: CPU minutes of `--quick`, a run for iterating on a rule (a command's own default budget otherwise)
QUICK_MINUTES = 1.0


def cpu_seconds() -> float:
    """CPU seconds of this process and of its local workers that have ended (a `jobs.play_jobs`
    call's pool ends with the call); a Dask cluster's workers are not counted."""
    import resource

    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


@dataclass(frozen=True)
class Ask:
    """One phase's request in `Budget.fit`: its cost per game (CPU seconds) and the games it wants."""

    detail: str
    cost_per_game: float
    wanted: int
    least: int = 1  # fewer games than this are not worth playing: the phase is left out
    step: int = 1  # games come in multiples of this (whole rotations of the seats)
    stored: int = 0  # the first games the results store already holds: they cost nothing
    required: bool = False  # a phase the command cannot do without: never fewer than `least` games
    facts: Mapping = field(default_factory=dict)  # said on its line of `bought()` (its player count)

    def cost(self, games: int) -> float:
        return max(0, games - self.stored) * self.cost_per_game


@dataclass
class Phase:
    """A phase as sized: what it wanted, what it got, what that was estimated to cost."""

    phase: str
    detail: str
    wanted: int
    games: int
    cost_per_game: float
    estimate: float  # CPU seconds the games the store lacks were estimated to take
    facts: dict = field(default_factory=dict)  # what the games give (`Budget.note`): a power, a stop

    def as_dict(self) -> dict:
        return {"phase": self.phase, "detail": self.detail, "wanted": self.wanted, "games": self.games,
                "cost_per_game": round(self.cost_per_game, 6), "estimated_seconds": round(self.estimate, 1),
                **self.facts}


class Budget:
    """CPU minutes for one command's phases (see the module docstring)."""

    def __init__(self, minutes: float | None, shares: Mapping[str, float] | None = None, quick: bool = False,
                 clock: Callable[[], float] | None = None, replay: Sequence[Mapping] = ()):
        if minutes is not None and not (minutes > 0 and math.isfinite(minutes)):
            raise ValueError(f"a budget is a positive number of CPU minutes, not {minutes}")
        self.minutes, self.quick = minutes, quick
        self.clock = clock or (lambda: cpu_seconds())  # looked up at each call: a test may fix it
        self.shares = dict(shares or {})
        self.started = self.clock()
        self.phases: list[Phase] = []
        self.left_out: list[dict] = []
        self._allowance: dict[str, float] = {}  # CPU seconds each kind may still take
        self._granted: dict[str, float] = {}  # CPU seconds each kind's asks were granted so far
        self._reserved = 0.0  # estimates granted and not yet played
        #: the phases of an earlier run of the same command ({"phase", "detail", "wanted", "games"}, as
        #: `bought()` lists them): asked again in the same order, each gets the games it got then (a
        #: report's second language is the first one's games, read from the store, not a new sizing)
        self._replay = [(r["phase"], r["detail"], r["wanted"], r["games"]) for r in replay]

    @property
    def limited(self) -> bool:
        return self.minutes is not None

    def spent(self) -> float:
        """CPU seconds spent since the budget began."""
        return self.clock() - self.started

    def free(self) -> float:
        """CPU seconds neither spent nor reserved for a phase sized and not yet played (inf: no limit)."""
        if self.minutes is None:
            return math.inf
        return max(0.0, self.minutes * 60 - self.spent() - self._reserved)

    def allowance(self, phase: str) -> float:
        """CPU seconds `phase` may still take: the larger of what is left of its kind's allowance
        and its share of the CPU free now (see the module docstring)."""
        if self.minutes is None:
            return math.inf
        share = self.shares.get(phase)
        if share is None:
            fresh = self.free()
        else:
            waiting = sum(s for k, s in self.shares.items() if k not in self._allowance and k != phase)
            # its share of the CPU free now and of what it took before (so a kind asked again and
            # again keeps to its share instead of taking a share of what is left each time), less
            # what it took
            took = self._granted.get(phase, 0.0)
            fresh = (self.free() + took) * share / (share + waiting) - took if share + waiting > 0 else 0.0
        self._allowance[phase] = max(self._allowance.get(phase, 0.0), fresh)
        return min(self._allowance[phase], self.free())

    def withdraw(self, phase: str) -> None:
        """`phase` will not ask (it has nothing to play: a game without restricted play's elements):
        its share stops holding CPU back from the kinds asked after it, as an asked kind's does.

        >>> b = Budget(1.0, shares={"skill": 2, "restricted": 1, "levels": 1}, clock=lambda: 0.0)
        >>> b.withdraw("restricted"); b.allowance("skill")  # 2 of 3 shares of 60 s, not 2 of 4
        40.0
        """
        self._allowance.setdefault(phase, 0.0)

    def games_for(self, phase: str, cost_per_game: float, wanted: int, least: int = 1, step: int = 1,
                  detail: str = "", stored: int = 0, required: bool = False) -> int:
        """The games `phase` may play at `cost_per_game` CPU seconds a game: `wanted` when they
        fit, else as many as fit (a multiple of `step`), 0 when fewer than `least` fit (`least`
        all the same when `required`); the first `stored` games are in the results store already
        and cost nothing."""
        return self.fit(phase, [Ask(detail, cost_per_game, wanted, least, step, stored, required)])[0]

    def fit(self, phase: str, asks: Sequence[Ask], share_cost: bool = False) -> list[int]:
        """The games of several phases of one kind sized together: each gets what it wants when
        all fit the kind's allowance, else each its wanted games times one common factor (rounded
        down to its step; below its least, none).

        With `share_cost`, for asks of very different costs a game (a cheap agent's games beside a
        strong search's), the allowance is shared out by CPU instead (max-min fair): every ask may
        take an equal part of it, an ask that needs less takes all its games and leaves the rest
        to the others, so a cheap phase is never cut to the proportion of a costly one."""
        allowance = self.allowance(phase)
        need = sum(a.cost(a.wanted) for a in asks)
        scales = [1.0 if need <= allowance + 1e-9 else allowance / need] * len(asks)
        if share_cost and need > allowance + 1e-9:  # an exact fit is a fit, whatever the float dust
            scales = cost_shares([a.cost(a.wanted) for a in asks], allowance)
        granted = []
        for a, scale in zip(asks, scales):
            stored = min(a.stored, a.wanted)
            # an exact fit is a fit: 1.9999999 games of float dust (0.6 s / 3 at 0.1 s a game) is 2
            games = a.wanted if scale >= 1.0 else stored + int((a.wanted - stored) * scale + 1e-6)
            games = a.wanted if games >= a.wanted else games // a.step * a.step
            if games < min(a.least, a.wanted):
                games = min(a.least, a.wanted) if a.required else 0
            if self._replay and self._replay[0][:3] == (phase, a.detail, a.wanted):
                games = self._replay.pop(0)[3]
            granted.append(games)
            self.phases.append(Phase(phase, a.detail, a.wanted, games, a.cost_per_game, a.cost(games), dict(a.facts)))
            if games < a.wanted:
                self.left_out.append({"phase": phase, "detail": a.detail, "games": a.wanted - games,
                                      "estimated_seconds": round(a.cost(a.wanted) - a.cost(games), 1)})
        cost = sum(a.cost(g) for g, a in zip(granted, asks))
        if self.minutes is not None:
            self._allowance[phase] -= cost
            self._granted[phase] = self._granted.get(phase, 0.0) + cost
            self._reserved += cost
        return granted

    def settle(self) -> None:
        """The phases sized so far have played: their reservations give way to the CPU they spent."""
        self._reserved = 0.0

    def note(self, phase: str, detail: str = "", **facts: object) -> None:
        """Add what a phase's games give (its power, why it stopped) to its line of `bought()`."""
        for p in reversed(self.phases):
            if p.phase == phase and p.detail == detail:
                p.facts.update(facts)
                return
        raise KeyError(f"no phase {phase!r} {detail!r} was sized")

    def estimate(self, phase: str, detail: str | None = None) -> float:
        """CPU seconds the sized phases of this kind (of this detail, when given) were estimated to
        take; a kind asked again (a ladder's steps) counts its last ask of that detail only."""
        if detail is not None:
            found = [p.estimate for p in self.phases if p.phase == phase and p.detail == detail]
            return found[-1] if found else 0.0
        return sum(p.estimate for p in self.phases if p.phase == phase)

    def bought(self) -> dict:
        """What the budget bought, for JSON: the budget, the CPU spent, every phase sized (games
        wanted and got, estimate, facts) and what was left out."""
        return {"cpu_minutes": self.minutes, "quick": self.quick, "cpu_seconds_spent": round(self.spent(), 1),
                "phases": [p.as_dict() for p in self.phases], "left_out": list(self.left_out)}


def cost_shares(needs: Sequence[float], allowance: float) -> list[float]:
    """The part of its need each ask gets when `allowance` is shared out max-min fairly by cost
    (water-filling): asks needing at most an equal part get all (1.0), the rest share what is left
    equally, each the same CPU.

    >>> cost_shares([10.0, 100.0, 100.0], 110.0)  # 10 in full, then 50 each of the costly two
    [1.0, 0.5, 0.5]
    >>> cost_shares([30.0, 30.0], 120.0)
    [1.0, 1.0]
    """
    scales = [1.0] * len(needs)
    left, open_ = allowance, [i for i, need in enumerate(needs) if need > 0]
    while open_:
        part = left / len(open_)
        small = [i for i in open_ if needs[i] <= part]
        if not small:
            for i in open_:
                scales[i] = part / needs[i]
            break
        for i in small:
            left -= needs[i]
        open_ = [i for i in open_ if i not in small]
    return scales


def probe_costs(jobs: Sequence[Job], store: ResultStore) -> list[tuple[float, int]]:
    """(CPU seconds per game, games the results store holds) of each of `jobs` (`report.jobs.Job`),
    the cost from a probe of a few games played here (`jobs.estimated_seconds`; 0 for a job the
    store holds whole)."""
    from boardlab.analysis.report.jobs import estimated_seconds

    costs = []
    for job in jobs:
        seconds, missing = estimated_seconds([job], store)
        costs.append((seconds / missing if missing else 0.0, job.games - missing))
    return costs


def sampled_cost(jobs: Sequence[Job], store: ResultStore, most: int = 4) -> float:
    """CPU seconds per game of a run of many alike jobs (a sweep's points, a tune's candidates): the
    mean of `probe_costs` over at most `most` of them, spread evenly (first and last included)."""
    if not jobs:
        return 0.0
    picks = sorted({round(i * (len(jobs) - 1) / max(1, most - 1)) for i in range(min(most, len(jobs)))})
    costs = [cost for cost, _ in probe_costs([jobs[i] for i in picks], store)]
    return sum(costs) / len(costs)


def minutes_of(value: float | None, quick: bool, default: float) -> float | None:
    """The CPU minutes of a command's `--budget` (None on the command line: `default`, the
    definition's; 0: no limit) and `--quick` (at most `QUICK_MINUTES`).

    >>> minutes_of(None, False, 10.0), minutes_of(0, False, 10.0), minutes_of(None, True, 10.0), minutes_of(0.5, True, 10.0)
    (10.0, None, 1.0, 0.5)
    """
    minutes = default if value is None else value
    if quick:
        minutes = min(minutes, QUICK_MINUTES) if minutes else QUICK_MINUTES
    return minutes or None

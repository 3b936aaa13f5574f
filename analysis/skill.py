"""The skill trace: a ladder of agents, each played against the one below, and their ratings.

The ladder is the game's (`protocol.Game.skill_ladder`: by default random, greedy when the game
has it, then MCTS with budgets doubling from `protocol.LADDER_START` up to the largest budget).
Level i is played against level i - 1 for `games` games: with two players one seat each,
with more the level under test in one seat and the level below in all the others, the seats
rotating so that every deal is played with the tested level in every seat (`runner`'s seat
rotation).  Its fair share is 1 / players.

What is counted (`Pairing`): a game is *decided* when it finished with one winner; the tested
level's share is its wins over the decided games, with a 95% interval that takes the rotation
group (a deal, played with the tested level in every seat) as its unit: a Wilson interval at the
effective number of decided games (`report.levels.clustered_share`).  Games won jointly, drawn or
stopped at the cap are counted beside and take no part in the share.

A step is sequential (`step_decision`): it plays `games` games, looks, and plays on to 2 and then
4 times as many (`LOOKS`, the last the cap) until it is decided: *better* when a one-sided
binomial test of a gain over the fair share gives p < `ALPHA` / 3, *no gain* when the one-sided
upper (1 - `ALPHA` / 3) Clopper-Pearson bound of the share lies below the fair share plus the
definition's `analysis.difference` (the smallest change that matters).  Test and bound take the
unit of the interval: the share at the effective number of decided games of the rotation groups
(`Pairing.counts`; the binomial's tails as incomplete beta functions, `gain_p_value`), so that
games a deal makes alike are not counted as independent evidence.  Three looks at ALPHA / 3
each hold the chance of a false gain at ALPHA whatever the stopping (Bonferroni), so the step's
p-value is its last look's times 3 (at most 1): that is the p-value shown, tested and corrected.
A step still undecided at the cap says so.  Clear steps stop at the first look; steps between
close levels play up to the cap, where the power to rule out a gain of `difference` is highest.
The ladder stops early once two consecutive budget doublings show no significant gain.

Ratings (`ratings`): one strength per level from every decided game of the ladder, by maximum
likelihood of the Luce choice model (Bradley-Terry for two players): in a game of the tested
level A against n - 1 copies of B, A wins with probability pi_A / (pi_A + (n - 1) pi_B).  Each
pairing also counts one virtual game split evenly (half a win to each side), so a level that
won every game still gets a finite rating; as that rating is set by the prior, such a pairing also
states the least difference its games show (`elo_lower_bound`: 95% one-sided over its rotation
groups, "elo_at_least").  Ratings are on the Elo scale (400 log10 pi, so 400
points are odds of 10 to 1 between two players), random at 0; their 95% intervals are Wald
intervals from the observed information (the inverse Hessian of the log-likelihood), so the
uncertainty of every step below a level adds to its own.  The depth is the number of levels
significantly better than the one below after Benjamini-Hochberg control of the false-discovery
rate over the ladder's tests (`stats.benjamini_hochberg`): one family per ladder, apart from a
report's family of findings (`report.findings`), as the README's documentation says.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

import numpy as np

from boardlab.analysis.stats import benjamini_hochberg, wilson_interval

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.protocol import Game
    from boardlab.analysis.runner import AgentFactory, Backend, GameRecord
    from boardlab.analysis.store import ResultStore

#: significance level of a gain (one-sided), and the false-discovery rate of the depth
ALPHA = 0.05
#: Elo points per natural-log unit of strength
ELO = 400 / math.log(10)
#: the virtual game of every pairing: this many wins added to each side
PRIOR_WINS = 0.5
#: a sequential step's looks: its games after each, as multiples of the first look's (the last: the cap)
LOOKS = (1, 2, 4)
#: the decisions of a step (`step_decision`)
BETTER, NO_GAIN, UNDECIDED = "better", "no gain", "undecided at the cap"
#: the smallest gain that matters when a definition names none (layouts' `analysis.difference` default)
DEFAULT_DIFFERENCE = 0.05


@dataclass
class Pairing:
    """A level against the one below: the counts of its games."""

    agent: str
    below: str
    players: int
    games: int = 0
    wins: int = 0  # decided games the tested level won
    losses: int = 0  # decided games a copy of the level below won
    shared: int = 0  # games won jointly by several seats
    drawn: int = 0  # finished games without a winner
    unfinished: int = 0  # games stopped at the cap
    p_value: float = 1.0
    significant: bool = False
    looks: int = 1  # looks of the sequential step (`step_decision`), 1 when it was not sequential
    decision: str = ""
    grouped: dict | None = None  # the share with the rotation group as the unit (`add`)
    totals: dict | None = None  # {rotation group: (wins, decided games)} of the records added

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def fair(self) -> float:
        return 1 / self.players

    def add(self, records: Iterable[GameRecord]) -> "Pairing":
        """Count `records` (runner.GameRecord of this pairing) and test the gain; the share's
        interval and its test take the rotation group (a deal, played with the tested level in
        every seat) as their unit (`levels.clustered_share`, `counts`): the games of a deal share
        its luck."""
        from boardlab.analysis.report.levels import grouped_share

        totals = self.totals if self.totals is not None else {}
        for r in records:
            self.games += 1
            if r.unfinished:
                self.unfinished += 1
            elif len(r.winners) == 0:
                self.drawn += 1
            elif len(r.winners) > 1:
                self.shared += 1
            else:
                won = r.agents[r.winners[0]] == self.agent
                if won:
                    self.wins += 1
                else:
                    self.losses += 1
                w, d = totals.get(r.deal, (0, 0))
                totals[r.deal] = (w + won, d + 1)
        self.totals = totals
        self.grouped = grouped_share(totals) if totals else None
        self.p_value = gain_p_value(*self.counts(), self.fair)
        self.significant = self.p_value < ALPHA
        return self

    def counts(self) -> tuple[float, float]:
        """(wins, decided) at the effective size of the rotation groups: the share kept, the
        decided games over the groups' design effect (never more than the decided games); the
        counts themselves for a pairing counted without its records' groups."""
        if self.grouped is None or not self.decided:
            return float(self.wins), float(self.decided)
        effective = self.grouped["effective_exact"]
        return self.wins / self.decided * effective, effective

    def as_dict(self) -> dict:
        lo, hi = wilson_interval(self.wins, self.decided) if self.grouped is None else self.grouped["ci95"]
        return {"agent": self.agent, "below": self.below, "games": self.games, "decided": self.decided,
                "wins": self.wins, "share": round(self.wins / self.decided, 6) if self.decided else None,
                "ci95": [round(lo, 6), round(hi, 6)], "fair_share": round(self.fair, 6),
                "p_value": round(self.p_value, 6), "significant": self.significant, "shared": self.shared,
                "drawn": self.drawn, "unfinished": self.unfinished,
                # a level that won every decided game: the least its strength is above the level below
                "elo_at_least": self.elo_at_least(),
                **({"rotation_groups": self.grouped["groups"], "effective_decided": self.grouped["effective"]}
                   if self.grouped is not None else {}),
                # a sequential ladder step's looks and decision (`step_decision`)
                **({"looks_played": self.looks, "decision": self.decision} if self.decision else {})}

    def elo_at_least(self) -> float | None:
        """`elo_lower_bound` of a level that won every decided game (rounded), else None: over its
        rotation groups when its records gave them."""
        groups = self.grouped["groups"] if self.grouped is not None else None
        bound = elo_lower_bound(self.wins, self.decided, self.players, groups=groups)
        return None if bound is None else round(bound, 1)


def gain_p_value(wins: float, decided: float, fair: float, alternative: str = "greater") -> float:
    """Binomial p-value of `wins` of `decided` against a true share of `fair`: one-sided (a gain)
    by default, "less" for a loss, "two-sided" for a difference either way (twice the smaller
    tail, at most 1); 1 when nothing was decided.  The counts may be effective sizes (not whole,
    `Pairing.counts`): the tails are the regularized incomplete beta functions that equal the
    binomial's for whole counts (P(X >= w) = I_fair(w, n - w + 1)).

    >>> round(gain_p_value(60, 100, 0.5), 4), round(gain_p_value(60, 100, 0.5, "two-sided"), 4)
    (0.0284, 0.0569)
    """
    if decided <= 0:
        return 1.0
    from scipy.special import betainc

    def at_least(w: float) -> float:  # P(X >= w)
        return 1.0 if w <= 0 else (0.0 if w > decided else float(betainc(w, decided - w + 1, fair)))

    greater = at_least(wins)
    less = 1.0 - at_least(wins + 1)
    if alternative == "greater":
        return greater
    if alternative == "less":
        return less
    return min(1.0, 2 * min(greater, less))


def smallest_gain(definition: GameDefinition) -> float:
    """The gain in share a 'no gain' step rules out: the definition's `analysis.difference`, or
    `DEFAULT_DIFFERENCE` for a definition without an analysis table (a toy game's)."""
    return getattr(getattr(definition, "analysis", None), "difference", DEFAULT_DIFFERENCE)


def step_decision(pairing: Pairing, look: int, difference: float) -> str | None:
    """The sequential step's decision after look `look` (1-based, of `LOOKS`): `BETTER`, `NO_GAIN`,
    `UNDECIDED` at the last look, or None (play on); it sets the pairing's p-value (the look's
    one-sided p times the number of looks, at most 1), its significance, looks and decision.

    >>> p = Pairing("b", "a", 2, wins=70, losses=50)
    >>> step_decision(p, 1, 0.05), round(p.p_value, 4)    # p = 0.0412 one-sided: not below 0.05 / 3
    (None, 0.1236)
    >>> step_decision(Pairing("b", "a", 2, wins=240, losses=240), 3, 0.05)
    'no gain'
    """
    from scipy.stats import beta

    k = len(LOOKS)
    w, n = pairing.counts()  # at the rotation groups' effective size, as the share's interval
    raw = gain_p_value(w, n, pairing.fair)
    pairing.p_value = min(1.0, raw * k)
    pairing.significant = pairing.p_value < ALPHA
    pairing.looks = look
    if pairing.significant:
        decision: str | None = BETTER
    else:
        upper = 1.0 if n == 0 or w >= n else float(beta.ppf(1 - ALPHA / k, w + 1, n - w))
        decision = NO_GAIN if upper < pairing.fair + difference else (UNDECIDED if look >= k else None)
    pairing.decision = decision or ""
    return decision


def elo_lower_bound(wins: int, decided: int, players: int = 2, confidence: float = 0.95,
                    groups: int | None = None) -> float | None:
    """The Elo difference a level that won all `decided` games is at least above its opponents,
    with one-sided `confidence`; None unless every decided game was won.  The unit is the
    rotation group (`groups`: those with a decided game; else every game its own): a group whose
    decided games were all won has some chance g of being so, and every game's share q is at
    least g, so q >= (1 - confidence) ** (1 / groups) holds whatever the dependence of a group's
    games (the share whose chance of winning every group is 1 - confidence); that share as Luce
    odds against n - 1 copies.

    >>> round(elo_lower_bound(100, 100), 1), round(elo_lower_bound(100, 100, groups=50), 1)
    (606.8, 483.8)
    """
    if decided == 0 or wins < decided:
        return None
    units = groups if groups else decided
    q = (1 - confidence) ** (1 / units)
    return 400 * math.log10(q / (1 - q) * (players - 1))


@dataclass
class Ratings:
    """Elo-scale ratings of the levels (random, the first, at 0) and their 95% intervals."""

    levels: list[str]
    elo: list[float]
    low: list[float]
    high: list[float]
    converged: bool = True


def ratings(levels: list[str], pairings: list[Pairing]) -> Ratings:
    """The Luce / Bradley-Terry fit of every pairing's decided games (see the module docstring).

    Pairing k is between `levels[k + 1]` and `levels[k]` with `pairings[k].players` seats.
    For two players and one pairing the fit is exact: the rating is 400 log10 of the odds
    (wins + 1/2) / (losses + 1/2).

    >>> fit = ratings(["a", "b"], [Pairing("b", "a", 2, wins=89, losses=9)])
    >>> round(fit.elo[1], 9) == round(400 * math.log10(89.5 / 9.5), 9)
    True
    """
    from scipy.optimize import minimize

    k = len(levels)
    index = {name: i for i, name in enumerate(levels)}
    rows = [(index[p.agent], index[p.below], math.log(p.players - 1), p.wins + PRIOR_WINS, p.losses + PRIOR_WINS)
            for p in pairings]

    def full(free: np.ndarray) -> np.ndarray:
        return np.concatenate([[0.0], free])

    def negative_log_likelihood(free: np.ndarray) -> tuple[float, np.ndarray]:
        theta = full(free)
        value, grad = 0.0, np.zeros(k)
        for a, b, offset, won, lost in rows:
            x = theta[a] - theta[b] - offset  # log-odds that the tested level wins a game
            q = 1 / (1 + math.exp(-x))
            value -= won * _log_sigmoid(x) + lost * _log_sigmoid(-x)
            g = won - (won + lost) * q  # d log-likelihood / d theta[a]
            grad[a] -= g
            grad[b] += g
        return value, grad[1:]

    def information(free: np.ndarray) -> np.ndarray:  # the Hessian of the negative log-likelihood (all levels)
        theta = full(free)
        hessian = np.zeros((k, k))
        for a, b, offset, won, lost in rows:
            q = 1 / (1 + math.exp(-(theta[a] - theta[b] - offset)))
            w = (won + lost) * q * (1 - q)
            hessian[a, a] += w
            hessian[b, b] += w
            hessian[a, b] -= w
            hessian[b, a] -= w
        return hessian

    result = minimize(negative_log_likelihood, np.zeros(k - 1), jac=True, method="BFGS",
                      options={"gtol": 1e-9, "maxiter": 1000})
    free = result.x
    for _ in range(20):  # Newton's steps from BFGS's answer: the likelihood is concave, so they polish it
        step = np.linalg.solve(information(free)[1:, 1:], negative_log_likelihood(free)[1])
        free = free - step
        if float(np.abs(step).max()) < 1e-13:
            break
    theta = full(free)
    hessian = information(free)
    covariance = np.linalg.inv(hessian[1:, 1:])
    se = np.concatenate([[0.0], np.sqrt(np.diag(covariance))])
    z = 1.959963984540054
    elo = [float(ELO * t) for t in theta]
    half = [float(ELO * z * s) for s in se]
    converged = float(np.abs(negative_log_likelihood(free)[1]).max()) < 1e-8
    return Ratings(list(levels), elo, [e - h for e, h in zip(elo, half)], [e + h for e, h in zip(elo, half)],
                   converged)


def _log_sigmoid(x: float) -> float:
    return -math.log1p(math.exp(-x)) if x > 0 else x - math.log1p(math.exp(x))


def depth(pairings: list[Pairing]) -> int:
    """How many levels are significantly better than the one below, the ladder's tests under
    Benjamini-Hochberg false-discovery control at `ALPHA`.

    >>> depth([Pairing("b", "a", 2, p_value=0.001), Pairing("c", "b", 2, p_value=0.04),
    ...        Pairing("d", "c", 2, p_value=0.5)])
    1
    """
    if not pairings:
        return 0
    return sum(benjamini_hochberg([p.p_value for p in pairings], ALPHA))


def stalled(pairings: list[Pairing]) -> bool:
    """True when the last two budget doublings showed no significant gain (the ladder stops);
    only steps between two budgets count (a first MCTS level weaker than greedy is no stall).

    >>> stalled([Pairing("mcts-2", "a", 2, significant=True), Pairing("mcts-4", "mcts-2", 2),
    ...          Pairing("mcts-8", "mcts-4", 2)])
    True
    >>> stalled([Pairing("greedy", "random", 2), Pairing("mcts-4", "greedy", 2)])
    False
    """
    def doubles(pairing: Pairing) -> bool:
        upper, lower = budget_of(pairing.agent), budget_of(pairing.below)
        return upper is not None and lower is not None and upper == 2 * lower

    doublings = [p for p in pairings if doubles(p)]
    return len(doublings) >= 2 and doublings[-1] is pairings[-1] and not any(p.significant for p in doublings[-2:])


def capstone(ladder: list[str]) -> bool:
    """True when the ladder's top is an agent of another kind than the budget doublings below it
    (Links' history-consistent search above its MCTS): the trace plays it even after a stall.

    >>> capstone(["random", "greedy", "mcts-16", "mcts-32", "ismcts-32"]), capstone(["random", "mcts-16", "mcts-32"])
    (True, False)
    >>> capstone(["random", "greedy", "mcts-16", "perfect"])
    True
    """
    if len(ladder) > 2 and ladder[-1] == "perfect":  # perfect play closes a solved game's ladder
        return True
    return len(ladder) > 2 and budget_of(ladder[-1]) is not None and \
        ladder[-1].rpartition("-")[0] != ladder[-2].rpartition("-")[0]


def budget_of(agent: str) -> int | None:
    """The budget N of an agent named BASE-N, else None (random, greedy).

    >>> budget_of("mcts-256"), budget_of("greedy")
    (256, None)
    """
    _, _, number = agent.rpartition("-")
    return int(number) if number.isdigit() else None


def rounded_games(games: int, players: int) -> int:
    """`games` rounded up to whole rotations of the seats (every deal with the tested level in every seat).

    >>> rounded_games(400, 3), rounded_games(400, 2)
    (402, 400)
    """
    return -(-games // players) * players


def trace(definition: GameDefinition, players: int, games: int, max_budget: int, seed: int, store: ResultStore,
          backend: Backend | None = None, progress: bool = False) -> dict:
    """The skill trace of a definition at a player count, its games through the results store
    (missing blocks only) on `backend` (see the module docstring); a dict for JSON."""
    return traces(definition, [players], games, max_budget, seed, store, backend, progress)[players]


def traces(definition: GameDefinition, counts: list[int], games: int, max_budget: int, seed: int, store: ResultStore,
           backend: Backend | None = None, progress: bool = False, cpu_minutes: float | None = None,
           budget: Budget | None = None) -> dict[int, dict]:
    """`trace` at every player count of `counts`, {players: trace}: the ladders climb together,
    one level of every ladder still climbing per round, so each round's games go to the backend
    at once (the same games, and so the same numbers, as one `trace` per count).

    With `cpu_minutes`, the climb is bounded: before each round the CPU its missing games will
    take is estimated from a probe (`jobs.estimated_seconds`), and a round that would pass the
    budget is not played; the ladders stop there, saying so, and each trace's "budget" tells what
    the budget bought. The levels played are the same games, so the same numbers, as without a
    budget (a ladder cut short, not another ladder).  `budget` (a `budget.Budget`, e.g. a report's)
    instead of `cpu_minutes`: each round asks it for its games as the phase "skill".
    """
    from boardlab.analysis import engines
    from boardlab.analysis.progress import clock
    from boardlab.analysis.budget import Ask, Budget
    from boardlab.analysis.report import jobs as job_module
    from boardlab.analysis.report.jobs import Job, play_jobs
    from boardlab.common.notes import note

    from boardlab.analysis.perfect import game_value
    from boardlab.analysis.report.options import model_agent

    climbs = {}
    for players in counts:
        game = engines.make_game(definition, players)
        perfect = game_value(game)  # a game solved from its start closes its ladder with perfect play
        ladder = game.skill_ladder(max_budget) + (["perfect"] if perfect["solved"] else [])
        climbs[players] = {"game": game, "ladder": ladder, "at": 0, "next": 1, "perfect": perfect, "look": 1,
                           "games": rounded_games(games, players), "pairings": [], "outcomes": [], "stopped": "the ladder's top", "done": False}
    own = budget is None and cpu_minutes is not None  # the skill command's budget, said in its trace
    if own:
        budget = Budget(cpu_minutes)
    difference = smallest_gain(definition)
    while True:
        climbing = [n for n, c in climbs.items() if not c["done"] and c["next"] < len(c["ladder"])]
        if not climbing:
            break
        jobs = []
        for n in climbing:
            c = climbs[n]
            below, agent = c["ladder"][c["at"]], c["ladder"][c["next"]]
            jobs.append(Job(definition, n, (agent,) + (below,) * (n - 1), c["games"] * LOOKS[c["look"] - 1], seed))
        estimate = None
        if budget is not None and budget.limited:
            # each ladder's step asks for its games on its own: a step that does not fit stops its
            # ladder there, and the ladders whose steps fit climb on
            spent, fitting, estimate, missing_all = budget.spent(), [], 0.0, 0
            for n, job in zip(climbing, jobs):
                c, name = climbs[n], job.agents[0] + " against " + job.agents[1]
                seconds, missing = job_module.estimated_seconds([job], store)  # the module's: a test fixes it
                ask = Ask(name, seconds / missing if missing else 0.0, job.games, least=job.games,
                          stored=job.games - missing, facts={"players": n})
                if budget.fit("skill", [ask])[0]:
                    fitting.append((n, job))
                    estimate, missing_all = estimate + seconds, missing_all + missing
                    continue
                # a report's trace names only the level left out: no clock figure in its JSON
                c["stopped"] = (f"the CPU budget of {budget.minutes:g} minutes: {name} would take about "
                                f"{clock(seconds)} more ({missing:,} games) after {clock(spent)}") if own \
                    else f"the CPU budget: {c['ladder'][c['next']]}"
                c["left_out"], c["done"] = c["ladder"][c["next"]:], True
            if not fitting:
                break
            climbing, jobs = [n for n, _ in fitting], [job for _, job in fitting]
            names = sorted({j.agents[0] + " against " + j.agents[1] for j in jobs})
            if progress and missing_all and getattr(sys.stderr, "isatty", lambda: False)():  # a terminal's line, as the bars
                note(f"{', '.join(names)}: {missing_all:,} games, about {clock(estimate)} of CPU (estimated from a probe); "
                     f"{clock(spent)} of the {budget.minutes:g} CPU minutes spent", file=sys.stderr)
        names = sorted({j.agents[0] + " against " + j.agents[1] for j in jobs})
        outcomes = play_jobs(jobs, store, progress=progress, label=f"games of {', '.join(names)}", backend=backend,
                             estimate=estimate)
        if budget is not None:
            budget.settle()
        for n, job, outcome in zip(climbing, jobs, outcomes):
            c = climbs[n]
            pairing = Pairing(job.agents[0], job.agents[1], n).add(outcome.records)
            if step_decision(pairing, c["look"], difference) is None:  # undecided: the same step, more games
                c["look"] += 1
                continue
            c["outcomes"].append(outcome)
            c["pairings"].append(pairing)
            c["at"], c["next"], c["look"] = c["next"], c["next"] + 1, 1
            top, ends = job.agents[0] == c["ladder"][-1], capstone(c["ladder"])
            if stalled(c["pairings"]) and not (top and ends):  # a plateau, also one reached at the top of budgets
                c["stopped"] = "two consecutive budget doublings without a significant gain"
                if not top and ends:  # the ladder's own top is still played, against the last level reached
                    c["stopped"] += f"; {c['ladder'][-1]}, the ladder's top, against the last level"
                    c["next"] = len(c["ladder"]) - 1
                else:
                    c["done"] = True
    for n, c in climbs.items():  # the endgames of a two-player game too large to solve from its start
        if n == 2 and not c["perfect"]["solved"]:
            bot = c["pairings"][-1].agent if c["pairings"] else c["ladder"][0]
            c["endgame"] = endgame_measure(c["game"], bot, seed, budget, model_agent(definition),
                                           min(games, ENDGAME_POSITIONS))  # as optimal_share's games: the trace's size
    if budget is not None:  # no endgame asked (no such count, hidden hands, none solved): its share holds nothing back
        budget.withdraw("endgame")
    results = {n: _result(c, n, games, max_budget, seed) for n, c in climbs.items()}
    if own and budget is not None:  # a report's budget is said by the report (`budgeted`)
        for n, c in climbs.items():
            results[n]["budget"] = {"cpu_minutes": budget.minutes, "cpu_seconds_spent": round(budget.spent(), 1),
                                    "levels_played": len(c["pairings"]) + 1, "left_out": c.get("left_out", [])}
    return results


def _result(climb: dict, players: int, games: int, max_budget: int, seed: int) -> dict:
    from boardlab.analysis.report.jobs import stored_seconds

    game = climb["game"]
    result = ladder_result(climb["ladder"][0], climb["pairings"], players, climb["games"], game=game.id,
                           variant=game.variant, seed=seed, max_budget=max_budget, stopped=climb["stopped"],
                           seconds=stored_seconds(climb["outcomes"]))
    result["perfect"] = perfect_distance(game, climb["perfect"], climb["pairings"], min(games, OPTIMAL_GAMES), seed)
    if "endgame" in climb:
        result["perfect"]["endgame"] = climb["endgame"]
    result["sequential"] = {"looks": [climb["games"] * k for k in LOOKS], "alpha_per_look": round(ALPHA / len(LOOKS), 6),
                            "difference": smallest_gain(game.definition)}
    return result


#: games of the strongest bot in self-play over which its share of optimal moves is counted
OPTIMAL_GAMES = 40


def perfect_distance(game: Game, solved: dict, pairings: list[Pairing], games: int, seed: int) -> dict:
    """How far the ladder's strongest bot is from perfect play in a solved game: the bot (the
    level perfect play was played against), its share of the decided games against perfect play
    with its interval, and its share of optimal moves at the decisions that matter over `games`
    games of itself (`perfect.optimal_share`); in a game too large to solve, why."""
    from boardlab.analysis import engines
    from boardlab.analysis.perfect import optimal_share

    out = dict(solved)
    top = [p for p in pairings if p.agent == "perfect"]
    if not solved["solved"] or not top:
        return out
    p = top[-1]
    # the bot sits in every seat but one: its share per seat, the copies' wins over n - 1
    lo, hi = (x / (p.players - 1) for x in wilson_interval(p.losses, p.decided))
    out["bot"] = p.below
    out["against_perfect"] = {"decided": p.decided, "wins": p.losses,
                              "share": round(p.losses / p.decided / (p.players - 1), 6) if p.decided else None,
                              "ci95": [round(lo, 6), round(hi, 6)], "fair_share": round(p.fair, 6)}
    out["optimal_moves"] = optimal_share(game, engines.agent_factories(game.id)[p.below], games, seed)
    return out


#: why an endgame measure is missing (`endgame_measure`'s "reason"), for the skill command's text
ENDGAME_WHY = {"hidden": "the players do not see each other's hands",
               "too_large": "no decision near a game's end could be solved exactly", "budget": "the CPU budget"}
#: endgame decisions the measure asks for (`endgame_measure`) and the fewest worth measuring
ENDGAME_POSITIONS, ENDGAME_LEAST = 100, 20
#: the probe (`endgame_probe`): cheap games in which some decision near the end must be solved (else
#: the endgames are too large), then the decisions that matter timed for a cost, from at most so many games
ENDGAME_CHECK_GAMES, ENDGAME_PROBE, ENDGAME_PROBE_GAMES = 10, 10, 40


def endgame_probe(game: Game, bot: AgentFactory, seed: int, player: AgentFactory | None) -> tuple[dict, float]:
    """The probe of the endgame measure: `perfect.endgame_share` over its first
    `ENDGAME_CHECK_GAMES` cheap games; when some decision was solved there, again over its first
    `ENDGAME_PROBE` decisions that matter (at most `ENDGAME_PROBE_GAMES` games), timed.  Both are
    the start of the measure's own sample, so the result depends on the seed only; returns it
    with the CPU seconds a decision that matters took (a test fixes it; 0.0 when none was found).
    The bot and the cheap player choose once at the first decision before the clock starts, so a
    compile on first use is not counted as the cost of a decision."""
    import random
    import time

    from boardlab.analysis.perfect import endgame_share
    from boardlab.analysis.protocol import CHANCE

    check = endgame_share(game, bot, ENDGAME_PROBE, seed, player=player, most_games=ENDGAME_CHECK_GAMES)
    if not check["solved"]:
        return check, 0.0
    rng = random.Random(0)  # the warming move only: the sample draws from its own seeds
    state = game.new_initial_state()
    while not state.is_terminal() and state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    if not state.is_terminal():
        for factory in (bot, player) if player is not None else (bot,):
            factory(game).choose(state.clone(), rng)
    start = time.process_time()
    probe = endgame_share(game, bot, ENDGAME_PROBE, seed, player=player, most_games=ENDGAME_PROBE_GAMES)
    return probe, (time.process_time() - start) / max(probe["positions"], 1)


def endgame_measure(game: Game, bot: str, seed: int, budget: Budget | None, model: str,
                    wanted: int = ENDGAME_POSITIONS) -> dict:
    """How often `bot` (the ladder's top level reached) plays an optimal move in the endgames of a
    two-player game too large to solve from its start (`perfect.endgame_share`, its cheap games
    played by the report's model agent `model`, from `seed`): {"measured": True, "bot", "asked":
    the decisions asked, and endgame_share's figures}, else {"measured": False, "bot", "reason"}:
    "hidden" (a player does not see the whole state: a search of it is no player's optimal play),
    "too_large" (the probe found no decision that matters near a game's end that could be solved:
    "games", "limit", "plies" say how far it looked) or "budget" (`budget` as the phase "endgame" could not afford
    `ENDGAME_LEAST` decisions, or all `wanted` when fewer, at the probe's cost; "asked").  The
    decisions asked are `wanted`, or what the budget grants: the only figure the CPU clock may change."""
    from boardlab.analysis import engines
    from boardlab.analysis.budget import Ask
    from boardlab.analysis.perfect import ENDGAME_PLIES, endgame_share

    if game.hidden_information:
        return {"measured": False, "bot": bot, "reason": "hidden"}
    factories = engines.agent_factories(game.id)
    player = None if model == "random" else factories[model]
    probe, cost = endgame_probe(game, factories[bot], seed, player)
    if not probe["positions"]:
        return {"measured": False, "bot": bot, "reason": "too_large", "games": probe["games"], "limit": probe["limit"],
                "plies": ENDGAME_PLIES}
    asked = wanted
    if budget is not None:
        asked = budget.fit("endgame", [Ask(f"endgame decisions of {bot}", cost, wanted, least=min(ENDGAME_LEAST, wanted),
                                           facts={"players": game.players})])[0]
    if not asked:
        return {"measured": False, "bot": bot, "reason": "budget", "asked": wanted}
    measured = endgame_share(game, factories[bot], asked, seed, player=player)
    if budget is not None:
        budget.settle()
    return {"measured": True, "bot": bot, "asked": asked, **measured}


def ladder_result(first: str, pairings: list[Pairing], players: int, games_per_level: int, game: str = "",
                  variant: str = "baseline", seed: int = 1, max_budget: int = 0,
                  stopped: str = "the ladder's top", seconds: float = 0.0) -> dict:
    """The trace's dict for JSON from its counted pairings (level `first` at the bottom): the
    levels with their ratings and intervals, the pairings each marked "distinguished" when the
    ladder's Benjamini-Hochberg selection keeps it, the depth."""
    levels = [first] + [p.agent for p in pairings]
    fit = ratings(levels, pairings) if pairings else Ratings(levels, [0.0], [0.0], [0.0])
    chosen = benjamini_hochberg([p.p_value for p in pairings], ALPHA) if pairings else []
    rows = [{**p.as_dict(), "distinguished": bool(c)} for p, c in zip(pairings, chosen)]
    bounds = at_least(fit, pairings)
    return {"game": game, "variant": variant, "players": players, "seed": seed,
            "games_per_level": games_per_level, "max_budget": max_budget, "fair_share": round(1 / players, 6),
            "levels": [{"agent": name, "budget": budget_of(name), "rating": round(e, 1),
                        "ci95": [round(lo, 1), round(hi, 1)],
                        **({"at_least": round(bounds[name], 1)} if name in bounds else {})}
                       for name, e, lo, hi in zip(fit.levels, fit.elo, fit.low, fit.high)],
            "pairings": rows, "depth": depth(pairings), "stopped": stopped,
            "fit_converged": fit.converged, "seconds": seconds}


def at_least(fit: Ratings, pairings: list[Pairing]) -> dict[str, float]:
    """{level: its least rating} of the levels at or above a step the upper level won outright:
    such a step's Elo difference is set by the fit's prior (the virtual game), so it is counted at
    its one-sided 95% bound instead (`Pairing.elo_at_least`), and every level above it, whose
    rating adds that step, is at least its rating less the prior's excess; the other levels have
    no entry (their ratings are estimates with intervals).

    >>> fit = ratings(["a", "b", "c"], [Pairing("b", "a", 2, wins=120), Pairing("c", "b", 2, wins=70, losses=50)])
    >>> bound = at_least(fit, [Pairing("b", "a", 2, wins=120), Pairing("c", "b", 2, wins=70, losses=50)])
    >>> round(bound["b"], 1), round(bound["c"] - bound["b"], 6) == round(fit.elo[2] - fit.elo[1], 6)
    (638.9, True)
    """
    index = {name: i for i, name in enumerate(fit.levels)}
    excess, out = 0.0, {}  # type: float, dict[str, float]
    for p in pairings:
        groups = p.grouped["groups"] if p.grouped is not None else None
        bound = elo_lower_bound(p.wins, p.decided, p.players, groups=groups)
        if bound is not None:
            excess += fit.elo[index[p.agent]] - fit.elo[index[p.below]] - bound
        if bound is not None or out:
            out[p.agent] = fit.elo[index[p.agent]] - excess
    return out


def rating_chart(result: dict) -> dict:
    """The report chart block of rating against budget (levels in ladder order)."""
    from boardlab.analysis.report.document import chart
    from boardlab.layouts.terms import agent_label

    levels = result["levels"]
    return chart("whiskers", f"skill-{result['players']}-players",
                 f"Rating against budget, {result['players']} players (Elo, random = 0)",
                 categories=[str(v["budget"]) if v["agent"] == f"mcts-{v['budget']}" else agent_label(v["agent"]) for v in levels],
                 values=[v.get("at_least", v["rating"]) for v in levels],
                 low=[v.get("at_least", v["ci95"][0]) for v in levels],
                 high=[v.get("at_least", v["ci95"][1]) for v in levels],  # a lower bound: its point, no whiskers
                 reference=None, scale="rating", x_axis="MCTS budget (iterations per move)", axis="rating (Elo)")


def describe(result: dict) -> str:
    """The plain-text ladder of `boardlab skill`."""
    players = result["players"]
    looks = result.get("sequential", {}).get("looks", [result["games_per_level"]])
    lines = [f"{result['game']} ({result['variant']}), {players} players: skill ladder, "
             f"{', '.join(f'{g:,}' for g in looks)} games per level (a step plays on until it is decided), "
             f"seed {result['seed']}"
             + ("" if players == 2 else f"; the level under test in one seat, the level below in the other "
                                         f"{players - 1}, seats rotating"),
             f"fair share {result['fair_share']:.1%}; a share counts decided games (one winner)",
             "",
             f"{'level':<14} {'rating':>7} {'95% interval':>16}   {'against':<12} {'share':>7} {'95% interval':>16}"
             f" {'decided':>8} {'p':>8}  step"]
    pairs = {p["agent"]: p for p in result["pairings"]}
    for level in result["levels"]:
        row = f"{level['agent']:<14} {level['rating']:7.0f} {level['ci95'][0]:7.0f} .. {level['ci95'][1]:5.0f}" \
            if "at_least" not in level else f"{level['agent']:<14} {'>= ' + format(level['at_least'], '.0f'):>7} {'-':>16}"
        p = pairs.get(level["agent"])
        if p is not None:
            share = f"{p['share']:.1%}" if p["share"] is not None else "-"
            row += (f"   {p['below']:<12} {share:>7} {p['ci95'][0]:7.1%} .. {p['ci95'][1]:6.1%} {p['decided']:8,}"
                    f" {p['p_value']:8.4f}{' *' if p['significant'] else '  '}  {p.get('decision') or '-'}")
        lines.append(row)
    groups = result["depth"] + 1
    lines += ["", f"depth: {result['depth']} step{'s' if result['depth'] != 1 else ''} told apart, {groups} group"
              f"{'s' if groups != 1 else ''} of levels (a step: a level significantly better than the one below, "
              f"false-discovery rate {ALPHA:.0%}); * p < {ALPHA}",
              f"a step is decided 'better' (one-sided binomial p < {ALPHA:g} / {len(LOOKS)} at a look, at the "
              "effective number of decided games of its rotation groups, as its interval) or 'no gain' "
              f"(the share's upper {1 - ALPHA / len(LOOKS):.1%} bound below the fair share plus "
              f"{result.get('sequential', {}).get('difference', 0.05) * 100:g} points); p is the last look's times {len(LOOKS)}",
              f"stopped at: {result['stopped']}; {result['seconds']:,.1f} s of compute recorded in the store"]
    if any("at_least" in level for level in result["levels"]):
        lines.append(">= : a level at or above a step won outright (its rating there set by the fit's prior): its "
                     "least rating, that step counted at its 95% one-sided bound over its rotation groups")
    perfect = result.get("perfect")
    if perfect and not perfect["solved"]:
        from boardlab.analysis.perfect import REASONS
        why = REASONS[perfect["reason"]].format(limit=perfect["limit"])
        lines.append(f"perfect play: too large to solve exhaustively here ({why})")
        e = perfect.get("endgame")
        if e and e["measured"]:
            lines.append(f"endgames: {e['bot']} plays an optimal move at {e['share']:.1%} of {e['positions']:,} decisions "
                         f"that matter, at most {e['plies'][1]} moves before the end (a random move: {e['random_share']:.1%})")
        elif e:
            lines.append(f"endgames: not measured ({ENDGAME_WHY[e['reason']]})")
    elif perfect and "bot" in perfect:
        a, o = perfect["against_perfect"], perfect["optimal_moves"]
        value = f"seat 1's share under perfect play {perfect['value'][0]:.1%}; " if perfect.get("value") else ""
        optimal = f"{o['share']:.1%}" if o["share"] is not None else "-"
        lines.append(f"perfect play: solved ({perfect['positions']:,} positions); {value}{perfect['bot']} wins "
                     f"{a['share']:.1%} of decided games per seat against it (fair {a['fair_share']:.1%}) and plays "
                     f"an optimal move at {optimal} of {o['decisions']:,} decisions where a move loses value")
    if "budget" in result:
        b = result["budget"]
        left = f"; left out: {', '.join(b['left_out'])}" if b["left_out"] else "; nothing left out"
        lines.append(f"CPU budget: {b['cpu_minutes']:g} minutes bought {b['levels_played']} level{'s' if b['levels_played'] != 1 else ''} in "
                     f"{b['cpu_seconds_spent']:,.1f} s of CPU (this process and its local workers){left}")
    return "\n".join(lines)

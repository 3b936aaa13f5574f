"""The statistics of reports, comparisons, sweeps and tuning: one definition of every metric.

Every other command that measures a game (`report`, `compare`, and anything that sweeps or
tunes rule values) takes its numbers from here, so that one name means one computation.
The report glossary (`glossary.GLOSSARY`) defines each metric in words.

Seats are judged on **decided games**: the finished games that have a winner.  A win that
`k` players share gives each of them `1/k` of a game (its *credit*).  A finished game without
a winner and a game stopped at the turn or round cap (unfinished) count for no seat and are
reported beside, never against a seat.  A fair seat wins `1/players` of the decided games.
A *draw* is a finished game without a single winner: a shared win (decided, its credit split)
or no winner at all.

Lengths are measured on **every game**, a game stopped at the turn or round cap counted as
lasting at least that long (censored): the median and 90th percentile come from the
Kaplan-Meier estimate, the mean is the mean up to the cap (a lower bound when games were
stopped), and the share of games stopped at the cap is printed beside every length.

>>> import dataclasses
>>> R = dataclasses.make_dataclass("R", ["winners", "unfinished", "length"])
>>> games = [R((0,), False, 10), R((1,), False, 12), R((0, 1), False, 11), R((), False, 9), R((), True, 50)]
>>> c = seat_counts(games, 2)
>>> c["decided"], c["credits"], c["shared"], c["no_winner"], c["draws"], c["unfinished"]
(3, [1.5, 1.5], 1, 1, 2, 1)
>>> format_p(0.0)
'< 0.001'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce
from statistics import NormalDist
from typing import TYPE_CHECKING, Callable, Hashable, Iterable, Iterator, Sequence, Union

from boardlab.analysis.stats import benjamini_hochberg, describe_censored_lengths, format_p, wilson_interval

if TYPE_CHECKING:
    from boardlab.analysis.runner import GameRecord

#: a metric's per-game series: the values (each over 1 game), or (numerators, denominators)
Series = Union[Sequence[float], tuple[Sequence[float], Sequence[float]]]

#: the significance level of every test (two-sided)
ALPHA = 0.05
#: the power at which a report states the smallest difference its games could detect
POWER = 0.80
#: the false-discovery rate at which a report selects its findings (Benjamini-Hochberg)
FDR = 0.05
#: the smallest change of a win share a designer cares about, unless the definition's
#: `[analysis] difference` says otherwise (5 points)
DESIGNER_DIFFERENCE = 0.05

Z95 = NormalDist().inv_cdf(1 - ALPHA / 2)
Z_POWER = NormalDist().inv_cdf(POWER)
#: expected decided games per seat below which the equality test is exact rather than chi-square
EXACT_BELOW = 5


# --- seats -------------------------------------------------------------------------------------

def seat_credits(record: GameRecord, players: int) -> list[float]:
    """A game's credit per seat: 1/k to each of its k winners; all zeros for an unfinished game or
    one without a winner."""
    if record.unfinished or not record.winners:
        return [0.0] * players
    part = 1 / len(record.winners)
    credits = [0.0] * players
    for seat in record.winners:
        credits[seat] += part
    return credits


def is_decided(record: GameRecord) -> bool:
    """A finished game with at least one winner."""
    return not record.unfinished and bool(record.winners)


def seat_counts(records: Iterable[GameRecord], players: int) -> dict:
    """Seat results of `records` counted on decided games (see the module docstring).

    Credits are summed exactly (in units of 1/lcm(1..players)) and returned rounded to 6
    decimals (whole numbers as int).  Returns {"games", "decided", "credits" (per seat),
    "shared" (decided games with several winners), "no_winner" (finished without a winner),
    "draws" (shared + no_winner: no single winner), "unfinished"}.
    """
    unit = reduce(lambda a, b: a * b // math.gcd(a, b), range(1, players + 1), 1)
    scaled = [0] * players
    decided = shared = no_winner = unfinished = games = 0
    for r in records:
        games += 1
        if r.unfinished:
            unfinished += 1
        elif not r.winners:
            no_winner += 1
        else:
            decided += 1
            shared += len(r.winners) > 1
            for seat in r.winners:
                scaled[seat] += unit // len(r.winners)
    return {"games": games, "decided": decided, "credits": [_whole(round(s / unit, 6)) for s in scaled],
            "shared": shared, "no_winner": no_winner, "draws": shared + no_winner, "unfinished": unfinished}


def _whole(x: float) -> float:
    return int(x) if float(x).is_integer() else x


def score_test(successes: float, trials: int, p0: float) -> float:
    """Two-sided p-value of the score test of a proportion `p0`: the test whose 95% acceptance
    region is exactly the Wilson interval (so a seat whose interval excludes the fair share has
    p < 0.05).  `successes` may be fractional (shared wins); 1.0 with no trials.

    >>> round(score_test(60, 100, 0.5), 4)
    0.0455
    """
    if trials == 0:
        return 1.0
    z = (successes - trials * p0) / math.sqrt(trials * p0 * (1 - p0))
    return 2 * NormalDist().cdf(-abs(z))


def minimum_detectable_difference(trials: int, p0: float) -> float | None:
    """The smallest difference from a share `p0` that `trials` decided games detect with 80% power
    at the 5% level (two-sided, normal approximation); None with no trials.

    >>> round(minimum_detectable_difference(2400, 0.5), 4)
    0.0286
    """
    if trials <= 0:
        return None
    return (Z95 + Z_POWER) * math.sqrt(p0 * (1 - p0) / trials)


def trials_needed(difference: float, p0: float) -> int:
    """Decided games needed to detect `difference` from a share `p0` (80% power, 5% level).

    >>> trials_needed(0.05, 0.5)
    785
    """
    return math.ceil((Z95 + Z_POWER) ** 2 * p0 * (1 - p0) / difference ** 2)


def power_statement(trials: int, p0: float, difference: float, decided_share: float = 1.0) -> dict:
    """What a test of a share against `p0` on `trials` decided games could detect.

    {"mdd": smallest detectable difference, "enough": whether it is at most `difference`,
    "games_needed": games to play (decided games needed / `decided_share`) to detect `difference`}.
    """
    mdd = minimum_detectable_difference(trials, p0)
    need = trials_needed(difference, p0)
    return {"mdd": None if mdd is None else round(mdd, 6), "difference": difference,
            "enough": mdd is not None and mdd <= difference,
            "games_needed": math.ceil(need / decided_share) if decided_share > 0 else None}


def exact_multinomial_test(counts: list[int]) -> float:
    """Exact p-value that whole-number `counts` come from equally likely categories: the total
    probability of every outcome with the same total that is no more likely than the one seen.

    Outcomes are enumerated as partitions (each weighted by its number of orderings), so a few
    dozen games among a dozen seats stay fast; see `_exact_multinomial_brute` for the obvious twin.

    >>> round(exact_multinomial_test([5, 0]), 4)
    0.0625
    """
    n, total = len(counts), sum(counts)
    if total == 0 or n < 2:
        return 1.0
    log_n = math.log(n)

    def logp(parts: Sequence[int]) -> float:
        return math.lgamma(total + 1) - sum(math.lgamma(k + 1) for k in parts) - total * log_n

    seen = logp(counts)
    p = 0.0
    for parts in _partitions(total, n, total):
        lp = logp(parts)
        if lp <= seen + 1e-9:
            full = list(parts) + [0] * (n - len(parts))
            orderings = math.factorial(n)
            for value in set(full):
                orderings //= math.factorial(full.count(value))
            p += orderings * math.exp(lp)
    return min(1.0, p)


def _partitions(total: int, parts: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Non-increasing tuples of at most `parts` positive integers, each <= `largest`, summing to `total`."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first,) + rest


def _exact_multinomial_brute(counts: list[int]) -> float:
    """`exact_multinomial_test` by listing every ordered outcome (slow; the test's twin)."""
    import itertools
    n, total = len(counts), sum(counts)

    def prob(parts: Sequence[int]) -> float:
        return math.factorial(total) / math.prod(math.factorial(k) for k in parts) / n ** total

    seen = prob(counts)
    return min(1.0, sum(prob(c) for c in itertools.product(range(total + 1), repeat=n)
                        if sum(c) == total and prob(c) <= seen * (1 + 1e-9)))


def _whole_counts(credits: list[float], total: int) -> list[int]:
    """Credits rounded to whole games that still sum to `total` (largest remainders first)."""
    floors = [math.floor(c + 1e-9) for c in credits]
    order = sorted(range(len(credits)), key=lambda i: (-(credits[i] - floors[i]), i))
    for i in order[:total - sum(floors)]:
        floors[i] += 1
    return floors


def equality_test(credits: list[float], decided: int) -> dict:
    """Test that every seat wins an equal share of the decided games.

    Pearson's chi-square (players - 1 degrees of freedom) when every seat expects at least
    `EXACT_BELOW` decided games; below that the exact multinomial test, on the credits rounded
    to whole games.  {"test", "statistic", "df", "p_value"}.

    >>> t = equality_test([60, 40], 100)
    >>> t["test"], t["statistic"], round(t["p_value"], 4)
    ('chi-square', 4.0, 0.0455)
    """
    n = len(credits)
    if decided == 0:
        return {"test": "none (no decided game)", "statistic": None, "df": n - 1, "p_value": 1.0}
    expected = decided / n
    if expected < EXACT_BELOW:
        return {"test": "exact multinomial", "statistic": None, "df": n - 1,
                "p_value": exact_multinomial_test(_whole_counts(credits, decided))}
    from scipy.stats import chi2  # here: scipy.stats costs half a second that `report --help` need not pay

    statistic = sum((c - expected) ** 2 for c in credits) / expected
    return {"test": "chi-square", "statistic": round(statistic, 6), "df": n - 1,
            "p_value": float(chi2.sf(statistic, n - 1))}


def equivalence_test(successes: float, trials: int, p0: float, margin: float) -> dict:
    """Two one-sided tests (TOST) that a share lies within `margin` of `p0`: the score test of
    H0 "share <= p0 - margin" and of H0 "share >= p0 + margin", each at the 5% level; the
    share is shown equivalent when both are rejected (p, the larger of the two p-values, below
    0.05), exactly when its 90% Wilson interval lies inside (p0 - margin, p0 + margin).  A bound
    outside [0, 1] is no hypothesis (its p-value 0).  "up_to": the farthest the share could
    still be from `p0` by that interval (the smallest margin these games show).

    >>> t = equivalence_test(5100, 10000, 0.5, 0.05)
    >>> t["equivalent"], round(t["p_value"], 6), round(t["up_to"], 4)
    (True, 0.0, 0.0182)
    >>> equivalence_test(51, 100, 0.5, 0.05)["equivalent"]
    False
    """
    from scipy.stats import norm

    if trials == 0:
        return {"margin": margin, "p_value": 1.0, "equivalent": False, "up_to": None}

    def score_z(bound: float) -> float:
        return (successes - trials * bound) / math.sqrt(trials * bound * (1 - bound))

    low, high = p0 - margin, p0 + margin
    p_low = float(norm.sf(score_z(low))) if low > 0 else 0.0  # H0: share <= low
    p_high = float(norm.cdf(score_z(high))) if high < 1 else 0.0  # H0: share >= high
    p = max(p_low, p_high)
    lo, hi = wilson_interval(successes, trials, 1 - 2 * ALPHA)
    return {"margin": margin, "p_value": p, "equivalent": p < ALPHA, "up_to": round(max(p0 - lo, hi - p0), 6)}


def equivalence_trials_needed(p0: float, margin: float, seats: int = 1, observed: float = 0.0) -> int:
    """Decided games for the equivalence test to show a share at `p0` within `margin` with 80%
    power (normal approximation: (z_0.95 + z_b)^2 p0 (1 - p0) / (margin - observed)^2).  With
    `seats` shares to show at once (the seats' intersection-union test), each must succeed with
    probability 1 - 0.2 / seats (a union bound: z_b = z at 1 - 0.1 / seats); two seats' shares
    are one share seen twice, so two count as one.  `observed`: the farthest share from `p0` so
    far, when it is inside the margin (the games it takes if the shares stay where they are).

    >>> equivalence_trials_needed(0.5, 0.05), equivalence_trials_needed(0.5, 0.05, seats=2)
    (857, 857)
    >>> equivalence_trials_needed(1 / 7, 0.05, seats=7), equivalence_trials_needed(1 / 7, 0.05, seats=7, observed=0.02)
    (721, 2001)
    """
    tests = 1 if seats <= 2 else seats
    z = NormalDist().inv_cdf(1 - ALPHA) + NormalDist().inv_cdf(1 - (1 - POWER) / (2 * tests))
    room = margin - observed if 0 <= observed < margin else margin
    return math.ceil(z * z * p0 * (1 - p0) / room ** 2)


def seats_equivalence(credits: list[float], decided: int, margin: float, decided_share: float = 1.0) -> dict:
    """Are the seats balanced: does every seat's share of the decided games lie within `margin`
    of the fair share 1/players?  Each seat's `equivalence_test`; the seats together are shown
    balanced when every one is (an intersection-union test: the largest p-value, at the 5% level,
    with no correction needed).  {"margin", "p_value", "equivalent", "up_to" (the farthest any
    seat could still be from fair), "by_seat" (p-values), "games_needed" (games to play to show
    it, at the decided share)}.

    >>> seats_equivalence([20400, 19600], 40000, 0.05)["equivalent"]
    True
    >>> s = seats_equivalence([204, 196], 400, 0.05)
    >>> s["equivalent"], s["up_to"] > 0.05
    (False, True)
    """
    fair = 1 / len(credits)
    tests = [equivalence_test(c, decided, fair, margin) for c in credits]
    ups = [t["up_to"] for t in tests if t["up_to"] is not None]
    observed = max(abs(c / decided - fair) for c in credits) if decided else 0.0
    need = max(equivalence_trials_needed(fair, margin, len(credits)),
               equivalence_trials_needed(fair, margin, len(credits), observed))
    return {"margin": margin, "p_value": max(t["p_value"] for t in tests), "equivalent": all(t["equivalent"] for t in tests),
            "up_to": max(ups) if ups else None, "by_seat": [t["p_value"] for t in tests],
            "games_needed": math.ceil(need / decided_share) if decided_share > 0 else None}


def balance(rates: Sequence[float]) -> float:
    """1 minus the gap between the best and the worst seat's share (1: perfectly even).

    >>> balance([0.5, 0.3, 0.2])
    0.7
    """
    return round(1 - (max(rates) - min(rates)), 6) if rates else 1.0


def first_player_advantage(credit_first: float, decided: int, players: int,
                           difference: float = DESIGNER_DIFFERENCE, decided_share: float = 1.0) -> dict:
    """Seat 1's share of the decided games minus the fair share 1/players, with the Wilson 95%
    interval (as a difference), the score-test p-value and what the games could detect.

    >>> a = first_player_advantage(60, 100, 2)
    >>> a["advantage"], [round(x, 3) for x in a["ci95"]], round(a["p_value"], 4)
    (0.1, [0.002, 0.191], 0.0455)
    """
    fair = 1 / players
    lo, hi = wilson_interval(credit_first, decided)
    rate = credit_first / decided if decided else 0.0
    return {"fair_share": round(fair, 6), "rate": round(rate, 6), "advantage": round(rate - fair, 6),
            "ci95": [round(lo - fair, 6), round(hi - fair, 6)], "p_value": score_test(credit_first, decided, fair),
            "decided": decided, "power": power_statement(decided, fair, difference, decided_share)}


def seat_statistics(records: Iterable[GameRecord], players: int, difference: float = DESIGNER_DIFFERENCE) -> dict:
    """Everything a report says about the seats of `records` (see the module docstring).

    The counts of `seat_counts`, and "by_seat": [{"wins" (credit), "share", "ci95", "p_value"}],
    "equality" (`equality_test`), "equivalence" (`seats_equivalence` within `difference`: are
    the seats shown balanced), "balance", "first_player_advantage", "decided_share",
    "draw_share", "unfinished_share": seat shares are of decided games; the decided, draw and
    unfinished shares are of all games.
    """
    c = seat_counts(records, players)
    decided, fair = c["decided"], 1 / players
    by_seat = []
    for credit in c["credits"]:
        lo, hi = wilson_interval(credit, decided)
        by_seat.append({"wins": credit, "share": round(credit / decided, 6) if decided else 0.0,
                        "ci95": [round(lo, 6), round(hi, 6)], "p_value": score_test(credit, decided, fair)})
    games = c["games"]
    decided_share = decided / games if games else 0.0
    return {**c, "fair_share": round(fair, 6), "by_seat": by_seat, "equality": equality_test(c["credits"], decided),
            "equivalence": seats_equivalence(c["credits"], decided, difference, decided_share),
            "balance": balance([s["share"] for s in by_seat]),
            "first_player_advantage": first_player_advantage(c["credits"][0], decided, players, difference,
                                                             decided_share),
            "decided_share": share(decided, games), "draw_share": share(c["draws"], games),
            "unfinished_share": share(c["unfinished"], games)}


def share(count: int, total: int) -> dict:
    """A count as a share with its Wilson 95% interval."""
    lo, hi = wilson_interval(count, total)
    return {"count": count, "share": round(count / total, 6) if total else 0.0, "ci95": [round(lo, 6), round(hi, 6)]}


# --- length ------------------------------------------------------------------------------------

def length_statistics(records: Sequence[GameRecord]) -> dict:
    """Length of the games (mean, median, 90th percentile, min, max), the games stopped at the cap
    censored there (`stats.describe_censored_lengths`: Kaplan-Meier; "at_least" marks the figures
    the stopped games make lower bounds), and beside it how many games were stopped at the cap:
    {"finished_games", "games", "capped": `share`, "estimate", ...}."""
    return lengths_statistics([r.length for r in records if not r.unfinished],
                              [r.length for r in records if r.unfinished])


def lengths_statistics(finished: Sequence[float], stopped: Sequence[float]) -> dict:
    """`length_statistics` of the lengths of the finished games and of those stopped at the cap."""
    games = len(finished) + len(stopped)
    return {**describe_censored_lengths(finished, stopped), "finished_games": len(finished), "games": games,
            "capped": share(len(stopped), games),
            "estimate": "Kaplan-Meier, games stopped at the cap censored there"}


# --- headline metrics: one table --------------------------------------------------------------

@dataclass(frozen=True)
class Metric:
    """One headline metric, as every command that measures a game reads it.

    `id` is its name in commands (`tune --goal draws<=5%`), in JSON and in code; `aliases` are
    the names it had before, still understood by `metric`.  Its name in each language is the
    term `report.metric.ID` (`Metric.label`), and for a metric a sweep shows, its description
    the term `report.metric.ID.how` (`Metric.description`).  `unit` says what a value is: "share" (of games),
    "points" (a difference of shares), "balance" (0 to 1), "length" (the game's turns or rounds)
    or "minutes" (at the table).  `formats` are the report's cell formats of a value, of a
    difference of two values and of an interval (`document.format_cell`).  `direction` says
    which way is better and so what a verdict aims at (`Metric.target`): "fair" (the fair share
    1/players), "zero", "higher", "lower", or "stated" (the definition's playing time).  `counts`
    names the games it is a ratio over, `how` says in words how it is computed from a game's
    tallies (the censoring included).

    `series(records, players)` gives, per game, the numerator and denominator of the metric
    (its value is sum(numerators) / sum(denominators)): the paired comparisons of `report` and
    `compare` take the differences of these (`paired_ratio_difference`), and a sweep point's
    value and 95% interval come from them too (`point_value`): a Wilson interval for a share of
    games, the normal interval of a mean otherwise.  `paired` and `sweep` say which commands
    show it (a sweep and `tune` read the sweep's metrics); `least_players` is the least player
    count it exists at; a metric with `per_minute` is the length at the definition's pace.
    """

    id: str
    aliases: tuple[str, ...]
    unit: str
    formats: tuple[str, str, str]
    direction: str
    counts: str
    how: str
    series: Callable[[Sequence, int], tuple[list[float], list[int]]] | None = None
    paired: bool = True
    sweep: bool = True
    least_players: int = 2
    per_minute: bool = False
    shift_by_fair: bool = False

    def description(self) -> str:
        """How it is computed and over which games, in the language being written: the term
        `report.metric.ID.how` (a sweep's glossary); in English `how` and `counts` as one sentence,
        which tests/test_metric_table.py holds the English table to."""
        from boardlab.layouts.terms import term

        return term(f"report.metric.{self.id}.how")

    def label(self, unit: str = "") -> str:
        """Its name in the language being written, a length with the game's unit ("mean length (rounds)")."""
        from boardlab.layouts.terms import term, word

        name = term(f"report.metric.{self.id}")
        return f"{name} ({word(unit)})" if self.unit == "length" and unit else name

    @property
    def is_share(self) -> bool:
        """Whether a value is a share of games (or a difference of shares): a goal may be written in %."""
        return self.unit in ("share", "points", "balance")

    def target(self, players: int, stated_length: float | None = None) -> float | None:
        """The value a verdict aims at: the fair share, 0, 1 or the stated length (None: none stated).

        >>> metric("draws").target(4), metric("seat_1_share").target(4), metric("length").target(2, 30.0)
        (0.0, 0.25, 30.0)
        """
        return {"fair": 1 / players, "zero": 0.0, "lower": 0.0, "higher": 1.0,
                "stated": stated_length}[self.direction]


def _seat_1(records: Sequence[GameRecord], players: int) -> tuple[list[float], list[int]]:
    decided = [int(is_decided(r)) for r in records]
    return [seat_credits(r, players)[0] for r in records], decided


def _last_seat(records: Sequence[GameRecord], players: int) -> tuple[list[float], list[int]]:
    decided = [int(is_decided(r)) for r in records]
    return [seat_credits(r, players)[-1] for r in records], decided


def _length(records: Sequence[GameRecord], players: int) -> tuple[list[float], list[int]]:
    return [r.length for r in records], [1] * len(records)


def _draws(records: Sequence[GameRecord], players: int) -> tuple[list[float], list[int]]:
    return [int(not r.unfinished and len(r.winners) != 1) for r in records], [1] * len(records)


def _capped(records: Sequence[GameRecord], players: int) -> tuple[list[float], list[int]]:
    return [int(r.unfinished) for r in records], [1] * len(records)


#: every headline metric, in the order reports, comparisons, sweeps and `tune` show them
HEADLINE: tuple[Metric, ...] = (
    Metric("balance", (), "balance", ("f3", "sf3", "ci_f3"), "higher", "decided games",
           "1 minus the gap between the seats with the highest and the lowest share of the decided games "
           "(a shared win counts as its share)", None, paired=False),
    Metric("first_player_advantage", ("first-player advantage",), "points", ("pp", "pp", "ci_pp"), "zero",
           "decided games", "seat 1's share of the decided games minus the fair share 1/players", _seat_1,
           paired=False, shift_by_fair=True),
    Metric("seat_1_share", ("seat 1 win share",), "share", ("pct", "pp", "ci_pp"), "fair", "decided games",
           "seat 1's credit (a shared win counts as its share) over the decided games", _seat_1, sweep=False),
    Metric("last_seat_share", ("last seat win share",), "share", ("pct", "pp", "ci_pp"), "fair", "decided games",
           "the last seat's credit over the decided games (with more than two players; with two it is one minus "
           "seat 1's)", _last_seat, sweep=False, least_players=3),
    Metric("minutes", ("table minutes",), "minutes", ("f1", "sf1", "ci_f1"), "stated", "all games",
           "the mean length times the definition's pace (seconds per turn or round), a game stopped at the cap "
           "counted at the cap (the Kaplan-Meier mean up to the cap): at least the true mean when games are "
           "stopped, so read it beside the capped share", _length, paired=False, per_minute=True),
    Metric("median_minutes", ("median table minutes",), "minutes", ("f1", "sf1", "ci_f1"), "stated", "all games",
           "the median length (Kaplan-Meier, a game stopped at the cap counted as lasting at least that long) "
           "times the definition's pace, the statistic of the verdict's time line; its 95% interval from the "
           "order statistics of the lengths (distribution-free, `median_interval`)", _length, paired=False,
           per_minute=True),
    Metric("length", ("mean length",), "length", ("f1", "sf1", "ci_f1"), "stated", "all games",
           "the mean length in turns or rounds, a game stopped at the cap counted at the cap (the Kaplan-Meier "
           "mean up to the cap): at least the true mean when games are stopped, so read it beside the capped "
           "share", _length),
    Metric("draws", ("draw share",), "share", ("pct", "pp", "ci_pp"), "lower", "all games",
           "finished games without a single winner (a shared win or none) over all games", _draws),
    Metric("capped", ("unfinished share", "unfinished"), "share", ("pct", "pp", "ci_pp"), "lower", "all games",
           "games stopped at the turn or round cap over all games", _capped),
)

#: the names of the metrics every comparison of two rule sets reports (kept for older callers)
HEADLINE_METRICS = tuple(m.id for m in HEADLINE if m.paired)


def metric(name: str) -> Metric:
    """The headline metric called `name` (its id or an older name).

    >>> metric("draw share").id, metric("capped").label()
    ('draws', 'unfinished share')

    :raises KeyError: for a name no headline metric has.
    """
    for m in HEADLINE:
        if name == m.id or name in m.aliases:
            return m
    raise KeyError(name)


def find_metric(name: str) -> Metric | None:
    """`metric`, or None for a name that is no headline metric (a game's own figure)."""
    try:
        return metric(name)
    except KeyError:
        return None


def headline_series(records: Sequence[GameRecord], players: int) -> dict[str, tuple[list[float], list[int]]]:
    """Per game, the numerator and denominator of every paired headline metric (`HEADLINE`) that
    exists at `players` (the last seat's share not with two: it is one minus seat 1's)."""
    return {m.id: m.series(records, players) for m in HEADLINE
            if m.paired and m.series is not None and players >= m.least_players}


def mean_interval(values: Sequence[float]) -> dict:
    """Mean with its normal 95% interval (a single point when every value is the same).

    >>> mean_interval([1, 2, 3])["ci95"]
    [0.868414, 3.131586]
    """
    n = len(values)
    if not n:
        return {"value": None, "ci95": [None, None], "n": 0}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"value": round(mean, 6), "ci95": [round(mean - half, 6), round(mean + half, 6)], "n": n}


def median_ranks(n: int) -> tuple[int, int]:
    """The ranks (1-based, smallest first) of the order statistics that bound the median of `n`
    values with at least 95% confidence, whatever their distribution: x_(j) and x_(n + 1 - j) for
    the largest j with P(B < j) <= 2.5%, B binomial(n, 1/2) (the count of values below the true
    median).  Fewer than 6 values have no such j: (1, n), which covers less than 95%.

    >>> median_ranks(10), median_ranks(20), median_ranks(3)
    ((2, 9), (6, 15), (1, 3))
    """
    from scipy.stats import binom

    j = int(binom.ppf(ALPHA / 2, n, 0.5))  # the smallest k with P(B <= k) >= 2.5%
    if binom.cdf(j, n, 0.5) <= ALPHA / 2:
        j += 1
    j = max(j, 1)
    return j, n + 1 - j


def median_interval(finished: Sequence[float], stopped: Sequence[float]) -> dict:
    """The median length of games some of which were stopped at the cap (`stopped`, lasting at
    least that long) with its distribution-free 95% interval (`median_ranks`): {"value", "ci95",
    "n", "at_least", "capped"}.  The value is the Kaplan-Meier median (`describe_censored_lengths`);
    the interval's ends are order statistics of every game's length, a stopped game sorted after
    every finished one (its true length is at least the cap, no finished game is longer), so an
    end that falls on a stopped game is the cap: a lower bound.

    >>> median_interval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [])["ci95"]
    [2.0, 9.0]
    >>> d = median_interval([1, 2, 3, 4, 5, 6, 7], [50, 50, 50])
    >>> d["value"], d["ci95"], d["at_least"], d["capped"]
    (5.5, [2.0, 50.0], False, 0.3)
    """
    n = len(finished) + len(stopped)
    if not n:
        return {**NOTHING, "at_least": False, "capped": 0.0}
    described = describe_censored_lengths(finished, stopped)
    ordered = sorted(float(x) for x in finished) + sorted(float(x) for x in stopped)
    low, high = median_ranks(n)
    return {"value": round(described["median"], 6), "ci95": [ordered[low - 1], ordered[high - 1]], "n": n,
            "at_least": bool(described["at_least"]["median"]), "capped": round(len(stopped) / n, 6)}


def balance_interval(wins: Sequence[float], decided: int) -> dict:
    """The seat balance of `wins` (per seat, of `decided` games) with a 95% interval.

    Each seat's share gets a Wilson interval at the level 1 - 0.05 / seats, so that all of them
    hold at once with at least 95% (Bonferroni); the true gap between the best and the worst
    seat then lies between the smallest and the largest gap those intervals allow, and the
    balance (1 minus the gap) between 1 minus each.

    >>> b = balance_interval([250, 250, 250, 250], 1000)
    >>> b["value"], b["ci95"][1], round(b["ci95"][0], 3)
    (1.0, 1.0, 0.932)
    """
    seats = len(wins)
    bounds = [wilson_interval(w, decided, 1 - 0.05 / seats) for w in wins]
    widest = max(hi for _, hi in bounds) - min(lo for lo, _ in bounds)
    narrowest = max(0.0, max(lo for lo, _ in bounds) - min(hi for _, hi in bounds))
    return {"value": balance([w / decided for w in wins]), "ci95": [round(1 - widest, 6), round(1 - narrowest, 6)],
            "n": decided}


NOTHING = {"value": None, "ci95": [None, None], "n": 0}


def share_value(hits: float, counted: int, shift: float = 0.0) -> dict:
    """A share of `hits` in `counted` (less `shift`: the fair share, for an advantage) as a point's
    metric: {"value", "ci95", "ci90", "n"} and "shift" when there is one, its Wilson intervals (the
    90% one for an equivalence test, `tune`'s ~ goals), as `point_value` and a sweep's tallies give
    it; value + shift is the share, so that its interval at another level can be had
    (`tune.at_level`).

    >>> share_value(60, 100, 0.5)
    {'value': 0.1, 'ci95': [0.002003, 0.190599], 'ci90': [0.01781, 0.176922], 'n': 100, 'shift': 0.5}
    """
    lo, hi = wilson_interval(hits, counted)
    lo90, hi90 = wilson_interval(hits, counted, 1 - 2 * ALPHA)
    out = {"value": round(hits / counted - shift, 6), "ci95": [round(lo - shift, 6), round(hi - shift, 6)],
           "ci90": [round(lo90 - shift, 6), round(hi90 - shift, 6)], "n": counted}
    return {**out, "shift": shift} if shift else out


def point_value(m: Metric, records: Sequence[GameRecord], players: int, seconds: float | None = None) -> dict | None:
    """One metric of a set of games as {"value", "ci95", "n"} (n: the games it counts over), as a
    sweep point and `tune` read it; None for a metric these games cannot have (the last seat
    with two players, minutes without a pace).

    A share of games (or its difference from the fair share) has the Wilson interval of
    sum(numerators) of sum(denominators); a length the normal interval of the mean of the
    counted games; minutes are the length at `seconds` a turn or round.

    >>> import dataclasses
    >>> R = dataclasses.make_dataclass("R", ["winners", "unfinished", "length"])
    >>> games = [R((0,), False, 10), R((1,), False, 20), R((0,), False, 30), R((), True, 99)]
    >>> point_value(metric("capped"), games, 2)["value"], point_value(metric("minutes"), games, 2, 30)["value"]
    (0.25, 19.875)
    >>> point_value(metric("length"), games, 2)["at_least"]
    True
    """
    if players < m.least_players or (m.per_minute and not seconds):
        return None
    if m.id == "balance":
        c = seat_counts(records, players)
        return balance_interval(c["credits"], c["decided"]) if c["decided"] else dict(NOTHING)
    if m.id == "median_minutes":
        out = median_interval([r.length for r in records if not r.unfinished], [r.length for r in records if r.unfinished])
        if out["value"] is None:
            return out
        scale = (seconds or 0) / 60
        return {**out, "value": round(out["value"] * scale, 6), "ci95": [round(x * scale, 6) for x in out["ci95"]]}
    assert m.series is not None
    numerators, denominators = m.series(records, players)
    counted = sum(denominators)
    if m.unit in ("share", "points"):
        if not counted:
            return dict(NOTHING)
        return share_value(math.fsum(numerators), counted, 1 / players if m.shift_by_fair else 0.0)
    out = mean_interval([x for x, d in zip(numerators, denominators) if d])
    stopped = sum(1 for r in records if r.unfinished)
    if out["value"] is not None:  # the figure is a lower bound: games stopped at the cap counted at the cap
        out["at_least"] = stopped > 0
        out["capped"] = round(stopped / len(records), 6)
    if m.per_minute and out["value"] is not None:
        scale = (seconds or 0) / 60
        out = {**out, "value": round(out["value"] * scale, 6), "ci95": [round(x * scale, 6) for x in out["ci95"]]}
    return out


def _linearised(variant: Series, baseline: Series,
                groups: Sequence[Hashable] | None = None) -> tuple[int, float | None, float | None, list[float]]:
    """(n, baseline ratio, variant ratio, per-unit linearised differences) of two paired series,
    each a plain list of values (denominator 1) or a (numerators, denominators) pair; the unit is
    the pair of games, or with `groups` (one key per pair) the rotation group.

    A ratio R = sum(x) / sum(d) over k units is, to first order, the mean of
    (x_u - R d_u) / mean(d) around R (the delta method), x_u and d_u a unit's sums; the per-unit
    difference of those terms carries the variance of the difference of the two ratios, the
    pairing and (with groups) the dependence of the games of a group included: summed per group
    they are the cluster-robust (sandwich) terms.
    """
    (xv, dv), (xb, db) = _pair(variant), _pair(baseline)
    n = len(xv)
    if n == 0 or len(xb) != n or len(dv) != n or len(db) != n:
        raise ValueError("paired series must have the same, non-zero length")
    if groups is not None:
        if len(groups) != n:
            raise ValueError("one rotation group per pair of games is needed")
        xv, dv, xb, db = (group_sums(values, groups) for values in (xv, dv, xb, db))
    k = len(xv)
    sv, sb = sum(dv), sum(db)
    rv, rb = (sum(xv) / sv if sv else None), (sum(xb) / sb if sb else None)
    if rv is None or rb is None:
        return n, rb, rv, []
    mv, mb = sv / k, sb / k
    diffs = [(a - rv * c) / mv - (b - rb * e) / mb for a, c, b, e in zip(xv, dv, xb, db)]
    return n, rb, rv, diffs


def group_sums(values: Iterable[float], groups: Iterable[Hashable]) -> list[float]:
    """The sums of `values` per group (`groups`: one key per value), in the order the groups first appear.

    >>> group_sums([1, 0, 1, 1, 0], [0, 0, 1, 1, 2])
    [1, 2, 0]
    """
    totals: dict = {}
    for v, g in zip(values, groups):
        totals[g] = totals.get(g, 0) + v
    return list(totals.values())


def pair_groups(baseline_deals: Iterable[int], variant_deals: Iterable[int], players: int) -> list[int]:
    """The rotation group of each pair of games of a paired comparison (game i of the baseline
    with game i of the variant, on the same seed): the deal, when both sides played game i on
    the same deal (the usual case: the same seat rotation on both sides); when one side rotates
    its deals and the other gives every game a deal of its own, the rotating side's group (the
    block i // players), which holds the other side's games of those indices too.

    >>> pair_groups([0, 0, 1, 1], [0, 0, 1, 1], 2), pair_groups([0, 0, 1, 1], [0, 1, 2, 3], 2)
    ([0, 0, 1, 1], [0, 0, 1, 1])
    """
    base, var = list(baseline_deals), list(variant_deals)
    if base == var:
        return base
    return [i // players for i in range(len(base))]


def _pair(series: Series) -> tuple[list[float], list[float]]:
    if isinstance(series, tuple) and len(series) == 2 and isinstance(series[0], (list, tuple)):
        return list(series[0]), list(series[1])
    return list(series), [1] * len(series)


def _spread(diffs: list, games: int) -> tuple[float, float]:
    """(sd, se) of a paired difference from its per-unit linearised terms over `games` games: se
    the cluster-robust standard error (k / (k - 1) times the sum of squared unit terms, over k
    squared), sd its per-game equivalent (se = sd / sqrt(games)), the design effect of the
    groups included, so that `paired_games_needed` counts games."""
    k = len(diffs)
    var = sum(d * d for d in diffs) / (k - 1) if k > 1 else 0.0  # the linearised terms have mean 0
    se = math.sqrt(var / k) if k else 0.0
    return (math.sqrt(var) if k == games else math.sqrt(var * games / k)), se


def paired_ratio_difference(variant: Series, baseline: Series, groups: Sequence[Hashable] | None = None,
                            games: int | None = None) -> dict:
    """Variant minus baseline of a metric over games played on the same seeds, with a 95% interval.

    Each side is a list of per-game values (their mean) or a (numerators, denominators) pair
    (their ratio of sums, e.g. seat 1's credit over decided games).  The unit is the rotation
    group (`groups`: each pair's group, `pair_groups`), else the pair of games; or the two sides
    are already per-group sums, one entry a group, with `games` the games they hold (what
    `compare.Tally` keeps).  The interval is the normal one on the per-unit linearised
    differences (`_linearised`), the cluster-robust variance over the groups (for plain values
    and single games, the per-game differences themselves); significant when it excludes 0.  With
    no variation at all (identical games) the interval is the single point of the difference.
    "sd" is the per-game spread equivalent (`_spread`), "mdd" the smallest difference these games
    detect with 80% power at the 5% level (None when they never differ).

    :raises ValueError: when the two series differ in length or are empty.
    """
    n, rb, rv, diffs = _linearised(variant, baseline, groups)
    n = games or n
    if rb is None or rv is None:
        return {"baseline": None if rb is None else round(rb, 6), "variant": None if rv is None else round(rv, 6),
                "difference": None, "ci95": None, "p_value": 1.0, "significant": False, "games": n, "sd": None,
                "mdd": None, "groups": len(_pair(variant)[0]) if groups is None else len(set(groups))}
    mean = rv - rb
    sd, se = _spread(diffs, n)
    lo, hi = mean - Z95 * se, mean + Z95 * se
    if se > 0:
        p = 2 * NormalDist().cdf(-abs(mean) / se)
    else:
        p = 1.0 if abs(mean) < 1e-12 else 0.0
    return {"baseline": round(rb, 6), "variant": round(rv, 6), "difference": round(mean, 6),
            "ci95": [round(lo, 6), round(hi, 6)], "p_value": p, "significant": bool(lo > 1e-12 or hi < -1e-12),
            "games": n, "sd": round(sd, 6), "mdd": round((Z95 + Z_POWER) * se, 6) if se > 0 else None,
            "groups": len(diffs)}


def paired_equivalence(d: dict, margin: float) -> dict | None:
    """Two one-sided tests that a paired difference (`paired_ratio_difference`) lies within
    `margin` of 0, on the same normal approximation as its 95% interval (its standard error is
    the interval's half-width over 1.96): shown "equivalent" when both p-values are below 0.05,
    exactly when the 90% interval lies inside (-margin, margin).  "up_to": the farthest from 0
    that 90% interval reaches.  "games_needed": pairs of games for the test to show a difference
    of exactly 0 with 80% power.  None when the difference has no value.

    >>> e = paired_equivalence({"difference": 0.01, "ci95": [-0.00960, 0.02960], "sd": 0.5, "games": 10000}, 0.05)
    >>> e["equivalent"], round(e["up_to"], 4)
    (True, 0.0264)
    """
    from scipy.stats import norm

    if d.get("difference") is None or d.get("ci95") is None:
        return None
    diff, (lo, hi) = d["difference"], d["ci95"]
    se = (hi - lo) / (2 * Z95)
    z90 = float(norm.ppf(1 - ALPHA))
    if se > 0:
        p = max(float(norm.sf((diff + margin) / se)), float(norm.cdf((diff - margin) / se)))
    else:
        p = 0.0 if abs(diff) < margin else 1.0
    sd = d.get("sd") or 0.0
    need = math.ceil(((z90 + float(norm.ppf(1 - (1 - POWER) / 2))) * sd / margin) ** 2) if sd else None
    return {"margin": margin, "p_value": p, "equivalent": p < ALPHA, "up_to": round(abs(diff) + z90 * se, 6),
            "games_needed": need}


def paired_difference(variant: Iterable[float], baseline: Iterable[float]) -> dict:
    """`paired_ratio_difference` of two per-game series (the mean of the per-game differences).

    >>> d = paired_difference([1, 0, 1, 1], [0, 0, 1, 0])
    >>> d["difference"], d["significant"]
    (0.5, False)
    """
    return paired_ratio_difference(list(variant), list(baseline))


def paired_games_needed(sd: float, difference: float) -> int:
    """Pairs of games needed for a paired comparison whose per-pair spread is `sd` to detect
    `difference` (80% power, 5% level).

    >>> paired_games_needed(0.5, 0.05)
    785
    """
    return math.ceil(((Z95 + Z_POWER) * sd / difference) ** 2)


def sprt(variant: Series, baseline: Series, delta: float, alpha: float = 0.05, beta: float = 0.05,
         groups: Sequence[Hashable] | None = None, games: int | None = None) -> dict:
    """Sequential test of a change in a metric between paired games.

    `variant` and `baseline` are per-game series as for `paired_ratio_difference` (0/1 values,
    or (numerators, denominators) for a share of decided games).  Two one-sided tests of the
    difference d, each Wald's SPRT on the normal approximation (as chess-engine testing does):
    H0 d = 0 against H1 d = +delta, and H0 against H1 d = -delta, each at alpha/2.  The
    log-likelihood ratio of one side is n (d1 (mean) - d1^2 / 2) / var, with var the variance of
    the per-pair (linearised) differences; with rotation groups (`groups`, or per-group sums and
    `games`, as for `paired_ratio_difference`) var is the per-game equivalent of the
    cluster-robust variance, so n / var is the same information.  "changed" when one side crosses
    log((1 - beta) / (alpha/2)), "no change" (no change as large as delta) when both cross
    log(beta / (1 - alpha/2)), else "undecided".

    >>> sprt([1] * 50 + [0] * 50, [0] * 100, 0.05)["decision"]
    'changed'
    >>> sprt([1, 0] * 50, [1, 0] * 50, 0.05)["decision"]
    'no change'
    """
    n, rb, rv, diffs = _linearised(variant, baseline, groups)
    n = games or n
    mean = (rv - rb) if rb is not None and rv is not None else 0.0
    var = _spread(diffs, n)[0] ** 2 if diffs else 0.0
    # identical games (no variation): the LLRs run towards minus infinity, i.e. "no change"; the
    # floor keeps them finite (a variance of 1e-4 is far below that of any real 0/1 difference)
    var = max(var, 1e-4)
    upper = math.log((1 - beta) / (alpha / 2))
    lower = math.log(beta / (1 - alpha / 2))
    llr = {side: n * (side * delta * mean - delta * delta / 2) / var for side in (1, -1)}
    if max(llr.values()) >= upper:
        decision = "changed"
    elif max(llr.values()) <= lower:
        decision = "no change"
    else:
        decision = "undecided"
    return {"decision": decision, "games": n, "delta": delta, "alpha": alpha, "beta": beta,
            "llr_up": round(llr[1], 6), "llr_down": round(llr[-1], 6),
            "bounds": [round(lower, 6), round(upper, 6)]}


# --- many tests --------------------------------------------------------------------------------

# Benjamini-Hochberg is `stats.benjamini_hochberg` (the skill trace uses it too), at rate FDR.

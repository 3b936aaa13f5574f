"""Statistics for reports: confidence intervals and summaries of game lengths.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def wilson_interval(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Honest at small counts and near 0 or 1, where the normal (Wald) interval is not.
    With no trials the interval is the whole of [0, 1].

    :raises ValueError: when the counts are impossible.
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def format_p(p: float) -> str:
    """A p-value as people read it: three decimals, and "< 0.001" below that (never 0).

    >>> format_p(0.0), format_p(0.0196), format_p(1.0)
    ('< 0.001', '0.020', '1.000')
    """
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def describe_lengths(values: Sequence[float]) -> dict:
    """Mean, median, 90th percentile (linear interpolation), min and max; zeros when empty."""
    if len(values) == 0:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0, "min": 0, "max": 0}
    import numpy as np  # here: the engines import this module, and `check` imports the engines

    arr = np.asarray(values, dtype=float)
    return {"mean": round(float(arr.mean()), 6), "median": float(np.median(arr)),
            "p90": float(np.percentile(arr, 90)), "min": int(arr.min()), "max": int(arr.max())}


def kaplan_meier(finished: Sequence[float], censored: Sequence[float]) -> tuple[list[float], list[float]]:
    """The Kaplan-Meier (product-limit) estimate of the chance that a game lasts longer than t,
    from the lengths of the `finished` games and of the `censored` ones (stopped at a cap: they
    lasted at least that long).  (times, survival): survival[i] holds from times[i] to the next
    time; before the first it is 1.  A game censored at t is still at risk at t (it did not end
    there), as the product-limit estimate has it.  Computed by scipy.stats.ecdf.

    >>> times, survival = kaplan_meier([1, 2, 2, 3, 5], [3, 6, 6])
    >>> times, [round(s, 6) for s in survival]
    ([1.0, 2.0, 3.0, 5.0, 6.0], [0.875, 0.625, 0.5, 0.333333, 0.333333])
    """
    finished, censored = list(finished), list(censored)
    if not finished:  # no game ended: nothing is known below the longest censored length
        return ([float(max(censored))], [1.0]) if censored else ([], [])
    from scipy.stats import CensoredData, ecdf

    sf = ecdf(CensoredData(uncensored=finished, right=censored)).sf
    return [float(t) for t in sf.quantiles], [float(p) for p in sf.probabilities]


def survival_quantile(times: Sequence[float], survival: Sequence[float], q: float) -> tuple[float, bool]:
    """The length by which a share `q` of games has ended, from `kaplan_meier`, and whether it is
    only a lower bound ("at least": too many games were censored for the estimate to reach q).

    The smallest t whose survival is at most 1 - q; when the survival equals 1 - q exactly over
    a step, the middle of that step and the next time a game ends (so that with no censoring the
    median of an even number of games is the mean of the middle two, as usual).

    >>> survival_quantile(*kaplan_meier([1, 2, 3, 4], []), 0.5)
    (2.5, False)
    >>> survival_quantile(*kaplan_meier([1, 2], [10, 10, 10]), 0.5)
    (10.0, True)
    """
    level = 1 - q
    for i, s in enumerate(survival):
        if s <= level + 1e-9:
            if abs(s - level) <= 1e-9:
                later = [t for t, r in zip(times[i + 1:], survival[i + 1:]) if r < s - 1e-9]
                return ((times[i] + later[0]) / 2, False) if later else (float(times[i]), True)
            return float(times[i]), False
    return (float(times[-1]), True) if times else (0.0, False)


def restricted_mean(times: Sequence[float], survival: Sequence[float]) -> float:
    """The mean length up to the longest length seen: the area under the `kaplan_meier` curve.
    With every censored game stopped at that longest length (one cap), it is the mean of all
    games' lengths, a stopped game counted at the cap: a lower bound of the true mean.

    >>> restricted_mean(*kaplan_meier([1, 2, 3], [5, 5]))
    3.2
    """
    area, last, s = 0.0, 0.0, 1.0
    for t, r in zip(times, survival):
        area += s * (t - last)
        last, s = t, r
    return round(area, 6)


def describe_censored_lengths(finished: Sequence[float], censored: Sequence[float]) -> dict:
    """`describe_lengths` of games some of which were stopped at a cap (`censored`): the median
    and 90th percentile from the Kaplan-Meier estimate, the mean up to the longest length
    (`restricted_mean`), min and max of every game; "at_least" says which figures the stopped
    games make lower bounds.  Without stopped games, the plain figures of the finished games
    (the percentiles as `survival_quantile` takes them).

    >>> d = describe_censored_lengths([10, 20, 30], [40])
    >>> d["mean"], d["median"], d["p90"], d["at_least"]
    (25.0, 25.0, 40.0, {'mean': True, 'median': False, 'p90': True, 'max': True})
    """
    finished, censored = list(finished), list(censored)
    every = finished + censored
    if not every:
        return {**describe_lengths([]), "at_least": {"mean": False, "median": False, "p90": False, "max": False}}
    times, survival = kaplan_meier(finished, censored)
    median, median_open = survival_quantile(times, survival, 0.5)
    p90, p90_open = survival_quantile(times, survival, 0.9)
    return {"mean": restricted_mean(times, survival), "median": median, "p90": p90, "min": int(min(every)),
            "max": int(max(every)),
            "at_least": {"mean": bool(censored), "median": median_open, "p90": p90_open, "max": bool(censored)}}


def two_proportion_test(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of a pooled z-test that two proportions are equal (1.0 when undefined)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return 2 * (1 - NormalDist().cdf(abs(z)))


def benjamini_hochberg(p_values: Sequence[float], rate: float = 0.05) -> list[bool]:
    """Which of `p_values` are discoveries with the false-discovery rate held at `rate`
    (Benjamini-Hochberg: the k smallest, for the largest k with p_(k) <= k rate / m).

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.5])
    [True, False, False, False]
    >>> benjamini_hochberg([0.01, 0.02, 0.03, 0.5])
    [True, True, True, False]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    largest = 0
    for rank, i in enumerate(order, start=1):
        if p_values[i] <= rank * rate / m:
            largest = rank
    keep = set(order[:largest])
    return [i in keep for i in range(m)]

"""Statistics for reports: confidence intervals and summaries of game lengths.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
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


def describe_lengths(values) -> dict:
    """Mean, median, 90th percentile (linear interpolation), min and max; zeros when empty."""
    if len(values) == 0:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0, "min": 0, "max": 0}
    import numpy as np  # here: the engines import this module, and `check` imports the engines

    arr = np.asarray(values, dtype=float)
    return {"mean": round(float(arr.mean()), 6), "median": float(np.median(arr)),
            "p90": float(np.percentile(arr, 90)), "min": int(arr.min()), "max": int(arr.max())}


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


def benjamini_hochberg(p_values, rate: float = 0.05) -> list[bool]:
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

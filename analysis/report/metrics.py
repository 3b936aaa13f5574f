"""The statistics of reports and comparisons: seat balance, paired differences, the SPRT.

Every function here is plain arithmetic on counts or per-game values; the report glossary
(`glossary.GLOSSARY`) defines each metric in words.

>>> balance([0.5, 0.3, 0.2])
0.7
>>> d = paired_difference([1, 0, 1, 1], [0, 0, 1, 0])
>>> d["difference"], d["significant"]
(0.5, False)
"""

from __future__ import annotations

import math
from statistics import NormalDist

from scipy.stats import binomtest

from boardlab.analysis.stats import wilson_interval

Z95 = NormalDist().inv_cdf(0.975)


def balance(rates) -> float:
    """1 minus the gap between the best and the worst seat's win rate (1: perfectly even)."""
    return round(1 - (max(rates) - min(rates)), 6) if rates else 1.0


def first_player_advantage(wins_first: int, games: int, players: int) -> dict:
    """Seat 1's win rate minus the fair share 1/players, with its Wilson 95% interval and exact p-value.

    The p-value is the two-sided exact binomial test of seat 1 winning with probability 1/players.

    >>> a = first_player_advantage(60, 100, 2)
    >>> round(a["advantage"], 2), a["ci95"][0] > 0, a["p_value"] < 0.06
    (0.1, True, True)
    """
    fair = 1 / players
    lo, hi = wilson_interval(wins_first, games)
    p = binomtest(wins_first, games, fair).pvalue if games else 1.0
    rate = wins_first / games if games else 0.0
    return {"fair_share": round(fair, 6), "rate": round(rate, 6), "advantage": round(rate - fair, 6),
            "ci95": [round(lo - fair, 6), round(hi - fair, 6)], "p_value": float(p)}


def share(count: int, total: int) -> dict:
    """A count as a share with its Wilson 95% interval."""
    lo, hi = wilson_interval(count, total)
    return {"count": count, "share": round(count / total, 6) if total else 0.0, "ci95": [round(lo, 6), round(hi, 6)]}


def paired_difference(variant, baseline) -> dict:
    """Mean of variant minus baseline over games played on the same seeds, with a 95% interval.

    The interval is the normal one on the per-game differences (common random numbers make
    the pairs' differences small when a rule changes little); significant when it excludes 0.
    With no variation at all (identical games) the interval is the single point of the mean.

    :raises ValueError: when the two series differ in length or are empty.
    """
    if len(variant) != len(baseline) or not variant:
        raise ValueError("paired series must have the same, non-zero length")
    n = len(variant)
    diffs = [v - b for v, b in zip(variant, baseline)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    lo, hi = mean - half, mean + half
    return {"baseline": round(sum(baseline) / n, 6), "variant": round(sum(variant) / n, 6),
            "difference": round(mean, 6), "ci95": [round(lo, 6), round(hi, 6)],
            "significant": bool(lo > 0 or hi < 0)}


def sprt(variant, baseline, delta: float, alpha: float = 0.05, beta: float = 0.05) -> dict:
    """Sequential test of a change in a per-game 0/1 outcome between paired games.

    Two one-sided tests of the mean paired difference d, each Wald's SPRT on the normal
    approximation (as chess-engine testing does): H0 d = 0 against H1 d = +delta, and H0 against
    H1 d = -delta, each at alpha/2.  The log-likelihood ratio of one side is
    n (d1 (mean) - d1^2 / 2) / var.  "changed" when one side crosses log((1 - beta) / (alpha/2)),
    "no change" (no change as large as delta) when both cross log(beta / (1 - alpha/2)), else
    "undecided".

    >>> sprt([1] * 50 + [0] * 50, [0] * 100, 0.05)["decision"]
    'changed'
    >>> sprt([1, 0] * 50, [1, 0] * 50, 0.05)["decision"]
    'no change'
    """
    n = len(variant)
    diffs = [v - b for v, b in zip(variant, baseline)]
    mean = sum(diffs) / n if n else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
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

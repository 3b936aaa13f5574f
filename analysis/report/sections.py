"""The sections of a balance report, each computed from stored simulation outcomes.

Every builder returns (blocks, data): the document blocks to show and the raw numbers they
show, which go into the report's JSON under the same player count.
"""

from __future__ import annotations

import numpy as np

from boardlab.analysis.report.document import chart, table, text
from boardlab.analysis.report.metrics import balance, first_player_advantage, paired_difference, share
from boardlab.analysis.stats import describe_lengths, wilson_interval

#: the most bins of a length chart
LENGTH_BINS = 20


def length_edges(lengths) -> np.ndarray:
    """Bin edges for a histogram of whole-number lengths: bins of a whole width, starting at the
    shortest, at most `LENGTH_BINS` of them, so that no bin is empty only because it holds no
    whole number (as equal-width bins of a fractional width would be).

    >>> length_edges([34, 41, 52]).tolist()  # 19 values: one bin each
    [34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53]
    >>> length_edges([10, 300]).tolist()[:3], len(length_edges([10, 300])) - 1
    ([10, 25, 40], 20)
    """
    lo, hi = int(min(lengths)), int(max(lengths))
    width = -(-(hi - lo + 1) // LENGTH_BINS)  # ceiling division
    bins = -(-(hi - lo + 1) // width)
    return lo + width * np.arange(bins + 1)


def seat_series(records, seat: int) -> list[int]:
    """Per game: 1 when `seat` won alone, else 0."""
    return [int(not r.unfinished and len(r.winners) == 1 and r.winners[0] == seat) for r in records]


def headline_series(records, players: int) -> dict[str, list]:
    """The per-game values behind every headline metric (for paired comparisons)."""
    return {"seat 1 win rate": seat_series(records, 0),
            **({"last seat win rate": seat_series(records, players - 1)} if players > 2 else {}),
            "mean length": [r.length for r in records],
            "draw share": [int(not r.unfinished and len(r.winners) != 1) for r in records],
            "unfinished share": [int(r.unfinished) for r in records]}


#: how each headline metric is shown: (value format, difference format, interval format)
HEADLINE_FORMATS = {"mean length": ("f1", "f1", "ci_f1")}
RATE_FORMATS = ("pct", "pp", "ci_pp")


def pace(definition, unit: str) -> float | None:
    """Seconds of table time per length unit ("turns", "rounds") stated in the definition, if any."""
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, f"seconds_per_{unit.rstrip('s')}", None) if analysis is not None else None


def seats(outcome, players: int) -> tuple[list, dict]:
    s = outcome.summary
    games = s["games"]
    rates = [r["rate"] for r in s["win_rate_by_seat"]]
    advantage = first_player_advantage(s["wins_by_seat"][0], games, players)
    data = {"games": games, "wins_by_seat": s["wins_by_seat"],
            "win_rate_by_seat": [{"rate": round(r["rate"], 6), "ci95": [round(x, 6) for x in r["ci95"]]}
                                 for r in s["win_rate_by_seat"]],
            "balance": balance(rates), "first_player_advantage": advantage,
            "draws": share(s["draws"], games), "unfinished": share(s["unfinished"], games)}
    rows = [[f"seat {i + 1}", w, r["rate"], r["ci95"]] for i, (w, r) in enumerate(zip(s["wins_by_seat"],
                                                                                      data["win_rate_by_seat"]))]
    blocks = [
        table(f"Win rate by seat, {players} players", [("seat", "text"), ("wins", "int"), ("win rate", "pct"),
                                                        ("95% interval", "ci_pct")], rows,
              f"{games:,} games; a fair seat wins {1 / players:.1%}."),
        chart("whiskers", f"seats-{players}", f"Win rate by seat with 95% intervals, {players} players",
              categories=[f"seat {i + 1}" for i in range(players)], values=[r["rate"] for r in data["win_rate_by_seat"]],
              low=[r["ci95"][0] for r in data["win_rate_by_seat"]], high=[r["ci95"][1] for r in data["win_rate_by_seat"]],
              reference=round(1 / players, 6), axis="win rate"),
        table(f"Balance, {players} players", [("measure", "text"), ("value", "text")], [
            ["balance (1 = every seat wins equally often)", f"{data['balance']:.3f}"],
            ["first-player advantage (seat 1 minus a fair share)",
             f"{advantage['advantage'] * 100:+.1f} pts (95% interval {advantage['ci95'][0] * 100:+.1f} .. "
             f"{advantage['ci95'][1] * 100:+.1f} pts)"],
            ["p-value of seat 1 winning a fair share", _p_text(advantage["p_value"])],
            ["draws (shared wins or no winner)", f"{data['draws']['count']:,} ({data['draws']['share']:.1%})"],
            ["unfinished (stopped at the cap)", f"{data['unfinished']['count']:,} ({data['unfinished']['share']:.1%})"]]),
    ]
    return blocks, data


def _p_text(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def length(outcome, definition, players: int, unit: str) -> tuple[list, dict]:
    finished = [r.length for r in outcome.records if not r.unfinished]
    described = describe_lengths(finished)
    data = {"unit": unit, **described, "finished_games": len(finished)}
    rows = [[unit, described["mean"], described["median"], described["p90"], described["max"]]]
    seconds = pace(definition, unit)
    stated = definition.game.minutes
    if seconds:
        minutes = {k: round(described[k] * seconds / 60, 2) for k in ("mean", "median", "p90", "max")}
        data["table_minutes"] = minutes
        data["seconds_per_unit"] = seconds
        rows.append(["table minutes", minutes["mean"], minutes["median"], minutes["p90"], minutes["max"]])
    data["stated_minutes"] = stated
    counts, edges = np.histogram(finished, bins=length_edges(finished)) if finished else (np.zeros(0), np.zeros(1))
    data["histogram"] = {"edges": [round(float(e), 3) for e in edges], "counts": [int(c) for c in counts]}
    note = (f"Finished games only ({len(finished):,} of {len(outcome.records):,}). The definition states "
            f"{stated} minutes a game" + (f" and {seconds:g} s of table time per {unit.rstrip('s')}." if seconds
                                          else "; it states no pace per " + unit.rstrip("s") + ", so no table time."))
    blocks = [table(f"Game length, {players} players", [("in", "text"), ("mean", "f1"), ("median", "f1"),
                                                         ("90th percentile", "f1"), ("longest", "f1")], rows, note)]
    if finished:
        stated_units = stated * 60 / seconds if seconds else None
        blocks.append(chart("histogram", f"length-{players}", f"Game length in {unit}, {players} players",
                            edges=data["histogram"]["edges"], counts=data["histogram"]["counts"], axis=unit,
                            marker=round(stated_units, 3) if stated_units else None,
                            marker_label=f"stated {stated} min" if stated_units else ""))
    return blocks, data


def decisions(outcome, players: int) -> tuple[list, dict]:
    choices: dict[int, int] = {}
    passes = 0
    for r in outcome.records:
        for k, count in r.stats["choices"].items():
            choices[int(k)] = choices.get(int(k), 0) + count
        passes += r.stats["passes"]
    turns = sum(choices.values())
    values = [k for k, c in sorted(choices.items()) for _ in range(c)]
    described = describe_lengths(values)
    single = choices.get(1, 0)
    data = {"games": len(outcome.records), "decisions": turns, "legal_moves": described,
            "single_choice": share(single, turns), "must_pass": share(passes, turns)}
    rows = [["legal moves per decision: mean", f"{described['mean']:.1f}"],
            ["legal moves per decision: median / 90th percentile", f"{described['median']:g} / {described['p90']:g}"],
            ["decisions with a single choice", f"{data['single_choice']['share']:.1%}"],
            ["decisions whose only move is a pass", f"{data['must_pass']['share']:.1%}"]]
    return [table(f"Decisions, {players} players", [("measure", "text"), ("value", "text")], rows,
                  f"{turns:,} decisions of {len(outcome.records):,} random self-play games played move by move "
                  f"by the reference engine. A turn the rules skip because the player has no move at all is not a "
                  f"decision (a game's own figures count such turns where it has any).")], data


def skill(outcomes, players: int) -> tuple[list, dict]:
    rows, data = [], []
    for o in outcomes:
        strong, weak = o.job.agents[0], o.job.agents[1]
        r = o.summary["win_rate_by_agent"][strong]
        fair = 1 / players
        lo, hi = wilson_interval(r["wins"], r["seats_played"])
        p = two_sided_binomial(r["wins"], r["seats_played"], fair)
        entry = {"agent": strong, "against": weak, "games": o.summary["games"], "wins": r["wins"],
                 "rate": round(r["rate"], 6), "ci95": [round(lo, 6), round(hi, 6)], "fair_share": round(fair, 6),
                 "p_value": p}
        data.append(entry)
        rows.append([strong, f"{weak} in the other seat{'s' if players > 2 else ''}", entry["games"], entry["rate"],
                     entry["ci95"], p])
    if not rows:
        return [text("No agents to compare for this game.")], {"pairings": []}
    return [table(f"Skill, {players} players", [("agent", "text"), ("against", "text"), ("games", "int"),
                                                ("its win rate", "pct"), ("95% interval", "ci_pct"), ("p-value", "p")],
                  rows, f"One seat plays the first agent, the others the second; the seats rotate. "
                        f"A fair share is {1 / players:.1%}: the further above it, the more skill decides the game.")], \
        {"pairings": data}


def two_sided_binomial(k: int, n: int, p: float) -> float:
    from scipy.stats import binomtest
    return float(binomtest(k, n, p).pvalue) if n else 1.0


def metric_label(metric: str, unit: str) -> str:
    """How a table names a headline metric: lengths with their unit.

    >>> metric_label("mean length", "rounds"), metric_label("draw share", "rounds")
    ('mean length (rounds)', 'draw share')
    """
    return f"{metric} ({unit})" if metric == "mean length" else metric


def sensitivity(baseline, alternatives, players: int, skipped, unit: str = "turns") -> tuple[list, dict]:
    """`alternatives`: (option, value, outcome or error text); `skipped`: (option, why) not varied."""
    base = headline_series(baseline.records, players)
    rows, data = [], []
    for option, value, outcome in alternatives:
        if isinstance(outcome, str):
            data.append({"option": option, "value": value, "error": outcome})
            rows.append([option, _value_text(value), "not playable", None, None, None, None])
            continue
        series = headline_series(outcome.records, players)
        metrics = {}
        for metric, values in series.items():
            d = paired_difference(values, base[metric][:len(values)])  # the default's games of the same seeds
            metrics[metric] = d
            fmt = HEADLINE_FORMATS.get(metric, RATE_FORMATS)
            rows.append([option, _value_text(value), metric_label(metric, unit), _cell(d["baseline"], fmt[0]),
                         _cell(d["variant"], fmt[0]),
                         f"{_cell(d['difference'], fmt[1])} ({_cell(d['ci95'], fmt[2])})", d["significant"]])
        data.append({"option": option, "value": value, "metrics": metrics})
    blocks = [table(f"Open-rule sensitivity, {players} players",
                    [("rule option", "text"), ("changed to", "text"), ("metric", "text"), ("default", "text"),
                     ("changed", "text"), ("difference (95% interval)", "text"), ("significant", "yes")], rows,
                    f"Each alternative plays the default's first {_alt_games(alternatives):,} games again (same seeds); "
                    "the interval is on the per-game differences. With many rows, about 1 in 20 "
                    "differences that are not real will still look significant.")]
    if skipped:
        blocks.append(text("Not varied here (numbers, not a choice between readings; try them with a variant file "
                           "and `boardlab compare`): " + ", ".join(f"`{o}` ({why})" for o, why in skipped) + "."))
    return blocks, {"alternatives": data, "not_varied": [o for o, _ in skipped]}


def _alt_games(alternatives) -> int:
    return max((len(o.records) for _, _, o in alternatives if not isinstance(o, str)), default=0)


def _value_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _cell(value, fmt: str) -> str:
    from boardlab.analysis.report.document import format_cell
    return format_cell(value, fmt)



"""The sections of a balance report, each computed from stored simulation outcomes.

Every builder returns (blocks, data): the document blocks to show and the raw numbers they
show, which go into the report's JSON under the same player count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardlab.analysis.report.document import chart, table, text
from boardlab.analysis.report.metrics import (DESIGNER_DIFFERENCE, headline_series, is_decided, length_statistics,
                                              paired_ratio_difference, power_statement, score_test, seat_credits,
                                              seat_statistics, share)
from boardlab.analysis.report.options import option_value_text
from boardlab.analysis.report.wording import cap_words, p_words
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


def pace(definition, unit: str) -> float | None:
    """Seconds of table time per length unit ("turns", "rounds") stated in the definition, if any."""
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, f"seconds_per_{unit.rstrip('s')}", None) if analysis is not None else None


def designer_difference(definition) -> float:
    """The smallest change of a win share the designer cares about: `[analysis] difference`, else 5 points."""
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, "difference", None) or DESIGNER_DIFFERENCE


#: how each headline metric is shown: (value format, difference format, interval format)
HEADLINE_FORMATS = {"mean length": ("f1", "sf1", "ci_f1")}
RATE_FORMATS = ("pct", "pp", "ci_pp")


def seats_data(outcome, players: int, difference: float) -> dict:
    """`metrics.seat_statistics` of the baseline games."""
    return seat_statistics(outcome.records, players, difference)


def seats_blocks(data: dict, players: int, unit: str) -> list:
    fair = data["fair_share"]
    rows = [[f"seat {i + 1}", s["wins"], s["share"], s["ci95"], s["p_value"]] for i, s in enumerate(data["by_seat"])]
    advantage, equality = data["first_player_advantage"], data["equality"]
    mdd = advantage["power"]["mdd"]
    if equality["test"] == "chi-square":
        equal = f"chi-square {equality['statistic']:.2f} on {equality['df']} df, {p_words(equality['p_value'])}"
    else:
        equal = f"{equality['test']}, {p_words(equality['p_value'])}"
    games, decided = data["games"], data["decided"]
    return [
        table(f"Win share by seat, {players} players", [("seat", "text"), ("wins", "credit"),
                                                         ("share of decided games", "pct"), ("95% interval", "ci_pct"),
                                                         ("p-value against a fair share", "p")], rows,
              f"{decided:,} decided games of {games:,} (a shared win gives each winner its share); a fair seat "
              f"wins {fair:.1%} of them. Not counted for any seat: {data['no_winner']:,} finished without a winner, "
              f"{data['unfinished']:,} stopped at {cap_words(unit)}."),
        chart("whiskers", f"seats-{players}", f"Win share by seat of decided games with 95% intervals, {players} players",
              categories=[f"seat {i + 1}" for i in range(players)], values=[s["share"] for s in data["by_seat"]],
              low=[s["ci95"][0] for s in data["by_seat"]], high=[s["ci95"][1] for s in data["by_seat"]],
              reference=round(fair, 6), axis="share of decided games"),
        table(f"Balance, {players} players", [("measure", "text"), ("value", "text")], [
            ["decided games (a winner, or a shared win)", f"{decided:,} of {games:,} ({data['decided_share']['share']:.1%})"],
            ["are the seats equal? (test over every seat)", equal],
            ["balance (1 = every seat wins equally often)", f"{data['balance']:.3f}"],
            ["first-player advantage (seat 1 minus a fair share)",
             f"{advantage['advantage'] * 100:+.1f} pts (95% interval {advantage['ci95'][0] * 100:+.1f} .. "
             f"{advantage['ci95'][1] * 100:+.1f} pts), {p_words(advantage['p_value'])}"],
            ["smallest seat difference these games detect (80% power, 5% level)",
             "-" if mdd is None else f"{mdd * 100:.1f} pts"],
            ["draws (no single winner)", f"{data['draws']:,} ({data['draw_share']['share']:.1%}), "
                                         f"{data['shared']:,} of them shared wins"],
            [f"unfinished (stopped at {cap_words(unit)})",
             f"{data['unfinished']:,} ({data['unfinished_share']['share']:.1%})"]]),
    ]


def length_data(outcome, definition, unit: str) -> dict:
    """`metrics.length_statistics` of the baseline games, with table minutes at the definition's pace."""
    described = length_statistics(outcome.records)
    data = {"unit": unit, **described}
    seconds = pace(definition, unit)
    if seconds:
        data["table_minutes"] = {k: round(described[k] * seconds / 60, 2) for k in ("mean", "median", "p90", "max")}
        data["seconds_per_unit"] = seconds
        # the definition marks the pace as its own assumption when one of its `game.assumptions` names the key
        data["pace_assumed"] = any(f"seconds_per_{unit.rstrip('s')}" in a for a in definition.game.assumptions)
    data["stated_minutes"] = definition.game.minutes
    finished = [r.length for r in outcome.records if not r.unfinished]
    counts, edges = np.histogram(finished, bins=length_edges(finished)) if finished else (np.zeros(0), np.zeros(1))
    data["histogram"] = {"edges": [round(float(e), 3) for e in edges], "counts": [int(c) for c in counts]}
    return data


def length_blocks(data: dict, players: int) -> list:
    unit, stated, seconds = data["unit"], data["stated_minutes"], data.get("seconds_per_unit")
    rows = [[unit, data["mean"], data["median"], data["p90"], data["max"]]]
    if seconds:
        m = data["table_minutes"]
        rows.append(["table minutes", m["mean"], m["median"], m["p90"], m["max"]])
    capped = data["capped"]
    note = (f"Finished games only ({data['finished_games']:,} of {data['games']:,}; {capped['count']:,} "
            f"({capped['share']:.1%}) stopped at {cap_words(unit)}). The definition states {stated} minutes a game"
            + (f" and {seconds:g} s of table time per {unit.rstrip('s')}"
               + (" (our assumption)." if data.get("pace_assumed") else ".") if seconds
               else "; it states no pace per " + unit.rstrip("s") + ", so no table time."))
    blocks = [table(f"Game length, {players} players", [("in", "text"), ("mean", "f1"), ("median", "f1"),
                                                         ("90th percentile", "f1"), ("longest", "f1")], rows, note)]
    if data["finished_games"]:
        stated_units = stated * 60 / seconds if seconds else None
        blocks.append(chart("histogram", f"length-{players}", f"Game length in {unit}, {players} players",
                            edges=data["histogram"]["edges"], counts=data["histogram"]["counts"], axis=unit,
                            marker=round(stated_units, 3) if stated_units else None,
                            marker_label=f"stated {stated} min" if stated_units else ""))
    return blocks


def decisions(outcome, players: int) -> tuple[list, dict]:
    choices: dict[int, int] = {}
    passes = 0
    for r in outcome.records:
        for k, count in r.stats["choices"].items():
            choices[int(k)] = choices.get(int(k), 0) + count
        passes += r.stats["passes"]
    turns = sum(choices.values())
    values = [k for k, c in sorted(choices.items()) for _ in range(c)]
    described: dict[str, Any] = describe_lengths(values)
    single = choices.get(1, 0)
    data: dict[str, Any] = {"games": len(outcome.records), "decisions": turns, "legal_moves": described,
            "single_choice": share(single, turns), "must_pass": share(passes, turns)}
    rows = [["legal moves per decision: mean", f"{described['mean']:.1f}"],
            ["legal moves per decision: median / 90th percentile", f"{described['median']:g} / {described['p90']:g}"],
            ["decisions with a single choice", f"{data['single_choice']['share']:.1%}"],
            ["decisions whose only move is a pass", f"{data['must_pass']['share']:.1%}"]]
    return [table(f"Decisions, {players} players", [("measure", "text"), ("value", "text")], rows,
                  f"{turns:,} decisions of {len(outcome.records):,} random self-play games played move by move "
                  f"by the reference engine. A turn the rules skip because the player has no move at all is not a "
                  f"decision (a game's own figures count such turns where it has any).")], data


def skill_data(trace: dict, difference: float) -> dict:
    """The skill trace of one player count (`skill.trace`) for the report: without its compute
    time (the document holds no clock time), each pairing with what its games could detect."""
    data = {k: v for k, v in trace.items() if k != "seconds"}
    data["pairings"] = [_with_power(p, difference) for p in trace["pairings"]]
    return data


def restricted_data(effects: dict, difference: float) -> dict:
    """Restricted play at one player count (`restricted.effects`) for the report: without its
    compute time, each element with what its games could detect."""
    data = {k: v for k, v in effects.items() if k != "seconds"}
    data["elements"] = [_with_power(e, difference) for e in effects["elements"]]
    return data


def _with_power(p: dict, difference: float) -> dict:
    return {**p, "power": power_statement(p["decided"], p["fair_share"], difference,
                                          p["decided"] / p["games"] if p["games"] else 0.0)}


def decided_by(share: float, fair: float) -> float:
    """The share of games an advantage decides: if a side wins a game outright with probability
    d and otherwise its fair share, it wins d + (1 - d) fair of them, so d = (share - fair) / (1 - fair).

    >>> decided_by(0.75, 0.5), decided_by(0.25, 0.25)
    (0.5, 0.0)
    """
    return (share - fair) / (1 - fair)


def skill_blocks(data: dict, players: int) -> list:
    from boardlab.analysis.skill import rating_chart

    if not data["pairings"]:
        return [text("No agents to compare for this game.")]
    pairs = {p["agent"]: p for p in data["pairings"]}
    rows = []
    for level in data["levels"]:
        p = pairs.get(level["agent"])
        rows.append([level["agent"], level["rating"], level["ci95"]]
                    + ([p["below"], p["decided"], p["share"], p["ci95"], p["p_value"], p["distinguished"]] if p else
                       ["-", None, None, None, None, None]))
    others = "the other seat" if players == 2 else f"the other {players - 1} seats"
    return [table(f"Skill trace, {players} players", [("level", "text"), ("rating (Elo)", "f0"),
                                                      ("95% interval", "ci_f0"), ("against", "text"),
                                                      ("decided", "int"), ("its share", "pct"),
                                                      ("95% interval", "ci_pct"), ("p (a gain)", "p"),
                                                      ("better", "yes")], rows,
                  f"Each level plays {data['games_per_level']:,} games against the level below it in {others}, "
                  f"the seats rotating; its share is of the decided games, a fair one {data['fair_share']:.1%}. "
                  f"Ratings are Bradley-Terry (Luce) "
                  f"fits of every decided game on the Elo scale, random = 0 (400 points are odds of 10 to 1). "
                  f"Better: significantly better than the level below, with the false-discovery rate over the "
                  f"ladder's steps held at 5%; the depth, the number of such levels, is {data['depth']}. "
                  + ("The ladder ran to its top." if data["stopped"] == "the ladder's top" else
                     f"The ladder stopped early: {data['stopped']}.")),
            rating_chart(data)]


def restricted_blocks(data: dict, players: int) -> list:
    if not data["elements"]:
        return [text("The game declares no optional elements to bar.")]
    agent, fair = data["agent"], data["fair_share"]
    others = "the same agent barred from it" if players == 2 else f"{players - 1} copies of it barred from it"
    rows = [[e["description"], e["decided"], e["share"], e["ci95"], decided_by(e["share"], fair)
             if e["share"] is not None and e["share"] > fair else None, e["p_value"], e.get("discovery", False)]
            for e in data["elements"]]
    return [table(f"Restricted play, {players} players", [("element", "text"), ("decided games", "int"),
                                                          (f"{agent}'s share", "pct"), ("95% interval", "ci_pct"),
                                                          ("games it decides", "pct"), ("p (two-sided)", "p"),
                                                          ("significant", "yes")], rows,
                  f"{agent} in one seat against {others}, {data['games_per_element']:,} games per element, the "
                  f"seats rotating; its share is of the decided games, a fair one {fair:.1%}. Games it decides: d = (share - fair) / (1 - fair), "
                  f"the share of games the element wins outright if the rest go fairly (a dash: the full agent did "
                  f"no better than fair). Significant: selected by the report's false-discovery control."),
            chart("whiskers", f"restricted-{players}",
                  f"{agent}'s share against {agent} barred from one element, {players} players",
                  categories=[e["element"] for e in data["elements"]],
                  values=[e["share"] if e["share"] is not None else fair for e in data["elements"]],
                  low=[e["ci95"][0] for e in data["elements"]], high=[e["ci95"][1] for e in data["elements"]],
                  reference=round(fair, 6), axis="share of decided games")]


def metric_label(metric: str, unit: str) -> str:
    """How a table names a headline metric: lengths with their unit.

    >>> metric_label("mean length", "rounds"), metric_label("draw share", "rounds")
    ('mean length (rounds)', 'draw share')
    """
    return f"{metric} ({unit})" if metric == "mean length" else metric


def sensitivity_data(baseline, alternatives, players: int, skipped) -> dict:
    """`alternatives`: (option, value, outcome or error text); `skipped`: (option, why) not varied.

    Every headline metric (`metrics.headline_series`) of each alternative against the default's
    games of the same seeds (`metrics.paired_ratio_difference`).
    """
    base = headline_series(baseline.records, players)
    data = []
    for option, value, outcome in alternatives:
        if isinstance(outcome, str):
            data.append({"option": option, "value": value, "error": outcome})
            continue
        series = headline_series(outcome.records, players)
        metrics = {}
        for metric, (numerators, denominators) in series.items():
            k = len(numerators)  # the default's games of the same seeds
            metrics[metric] = paired_ratio_difference((numerators, denominators),
                                                      (base[metric][0][:k], base[metric][1][:k]))
        data.append({"option": option, "value": value, "games": len(outcome.records), "metrics": metrics})
    return {"alternatives": data, "not_varied": [o for o, _ in skipped], "not_varied_why": [w for _, w in skipped]}


def sensitivity_blocks(data: dict, players: int, unit: str, rule_name=None) -> list:
    """The sensitivity table; `rule_name(option, value)` names a rule (`options.rule_namer`)."""
    rule_name = rule_name or (lambda option, value: f"`{option} = {option_value_text(value)}`")
    rows = []
    for alt in data["alternatives"]:
        rule = rule_name(alt["option"], alt["value"])
        if "error" in alt:
            rows.append([rule, "not playable", None, None, None, None, None])
            continue
        for metric, d in alt["metrics"].items():
            fmt = HEADLINE_FORMATS.get(metric, RATE_FORMATS)
            shown = "-" if d["difference"] is None else \
                f"{_cell(d['difference'], fmt[1])} ({_cell(d['ci95'], fmt[2])})"
            rows.append([rule, metric_label(metric, unit), _cell(d["baseline"], fmt[0]),
                         _cell(d["variant"], fmt[0]), shown, d["p_value"], d.get("discovery", d["significant"])])
    games = max((a["games"] for a in data["alternatives"] if "games" in a), default=0)
    blocks = [table(f"Open-rule sensitivity, {players} players",
                    [("rule option (rulebook name)", "text"), ("metric", "text"), ("default", "text"),
                     ("changed", "text"), ("difference (95% interval)", "text"), ("p-value", "p"),
                     ("significant", "yes")], rows,
                    f"Each alternative plays the default's first {games:,} games again (same seeds); "
                    "the interval is on the per-game differences. Win shares are of decided games, the length of "
                    "finished games. Significant: selected at a false-discovery rate of 5% over every test of "
                    "this report (Benjamini-Hochberg).")]
    skipped = list(zip(data["not_varied"], data["not_varied_why"]))
    if skipped:
        blocks.append(text("Not varied here (numbers, not a choice between readings; try them with a variant file "
                           "and `boardlab compare`): " + ", ".join(f"`{o}` ({why})" for o, why in skipped) + "."))
    return blocks


def _cell(value, fmt: str) -> str:
    from boardlab.analysis.report.document import format_cell
    return format_cell(value, fmt)



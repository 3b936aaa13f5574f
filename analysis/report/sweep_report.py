"""The sweep report: every metric against the varied values, as charts with bands and tables.

`sweep_document(result)` turns the result of `analysis.sweep.sweep` into a report document
(see `document`), written like a balance report (Markdown with SVG charts, PDF, JSON).  Per
player count: for every metric a chart of the metric against the first varied key's values with
its 95% interval shaded round it, a line per value of the other varied keys; then one table of
every point with every metric and its interval; refused points are listed with the reason.
"""

from __future__ import annotations

from boardlab.analysis.report.document import chart, format_cell, section, table, text
from boardlab.analysis.report import metrics as metric_table
from boardlab.analysis.report.metrics import find_metric

def shown_format(metric: str) -> str:
    """The cell format of a metric's value (and its interval's ends) in a sweep: the headline
    metric's own (`metrics.HEADLINE`), one decimal for a game's own figure.

    >>> shown_format("draws"), shown_format("balance"), shown_format("chips_left")
    ('pct', 'f3', 'f1')
    """
    m = find_metric(metric)
    return m.formats[0] if m else "f1"


def metric_title(metric: str, unit: str) -> str:
    """How the report names a metric: a headline metric by its name in the metric table, a
    game's own figure as its key.

    >>> metric_title("length", "rounds"), metric_title("first_player_advantage", "turns")
    ('mean length (rounds)', 'first-player advantage')
    >>> metric_title("chips_left", "turns")
    'chips left (mean per game)'
    """
    m = find_metric(metric)
    return m.label(unit) if m else f"{metric.replace('_', ' ')} (mean per game)"


def interval_text(m: dict, fmt: str) -> str:
    """A metric's value and 95% interval as one cell.

    >>> interval_text({"value": 0.5, "ci95": [0.4, 0.6]}, "pct")
    '50.0% (40.0% .. 60.0%)'
    """
    if m.get("value") is None:
        return "-"
    value_fmt = {"f3": "f3", "pp": "pp", "pct": "pct"}.get(fmt, "f1")
    lo, hi = m["ci95"]
    shown = f"{format_cell(m['value'], value_fmt)} ({format_cell(lo, value_fmt)} .. {format_cell(hi, value_fmt)})"
    # a length or minutes with games stopped at the cap counted at the cap: a lower bound
    return f"≥ {shown}, {format_cell(m['capped'], 'pct')} capped" if m.get("at_least") else shown


def _series(points: list[dict], axes: list[dict], metric: str) -> tuple[list, list[dict]]:
    """x labels (the first key's values) and one series per combination of the other keys' values."""
    first = axes[0]
    others = axes[1:]
    by_rest: dict[tuple, dict] = {}
    for p in points:
        rest = tuple((a["key"], p["values"][a["key"]]) for a in others)
        by_rest.setdefault(rest, {})[_key(p["values"][first["key"]])] = p
    series = []
    for rest, found in by_rest.items():
        label = ", ".join(f"{k} = {_text(v)}" for k, v in rest) or first["key"]
        row: dict = {"label": label, "values": [], "low": [], "high": []}
        for value in first["values"]:
            m = found.get(_key(value), {}).get("metrics", {}).get(metric)
            ok = m is not None and m.get("value") is not None
            row["values"].append(m["value"] if ok else None)
            row["low"].append(m["ci95"][0] if ok else None)
            row["high"].append(m["ci95"][1] if ok else None)
        series.append(row)
    return [_text(v) for v in first["values"]], series


def _key(value: object) -> tuple:
    return (type(value).__name__, value)


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def metrics_of(points: list[dict]) -> list[str]:
    """The metrics the played points have, headline ones first (in `metrics.HEADLINE` order), then the game's own."""
    found: list[str] = []
    for p in points:
        for m in p.get("metrics", {}):
            if m not in found:
                found.append(m)
    headline = [m.id for m in metric_table.HEADLINE]
    return [m for m in headline if m in found] + [m for m in found if m not in headline]


def _reference(metric: str, result: dict) -> tuple[float | None, str]:
    if metric == "minutes":
        said = "stated" if result.get("minutes_source") else "target"
        return result["stated_minutes"], f"{said} {result['stated_minutes']} min"
    if metric == "first_player_advantage":
        return 0.0, "no advantage"
    return None, ""


def _games_per_point(result: dict, players: int | None = None) -> str:
    """The games each point played (at `players`, else at every count): the budget's, else --games."""
    sized = (result.get("budget") or {}).get("games_per_point") or {}
    if players is not None:
        return f"{sized.get(str(players), result['games']):,}"
    values = sorted(set(sized.values())) or [result["games"]]
    return ", ".join(f"{g:,}" for g in values) if len(values) > 1 or not sized else f"{values[0]:,}"


def budget_words(result: dict) -> str:
    """What a sweep's CPU budget bought and left out (one line), in the language being written.

    >>> budget_words({"games": 1000, "budget": {"cpu_minutes": 2.0, "quick": False,
    ...               "games_per_point": {"2": 400}, "left_out": {"2": 600}}})
    '2 CPU minutes: 400 games a point at 2 players; left out: 600 games a point at 2 players'
    """
    from boardlab.analysis.report.budgeted import limit_words
    from boardlab.analysis.report.wording import games as count, listed, say, say_plural

    b = result["budget"]
    bought = listed(say("budget.per_point", games=count(g), players=n) for n, g in b["games_per_point"].items())
    bought += "".join(say_plural("budget.answered", a["points"], k=a["points"], games=count(a["games"]), players=n)
                      for n, a in b.get("answered_early", {}).items())
    left = say("budget.left", items=listed(say("budget.per_point", games=count(g), players=n)
                                           for n, g in b["left_out"].items())) \
        if b["left_out"] else say("budget.nothing_left")
    return f"{limit_words(b['cpu_minutes'], b['quick'])}: {bought}{left}"


def sequential_note(block: dict) -> str:
    """What a sequential sweep did at one player count: the looks, the base, the points answered early.

    >>> sequential_note({"sequential": {"base": {"rules.start": 3}, "looks": [100, 200, 400]}, "points": [
    ...     {"values": {"rules.start": 9}, "games": 100, "stop": {"answered_early": True, "p_value": 0.0}}]})[-60:]
    ' at an earlier look: rules.start = 9 (100 games, p < 0.001).'
    """
    from boardlab.analysis.stats import format_p

    seq = block["sequential"]
    base = ", ".join(f"{k} = {_text(v)}" for k, v in seq["base"].items())
    looks = ", ".join(f"{g:,}" for g in seq["looks"])
    early = [p for p in block["points"] if p.get("stop", {}).get("answered_early")]
    said = (f"Sequential points: each point was measured against the written rules ({base}, which play every game) "
            f"after {looks} games, and stopped once it differed from them in seat 1's advantage, length, draws or "
            f"capped games (a normal test of each difference, Bonferroni over those metrics and the "
            f"{len(seq['looks'])} looks: p below 5% in all). ")
    if not early:
        return said + "No point was answered before the last look."
    return said + "Answered at an earlier look: " + "; ".join(
        f"{', '.join(f'{k} = {_text(v)}' for k, v in p['values'].items())} ({p['games']:,} games, "
        f"p {format_p(p['stop']['p_value']) if p['stop']['p_value'] < 0.001 else '= ' + format_p(p['stop']['p_value'])})"
        for p in early) + "."


def sweep_document(result: dict) -> dict:
    """The report document of a sweep (its JSON is the document; `data` holds every point)."""
    axes = result["axes"]
    keys = ", ".join(a["key"] for a in axes)
    unit = result["length_unit"]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in axes[0]["values"])
    head = [["definition", result["source"] or result["game"]],
            ["varied", "; ".join(f"{a['key']} = {', '.join(_text(v) for v in a['values'])} (written: "
                                 f"{_text(result['written'][a['key']])})" for a in axes)],
            ["players", ", ".join(str(b["players"]) for b in result["by_players"])],
            ["games per point", f"{_games_per_point(result)}, {result['agent']} in every seat"],
            ["seed", f"{result['seed']}: every point plays the same games (the same deals and dice), so neighbouring "
                     f"points differ by the rule, not by luck"]]
    if result.get("budget"):
        from boardlab.analysis.report.wording import say

        head.append([say("head.budget"), budget_words(result)])
    from boardlab.analysis.report.compare import pace_note

    paces = {b["players"]: pace_note(b["pace"], unit) for b in result["by_players"] if b.get("pace")}
    if paces:
        head.append(["pace", "; ".join(f"{note} ({n} players)" for n, note in paces.items())
                     + "; every point's table minutes at it"])
    sections = []
    for block in result["by_players"]:
        n, points = block["players"], block["points"]
        played = [p for p in points if "metrics" in p]
        blocks = []
        metrics = metrics_of(played)
        for metric in metrics:
            labels, series = _series(points, axes, metric)
            fmt = shown_format(metric)
            reference, reference_label = _reference(metric, result)
            blocks.append(chart("lines", f"{metric}-{n}", f"{metric_title(metric, unit)}, {n} players",
                                x_labels=labels,
                                x_values=[float(v) for v in axes[0]["values"]] if numeric else None,
                                series=series, format=fmt, x_axis=axes[0]["key"],
                                axis=metric_title(metric, unit), reference=reference,
                                reference_label=reference_label))
        headline = [m for m in metrics if find_metric(m)]
        own = [m for m in metrics if not find_metric(m)]
        for title, shown, note in (
                (f"Every point, {n} players", headline,
                 f"{_games_per_point(result, n)} games a point on seed {result['seed']}; in brackets the 95% interval. Seats "
                 "count on decided games (a shared win counts as its share), lengths and minutes on every game (one "
                 "stopped at the cap counted at the cap: ≥ marks a lower bound, with the share capped), "
                 "draws and capped games as shares of all games."),
                (f"The game's own figures, {n} players", own,
                 "Means per game over all games of the point, as the engine counts them; in brackets the 95% "
                 "interval.")):
            if not shown:
                continue
            columns = [(a["key"], "text") for a in axes] + [(metric_title(m, unit), "text") for m in shown]
            rows = [[_text(p["values"][a["key"]]) for a in axes] +
                    [interval_text(p["metrics"][m], shown_format(m)) if m in p["metrics"] else "-"
                     for m in shown] for p in played]
            blocks.append(table(title, columns, rows, note))
        if block.get("sequential"):
            blocks.append(text(sequential_note(block)))
        refused = [p for p in points if "refused" in p]
        if refused:
            blocks.append(text("Refused (the definition's checks or the engine do not allow it, so not played): " +
                               "; ".join(f"{', '.join(f'{k} = {_text(v)}' for k, v in p['values'].items())}: "
                                         f"{p['refused']}" for p in refused) + "."))
        sections.append(section(f"{n} players", blocks))
    glossary = [[m.label(unit), f"{m.how[0].upper()}{m.how[1:]} (counted over {m.counts})."]
                for m in metric_table.HEADLINE if m.sweep]
    glossary += [["95% interval", "Wilson score interval for shares; mean plus or minus 1.96 standard errors for means; "
                                 "for the seat balance, every seat's share within a Wilson interval at 1 - 0.05/seats "
                                 "(all at once with 95% or more), and the balance between the widest and the "
                                 "narrowest gap those allow."],
                ["common random numbers", "Every point plays games 0..N-1 of the same seed: the same deals and dice, "
                                          "so the differences between points come from the rule, not from luck."]]
    said = f"states (from {result['minutes_source']})" if result.get("minutes_source") else \
        "sets as its target (no source states a playing time)"
    glossary.append(["reference line", f"Dashed: the {result['stated_minutes']} minutes the definition {said} "
                                        "(table minutes), no advantage (first-player advantage)."])
    return {"title": f"{result['name']}: sweep of {keys}", "head": head, "sections": sections,
            "glossary": glossary, "data": result}

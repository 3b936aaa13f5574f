"""The sweep report: every metric against the varied values, as charts with bands and tables.

`sweep_document(result)` turns the result of `analysis.sweep.sweep` into a report document
(see `document`), written like a balance report (Markdown with SVG charts, PDF, JSON).  Per
player count: for every metric a chart of the metric against the first varied key's values with
its 95% interval shaded round it, a line per value of the other varied keys; then one table of
every point with every metric and its interval; refused points are listed with the reason.

Every word is the language's being written (`layouts.terms.speaking`: the terms `report.sweep.*`
and the report's own), numbers as it writes them; what the designer typed (rule keys, their
values, the definition's path) stays as typed, in `code`.  The reasons a point was refused are
the definition's checks' own messages, in another language by the terms table's patterns of them
(`analysis.sweep.refusal`).
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
    from boardlab.analysis.report.wording import say
    from boardlab.layouts.terms import word

    m = find_metric(metric)
    return m.label(unit) if m else say("sweep.own_figure", name=word(metric.replace("_", " ")))


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
    if not m.get("at_least"):
        return shown
    from boardlab.analysis.report.wording import say

    # a length or minutes with games stopped at the cap counted at the cap: a lower bound
    return say("sweep.capped_bound", shown=shown, share=format_cell(m["capped"], "pct"))


def pace_text(pace: dict, unit: str) -> str:
    """Where a player count's pace comes from, in the language being written: measured from
    playtests, else the definition's.

    >>> pace_text({"seconds_per_unit": 40, "pace_assumed": True}, "rounds")
    "the definition's 40 s a round, our assumption"
    >>> pace_text({"seconds_per_unit": 52.5, "pace_measured": {"games": 4, "players": 3, "ci95": [40, 65]}}, "rounds")
    '52.5 s a round, measured from 4 playtests at 3 players (95% interval 40 to 65 s)'
    """
    from boardlab.analysis.report.wording import pace_words, say

    words = pace_words({**pace, "unit": unit})
    return words if pace.get("pace_measured") else say("sweep.pace_definition", pace=words)


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
    from boardlab.analysis.report.wording import number, say

    if metric == "minutes":
        said = "stated" if result.get("minutes_source") else "target"
        return result["stated_minutes"], say(f"sweep.reference.{said}", minutes=number(result["stated_minutes"], "g"))
    if metric == "first_player_advantage":
        return 0.0, say("sweep.reference.advantage")
    return None, ""


def _games_per_point(result: dict, players: int | None = None) -> str:
    """The games each point played (at `players`, else at every count): the budget's, else --games."""
    from boardlab.analysis.report.wording import games

    sized = (result.get("budget") or {}).get("games_per_point") or {}
    if players is not None:
        return games(sized.get(str(players), result["games"]))
    values = sorted(set(sized.values())) or [result["games"]]
    return ", ".join(games(g) for g in values) if len(values) > 1 or not sized else games(values[0])


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
    ...     {"values": {"rules.start": 9}, "games": 100, "stop": {"answered_early": True, "p_value": 0.0}}]})[-62:]
    ' at an earlier look: `rules.start = 9` (100 games, p < 0.001).'
    >>> sequential_note({"sequential": {"base": None, "written": {"rules.start": 4}, "looks": [400]}, "points": []})[:61]
    'No point of the grid is the written rules (`rules.start = 4`)'
    """
    from boardlab.analysis.report.wording import games, listed, p_words, say, say_plural

    seq = block["sequential"]
    if seq["base"] is None:  # the grid lacks the written rules: no point could stop early
        return say("sweep.no_base", written=_values(seq["written"]), games=games(seq["looks"][-1]))
    early = [p for p in block["points"] if p.get("stop", {}).get("answered_early")]
    said = say_plural("sweep.sequential", len(seq["looks"]), base=_values(seq["base"]),
                      looks=listed(games(g) for g in seq["looks"]), k=len(seq["looks"]))
    if not early:
        return said + say("sweep.none_early")
    return said + say("sweep.early", points="; ".join(
        say("sweep.early_item", values=_values(p["values"]), games=games(p["games"]), p=p_words(p["stop"]["p_value"]))
        for p in early))


def _values(values: dict) -> str:
    """A point's values as the designer types them, in `code`: "`rules.start = 3, rules.take_max = 1`"."""
    return "`" + ", ".join(f"{k} = {_text(v)}" for k, v in values.items()) + "`"


def sweep_document(result: dict) -> dict:
    """The report document of a sweep (its JSON is the document; `data` holds every point), in the
    language being written."""
    from boardlab.analysis.report.wording import say
    from boardlab.layouts.terms import word

    axes = result["axes"]
    keys = ", ".join(a["key"] for a in axes)
    unit = result["length_unit"]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in axes[0]["values"])
    head = [[say("head.definition"), f"`{result['source'] or result['game']}`"],  # a path: code, in no language
            [say("sweep.head.varied"), "; ".join(say("sweep.varied_item", name=f"`{a['key']}`",
                                                     values="`" + ", ".join(_text(v) for v in a["values"]) + "`",
                                                     written=f"`{_text(result['written'][a['key']])}`")
                                                 for a in axes)],
            [say("head.players"), ", ".join(str(b["players"]) for b in result["by_players"])],
            [say("sweep.head.games"), say("sweep.games_value", games=_games_per_point(result), agent=result["agent"])],
            [say("head.seed"), say("sweep.seed_value", seed=result["seed"])]]
    if result.get("budget"):
        head.append([say("head.budget"), budget_words(result)])
    paces = {b["players"]: pace_text(b["pace"], unit) for b in result["by_players"] if b.get("pace")}
    if paces:
        head.append([say("head.pace"), say("sweep.pace_value", paces="; ".join(
            say("sweep.pace_at", pace=note, players=n) for n, note in paces.items()))])
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
            blocks.append(chart("lines", f"{metric}-{n}", say("sweep.chart", metric=metric_title(metric, unit), players=n),
                                x_labels=labels,
                                x_values=[float(v) for v in axes[0]["values"]] if numeric else None,
                                series=series, format=fmt, x_axis=axes[0]["key"],
                                axis=metric_title(metric, unit), reference=reference,
                                reference_label=reference_label))
        headline = [m for m in metrics if find_metric(m)]
        own = [m for m in metrics if not find_metric(m)]
        for title, shown, note in (
                (say("sweep.every_point", players=n), headline,
                 say("sweep.every_point.note", games=_games_per_point(result, n), seed=result["seed"])),
                (say("sweep.own", players=n), own, say("sweep.own.note"))):
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
            blocks.append(text(say("sweep.refused", points="; ".join(f"{_values(p['values'])}: {p['refused']}"
                                                                     for p in refused))))
        sections.append(section(say("sweep.section", players=n), blocks))
    glossary = [[m.label(unit), m.description()] for m in metric_table.HEADLINE if m.sweep]
    glossary += [[say("glossary.95_interval"), say("sweep.glossary.interval.text")],
                 [say("sweep.glossary.crn"), say("sweep.glossary.crn.text")]]
    said = say("sweep.glossary.states", source=word(result["minutes_source"])) if result.get("minutes_source") else \
        say("sweep.glossary.sets")
    glossary.append([say("sweep.glossary.reference"), say("sweep.glossary.reference.text",
                                                          minutes=result["stated_minutes"], said=said)])
    return {"title": say("sweep.title", name=result["name"], keys=keys), "head": head, "sections": sections,
            "glossary": glossary, "data": result}

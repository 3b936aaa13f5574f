"""The sections of a balance report, each computed from stored simulation outcomes.

Every builder returns (blocks, data): the document blocks to show and the raw numbers they
show, which go into the report's JSON under the same player count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from boardlab.analysis.report.document import chart, table, text
from boardlab.analysis.report.metrics import (DESIGNER_DIFFERENCE, headline_series, is_decided, length_statistics,
                                              metric, pair_groups, paired_ratio_difference, power_statement, score_test,
                                              seat_credits, seat_statistics, share)
from boardlab.analysis.report.options import option_value_text
from boardlab.analysis.report.wording import (agent_label, cap_words, stated_words, games as amount, listed, measured_words, number, p_words, pct,
                                              say, unsigned_points, word)
from boardlab.analysis.stats import describe_lengths, wilson_interval

if TYPE_CHECKING:  # numpy is imported where it computes: `report --help` and `compare --help` need none of it
    import numpy as np

    from boardlab.analysis.report.jobs import Outcome
    from boardlab.analysis.report.options import RuleNamer
    from boardlab.layouts.common import GameDefinition, MeasuredPace

#: the most bins of a length chart
LENGTH_BINS = 20


def length_edges(lengths: Sequence[float], least: float = 1.0, include: tuple[float, ...] = ()) -> np.ndarray:
    """Bin edges for a histogram of lengths: bins of a round width (1, 2 or 5 times a power of
    ten, and at least `least`: a whole unit, so that no bin is empty only because it holds no
    whole number), starting at a multiple of the width, at most `LENGTH_BINS` of them, over the
    lengths and the values in `include` (the target time, so that its line is on the chart).

    >>> length_edges([34, 41, 52]).tolist()
    [34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0]
    >>> length_edges([61, 1200]).tolist()[:4], len(length_edges([61, 1200])) - 1
    ([0.0, 100.0, 200.0, 300.0], 13)
    >>> length_edges([40.7, 106.0], least=2 / 3, include=(30,)).tolist()[:3]
    [30.0, 35.0, 40.0]
    """
    import math

    import numpy as np

    lo, hi = min([*lengths, *include]), max([*lengths, *include])
    width = next(w for w in (m * 10.0 ** k for k in range(-2, 9) for m in (1, 2, 5))
                 if w >= least - 1e-12 and math.floor(hi / w) - math.floor(lo / w) + 1 <= LENGTH_BINS)
    first, last = math.floor(lo / width), math.floor(hi / width)
    return width * np.arange(first, last + 2, dtype=float)


def pace(definition: GameDefinition, unit: str, players: int | None = None) -> float | None:
    """Seconds of table time per length unit ("turns", "rounds"): measured from playtests at
    `players` when the definition carries such a pace (`playtests.with_measured_pace`), else
    the one the definition states, if any."""
    measured = measured_pace(definition, players)
    if measured is not None:
        return measured.seconds
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, f"seconds_per_{unit.rstrip('s')}", None) if analysis is not None else None


def measured_pace(definition: GameDefinition, players: int | None) -> MeasuredPace | None:
    """The `MeasuredPace` that `pace` uses at `players`, or None when it uses the stated pace."""
    lookup = getattr(definition, "measured_pace", None)
    return lookup(players) if lookup is not None else None


def pace_data(definition: GameDefinition, unit: str, players: int | None) -> dict:
    """Where the pace at `players` comes from, for a length's data: {"seconds_per_unit", and
    "pace_measured": {"games", "ci95", "players"} or "pace_assumed": whether one of the
    definition's `game.assumptions` names the stated pace}; {} without a pace."""
    seconds = pace(definition, unit, players)
    if not seconds:
        return {}
    measured = measured_pace(definition, players)
    if measured is not None:
        return {"seconds_per_unit": seconds, "pace_measured": {"games": measured.games, "players": measured.players,
                                                               "ci95": [measured.low, measured.high]}}
    # the definition marks the pace as its own assumption when one of its `game.assumptions` names the key
    return {"seconds_per_unit": seconds,
            "pace_assumed": any(f"seconds_per_{unit.rstrip('s')}" in a for a in definition.game.assumptions)}


def designer_difference(definition: GameDefinition) -> float:
    """The smallest change of a win share the designer cares about: `[analysis] difference`, else 5 points."""
    analysis = getattr(definition, "analysis", None)
    return getattr(analysis, "difference", None) or DESIGNER_DIFFERENCE


def thresholds(definition: GameDefinition) -> dict:
    """The designer's thresholds a report judges by: "difference" (`designer_difference`),
    "max_capped" (games stopped at the cap a length may rest on) and "max_draws" (drawn games that
    are no problem), from `[analysis]`, else 5 points, 5% and 10%."""
    analysis = getattr(definition, "analysis", None)
    return {"difference": designer_difference(definition), "max_capped": getattr(analysis, "max_capped", 0.05),
            "max_draws": getattr(analysis, "max_draws", 0.10)}


def seats_data(outcome: Outcome, players: int, difference: float) -> dict:
    """`metrics.seat_statistics` of the baseline games."""
    return seat_statistics(outcome.records, players, difference)


def seats_blocks(data: dict, players: int, unit: str) -> list:
    fair = data["fair_share"]
    rows = [[say("seats.seat", seat=i + 1), s["wins"], s["share"], s["ci95"], s["p_value"]]
            for i, s in enumerate(data["by_seat"])]
    advantage, equality, q = data["first_player_advantage"], data["equality"], data["equivalence"]
    mdd = advantage["power"]["mdd"]
    if equality["test"] == "chi-square":
        equal = say("balance.chi", statistic=number(equality['statistic'], ".2f"), df=equality['df'],
                    p=p_words(equality['p_value']))
    else:
        equal = f"{word(equality['test'])}, {p_words(equality['p_value'])}"
    games, decided = data["games"], data["decided"]
    share_decided = say("col.share_decided")
    return [
        table(say("seats.title", players=players), [(say("col.seat"), "text"), (say("col.wins"), "credit"),
                                                     (share_decided, "pct"), (say("col.interval"), "ci_pct"),
                                                     (say("col.p_fair"), "p")], rows,
              say("seats.note", decided=amount(decided), games=amount(games), fair=pct(fair),
                  no_winner=amount(data['no_winner']), unfinished=amount(data['unfinished']), cap=cap_words(unit))),
        chart("whiskers", f"seats-{players}", say("seats.chart", players=players),
              categories=[say("seats.seat", seat=i + 1) for i in range(players)],
              values=[s["share"] for s in data["by_seat"]],
              low=[s["ci95"][0] for s in data["by_seat"]], high=[s["ci95"][1] for s in data["by_seat"]],
              reference=round(fair, 6), x_axis=say("col.seat"), axis=share_decided),
        table(say("balance.title", players=players), [(say("col.measure"), "text"), (say("col.value"), "text")], [
            [say("balance.decided"), say("balance.of", n=amount(decided), games=amount(games),
                                         share=pct(data['decided_share']['share']))],
            [say("balance.equal"), equal],
            [say("balance.equivalent", difference=unsigned_points(q["margin"])),
             say("balance.equivalent_yes" if q["equivalent"] else "balance.equivalent_no", p=p_words(q["p_value"]),
                 up_to=unsigned_points(q["up_to"] if q["up_to"] is not None else 1.0))],
            [say("balance.balance"), number(data['balance'], ".3f")],
            [say("balance.first"),
             say("balance.first_value", advantage=number(advantage['advantage'] * 100, "+.1f"),
                 low=number(advantage['ci95'][0] * 100, "+.1f"), high=number(advantage['ci95'][1] * 100, "+.1f"),
                 p=p_words(advantage['p_value']))],
            [say("balance.mdd"), "-" if mdd is None else say("pts", n=number(mdd * 100, ".1f"))],
            [say("balance.draws"), say("balance.draws_value", draws=amount(data['draws']),
                                       share=pct(data['draw_share']['share']), shared=amount(data['shared']))],
            [say("balance.unfinished", cap=cap_words(unit)),
             say("balance.count", n=amount(data['unfinished']), share=pct(data['unfinished_share']['share']))]]),
    ]


def length_data(outcome: Outcome, definition: GameDefinition, unit: str, players: int | None = None) -> dict:
    """`metrics.length_statistics` of the baseline games, with table minutes at the pace at `players`
    (measured from playtests, else the definition's; `pace_data` says which)."""
    described = length_statistics(outcome.records)
    data = {"unit": unit, **described}
    seconds = pace(definition, unit, players)
    if seconds:
        # the same figures as the lengths, "at least" where games stopped at the cap make them lower bounds
        data["table_minutes"] = {k: round(described[k] * seconds / 60, 2) for k in ("mean", "median", "p90", "max")}
        data.update(pace_data(definition, unit, players))
    data["stated_minutes"] = definition.game.minutes
    data["minutes_source"] = getattr(definition.game, "minutes_source", "")  # empty: a target, no source
    import numpy as np

    # in table minutes where a pace is known (the target time a line on them), else in the unit
    finished = [r.length for r in outcome.records if not r.unfinished]
    scale = seconds / 60 if seconds else 1.0
    values = [length * scale for length in finished]
    target = (float(definition.game.minutes),) if seconds else ()
    counts, edges = (np.histogram(values, bins=length_edges(values, least=scale, include=target)) if finished
                     else (np.zeros(0), np.zeros(1)))
    data["histogram"] = {"edges": [round(float(e), 3) for e in edges], "counts": [int(c) for c in counts],
                         "in": "minutes" if seconds else unit}
    return data


def length_blocks(data: dict, players: int) -> list:
    unit, stated, seconds = data["unit"], data["stated_minutes"], data.get("seconds_per_unit")
    figures = ("mean", "median", "p90", "max")
    bounds = data.get("at_least", {})
    rows = [[word(unit)] + [at_least(data[k], bounds.get(k)) for k in figures]]
    if seconds:
        m = data["table_minutes"]
        rows.append([say("length.table_minutes")] + [at_least(m[k], bounds.get(k)) for k in figures])
    capped = data["capped"]
    one = word(unit.rstrip("s"))
    note = (say("length.note", finished=amount(data['finished_games']), games=amount(data['games']),
                capped=amount(capped['count']), share=pct(capped['share']), cap=cap_words(unit), stated=stated,
                target=say("target.note_stated" if data.get("minutes_source") else "target.note_goal", time=stated_words(stated),
                           source=word(data.get("minutes_source", ""))))
            + (say("length.note_pace", seconds=number(seconds, "g"), unit=one)
               + (say("pace_measured_note", source=measured_words(data["pace_measured"])) + "."
                  if data.get("pace_measured") else
                  say("length.note_assumed" if data.get("pace_assumed") else "length.note_end")) if seconds
               else say("length.note_no_pace", unit=one)))
    blocks = [table(say("length.title", players=players), [(say("col.in"), "text"), (say("col.mean"), "text"),
                                                            (say("col.median"), "text"), (say("col.p90"), "text"),
                                                            (say("col.longest"), "text")], rows, note)]
    if data["finished_games"]:
        histogram = data["histogram"]
        minutes = histogram.get("in") == "minutes" and seconds is not None
        axis = say("length.minutes_axis", seconds=number(seconds, "g"), unit=one) if minutes and seconds else word(unit)
        blocks.append(chart("histogram", f"length-{players}",
                            say("length.chart", unit=say("length.table_minutes") if minutes else word(unit),
                                players=players),
                            edges=histogram["edges"], counts=histogram["counts"], axis=axis,
                            marker=float(stated) if minutes else None,
                            marker_label=say("length.stated" if data.get("minutes_source") else "length.target",
                                             stated=stated) if minutes else ""))
    return blocks


def at_least(value: float, bound: bool | None) -> str:
    """A length cell: one decimal, "≥" before it when games stopped at the cap make it a lower bound.

    >>> at_least(2000, True), at_least(41.25, False)
    ('≥ 2,000.0', '41.2')
    """
    from boardlab.analysis.report.document import format_cell
    return ("≥ " if bound else "") + format_cell(value, "f1")


def decision_data(outcome: Outcome) -> dict:
    """The decisions of an observed job's games (`jobs.play_observed_block`): legal moves per
    decision, the shares with a single choice and with only a pass."""
    choices: dict[int, int] = {}
    passes = 0
    for r in outcome.records:
        for k, count in r.stats["choices"].items():
            choices[int(k)] = choices.get(int(k), 0) + count
        passes += r.stats["passes"]
    turns = sum(choices.values())
    values = [k for k, c in sorted(choices.items()) for _ in range(c)]
    described: dict[str, Any] = describe_lengths(values)
    return {"games": len(outcome.records), "decisions": turns, "legal_moves": described,
            "single_choice": share(choices.get(1, 0), turns), "must_pass": share(passes, turns)}


def decisions(outcome: Outcome, players: int, agent: str = "", levels: list | None = None) -> tuple[list, dict]:
    """The decisions section of the model agent's observed games, with a column per player level
    of `levels` ([(who, data)], the data of `decision_data`) that another agent plays."""
    data = decision_data(outcome)
    shown = [(say("level.model", agent=agent), data)] + [(who, d) for who, d in levels or []]

    def cells(key: Callable[[dict], str]) -> list[str]:
        return [key(d) for _, d in shown]

    rows = [[say("decisions.mean")] + cells(lambda d: number(d["legal_moves"]['mean'], ".1f")),
            [say("decisions.median")] + cells(lambda d: f"{number(d['legal_moves']['median'], 'g')} / "
                                                        f"{number(d['legal_moves']['p90'], 'g')}"),
            [say("decisions.single")] + cells(lambda d: pct(d['single_choice']['share'])),
            [say("decisions.pass")] + cells(lambda d: pct(d['must_pass']['share']))]
    columns = [(say("col.measure"), "text")] + [((name if levels else say("col.value")), "text") for name, _ in shown]
    note = say("decisions.note", decisions=amount(data["decisions"]), games=amount(data["games"]), agent=agent) + "".join(
        say("decisions.level_note", who=who[:1].upper() + who[1:], decisions=amount(d["decisions"]), games=amount(d["games"]))
        for who, d in levels or [])
    return [table(say("decisions.title", players=players), columns, rows, note)], data


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
    data["elements"] = [_with_power(e, difference) for e in effects["elements"] if not e.get("habit")]
    # ways of playing the rules leave open: a table of their own, not tested among the findings
    data["habits"] = [_with_power(e, difference) for e in effects["elements"] if e.get("habit")]
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
    from boardlab.analysis.report.levels import ladder_notes
    from boardlab.analysis.skill import rating_chart

    if not data["pairings"]:
        return [text(say("skill.none"))]
    pairs = {p["agent"]: p for p in data["pairings"]}
    rows = []
    for level in data["levels"]:
        p = pairs.get(level["agent"])
        rating = [{"at_least": level["at_least"]}, None] if "at_least" in level else [level["rating"], level["ci95"]]
        rows.append([agent_label(level["agent"])] + rating
                    + ([agent_label(p["below"]), p["decided"], p["share"], p["ci95"], p["p_value"], p["distinguished"],
                        say(f"skill.decision.{DECISIONS[p.get('decision') or 'better']}")] if p else
                       ["-", None, None, None, None, None, "-"]))
    others = say("skill.other_seat") if players == 2 else say("skill.other_seats", n=players - 1)
    interval = say("col.interval")
    sequential = data.get("sequential") or {"looks": [data["games_per_level"]], "alpha_per_look": 0.05, "difference": 0.05}
    chart_block = {**rating_chart(data), "title": say("skill.chart", players=players),
                   "x_axis": say("skill.axis") if any(level["agent"] == f"mcts-{level['budget']}" for level in data["levels"])
                   else say("skill.axis_levels"), "axis": say("col.rating")}  # the chart's categories: MCTS budgets or names
    return [table(say("skill.title", players=players), [(say("col.level"), "text"), (say("col.rating"), "rating"),
                                                         (interval, "ci_f0"), (say("col.against"), "text"),
                                                         (say("col.decided"), "int"), (say("col.its_share"), "pct"),
                                                         (interval, "ci_pct"), (say("col.p_gain"), "p"),
                                                         (say("col.better"), "yes"), (say("col.step"), "text")], rows,
                  say("skill.note", looks=listed(amount(g) for g in sequential["looks"]), others=others,
                      fair=pct(data['fair_share']), alpha=number(sequential["alpha_per_look"], ".4f"),
                      difference=number(sequential["difference"] * 100, "g"), k=len(sequential["looks"]),
                      depth=data['depth']) + " " + stopped_words(data["stopped"], data["levels"])),
            chart_block] + [text(note) for note in ladder_notes(data)]


#: a sequential step's decision (`skill.step_decision`) -> its term (report.skill.decision.*)
DECISIONS = {"better": "better", "no gain": "no_gain", "undecided at the cap": "undecided"}


def stopped_words(stopped: str, levels: list | None = None) -> str:
    """Why a skill ladder stopped (`skill.traces`' English reason), in the report's language: at a
    plateau (two doublings without a gain), or at its top: perfect play, the report's largest
    budget (no plateau yet), or the engine's strongest agent (no search to climb further)."""
    if stopped == "the ladder's top":
        top = levels[-1] if levels else None
        if top is None:
            return say("skill.top")
        if top["agent"] == "perfect":
            return say("skill.top_perfect")
        if top["budget"]:
            return say("skill.top_budget", top=top["agent"])
        return say("skill.top_engine", top=top["agent"])
    if stopped.startswith("the CPU budget: "):  # a report's budget ended the climb (`skill.traces`)
        return say("skill.budget_stop", level=stopped.partition(": ")[2])
    reason, _, capstone = stopped.partition("; ")
    if reason == "two consecutive budget doublings without a significant gain":
        words = say("skill.doublings") + (say("skill.capstone", top=capstone.split(",")[0]) if capstone else "")
    else:
        words = word(stopped)
    return say("skill.stopped", why=words)


def restricted_blocks(data: dict, players: int) -> list:
    """The table and chart of restricted play's elements (choices the rules give), then the table
    of what the strong agent does (ways of playing the rules leave open, `Restriction.habit`)."""
    habits = _habit_blocks(data, players)
    if not data["elements"]:
        return [text(say("restricted.none"))] + habits
    agent, fair = data["agent"], data["fair_share"]
    others = say("restricted.other") if players == 2 else say("restricted.others", n=players - 1)
    from boardlab.analysis.restricted import ALPHA_FIRST, changed_share

    rows = [[word(e["description"]), e["decided"], e["share"], e["ci95"], decided_by(e["share"], fair)
             if e["share"] is not None and e["share"] > fair else None, e["p_value"], e.get("discovery", False),
             changed_share(e)]
            for e in data["elements"]]
    looks = [e for e in data["elements"] if e.get("looks")]
    sequential = [text(say("restricted.looks", first=pct(ALPHA_FIRST), answered=say(
        "restricted.answered", elements=listed(word(e["description"]) for e in looks if e["looks"]["stopped_first"]))
        if any(e["looks"]["stopped_first"] for e in looks) else ""))] if looks else []
    return sequential + [table(say("restricted.title", players=players), [(say("col.element"), "text"),
                                                              (say("col.decided_games"), "int"),
                                                              (say("col.agent_share", agent=agent), "pct"),
                                                              (say("col.interval"), "ci_pct"),
                                                              (say("col.decides"), "pct"), (say("col.p_two"), "p"),
                                                              (say("col.significant"), "yes"),
                                                              (say("col.moves_changed"), "pct")], rows,
                  say("restricted.note", agent=agent, others=others, games=amount(data['games_per_element']),
                      fair=pct(fair)) + " " + say("restricted.probe_note", agent=agent, games=_probe_games(data))),
            chart("whiskers", f"restricted-{players}", say("restricted.chart", agent=agent, players=players),
                  categories=[word(e.get("label") or e["description"]) for e in data["elements"]],
                  values=[e["share"] if e["share"] is not None else fair for e in data["elements"]],
                  low=[e["ci95"][0] for e in data["elements"]], high=[e["ci95"][1] for e in data["elements"]],
                  reference=round(fair, 6), x_axis=say("col.element"), axis=say("col.share_decided"))] + habits


def _habit_blocks(data: dict, players: int) -> list:
    """What the strong agent does: the agent against itself barred from a way of playing (not a
    rule), its share with the 95% interval and how often barring changed its move; no test of
    the report's false-discovery control, no finding."""
    from boardlab.analysis.restricted import changed_share

    found = data.get("habits") or []
    if not found:
        return []
    agent = data["agent"]
    others = say("restricted.other") if players == 2 else say("restricted.others", n=players - 1)
    rows = [[word(e["description"]), e["decided"], e["share"], e["ci95"], changed_share(e)] for e in found]
    return [table(say("restricted.habits_title", agent=agent, players=players),
                  [(say("col.habit"), "text"), (say("col.decided_games"), "int"),
                   (say("col.agent_share", agent=agent), "pct"), (say("col.interval"), "ci_pct"),
                   (say("col.moves_changed"), "pct")], rows,
                  say("restricted.habits_note", agent=agent, others=others, games=amount(data["games_per_element"]),
                      fair=pct(data["fair_share"])))]


def _probe_games(data: dict) -> str:
    """The probe's games, as counted words ("20 games"; several counts listed)."""
    counts = sorted({(e.get("probe") or {}).get("games", 0) for e in data["elements"]})
    return listed(amount(n) for n in counts)


def metric_label(metric_id: str, unit: str) -> str:
    """How a table names a headline metric (`metrics.Metric.label`): lengths with their unit.

    >>> metric_label("length", "rounds"), metric_label("draw share", "rounds")
    ('mean length (rounds)', 'draw share')
    """
    return metric(metric_id).label(unit)


def sensitivity_data(baseline: Outcome, alternatives: Iterable[tuple[str, object, Outcome | str]], players: int,
                     skipped: Iterable[tuple[str, str]]) -> dict:
    """`alternatives`: (option, value, outcome or error text); `skipped`: (option, why) not varied.

    Every headline metric (`metrics.headline_series`) of each alternative against the default's
    games of the same seeds (`metrics.paired_ratio_difference`, the rotation group the unit:
    `metrics.pair_groups`), and the median length of both
    (Kaplan-Meier, `metrics.length_statistics`) so that a remedy for the table time is said in
    the statistic of the problem.  An alternative whose games come out the same as the default's
    in every headline metric, game by game, is marked "inert": with the other options at their
    defaults it acts on nothing (an option that acts only under another), and it is no test.
    """
    base = headline_series(baseline.records, players)
    data = []
    for option, value, outcome in alternatives:
        if isinstance(outcome, str):
            data.append({"option": option, "value": value, "error": outcome})
            continue
        series = headline_series(outcome.records, players)
        metrics = {}
        k = len(outcome.records)  # the default's games of the same seeds; the rotation group the unit
        groups = pair_groups([r.deal for r in baseline.records[:k]], [r.deal for r in outcome.records], players)
        for name, (numerators, denominators) in series.items():
            metrics[name] = paired_ratio_difference((numerators, denominators),
                                                    (base[name][0][:k], base[name][1][:k]), groups)
        k = len(outcome.records)
        lb, lv = length_statistics(baseline.records[:k]), length_statistics(outcome.records)
        entry = {"option": option, "value": value, "games": k, "metrics": metrics,
                 "median_length": {"baseline": lb["median"], "variant": lv["median"],
                                   "baseline_at_least": lb["at_least"]["median"],
                                   "variant_at_least": lv["at_least"]["median"]}}
        if all(not m["sd"] and not m["difference"] for m in metrics.values()):
            entry["inert"] = True
        data.append(entry)
    return {"alternatives": data, "not_varied": [o for o, _ in skipped], "not_varied_why": [w for _, w in skipped]}


def sensitivity_blocks(data: dict, players: int, unit: str, rule_name: RuleNamer | None = None) -> list:
    """The sensitivity table; `rule_name(option, value)` names a rule (`options.rule_namer`)."""
    rule_name = rule_name or (lambda option, value: f"`{option} = {option_value_text(value)}`")
    rows = []
    inert = [alt for alt in data["alternatives"] if alt.get("inert")]
    for alt in data["alternatives"]:
        rule = rule_name(alt["option"], alt["value"])
        if alt.get("inert"):
            continue
        if "error" in alt:
            rows.append([rule, say("sens.not_playable"), None, None, None, None, None])
            continue
        for name, d in alt["metrics"].items():
            fmt = metric(name).formats
            shown = "-" if d["difference"] is None else \
                f"{_cell(d['difference'], fmt[1])} ({_cell(d['ci95'], fmt[2])})"
            rows.append([rule, metric_label(name, unit), _cell(d["baseline"], fmt[0]),
                         _cell(d["variant"], fmt[0]), shown, d["p_value"], d.get("discovery", d["significant"])])
    games = max((a["games"] for a in data["alternatives"] if "games" in a), default=0)
    blocks = [table(say("sens.title", players=players),
                    [(say("col.rule"), "text"), (say("col.metric"), "text"), (say("col.default"), "text"),
                     (say("col.changed"), "text"), (say("col.difference"), "text"), (say("col.p"), "p"),
                     (say("col.significant"), "yes")], rows, say("sens.note", games=amount(games)))] if rows else \
        [text(say("sens.none", players=players))]
    if inert:
        blocks.append(text(say("sens.inert", options=", ".join(rule_name(a["option"], a["value"]) for a in inert))))
    skipped = list(zip(data["not_varied"], data["not_varied_why"]))
    if skipped:
        blocks.append(text(say("sens.skipped", options=", ".join(f"`{o}` ({_why(why)})" for o, why in skipped))))
    return blocks


def _why(why: str) -> str:
    """Why an option is not varied (`options.rule_alternatives`: "now VALUE"), in the report's language."""
    return say("sens.now", value=why[4:]) if why.startswith("now ") else word(why)


def _cell(value: object, fmt: str) -> str:
    from boardlab.analysis.report.document import format_cell
    return format_cell(value, fmt)



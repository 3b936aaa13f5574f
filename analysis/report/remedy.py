"""The verdict's remedy search over the numbers in the rules: a count of chips, of lines, of steps.

The word and true/false options of a definition are played whole in every report (each is a
rule alternative, `options.rule_alternatives`).  A number in the rules (`numeric_keys`: a whole
number the schema bounds, not the turn or round cap) has too many values for that; for the
worst problem of a player count (`verdict.worst_problem`) each such key is searched instead,
with the race `tune` runs (`tune.tune`), aimed at the problem's own target (`goal_for`): the
median table time at most the target time, seat 1's share within the designer's difference of
fair, capped or drawn games at most their thresholds.

The search is bounded: a few values a key (`first_values`: a quarter, a half and twice the
written value within the schema's limits, or every value of a short range), raced on the
report's seed from 100 games (`FIRST_GAMES`) up to `build.remedy_games` (half a rule
alternative's); then, between the value that met the goal and the written one, at most `REFINE`
values more (the first values' games come back from the results store); the value nearest the
written one that meets the goal is confirmed on fresh seeds (seed + 1), and the report states
that confirmation's figures.  A key whose values meet no goal is named with the one that came
closest.  Within a report's CPU budget (phase "remedies") the most games a value plays are sized
from `search_cost`; a key the budget cannot pay for is not searched (`d["numeric"]["left_out"]`).
"""

from __future__ import annotations

import dataclasses
import typing

from typing import TYPE_CHECKING, Any, Callable, Sequence

from boardlab.analysis.sweep import Axis, Point

if TYPE_CHECKING:
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.runner import Backend
    from boardlab.analysis.store import ResultStore
    from boardlab.analysis.tune import Goal
    from boardlab.layouts.common import GameDefinition

#: the most values between the first race's best and the written value raced again
REFINE = 4
#: the first batch of the race (tune's own starts at 200): a value far off the target is dropped
#: after these, so the values on the wrong side (twice the chips of a game too long) cost little
FIRST_GAMES = 100
#: a range of at most this many values is searched whole
WHOLE_RANGE = 8
#: the metrics kept of a confirmed value (its figures the verdict states)
KEPT = ("median_minutes", "minutes", "first_player_advantage", "draws", "capped")


def numeric_keys(definition: Any, unit: str) -> list[tuple[str, int, int, int]]:  # Any: its `rules` are the game's
    """[(key, written value, least, most)]: the rule keys holding one whole number within limits
    the schema states, in the schema's order; the cap (`max_turns`, `max_rounds`: the length a
    simulation stops at, no rule a player follows) is not one.

    >>> from boardlab.layouts import load
    >>> numeric_keys(load("sixbysix"), "rounds")
    [('chips', 20, 1, 500)]
    >>> numeric_keys(load("links"), "turns")
    [('capture_count', 5, 2, 20), ('lines', 4, 1, 4)]
    """
    rules = definition.rules
    hints = typing.get_type_hints(type(rules))
    out = []
    for f in dataclasses.fields(rules):
        current, tp = getattr(rules, f.name), hints[f.name]
        lo, hi = f.metadata.get("min"), f.metadata.get("max")
        whole = tp is int or int in typing.get_args(tp)
        if (not whole or isinstance(current, bool) or not isinstance(current, int) or lo is None or hi is None
                or f.name == f"max_{unit}"):
            continue
        out.append((f.name, current, int(lo), int(hi)))
    return out


def first_values(current: int, lo: int, hi: int) -> tuple[int, ...]:
    """The values a key's first race tries: every other value of a range of at most `WHOLE_RANGE`,
    else a quarter, a half and twice the written value, within the limits.

    >>> first_values(20, 1, 500), first_values(4, 1, 4), first_values(5, 2, 20)
    ((5, 10, 40), (1, 2, 3), (2, 3, 10))
    """
    if hi - lo + 1 <= WHOLE_RANGE:
        return tuple(v for v in range(lo, hi + 1) if v != current)
    wanted = {min(max(int(current * m + 0.5), lo), hi) for m in (0.25, 0.5, 2)}
    return tuple(sorted(wanted - {current}))


def between(best: int, nearer: int) -> tuple[int, ...]:
    """At most `REFINE` whole numbers strictly between two values, evenly spread.

    >>> between(5, 10), between(10, 20), between(5, 6)
    ((6, 7, 8, 9), (12, 14, 16, 18), ())
    """
    lo, hi = sorted((best, nearer))
    inside = list(range(lo + 1, hi))
    if len(inside) <= REFINE:
        return tuple(inside)
    step = (hi - lo) / (REFINE + 1)
    return tuple(sorted({lo + round(step * (i + 1)) for i in range(REFINE)}))


def goal_for(problem: dict, d: dict, players: int) -> Goal | None:
    """The `tune.Goal` a remedy must meet for a player count's worst problem, or None when no
    metric a race measures follows it (the last seat's share)."""
    from boardlab.analysis.report.findings import thresholds
    from boardlab.analysis.tune import Goal

    limits = thresholds(d)
    kind = problem["kind"]
    if kind == "length":
        stated = d["length"]["stated_minutes"]
        return Goal("median_minutes", "<=", float(stated), f"median_minutes<={stated}")
    if kind == "seats" and problem["metric"] == "seat_1_share":
        return Goal("first_player_advantage", "~", 0.0, "first_player_advantage~0")
    if kind == "capped":
        return Goal("capped", "<=", limits["max_capped"], f"capped<={limits['max_capped'] * 100:g}%")
    if kind == "draws":
        return Goal("draws", "<=", limits["max_draws"], f"draws<={limits['max_draws'] * 100:g}%")
    return None


def _point(definition: GameDefinition, key: str, value: int, players: int) -> Point:
    from boardlab.analysis import engines
    from boardlab.analysis.report.options import rule_problem, with_rule
    from boardlab.layouts.errors import BoardlabError

    point = Point({f"rules.{key}": value})
    changed = with_rule(definition, key, value)
    try:
        problem = rule_problem(changed)
        if problem:
            raise BoardlabError(problem)
        engines.make_game(changed, players)
        point.definition = changed
    except (BoardlabError, ValueError) as err:
        point.refused = str(err)
    return point


def search_key(definition: GameDefinition, key: str, current: int, lo: int, hi: int, goal: Goal, players: int,
               agent: str, store: ResultStore, games: int, seed: int, limits: dict, workers: int | None = None,
               progress: bool = True, backend: Backend | None = None) -> dict | None:
    """One key's search for `goal` at `players` (see the module docstring): {"key", "written",
    "tried", "goal", "value", "met", "games", "seed", "metrics"}; "value" is the confirmed value
    (met: it meets the goal on the fresh seeds) or the one that came closest (not confirmed); None
    when the game takes none of the values."""
    from boardlab.analysis.tune import TuneOptions, tune

    def race(values: Sequence[int], finalists: int) -> dict:
        axis = Axis(("rules", key), tuple(values))
        points = [_point(definition, key, v, players) for v in values]
        opts = TuneOptions(players=players, agent=agent, first_games=min(FIRST_GAMES, games), games=games,
                           finalists=finalists, max_capped=limits["max_capped"], difference=limits["difference"],
                           seed=seed, workers=workers, progress=progress, backend=backend)
        return tune("", definition, [axis], [goal], store, opts, points=points)

    name = f"rules.{key}"
    tried = [v for v in first_values(current, lo, hi) if _point(definition, key, v, players).definition is not None]
    if not tried:
        return None
    first = race(tried, 0)
    met = [r["values"][name] for r in first["race"] if all(s == "met" for s in r["goals"].values())]
    if met:
        best = min(met, key=lambda v: (abs(v - current), v))
        refine = [v for v in between(best, current) if v not in tried]
        tried += refine
        final = race(sorted({best, *refine}), 1)
        if final["confirmation"]:
            c = final["confirmation"][0]
            return {"key": key, "written": current, "tried": sorted(tried), "goal": goal.text,
                    "value": c["values"][name], "met": c["meets_every_goal"], "confirmed": True,
                    "games": games, "seed": final["confirmation_seed"],
                    "metrics": {m: c["metrics"][m] for m in KEPT if m in c["metrics"]}}
    closest = first["closest"][goal.text]
    found = next(r for r in first["race"] if r["values"] == closest["values"])
    return {"key": key, "written": current, "tried": sorted(tried), "goal": goal.text,
            "value": closest["values"][name], "met": False, "confirmed": False, "games": found["games"], "seed": seed,
            "metrics": {goal.metric: closest["metric"]} if closest["metric"] else {}}


def search_cost(definition: GameDefinition, key: str, values: Sequence[int], players: int, agent: str,
                store: ResultStore, games: int, seed: int) -> float:
    """CPU seconds a game of one key's search costs at most, for a budget (`budget.Budget`): a
    value's cost per game (probed on two of `values`, `budget.sampled_cost`) times the values that
    may race to the cap (`values`, then at most `REFINE` more) plus the confirmation's value; the
    race drops most values after `FIRST_GAMES`, so this is an upper bound."""
    from boardlab.analysis.budget import sampled_cost
    from boardlab.analysis.report.jobs import Job

    jobs = [Job(_point(definition, key, v, players).definition, players, (agent,) * players, games, seed)
            for v in values]
    return sampled_cost(jobs, store, most=2) * (len(values) + REFINE + 1)


def numeric_remedies(definition: GameDefinition, by_players: dict, store: ResultStore, agent: str,
                     games_for: Callable[[int], int], seed: int, workers: int | None = None, progress: bool = True,
                     backend: Backend | None = None, budget: Budget | None = None) -> None:
    """Search every numeric rule key for each player count's worst problem (as the verdict judges
    it, `verdict.worst_problem` on the skilled level) and keep what was found in the player
    count's data: d["numeric"] = {"problem", "goal", "keys": [`search_key` results]}.
    `games_for(players)` gives the most games a value plays (a rule alternative's).

    With a `budget` (`budget.Budget`, phase "remedies", detail the key) the most games a value
    plays are sized from each key's `search_cost`, every search of the report together; a key
    whose search cannot afford `FIRST_GAMES` games a value is not searched (the budget names it)."""
    from boardlab.analysis import engines
    from boardlab.analysis.report.findings import thresholds
    from boardlab.analysis.report.levels import skilled_view
    from boardlab.analysis.report.verdict import worst_problem

    if not by_players:
        return
    first = int(next(iter(by_players)))
    unit = engines.make_game(definition, first).length_unit
    keys = numeric_keys(definition, unit)
    searches = []  # (player count's data, players, problem, goal, [(key, current, lo, hi, values)])
    for count, d in by_players.items():
        n = int(count)
        problem = worst_problem(n, skilled_view(d)[1]) if keys else None
        goal = goal_for(problem, d, n) if problem else None
        if problem is None or goal is None or (goal.metric == "median_minutes" and "table_minutes" not in d["length"]):
            continue
        if not _off_target(goal, d, n):  # the model agent's games, which the race plays, have no such problem
            continue
        searched = [(key, current, lo, hi, values) for key, current, lo, hi in keys
                    for values in [[v for v in first_values(current, lo, hi)
                                    if _point(definition, key, v, n).definition is not None]] if values]
        searches.append((d, n, problem, goal, searched))
    if budget is not None:
        from boardlab.analysis.budget import Ask

        asks = [Ask(f"rules.{key}", search_cost(definition, key, values, n, agent, store, games_for(n), seed)
                    if budget.limited else 0.0, games_for(n), least=min(FIRST_GAMES, games_for(n)), step=1,
                    facts={"players": n}) for _, n, _, _, searched in searches for key, *_, values in searched]
        granted = iter(budget.fit("remedies", asks))
        sized = [[next(granted) for _ in searched] for *_, searched in searches]
    else:
        sized = [[games_for(n)] * len(searched) for _, n, _, _, searched in searches]
    for (d, n, problem, goal, searched), games in zip(searches, sized):
        found = [search_key(definition, key, current, lo, hi, goal, n, agent, store, g, seed, thresholds(d), workers,
                            progress, backend) for (key, current, lo, hi, _), g in zip(searched, games) if g]
        d["numeric"] = {"problem": problem["kind"], "goal": goal.text, "keys": [k for k in found if k]}
        left = [f"rules.{key}" for (key, *_), g in zip(searched, games) if not g]
        if left:
            d["numeric"]["left_out"] = left  # not searched: the CPU budget could not pay for it
    if budget is not None:
        budget.settle()


def could_search(definition: Any, by_players: dict) -> bool:
    """Whether `numeric_remedies` could search anything, known before the player levels play:
    the rules hold a number to search (`numeric_keys`) and, at some player count, the model agent's
    games (`d` holds their "seats", "length" and "thresholds") miss a goal a problem could set
    (`goal_for`: the table time, seat 1's share, capped games, draws).  A search needs both (the
    model agent's games must miss the worst problem's goal, `_off_target`), so when this is false
    no search runs and the report's budget gives the remedies' share to the levels instead of
    holding it back.
    """
    from boardlab.analysis import engines

    if not by_players:
        return False
    unit = engines.make_game(definition, int(next(iter(by_players)))).length_unit
    if not numeric_keys(definition, unit):
        return False
    for count, d in by_players.items():
        n = int(count)
        problems = [{"kind": "seats", "metric": "seat_1_share"}, {"kind": "capped"}, {"kind": "draws"}]
        if "table_minutes" in d["length"] and d["length"].get("stated_minutes") is not None:
            problems.append({"kind": "length"})
        if any(goal is not None and _off_target(goal, d, n) for goal in (goal_for(p, d, n) for p in problems)):
            return True
    return False


def _off_target(goal: Goal, d: dict, players: int) -> bool:
    """Whether the games of the written rules with the model agent in every seat (the agent the
    race plays) miss `goal` too: a problem found for skilled players only is not searched with
    another agent, where the written value would already "meet" it."""
    s = d["seats"]
    value = {"median_minutes": lambda: d["length"]["table_minutes"]["median"],
             "first_player_advantage": lambda: s["by_seat"][0]["share"] - s["fair_share"],
             "capped": lambda: s["unfinished_share"]["share"],
             "draws": lambda: s["draw_share"]["share"]}[goal.metric]()
    if goal.op == "~":
        from boardlab.analysis.report.findings import thresholds
        return abs(value - goal.target) >= thresholds(d)["difference"]
    return value > goal.target


def met_remedies(d: dict) -> list[dict]:
    """The numeric keys whose confirmed value meets the goal, nearest the written value first."""
    found = [k for k in d.get("numeric", {}).get("keys", []) if k["met"]]
    return sorted(found, key=lambda k: (abs(k["value"] - k["written"]) / max(abs(k["written"]), 1), k["key"]))


def numeric_side_effects(k: dict, d: dict, players: int) -> list[dict]:
    """What the confirmed value makes worse than the written rules (the baseline), each beyond the
    value's 95% interval: more draws, more games stopped at the cap, seat 1 further from fair (and
    off it by the designer's difference or more).  [{"metric", "baseline", "variant"}] with the
    verdict's metric ids."""
    from boardlab.analysis.report.findings import thresholds

    s = d["seats"]
    fair = s["fair_share"]
    worse = []
    base = {"draws": s["draw_share"]["share"], "capped": s["unfinished_share"]["share"],
            "seat_1_share": s["by_seat"][0]["share"]}
    m = k["metrics"]
    for metric, key in (("draws", "draws"), ("capped", "capped")):
        v = m.get(key)
        if v and v.get("value") is not None and v["ci95"][0] > base[metric]:
            worse.append({"metric": metric, "baseline": base[metric], "variant": v["value"]})
    fpa = m.get("first_player_advantage")
    if fpa and fpa.get("value") is not None and abs(fpa["value"]) >= thresholds(d)["difference"]:
        off = base["seat_1_share"] - fair
        lo, hi = fpa["ci95"]
        if (lo > off and fpa["value"] > abs(off)) or (hi < off and -fpa["value"] > abs(off)):
            worse.append({"metric": "seat_1_share", "baseline": base["seat_1_share"], "variant": fair + fpa["value"]})
    return worse


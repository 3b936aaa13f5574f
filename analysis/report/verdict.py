"""The verdict page: per player count, what a designer reads in a minute, generated from the numbers.

For every player count: are the seats balanced (which seat, by how much, how sure, or "too
few games to tell"); how many minutes a game takes at the table against the stated time;
whether skill decides the game; and the one or two rule options that move the worst problem
most, by their rulebook names, each with what it makes worse (a selected effect that takes
another headline metric further from its target: the seats from fair, the length from the
stated time, more capped games).  It reads the report's data after `findings.select_findings`
has marked the tests, so it states only what the false-discovery control selected.
"""

from __future__ import annotations

from boardlab.analysis.report.findings import LENGTH_TOLERANCE, label, seat_imbalance, thresholds
from boardlab.analysis.report import metrics as metric_table
from boardlab.analysis.report.options import RuleNamer
from boardlab.analysis.report.wording import (at_least, cap_words, target_time, games, listed, minutes, number, p_words, pace_words, pct,
                                              points, points_over, say, say_plural, unsigned_points, word, would_tell)

#: at most this many rule options are named for a player count's worst problem
REMEDIES = 2
#: a share of draws or capped games below this is not mentioned beside the seats
BESIDE = 0.01


def verdict(by_players: dict, rule_name: RuleNamer) -> dict:
    """{"by_players": {n: {"lines": [...], "problem": {...} or None, "remedies": [...]}}}."""
    from boardlab.analysis.report.levels import shown_levels, for_level, skill_share_line, skilled_view, disagreement

    out = {}
    for key, d in by_players.items():
        n = int(key)
        unit = d["length"]["unit"]
        shown = shown_levels(d)
        judged_who, judged = skilled_view(d)  # the worst problem is judged for skilled players
        problem = worst_problem(n, judged)
        remedies = remedies_for(problem, d, n) if problem else []
        lines = [say("verdict.players", players=n)]
        lines += [for_level(_seats(level["seats"], unit), who) for who, level in shown]
        lines += [for_level(_time(level["length"]), who) for who, level in shown]
        lines += disagreement(shown, unit)
        lines += [_skill(d.get("skill", {}))] + skill_share_line(d)
        if problem is None:
            lines.append(for_level(say("verdict.problem_none"), judged_who))
        else:
            if remedies:
                unit = f" {word(d['length']['unit'])}"
                parts = [_remedy_part(r, problem, d, rule_name)
                         + (say("verdict.remedy_but", effects=listed(
                             say("verdict.side_part", metric=label(e["metric"]), base=_shown(e["metric"], e["baseline"]),
                                 variant=_shown(e["metric"], e["variant"]),
                                 unit=unit if e["metric"] == "length" else "") for e in r["worse"]))
                            if r["worse"] else "")
                         for r in remedies]
                remedy = say_plural("verdict.remedy", len(parts), options="; ".join(parts))
            elif [a for a in d.get("sensitivity", {}).get("alternatives", []) if not a.get("inert")]:
                remedy = say("verdict.remedy_none")
            else:  # no rule option was tried: nothing to say of them
                remedy = ""
            remedy = " ".join(x for x in (remedy, _numeric(d, problem, n)) if x)
            if d.get("agent") and d["agent"] != shown[-1][1]["agent"] and d.get("sensitivity", {}).get("alternatives"):
                remedy += say("level.remedy_measured", agent=d["agent"])
            lines.append(for_level(say("verdict.problem", problem=problem["text"], remedy=remedy).rstrip(), judged_who))
        out[key] = {"lines": lines, "problem": problem, "remedies": remedies}
    return {"by_players": out}


def _remedy_part(r: dict, problem: dict, d: dict, rule_name: RuleNamer) -> str:
    """One remedy in the problem's own statistic: a table time too long as the median table time
    with and without the option (Kaplan-Meier, "at least" where the cap decides it), any other
    problem in its headline metric."""
    seconds = d["length"].get("seconds_per_unit")
    median = r.get("median_length")
    if problem["kind"] == "length" and median and seconds:
        return say("verdict.remedy_part_time", rule=rule_name(r["option"], r["value"]),
                   base=at_least(minutes(median["baseline"] * seconds / 60), median["baseline_at_least"]),
                   variant=at_least(minutes(median["variant"] * seconds / 60), median["variant_at_least"]))
    return say("verdict.remedy_part", rule=rule_name(r["option"], r["value"]), metric=label(problem["metric"]),
               base=_shown(problem["metric"], r["baseline"]), variant=_shown(problem["metric"], r["variant"]),
               unit=f" {word(d['length']['unit'])}" if problem["metric"] == "length" else "")


def _numeric(d: dict, problem: dict, players: int) -> str:
    """The sentence of the numbers in the rules searched for the problem (`remedy.numeric_remedies`):
    each value whose confirmation met the target, in the problem's own statistic (the median
    table time for a time too long), with what it makes worse; or the values tried when none
    met it; "" when no number was searched."""
    from boardlab.analysis.report.remedy import met_remedies, numeric_side_effects

    numeric = d.get("numeric")
    if not numeric or not numeric["keys"]:
        return ""
    met = met_remedies(d)
    if not met:
        return say("verdict.numeric_none", tried=listed(
            say("verdict.numeric_tried", option=k["key"], values=listed([number(v, ",") for v in k["tried"]], "or"),
                written=number(k["written"], ",")) for k in numeric["keys"]))
    parts = []
    for k in met:
        rule = say("verdict.numeric_rule", option=k["key"], value=number(k["value"], ","), written=number(k["written"], ","))
        m = k["metrics"]
        if problem["kind"] == "length":
            median = m["median_minutes"]
            part = say("verdict.remedy_part_time", rule=rule,
                       base=at_least(minutes(d["length"]["table_minutes"]["median"]), d["length"].get("at_least", {}).get("median")),
                       variant=at_least(minutes(median["value"]), median.get("at_least")))
        else:
            metric = {"seats": "seat_1_share"}.get(problem["kind"], problem["kind"])
            base = _baseline_value(metric, d)
            value = m[{"seat_1_share": "first_player_advantage"}.get(metric, metric)]["value"]
            variant = value + d["seats"]["fair_share"] if metric == "seat_1_share" else value
            part = say("verdict.remedy_part", rule=rule, metric=label(metric), base=pct(base), variant=pct(variant), unit="")
        worse = numeric_side_effects(k, d, players)
        if worse:
            part += say("verdict.remedy_but", effects=listed(
                say("verdict.side_part", metric=label(e["metric"]), base=pct(e["baseline"]), variant=pct(e["variant"]),
                    unit="") for e in worse))
        parts.append(part + say("verdict.numeric_games", games=games(k["games"]), seed=k["seed"]))
    return say_plural("verdict.numeric", len(parts), options="; ".join(parts))


def _baseline_value(metric: str, d: dict) -> float:
    s = d["seats"]
    return {"seat_1_share": s["by_seat"][0]["share"], "draws": s["draw_share"]["share"],
            "capped": s["unfinished_share"]["share"]}[metric]


def verdict_blocks(data: dict) -> list:
    from boardlab.analysis.report.document import text
    # the heading line, a blank line, then the bullets: without the blank line Markdown (python-markdown,
    # pandoc) reads the bullets as part of the heading's paragraph
    return [text(say("verdict.intro"))] + [text(v["lines"][0] + "\n\n" + "\n".join(v["lines"][1:]))
                                           for v in data["by_players"].values()]


def _shown(metric: str, value: float) -> str:
    return number(value, ".1f") if metric == "length" else pct(value)


def _seats(s: dict, unit: str) -> str:
    a, e = s["first_player_advantage"], s["equality"]
    rates = [x["share"] for x in s["by_seat"]]
    imbalance = seat_imbalance(s)
    if imbalance == "first":
        line = say("verdict.seats_first", rate=pct(a["rate"]), fair=pct(a["fair_share"]), diff=points(a["advantage"]),
                   p=p_words(a["p_value"]))
    elif imbalance == "unequal":
        best, worst = rates.index(max(rates)), rates.index(min(rates))
        line = say("verdict.seats_unequal", best=best + 1, best_rate=pct(rates[best]), worst=worst + 1,
                   worst_rate=pct(rates[worst]), fair=pct(s["fair_share"]), p=p_words(e["p_value"]))
    elif s["equivalence"]["equivalent"]:
        q = s["equivalence"]
        line = say("verdict.seats_fair", fair=pct(s["fair_share"]), difference=unsigned_points(q["margin"]),
                   p=p_words(q["p_value"]), up_to=unsigned_points(q["up_to"]), decided=games(s['decided']))
    else:
        q = s["equivalence"]
        up_to, difference = points_over(q["up_to"] if q["up_to"] is not None else 1.0, q["margin"])
        line = say("verdict.seats_too_few", decided=games(s['decided']), fair=pct(s["fair_share"]),
                   up_to=up_to, difference=difference, tell=would_tell(q['games_needed']))
    beside = []
    if s["draw_share"]["share"] >= BESIDE:
        beside.append(say("verdict.draws", share=pct(s["draw_share"]["share"])))
    if s["unfinished_share"]["share"] >= BESIDE:
        beside.append(say("verdict.capped", share=pct(s["unfinished_share"]["share"]), cap=cap_words(unit)))
    return line + (say("verdict.seats_beside", parts=listed(beside)) if beside else "")


def _time(length: dict) -> str:
    unit, stated = length["unit"], length["stated_minutes"]
    if "table_minutes" not in length:
        return say("verdict.time_no_pace", median=at_least(number(length['median'], ",.0f"),
                                                           length.get("at_least", {}).get("median")),
                   unit=word(unit), stated=stated, target=target_time(length))
    at_table = length["table_minutes"]["median"]
    ratio = at_table / stated
    if 1 / LENGTH_TOLERANCE <= ratio <= LENGTH_TOLERANCE:
        judgement = say("verdict.time_close")
    elif ratio > 1:
        judgement = say("verdict.time_long", ratio=number(ratio, ".1f"))
    else:
        judgement = say("verdict.time_short", ratio=pct(ratio, 0))
    bounds = length.get("at_least", {})
    capped = length.get("capped", {}).get("share", 0.0)
    if bounds.get("p90"):
        tail = say("verdict.time_p90_open", share=pct(capped), cap=cap_words(unit))
    else:
        tail = say("verdict.time_p90", p90=minutes(length["table_minutes"]["p90"]))
        if capped > 0:
            tail += say("verdict.time_capped", share=pct(capped), cap=cap_words(unit))
    return say("verdict.time", median=at_least(number(length['median'], ",.0f"), bounds.get("median")), unit=word(unit),
               minutes=at_least(minutes(at_table), bounds.get("median")), pace=pace_words(length), stated=stated,
               target=target_time(length),
               judgement=judgement, tail=tail)


def _skill(trace: dict) -> str:
    """The skill line: the depth and the top level's rating (`findings.ladder_words`), or luck
    dominates, or too few games to tell."""
    from boardlab.analysis.report.findings import LADDER_FIELDS, ladder_words
    from boardlab.analysis.report.levels import perfect_words

    if not trace or not trace.get("pairings"):
        return say("verdict.no_skill")
    w = ladder_words(trace)
    first = trace["pairings"][0]["power"]
    perfect = perfect_words(trace, short=True)
    if w["depth"]:
        key = "verdict.skill_matters_at_least" if w["at_least"] else "verdict.skill_matters"
        return say(key, **{k: w[k] for k in LADDER_FIELDS}) + perfect
    key = "verdict.skill_luck" if first["enough"] else "verdict.skill_too_few"
    return say(key, top=w["last"], games=w["games"], mdd=unsigned_points(first["mdd"] or 1.0)) + perfect


def worst_problem(players: int, d: dict) -> dict | None:
    """The player count's worst problem that a rule option could move: a seat's share off the fair
    one by the designer's difference or more (selected by the false-discovery control), a table
    time longer than the stated time, or games stopped at the cap or drawn over the designer's
    thresholds.  {"kind", "score", "metric", "target", "text"} (the target from `targets`; the
    score the size over its threshold, as the findings rank them); None when nothing stands out."""
    s, length = d["seats"], d["length"]
    goals = targets(players, d)
    limits = thresholds(d)
    problems = []
    if seat_imbalance(s):
        rates = [x["share"] for x in s["by_seat"]]
        fair = s["fair_share"]
        # the seat a headline metric follows (seat 1 or the last) that is further from fair
        seat = 0 if players == 2 or abs(rates[0] - fair) >= abs(rates[-1] - fair) else players - 1
        metric = "seat_1_share" if seat == 0 else "last_seat_share"
        problems.append({"kind": "seats", "score": abs(rates[seat] - fair) / limits["difference"], "metric": metric,
                         "target": goals[metric],
                         "text": say("verdict.problem_seat", seat=seat + 1, rate=pct(rates[seat]), fair=pct(fair))})
    if "length" in goals and length.get("games", length["finished_games"]) and length["table_minutes"]["median"]:
        at_table, stated = length["table_minutes"]["median"], length["stated_minutes"]
        ratio = at_table / stated
        # a game shorter than stated is said in the time line; only one too long is a problem to fix
        if ratio > LENGTH_TOLERANCE:
            problems.append({"kind": "length", "score": ratio / LENGTH_TOLERANCE, "metric": "length",
                             "target": goals["length"],
                             "text": say("verdict.problem_long", minutes=minutes(at_table), stated=stated,
                                         target=target_time(length))})
    capped, drawn = s["unfinished_share"]["share"], s.get("draw_share", {}).get("share", 0.0)
    if capped > limits["max_capped"]:
        problems.append({"kind": "capped", "score": capped / max(limits["max_capped"], 0.01), "metric": "capped",
                         "target": goals["capped"],
                         "text": say("verdict.problem_capped", cap=cap_words(length["unit"]), share=pct(capped))})
    if drawn > limits["max_draws"]:
        problems.append({"kind": "draws", "score": drawn / max(limits["max_draws"], 0.01), "metric": "draws",
                         "target": goals["draws"],
                         "text": say("verdict.problem_draws", share=pct(drawn), most=pct(limits["max_draws"], 0))})
    return max(problems, key=lambda p: p["score"]) if problems else None


def targets(players: int, d: dict) -> dict[str, float]:
    """What each headline metric a report compares should be for this player count
    (`metrics.Metric.target`): the fair share for the seats, no draws, no capped games, and the
    stated time (in the game's length unit) for the mean length when the definition states a
    time and a pace."""
    length = d["length"]
    stated = (length["stated_minutes"] * 60 / length["seconds_per_unit"]
              if "table_minutes" in length and length.get("seconds_per_unit") else None)
    out = {}
    for m in metric_table.HEADLINE:
        goal = m.target(players, stated)
        if m.paired and players >= m.least_players and goal is not None:
            out[m.id] = goal
    return out


def side_effects(alt: dict, problem_metric: str, goals: dict[str, float]) -> list[dict]:
    """The alternative's other selected effects that take a metric further from its target (a fix
    for one problem that makes another worse): [{"metric", "baseline", "variant"}]."""
    worse = []
    for metric, goal in goals.items():
        m = alt.get("metrics", {}).get(metric)
        if metric == problem_metric or not m or not m.get("discovery") or m["variant"] is None:
            continue
        if abs(m["variant"] - goal) > abs(m["baseline"] - goal):
            worse.append({"metric": metric, "baseline": m["baseline"], "variant": m["variant"]})
    return worse


def remedies_for(problem: dict, d: dict, players: int) -> list[dict]:
    """The rule alternatives whose (selected) effect on the problem's metric brings it closest to
    its target, best first, at most `REMEDIES`: [{"option", "value", "baseline", "variant", "gain",
    "worse"}], "worse" its side effects that take another metric further from its target (`side_effects`).
    Among equal gains, one without side effects comes first."""
    metric, target = problem["metric"], problem["target"]
    goals = targets(players, d)
    found = []
    for alt in d.get("sensitivity", {}).get("alternatives", []):
        m = alt.get("metrics", {}).get(metric)
        if not m or not m.get("discovery") or m["variant"] is None:
            continue
        gain = abs(m["baseline"] - target) - abs(m["variant"] - target)
        if gain > 0:
            found.append({"option": alt["option"], "value": alt["value"], "baseline": m["baseline"],
                          "variant": m["variant"], "gain": round(gain, 6), "worse": side_effects(alt, metric, goals),
                          "median_length": alt.get("median_length")})
    found.sort(key=lambda r: (-r["gain"], len(r["worse"]), r["option"], str(r["value"])))
    return found[:REMEDIES]

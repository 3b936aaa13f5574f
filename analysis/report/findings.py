"""Findings: sentences generated from a report's numbers, ordered by importance.

A report runs many tests (the seats at every player count, every element of restricted play,
every headline metric of every rule alternative).  `select_findings` applies the
Benjamini-Hochberg procedure to all of them at once and marks each test's `discovery`; only
discoveries become findings of an effect, so at most about 5% of the effects a report states
are expected to be chance.  A test that is no discovery is stated with the smallest
difference its games could detect (80% power, 5% level), or as "too few games to tell".
The skill trace's steps are their own family, as in `boardlab skill`: a level counts as
distinguishable when Benjamini-Hochberg over the ladder's tests selects it (`skill.depth`).

Each finding has a score on one scale (roughly "points of win share, or its equivalent"), so
that a 20-point seat imbalance outranks a 3-point rule effect; nothing here is written by hand
about a particular game, and every sentence comes from `wording`.
"""

from __future__ import annotations

from typing import Any, Collection, Iterable, Iterator, Sequence, Sized

from boardlab.analysis.report.metrics import FDR, benjamini_hochberg, metric as headline_metric
from boardlab.analysis.report.options import RuleNamer, option_value_text
from boardlab.analysis.report.wording import (agent_label, at_least, cap_words, target_time, games as game_count, listed, minutes, number, p_words,
                                              pace_words, pct, places_over, points, points_over, say, say_plural, unsigned_points, word, would_tell)


def report_tests(by_players: dict) -> Iterator[tuple[tuple, dict]]:
    """Every test of a report's data, as (where, test dict with a "p_value"), in a fixed order."""
    for n, d in by_players.items():
        seats = d["seats"]
        yield (n, "seats equal"), seats["equality"]
        yield (n, "seat 1 fair"), seats["first_player_advantage"]
        seen = [seats]
        for level in d.get("levels", []):  # a level's own games (not the model's, not counted already)
            if not any(level["seats"] is s for s in seen):
                seen.append(level["seats"])
                yield (n, "seats equal", level["agent"]), level["seats"]["equality"]
                yield (n, "seat 1 fair", level["agent"]), level["seats"]["first_player_advantage"]
        for e in d.get("restricted", {}).get("elements", []):
            yield (n, "restricted", e["element"]), e
        for alt in d.get("sensitivity", {}).get("alternatives", []):
            if alt.get("inert"):  # it changed no game: no test (`sections.sensitivity_data`)
                continue
            for metric, m in alt.get("metrics", {}).items():
                yield (n, "rule", alt["option"], str(alt["value"]), metric), m


def select_findings(by_players: dict, rate: float = FDR) -> dict:
    """Mark every test of the report (`report_tests`) with "discovery" under Benjamini-Hochberg at
    `rate`; return {"tests", "discoveries", "false_discovery_rate", "largest_p_selected"}."""
    tests = [t for _, t in report_tests(by_players)]
    chosen = benjamini_hochberg([t["p_value"] for t in tests], rate)
    for t, c in zip(tests, chosen):
        t["discovery"] = bool(c)
    selected = [t["p_value"] for t, c in zip(tests, chosen) if c]
    return {"tests": len(tests), "discoveries": len(selected), "false_discovery_rate": rate,
            "largest_p_selected": max(selected) if selected else None}


def findings(name: str, by_players: dict, rule_name: RuleNamer | None = None) -> list[dict]:
    """[{"score", "text", "kind", "players"}] from the report's data per player count, most
    important first.  `select_findings` must have marked the tests.  `rule_name(option, value)`
    names a rule option (default: "`option = value`").

    Effects seen at several player counts (a rule option, a skill pairing, a length off the
    stated time) are one finding each, naming the counts.
    """
    from boardlab.analysis.report.levels import finding_who, led, perfect_findings, skill_share_findings

    rule_name = rule_name or (lambda option, value: f"`{option} = {option_value_text(value)}`")
    counts = {int(k): d for k, d in by_players.items()}
    out = _headlines(name, counts, rule_name) + _rules(counts, rule_name)
    for f in out:  # measured with the model agent in every seat: named as the level it is
        first = counts[f["players"][0]]
        if first.get("agent"):  # data that names its agent (a report's; hand-made test data may not)
            f["text"] = led(f["text"], finding_who(first, first["agent"]))
    for level in ("beginner", "skilled"):  # each level's own games (where no other figures gave them)
        view = {}
        for n, d in counts.items():
            own = [x for x in d.get("levels", []) if x["level"] == level and not x["model"]]
            if own and not (level == "skilled" and own[0]["agent"] == d["levels"][0]["agent"]):
                view[n] = {**d, "seats": own[0]["seats"], "length": own[0]["length"], "sensitivity": {}}
        for f in _headlines(name, view, rule_name, remedies=False):
            first = view[f["players"][0]]
            agent = [x["agent"] for x in first["levels"] if x["level"] == level][0]
            f["text"] = led(f["text"], finding_who(first, agent))
            f["level"] = level
            out.append(f)
    out += _skill(counts) + skill_share_findings(counts) + perfect_findings(counts) + _restricted(counts)
    out.sort(key=lambda f: (TIERS.get(f["kind"], len(set(TIERS.values()))), -f["score"], f["text"]))
    return out


#: the order of findings, as the glossary promises: what a designer would change first.  Problems
#: over the designer's own thresholds (a seat off fair by `analysis.difference` or more, the table
#: time off the stated one, capped or drawn games over `analysis.max_capped` / `max_draws`), then
#: rule effects, then skill, then restricted play, then what was not found.  Within a tier the
#: score: the size over its threshold (2.0: twice as far off as matters).
TIERS = {"seats": 0, "length": 0, "unfinished": 0, "draws": 0, "rule": 1, "skill": 2, "skill share": 2,
         "perfect": 2, "element": 3, "element unused": 3, "element could go": 3}


def thresholds(d: dict) -> dict:
    """The designer's thresholds a player count's data was judged by: "difference" (a seat's share,
    from its equivalence test), "max_capped", "max_draws" (`sections.thresholds`; defaults 5% and 10%)."""
    given = d.get("thresholds", {})
    margin = d.get("seats", {}).get("equivalence", {}).get("margin", given.get("difference", 0.05))
    return {"difference": margin, "max_capped": given.get("max_capped", 0.05),
            "max_draws": given.get("max_draws", 0.10)}


def _headlines(name: str, counts: dict[int, dict], rule_name: RuleNamer, remedies: bool = True) -> list[dict]:
    """The seat and length findings of `counts` (each player count's "seats" and "length")."""
    out = _first_seat(counts) + _balanced(counts)
    for players, d in counts.items():
        out += _seats(players, d)
    return out + _length(name, counts, rule_name, remedies)


def _where(chosen: Collection[int], every: Sized) -> str:
    return say("at_every_count") if len(chosen) == len(every) else \
        say("with_counts", counts=listed(str(n) for n in chosen))


def seat_imbalance(s: dict) -> str | None:
    """Whether a player count's seats (`metrics.seat_statistics`, marked by `select_findings`)
    are shown unbalanced by as much as matters: "first" when seat 1's share is a discovery at
    least the designer's difference (the equivalence margin) from fair, "unequal" when the
    equality of the seats is a discovery and some seat is that far off, else None.  A smaller
    difference, however certain, stays in the tables: it is not a finding."""
    return "first" if _first_off(s) else "unequal" if _unequal_off(s) else None


def _first_off(s: dict) -> bool:
    a = s["first_player_advantage"]
    return bool(a.get("discovery")) and abs(a["advantage"]) >= s["equivalence"]["margin"]


def _unequal_off(s: dict) -> bool:
    fair = s["fair_share"]
    return bool(s["equality"].get("discovery")) and \
        max(abs(x["share"] - fair) for x in s["by_seat"]) >= s["equivalence"]["margin"]


def _first_seat(counts: dict[int, dict]) -> list[dict]:
    """One finding for seat 1's discovered advantages or disadvantages, over every player count."""
    decided = [(n, d["seats"]["first_player_advantage"]) for n, d in counts.items()
               if seat_imbalance(d["seats"]) == "first"]
    if not decided:
        return []
    ups = [a["advantage"] > 0 for _, a in decided]
    how = say("more") if all(ups) else say("less") if not any(ups) else say("more_or_less")
    if len(decided) == 1:
        n, a = decided[0]
        text = say("first_seat.one", how=how, players=n, rate=pct(a["rate"]), fair=pct(a["fair_share"]),
                   diff=points(a["advantage"]), p=p_words(a["p_value"]))
    else:
        text = say("first_seat.many", how=how, where=_where([n for n, _ in decided], counts), parts="; ".join(
            say("first_seat.part", rate=pct(a["rate"]), fair=pct(a["fair_share"]), players=n,
                diff=points(a["advantage"]), p=p_words(a["p_value"])) for n, a in decided))
    # how many times as far off fair as the designer's difference
    return [{"score": max(abs(a["advantage"]) / thresholds(counts[n])["difference"] for n, a in decided),
             "text": text, "kind": "seats", "players": [n for n, _ in decided]}]


def _points_span(values: list[float], places: int = 1) -> str:
    """Sizes of differences in points: one ("2.0 points") or their range ("1.8 to 2.4 points")."""
    return say("points", n=_span(sorted(v * 100 for v in values), f".{places}f"))


def _balanced(counts: dict[int, dict]) -> list[dict]:
    """The player counts whose seats show no imbalance: balanced when the equivalence test shows
    every seat within the designer's difference of a fair share (`metrics.seats_equivalence`),
    else "not shown balanced", with how far a seat could still be from fair."""
    fair = [n for n, d in counts.items() if seat_imbalance(d["seats"]) is None]
    if not fair:
        return []
    shown = [n for n in fair if counts[n]["seats"]["equivalence"]["equivalent"]]
    open_ = [n for n in fair if n not in shown]
    out = []
    if shown:
        tests = [counts[n]["seats"]["equivalence"] for n in shown]
        out.append({"score": 4.0, "text": say("seats_balanced", where=_where(shown, counts),
                                              difference=unsigned_points(tests[0]["margin"]),
                                              p=p_words(max(t["p_value"] for t in tests)),
                                              up_to=_points_span([t["up_to"] for t in tests])),
                    "kind": "balanced", "players": shown})
    if open_:
        tests = [counts[n]["seats"]["equivalence"] for n in open_]
        reach = [t["up_to"] if t["up_to"] is not None else 1.0 for t in tests]
        places = places_over(min(reach), tests[0]["margin"])  # the smallest reach reads larger than the margin
        out.append({"score": 6.0, "text": say("seats_too_few", where=_where(open_, counts),
                                              up_to=_points_span(reach, places),
                                              difference=points_over(min(reach), tests[0]["margin"])[1],
                                              tell=would_tell(max(t["games_needed"] or 0 for t in tests))),
                    "kind": "too few", "players": open_})
    return out


def _seats(players: int, d: dict) -> list[dict]:
    s = d["seats"]
    out = []
    rates = [r["share"] for r in s["by_seat"]]
    worst, best = rates.index(min(rates)), rates.index(max(rates))
    limits = thresholds(d)
    if _unequal_off(s) and players > 2:
        off = max(abs(r - s["fair_share"]) for r in rates)
        out.append({"score": off / limits["difference"],
                    "text": say("seats_unequal", players=players, p=p_words(s["equality"]["p_value"]), best=best + 1,
                                best_rate=pct(rates[best]), worst=worst + 1, worst_rate=pct(rates[worst]),
                                fair=pct(s["fair_share"])),
                    "kind": "seats", "players": [players]})
    capped, drawn = s["unfinished_share"]["share"], s.get("draw_share", {}).get("share", 0.0)
    if capped > limits["max_capped"]:
        out.append({"score": capped / max(limits["max_capped"], 0.01),
                    "text": say("unfinished", players=players, share=pct(capped), cap=cap_words(d["length"]["unit"]),
                                most=pct(limits["max_capped"], 0)),
                    "kind": "unfinished", "players": [players]})
    if drawn > limits["max_draws"]:
        out.append({"score": drawn / max(limits["max_draws"], 0.01),
                    "text": say("draws_over", players=players, share=pct(drawn), most=pct(limits["max_draws"], 0)),
                    "kind": "draws", "players": [players]})
    return out


#: how far (as a ratio either way) the median table time may be from the stated time before a report says so
LENGTH_TOLERANCE = 1.25


def _length(name: str, counts: dict[int, dict], rule_name: RuleNamer, remedies: bool = True) -> list[dict]:
    off = []
    for players, d in counts.items():
        length = d["length"]
        if "table_minutes" in length and length.get("games", length["finished_games"]):
            at_table, stated = length["table_minutes"]["median"], length["stated_minutes"]
            ratio = max(at_table / stated, stated / at_table) if at_table else float("inf")
            if ratio > LENGTH_TOLERANCE:
                off.append((ratio, players, d))
    if not off:
        return []
    off.sort(key=lambda t: (-t[0], t[1]))
    ratio, players, d = off[0]
    length = d["length"]
    at_table, stated = length["table_minutes"]["median"], length["stated_minutes"]
    long = at_table > stated
    bound = length.get("at_least", {}).get("median")
    text = say("length.long" if long else "length.short", players=players, name=name,
               median=at_least(number(length['median'], ",.0f"), bound), unit=word(length["unit"]),
               minutes=at_least(minutes(at_table), bound),
               pace=pace_words(length),
               stated=stated, target=target_time(length))
    capped = length.get("capped", {}).get("share", 0.0)
    if capped > 0:  # the capped share beside every length
        text += say("verdict.time_capped", share=pct(capped), cap=cap_words(length["unit"]))
    if long and not remedies:  # a level's own games: the rule options were tried with the model agent
        text += say("length.end")
    elif long:
        # the rule options whose (selected) effect shortens the game most, with the table time they give
        # in the problem's statistic: the median table time of the alternative's games ("at least" where capped)
        shorter = []
        for alt in d.get("sensitivity", {}).get("alternatives", []):
            m, median = alt.get("metrics", {}).get("length"), alt.get("median_length")
            if m and m.get("discovery") and m["difference"] < 0 and median:
                shorter.append((median["variant"] * length["seconds_per_unit"] / 60, median["variant_at_least"],
                                rule_name(alt["option"], alt["value"])))
        shorter.sort()
        text += say("length.fits" if len(shorter) == 1 else "length.fits_many", options=listed(
            (say("length.fit", rule=rule, minutes=at_least(minutes(at), bound)) for at, bound, rule in shorter[:2]),
            "or")) if shorter else say("length.no_fit")
        from boardlab.analysis.report.remedy import met_remedies

        numbers = [k for k in met_remedies(d) if "median_minutes" in k["metrics"]]
        if numbers:
            text += " " + say_plural("length.numeric", len(numbers), options=listed(
                say("length.numeric_part", option=k["key"], value=number(k["value"], ","),
                    written=number(k["written"], ","), minutes=at_least(minutes(k["metrics"]["median_minutes"]["value"]),
                                                                          k["metrics"]["median_minutes"].get("at_least")))
                for k in numbers))
    else:
        text += say("length.end")
    if len(off) > 1:
        text += say("length.also", parts=", ".join(
            say("length.also_part", players=p, minutes=minutes(x["length"]["table_minutes"]["median"]))
            for _, p, x in sorted(off[1:], key=lambda t: t[1])))
    return [{"score": ratio / LENGTH_TOLERANCE, "text": text, "kind": "length", "players": sorted(p for _, p, _ in off)}]


def _rules(counts: dict[int, dict], rule_name: RuleNamer) -> list[dict]:
    groups: dict[tuple, list] = {}
    for players, d in counts.items():
        for alt in d.get("sensitivity", {}).get("alternatives", []):
            for metric, m in alt.get("metrics", {}).items():
                if m.get("discovery"):
                    groups.setdefault((alt["option"], option_value_text(alt["value"]), metric), []).append((players, m, alt))
    out = []
    for (option, value, metric), seen in groups.items():
        parts, score = [], 0.0
        if metric != "length":  # a share's effect smaller than the designer's difference stays in the table
            seen = [(n, m, alt) for n, m, alt in seen if abs(m["difference"]) >= thresholds(counts[n])["difference"]]
        for players, m, _ in seen:
            if metric == "length":
                base = m["baseline"] or 1
                # relative to the tolerance of the table time: a quarter longer or shorter scores 1
                score = max(score, abs(m["difference"]) / base / (LENGTH_TOLERANCE - 1))
                parts.append(say("rule.part_length", base=number(m['baseline'], ".1f"),
                                 variant=number(m['variant'], ".1f"),
                                 relative=term_percent(m['difference'] / base), players=players))
            else:
                score = max(score, abs(m["difference"]) / thresholds(counts[players])["difference"])
                parts.append(say("rule.part_share", base=pct(m["baseline"]), variant=pct(m["variant"]),
                                 diff=points(m["difference"]), players=players))
        if not seen or score < 0.2:  # a length changed by less than 5%: the table says it
            continue
        out.append({"score": score, "text": say("rule", rule=rule_name(option, seen[0][2]["value"]), metric=label(metric),
                                                parts="; ".join(parts)),
                    "kind": "rule", "option": option, "value": seen[0][2]["value"], "metric": metric,
                    "players": [n for n, _, _ in seen]})
    return out


def label(metric_id: str) -> str:
    """A headline metric's name in a sentence (`metrics.Metric.label`, without a unit)."""
    return headline_metric(metric_id).label()


#: the fields of `ladder_words` that the "skill matters" sentences name
LADDER_FIELDS = ("levels", "chain", "top", "rating", "low", "high")


def ladder_words(trace: dict) -> dict:
    """What the findings and the verdict say of one player count's skill trace: the depth, the
    ladder as a chain ("random < greedy ~ mcts-16": < where the level above is distinguishable,
    ~ where not), the strongest level (highest rating; the ladder's last when tied) with its
    rating and interval, its rating-implied share against random, and the steps of more search
    above the last distinguishable level that were not told apart (a step between two budgets
    that is no doubling, Links' history search against the plain one, is not "searching longer")."""
    from boardlab.analysis.skill import budget_of

    levels, pairings = trace["levels"], trace["pairings"]
    chain = agent_label(levels[0]["agent"])
    for level, p in zip(levels[1:], pairings):
        chain += (" < " if p["distinguished"] else " ~ ") + agent_label(level["agent"])
    top = max(reversed(levels), key=lambda level: level["rating"])
    odds = 10 ** (top["rating"] / 400)
    bound = top.get("at_least")  # a step below it won outright: its rating only a lower bound (`skill.at_least`)
    n = trace["players"]
    last = max((i for i, p in enumerate(pairings) if p["distinguished"]), default=-1)

    def longer(p: dict) -> bool:
        a, b = budget_of(p["agent"]), budget_of(p["below"])
        return a is not None and (b is None or a == 2 * b)

    return {"depth": trace["depth"], "levels": say_plural("levels", trace["depth"] + 1), "chain": chain,
            "top": top["agent"], "rating": number(top['rating'] if bound is None else bound, ".0f"),
            "low": number(top['ci95'][0], ".0f"), "high": number(top['ci95'][1], ".0f"), "at_least": bound is not None,
            "share": odds / (odds + n - 1),
            "flat": [p for p in pairings[last + 1:] if longer(p)], "fair": trace["fair_share"],
            "games": _span(sorted({p["games"] for p in pairings} or {trace["games_per_level"]}), ","),
            "games_played": sorted({p["games"] for p in pairings} or {trace["games_per_level"]}),
            "last": levels[-1]["agent"]}


def _skill(counts: dict[int, dict]) -> list[dict]:
    """The skill trace's findings: "skill matters" with the depth at every player count where some
    level is distinguishable (one count: its chain and top rating; several: the counts grouped by
    depth, the range of top ratings), and what the undistinguished steps above the last
    distinguishable one could detect; "luck dominates" where no level is distinguishable and the
    games could have told; else "too few games to tell"."""
    out, matters = [], []
    for players, d in counts.items():
        trace = d.get("skill")
        if not trace or not trace.get("pairings"):
            continue
        w = ladder_words(trace)
        first = trace["pairings"][0]["power"]
        if w["depth"]:
            matters.append((players, w, trace))
        elif first["enough"]:
            out.append({"score": 2.0, "kind": "luck", "players": [players],
                        "text": say("skill.luck", players=players, games=w["games"], mdd=unsigned_points(first["mdd"]),
                                    top=w["top"], share=pct(w["share"], 0), fair=pct(w["fair"], 0))})
        else:
            out.append({"score": 3.0, "kind": "too few", "players": [players],
                        "text": say("skill.too_few", players=players, games=w["games"],
                                    mdd=unsigned_points(first["mdd"] or 1.0), needed=game_count(first['games_needed'] or 0),
                                    difference=unsigned_points(first["difference"]))})
    if not matters:
        return out
    games = _span(sorted({g for _, w, _ in matters for g in w["games_played"]}), ",")  # a step's games: one span
    tops = listed(sorted({agent_label(w["top"]) for _, w, _ in matters}))
    if len(matters) == 1:
        players, w, _ = matters[0]
        part = "skill.matters_part_at_least" if w["at_least"] else "skill.matters_part"
        text = say("skill.matters", parts=say(part, players=players, **{k: w[k] for k in LADDER_FIELDS}),
                   top=tops, games=games)
    else:
        by_depth: dict[int, list] = {}
        for players, w, _ in matters:
            by_depth.setdefault(w["depth"], []).append(players)
        groups = "; ".join(say("skill.depth_group", levels=say_plural("levels", depth + 1),
                               players=listed(str(n) for n in ns)) for depth, ns in sorted(by_depth.items(), reverse=True))
        ratings = sorted((round(trace_top_rating(trace)), w["at_least"]) for _, w, trace in matters)
        text = say("skill.matters_many", where=_where([n for n, _, _ in matters], counts), groups=groups, top=tops,
                   ratings=_span([("≥ " if bound else "") + number(r, ".0f") for r, bound in ratings]), games=games)
    flats: dict[str, list] = {}
    for players, w, trace in matters:
        if w["flat"]:
            below = w["flat"][0]["below"]
            flats.setdefault(below, []).append((players, w["flat"]))
    for below, seen in flats.items():
        steps = [p for _, flat in seen for p in flat]
        powers = [p["power"] for p in steps]
        worst = max(powers, key=lambda q: q["mdd"] or 1.0)
        needed = "" if all(q["enough"] for q in powers) else say(
            "skill.needed", needed=game_count(max(q['games_needed'] or 0 for q in powers)),
            difference=unsigned_points(worst["difference"]))
        text += say("skill.flat", level=below, players=listed(str(n) for n, _ in seen),
                    decided=_span(sorted({p["decided"] for p in steps}), ","),
                    mdd=say("points", n=_span(sorted((q["mdd"] or 1.0) * 100 for q in powers), ".1f")),
                    needed=needed)
    score = max((w["share"] - w["fair"]) * 50 for _, w, _ in matters)
    out.append({"score": max(score, 1.0), "kind": "skill", "players": [n for n, _, _ in matters], "text": text})
    return out


def _games(seen: Iterable[tuple[int, dict]]) -> str:
    """The game counts of these (players, row) pairs, listed."""
    return listed(game_count(g) for g in sorted({e["games"] for _, e in seen}))


def _span(values: Sequence[Any], spec: str | None = None) -> str:  # Any: numbers (with `spec`) or texts
    """The smallest to the largest of sorted `values` ("9.5 to 13.0"), or the one value; numbers
    written by the format `spec` in the report's language, texts as they are."""
    first, last = (values[0], values[-1]) if spec is None else (number(values[0], spec), number(values[-1], spec))
    return first if first == last else say("span", low=first, high=last)


def trace_top_rating(trace: dict) -> float:
    """The strongest level's rating of a skill trace (`ladder_words`' top): its lower bound where a
    step below it was won outright (`skill.at_least`)."""
    top = max(reversed(trace["levels"]), key=lambda level: level["rating"])
    return top.get("at_least", top["rating"])


def term_percent(ratio: float) -> str:
    """A signed relative change as a whole percentage ("+5%")."""
    return say("percent", n=number(ratio * 100, "+.0f"))


def _restricted(counts: dict[int, dict]) -> list[dict]:
    """Restricted play's findings, per element over the player counts: it matters (a discovery
    with the full agent ahead; "decides most games" when d > 1/2, see `sections.decided_by`), the
    agent does better barred from it, or, for the elements without a discovery, one finding:
    nothing these games detect ("a rule that could go") or too few games to tell; an element whose
    barring changed none of the agent's probed moves has a finding of its own (the games could not
    tell, whatever their number)."""
    from boardlab.analysis.report.sections import decided_by

    groups: dict[str, list] = {}
    agents = {}
    for players, d in counts.items():
        r = d.get("restricted") or {}
        for e in r.get("elements", []):
            groups.setdefault(e["element"], []).append((players, e))
            agents[e["element"]] = r["agent"]
    out, quiet, inert = [], [], []
    for element, seen in groups.items():
        agent = agents[element]
        found = [(n, e) for n, e in seen if e.get("discovery")]
        if not found and all(e.get("probe") and e["probe"]["changed"] == 0 for _, e in seen):
            inert.append((element, seen))  # the games were the agent against itself: they tell nothing
            continue
        if not found:
            quiet.append((element, seen))
            continue
        ahead = [(n, e) for n, e in found if e["share"] > e["fair_share"]]
        behind = [(n, e) for n, e in found if e["share"] <= e["fair_share"]]
        if ahead:
            parts = listed(say("element.part", share=pct(e["share"], 0), fair=pct(e["fair_share"], 0), players=n)
                           for n, e in ahead)
            most = max(decided_by(e["share"], e["fair_share"]) for _, e in ahead)
            decides = say("element.decides_most" if most > 0.5 else "element.decides", decided=pct(most, 0))
            description = word(seen[0][1]["description"])
            out.append({"score": max((e["share"] - e["fair_share"]) * 50 for _, e in ahead), "kind": "element",
                        "players": [n for n, _ in ahead], "element": element,
                        "text": say("element.matters", element_cap=description[0].upper() + description[1:],
                                    agent=agent, parts=parts, decides=decides, games=_games(ahead))})
        if behind:
            parts = listed(say("element.part", share=pct(e["share"], 0), fair=pct(e["fair_share"], 0), players=n)
                           for n, e in behind)
            out.append({"score": max((e["fair_share"] - e["share"]) * 50 for _, e in behind), "kind": "element",
                        "players": [n for n, _ in behind], "element": element,
                        "text": say("element.hurts", agent=agent, element=word(seen[0][1]["description"]), parts=parts,
                                    games=_games(behind))})
    for element, seen in inert:
        probed = [e["probe"] for _, e in seen]
        binding = sum(p["binding"] for p in probed)
        fields = {"agent": agents[element], "element": word(seen[0][1]["description"]), "binding": game_count(binding),
                  "decisions": game_count(sum(p["decisions"] for p in probed)),
                  "probed": say_plural("probed_games", sum(p["games"] for p in probed))}
        out.append({"score": 1.6, "kind": "element unused", "players": [n for n, _ in seen], "element": element,
                    # never binding: "at all 0 decisions" would say nothing; say it never took a move away
                    "text": (say_plural("element.unused", binding, **fields) if binding else
                             say("element.never", **fields))})
    if quiet:
        powers = [e["power"] for _, seen in quiet for _, e in seen]
        agent = listed(sorted({agents[element] for element, _ in quiet}))
        fields = {"elements": listed((word(seen[0][1]["description"]) for _, seen in quiet), "or"), "agent": agent,
                  "games": listed(game_count(g) for g in sorted({e['games'] for _, seen in quiet for _, e in seen})),
                  "mdd": unsigned_points(max(q["mdd"] or 1.0 for q in powers))}
        quiet_counts = sorted({n for _, seen in quiet for n, _ in seen})
        if all(q["enough"] for q in powers):
            out.append({"score": 2.0, "kind": "element could go", "players": quiet_counts,
                        "text": say("element.could_go", **fields)})
        else:
            out.append({"score": 1.5, "kind": "too few", "players": quiet_counts,
                        "text": say_plural("element.too_few", len(quiet),
                                           needed=game_count(max(q['games_needed'] or 0 for q in powers)), **fields)})
    return out

"""Findings: sentences generated from a report's numbers, ordered by importance.

Each finding has a score on one scale (roughly "points of win rate, or its equivalent"), so
that a 20-point seat imbalance outranks a 3-point rule effect; nothing here is written by hand
about a particular game.
"""

from __future__ import annotations


def findings(name: str, by_players: dict) -> list[dict]:
    """[{"score", "text"}] from the report's data per player count, most important first.

    Effects seen at several player counts (a rule option, a skill pairing, a length beyond the
    stated time) are one finding each, naming the counts.
    """
    counts = {int(k): d for k, d in by_players.items()}
    out = _first_seat(counts)
    for players, d in counts.items():
        out += _seats(name, players, d)
    out += _length(name, counts) + _rules(counts) + _skill(counts)
    out.sort(key=lambda f: (-f["score"], f["text"]))
    return out


def _first_seat(counts):
    """One finding for seat 1's significant advantages or disadvantages, over every player count."""
    seen = [(n, d["seats"]["first_player_advantage"]) for n, d in counts.items()]
    decided = [(n, a) for n, a in seen if a["p_value"] < 0.05]
    if not decided:
        return []
    ups = [a["advantage"] > 0 for _, a in decided]
    where = "at every player count" if len(decided) == len(seen) else \
        "with " + ", ".join(str(n) for n, _ in decided) + " players"
    how = "more" if all(ups) else "less" if not any(ups) else "more or less"
    if len(decided) == 1:
        n, a = decided[0]
        text = (f"Seat 1 wins {how} than a fair share with {n} players: {a['rate']:.1%} against "
                f"{a['fair_share']:.1%} ({a['advantage'] * 100:+.1f} points, p {_p(a['p_value'])}).")
    else:
        text = (f"Seat 1 wins {how} than a fair share {where}: " + "; ".join(
            f"{a['rate']:.1%} against {a['fair_share']:.1%} with {n} ({a['advantage'] * 100:+.1f} points, "
            f"p {_p(a['p_value'])})" for n, a in decided) + " players.")
    # relative to the fair share: 5 points matter more among 6 players than between 2
    return [{"score": max(abs(a["advantage"]) / a["fair_share"] * 50 for _, a in decided), "text": text}]


def _seats(name, players, d):
    s = d["seats"]
    out = []
    rates = [r["rate"] for r in s["win_rate_by_seat"]]
    worst, best = rates.index(min(rates)), rates.index(max(rates))
    if s["balance"] < 0.9 and players > 2:
        out.append({"score": (1 - s["balance"]) * 100,
                    "text": f"With {players} players, seat {best + 1} wins {rates[best]:.1%} and seat {worst + 1} "
                            f"{rates[worst]:.1%}: balance {s['balance']:.2f}."})
    if s["unfinished"]["share"] >= 0.01:
        out.append({"score": s["unfinished"]["share"] * 100,
                    "text": f"With {players} players, {s['unfinished']['share']:.1%} of games never end "
                            f"(stopped at the cap)."})
    return out


def _length(name, counts):
    long = []
    for players, d in counts.items():
        length = d["length"]
        if "table_minutes" in length and length["finished_games"]:
            minutes, stated = length["table_minutes"]["median"], length["stated_minutes"]
            if minutes > 1.5 * stated:
                long.append((minutes / stated, players, d))
    if not long:
        return []
    long.sort(reverse=True)
    ratio, players, d = long[0]
    length = d["length"]
    minutes, stated = length["table_minutes"]["median"], length["stated_minutes"]
    text = (f"As written, a {players}-player game of {name} lasts about {length['median']:.0f} {length['unit']} "
            f"(median), {_duration(minutes)} at the definition's pace, against the {stated} minutes it states")
    fits = []
    for alt in d.get("sensitivity", {}).get("alternatives", []):
        m = alt.get("metrics", {}).get("mean length")
        if m and m["significant"] and m["variant"] * length["seconds_per_unit"] / 60 <= 1.5 * stated:
            fits.append(f"`{alt['option']} = {_value(alt['value'])}`")
    text += ("; only " + " or ".join(fits) + " brings it near (mean length)." if fits else
             "; no single rule option brings it near.")
    if len(long) > 1:
        text += " Also longer than stated (median): " + ", ".join(
            f"{p} players {_duration(x['length']['table_minutes']['median'])}" for _, p, x in sorted(long[1:], key=lambda t: t[1])) + "."
    return [{"score": min(50.0, 10 * ratio), "text": text}]


def _rules(counts):
    groups: dict[tuple, list] = {}
    for players, d in counts.items():
        for alt in d.get("sensitivity", {}).get("alternatives", []):
            for metric, m in alt.get("metrics", {}).items():
                if m["significant"]:
                    groups.setdefault((alt["option"], _value(alt["value"]), metric), []).append((players, m))
    out = []
    for (option, value, metric), seen in groups.items():
        parts, score = [], 0.0
        for players, m in seen:
            if metric == "mean length":
                base = m["baseline"] or 1
                score = max(score, abs(m["difference"]) / base * 20)
                parts.append(f"{m['baseline']:.1f} to {m['variant']:.1f} ({m['difference'] / base:+.0%}) "
                             f"with {players}")
            else:
                score = max(score, abs(m["difference"]) * 100)
                parts.append(f"{m['baseline']:.1%} to {m['variant']:.1%} ({m['difference'] * 100:+.1f} points) "
                             f"with {players}")
        if score < 1:
            continue
        out.append({"score": score, "text": f"`{option} = {value}` changes the {metric}: " + "; ".join(parts)
                                            + " players."})
    return out


def _skill(counts):
    groups: dict[tuple, list] = {}
    for players, d in counts.items():
        for p in d.get("skill", {}).get("pairings", []):
            groups.setdefault((p["agent"], p["against"]), []).append((players, p))
    out = []
    for (agent, against), seen in groups.items():
        decided = [(n, p) for n, p in seen if p["p_value"] < 0.05]
        edges = [p["rate"] - p["fair_share"] for _, p in decided]
        score = max((abs(e) * 50 for e in edges), default=2.0)
        rates = "; ".join(f"{p['rate']:.0%} against a fair {p['fair_share']:.0%} with {n}" for n, p in seen)
        if decided and all(e > 0 for e in edges) and len(decided) == len(seen):
            verdict = "wins more than a fair share at every player count"
        elif not decided:
            verdict = "does no better than a fair share at any player count"
        else:
            verdict = "wins more than a fair share at some player counts only"
        out.append({"score": score, "text": f"{agent} against {against} {verdict} ({rates} players; "
                                            f"{seen[0][1]['games']} games each)."})
    return out


def _fmt(metric, value):
    return f"{value:.1f}" if metric == "mean length" else f"{value:.1%}"


def _value(value):
    return ("true" if value else "false") if isinstance(value, bool) else value


def _p(p):
    return "< 0.001" if p < 0.001 else f"= {p:.3f}"


def _duration(minutes: float) -> str:
    if minutes < 90:
        return f"{minutes:.0f} minutes"
    return f"{minutes / 60:.1f} hours"

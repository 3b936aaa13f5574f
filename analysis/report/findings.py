"""Findings: sentences generated from a report's numbers, ordered by importance.

Each finding has a score on one scale (roughly "points of win rate, or its equivalent"), so
that a 20-point seat imbalance outranks a 3-point rule effect; nothing here is written by hand
about a particular game.
"""

from __future__ import annotations


def findings(name: str, by_players: dict) -> list[dict]:
    """[{"score", "text"}] from the report's data per player count, most important first."""
    out = []
    for key, d in by_players.items():
        players = int(key)
        out += _seats(name, players, d) + _length(name, players, d) + _rules(players, d) + _skill(players, d)
    out.sort(key=lambda f: (-f["score"], f["text"]))
    return out


def _seats(name, players, d):
    s = d["seats"]
    a = s["first_player_advantage"]
    out = []
    if a["p_value"] < 0.05:
        out.append({"score": abs(a["advantage"]) * 100,
                    "text": f"With {players} players, seat 1 wins {a['rate']:.1%} of games against a fair "
                            f"{a['fair_share']:.1%} ({a['advantage'] * 100:+.1f} points, p {_p(a['p_value'])})."})
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


def _length(name, players, d):
    length = d["length"]
    if "table_minutes" not in length or not length["finished_games"]:
        return []
    minutes, stated = length["table_minutes"]["median"], length["stated_minutes"]
    if minutes <= 1.5 * stated:
        return []
    text = (f"As written, a {players}-player game of {name} lasts about {length['median']:.0f} {length['unit']} "
            f"(median), {_duration(minutes)} at the definition's pace, against the {stated} minutes it states")
    fits = []
    for alt in d.get("sensitivity", {}).get("alternatives", []):
        m = alt.get("metrics", {}).get("mean length")
        if m and m["significant"] and m["variant"] * length["seconds_per_unit"] / 60 <= 1.5 * stated:
            fits.append(f"`{alt['option']} = {_value(alt['value'])}`")
    text += ("; only " + " or ".join(fits) + " brings it near." if fits else
             "; no single rule option brings it near.")
    return [{"score": min(50.0, 10 * minutes / stated), "text": text}]


def _rules(players, d):
    out = []
    for alt in d.get("sensitivity", {}).get("alternatives", []):
        for metric, m in alt.get("metrics", {}).items():
            if not m["significant"]:
                continue
            if metric == "mean length":
                base = m["baseline"] or 1
                score = abs(m["difference"]) / base * 20
                change = f"{m['difference']:+.1f} ({m['difference'] / base:+.0%})"
            else:
                score = abs(m["difference"]) * 100
                change = f"{m['difference'] * 100:+.1f} points"
            if score < 1:
                continue
            out.append({"score": score, "text": f"With {players} players, `{alt['option']} = {_value(alt['value'])}` "
                                                f"changes the {metric} by {change} ({_fmt(metric, m['baseline'])} to "
                                                f"{_fmt(metric, m['variant'])})."})
    return out


def _skill(players, d):
    out = []
    for p in d.get("skill", {}).get("pairings", []):
        edge = p["rate"] - p["fair_share"]
        verdict = "wins more than a fair share" if p["p_value"] < 0.05 and edge > 0 else \
            "does no better than a fair share" if p["p_value"] >= 0.05 else "wins less than a fair share"
        out.append({"score": abs(edge) * 50 if p["p_value"] < 0.05 else 2.0,
                    "text": f"With {players} players, {p['agent']} against {p['against']} {verdict}: "
                            f"{p['rate']:.1%} against {p['fair_share']:.1%} ({p['games']} games)."})
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

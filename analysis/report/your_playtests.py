"""The report's "Your playtests" section: the designer's table games beside the model.

Per player count, from the playtests of this definition (its variant and definition hash; games
of earlier rules are counted and left out):

- the table's seat shares of decided games (one winner) with exact (Clopper-Pearson) 95%
  intervals, beside the share each level of the model predicts (self-play with that agent in
  every seat: the report's model agent, its beginner and its skilled level, from the games the
  report plays for them anyway);
- which level the table resembles most: the log-likelihood of the table's winners (seat won, or
  no single winner) and lengths under each level's games, with the likelihood ratio of the best
  level to the next (a ratio under 8 is weak evidence, 8 to 32 fairly strong, over 32 strong:
  Royall's benchmarks);
- each logged game's length as a percentile of the model agent's distribution (mid-rank);
- what the sample could tell: the smallest seat difference the decided games detect (80% power,
  5% level) and the games the designer's difference would need;
- the pace measured from the timed games, when there are enough (`playtests.measured_paces`).

The probability of a winner category under a level is (count + 1/2) / (games + (players + 1) / 2)
(the Jeffreys prior: no level is ruled out by one unseen outcome); the probability of a length L
is the share of the level's games within h of L, over 2h + 1 (h a tenth of the model's median
length, at least 1), with a floor of half a game.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Sequence

from boardlab.analysis.report.document import table, text
from boardlab.analysis.report.metrics import minimum_detectable_difference, trials_needed
from boardlab.analysis.report.wording import games as amount, measured_words, number, pct, say, say_plural, word

if TYPE_CHECKING:
    from boardlab.analysis.playtests import TableGame
    from boardlab.analysis.runner import GameRecord
    from boardlab.layouts.common import GameDefinition

#: likelihood ratios that Royall calls fairly strong and strong evidence
FAIRLY_STRONG, STRONG = 8.0, 32.0
#: the most table games listed one by one per player count
LISTED = 30


def exact_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson interval of a binomial share: it holds the true share at least 95% of the
    time however few the trials (wide with few; the whole of [0, 1] with none).

    >>> [round(x, 4) for x in exact_interval(3, 5)]
    [0.1466, 0.9473]
    """
    from scipy.stats import beta

    if trials == 0:
        return 0.0, 1.0
    tail = (1 - confidence) / 2
    low = 0.0 if successes == 0 else float(beta.ppf(tail, successes, trials - successes + 1))
    high = 1.0 if successes == trials else float(beta.ppf(1 - tail, successes + 1, trials - successes))
    return low, high


def winner_category(winners: Sequence[int], unfinished: bool, players: int) -> int:
    """The seat that won alone, or `players` for a game without a single winner."""
    return winners[0] if len(winners) == 1 and not unfinished else players


def level_log_likelihood(table_games: Sequence[tuple[int, int | None]], records: Sequence[GameRecord], players: int,
                         window: int) -> float:
    """Log-likelihood of table games, each (winner category, length or None), under one level's
    simulated games (`records`; see the module docstring for the estimates)."""
    counts = [0] * (players + 1)
    for r in records:
        counts[winner_category(r.winners, r.unfinished, players)] += 1
    total = len(records)
    lengths = sorted(r.length for r in records)
    import bisect

    out = 0.0
    for category, length in table_games:
        out += math.log((counts[category] + 0.5) / (total + (players + 1) / 2))
        if length is not None:
            near = bisect.bisect_right(lengths, length + window) - bisect.bisect_left(lengths, length - window)
            out += math.log(max(near, 0.5) / (total * (2 * window + 1)))
    return out


def percentile(length: int, lengths: Sequence[int]) -> float:
    """The mid-rank percentile of `length` among `lengths` (games at the cap count as longer).

    >>> percentile(10, [5, 10, 20, 30])
    0.375
    """
    below = sum(x < length for x in lengths)
    equal = sum(x == length for x in lengths)
    return (below + equal / 2) / len(lengths) if lengths else 0.0


def playtests_data(definition: GameDefinition, playtests: Sequence[TableGame], counts: Sequence[int], unit: str, level_records: dict,
                   model_agent: str, difference: float) -> dict:
    """The section's data.  `playtests` are the game's stored `TableGame`s (every variant and
    version); `level_records[n]` maps each agent of the ladder to its self-play records at n players.
    """
    from boardlab.analysis.store import definition_hash

    current = definition_hash(definition)
    variant = getattr(definition, "variant", "baseline")
    mine = [g for g in playtests if g.variant == variant]
    data: dict[str, Any] = {"games": len([g for g in mine if g.definition == current]),
                            "earlier_rules": len([g for g in mine if g.definition != current]),
                            "other_variants": len(playtests) - len(mine), "model_agent": model_agent,
                            "unit": unit, "by_players": {}}
    for n in counts:
        games = [g for g in mine if g.definition == current and g.players == n]
        if not games:
            continue
        decided = [g.winners[0] for g in games if len(g.winners) == 1]
        wins = [decided.count(s) for s in range(n)]
        levels = level_records.get(n, {})
        model = levels.get(model_agent, [])
        model_lengths = [r.length for r in model]
        pooled = sorted(r.length for records in levels.values() for r in records)
        window = max(1, round(0.1 * pooled[len(pooled) // 2])) if pooled else 1
        observed = [(winner_category(g.winners, False, n), g.length) for g in games]
        fits = [{"agent": agent, "log_likelihood": round(level_log_likelihood(observed, records, n, window), 6),
                 "games": len(records)} for agent, records in levels.items() if records]
        model_shares = {}
        for agent, records in levels.items():
            single = [r.winners[0] for r in records if len(r.winners) == 1 and not r.unfinished]
            model_shares[agent] = [single.count(s) / len(single) if single else None for s in range(n)]
        p0 = 1 / n
        mdd = minimum_detectable_difference(len(decided), p0)
        entry: dict[str, Any] = {
            "games": len(games), "decided": len(decided), "wins_by_seat": wins,
            "share_by_seat": [w / len(decided) if decided else None for w in wins],
            "ci95_by_seat": [list(exact_interval(w, len(decided))) for w in wins],
            "model_share_by_seat": model_shares, "fits": sorted(fits, key=lambda f: -f["log_likelihood"]),
            "length_window": window,
            "power": {"mdd": None if mdd is None else round(mdd, 6), "difference": difference,
                      "decided_needed": trials_needed(difference, p0)},
            "logged": [{"date": g.date, "seats": list(g.seats), "winners": list(g.winners), "length": g.length,
                        "minutes": g.minutes, "source": g.source,
                        "percentile": None if g.length is None or not model_lengths
                        else round(percentile(g.length, model_lengths), 4)} for g in games]}
        found = definition.measured_pace(n) if hasattr(definition, "measured_pace") else None
        timed = sum(1 for g in games if g.minutes and g.length)
        entry["pace"] = ({"seconds": found.seconds, "ci95": [found.low, found.high], "games": found.games,
                          "players": found.players} if found is not None else None)
        entry["timed_games"] = timed
        data["by_players"][str(n)] = entry
    return data


def _fit_words(fits: list[dict]) -> str:
    if not fits:
        return ""
    best = fits[0]
    if len(fits) == 1:
        return say("playtests.fit_one", agent=best["agent"])
    ratio = math.exp(best["log_likelihood"] - fits[1]["log_likelihood"])
    strength = (say("playtests.evidence_strong") if ratio > STRONG else
                say("playtests.evidence_fair") if ratio >= FAIRLY_STRONG else say("playtests.evidence_weak"))
    shown = say("playtests.more_than", n=number(1000, ",")) if ratio > 1000 else number(ratio, ".1f" if ratio < 10 else ".0f")
    return say("playtests.fit", agent=best["agent"], ratio=shown, next=fits[1]["agent"],
               strength=strength)


def playtests_blocks(data: dict) -> list:
    """The section's blocks (see the module docstring)."""
    blocks = []
    if not data["by_players"]:
        blocks.append(text(say("playtests.none")))
    for key, d in data["by_players"].items():
        n = int(key)
        agents = list(d["model_share_by_seat"])
        rows = [[str(s + 1), d["wins_by_seat"][s], d["share_by_seat"][s], d["ci95_by_seat"][s],
                 *[d["model_share_by_seat"][a][s] for a in agents]] for s in range(n)]
        columns = [(say("col.seat"), "text"), (say("playtests.col.wins"), "int"), (say("playtests.col.share"), "pct"),
                   (say("playtests.col.exact"), "ci_pct"),
                   *[(say("playtests.col.model", agent=a), "pct") for a in agents]]
        note = say_plural("playtests.seats_note", d["games"], games=amount(d["games"]), decided=amount(d["decided"]))
        blocks.append(table(say("playtests.seats_title", players=n), columns, rows, note))
        power = d["power"]
        if power["mdd"] is None:
            sentence = say("playtests.power_none", needed=amount(power["decided_needed"]),
                           difference=number(power["difference"] * 100, "g"))
        else:
            sentence = say_plural("playtests.power", d["decided"], decided=amount(d["decided"]),
                                  mdd=number(min(power["mdd"], 1.0) * 100, ".0f"),
                                  difference=number(power["difference"] * 100, "g"),
                                  needed=amount(power["decided_needed"]))
        words = [sentence, _fit_words(d["fits"])]
        if d["pace"] is not None:
            p = d["pace"]
            words.append(say("playtests.pace", seconds=number(p["seconds"], "g"), unit=word(data["unit"].rstrip("s")),
                             source=measured_words(p)))
        else:
            words.append(say("playtests.no_pace", timed=amount(d["timed_games"]), unit=word(data["unit"])))
        blocks.append(text(" ".join(w for w in words if w)))
        logged = d["logged"][:LISTED]
        rows = [[g["date"], ", ".join(g["seats"]), ", ".join(g["seats"][s] for s in g["winners"]) or "-",
                 g["length"], g["minutes"], g["percentile"]] for g in logged]
        blocks.append(table(say("playtests.games_title", players=n),
                            [(say("playtests.col.date"), "text"), (say("playtests.col.seats"), "text"),
                             (say("playtests.col.winners"), "text"), (word(data["unit"]), "int"),
                             (say("playtests.col.minutes"), "f1"), (say("playtests.col.percentile"), "pct")],
                            rows, say("playtests.games_note", agent=data["model_agent"], unit=word(data["unit"]),
                                      more=amount(len(d["logged"]) - len(logged)))
                            if len(d["logged"]) > len(logged) else
                            say("playtests.games_note_all", agent=data["model_agent"], unit=word(data["unit"]))))
    left_out = []
    if data["earlier_rules"]:
        left_out.append(say_plural("playtests.earlier", data["earlier_rules"], count=amount(data["earlier_rules"])))
    if data["other_variants"]:
        left_out.append(say_plural("playtests.other_variants", data["other_variants"],
                                   count=amount(data["other_variants"])))
    if left_out:
        blocks.append(text(" ".join(left_out)))
    return blocks

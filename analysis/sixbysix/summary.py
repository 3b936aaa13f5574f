"""6x6's own simulation figures (`SixBySixGame.summarize`, filed under "sixbysix" in the summary)
and their plain-text lines; the per-seat results of each lead rule come from the runner's
`seat_results`."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.runner import seat_results
from boardlab.analysis.stats import describe_lengths, two_proportion_test, wilson_interval


def summarize_records(game, records: list) -> dict[str, Any]:
    """The 6x6 part of a simulation summary (see `SixBySixGame.summarize`)."""
    stats = [r.stats for r in records]
    finished = [r.length for r in records if not r.unfinished]
    rounds = sum(s["rounds"] for s in stats)
    firsts = [s["first_elimination"] for s in stats if s["first_elimination"] is not None]
    minutes_per_round = game.definition.analysis.seconds_per_round / 60
    lengths = describe_lengths(finished)
    bets = [sum(s["bets_by_face"][i] for s in stats) for i in range(len(game.faces))]
    refunds = [sum(s["refunds_by_face"][i] for s in stats) for i in range(len(game.faces))]
    out: dict[str, Any] = {
        "rounds_to_first_elimination": describe_lengths(firsts),
        "rounds_to_end": lengths,
        "no_winner_share": sum(s["no_winner_rounds"] for s in stats) / rounds if rounds else 0.0,
        "largest_bank": {"max": max((s["largest_bank"] for s in stats), default=0),
                         "mean": round(sum(s["largest_bank"] for s in stats) / len(stats), 6) if stats else 0.0},
        "chips_to_house": sum(s["house_chips"] for s in stats),
        "chips_over_time": {checkpoint: {"mean_chips_by_seat": [round(sum(s["chips_over_time"][checkpoint][seat]
                                                                          for s in stats) / len(stats), 3)
                                                                    for seat in range(game.players)],
                                         "mean_bank": round(sum(s["chips_over_time"][checkpoint][-1]
                                                                for s in stats) / len(stats), 3),
                                         "mean_players_left": round(sum(sum(c > 0 for c in s["chips_over_time"]
                                                                            [checkpoint][:-1]) for s in stats)
                                                                    / len(stats), 3)}
                            for checkpoint in (stats[0]["chips_over_time"] if stats else {})},
        "refund_rate_by_face": {str(face): {"bets": b, "refunds": k, "rate": k / b if b else 0.0,
                                            "ci95": list(wilson_interval(k, b))}
                                for face, b, k in zip(game.faces, bets, refunds)},
        "table_minutes": {key: round(lengths[key] * minutes_per_round, 2) for key in ("mean", "median", "p90")},
        "seconds_per_round": game.definition.analysis.seconds_per_round,
        "box_minutes": game.definition.game.minutes,
    }
    leads = {game.lead: seat_results(game.players, [(r.winners, r.unfinished) for r in records])}
    if records and all("other_lead" in s for s in stats):
        other = stats[0]["other_lead"]["lead"]
        leads[other] = seat_results(game.players, [(tuple(s["other_lead"]["winners"]), s["other_lead"]["unfinished"])
                                                    for s in stats])
        leads[other]["length"] = describe_lengths([s["other_lead"]["rounds"] for s in stats
                                                   if not s["other_lead"]["unfinished"]])
        fixed, rotate = leads["fixed"], leads["rotate"]
        out["lead_seat1_p_value"] = two_proportion_test(fixed["wins_by_seat"][0], len(records),
                                                        rotate["wins_by_seat"][0], len(records))
    out["by_lead"] = leads
    return out


def describe(summary: dict) -> str:
    """Plain-text lines for the 6x6 part of a summary: every number with its label and unit."""
    first, end, minutes = summary["rounds_to_first_elimination"], summary["rounds_to_end"], summary["table_minutes"]
    box = summary["box_minutes"]
    lines = [f"rounds to the first elimination: mean {first['mean']:.1f}, median {first['median']:g}, "
             f"90th percentile {first['p90']:g} (9 games in 10 lose a player sooner)",
             f"rounds to the end: mean {end['mean']:.1f}, median {end['median']:g}, 90th percentile {end['p90']:g}",
             f"table time at {summary['seconds_per_round']:g} s a round (analysis.seconds_per_round): mean "
             f"{minutes['mean']:.0f} min, median {minutes['median']:.0f} min, 90th percentile {minutes['p90']:.0f} min",
             f"  against the {box} min the definition states (game.minutes): the mean game takes "
             f"{minutes['mean'] / box:.1f} times as long" + (
                 "; the stated time is far too short" if minutes["mean"] > 1.5 * box else
                 "; the stated time is too long" if minutes["mean"] < box / 1.5 else "; close to the stated time"),
             f"rounds without a winner (nobody's marker on the sum): {summary['no_winner_share']:.1%}",
             f"largest bank: {summary['largest_bank']['max']} chips (the largest of each game: mean "
             f"{summary['largest_bank']['mean']:.1f} chips)",
             "chip refunded, by bet face (1 in 6 expected whatever the face): " + "; ".join(
                 f"{face}: {r['rate']:.1%} of {r['bets']:,} bets" if r["bets"] else f"{face}: never bet"
                 for face, r in summary["refund_rate_by_face"].items())]
    if summary["chips_over_time"]:
        lines += ["", "after round   players left   chips in the bank   mean chips by seat (1, 2, ...)"]
        for checkpoint, c in summary["chips_over_time"].items():
            lines.append(f"{checkpoint:>11}   {c['mean_players_left']:12.2f}   {c['mean_bank']:17.1f}   "
                         + " ".join(f"{x:5.1f}" for x in c["mean_chips_by_seat"]))
    leads = summary["by_lead"]
    if len(leads) == 2:
        lines += ["", "seat   lead fixed              lead rotate          (same seeds; win rate and 95% interval)"]
        fixed, rotate = leads["fixed"]["win_rate_by_seat"], leads["rotate"]["win_rate_by_seat"]
        for seat, (f, r) in enumerate(zip(fixed, rotate), start=1):
            lines.append(f"{seat:>4}   {f['rate']:6.1%} ({f['ci95'][0]:5.1%}..{f['ci95'][1]:5.1%})"
                         f"   {r['rate']:6.1%} ({r['ci95'][0]:5.1%}..{r['ci95'][1]:5.1%})")
        p = summary["lead_seat1_p_value"]
        lines.append(f"unfinished (rules.max_rounds reached): lead fixed {leads['fixed']['unfinished']}, "
                     f"lead rotate {leads['rotate']['unfinished']}")
        lines.append(f"seat 1, fixed against rotating lead: p-value {p:.3g} (the chance of a difference at least "
                     f"this large if the lead rule changed nothing; "
                     + ("below 0.05: a real difference)" if p < 0.05 else "0.05 or more: not shown to differ)"))
    return "\n".join(lines)

"""Links' additions to a simulation summary (`boardlab simulate links`).

From each finished game's `stats` (see `LinksState.stats`): the score distribution overall and
per seat, captures per game by what captured (each master, the fifth card), the share of turns
in which the player to move had no play, passes, cards left in hands at the end, how often the
lead changed, and the game length in rounds.  Unfinished games are left out of these figures.
"""

from __future__ import annotations

from collections import Counter

from boardlab.analysis.links.engine import FIFTH
from boardlab.analysis.stats import describe_lengths


def summarize(game, records: list) -> dict:
    """Links' own figures (the runner files them under "links" in the summary)."""
    finished = [r for r in records if not r.unfinished]
    n = game.players
    games = len(finished)
    scores = [s for r in finished for s in r.stats["scores"]]
    by_seat = [[r.stats["scores"][seat] for r in finished] for seat in range(n)]
    winning = [max(r.stats["scores"]) for r in finished]
    kinds = [FIFTH, *game.deck.master_names]
    captures = {k: {"captures_per_game": 0.0, "cards_per_game": 0.0} for k in kinds}
    for r in finished:
        for k, (times, cards) in r.stats["captures"].items():
            captures[k]["captures_per_game"] += times
            captures[k]["cards_per_game"] += cards
    for k in kinds:
        for field in captures[k]:
            captures[k][field] = round(captures[k][field] / games, 6) if games else 0.0
    turns = sum(r.length for r in finished)
    blocked = sum(r.stats["blocked_turns"] for r in finished)
    histogram = Counter(scores)

    def mean(values) -> float:
        return round(sum(values) / len(values), 6) if values else 0.0

    return {
        "finished_games": games,
        "score": {**describe_lengths(scores), "histogram": {str(v): histogram[v] for v in sorted(histogram)}},
        "mean_score_by_seat": [mean(s) for s in by_seat],
        "winning_score": describe_lengths(winning),
        "captures": captures,
        "turns_without_a_play": blocked,
        "share_of_turns_without_a_play": round(blocked / turns, 6) if turns else 0.0,
        "passes_per_game": mean([r.stats["passes"] for r in finished]),
        "cards_left_in_hands": describe_lengths([r.stats["left_in_hands"] for r in finished]),
        "lead_changes": describe_lengths([r.stats["lead_changes"] for r in finished]),
        "rounds": describe_lengths([r.stats["rounds"] for r in finished]),
    }


def describe(figures: dict) -> str:
    """The Links lines of `boardlab simulate`'s plain-text output (`figures`: what `summarize` gave)."""
    s = figures
    if not s["finished_games"]:
        return "no game finished"
    score, rounds = s["score"], s["rounds"]
    caught = ", ".join(f"{k} {v['captures_per_game']:.2f} ({v['cards_per_game']:.1f} cards)"
                       for k, v in s["captures"].items())
    return "\n".join([
        f"score (captured - left in hand): mean {score['mean']:.2f}, median {score['median']:g}, "
        f"{score['min']} .. {score['max']}; winning score mean {s['winning_score']['mean']:.2f}",
        "mean score by seat: " + ", ".join(f"{v:.2f}" for v in s["mean_score_by_seat"]),
        f"captures per game: {caught}",
        f"turns without a play: {s['share_of_turns_without_a_play']:.1%}; passes per game {s['passes_per_game']:.2f}",
        f"cards left in hands at the end: mean {s['cards_left_in_hands']['mean']:.2f}",
        f"lead changes per game: mean {s['lead_changes']['mean']:.2f}, max {s['lead_changes']['max']}",
        f"rounds: mean {rounds['mean']:.1f}, median {rounds['median']:g}, 90th percentile {rounds['p90']:g}",
    ])

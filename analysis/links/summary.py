"""Links' additions to a simulation summary (`boardlab simulate links`).

From each finished game's `stats` (see `LinksState.stats`): the score distribution overall and
per seat, captures per game by what captured (each master, the fifth card), the share of turns
in which the player to move had no play, passes, cards left in hands at the end, how often the
lead changed, and the game length in rounds.  Unfinished games are left out of these figures.

`LinksTally` (`LinksGame.tally`) streams them: integer counts, sums and histograms that merge in
any order, so `simulate` keeps no record.  `summarize` computes the same figures from a list of
records, the obvious way; it is the twin the tally is tested against.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterable

from boardlab.analysis.links.engine import FIFTH
from boardlab.analysis.stats import describe_lengths
from boardlab.analysis.tally import Histogram, Tally

if TYPE_CHECKING:
    from boardlab.analysis.links.engine import LinksGame


def summarize(game: LinksGame, records: list) -> dict:
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

    def mean(values: list) -> float:
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


class LinksTally(Tally):
    """`summarize`, streamed (see the module docstring): over the finished games, histograms of
    the scores (every seat's, and the winning one) and of the per-game counts, and integer sums
    by seat and by what captured."""

    def __init__(self, game: LinksGame) -> None:
        self.players = game.players
        self.kinds = (FIFTH, *game.deck.master_names)
        self.games = 0  # finished games only
        self.scores = Histogram()  # every seat's score of every finished game
        self.score_sums = [0] * self.players  # by seat
        self.winning = Histogram()
        self.captures = {k: [0, 0] for k in self.kinds}  # what captured -> [captures, cards], summed
        self.turns = 0
        self.blocked = 0
        self.passes = 0
        self.left_in_hands = Histogram()
        self.lead_changes = Histogram()
        self.rounds = Histogram()

    def add(self, records: Iterable) -> None:
        for r in records:
            if r.unfinished:
                continue
            s = r.stats
            self.games += 1
            self.scores.add(s["scores"])
            for seat in range(self.players):
                self.score_sums[seat] += s["scores"][seat]
            self.winning.counts[max(s["scores"])] += 1
            for k, (times, cards) in s["captures"].items():
                self.captures[k][0] += times
                self.captures[k][1] += cards
            self.turns += r.length
            self.blocked += s["blocked_turns"]
            self.passes += s["passes"]
            self.left_in_hands.counts[s["left_in_hands"]] += 1
            self.lead_changes.counts[s["lead_changes"]] += 1
            self.rounds.counts[s["rounds"]] += 1

    def merge(self, other: "LinksTally") -> None:
        self.games += other.games
        self.scores.merge(other.scores)
        self.score_sums = [a + b for a, b in zip(self.score_sums, other.score_sums)]
        self.winning.merge(other.winning)
        for k, (times, cards) in other.captures.items():
            self.captures[k][0] += times
            self.captures[k][1] += cards
        self.turns += other.turns
        self.blocked += other.blocked
        self.passes += other.passes
        for mine, theirs in ((self.left_in_hands, other.left_in_hands), (self.lead_changes, other.lead_changes),
                             (self.rounds, other.rounds)):
            mine.merge(theirs)

    def result(self) -> dict:
        games = self.games

        def mean(total: int) -> float:
            return round(total / games, 6) if games else 0.0

        return {
            "finished_games": games,
            "score": {**self.scores.describe(), "histogram": self.scores.to_dict()},
            "mean_score_by_seat": [mean(total) for total in self.score_sums],
            "winning_score": self.winning.describe(),
            "captures": {k: {"captures_per_game": mean(times), "cards_per_game": mean(cards)}
                         for k, (times, cards) in self.captures.items()},
            "turns_without_a_play": self.blocked,
            "share_of_turns_without_a_play": round(self.blocked / self.turns, 6) if self.turns else 0.0,
            "passes_per_game": mean(self.passes),
            "cards_left_in_hands": self.left_in_hands.describe(),
            "lead_changes": self.lead_changes.describe(),
            "rounds": self.rounds.describe(),
        }


def describe(figures: dict) -> str:
    """The Links lines of `boardlab simulate`'s plain-text output (`figures`: what `summarize` gave),
    in the language being written (`layouts.terms.speaking`; the `summary.links.*` terms)."""
    from boardlab.analysis.report.wording import number, pct, series, spread
    from boardlab.layouts.terms import term, word

    s = figures
    if not s["finished_games"]:
        return term("summary.links.none")
    score = s["score"]
    caught = series(term("summary.links.capture", what=term("summary.links.fifth") if k == "fifth" else word(k),
                         times=number(v["captures_per_game"], ".2f"), cards=number(v["cards_per_game"], ".1f"))
                    for k, v in s["captures"].items())
    return "\n".join([
        term("summary.links.score", mean=number(score["mean"], ".2f"), median=number(score["median"], "g"),
             min=number(score["min"], ""), max=number(score["max"], ""),
             winning=number(s["winning_score"]["mean"], ".2f")),
        term("summary.links.by_seat", scores=series(number(v, ".2f") for v in s["mean_score_by_seat"])),
        term("summary.links.captures", captures=caught),
        term("summary.links.no_play", share=pct(s["share_of_turns_without_a_play"]),
             passes=number(s["passes_per_game"], ".2f")),
        term("summary.links.left", mean=number(s["cards_left_in_hands"]["mean"], ".2f")),
        term("summary.links.lead_changes", mean=number(s["lead_changes"]["mean"], ".2f"),
             max=number(s["lead_changes"]["max"], "")),
        term("summary.links.rounds", spread=spread(s["rounds"])),
    ])

"""Deblockle's additions to the `boardlab simulate` summary, from the games' records.

- `ends`: how games ended: every block of one player scored, neither player could move, or the
  turn cap;
- `first_player`: the first player's share of the decided games, with its Wilson interval;
- `blocked`: games in which a player passed at least once ("deblockled"), per seat, and the
  turns they stayed blocked (passes: total, mean per game with a pass, most in one game);
- `scored`: blocks scored per seat, the mean game turn at which each player's k-th block
  scored, and how many blocks scored within each band of `BAND` turns.

`DeblockleTally` (`DeblockleGame.tally`) streams them: integer counts and sums that merge in any
order, so `simulate` keeps no record.  `summarize` computes the same figures from a list of
records, the obvious way; it is the twin the tally is tested against.

>>> from boardlab.analysis.runner import GameRecord
>>> r = GameRecord(0, 0, 0, ("random", "random"), (0,), False, 12,
...                {"passes": [0, 2], "blocked_spells": [0, 1], "scored_turns": [[3, 12], [8]], "end": "scored"})
>>> s = summarize([r], blocks=2)
>>> s["blocked"]["games"], s["scored"]["kth_block_turn"]["1"], s["ends"]["scored"]
(1, [{'games': 1, 'mean': 3.0}, {'games': 1, 'mean': 12.0}], 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

from boardlab.analysis.stats import wilson_interval
from boardlab.analysis.tally import Tally

if TYPE_CHECKING:
    from boardlab.analysis.runner import GameRecord

#: width of the turn bands of `scored.by_turn`
BAND = 10


def summarize(records: Sequence[GameRecord], blocks: int) -> dict:
    """Deblockle's own figures (the runner files them under "deblockle" in the summary)."""
    ends = {"scored": 0, "no_moves": 0, "cap": 0}
    blocked_games = 0
    blocked_by_seat = [0, 0]
    passes = [0, 0]
    most = 0
    spells = [0, 0]
    scored = [0, 0]
    kth: list[list[list[int]]] = [[[] for _ in range(blocks)] for _ in range(2)]
    bands: dict[int, int] = {}
    first = decided = 0
    for record in records:
        stats = record.stats
        ends[stats["end"]] = ends.get(stats["end"], 0) + 1
        if not record.unfinished and len(record.winners) == 1:
            decided += 1
            first += record.winners[0] == 0
        game_passes = stats["passes"]
        if any(game_passes):
            blocked_games += 1
        for seat in range(2):
            blocked_by_seat[seat] += game_passes[seat] > 0
            passes[seat] += game_passes[seat]
            spells[seat] += stats["blocked_spells"][seat]
            most = max(most, game_passes[seat])
            turns = stats["scored_turns"][seat]
            scored[seat] += len(turns)
            for k, turn in enumerate(turns):
                kth[seat][k].append(turn)
                band = (turn - 1) // BAND
                bands[band] = bands.get(band, 0) + 1
    games = len(records)
    rate = first / decided if decided else 0.0
    return {
        "ends": ends,
        "first_player": {"wins": first, "decided": decided, "rate": round(rate, 6),
                         "ci95": list(wilson_interval(first, decided))},
        "blocked": {"games": blocked_games, "share": round(blocked_games / games, 6) if games else 0.0,
                    "games_by_seat": blocked_by_seat, "passes_by_seat": passes, "spells_by_seat": spells,
                    "mean_passes_when_blocked": round(sum(passes) / blocked_games, 6) if blocked_games else 0.0,
                    "most_passes_in_a_game": most},
        "scored": {"blocks_by_seat": scored,
                   "per_game_by_seat": [round(s / games, 6) if games else 0.0 for s in scored],
                   "kth_block_turn": {str(seat + 1): [{"games": len(t), "mean": round(sum(t) / len(t), 6) if t else 0.0}
                                                      for t in kth[seat]] for seat in range(2)},
                   "by_turn": {f"{b * BAND + 1}-{(b + 1) * BAND}": bands[b] for b in sorted(bands)}},
    }


#: how a game can end, in the order `ends` lists them
ENDS = ("scored", "no_moves", "cap")


class DeblockleTally(Tally):
    """`summarize`, streamed (see the module docstring): integer counts and sums by seat, the
    count and turn sum of every seat's k-th scored block, and a count per turn band."""

    def __init__(self, blocks: int):
        self.games = 0
        self.ends = dict.fromkeys(ENDS, 0)
        self.first = self.decided = 0
        self.blocked_games = 0
        self.blocked_by_seat = [0, 0]
        self.passes = [0, 0]
        self.most = 0
        self.spells = [0, 0]
        self.scored = [0, 0]
        self.kth = [[[0, 0] for _ in range(blocks)] for _ in range(2)]  # seat, k -> [games, turn sum]
        self.bands: dict[int, int] = {}

    def add(self, records: Iterable) -> None:
        for record in records:
            stats = record.stats
            self.games += 1
            self.ends[stats["end"]] = self.ends.get(stats["end"], 0) + 1
            if not record.unfinished and len(record.winners) == 1:
                self.decided += 1
                self.first += record.winners[0] == 0
            game_passes = stats["passes"]
            self.blocked_games += any(game_passes)
            for seat in range(2):
                self.blocked_by_seat[seat] += game_passes[seat] > 0
                self.passes[seat] += game_passes[seat]
                self.spells[seat] += stats["blocked_spells"][seat]
                self.most = max(self.most, game_passes[seat])
                turns = stats["scored_turns"][seat]
                self.scored[seat] += len(turns)
                for k, turn in enumerate(turns):
                    self.kth[seat][k][0] += 1
                    self.kth[seat][k][1] += turn
                    band = (turn - 1) // BAND
                    self.bands[band] = self.bands.get(band, 0) + 1

    def merge(self, other: "DeblockleTally") -> None:
        self.games += other.games
        for end, k in other.ends.items():
            self.ends[end] = self.ends.get(end, 0) + k
        self.first += other.first
        self.decided += other.decided
        self.blocked_games += other.blocked_games
        self.most = max(self.most, other.most)
        for seat in range(2):
            self.blocked_by_seat[seat] += other.blocked_by_seat[seat]
            self.passes[seat] += other.passes[seat]
            self.spells[seat] += other.spells[seat]
            self.scored[seat] += other.scored[seat]
            for mine, theirs in zip(self.kth[seat], other.kth[seat]):
                mine[0] += theirs[0]
                mine[1] += theirs[1]
        for band, k in other.bands.items():
            self.bands[band] = self.bands.get(band, 0) + k

    def result(self) -> dict:
        games, first, decided, blocked_games = self.games, self.first, self.decided, self.blocked_games
        # an end outside ENDS (none is written today) is listed after them, by name, whatever the order of the games
        ends = {**{end: self.ends[end] for end in ENDS}, **{end: self.ends[end] for end in sorted(self.ends)
                                                              if end not in ENDS}}
        return {
            "ends": ends,
            "first_player": {"wins": first, "decided": decided, "rate": round(first / decided if decided else 0.0, 6),
                             "ci95": list(wilson_interval(first, decided))},
            "blocked": {"games": blocked_games, "share": round(blocked_games / games, 6) if games else 0.0,
                        "games_by_seat": list(self.blocked_by_seat), "passes_by_seat": list(self.passes),
                        "spells_by_seat": list(self.spells),
                        "mean_passes_when_blocked": round(sum(self.passes) / blocked_games, 6) if blocked_games else 0.0,
                        "most_passes_in_a_game": self.most},
            "scored": {"blocks_by_seat": list(self.scored),
                       "per_game_by_seat": [round(s / games, 6) if games else 0.0 for s in self.scored],
                       "kth_block_turn": {str(seat + 1): [{"games": k, "mean": round(total / k, 6) if k else 0.0}
                                                          for k, total in self.kth[seat]] for seat in range(2)},
                       "by_turn": {f"{b * BAND + 1}-{(b + 1) * BAND}": self.bands[b] for b in sorted(self.bands)}},
        }


def describe(figures: dict) -> str:
    """The Deblockle lines of `boardlab simulate`'s plain-text output (`figures`: what `summarize` gave),
    in the language being written (`layouts.terms.speaking`; the `summary.deblockle.*` terms)."""
    from boardlab.analysis.report.wording import number, pct
    from boardlab.layouts.terms import term

    d = figures
    ends, first, blocked, scored = d["ends"], d["first_player"], d["blocked"], d["scored"]
    lo, hi = first["ci95"]
    lines = [
        term("summary.deblockle.ends", scored=number(ends["scored"], "d"), no_moves=number(ends["no_moves"], "d"),
             cap=number(ends["cap"], "d")),
        term("summary.deblockle.first", wins=number(first["wins"], "d"), decided=number(first["decided"], "d"),
             rate=pct(first["rate"]), lo=pct(lo), hi=pct(hi)),
        term("summary.deblockle.blocked", games=number(blocked["games"], "d"), share=pct(blocked["share"]),
             seat1=number(blocked["games_by_seat"][0], "d"), seat2=number(blocked["games_by_seat"][1], "d"),
             passes=number(blocked["mean_passes_when_blocked"], ".1f"), most=number(blocked["most_passes_in_a_game"], "d")),
        term("summary.deblockle.scored", seat1=number(scored["per_game_by_seat"][0], ".2f"),
             seat2=number(scored["per_game_by_seat"][1], ".2f")),
    ]
    for seat, kth in scored["kth_block_turn"].items():
        parts = [term("summary.deblockle.kth_turn", k=k, turn=number(v["mean"], ".1f"), games=number(v["games"], "d"))
                 for k, v in enumerate(kth, start=1) if v["games"]]
        lines.append(term("summary.deblockle.kth", seat=seat, turns="; ".join(parts)) if parts else
                     term("summary.deblockle.kth_never", seat=seat))
    return "\n".join(lines)

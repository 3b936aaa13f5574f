"""Summaries that stream: counts and sums that merge, so memory stays flat in the number of games.

A `Tally` takes finished games block by block (`add(records)`), merges with the tally of another
block (`merge`) and gives its part of the summary at the end (`result`).  A tally holds only
integer counts, integer sums and histograms of integer values, never a record: adding blocks in
any order, or merging the tallies of any split of the games, gives the same result, which is how
`simulate` is the same whatever the worker count while no process keeps more than one block of
records.

Means are integer sums divided once at the end; medians and percentiles come from a histogram of
the values (`Histogram.describe`), equal to `stats.describe_lengths` of the values themselves.

>>> h = Histogram()
>>> h.add([3, 1, 4, 1, 5])
>>> h.describe() == describe_lengths([3, 1, 4, 1, 5])
True
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Self, Sequence

from boardlab.analysis.stats import describe_lengths, wilson_interval

if TYPE_CHECKING:  # numpy is imported where arrays are added: `check` imports the engines and adds none
    import numpy as np

    from boardlab.analysis.protocol import Game
    from boardlab.analysis.runner import Match


def _lerp(a: float, b: float, t: float) -> float:
    """numpy's linear interpolation for `np.percentile` (the same float operations, so the same bits)."""
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def percentile_of_counts(counts: Mapping[int, int], q: float) -> float:
    """`np.percentile(values, q)` (linear) of the values that `counts` holds (value -> times).

    >>> import numpy as np
    >>> percentile_of_counts({1: 2, 3: 1, 4: 1, 5: 1}, 90) == float(np.percentile([1, 1, 3, 4, 5], 90))
    True
    """
    n = sum(counts.values())
    virtual = (n - 1) * (q / 100)
    below = math.floor(virtual)
    wanted = (below, min(below + 1, n - 1))  # 0-based positions in the sorted values
    found: list[int] = []
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        while len(found) < 2 and wanted[len(found)] < seen:
            found.append(value)
        if len(found) == 2:
            break
    return float(_lerp(float(found[0]), float(found[1]), virtual - below))


class Histogram:
    """How many times each integer value occurred: the values' mean, median, 90th percentile,
    minimum and maximum without keeping the values."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[int, int] | None = None):
        self.counts: Counter = Counter(counts or {})

    def add(self, values: Iterable[int]) -> None:
        self.counts.update(int(v) for v in values)

    def add_array(self, values: np.ndarray) -> None:
        """Add every value of an integer array (a block's worth at once)."""
        import numpy as np

        if len(values):
            found, times = np.unique(np.asarray(values, dtype=np.int64), return_counts=True)
            for value, k in zip(found.tolist(), times.tolist()):
                self.counts[value] += k

    def merge(self, other: "Histogram") -> None:
        self.counts.update(other.counts)

    def sum(self) -> int:
        return sum(value * k for value, k in self.counts.items())

    def describe(self) -> dict:
        """`stats.describe_lengths` of the values, from their counts."""
        counts = {v: k for v, k in self.counts.items() if k}
        n = sum(counts.values())
        if n == 0:
            return describe_lengths([])
        # an integer sum is exact, as numpy's float sum of exactly representable values is
        return {"mean": round(self.sum() / n, 6), "median": percentile_of_counts(counts, 50),
                "p90": percentile_of_counts(counts, 90), "min": int(min(counts)), "max": int(max(counts))}

    def to_dict(self) -> dict[str, int]:
        """The counts by value, in order ("3": 5 means the value 3 occurred 5 times)."""
        return {str(v): self.counts[v] for v in sorted(self.counts) if self.counts[v]}


class Tally:
    """A game's own summary figures, accumulated block by block (see the module docstring).

    Subclasses hold integer counts only; `merge` must give what adding the other tally's
    records would have given.
    """

    def add(self, records: Iterable) -> None:
        """Add finished games (`runner.GameRecord`s), in any order."""
        raise NotImplementedError

    def merge(self, other: Self) -> None:
        """Add everything `other` (a tally of the same kind, of other games) holds."""
        raise NotImplementedError

    def result(self) -> dict[str, Any]:
        """The figures (JSON-ready) of every game added so far."""
        raise NotImplementedError


class RecordsTally(Tally):
    """The fallback for a game that has only `Game.summarize(records)`: it keeps the records
    (memory grows with the games) and summarises them, sorted by index, at the end."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.records: list = []

    def add(self, records: Iterable) -> None:
        self.records.extend(records)

    def merge(self, other: "RecordsTally") -> None:
        self.records.extend(other.records)

    def result(self) -> dict[str, Any]:
        return self.game.summarize(sorted(self.records, key=lambda r: r.index))


def seat_figures(wins: list[int], draws: int, unfinished: int, total: int) -> dict:
    """Wins by seat, draws, unfinished games and win rates with Wilson 95% intervals, from counts."""
    return {"wins_by_seat": list(wins), "draws": draws, "unfinished": unfinished,
            "win_rate_by_seat": [{"rate": w / total if total else 0.0, "ci95": list(wilson_interval(w, total))}
                                 for w in wins]}


class SeatTally:
    """Seat results, counted: wins by seat, draws (several winners or none), unfinished games,
    and a histogram of the finished games' lengths."""

    __slots__ = ("wins", "draws", "unfinished", "lengths")

    def __init__(self, players: int):
        self.wins = [0] * players
        self.draws = 0
        self.unfinished = 0
        self.lengths = Histogram()

    def add(self, winners: Sequence[int], unfinished: bool, length: int) -> None:
        """Add one game."""
        if unfinished:
            self.unfinished += 1
            return
        self.lengths.counts[length] += 1
        if len(winners) == 1:
            self.wins[winners[0]] += 1
        else:
            self.draws += 1

    def add_arrays(self, winner: np.ndarray, unfinished: np.ndarray, lengths: np.ndarray) -> None:
        """Add games given as arrays: `winner` the single winner's seat or -1 (a draw, or
        unfinished), `unfinished` a boolean per game, `lengths` per game."""
        import numpy as np

        finished = ~unfinished
        self.unfinished += int(unfinished.sum())
        self.lengths.add_array(np.asarray(lengths)[finished])
        self.draws += int((finished & (winner < 0)).sum())
        for seat, k in enumerate(np.bincount(winner[finished & (winner >= 0)], minlength=len(self.wins)).tolist()):
            self.wins[seat] += k

    def merge(self, other: "SeatTally") -> None:
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.draws += other.draws
        self.unfinished += other.unfinished
        self.lengths.merge(other.lengths)

    def figures(self, games: int) -> dict:
        """`seat_figures` of these counts over `games` games."""
        return seat_figures(self.wins, self.draws, self.unfinished, games)


class SummaryTally:
    """A whole simulation summary, streamed: the common figures (seats, agents, length) and the
    game's own `Tally` (`Game.tally`).  `runner.summarize` is this over a list of records.

    It holds counts only (and the game's tally), so it pickles small and a worker can send one
    back per block.  `add_arrays` adds the common figures of a block given as arrays (a game's
    batched fast path); the caller then adds the game's own figures to `own` itself.
    """

    def __init__(self, match: Match) -> None:
        n = match.game.players
        self.players = n
        self.names = tuple(match.agent_names)
        #: agents change seats with the rotation (seat s of game i plays agent (s + i % n) % n)
        self.rotating_agents = bool(match.seat_rotation and not match.rotate_deals)
        self.games = 0
        self.seats = SeatTally(n)
        self.agent_wins = [0] * n  # by agent index (the position in `names`)
        self.own: Tally = match.game.tally(match)

    def add(self, records: Iterable) -> None:
        """Add finished games (`runner.GameRecord`s), in any order."""
        records = list(records)
        n = self.players
        for r in records:
            self.games += 1
            self.seats.add(r.winners, r.unfinished, r.length)
            if not r.unfinished and len(r.winners) == 1:
                seat = r.winners[0]
                self.agent_wins[(seat + r.index % n) % n if self.rotating_agents else seat] += 1
        self.own.add(records)

    def add_arrays(self, indices: np.ndarray, winner: np.ndarray, unfinished: np.ndarray,
                   lengths: np.ndarray) -> None:
        """Add the common figures of games `indices`: `winner` is the seat of the single winner
        or -1 (a draw, or unfinished), `unfinished` a boolean per game, `lengths` per game.
        The game's own figures are not added (add them to `own`)."""
        import numpy as np

        n = self.players
        unfinished = np.asarray(unfinished, dtype=bool)
        winner = np.asarray(winner, dtype=np.int64)
        self.games += len(indices)
        self.seats.add_arrays(winner, unfinished, lengths)
        single = ~unfinished & (winner >= 0)
        seats = winner[single]
        agents = (seats + np.asarray(indices)[single] % n) % n if self.rotating_agents else seats
        for agent, k in enumerate(np.bincount(agents, minlength=n).tolist()):
            self.agent_wins[agent] += k

    def merge(self, other: "SummaryTally") -> None:
        """Add everything the tally of other games holds."""
        self.games += other.games
        self.seats.merge(other.seats)
        self.agent_wins = [a + b for a, b in zip(self.agent_wins, other.agent_wins)]
        self.own.merge(other.own)

    def result(self, game: Game, match: Match, seconds: float) -> dict:
        """The summary (the JSON of `boardlab simulate`): common figures at the top level, the
        game's own under the key `game.id`."""
        total = self.games
        seats = self.seats.figures(total)
        summary = {
            "game": game.id,
            "variant": game.variant,
            "players": self.players,
            "agents": list(self.names),
            "games": total,
            "seed": match.seed,
            "seat_rotation": ("deal turned for every seat" if match.rotate_deals else "agents rotated on every deal")
                             if match.seat_rotation else "none",
            "wins_by_seat": seats["wins_by_seat"],
            "draws": seats["draws"],
            "unfinished": seats["unfinished"],
            "win_rate_by_seat": seats["win_rate_by_seat"],
            "length": {"unit": game.length_unit, **self.seats.lengths.describe()},
            "seconds": round(seconds, 3),
        }
        if len(set(self.names)) > 1:
            by_agent: dict[str, list[int]] = {}
            for name, wins in zip(self.names, self.agent_wins):
                won, seats_played = by_agent.setdefault(name, [0, 0])
                by_agent[name] = [won + wins, seats_played + total]
            summary["win_rate_by_agent"] = {
                name: {"wins": k, "seats_played": m, "rate": k / m if m else 0.0, "ci95": list(wilson_interval(k, m))}
                for name, (k, m) in by_agent.items()}
        own = self.own.result()
        if own:
            summary[game.id] = own
        return summary

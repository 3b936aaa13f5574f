"""Blockd's own summary figures as counts that merge (`BlockdTally`), from records or from arrays.

The figures (filed under "blockd" in a `simulate` summary): eliminations by round, restore
bonuses earned and used, games decided by the end-of-round tie-break, unfinished games.
`BlockdTally.add` counts them from `runner.GameRecord`s, one game at a time (the obvious
path, and what `BlockdGame.summarize` is); `add_arrays` counts the same from the kernel's
arrays of a whole block at once (`batch.tally_block`, no record built), and the tests hold
the two equal on the same games.

>>> from boardlab.analysis.runner import GameRecord
>>> tally = BlockdTally()
>>> tally.add([GameRecord(0, 0, 0, ("random",) * 2, (1,), False, 9,
...                       {"eliminations": [[3, 0]], "restores_earned": 2, "restores_used": 1,
...                        "tiebreak": False, "rounds": 5})])
>>> tally.result()["eliminations_by_round"], tally.result()["restores_used_per_game"]
({'3': 1}, 1.0)
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import numpy as np

from boardlab.analysis.tally import Tally


class BlockdTally(Tally):
    """Counts of Blockd's own figures over the games added so far."""

    def __init__(self) -> None:
        self.games = 0
        self.by_round: Counter = Counter()  # eliminations by round number
        self.earned = 0
        self.used = 0
        self.tiebreak = 0
        self.unfinished = 0

    def add(self, records: Iterable) -> None:
        for record in records:
            stats = record.stats
            self.games += 1
            for round_number, _seat in stats.get("eliminations", ()):
                self.by_round[round_number] += 1
            self.earned += stats.get("restores_earned", 0)
            self.used += stats.get("restores_used", 0)
            self.tiebreak += bool(stats.get("tiebreak"))
            self.unfinished += bool(record.unfinished)

    def add_arrays(self, out: np.ndarray, elim: np.ndarray) -> None:
        """Add the games of a `kernel.KernelResult`: final position vectors `out` and
        eliminations `elim[g, k] = (round, seat)` for k < `out[g, N_ELIM]`."""
        from boardlab.analysis.blockd import kernel
        self.games += len(out)
        happened = np.arange(elim.shape[1])[None, :] < out[:, kernel.N_ELIM][:, None]
        rounds = np.bincount(elim[:, :, 0][happened])
        for round_number in np.flatnonzero(rounds).tolist():
            self.by_round[round_number] += int(rounds[round_number])
        self.earned += int(out[:, kernel.EARNED].sum())
        self.used += int(out[:, kernel.USED].sum())
        self.tiebreak += int(np.count_nonzero(out[:, kernel.TIEBREAK]))
        self.unfinished += int(np.count_nonzero(out[:, kernel.UNFINISHED]))

    def merge(self, other: "BlockdTally") -> None:
        self.games += other.games
        self.by_round.update(other.by_round)
        self.earned += other.earned
        self.used += other.used
        self.tiebreak += other.tiebreak
        self.unfinished += other.unfinished

    def result(self) -> dict:
        games = self.games
        finished = games - self.unfinished
        return {
            "eliminations_by_round": {str(r): self.by_round[r] for r in sorted(self.by_round) if self.by_round[r]},
            "restores_earned": self.earned,
            "restores_used": self.used,
            "restores_earned_per_game": round(self.earned / games, 6) if games else 0.0,
            "restores_used_per_game": round(self.used / games, 6) if games else 0.0,
            "decided_by_tiebreak": self.tiebreak,
            "tiebreak_share": round(self.tiebreak / finished, 6) if finished else 0.0,
            "unfinished": self.unfinished,
        }

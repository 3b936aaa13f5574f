"""6x6's own simulation figures (filed under "sixbysix" in the summary) and their plain-text lines.

`SixBySixTally` (`SixBySixGame.tally`) streams them: integer counts, sums and histograms that
merge in any order, so `simulate` keeps no record.  `summarize_records` computes the same figures
from a list of records, the obvious way; it is the twin the tally is tested against.  The
per-seat results of each lead rule come from the runner's `seat_results` (in the tally, one
`tally.SeatTally` per lead rule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from boardlab.analysis.runner import seat_results
from boardlab.analysis.stats import describe_lengths, format_p, two_proportion_test, wilson_interval
from boardlab.analysis.tally import Histogram, SeatTally, Tally

if TYPE_CHECKING:  # numpy is imported where the kernel's arrays are added, not to name the summary
    import numpy as np

    from boardlab.analysis.sixbysix.engine import SixBySixGame


def summarize_records(game: SixBySixGame, records: list) -> dict[str, Any]:
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


class SixBySixTally(Tally):
    """`summarize_records`, streamed (see the module docstring): integer counts and sums by
    face, by checkpoint and by seat, histograms of rounds, and the seat results of both leads."""

    def __init__(self, game: SixBySixGame) -> None:
        n = game.players
        self.players = n
        self.faces = tuple(game.faces)
        self.lead = game.lead
        self.seconds_per_round = game.definition.analysis.seconds_per_round
        self.box_minutes = game.definition.game.minutes
        self.games = 0
        self.rounds = 0
        self.no_winner_rounds = 0
        self.first_elimination = Histogram()
        self.largest_bank_max: int | None = None
        self.largest_bank_sum = 0
        self.house_chips = 0
        self.bets = [0] * len(self.faces)
        self.refunds = [0] * len(self.faces)
        #: checkpoint round (text) -> [chips of seat 0, ..., seat n-1, bank, players left], summed over games
        self.checkpoints: dict[str, list[int]] = {}
        self.by_lead = SeatTally(n)  # the lead rule the games were played under (lengths in rounds)
        self.other_lead: str | None = None  # the other rule's name, once a replay under it is seen
        self.other = SeatTally(n)
        self.other_games = 0  # games that carry a replay under the other lead

    def add(self, records: Iterable) -> None:
        for r in records:
            s = r.stats
            self.games += 1
            self.rounds += s["rounds"]
            self.no_winner_rounds += s["no_winner_rounds"]
            if s["first_elimination"] is not None:
                self.first_elimination.counts[s["first_elimination"]] += 1
            bank = s["largest_bank"]
            self.largest_bank_max = bank if self.largest_bank_max is None else max(self.largest_bank_max, bank)
            self.largest_bank_sum += bank
            self.house_chips += s["house_chips"]
            for i in range(len(self.faces)):
                self.bets[i] += s["bets_by_face"][i]
                self.refunds[i] += s["refunds_by_face"][i]
            self._add_checkpoints(s["chips_over_time"])
            self.by_lead.add(r.winners, r.unfinished, r.length)
            if "other_lead" in s:
                other = s["other_lead"]
                self._set_other_lead(other["lead"])
                self.other_games += 1
                self.other.add(other["winners"], other["unfinished"], other["rounds"])

    def add_arrays(self, out: np.ndarray, chips: np.ndarray, elim: np.ndarray, bets: np.ndarray, refunds: np.ndarray,
                   wins: np.ndarray, snapshots: np.ndarray, winner: np.ndarray, max_rounds: int) -> None:
        """Add a block of games given as the compiled kernel's arrays (`kernel.play_arrays`; `winner`:
        the single winner's seat or -1): what `add` of their records adds, without the records."""
        import numpy as np

        from boardlab.analysis.sixbysix import kernel
        from boardlab.analysis.sixbysix.engine import CHECKPOINTS

        count = len(out)
        if not count:
            return
        n = self.players
        self.games += count
        self.rounds += int(out[:, kernel.ROUNDS].sum())
        self.no_winner_rounds += int(out[:, kernel.NO_WINNER].sum())
        first = out[:, kernel.FIRST_ELIMINATION]
        self.first_elimination.add_array(first[first >= 0])
        banks = out[:, kernel.LARGEST]
        bank = int(banks.max())
        self.largest_bank_max = bank if self.largest_bank_max is None else max(self.largest_bank_max, bank)
        self.largest_bank_sum += int(banks.sum())
        self.house_chips += int(out[:, kernel.HOUSE].sum())
        self.bets = [a + b for a, b in zip(self.bets, bets.sum(axis=0).tolist())]
        self.refunds = [a + b for a, b in zip(self.refunds, refunds.sum(axis=0).tolist())]
        checkpoints = [str(c) for c in CHECKPOINTS if c <= max_rounds]
        if not self.checkpoints:
            self.checkpoints = {c: [0] * (n + 2) for c in checkpoints}
        if checkpoints != list(self.checkpoints):
            raise ValueError(f"6x6 games with different checkpoints: {checkpoints}, {list(self.checkpoints)}")
        final = np.concatenate([chips, out[:, kernel.BANK:kernel.BANK + 1]], axis=1)  # a game over keeps these
        for i, checkpoint in enumerate(checkpoints):
            held = np.where((i < out[:, kernel.N_SNAPSHOTS])[:, None], snapshots[:, i], final)
            sums = self.checkpoints[checkpoint]
            for k, total in enumerate(held.sum(axis=0).tolist()):  # seats, then the bank
                sums[k] += total
            sums[-1] += int((held[:, :n] > 0).sum())
        self.by_lead.add_arrays(winner, out[:, kernel.UNFINISHED] != 0, out[:, kernel.ROUNDS])

    def add_other_lead(self, lead: str, winner: np.ndarray, unfinished: np.ndarray, rounds: np.ndarray) -> None:
        """Add the same games replayed under the other lead rule, as arrays (see `SeatTally.add_arrays`)."""
        self._set_other_lead(lead)
        self.other_games += len(winner)
        self.other.add_arrays(winner, unfinished, rounds)

    def _add_checkpoints(self, chips_over_time: dict) -> None:
        if not self.checkpoints:
            self.checkpoints = {c: [0] * (self.players + 2) for c in chips_over_time}
        if list(chips_over_time) != list(self.checkpoints):
            raise ValueError(f"6x6 records with different checkpoints: {list(chips_over_time)}, {list(self.checkpoints)}")
        for checkpoint, held in chips_over_time.items():
            sums = self.checkpoints[checkpoint]
            for i, chips in enumerate(held):  # seats, then the bank
                sums[i] += chips
            sums[-1] += sum(c > 0 for c in held[:-1])

    def _set_other_lead(self, lead: str) -> None:
        if self.other_lead not in (None, lead):
            raise ValueError(f"6x6 records replayed under two other leads: {self.other_lead}, {lead}")
        self.other_lead = lead

    def merge(self, other: "SixBySixTally") -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.no_winner_rounds += other.no_winner_rounds
        self.first_elimination.merge(other.first_elimination)
        if other.largest_bank_max is not None:
            self.largest_bank_max = (other.largest_bank_max if self.largest_bank_max is None
                                     else max(self.largest_bank_max, other.largest_bank_max))
        self.largest_bank_sum += other.largest_bank_sum
        self.house_chips += other.house_chips
        self.bets = [a + b for a, b in zip(self.bets, other.bets)]
        self.refunds = [a + b for a, b in zip(self.refunds, other.refunds)]
        if other.checkpoints:
            if not self.checkpoints:
                self.checkpoints = {c: [0] * (self.players + 2) for c in other.checkpoints}
            if list(other.checkpoints) != list(self.checkpoints):
                raise ValueError("6x6 tallies with different checkpoints")
            for checkpoint, sums in other.checkpoints.items():
                self.checkpoints[checkpoint] = [a + b for a, b in zip(self.checkpoints[checkpoint], sums)]
        self.by_lead.merge(other.by_lead)
        if other.other_lead is not None:
            self._set_other_lead(other.other_lead)
        self.other.merge(other.other)
        self.other_games += other.other_games

    def result(self) -> dict[str, Any]:
        n, games = self.players, self.games
        minutes_per_round = self.seconds_per_round / 60
        lengths = self.by_lead.lengths.describe()
        out: dict[str, Any] = {
            "rounds_to_first_elimination": self.first_elimination.describe(),
            "rounds_to_end": lengths,
            "no_winner_share": self.no_winner_rounds / self.rounds if self.rounds else 0.0,
            "largest_bank": {"max": self.largest_bank_max if self.largest_bank_max is not None else 0,
                             "mean": round(self.largest_bank_sum / games, 6) if games else 0.0},
            "chips_to_house": self.house_chips,
            "chips_over_time": {checkpoint: {"mean_chips_by_seat": [round(sums[seat] / games, 3) for seat in range(n)],
                                             "mean_bank": round(sums[n] / games, 3),
                                             "mean_players_left": round(sums[n + 1] / games, 3)}
                                for checkpoint, sums in self.checkpoints.items()},
            "refund_rate_by_face": {str(face): {"bets": b, "refunds": k, "rate": k / b if b else 0.0,
                                                "ci95": list(wilson_interval(k, b))}
                                    for face, b, k in zip(self.faces, self.bets, self.refunds)},
            "table_minutes": {key: round(lengths[key] * minutes_per_round, 2) for key in ("mean", "median", "p90")},
            "seconds_per_round": self.seconds_per_round,
            "box_minutes": self.box_minutes,
        }
        leads: dict[str | None, dict] = {self.lead: self.by_lead.figures(games)}
        if games and self.other_games == games:
            leads[self.other_lead] = {**self.other.figures(games), "length": self.other.lengths.describe()}
            out["lead_seat1_p_value"] = two_proportion_test(leads["fixed"]["wins_by_seat"][0], games,
                                                            leads["rotate"]["wins_by_seat"][0], games)
        out["by_lead"] = leads
        return out


def chips_chart(over_time: dict, players: int) -> dict:
    """The mean chips of each seat and of the bank after each checkpoint round, as a lines chart
    block (rounds on a log scale: the checkpoints run 10, 25, 50, ... 1000), in the language
    being written.  A game already over keeps its last holdings, so the lines level off.

    >>> from boardlab.layouts.terms import speaking
    >>> block = chips_chart({"10": {"mean_chips_by_seat": [18.1, 18.3], "mean_bank": 3.6, "mean_players_left": 2.0},
    ...                      "100": {"mean_chips_by_seat": [17.2, 17.1], "mean_bank": 5.7, "mean_players_left": 1.27}}, 2)
    >>> [s["label"] for s in block["series"]], block["series"][2]["values"], block["x_values"]
    (['seat 1', 'seat 2', 'bank'], [3.6, 5.7], [1.0, 2.0])
    >>> with speaking("es"):
    ...     block = chips_chart({"10": {"mean_chips_by_seat": [1.0], "mean_bank": 2.0, "mean_players_left": 1.0}}, 1)
    >>> block["series"][-1]["label"], block["x_axis"]
    ('banca', 'tras la ronda (escala logarítmica)')
    """
    import math

    from boardlab.analysis.report.document import chart
    from boardlab.layouts.terms import term

    rounds = list(over_time)
    seats = len(next(iter(over_time.values()))["mean_chips_by_seat"]) if over_time else 0
    lines = [[over_time[r]["mean_chips_by_seat"][seat] for r in rounds] for seat in range(seats)]
    lines.append([over_time[r]["mean_bank"] for r in rounds])
    labels = [term("summary.sixbysix.chips.seat", seat=seat + 1) for seat in range(seats)]
    labels.append(term("summary.sixbysix.chips.bank_line"))
    return chart("lines", f"sixbysix-chips-{players}", term("summary.sixbysix.chips.chart", players=players),
                 x_labels=[str(r) for r in rounds], x_values=[round(math.log10(int(r)), 6) for r in rounds],
                 series=[{"label": label, "values": values, "low": values, "high": values}
                         for label, values in zip(labels, lines)],
                 x_axis=term("summary.sixbysix.chips.x_axis"), axis=term("summary.sixbysix.chips.axis"))


def describe(summary: dict) -> str:
    """Plain-text lines for the 6x6 part of a summary: every number with its label and unit, in the
    language being written (`layouts.terms.speaking`; the `summary.sixbysix.*` terms)."""
    from boardlab.analysis.report.wording import number, pct, spread
    from boardlab.layouts.terms import respell, term

    minutes, box = summary["table_minutes"], summary["box_minutes"]
    mean = minutes["mean"]
    verdict = (term("summary.sixbysix.far_too_short") if mean > 1.5 * box else
               term("summary.sixbysix.too_long") if mean < box / 1.5 else term("summary.sixbysix.close"))
    refunds = [term("summary.sixbysix.refund", face=face, rate=pct(r["rate"]), bets=number(r["bets"], ","))
               if r["bets"] else term("summary.sixbysix.never_bet", face=face)
               for face, r in summary["refund_rate_by_face"].items()]
    lines = [term("summary.sixbysix.first_elimination", spread=spread(summary["rounds_to_first_elimination"])),
             term("summary.sixbysix.end", spread=spread(summary["rounds_to_end"])),
             term("summary.sixbysix.table_time", seconds=number(summary["seconds_per_round"], "g"),
                  mean=number(mean, ".0f"), median=number(minutes["median"], ".0f"), p90=number(minutes["p90"], ".0f")),
             term("summary.sixbysix.against", box=number(box, "g"), times=number(mean / box, ".1f"),
                  verdict=verdict),
             term("summary.sixbysix.no_winner", share=pct(summary["no_winner_share"])),
             term("summary.sixbysix.largest_bank", max=number(summary["largest_bank"]["max"], ""),
                  mean=number(summary["largest_bank"]["mean"], ".1f")),
             term("summary.sixbysix.refunds", faces="; ".join(refunds))]
    if summary["chips_over_time"]:
        heads = [term("summary.sixbysix.chips.round"), term("summary.sixbysix.chips.players"),
                 term("summary.sixbysix.chips.bank"), term("summary.sixbysix.chips.seats")]
        lines += ["", "   ".join(heads)]
        for checkpoint, c in summary["chips_over_time"].items():
            lines.append("   ".join([str(checkpoint).rjust(len(heads[0])), number(c["mean_players_left"], f"{len(heads[1])}.2f"),
                                     number(c["mean_bank"], f"{len(heads[2])}.1f"),
                                     " ".join(number(x, "5.1f") for x in c["mean_chips_by_seat"])]))
    leads = summary["by_lead"]
    if len(leads) == 2:
        wide, narrow = len(pct(1.0)), len(pct(0.5))  # a rate, a bound of its interval

        def cell(r: dict) -> str:
            return f"{pct(r['rate']).rjust(wide)} ({pct(r['ci95'][0]).rjust(narrow)}..{pct(r['ci95'][1]).rjust(narrow)})"

        width = len(cell({"rate": 0.0, "ci95": [0.0, 0.0]}))
        seat, fixed, rotate, note = (term("summary.sixbysix.leads.seat"), term("summary.sixbysix.leads.fixed"),
                                     term("summary.sixbysix.leads.rotate"), term("summary.sixbysix.leads.note"))
        lines += ["", "   ".join([seat, fixed.ljust(width), rotate.ljust(width) + note])]
        by_seat = zip(leads["fixed"]["win_rate_by_seat"], leads["rotate"]["win_rate_by_seat"])
        for k, (f, r) in enumerate(by_seat, start=1):
            lines.append("   ".join([str(k).rjust(len(seat)), cell(f), cell(r)]))
        p = summary["lead_seat1_p_value"]
        lines.append(term("summary.sixbysix.unfinished", fixed=number(leads["fixed"]["unfinished"], "d"),
                          rotate=number(leads["rotate"]["unfinished"], "d")))
        lines.append(term("summary.sixbysix.lead_p", p=respell(format_p(p)),
                          verdict=term("summary.sixbysix.differ") if p < 0.05 else term("summary.sixbysix.same")))
    return "\n".join(lines)

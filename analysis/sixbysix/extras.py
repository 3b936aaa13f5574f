"""6x6's own figures in its balance report (`SixBySixGame.report_extras`): the exact distribution
of the dice sum."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.analysis.report.document import chart
from boardlab.analysis.sixbysix.dice import sum_probabilities
from boardlab.analysis.tables import fraction_text

if TYPE_CHECKING:
    from boardlab.layouts.sixbysix import Definition


def report_extras(definition: Definition, players: int, seed: int) -> tuple[list, dict]:
    """The exact distribution of the dice sum, as a bar chart."""
    probabilities = sum_probabilities(tuple(definition.dice.faces), players)
    sums = sorted(probabilities)
    data = {"sums": {str(s): fraction_text(probabilities[s]) for s in sums}}
    return [chart("bars", f"sixbysix-sums-{players}", f"Probability of each dice sum, {players} players (exact)",
                  categories=[str(s) for s in sums], values=[round(float(probabilities[s]), 6) for s in sums],
                  x_axis="dice sum", axis="probability")], data

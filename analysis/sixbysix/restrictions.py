"""6x6's optional elements, the choices its rules offer a player (restricted play,
`analysis/restricted.py`): each a move filter the barred agent applies.

- ``bet-face``: which face of one's card the chip goes on.  Barred, the player always bets the
  lowest face (1 on the standard die): the refund comes as often, but is wasted more often on a
  round the player wins (`faces.face_values`).
- ``marker`` (a habit, not a rule: the rules let a marker go on any free number): barred, the player always takes the
  commonest free sum (the most probable sum of the active players' dice that no marker holds;
  any of equal probability).  The greedy agent takes it anyway (`markers.GREEDY`), so barring it
  from the marker changes none of its moves: restricted play with greedy measures nothing there
  (tested: the same games move for move).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from boardlab.analysis.restricted import Restriction
from boardlab.analysis.sixbysix.markers import GREEDY

if TYPE_CHECKING:
    from boardlab.analysis.sixbysix.engine import SixBySixState


def bets_another_face(state: Any, move: Any) -> bool:  # a SixBySixState, a Move (Restriction takes any state)
    """The move bets a face other than the die's lowest."""
    return move.face != min(state.game.faces)


def commonest_free_probability(state: SixBySixState) -> Fraction | int:
    """The probability of the commonest sum no marker holds yet this round (the first free number of
    the greedy order: most probable first)."""
    game = state.game
    active = len(state.order)
    taken = {state.markers[s] for s in state.order[:state.step]}
    first = next(x for x in game.preference(GREEDY, active) if x not in taken)
    return game.probabilities[active].get(first, 0)


def marks_another_sum(state: Any, move: Any) -> bool:
    """The move puts the marker on a free number less probable than the commonest free sum."""
    return state.game.probabilities[len(state.order)].get(move.number, 0) != commonest_free_probability(state)


RESTRICTIONS = (
    Restriction("bet-face", "betting on a face other than the lowest (1)", bets_another_face, "bet above 1"),
    Restriction("marker", "a marker off the commonest free sum", marks_another_sum, "marker off the likeliest sum",
                habit=True),
)

"""Blockd's optional elements, the choices its rules offer a player (restricted play,
`analysis/restricted.py`): each a move filter the barred agent applies."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.restricted import Restriction


def uses_restore(state: Any, move: Any) -> bool:  # a BlockdState, a Move (Restriction takes any state)
    """The move turns a face-down card up first (the restore bonus)."""
    return move.restore >= 0


def steps_onto_start(state: Any, move: Any) -> bool:
    """The move ends on a start card (of any colour: the next move's steps are then free)."""
    return move.to in state.deal.start


RESTRICTIONS = (
    Restriction("restore", "the restore bonus (turning a face-down card up before moving)", uses_restore,
                "restore bonus"),
    Restriction("start-card", "stepping onto a start card", steps_onto_start, "start card"),
)

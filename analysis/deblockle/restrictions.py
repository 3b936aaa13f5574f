"""Deblockle's optional elements, the choices its rules offer a player (restricted play,
`analysis/restricted.py`): each a move filter the barred agent applies.  The rules let a player
tip any of their blocks; tipping the one closest to its star is a way of playing (a habit), so a
report shows it as what the strong agent does."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.restricted import Restriction


def tips_a_farther_block(state: Any, move: Any) -> bool:
    """The move tips a block that is not (one of) the mover's closest to its star: closeness is
    the table's fewest turns to score alone (`reach.turns_to_score`; `agents.NEVER` when never)."""
    from boardlab.analysis.deblockle.agents import block_turns

    seat = state.current_player()
    nearest = min(block_turns(state, seat, cell, orientation) for cell, orientation in state.blocks(seat))
    return block_turns(state, seat, move.frm, state.orientation[move.frm]) > nearest


RESTRICTIONS = (
    Restriction("farther-block", "tipping a block that is not the closest to its star", tips_a_farther_block,
                "block not the closest", habit=True),
)

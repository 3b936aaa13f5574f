"""Replaying a fast path's Blockd game through the reference engine, asserting every move is legal."""

from __future__ import annotations

from boardlab.analysis.blockd.engine import Move


def replay(game, card_ids, history, state=None):
    """The engine state after `history` ((seat, restore, to) per turn) from the deal `card_ids`
    (or from a copy of `state`); asserts the engine has that seat to move and the move is legal."""
    if state is None:
        state = game.new_initial_state()
        state.apply(tuple(int(c) for c in card_ids))
    else:
        state = state.clone()
    for turn, (seat, restore, to) in enumerate(history):
        assert state.current_player() == seat, f"turn {turn}: engine has seat {state.current_player()} to move"
        move = Move(to, restore)
        assert move in state.legal_moves(), f"turn {turn}: {move} is not legal in the engine"
        state.apply(move)
    return state

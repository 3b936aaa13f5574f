"""Links' optional elements, the choices its rules offer a player (restricted play,
`analysis/restricted.py`): each a move filter the barred agent applies."""

from __future__ import annotations

from typing import Any

from boardlab.analysis.links.cards import EMPTY, MASTER
from boardlab.analysis.restricted import Restriction


# state: a LinksState, move: a table.Move (a Restriction takes any game's state)
def _category(state: Any, move: Any) -> str | None:
    return None if move.is_pass else state.game.deck.kinds[move.kind].category


def plays_master(state: Any, move: Any) -> bool:
    """The move lays a master card."""
    return _category(state, move) == MASTER


def plays_empty(state: Any, move: Any) -> bool:
    """The move lays an empty card."""
    return _category(state, move) == EMPTY


def opens_line_while_an_end_links(state: Any, move: Any) -> bool:
    """The move starts a new line on the central card while a card of the hand links to an open end."""
    if move.is_pass or not state.lines[move.line].is_free:
        return False
    return any(not m.is_pass and not state.lines[m.line].is_free for m in state.legal_moves())


RESTRICTIONS = (
    Restriction("master", "playing a master card", plays_master, "master card"),
    Restriction("empty", "playing an empty card", plays_empty, "empty card"),
    Restriction("new-line", "opening a new line while an end links", opens_line_while_an_end_links,
                "new line"),
)

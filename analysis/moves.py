"""Legal moves of a position given as JSON (docs/positions/GAME.md), for `boardlab moves`.

A game offers this through a module listed in `MOVE_PROVIDERS` with
`moves(definition, position: dict) -> list[dict]`, the moves in their JSON form, sorted,
without duplicates; a malformed position raises `BoardlabError`.
"""

from __future__ import annotations

import importlib

from boardlab.layouts.errors import BoardlabError

#: game id -> module with `moves(definition, position) -> list[dict]`
MOVE_PROVIDERS: dict[str, str] = {
    "blockd": "boardlab.analysis.blockd.position",
    "links": "boardlab.analysis.links.position",
    "deblockle": "boardlab.analysis.deblockle.position",
}


def provider(game_id: str):
    """The module that lists a game's moves.

    :raises BoardlabError: when the game has no move lister yet.

    >>> provider("blockd").__name__
    'boardlab.analysis.blockd.position'
    """
    if game_id not in MOVE_PROVIDERS:
        have = ", ".join(MOVE_PROVIDERS) or "none yet"
        raise BoardlabError(f"{game_id}: no move lister for this game yet (games with one: {have})")
    return importlib.import_module(MOVE_PROVIDERS[game_id])

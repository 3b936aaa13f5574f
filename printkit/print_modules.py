"""Which module prints which game: game id -> module with `print_files(definition, options)`.

Each module returns a list of `PrintFile`s; the command line writes them.  A new game's print
module plugs in with one line here.

>>> sorted(PRINT_MODULES)
['blockd', 'deblockle', 'links', 'sixbysix']
>>> print_module("blockd").__name__
'boardlab.printkit.games.blockd'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from boardlab.layouts.errors import BoardlabError

PRINT_MODULES = {
    "blockd": "boardlab.printkit.games.blockd",
    "sixbysix": "boardlab.printkit.games.sixbysix",
    "links": "boardlab.printkit.games.links",
    "deblockle": "boardlab.printkit.games.deblockle",
}


def print_module(game_id: str) -> ModuleType:
    """The print module of `game_id`.

    :raises BoardlabError: for a game with no print module, or one not written yet.
    """
    if game_id not in PRINT_MODULES:
        raise BoardlabError(f"no print module for game '{game_id}' (games: {', '.join(PRINT_MODULES)})")
    name = PRINT_MODULES[game_id]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        raise BoardlabError(f"printing {game_id} is not available yet (module {name} does not exist)") from None

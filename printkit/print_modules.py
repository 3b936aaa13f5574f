"""Which module prints a game: the `print` part of the game's registry entry
(`boardlab.layouts.registry`), which holds the only list of games.

>>> print_module("blockd").__name__
'boardlab.printkit.games.blockd'
"""

from __future__ import annotations

from types import ModuleType

from boardlab.layouts.registry import game_part


def print_module(game_id: str) -> ModuleType:
    """The print module of `game_id`: `print_files(definition, options) -> list[PrintFile]`.

    :raises BoardlabError: for an unknown game, a game with no print module, or one not written yet.
    """
    return game_part(game_id, "print")

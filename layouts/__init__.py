"""What the games ARE: one TOML definition per game, variants, the code that loads them, and
the registry of games (`boardlab.layouts.registry`), the one list of game ids.

>>> from boardlab.layouts import load
>>> load("sixbysix").rules.lead
'rotate'
"""

from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem
from boardlab.layouts.loader import (is_conventions_file, load, load_conventions, locate, print_conventions, resolve,
                                     variants_of)
from boardlab.layouts.registry import GameEntry, game_entry, game_ids, game_part, register_game


def __getattr__(name: str) -> tuple[str, ...]:
    # GAMES is read from the registry when asked for, so that games added by entry points
    # (which may import boardlab.layouts themselves) are loaded only once everything is ready.
    if name == "GAMES":
        return game_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BoardlabError", "DefinitionError", "GAMES", "GameEntry", "Problem", "game_entry", "game_ids", "game_part",
           "load", "print_conventions", "register_game", "resolve", "variants_of", "is_conventions_file",
           "load_conventions", "locate"]

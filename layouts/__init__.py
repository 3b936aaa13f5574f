"""What the games ARE: one TOML definition per game, variants, and the code that loads them.

>>> from boardlab.layouts import load
>>> load("sixbysix").rules.lead
'rotate'
"""

from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem
from boardlab.layouts.loader import (GAME_MODULES, is_conventions_file, load, load_conventions, locate, print_conventions,
                                     resolve, variants_of)

GAMES = tuple(GAME_MODULES)

__all__ = ["BoardlabError", "DefinitionError", "GAMES", "GAME_MODULES", "Problem", "load",
           "print_conventions", "resolve", "variants_of", "is_conventions_file", "load_conventions", "locate"]

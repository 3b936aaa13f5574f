"""Rulebooks as PDFs: the text of layouts/rulebooks/ with the printkit's drawings (see book.py).

The names below are loaded from book.py on first use, so that importing a module of this
package that does not typeset (checks.py, for `boardlab check`) does not load reportlab.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.printkit.rulebook.book import player_aid_name, render_player_aid, render_rulebook, rulebook_name

__all__ = ["player_aid_name", "render_player_aid", "render_rulebook", "rulebook_name"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from boardlab.printkit.rulebook import book
        return getattr(book, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

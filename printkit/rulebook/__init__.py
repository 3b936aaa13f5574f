"""Rulebooks as PDFs: the text of layouts/rulebooks/ with the printkit's drawings (see book.py)."""

from boardlab.printkit.rulebook.book import player_aid_name, render_player_aid, render_rulebook, rulebook_name

__all__ = ["player_aid_name", "render_player_aid", "render_rulebook", "rulebook_name"]

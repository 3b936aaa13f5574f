"""Rulebooks as PDFs: the text of layouts/rulebooks/ with the printkit's drawings (see book.py)."""

from boardlab.printkit.rulebook.book import render_rulebook, rulebook_name

__all__ = ["render_rulebook", "rulebook_name"]

"""The checks of a rulebook's text that need no typesetting, for `boardlab check`: every
placeholder, value and markup block (layouts.rulebook) and every drawing the text names against
the print files.  Kept apart from book.py so that `check` does not load reportlab's platypus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

import re

from boardlab.layouts import print_conventions
from boardlab.layouts.rulebook import Block, Book, build_book, check_rulebook
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.print_modules import print_module
from boardlab.printkit.rulebook.setups import games_with_setup, setup_drawing, worked_example

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.pages import Component

COMPONENT = re.compile(r"^\[([^\]]+)\]\s*(.*)$")


def components_of(definition: GameDefinition, paper: str) -> dict[str, Component]:
    """Every component the game's print files draw, by name, and the print module's
    `figure_components(definition)` (drawings for the rulebook alone) when it has that."""
    conventions = print_conventions()
    module = print_module(definition.game.id)
    files = module.print_files(definition, PrintOptions(paper, conventions.duplex, conventions.layout))
    found = {component.name: component for f in files for component in f.components}
    # drawings only the rulebook shows (a symbol legend), when the print module offers any
    for component in getattr(module, "figure_components", lambda d: ())(definition):
        found.setdefault(component.name, component)
    return found


def drawing_problems(book: Book, components: dict) -> list[str]:
    """`FILE:LINE: [NAME]: ...` for every component drawing the text names that the print files lack."""
    out = []
    for block in _walk(book.blocks):
        if block.kind == "components":
            for item in block.children:
                m = COMPONENT.match(item.text)
                name = m.group(1) if m else None
                if name is None:
                    out.append(f"{book.file}:{item.line}: components: an item is `- [DRAWING] text`")
                elif name != "-" and name not in components:
                    known = sorted(components)
                    shown = ", ".join(known[:6]) + (", ..." if len(known) > 6 else "")
                    out.append(f"{book.file}:{item.line}: [{name}]: no such component in the print files "
                               f"(known: {shown})")
        elif block.kind == "setup" and setup_drawing(book.definition.game.id) is None:
            out.append(f"{book.file}:{block.line}: ::: setup: no setup drawing for {book.definition.game.id} "
                       f"(games with one: {', '.join(games_with_setup()) or 'none'}); leave the directive out")
        elif block.kind == "example" and worked_example(book.definition.game.id) is None:
            out.append(f"{book.file}:{block.line}: ::: example: the print module of {book.definition.game.id} draws no "
                       "worked example (worked_example); leave the directive out")
    return out


def check_texts(definition: GameDefinition) -> list[str]:
    """Every problem of the definition's rulebook texts, one `FILE:LINE: KEY: ...` line each:
    unknown placeholders and values, markup mistakes, missing optional rules, unknown drawings.

    >>> from boardlab.layouts import load
    >>> check_texts(load("blockd-pawns-block"))
    []
    """
    problems = [str(p) for p in check_rulebook(definition)]
    if problems:
        return problems
    components = components_of(definition, definition.print.paper)
    for language in definition.rulebook.languages:
        problems += drawing_problems(build_book(definition, language), components)
    return problems


def _walk(blocks: list[Block]) -> Iterator[Block]:
    for block in blocks:
        yield block
        yield from _walk(block.children)

"""The rulebook's quick reference as plain lines, for pages drawn without platypus (the covers'
second page).  Kept apart from the player aid's typesetting so that planning a print file
(`boardlab check` does) loads no PDF library."""

from __future__ import annotations

from typing import TYPE_CHECKING

import re

from boardlab.layouts.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition


def quick_reference_lines(definition: GameDefinition, language: str) -> list[tuple[str, bool]]:
    """The rulebook's quick reference as plain lines (text, bold) for a page drawn without
    platypus (the cover's second page): headings bold, list items numbered or bulleted, inline
    markup dropped.  Empty when the rulebook has no quick reference in `language`.

    >>> from boardlab.layouts import load
    >>> lines = quick_reference_lines(load("links"), "en")
    >>> lines[0], lines[1][0].startswith("Goal:")
    (('Links — Quick reference', True), True)
    """
    from boardlab.layouts.rulebook import build_book

    try:
        book = build_book(definition, language)
    except BoardlabError:
        return []
    quick = next((block for block in book.blocks if block.kind == "quickref"), None)
    if quick is None:
        return []
    lines: list[tuple[str, bool]] = []
    number = 0
    for block in quick.children:
        text = re.sub(r"\\(.)|\*\*|\*|`", lambda m: m.group(1) or "", block.text or "")
        if block.kind == "heading":
            lines.append((f"{definition.game.name} — {text}", True))
        elif block.kind == "number":
            number += 1
            lines.append((f"{number}. {text}", False))
        elif block.kind == "bullet":
            lines.append((f"• {text}", False))
        elif text:
            number = 0
            lines.append((text, False))
    return lines

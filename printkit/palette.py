"""The colours marks and text are drawn in: the definition's ink and paper, and ink that reads
on a given fill.

Every game module asks `ink_and_paper` for its definition's two colours; anything drawn on a
coloured fill asks `contrast_ink`, so that the rule lives in one place.
"""

from __future__ import annotations


def ink_and_paper(definition) -> tuple[str, str]:
    """The definition's ink and paper colours ("#rrggbb"), named by its [print] table.

    >>> from boardlab.layouts import load
    >>> ink_and_paper(load("blockd"))[1]
    '#ffffff'
    """
    colours, settings = definition.colours, definition.print
    return colours[settings.ink_colour].hex, colours[settings.paper_colour].hex


def contrast_ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a "#rrggbb" colour).

    >>> contrast_ink("#f9d71c"), contrast_ink("#1a3d8f")
    ('#000000', '#ffffff')
    """
    red, green, blue = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    luma = 0.299 * red + 0.587 * green + 0.114 * blue
    return "#000000" if luma > 140 else "#ffffff"

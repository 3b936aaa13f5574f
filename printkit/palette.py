"""The colours marks and text are drawn in: the definition's ink and paper, and ink that reads
on a given fill.

Every game module asks `ink_and_paper` for its definition's two colours; anything drawn on a
coloured fill asks `contrast_ink`, so that the rule lives in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition


def ink_and_paper(definition: GameDefinition) -> tuple[str, str]:
    """The definition's ink and paper colours ("#rrggbb"), named by its [print] table.

    >>> from boardlab.layouts import load
    >>> ink_and_paper(load("blockd"))[1]
    '#ffffff'
    """
    colours, settings = definition.colours, definition.print
    return colours[settings.ink_colour].hex, colours[settings.paper_colour].hex


#: the least contrast ratio (WCAG 2: graphics a reader must see) of a mark against what it is drawn on
MARK_CONTRAST = 3.0

BLACK, WHITE = "#000000", "#ffffff"


def relative_luminance(colour: str) -> float:
    """The WCAG 2 relative luminance of a "#rrggbb" colour: 0 for black, 1 for white.

    >>> relative_luminance("#000000"), relative_luminance("#ffffff")
    (0.0, 1.0)
    """
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white).

    >>> contrast_ratio("#000000", "#ffffff"), contrast_ratio("#c62828", "#c62828")
    (21.0, 1.0)
    """
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast_ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a "#rrggbb" colour).

    >>> contrast_ink("#f9d71c"), contrast_ink("#1a3d8f")
    ('#000000', '#ffffff')
    """
    return BLACK if contrast_ratio(BLACK, fill) >= contrast_ratio(WHITE, fill) else WHITE


def mark_ink(fill: str, ink: str = BLACK, paper: str = WHITE) -> str:
    """The colour of a cut, fold or glue line drawn on `fill`: the definition's ink where it stands
    out (dark on light), else its paper colour (light on dark), else black or white.

    Either black or white reaches 4.5:1 on any colour, so the result always reaches MARK_CONTRAST.

    >>> mark_ink("#ffffff", "#1b1b1b", "#ffffff"), mark_ink("#1a3d8f", "#1b1b1b", "#ffffff")
    ('#1b1b1b', '#ffffff')
    """
    for candidate in (ink, paper):
        if contrast_ratio(candidate, fill) >= MARK_CONTRAST:
            return candidate
    return contrast_ink(fill)


#: the least contrast ratio of text (WCAG 2 AA for body text): the definition's ink on its paper
TEXT_CONTRAST = 4.5


def contrast_problems(definition: GameDefinition) -> list[tuple[tuple[str, ...], str, str]]:
    """What `boardlab check` says about the definition's colours, as (key, problem, what is allowed):
    its ink must read on its paper as text does (`TEXT_CONTRAST`), and on every colour of the
    palette the ink or the paper must stand out as a mark (`MARK_CONTRAST`: cut, fold and glue
    lines are drawn in one of them, `mark_ink`), else the marks fall back to plain black or white.

    >>> from boardlab.layouts import load
    >>> contrast_problems(load("blockd"))
    []
    """
    ink, paper = ink_and_paper(definition)
    out: list[tuple[tuple[str, ...], str, str]] = []
    ratio = contrast_ratio(ink, paper)
    if ratio < TEXT_CONTRAST:
        out.append((("print", "ink_colour"), f"the ink {ink} on the paper {paper} reaches only {ratio:.2f}:1",
                    f"text needs {TEXT_CONTRAST}:1; a darker ink or a lighter paper"))
    for name, colour in definition.colours.items():
        best = max(contrast_ratio(ink, colour.hex), contrast_ratio(paper, colour.hex))
        if best < MARK_CONTRAST:
            out.append((("colours", name, "hex"), f"neither the ink {ink} nor the paper {paper} stands out on "
                        f"{colour.hex} (best {best:.2f}:1)", f"marks need {MARK_CONTRAST}:1; a lighter or darker colour"))
    return out

"""The fonts printkit sets text in, and how wide a text is: independent of any backend.

Text is set in Vera and Vera Bold, TrueType fonts that ship with reportlab and carry accents;
the PDF backend embeds them and the SVG backend names them.  Layout code measures text here
(`text_width`), from the fonts' own metrics, so it never depends on one backend.

>>> round(text_width("MM", 10) / text_width("M", 10), 6)
2.0
"""

from __future__ import annotations

# reportlab is imported where the metrics are read, not here: `boardlab check` imports the print
# modules, which import this one, without measuring any text
from boardlab.printkit.units import POINTS_PER_MM

#: the fonts we embed, all shipped with reportlab (reportlab/fonts)
REGULAR_FONT = "Vera"
BOLD_FONT = "VeraBd"
ITALIC_FONT = "VeraIt"
BOLD_ITALIC_FONT = "VeraBI"


def register_fonts() -> None:
    """Register Vera, Vera Bold and their italics with reportlab once (they are found in reportlab/fonts)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    registered = pdfmetrics.getRegisteredFontNames()
    for name in (REGULAR_FONT, BOLD_FONT, ITALIC_FONT, BOLD_ITALIC_FONT):
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, f"{name}.ttf"))


def font_name(bold: bool = False, italic: bool = False) -> str:
    """The registered name of the regular, bold, italic or bold italic font."""
    if italic:
        return BOLD_ITALIC_FONT if bold else ITALIC_FONT
    return BOLD_FONT if bold else REGULAR_FONT


def text_extent(size: float, bold: bool = False, italic: bool = False) -> tuple[float, float]:
    """How far the font's letters reach above and below the baseline, in mm, at `size` points.

    >>> [round(v, 2) for v in text_extent(10)]
    [2.68, 0.85]
    """
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    ascent, descent = pdfmetrics.getAscentDescent(font_name(bold, italic), size)
    return ascent / POINTS_PER_MM, -descent / POINTS_PER_MM


def text_width(content: str, size: float, bold: bool = False, italic: bool = False) -> float:
    """Width in mm of `content` set at `size` points in the embedded font.

    >>> text_width("", 10)
    0.0
    """
    from reportlab.pdfbase import pdfmetrics

    register_fonts()
    return pdfmetrics.stringWidth(content, font_name(bold, italic), size) / POINTS_PER_MM


def wrap_lines(content: str, size: float, width: float, bold: bool = False) -> list[str]:
    """`content` broken at spaces into lines no wider than `width` mm at `size` points (a word
    longer than the width keeps a line of its own).

    >>> wrap_lines("one two three", 10, text_width("one two", 10))
    ['one two', 'three']
    """
    lines: list[str] = []
    for word in content.split():
        if lines and text_width(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines

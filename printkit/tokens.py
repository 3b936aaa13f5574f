"""Token sheets: discs or squares with cut outlines, packed densely, in the colours of a definition.

Discs are packed hexagonally (every other row shifted by half a pitch), squares in a grid.
Each token is filled with its colour out to a quarter of the gap around it (so a cut that strays a
little still shows colour, and neighbours stay apart), outlined with the cut line in ink that
stands out on its colour, and carries its colour's symbol so that
tokens stay apart in greyscale print.

>>> from boardlab.printkit.draw import RecordingCanvas
>>> c = RecordingCanvas(30, 30)
>>> draw_token(c, 15, 15, shape="disc", size=20, gap=2, art=TokenArt("#c62828", "heart"), ink="#1b1b1b")
>>> [call[1] for call in c.calls if call[0] == "circle"]
[(15, 15, 10.5), (15, 15, 10.0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.art import Placement
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pictures import draw_placed
from boardlab.printkit.packing import Section, flow_pages, grid_positions, hex_positions
from boardlab.printkit.pages import Page
from boardlab.printkit.marks import CUT_WIDTH
from boardlab.printkit.palette import contrast_ink, mark_ink
from boardlab.printkit.symbols import draw_symbol

SYMBOL_SHARE = 0.55  # of the token's size: its symbol

Shape = Literal["disc", "square"]


@dataclass(frozen=True)
class TokenArt:
    """What one token shows: its colour ("#rrggbb") and a symbol from SYMBOLS."""

    colour: str
    symbol: str
    picture: Placement | None = None  # the designer's image on the token (`[art.tokens.NAME]`)


def token_centres(shape: Shape, size: float, gap: float, area_width: float, area_height: float) -> list[tuple[float, float]]:
    """Centres of as many tokens as fit the area: hexagonal packing (or a grid, if it holds more) for discs,
    a grid for squares.

    :raises BoardlabError: for an unknown shape.

    >>> len(token_centres("disc", 20, 2, 198, 277.6)), len(token_centres("square", 20, 2, 198, 277.6))
    (119, 108)
    """
    if shape == "disc":
        # hexagonal packing wins on a sheet, but in a narrow strip the square grid can hold more
        hexagonal = hex_positions(area_width, area_height, size, gap)
        square = [(x + size / 2, y + size / 2) for x, y in grid_positions(area_width, area_height, size, size, gap)]
        return hexagonal if len(hexagonal) >= len(square) else square
    if shape == "square":
        return [(x + size / 2, y + size / 2) for x, y in grid_positions(area_width, area_height, size, size, gap)]
    raise BoardlabError(f'unknown token shape "{shape}" (disc, square)')


def draw_token(canvas: Canvas, cx: float, cy: float, *, shape: Shape, size: float, gap: float, art: TokenArt,
               ink: str) -> None:
    """One token centred on (cx, cy): colour out to a quarter of the gap, the cut outline, the symbol.

    :raises BoardlabError: for an unknown shape or symbol.
    """
    # the colour runs a quarter of the gap past the cut, so neighbours keep a strip of paper between them
    half, bleed = size / 2, gap / 4
    cut = mark_ink(art.colour, ink)  # the cut line lies on the token's colour
    if shape == "disc":
        canvas.circle(cx, cy, half + bleed, fill=art.colour)
        with canvas.layer("cut"):
            canvas.circle(cx, cy, half, stroke=cut, width=CUT_WIDTH)
    elif shape == "square":
        canvas.rect(cx - half - bleed, cy - half - bleed, size + 2 * bleed, size + 2 * bleed, fill=art.colour)
        with canvas.layer("cut"):
            canvas.rect(cx - half, cy - half, size, size, stroke=cut, width=CUT_WIDTH)
    else:
        raise BoardlabError(f'unknown token shape "{shape}" (disc, square)')
    draw_symbol(canvas, art.symbol, cx, cy, size * SYMBOL_SHARE, fill=contrast_ink(art.colour))
    if art.picture is not None:  # over the whole token, out to its colour's edge
        with canvas.transform(dx=cx - half, dy=cy - half):
            draw_placed(canvas, art.picture, "token", size, size, 0.0, bleed, radius=half + bleed if shape == "disc" else 0.0)


def token_section(tokens: Sequence[TokenArt], *, shape: Shape, size: float, gap: float, ink: str) -> Section:
    """The tokens as one section of a sheet (see packing.flow_pages).

    :raises BoardlabError: for an unknown shape.
    """
    token_centres(shape, size, gap, size, size)  # an unknown shape fails here, before any drawing
    # an item's box holds the token with its colour round the cut (a quarter of the gap each side):
    # the pitch stays size + gap, and nothing of a token reaches out of the area it is given
    box = size + gap / 2
    half = box / 2
    return Section(len(tokens), box,
                   lambda w, h: [(x - half, y - half) for x, y in token_centres(shape, box, gap / 2, w, h)],
                   lambda canvas, k, x, y: draw_token(canvas, x + half, y + half, shape=shape, size=size, gap=gap,
                                                      art=tokens[k], ink=ink), box)


def token_pages(tokens: Sequence[TokenArt], paper: tuple[float, float], conventions: PrintConventions, *,
                shape: Shape, size: float, gap: float, ink: str) -> list[Page]:
    """Sheets holding every token of `tokens` (one printed token per entry), densely packed.

    :raises BoardlabError: when a token is larger than the printable area, or for an unknown shape.
    """
    return flow_pages([token_section(tokens, shape=shape, size=size, gap=gap, ink=ink)], paper, conventions, gap)

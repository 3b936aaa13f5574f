"""Folding paper standees: one strip of base flap, back, front, base flap.

The strip, top to bottom: the back's base flap, the back (drawn upside down), the front, the
front's base flap.  Fold it at the middle line so front and back meet (glue them together),
then fold the two flaps out in opposite directions: the figure stands on them.
Cut lines are solid, fold lines dashed.  The figure carries its colour, its symbol and its
label, so it is recognisable in greyscale print too.

>>> from boardlab.layouts.common import StandeeSize
>>> from boardlab.printkit.draw import RecordingCanvas
>>> size = StandeeSize(width=20, height=30, base=12)
>>> strip_size(size)
(20, 84)
>>> sorted(strip_panels(size))
['back', 'back_base', 'front', 'front_base']
>>> c = RecordingCanvas(*strip_size(size))
>>> draw_standee(c, 0, 0, size, StandeeArt("#c62828", "heart", "red"), ink="#1b1b1b")
>>> [call[1] for call in c.calls if call[0] == "line" and call[2].get("dash")]
[(0, 12, 20, 12), (0, 42, 20, 42), (0, 72, 20, 72)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from boardlab.layouts.common import PrintConventions, StandeeSize
from boardlab.layouts.terms import word
from boardlab.layouts.art import Placement
from boardlab.printkit.cardart import fitted_size
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pictures import draw_placed
from boardlab.printkit.packing import Box, Section, flow_pages, grid_positions
from boardlab.printkit.pages import Component, Page
from boardlab.printkit.marks import CUT_WIDTH, FOLD_DASH
from boardlab.printkit.palette import contrast_ink, mark_ink
from boardlab.printkit.symbols import draw_symbol
from boardlab.printkit.units import MM_PER_POINT

LABEL_SIZE = 9.0  # points: a label's largest size; longer labels shrink to fit the panel


@dataclass(frozen=True)
class StandeeArt:
    """What one standee shows: its colour ("#rrggbb"), a symbol from SYMBOLS and a short label."""

    colour: str
    symbol: str
    label: str
    picture: Placement | None = None  # the designer's image on the figure (`[art.standees.NAME]`)


def strip_size(size: StandeeSize) -> tuple[float, float]:
    """(width, height) of the flat strip: two panels and two base flaps, stacked."""
    return size.width, 2 * size.height + 2 * size.base


def strip_panels(size: StandeeSize) -> dict[str, Box]:
    """The four parts of the strip as (x, y, width, height) boxes, relative to its top-left corner."""
    w, h, b = size.width, size.height, size.base
    return {
        "back_base": (0, 0, w, b),
        "back": (0, b, w, h),
        "front": (0, b + h, w, h),
        "front_base": (0, b + 2 * h, w, b),
    }


def fold_lines(size: StandeeSize) -> list[float]:
    """y offsets of the three fold lines within the strip: back flap, head, front flap."""
    return [size.base, size.base + size.height, size.base + 2 * size.height]


def draw_standee(canvas: Canvas, x: float, y: float, size: StandeeSize, art: StandeeArt, *, ink: str) -> None:
    """Draw the flat strip of one standee with its top-left corner at (x, y).

    `ink` is the colour of the cut outline (on the paper round the strip) and of fold lines where
    it stands out on the standee's colour (printkit.palette.mark_ink).
    :raises BoardlabError: for a symbol that printkit.symbols cannot draw.
    """
    panels = strip_panels(size)
    for name, (px, py, pw, ph) in panels.items():
        canvas.rect(x + px, y + py, pw, ph, fill=art.colour)
    for name in ("front", "back"):
        px, py, pw, ph = panels[name]
        # the back is upside down on the flat strip so that it stands upright once folded
        with canvas.transform(dx=x + px + pw / 2, dy=y + py + ph / 2, rotate=0 if name == "front" else 180):
            _draw_figure(canvas, pw, ph, art)
            if art.picture is not None:
                with canvas.transform(dx=-pw / 2, dy=-ph / 2):
                    draw_placed(canvas, art.picture, "standee", pw, ph, 0.0)
    for name in ("front_base", "back_base"):
        px, py, pw, ph = panels[name]
        mark = min(pw, ph) * 0.55
        draw_symbol(canvas, art.symbol, x + px + pw / 2, y + py + ph / 2, mark,
                    fill=contrast_ink(art.colour))
    width, height = strip_size(size)
    with canvas.layer("cut"):
        canvas.rect(x, y, width, height, stroke=ink, width=CUT_WIDTH)
    with canvas.layer("fold"):
        for fold_y in fold_lines(size):
            # between two panels of the same colour: light on a dark piece, dark on a light one
            canvas.line(x, y + fold_y, x + width, y + fold_y, stroke=mark_ink(art.colour, ink), width=CUT_WIDTH,
                        dash=FOLD_DASH)


def _draw_figure(canvas: Canvas, width: float, height: float, art: StandeeArt) -> None:
    """One face of the figure centred on (0, 0): the symbol large, the label under it."""
    on_colour = contrast_ink(art.colour)
    label = word(art.label)
    label_size = fitted_size(label, LABEL_SIZE, width * 0.9, bold=True)
    label_height = label_size * MM_PER_POINT
    symbol = min(width * 0.75, height - 3 * label_height)
    top = -height / 2
    draw_symbol(canvas, art.symbol, 0, top + (height - 2 * label_height) / 2, symbol, fill=on_colour)
    canvas.text(0, height / 2 - label_height * 0.8, label, size=label_size, fill=on_colour, anchor="middle",
                bold=True)


def standee_component(name: str, size: StandeeSize, art: StandeeArt, *, ink: str) -> Component:
    """One standee strip on its own, for its SVG file."""
    width, height = strip_size(size)
    return Component(name, width, height, lambda canvas: draw_standee(canvas, 0, 0, size, art, ink=ink))


def standee_section(standees: Sequence[StandeeArt], size: StandeeSize, *, ink: str, gap: float) -> Section:
    """The standees as one section of a sheet (see packing.flow_pages), `gap` mm apart."""
    strip_w, strip_h = strip_size(size)
    # an item's box holds the strip and the half of its cut outline that lies outside it
    pad = CUT_WIDTH / 2
    box_w, box_h = strip_w + 2 * pad, strip_h + 2 * pad
    return Section(len(standees), box_h, lambda w, h: grid_positions(w, h, box_w, box_h, gap),
                   lambda canvas, k, x, y: draw_standee(canvas, x + pad, y + pad, size, standees[k], ink=ink), box_w)


def standee_pages(standees: Sequence[StandeeArt], size: StandeeSize, paper: tuple[float, float],
                  conventions: PrintConventions, *, ink: str, gap: float) -> list[Page]:
    """Sheets holding every standee in `standees`, as many per page as fit, `gap` mm apart.

    :raises BoardlabError: when a strip is larger than the printable area of the paper.
    """
    return flow_pages([standee_section(standees, size, ink=ink, gap=gap)], paper, conventions, gap)

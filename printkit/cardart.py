"""Pieces of card art shared by the games' card faces: backgrounds to the bleed, fitted text.

Every function draws in card coordinates (origin at the cut box's top-left corner, y down)
and takes its sizes from a CardGeometry, so a different card size needs no code change.
"""

from __future__ import annotations

from typing import ContextManager

from boardlab.printkit.draw import Canvas
from boardlab.printkit.fonts import text_width
from boardlab.printkit.imposition import CardGeometry
from boardlab.printkit.units import POINTS_PER_MM


def paint_bleed(canvas: Canvas, geometry: CardGeometry, colour: str) -> None:
    """Fill the whole bleed box with `colour` (artwork touching the cut line runs to the bleed edge)."""
    canvas.rect(*geometry.bleed_box, fill=colour)


def paint_frame(canvas: Canvas, geometry: CardGeometry, frame: str, inside: str, frame_width: float) -> None:
    """A coloured frame from the bleed edge to `frame_width` inside the cut line, `inside` within.

    >>> from boardlab.printkit.draw import RecordingCanvas
    >>> c = RecordingCanvas(70, 95)
    >>> paint_frame(c, CardGeometry(63.5, 88.9, 3, 3, 3), "#c62828", "#ffffff", 4)
    >>> [call[1] for call in c.calls]
    [(-3, -3, 69.5, 94.9), (4, 4, 55.5, 80.9)]
    """
    paint_bleed(canvas, geometry, frame)
    canvas.rect(frame_width, frame_width, geometry.width - 2 * frame_width, geometry.height - 2 * frame_width,
                fill=inside, radius=max(geometry.corner_radius - frame_width / 2, 0.0))


def fitted_size(content: str, size: float, room: float, bold: bool = False) -> float:
    """`size` in points, shrunk if needed so that `content` is at most `room` mm wide.

    >>> fitted_size("ONE", 40, 1000.0)
    40
    >>> round(text_width("THREE", fitted_size("THREE", 80, 30.0, bold=True), bold=True), 6)
    30.0
    """
    width = text_width(content, size, bold)
    return size if width <= room else size * room / width


def cap_height(size: float) -> float:
    """Approximate height in mm of capitals and digits set at `size` points (Vera: 0.73 em).

    >>> round(cap_height(72), 2)
    18.54
    """
    return size / POINTS_PER_MM * 0.73


def centred_text(canvas: Canvas, x: float, y_middle: float, content: str, size: float, fill: str,
                 bold: bool = False) -> None:
    """Text centred horizontally on x and vertically (by its capitals) on y_middle."""
    canvas.text(x, y_middle + cap_height(size) / 2, content, size=size, fill=fill, anchor="middle", bold=bold)


def half_turned(canvas: Canvas, geometry: CardGeometry) -> ContextManager[None]:
    """Context manager: draw the block turned half a turn about the card's centre (for the
    second corner index, readable from the other side of the table)."""
    return canvas.transform(geometry.width, geometry.height, rotate=180)

"""Drawing in a face's regions (layouts/faces.py): text set by the region's font, size and
alignment, a symbol filling it, a colour named by it, a region repeated at the other end.

Every function draws in card coordinates (origin at the cut box's top-left corner, y down).

>>> from boardlab.layouts.faces import Region
>>> from boardlab.printkit.draw import RecordingCanvas
>>> c = RecordingCanvas(60, 90)
>>> draw_text(c, Region("title", 10, 20, 40, 10, font="bold", size=12, align="left"), "Hi", "#000000")
>>> call = c.calls[0]
>>> call[1][0], round(call[1][1], 3), call[2]["anchor"], call[2]["bold"]
(10, 26.545, 'start', True)
"""

from __future__ import annotations

import functools
from contextlib import nullcontext
from typing import TYPE_CHECKING, Callable

from boardlab.layouts.faces import Region, face_regions
from boardlab.layouts.icons import Icon
from boardlab.printkit.draw import Canvas
from boardlab.printkit.palette import contrast_ink, ink_and_paper

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: the canvas anchor of each alignment
ANCHORS = {"left": "start", "centre": "middle", "right": "end"}


def card_regions(definition: GameDefinition, kind: str) -> dict[str, Region]:
    """The regions of face `kind`, in mm for the game's own face size."""
    return face_regions(definition, kind)


def region_colour(definition: GameDefinition, region: Region, suit: str | None = None, background: str | None = None) -> str:
    """The "#rrggbb" a region's `colour` names: ink, paper, suit (`suit`, the card's own colour),
    contrast (legible on `background`), a colour of the definition, or a "#rrggbb" as it is.

    >>> from boardlab.layouts import load
    >>> d = load("blockd")
    >>> r = Region("x", 0, 0, 1, 1, colour="contrast")
    >>> region_colour(d, r, background="#000000"), region_colour(d, Region("x", 0, 0, 1, 1, colour="red"))
    ('#ffffff', '#c62828')
    """
    ink, paper = ink_and_paper(definition)
    name = region.colour
    if name == "ink":
        return ink
    if name == "paper":
        return paper
    if name == "suit":
        return suit or ink
    if name == "contrast":
        return contrast_ink(background or paper)
    if name in definition.colours:
        return definition.colours[name].hex
    return name


def text_baseline(region: Region, size: float) -> float:
    """The baseline (mm) of text set at `size` points in `region`: capitals centred on its middle,
    the baseline on its foot, or the descenders on its foot."""
    from boardlab.printkit.cardart import cap_height
    from boardlab.printkit.fonts import text_extent

    if region.valign == "baseline":
        return region.y + region.height
    if region.valign == "bottom":
        return region.y + region.height - text_extent(size, bold=region.bold)[1]
    return region.y + region.height / 2 + cap_height(size) / 2


#: an icon's side in text, of the text's size (em): as tall as the capitals and a little more
ICON_EM = 0.8
#: the room on either side of an icon, of the text's size
ICON_GAP_EM = 0.08


def icon_advance(size: float) -> float:
    """How far (mm) an icon in text set at `size` points takes along the line: its side and its room."""
    from boardlab.printkit.units import MM_PER_POINT

    return size * MM_PER_POINT * (ICON_EM + 2 * ICON_GAP_EM)


def runs_width(runs: list, size: float, bold: bool = False, italic: bool = False) -> float:
    """Width in mm of a line of runs (texts and icons, `layouts.icons.split_icons`) at `size` points."""
    from boardlab.printkit.fonts import text_width

    return sum(text_width(run, size, bold, italic) if isinstance(run, str) else icon_advance(size) for run in runs)


def draw_icon(canvas: Canvas, icon: Icon, cx: float, cy: float, side: float, fill: str) -> None:
    """`icon` in the `side` x `side` square centred on (cx, cy): its symbol in its colour (the
    text's, `fill`, for a plain symbol), or the designer's SVG fitted in the square."""
    from boardlab.printkit.symbols import draw_symbol

    if icon.symbol is not None:
        draw_symbol(canvas, icon.symbol, cx, cy, side, fill=icon.colour or fill)
        return
    assert icon.path is not None
    draw_svg_icon(canvas, icon.path, cx, cy, side)


def draw_svg_icon(canvas: Canvas, path: str, cx: float, cy: float, side: float) -> None:
    """A designer's SVG icon (checked by the loader) fitted in the `side` square centred on (cx, cy),
    in its own colours: its shapes drawn as paths (`Canvas.image`)."""
    from pathlib import Path

    from boardlab.layouts.images import read_picture

    picture = read_picture(Path(path))
    scale = side / max(picture.width, picture.height)
    width, height = picture.width * scale, picture.height * scale
    canvas.image(cx - width / 2, cy - height / 2, width, height, picture)


def draw_line(canvas: Canvas, x: float, baseline: float, content: str, size: float, fill: str, *, anchor: str = "start",
              bold: bool = False, italic: bool = False, icons: dict[str, Icon] | None = None) -> None:
    """One line of text with icons (`:star:`, `:red:`, ...) at (x, baseline), anchored like
    `Canvas.text`; an icon is ICON_EM of the size high, centred on the capitals.  A line without
    icons is one text call."""
    from boardlab.layouts.icons import split_icons
    from boardlab.printkit.cardart import cap_height
    from boardlab.printkit.fonts import text_width
    from boardlab.printkit.units import MM_PER_POINT

    runs = split_icons(content)
    style = {"bold": bold, **({"italic": True} if italic else {})}
    if all(isinstance(run, str) for run in runs):
        canvas.text(x, baseline, "".join(runs), size=size, fill=fill, anchor=anchor, **style)
        return
    known = icons if icons is not None else _builtin_icons()
    width = runs_width(runs, size, bold, italic)
    at = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    side, gap = size * MM_PER_POINT * ICON_EM, size * MM_PER_POINT * ICON_GAP_EM
    middle = baseline - cap_height(size) / 2
    for run in runs:
        if isinstance(run, str):
            canvas.text(at, baseline, run, size=size, fill=fill, anchor="start", **style)
            at += text_width(run, size, bold, italic)
        else:
            draw_icon(canvas, known[run[0]], at + gap + side / 2, middle, side, fill)
            at += side + 2 * gap


@functools.lru_cache(maxsize=256)
def icon_png(icon: Icon, fill: str, dpi: int) -> bytes:
    """`icon` (its symbol in `fill` unless it has its own colour) as a PNG, transparent round it,
    rasterised by PDFium at `dpi` on a square ICON_PNG_SIDE mm wide: a picture to set in a line of
    a paragraph (printkit.rulebook.typeset)."""
    from boardlab.printkit.pages import Page, PrintFile
    from boardlab.printkit.pod import page_images

    side = ICON_PNG_SIDE
    page = Page(side, side, lambda canvas: draw_icon(canvas, icon, side / 2, side / 2, side, fill))
    [png] = page_images(PrintFile("icon", icon.name, (page,)), dpi, transparent=True)
    assert png is not None
    return png


#: the side (mm) of an icon's picture (`icon_png`); a paragraph scales it to its text
ICON_PNG_SIDE = 5.0


def _builtin_icons() -> dict[str, Icon]:
    from boardlab.layouts.common import SYMBOLS

    return {name: Icon(name, symbol=name) for name in SYMBOLS}


def draw_text(canvas: Canvas, region: Region, content: str, fill: str, definition: GameDefinition | None = None) -> None:
    """`content` in `region` on one line: the region's font and size, shrunk to fit its width,
    aligned left, centred or right, and placed by its `valign`; `:name:` icons drawn in the line
    (the definition's colours and own icons too, given `definition`)."""
    from boardlab.layouts.icons import icons_of, split_icons

    size = region.size
    width = runs_width(split_icons(content), size, region.bold, region.italic)
    if width > region.width:
        size = size * region.width / width
    x = {"left": region.x, "centre": region.x + region.width / 2, "right": region.x + region.width}[region.align]
    draw_line(canvas, x, text_baseline(region, size), content, size, fill, anchor=ANCHORS[region.align],
              bold=region.bold, italic=region.italic,
              icons=icons_of(definition) if definition is not None and ":" in content else None)


def draw_region_symbol(canvas: Canvas, region: Region, symbol: str, fill: str, stroke: str | None = None,
                       scale: float = 1.0) -> None:
    """Built-in symbol `symbol` (printkit.symbols) centred in `region`, as large as fits (times `scale`)."""
    from boardlab.printkit.symbols import draw_symbol

    cx, cy = region.centre
    draw_symbol(canvas, symbol, cx, cy, region.side * scale, fill=fill, stroke=stroke)


def at_both_ends(canvas: Canvas, region: Region, width: float, height: float, draw: Callable[[], None]) -> None:
    """`draw()` once, and when the region says `both_ends`, again turned half a turn about the
    centre of the `width` x `height` face (readable from the other side of the table)."""
    for turned in (False, True) if region.both_ends else (False,):
        with canvas.transform(width, height, rotate=180) if turned else nullcontext():
            draw()

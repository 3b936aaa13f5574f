"""What a print job is made of: pages that know how to draw themselves, grouped into files.

Every game's print module (printkit/games/<game>.py) turns a definition and `PrintOptions`
into a list of `PrintFile`s; the backends write each as one PDF and each component as SVG.
Nothing here draws: pages carry a `draw(canvas)` function using printkit.draw.Canvas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

from boardlab.printkit.draw import Canvas

Box = tuple[float, float, float, float]  # x, y, width, height in mm, y down


@dataclass(frozen=True)
class PrintOptions:
    """The user's choices for one print run (defaults come from layouts/print.toml)."""

    paper: str  # a paper name from layouts/print.toml
    duplex: Literal["long", "short"]
    backs: Literal["duplex", "gutterfold"]  # backs on their own pages, or beside the fronts to fold
    #: how far (mm, right and down as seen from the front against the light) to move back pages,
    #: for a printer that shifts them (--back-offset)
    back_offset: tuple[float, float] = (0.0, 0.0)


def back_shift(options: PrintOptions, flip: str) -> tuple[float, float]:
    """The back_offset in a back page's own coordinates: the flip mirrors one axis.

    >>> back_shift(PrintOptions("a4", "long", "duplex", (1.0, 2.0)), "long")
    (-1.0, 2.0)
    >>> back_shift(PrintOptions("a4", "short", "duplex", (1.0, 2.0)), "short")
    (1.0, -2.0)
    """
    x, y = options.back_offset
    return (-x, y) if flip == "long" else (x, -y)


@dataclass(frozen=True)
class Page:
    """One page: its size in mm and the function that draws it."""

    width: float
    height: float
    draw: Callable[[Canvas], None]
    trim_box: Box | None = None  # set for single-card print-on-demand pages
    bleed_box: Box | None = None
    name: str = ""  # what the page shows, for a file of one card face a page (the face's component name)


@dataclass(frozen=True)
class Component:
    """One component drawn on its own (for its SVG): e.g. one card face, the board, one cube net."""

    name: str  # file stem, e.g. "red-3" or "board"
    width: float
    height: float
    draw: Callable[[Canvas], None]


@dataclass(frozen=True)
class FreeArea:
    """Room left on a page that small pieces of the same game may use: the name of the file, the
    page's index in it and the box (x, y, width, height) in mm on that page.  An empty card slot
    also gives its grid position (`slot`): a spare blank card is printed there unless a piece
    takes it (`PrintFile.taking`)."""

    file: str
    page: int
    box: Box
    slot: int | None = None


@dataclass(frozen=True)
class PrintFile:
    """One PDF (its pages) plus the components it shows, each written as an SVG."""

    name: str  # file stem, e.g. "blockd-cards-a4"
    title: str  # what the designer sees, e.g. "Blockd cards (25, poker size)"
    pages: tuple[Page, ...]
    components: tuple[Component, ...] = field(default_factory=tuple)
    free: tuple[FreeArea, ...] = ()  # room small pieces may use (printkit.packing.share_free_space)
    duplex: Literal["long", "short"] | None = None  # how its back pages flip; None: print one side only
    subject: str = ""  # what the file is for and how to print it (the PDF's Subject)
    #: for a card sheet file: its pages redrawn with the free slots {(page index, slot)} left
    #: empty, which small pieces take, instead of holding spare blanks
    taking: Callable[[frozenset[tuple[int, int]]], tuple[Page, ...]] | None = None

"""Where pieces go on a sheet: grid and hexagonal packings, the printable area, pagination.

Pure geometry in millimetres (y down); nothing here draws.
A packing returns the positions that fit one page; `paginate` splits a list of pieces into
pages of that many.

>>> len(grid_positions(100, 50, 20, 20, gap=0))
10
>>> len(hex_positions(100, 50, 20, gap=0)) > len(grid_positions(100, 50, 20, 20, gap=0))
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence, TypeVar

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import FreeArea, Page, PrintFile
from boardlab.printkit.units import MM_PER_POINT

Item = TypeVar("Item")
Box = tuple[float, float, float, float]


def paper_size(conventions: PrintConventions, paper: str) -> tuple[float, float]:
    """(width, height) in mm of a paper named in layouts/print.toml, portrait.

    :raises BoardlabError: for a paper the conventions do not list.

    >>> from boardlab.layouts import print_conventions
    >>> paper_size(print_conventions(), "a4")
    (210.0, 297.0)
    """
    if paper not in conventions.papers:
        raise BoardlabError(f'unknown paper "{paper}" (papers: {", ".join(conventions.papers)})')
    width, height = conventions.papers[paper]
    return float(width), float(height)


def footer_band(conventions: PrintConventions) -> float:
    """Height in mm kept free at the bottom of a sheet for the footer and the calibration bar.

    >>> from boardlab.layouts import print_conventions
    >>> round(footer_band(print_conventions()), 2)
    7.41
    """
    return 3 * conventions.sheet.footer_size * MM_PER_POINT


def printable_area(page_width: float, page_height: float, conventions: PrintConventions) -> Box:
    """The box (x, y, width, height) where pieces may go: inside the margin, above the footer.

    >>> from boardlab.layouts import print_conventions
    >>> [round(v, 2) for v in printable_area(210, 297, print_conventions())]
    [6.35, 6.35, 197.3, 276.89]
    """
    margin = conventions.sheet.margin
    return (margin, margin, page_width - 2 * margin, page_height - 2 * margin - footer_band(conventions))


def grid_positions(area_width: float, area_height: float, item_width: float, item_height: float,
                   gap: float) -> list[tuple[float, float]]:
    """Top-left corners of as many `item_width` x `item_height` items as fit, row by row.

    The block of items is centred in the area; `gap` separates neighbours (0: shared cut lines).

    >>> grid_positions(50, 10, 20, 10, gap=5)
    [(2.5, 0.0), (27.5, 0.0)]
    """
    columns = _fit(area_width, item_width, gap)
    rows = _fit(area_height, item_height, gap)
    used_w = columns * item_width + max(columns - 1, 0) * gap
    used_h = rows * item_height + max(rows - 1, 0) * gap
    x0, y0 = (area_width - used_w) / 2, (area_height - used_h) / 2
    return [(x0 + c * (item_width + gap), y0 + r * (item_height + gap)) for r in range(rows) for c in range(columns)]


def hex_positions(area_width: float, area_height: float, diameter: float, gap: float) -> list[tuple[float, float]]:
    """Centres of as many discs as fit in hexagonal packing (every other row shifted by half a pitch).

    Neighbouring discs are `diameter + gap` apart, centre to centre.
    Tries rows starting flush and rows starting shifted, keeps whichever holds more.

    >>> [(round(x, 2), round(y, 2)) for x, y in hex_positions(44, 40, 20, gap=0)]
    [(12.0, 11.34), (32.0, 11.34), (22.0, 28.66)]
    """
    pitch = diameter + gap
    row_step = pitch * math.sqrt(3) / 2
    if diameter > area_width or diameter > area_height:
        return []
    rows = int(math.floor((area_height - diameter) / row_step + 1e-9)) + 1
    best: list[tuple[float, float]] = []
    for first_shifted in (False, True):
        centres = []
        for r in range(rows):
            shift = pitch / 2 if (r % 2 == 1) != first_shifted else 0.0
            count = _fit(area_width - shift, diameter, gap)
            centres += [(diameter / 2 + shift + c * pitch, diameter / 2 + r * row_step) for c in range(count)]
        if len(centres) > len(best):
            best = centres
    used_w = max(x for x, _ in best) + diameter / 2
    used_h = max(y for _, y in best) + diameter / 2
    dx, dy = (area_width - used_w) / 2, (area_height - used_h) / 2
    return [(x + dx, y + dy) for x, y in best]


def _fit(length: float, item: float, gap: float) -> int:
    """How many items of size `item` with `gap` between them fit in `length`."""
    if item > length + 1e-9:
        return 0
    return int(math.floor((length - item) / (item + gap) + 1e-9)) + 1


def paginate(items: Sequence[Item], per_page: int) -> list[list[Item]]:
    """`items` cut into pages of at most `per_page`.

    :raises BoardlabError: when not even one item fits a page.

    >>> paginate("abcde", 2)
    [['a', 'b'], ['c', 'd'], ['e']]
    """
    if per_page < 1:
        raise BoardlabError("a piece is larger than the printable area of the paper; choose a larger paper")
    return [list(items[i:i + per_page]) for i in range(0, len(items), per_page)]


@dataclass(frozen=True)
class Section:
    """One kind of piece on a shared sheet: how many, where they fit in a box, how one is drawn.

    `positions(width, height)` gives the top-left corners of the item boxes that fit a box of
    that size, in filling order; `draw(canvas, k, x, y)` draws item k with its box's corner at (x, y).
    """

    count: int
    item_height: float
    positions: Callable[[float, float], list[tuple[float, float]]]
    draw: Callable[[Canvas, int, float, float], None]
    item_width: float = 0.0  # when given, the room right of a section's block takes the next sections


def flow_into(sections: Sequence[Section], free: Sequence[FreeArea], paper: tuple[float, float],
              conventions: PrintConventions, gap: float) -> tuple[dict[tuple[str, int], Callable[[Canvas], None]], list[Page]]:
    """Place every item of every section: first fit into the `free` areas in order, then onto as
    many new pages as it takes.  Within an area, sections stack one under the other, `gap` mm
    apart; a section that does not fit under what an area holds goes on to the next area.

    Returns the drawing to add to each (file, page) whose free area was used, and the new pages.
    :raises BoardlabError: when an item is larger than the printable area.

    >>> from boardlab.layouts import print_conventions
    >>> square = lambda n: Section(n, 50, lambda w, h: grid_positions(w, h, 50, 50, 0), lambda c, k, x, y: None)
    >>> extra, pages = flow_into([square(5)], [FreeArea("cards", 4, (10, 10, 120, 60))], (210, 297),
    ...                          print_conventions(), gap=2)
    >>> sorted(extra), len(pages)
    ([('cards', 4)], 1)
    """
    extra, pages, _ = _flow(sections, free, paper, conventions, gap)
    return extra, pages


def _flow(sections: Sequence[Section], free: Sequence[FreeArea], paper: tuple[float, float],
          conventions: PrintConventions, gap: float
          ) -> tuple[dict[tuple[str, int], Callable[[Canvas], None]], list[Page], list[FreeArea]]:
    """`flow_into`, plus the free areas that received at least one item."""
    page_w, page_h = paper
    targets: list[list[Any]] = []  # per page used: [(file, page) or None for a new page, placements]
    regions: list[list[Any]] = []  # [box, top, target]: where items may still go, in the order tried
    for area in free:
        target = next((t for t in targets if t[0] == (area.file, area.page)), None)
        if target is None:
            target = [(area.file, area.page), []]
            targets.append(target)
        regions.append([area.box, 0.0, target])
    area_regions = list(zip(free, regions))  # the regions the free areas start as (later inserts lie inside them)
    for section in sections:
        done, index = 0, 0
        while done < section.count:
            if index == len(regions):
                target = [None, []]
                targets.append(target)
                regions.append([printable_area(page_w, page_h, conventions), 0.0, target])
            (ax, ay, aw, ah), top, target = regions[index]
            slots = section.positions(aw, ah - top) if ah - top > 0 else []
            if not slots:
                if target[0] is None and top == 0.0 and not target[1]:
                    raise BoardlabError("a piece is larger than the printable area of the paper; choose a larger paper")
                index += 1
                continue
            # packings centre their block; here it goes to the top (and to the left, to leave room beside it)
            lift, shift = min(y for _, y in slots), min(x for x, _ in slots) if section.item_width else 0.0
            take = min(len(slots), section.count - done)
            for k, (x, y) in zip(range(done, done + take), slots):
                target[1].append((section, k, ax + x - shift, ay + top + y - lift))
            done += take
            height = max(y for _, y in slots[:take]) - lift + section.item_height
            regions[index][1] = top + height + gap
            right = max(x for x, _ in slots[:take]) - shift + section.item_width + gap
            if done < section.count:
                index += 1
            elif section.item_width and aw - right > 0:  # the room beside the block comes first next
                regions.insert(index, [(ax + right, ay + top, aw - right, height), 0.0, target])

    def drawer(items: tuple[tuple[Section, int, float, float], ...]) -> Callable[[Canvas], None]:
        def draw(canvas: Canvas) -> None:
            for section, k, x, y in items:
                section.draw(canvas, k, x, y)
        return draw

    extra = {key: drawer(tuple(placed)) for key, placed in targets if key is not None and placed}
    pages = [Page(page_w, page_h, drawer(tuple(placed))) for key, placed in targets if key is None]
    used = [area for area, region in area_regions if region[1] > 0]
    return extra, pages, used


def flow_pages(sections: Sequence[Section], paper: tuple[float, float], conventions: PrintConventions,
               gap: float) -> list[Page]:
    """Pages holding every item of every section, sections one under the other, `gap` mm apart.

    A section that does not fit under the previous one continues on a new page.
    :raises BoardlabError: when an item is larger than the printable area.

    >>> from boardlab.layouts import print_conventions
    >>> square = lambda n: Section(n, 50, lambda w, h: grid_positions(w, h, 50, 50, 0), lambda c, k, x, y: None)
    >>> len(flow_pages([square(5), square(12)], (210, 297), print_conventions(), gap=2))
    2
    """
    return flow_into(sections, (), paper, conventions, gap)[1]


def share_free_space(files: Sequence[PrintFile], sections: Sequence[Section], paper: tuple[float, float],
                     conventions: PrintConventions, gap: float) -> tuple[list[PrintFile], list[Page]]:
    """Small pieces first into the room the `files` leave free (`PrintFile.free`), the rest on new
    pages: the files with the pieces drawn on their pages, and the new pages (maybe none).

    :raises BoardlabError: when an item is larger than the printable area.
    """
    free = [area for f in files for area in f.free]
    extra, pages, used = _flow(sections, free, paper, conventions, gap)
    return [with_drawing(f, {page: draw for (name, page), draw in extra.items() if name == f.name},
                         frozenset((a.page, a.slot) for a in used if a.file == f.name and a.slot is not None))
            for f in files], pages


def with_drawing(print_file: PrintFile, extra: dict[int, Callable[[Canvas], None]],
                 taken: frozenset[tuple[int, int]] = frozenset()) -> PrintFile:
    """`print_file` with `extra[i]` drawn on page i after what it already shows; the free room
    used is no longer offered.  The card slots in `taken` {(page index, slot)}, which the extra
    drawing uses, lose their spare blanks (`PrintFile.taking`)."""
    if not extra:
        return print_file
    pages = list(print_file.taking(taken) if taken and print_file.taking else print_file.pages)
    for index, draw in extra.items():
        page = pages[index]

        def both(canvas: Canvas, first: Callable[[Canvas], None] = page.draw,
                 then: Callable[[Canvas], None] = draw) -> None:
            first(canvas)
            then(canvas)
        pages[index] = replace(page, draw=both)
    return replace(print_file, pages=tuple(pages), free=tuple(a for a in print_file.free if a.page not in extra))

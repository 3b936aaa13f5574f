"""Cube nets: a cross of six squares with glue tabs, to cut, fold and glue into a cube.

The net, in squares of one cube edge (y down on the page), with the top face in the middle:

            north
      west  top   east
            south
            bottom

Fold every dashed line away from the printed side: the top stays up, the four sides fold down
around it and the bottom closes the cube.  Seven glue tabs (one per seam) hold it together.
Each face's art is turned so that on the folded cube the side faces stand upright with the
top face up, and the art of the top and bottom faces points to the north side.
tests/test_print_nets.py folds the drawn net with its own geometry and checks the result.

>>> from boardlab.printkit.draw import RecordingCanvas
>>> net_size(25, 7)
(75, 107)
>>> faces = {"top": "star", "bottom": "stop", "north": "cross", "east": "slider", "south": "x", "west": "hoops"}
>>> c = RecordingCanvas(*net_size(25, 7))
>>> draw_cube_net(c, 0, 0, edge=25, tab=7, faces=faces, colour="#e0b43a", ink="#1b1b1b", caption="gold 1")
>>> sum(1 for call in c.calls if call[0] == "line" and call[2].get("dash"))  # 5 folds between faces, 7 tab folds
12
"""

from __future__ import annotations

from typing import Mapping, Sequence

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.terms import word
from boardlab.printkit.draw import Canvas, Point
from boardlab.printkit.packing import Box, grid_positions, paginate, printable_area
from boardlab.printkit.pages import Component, Page
from boardlab.printkit.marks import CUT_WIDTH, FOLD_DASH
from boardlab.printkit.palette import contrast_ink, mark_ink
from boardlab.printkit.symbols import draw_symbol
from boardlab.printkit.units import MM_PER_POINT

SYMBOL_SHARE = 0.7  # of the edge: the symbol's box on a face

#: Where each cube side sits in the cross, in (column, row) squares of one edge.
NET_CELLS = {"north": (1, 0), "west": (0, 1), "top": (1, 1), "east": (2, 1), "south": (1, 2), "bottom": (1, 3)}

#: Clockwise quarter turns (degrees) of each face's art: side faces upright once folded
#: (their "up" points to the top face), top and bottom art pointing north.
ART_ROTATION = {"top": 0, "north": 180, "west": 90, "east": 270, "south": 0, "bottom": 180}

#: The seven edges (face, edge of its square in the net) that carry a glue tab: one per seam.
TABS = (("north", "left"), ("north", "right"), ("north", "top"), ("west", "bottom"), ("east", "bottom"),
        ("bottom", "left"), ("bottom", "right"))

EDGES = ("top", "right", "bottom", "left")
_STEP = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}


def net_size(edge: float, tab: float) -> tuple[float, float]:
    """(width, height) in mm of the net's bounding box, tabs included."""
    columns = max(c for c, _ in NET_CELLS.values()) + 1
    rows = max(r for _, r in NET_CELLS.values()) + 1
    return columns * edge, rows * edge + tab


def face_boxes(edge: float, tab: float) -> dict[str, Box]:
    """Each side's square as (x, y, edge, edge), relative to the net's top-left corner (room for the top tab)."""
    return {side: (c * edge, tab + r * edge, edge, edge) for side, (c, r) in NET_CELLS.items()}


def _edge_segment(box: Box, which: str) -> tuple[Point, Point]:
    x, y, w, h = box
    return {"top": ((x, y), (x + w, y)), "right": ((x + w, y), (x + w, y + h)),
            "bottom": ((x + w, y + h), (x, y + h)), "left": ((x, y + h), (x, y))}[which]


def _neighbour(side: str, which: str) -> str | None:
    column, row = NET_CELLS[side]
    dx, dy = _STEP[which]
    for other, cell in NET_CELLS.items():
        if cell == (column + dx, row + dy):
            return other
    return None


def tab_outline(base: tuple[Point, Point], depth: float) -> list[Point]:
    """A trapezoid tab on the segment `base` (clockwise round its face), `depth` mm outward, 45-degree sides.

    >>> tab_outline(((0, 0), (10, 0)), 3)
    [(0, 0), (3.0, -3.0), (7.0, -3.0), (10, 0)]
    """
    (x1, y1), (x2, y2) = base
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    nx, ny = uy, -ux  # outward: to the left of a clockwise edge, y down
    return [(x1, y1), (x1 + depth * (ux + nx), y1 + depth * (uy + ny)),
            (x2 + depth * (-ux + nx), y2 + depth * (-uy + ny)), (x2, y2)]


def draw_cube_net(canvas: Canvas, x: float, y: float, *, edge: float, tab: float, faces: Mapping[str, str],
                  colour: str, ink: str, caption: str, symbol_box: Box | None = None,
                  symbol_fill: str | None = None) -> None:
    """One cube net with its top-left corner at (x, y).

    `faces` maps each side (top, bottom, north, east, south, west) to a symbol name; `colour`
    fills the faces, `ink` draws cut (solid) and fold (dashed) lines and the caption.  Each
    symbol fills `symbol_box` (x, y, width, height in mm of an upright face; by default the
    middle SYMBOL_SHARE of it) in `symbol_fill` (by default black or white, legible on `colour`).
    :raises BoardlabError: for a symbol that printkit.symbols cannot draw.
    """
    boxes = {side: (x + bx, y + by, bw, bh) for side, (bx, by, bw, bh) in face_boxes(edge, tab).items()}
    on_colour = symbol_fill or contrast_ink(colour)
    margin = edge * (1 - SYMBOL_SHARE) / 2
    sx, sy, sw, sh = symbol_box or (margin, margin, edge * SYMBOL_SHARE, edge * SYMBOL_SHARE)
    tabbed = set(TABS)
    for side, box in boxes.items():
        bx, by, bw, bh = box
        canvas.rect(bx, by, bw, bh, fill=colour)
        with canvas.transform(dx=bx + bw / 2, dy=by + bh / 2, rotate=ART_ROTATION[side]):
            draw_symbol(canvas, faces[side], sx + sw / 2 - edge / 2, sy + sh / 2 - edge / 2, min(sw, sh), fill=on_colour)
    cuts: list[tuple[Point, Point]] = []
    folds: list[tuple[Point, Point]] = []
    for side in NET_CELLS:
        for which in EDGES:
            segment = _edge_segment(boxes[side], which)
            other = _neighbour(side, which)
            if other is not None:
                if side < other:  # each shared edge once
                    folds.append(segment)
            elif (side, which) in tabbed:
                folds.append(segment)
                outline = tab_outline(segment, tab)
                cuts += list(zip(outline, outline[1:]))
                _tab_label(canvas, outline, tab, ink)
            else:
                cuts.append(segment)
    with canvas.layer("cut"):  # one closed outline, which a cutting machine follows in one go
        canvas.polygon(closed_outline(cuts), stroke=ink, width=CUT_WIDTH)
    with canvas.layer("fold"):
        for (x1, y1), (x2, y2) in folds:  # every fold has a face on at least one side
            canvas.line(x1, y1, x2, y2, stroke=mark_ink(colour, ink), width=CUT_WIDTH, dash=FOLD_DASH)
    # the caption goes in the free corner right of the south face, below the east face's tab
    east_x, east_y, _, _ = boxes["east"]
    cx, cy = east_x + 1.5, east_y + edge + tab + 1.0
    size = min(7.0, edge / 4 / MM_PER_POINT)
    for k, line in enumerate(caption.split("\n")):
        canvas.text(cx, cy + (k + 1) * size * MM_PER_POINT * 1.3, line, size=size, fill=ink)


def closed_outline(segments: Sequence[tuple[Point, Point]]) -> list[Point]:
    """The segments of an outline chained end to start into one closed polygon's corners.

    :raises ValueError: when the segments do not form one closed loop.

    >>> closed_outline([((1, 0), (1, 1)), ((0, 0), (1, 0)), ((1, 1), (0, 1)), ((0, 1), (0, 0))])
    [(1, 0), (1, 1), (0, 1), (0, 0)]
    """
    def key(point: Point) -> tuple[float, float]:
        return round(point[0], 6), round(point[1], 6)

    remaining = list(segments)
    start, end = remaining.pop(0)
    corners = [start]
    while remaining:
        following = [s for s in remaining if key(s[0]) == key(end) or key(s[1]) == key(end)]
        if len(following) != 1:
            raise ValueError("the cut segments do not form one closed outline")
        segment = following[0]
        remaining.remove(segment)
        corners.append(end)
        end = segment[1] if key(segment[0]) == key(end) else segment[0]
    if key(end) != key(start):
        raise ValueError("the cut outline does not close")
    return corners


def _tab_label(canvas: Canvas, outline: list[Point], depth: float, ink: str) -> None:
    """"glue" written along a tab, reading outward-up."""
    (x1, y1), _, _, (x2, y2) = outline
    mx, my = (outline[1][0] + outline[2][0] + x1 + x2) / 4, (outline[1][1] + outline[2][1] + y1 + y2) / 4
    horizontal = abs(y2 - y1) < abs(x2 - x1)
    size = min(6.0, depth * 0.6 / MM_PER_POINT)
    with canvas.transform(dx=mx, dy=my, rotate=0 if horizontal else -90):
        canvas.text(0, size * MM_PER_POINT * 0.35, word("glue"), size=size, fill=ink, anchor="middle")


def net_component(name: str, *, edge: float, tab: float, faces: Mapping[str, str], colour: str, ink: str,
                  caption: str, symbol_box: Box | None = None, symbol_fill: str | None = None) -> Component:
    """One cube net on its own, for its SVG file (`draw_cube_net`)."""
    width, height = net_size(edge, tab)
    return Component(name, width, height, lambda canvas: draw_cube_net(
        canvas, 0, 0, edge=edge, tab=tab, faces=faces, colour=colour, ink=ink, caption=caption,
        symbol_box=symbol_box, symbol_fill=symbol_fill))


def net_pages(nets: Sequence[Component], paper: tuple[float, float], conventions: PrintConventions,
              *, gap: float) -> list[Page]:
    """Sheets holding the nets (components of equal size), as many per page as fit, `gap` mm apart.

    :raises BoardlabError: when a net is larger than the printable area.
    """
    page_w, page_h = paper
    ax, ay, aw, ah = printable_area(page_w, page_h, conventions)
    width, height = nets[0].width, nets[0].height
    slots = grid_positions(aw, ah, width, height, gap)
    pages = []
    for chunk in paginate(list(nets), len(slots)):
        def draw(canvas: Canvas, chunk: list[Component] = chunk) -> None:
            for (sx, sy), net in zip(slots, chunk):
                with canvas.transform(dx=ax + sx, dy=ay + sy):
                    net.draw(canvas)
        pages.append(Page(page_w, page_h, draw))
    return pages

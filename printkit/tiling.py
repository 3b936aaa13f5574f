"""Boards larger than the paper: tiles with an overlap strip, alignment marks and a key.

A board is a `Component` drawn in its own millimetres.  `plan_tiles` cuts it into a grid of
equal tiles; neighbouring tiles share exactly `overlap` mm of the board.  Tiles are named by
row letter and column number ("A1 A2 / B1 B2").  On each tile page:
- the tile's outline is the cut line;
- where a neighbour to the left or above overlaps it, a dashed line shows where that
  neighbour's edge goes and the strip between is the glue strip;
- alignment marks straddle every seam at the same board coordinates on both tiles, so the
  marks continue across the seam when the tiles are laid correctly;
- a key under the tile shows the grid with this tile highlighted.
`poster_page` draws the whole board on one page (A3 by default, `sheet.poster_paper`),
scaled down only if it must be, and says the scale on the page.

>>> tiles = plan_tiles(250, 120, 198, 270, overlap=10)
>>> [t.name for t in tiles], tile_key(tiles)
(['A1', 'A2'], 'A1 A2')
>>> tiles[0].x + tiles[0].width - tiles[1].x
10.0
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.terms import number, plural, term
from boardlab.printkit.draw import Canvas
from boardlab.printkit.fonts import text_width, wrap_lines
from boardlab.printkit.marks import CUT_WIDTH, footed_file
from boardlab.printkit.packing import paper_size, printable_area
from boardlab.printkit.pages import Component, FreeArea, Page, PrintFile
from boardlab.printkit.units import MM_PER_POINT

MARK_WIDTH = 0.25  # mm: seams and alignment marks
SEAM_DASH = (2.0, 1.5)  # mm on, mm off
MARK_SPACING = 40.0  # mm between alignment marks along a seam (at least two per seam)
KEY_CELL = 4.0  # mm: one tile in the key's little grid
#: seam choices tried for the most even tiles of a board with grid lines (beyond: longest tiles first)
EVEN_SEAM_TRIES = 20000
OUTLINE_ROOM = 1.0  # mm between the margin and a one-page board, for the half of its outline outside it


@dataclass(frozen=True)
class Tile:
    """One tile: its place in the grid and the part of the board it shows (board mm)."""

    row: int
    column: int
    x: float
    y: float
    width: float
    height: float

    @property
    def name(self) -> str:
        """Row letter and column number, e.g. "B2"."""
        return f"{chr(ord('A') + self.row)}{self.column + 1}"


def tiles_along(length: float, room: float, overlap: float) -> int:
    """How many tiles of at most `room` mm, overlapping by `overlap`, cover `length` mm.

    :raises BoardlabError: when the overlap leaves no room for the board on a tile.

    >>> tiles_along(190, 198, 10), tiles_along(199, 198, 10), tiles_along(386, 198, 10), tiles_along(387, 198, 10)
    (1, 2, 2, 3)
    """
    if length <= room + 1e-9:
        return 1
    if overlap >= room:
        raise BoardlabError(f"a tile overlap of {overlap:g} mm leaves no room on the paper (printable {room:g} mm)")
    return math.ceil((length - overlap) / (room - overlap) - 1e-9)


@dataclass(frozen=True)
class BoardGrid:
    """What tiling must respect on a board: the lines between its squares, where a seam may run
    without splitting a square (board mm, both ends included), and the playing area, which
    alignment marks keep off."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    play_area: tuple[float, float, float, float]  # x, y, width, height


def _spans(length: float, room: float, overlap: float, lines: tuple[float, ...] | None) -> list[tuple[float, float]]:
    """(start, size) of the tiles along one axis: equal tiles, or with `lines`, tiles whose
    seams (the end of every tile but the last) fall on those lines, as even as the lines allow
    (the largest tile as small as it can be, so that no sheet is left nearly empty; the first
    such split in order of seams).

    >>> _spans(256, 197, 10, (16, 48, 80, 112, 144, 176, 208, 240))
    [(0, 144), (134, 122)]
    >>> _spans(256, 150, 10, None)
    [(0.0, 133.0), (123.0, 133.0)]
    """
    count = tiles_along(length, room, overlap)
    if count == 1:
        return [(0, length)]
    if lines:
        inner = sorted(x for x in lines if 0 < x < length)
        if math.comb(len(inner), count - 1) <= EVEN_SEAM_TRIES:
            best: tuple[float, list[tuple[float, float]]] | None = None
            for seams in itertools.combinations(inner, count - 1):
                starts = [0, *(x - overlap for x in seams)]
                spans = [(start, end - start) for start, end in zip(starts, [*seams, length])]
                if all(overlap < size <= room + 1e-9 for _, size in spans) and all(
                        b > a for a, b in zip(starts, starts[1:])):
                    largest = max(size for _, size in spans)
                    if best is None or largest < best[0] - 1e-9:
                        best = (largest, spans)
            if best is not None:
                return best[1]
        # very many lines: each tile as long as it may be, the rest on the last
        spans = []
        start: float = 0
        while length - start > room + 1e-9:
            fits = [x for x in lines if start + overlap < x <= start + room + 1e-9]
            if not fits:
                break
            spans.append((start, fits[-1] - start))
            start = fits[-1] - overlap
        else:
            return spans + [(start, length - start)]
    size = (length + (count - 1) * overlap) / count
    return [(k * (size - overlap), size) for k in range(count)]


def plan_tiles(board_width: float, board_height: float, room_width: float, room_height: float,
               overlap: float, grid: BoardGrid | None = None) -> list[Tile]:
    """The tiles (row by row) that cover the board, each at most room_width x room_height.

    Neighbours share exactly `overlap` mm.  With a `grid`, every seam runs along a line between
    squares, so that no square (a star, a start square) is split; without one, or where the
    lines allow no seam, tiles in a row (column) have equal size.
    :raises BoardlabError: when the overlap leaves no room for the board on a tile.
    """
    columns = _spans(board_width, room_width, overlap, grid.xs if grid else None)
    rows = _spans(board_height, room_height, overlap, grid.ys if grid else None)
    return [Tile(r, c, x, y, width, height)
            for r, (y, height) in enumerate(rows) for c, (x, width) in enumerate(columns)]


def tile_key(tiles: list[Tile]) -> str:
    """The grid of tile names, rows separated by " / ".

    >>> tile_key(plan_tiles(300, 400, 198, 270, 10))
    'A1 A2 / B1 B2'
    """
    rows = max(t.row for t in tiles) + 1
    return " / ".join(" ".join(t.name for t in tiles if t.row == r) for r in range(rows))


def key_band(conventions: PrintConventions) -> float:
    """Height in mm kept under a tile for its key (three lines of footer-sized text)."""
    return 3 * 1.5 * conventions.sheet.footer_size * MM_PER_POINT


def _orientations(paper: tuple[float, float]) -> list[tuple[float, float]]:
    width, height = paper
    return [(width, height), (height, width)] if width != height else [(width, height)]


def tiled_pages(board: Component, paper_name: str, conventions: PrintConventions, *, ink: str,
                paper_colour: str, grid: BoardGrid | None = None) -> list[Page]:
    """The board over as few pages of `paper_name` as it takes (portrait or landscape), one tile a page.

    A board that fits one page gives one page, the board at the top, centred across, with no marks.
    :raises BoardlabError: for an unknown paper or an overlap larger than the page.
    """
    overlap = conventions.sheet.tile_overlap
    best = None
    for page_w, page_h in _orientations(paper_size(conventions, paper_name)):
        ax, ay, aw, ah = printable_area(page_w, page_h, conventions)
        tiles = plan_tiles(board.width, board.height, aw, ah - key_band(conventions), overlap, grid)
        if best is None or len(tiles) < len(best[2]):
            best = (page_w, page_h, tiles)
    assert best is not None  # a paper has at least one orientation
    page_w, page_h, tiles = best
    ax, ay, aw, ah = printable_area(page_w, page_h, conventions)
    if len(tiles) == 1:  # at the top of the page, so that the room under it can take small pieces
        def draw_whole(canvas: Canvas) -> None:
            # a little lower than the margin: the board's outline is drawn on its edge, half outside it
            with canvas.transform(dx=ax + (aw - board.width) / 2, dy=min(ay + OUTLINE_ROOM, ay + (ah - board.height) / 2)):
                board.draw(canvas)
        return [Page(page_w, page_h, draw_whole)]
    pages = []
    for tile in tiles:
        def draw(canvas: Canvas, tile: Tile = tile) -> None:
            room_h = ah - key_band(conventions)
            left = ax + (aw - tile.width) / 2
            top = ay + (room_h - tile.height) / 2
            draw_tile(canvas, board, tiles, tile, left, top, overlap, ink=ink, paper_colour=paper_colour, grid=grid)
            draw_key(canvas, tiles, tile, ax, ay + ah - key_band(conventions), aw, overlap, conventions, ink=ink)
        pages.append(Page(page_w, page_h, draw))
    return pages


def seam_positions(tiles: list[Tile]) -> tuple[list[float], list[float]]:
    """Board x of every vertical seam and board y of every horizontal seam (the edge of the tile on top).

    A tile lies over the strip of its right (lower) neighbour, so a seam is that tile's right
    (lower) edge.
    """
    xs = sorted({t.x + t.width for t in tiles if any(o.row == t.row and o.column == t.column + 1 for o in tiles)})
    ys = sorted({t.y + t.height for t in tiles if any(o.column == t.column and o.row == t.row + 1 for o in tiles)})
    return xs, ys


def _marks_along(length: float, play: tuple[float, float] | None = None) -> list[float]:
    """Where alignment marks go along a seam `length` long: evenly, or with the playing area
    spanning `play` = (start, end), in the middle of the bands before and after it."""
    if play is not None and play[0] > 0 and play[1] < length:
        return [play[0] / 2, (play[1] + length) / 2]
    count = max(2, int(length // MARK_SPACING))
    return [length * (k + 0.5) / count for k in range(count)]


def draw_tile(canvas: Canvas, board: Component, tiles: list[Tile], tile: Tile, left: float, top: float,
              overlap: float, *, ink: str, paper_colour: str, grid: BoardGrid | None = None) -> None:
    """One tile with its top-left corner at (left, top): board art, seams, marks and cut outline."""
    with canvas.clip(left, top, tile.width, tile.height):
        with canvas.transform(dx=left - tile.x, dy=top - tile.y):
            board.draw(canvas)
            seam_xs, seam_ys = seam_positions(tiles)
            # marks off the playing area: in the band round it, where the board has one
            half = overlap / 2
            px, py, pw, ph = grid.play_area if grid else (0.0, 0.0, board.width, board.height)
            for sx in seam_xs:
                for my in _marks_along(board.height, (py, py + ph) if grid else None):
                    _alignment_mark(canvas, sx, my, half, ink, paper_colour)
            for sy in seam_ys:
                for mx in _marks_along(board.width, (px, px + pw) if grid else None):
                    _alignment_mark(canvas, mx, sy, half, ink, paper_colour)
    # where a neighbour lies over this tile: dashed line at its edge, the strip is for glue
    for other in tiles:
        if other.row == tile.row and other.column == tile.column - 1:
            x = left + overlap
            canvas.line(x, top, x, top + tile.height, stroke=ink, width=MARK_WIDTH, dash=SEAM_DASH)
            with canvas.transform(dx=left + overlap / 2, dy=top + tile.height / 2, rotate=-90):
                canvas.text(0, 0.9, term("tiles.glue", tile=other.name), size=6, fill=ink, anchor="middle")
        if other.column == tile.column and other.row == tile.row - 1:
            y = top + overlap
            canvas.line(left, y, left + tile.width, y, stroke=ink, width=MARK_WIDTH, dash=SEAM_DASH)
            canvas.text(left + tile.width / 2, top + overlap / 2 + 0.9, term("tiles.glue", tile=other.name),
                        size=6, fill=ink, anchor="middle")
    with canvas.layer("cut"):
        canvas.rect(left, top, tile.width, tile.height, stroke=ink, width=CUT_WIDTH)


def _alignment_mark(canvas: Canvas, x: float, y: float, half: float, ink: str, paper_colour: str) -> None:
    """A cross in a ring centred on a seam point; drawn in board mm so both tiles carry it."""
    canvas.circle(x, y, half * 0.6, fill=paper_colour, stroke=ink, width=MARK_WIDTH)
    canvas.line(x - half, y, x + half, y, stroke=ink, width=MARK_WIDTH)
    canvas.line(x, y - half, x, y + half, stroke=ink, width=MARK_WIDTH)


def draw_key(canvas: Canvas, tiles: list[Tile], current: Tile, x: float, y: float, width: float, overlap: float,
             conventions: PrintConventions, *, ink: str) -> None:
    """The key under a tile: a little grid with this tile filled, the tile names and how to join them."""
    size = conventions.sheet.footer_size
    x += MARK_WIDTH / 2  # the cells' outlines stay inside the margin
    rows = max(t.row for t in tiles) + 1
    cell = min(KEY_CELL, key_band(conventions) / rows)
    for t in tiles:
        canvas.rect(x + t.column * cell, y + t.row * cell, cell, cell, fill=ink if t == current else None,
                    stroke=ink, width=MARK_WIDTH)
    columns = max(t.column for t in tiles) + 1
    text_x = x + columns * cell + 3
    line = size * MM_PER_POINT * 1.5
    label = term("tiles.tile", tile=current.name, n=len(tiles))
    canvas.text(text_x, y + line, label, size=size + 1, fill=ink, bold=True)
    canvas.text(text_x + text_width(label, size + 1, bold=True) + 3, y + line, term("tiles.key", layout=tile_key(tiles)),
                size=size + 1, fill=ink)
    # the instructions wrap within the printable width: two lines are kept for them (key_band)
    for k, text in enumerate(wrap_lines(term("tiles.how", overlap=float(overlap)), size, width - (text_x - x))):
        canvas.text(text_x, y + (2 + k) * line, text, size=size, fill=ink)


def poster_page(board: Component, conventions: PrintConventions, *, ink: str) -> tuple[Page, float]:
    """The whole board on one page of `sheet.poster_paper` and the scale used (1.0 unless it must shrink).

    Portrait or landscape, whichever needs less shrinking (portrait on a tie).
    :raises BoardlabError: for an unknown poster paper.
    """
    best = None
    for page_w, page_h in _orientations(paper_size(conventions, conventions.sheet.poster_paper)):
        ax, ay, aw, ah = printable_area(page_w, page_h, conventions)
        ah -= key_band(conventions)
        scale = min(1.0, aw / board.width, ah / board.height)
        if best is None or scale > best[0] + 1e-12:
            best = (scale, page_w, page_h, ax, ay, aw, ah)
    assert best is not None  # a paper has at least one orientation
    scale, page_w, page_h, ax, ay, aw, ah = best

    def draw(canvas: Canvas) -> None:
        with canvas.transform(dx=ax + (aw - board.width * scale) / 2, dy=ay + (ah - board.height * scale) / 2,
                              scale=scale):
            board.draw(canvas)
        size = conventions.sheet.footer_size
        paper = conventions.sheet.poster_paper.upper()
        note = (term("tiles.full_size", width=float(board.width), height=float(board.height)) if scale == 1.0 else
                term("tiles.scaled", scale=number(scale * 100, 1), paper=paper, width=number(board.width * scale, 1),
                     height=number(board.height * scale, 1), full_width=float(board.width),
                     full_height=float(board.height)))
        canvas.text(ax, ay + ah + 1.5 * size * MM_PER_POINT * 1.5, note, size=size + 1, fill=ink, bold=True)

    return Page(page_w, page_h, draw), scale


def board_files(board: Component, conventions: PrintConventions, *, game: str, label: str, footer: str, paper: str,
                ink: str, paper_colour: str, grid: BoardGrid | None = None) -> list[PrintFile]:
    """The board on `paper`, tiled if it must be, plus a one-page poster file when it was tiled.

    Files are named GAME-board-PAPER and GAME-board-POSTERPAPER; `label` names the game in
    titles, `footer` starts every page's footer (e.g. "Deblockle 1.0").
    :raises BoardlabError: for an unknown paper or an overlap larger than the page.
    """
    pages = tiled_pages(board, paper, conventions, ink=ink, paper_colour=paper_colour, grid=grid)
    name = f"{game}-board-{paper}"
    free: tuple[FreeArea, ...] = ()
    if len(pages) == 1:
        gap = conventions.sheet.cut_mark_offset + conventions.sheet.cut_mark_length + OUTLINE_ROOM
        ax, ay, aw, ah = printable_area(pages[0].width, pages[0].height, conventions)
        if ah - board.height - gap > 0:
            free = (FreeArea(name, 0, (ax, ay + board.height + gap, aw, ah - board.height - gap)),)
    files = [footed_file(name, plural("tiles.board", len(pages), game=label, paper=paper), pages, (board,), conventions,
                         label=footer, ink=ink, free=free)]
    if len(pages) > 1:
        poster, scale = poster_page(board, conventions, ink=ink)
        poster_name = conventions.sheet.poster_paper
        files.append(footed_file(f"{game}-board-{poster_name}", term("tiles.poster", game=label, paper=poster_name)
                                 + ("" if scale == 1.0 else term("tiles.poster_scaled", scale=number(scale * 100, 1))),
                                 (poster,), (board,),
                                 conventions, label=footer, ink=ink))
    return files

"""Board tiling: tiles cover the board, neighbours overlap by exactly the set strip, marks line up.

The tile rectangles are measured from what the pages draw (the clip box of each tile and the
transform that places the board under it), not taken from plan_tiles.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from boardlab.layouts import BoardlabError, print_conventions
from boardlab.printkit.measure import PlacedCanvas
from boardlab.printkit.packing import printable_area
from boardlab.printkit.pages import Component
from boardlab.printkit.tiling import plan_tiles, poster_page, tile_key, tiled_pages, tiles_along

TOLERANCE = 0.1  # mm


def probe_board(width, height):
    """A board whose corners carry marker texts, so a page shows which part of it is visible."""
    def draw(canvas):
        canvas.rect(0, 0, width, height, stroke="#000000")
        canvas.text(0, 0, "origin")
    return Component("probe", width, height, draw)


def measured_tiles(pages, board):
    """(board x, board y, width, height) of each tile page: its clip box moved back by the board's offset."""
    tiles = []
    for page in pages:
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        origin = next(s for s in canvas.shapes if s.kind == "text" and s.content == "origin")
        (x1, y1), (x2, y2) = origin.clip
        ox, oy = origin.points[0]
        tiles.append((x1 - ox, y1 - oy, x2 - x1, y2 - y1))
        area = printable_area(page.width, page.height, print_conventions())
        assert x1 >= area[0] - TOLERANCE and x2 <= area[0] + area[2] + TOLERANCE
        assert y1 >= area[1] - TOLERANCE and y2 <= area[1] + area[3] + TOLERANCE
    return tiles


def overlap_1d(a0, a1, b0, b1):
    return min(a1, b1) - max(a0, b0)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size", [(256.0, 256.0), (420.0, 300.0), (150.0, 500.0)])
def test_tiles_cover_the_board_and_overlap_by_the_strip(paper, size):
    conventions = print_conventions()
    overlap = conventions.sheet.tile_overlap
    board = probe_board(*size)
    pages = tiled_pages(board, paper, conventions, ink="#000000", paper_colour="#ffffff")
    tiles = measured_tiles(pages, board)
    assert len(tiles) > 1
    # coverage: every point of a fine grid over the board lies on some tile
    for fx, fy in itertools.product([i / 20 for i in range(21)], repeat=2):
        x, y = fx * size[0], fy * size[1]
        assert any(tx - 1e-6 <= x <= tx + tw + 1e-6 and ty - 1e-6 <= y <= ty + th + 1e-6 for tx, ty, tw, th in tiles)
    # neighbours (side by side) share exactly the overlap strip; no tile reaches past the board
    for tx, ty, tw, th in tiles:
        assert tx >= -TOLERANCE and ty >= -TOLERANCE
        assert tx + tw <= size[0] + TOLERANCE and ty + th <= size[1] + TOLERANCE
    strips = []
    for a, b in itertools.combinations(tiles, 2):
        ox = overlap_1d(a[0], a[0] + a[2], b[0], b[0] + b[2])
        oy = overlap_1d(a[1], a[1] + a[3], b[1], b[1] + b[3])
        if ox > TOLERANCE and oy > TOLERANCE:
            # a side neighbour overlaps over its full length on one axis and by the strip on the other
            if abs(oy - min(a[3], b[3])) < TOLERANCE and abs(ox - min(a[2], b[2])) > TOLERANCE:
                strips.append(ox)
            elif abs(ox - min(a[2], b[2])) < TOLERANCE and abs(oy - min(a[3], b[3])) > TOLERANCE:
                strips.append(oy)
    assert strips and all(abs(s - overlap) < TOLERANCE for s in strips)


def test_fewest_tiles_over_both_orientations():
    conventions = print_conventions()
    board = probe_board(256.0, 256.0)
    area = printable_area(210, 297, conventions)
    pages = tiled_pages(board, "a4", conventions, ink="#000000", paper_colour="#ffffff")
    assert len(pages) == 2  # 256 mm needs two tiles one way and fits the other way on A4 (198 x ~266 mm room)
    assert area[2] < 256 < area[3]


def test_board_that_fits_gives_one_page_at_full_size():
    conventions = print_conventions()
    board = probe_board(180.0, 180.0)
    pages = tiled_pages(board, "a4", conventions, ink="#000000", paper_colour="#ffffff")
    assert len(pages) == 1
    canvas = PlacedCanvas(pages[0].width, pages[0].height)
    pages[0].draw(canvas)
    frame = next(s for s in canvas.shapes if s.kind == "rect")
    assert abs(frame.box[2] - 180.0) < TOLERANCE and abs(frame.box[3] - 180.0) < TOLERANCE


def test_alignment_marks_sit_on_the_seam_in_board_coordinates():
    conventions = print_conventions()
    board = probe_board(256.0, 256.0)
    pages = tiled_pages(board, "a4", conventions, ink="#000000", paper_colour="#ffffff")
    tiles = measured_tiles(pages, board)
    left, right = sorted(tiles)
    seam = left[0] + left[2]  # the right edge of the left tile, which lies over the right tile's strip
    marks_per_page = []
    for page, tile in zip(pages, (left, right)):
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        origin = next(s for s in canvas.shapes if s.content == "origin").points[0]
        rings = [s for s in canvas.shapes if s.kind == "circle" and s.clip is not None]
        marks_per_page.append(sorted((round(s.points[0][0] - origin[0], 3), round(s.points[0][1] - origin[1], 3))
                                     for s in rings))
    assert marks_per_page[0] == marks_per_page[1]  # the same marks, at the same board points, on both tiles
    assert len(marks_per_page[0]) >= 2 and all(abs(x - seam) < TOLERANCE for x, _ in marks_per_page[0])


def test_key_names_the_tiles():
    tiles = plan_tiles(420, 500, 198, 270, 10)
    assert tile_key(tiles) == "A1 A2 A3 / B1 B2 B3"
    conventions = print_conventions()
    pages = tiled_pages(probe_board(256, 256), "a4", conventions, ink="#000000", paper_colour="#ffffff")
    canvas = PlacedCanvas(pages[1].width, pages[1].height)
    pages[1].draw(canvas)
    texts = [s.content for s in canvas.shapes if s.kind == "text"]
    assert "Tile A2 of 2" in texts and "Key: A1 A2" in texts


@settings(max_examples=200, deadline=None)
@given(length=st.floats(10, 2000), room=st.floats(30, 400), overlap=st.floats(0, 25))
def test_tile_count_is_the_least_that_covers(length, room, overlap):
    count = tiles_along(length, room, overlap)
    covered = count * room - (count - 1) * overlap
    assert covered >= length - 1e-6
    if count > 1:  # one tile fewer would not do
        assert (count - 1) * room - (count - 2) * overlap < length + 1e-6
    tiles = plan_tiles(length, 10, room, 400, overlap)
    assert len(tiles) == count
    assert all(t.width <= room + 1e-6 for t in tiles)
    for a, b in zip(tiles, tiles[1:]):
        assert math.isclose(a.x + a.width - b.x, overlap, abs_tol=1e-6)
    assert math.isclose(tiles[-1].x + tiles[-1].width, length, abs_tol=1e-6)


def test_overlap_wider_than_the_paper_is_refused():
    with pytest.raises(BoardlabError):
        tiles_along(500, 20, 25)


def test_poster_scales_only_when_it_must_and_says_so():
    conventions = print_conventions()
    page, scale = poster_page(probe_board(256, 256), conventions, ink="#000000")
    assert scale == 1.0
    canvas = PlacedCanvas(page.width, page.height)
    page.draw(canvas)
    assert any("Scale 100 %" in s.content for s in canvas.shapes if s.kind == "text")
    assert (page.width, page.height) == tuple(conventions.papers[conventions.sheet.poster_paper])
    page, scale = poster_page(probe_board(600, 500), conventions, ink="#000000")
    canvas = PlacedCanvas(page.width, page.height)
    page.draw(canvas)
    frame = next(s for s in canvas.shapes if s.kind == "rect")
    assert page.width > page.height  # landscape shrinks a wide board less
    assert abs(frame.box[2] - 600 * scale) < TOLERANCE and scale < 1
    area = printable_area(page.width, page.height, conventions)
    assert frame.box[2] <= area[2] + TOLERANCE
    assert any(f"Scaled to {scale * 100:.1f} %" in s.content for s in canvas.shapes if s.kind == "text")

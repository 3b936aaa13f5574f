"""Token sheets and standees: counts, sizes, no overlaps, packing density, fold lines."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from boardlab.layouts import BoardlabError, load, print_conventions
from boardlab.layouts.common import StandeeSize
from boardlab.printkit.measure import PlacedCanvas
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.packing import grid_positions, hex_positions, paginate, printable_area
from boardlab.printkit.standees import StandeeArt, draw_standee, standee_pages, strip_size
from boardlab.printkit.tokens import TokenArt, token_centres, token_pages

TOLERANCE = 0.1
INK = "#1b1b1b"


def cut_circles(pages):
    found = []
    for number, page in enumerate(pages):
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        area = printable_area(page.width, page.height, print_conventions())
        for s in canvas.shapes:
            if s.kind == "circle" and s.style.get("stroke") and not s.style.get("fill"):  # ink, or light on dark
                found.append((number, s.points[0], s.size))
                (cx, cy), r = s.points[0], s.size
                assert area[0] - TOLERANCE <= cx - r and cx + r <= area[0] + area[2] + TOLERANCE
                assert area[1] - TOLERANCE <= cy - r and cy + r <= area[1] + area[3] + TOLERANCE
    return found


@pytest.mark.parametrize("paper", [(210.0, 297.0), (215.9, 279.4)])
def test_disc_sheet_holds_every_token_without_overlap(paper):
    art = [TokenArt("#c62828", "heart")] * 50 + [TokenArt("#1a3d8f", "diamond")] * 70
    pages = token_pages(art, paper, print_conventions(), shape="disc", size=19, gap=2, ink=INK)
    discs = cut_circles(pages)
    assert len(discs) == 120
    assert all(abs(r - 9.5) < TOLERANCE for _, _, r in discs)
    for (pa, ca, ra), (pb, cb, rb) in itertools.combinations(discs, 2):
        if pa == pb:
            assert math.dist(ca, cb) >= ra + rb + 2 - 1e-6


def test_hexagonal_packing_beats_the_square_grid_for_discs():
    area = printable_area(210, 297, print_conventions())
    hexagonal = hex_positions(area[2], area[3], 19, 2)
    square = grid_positions(area[2], area[3], 19, 19, 2)
    assert len(hexagonal) > len(square)
    for a, b in itertools.combinations(hexagonal, 2):
        assert math.dist(a, b) >= 21 - 1e-6


@settings(max_examples=100, deadline=None)
@given(w=st.floats(20, 300), h=st.floats(20, 300), d=st.floats(5, 60), gap=st.floats(0, 5))
def test_hex_positions_fit_and_keep_apart(w, h, d, gap):
    centres = hex_positions(w, h, d, gap)
    for x, y in centres:
        assert -1e-6 <= x - d / 2 and x + d / 2 <= w + 1e-6
        assert -1e-6 <= y - d / 2 and y + d / 2 <= h + 1e-6
    for a, b in itertools.combinations(centres, 2):
        assert math.dist(a, b) >= d + gap - 1e-6
    chosen = token_centres("disc", d, gap, w, h)
    assert len(chosen) >= max(len(centres), len(grid_positions(w, h, d, d, gap)))  # the denser of the two


def test_square_tokens_share_nothing_but_may_touch():
    art = [TokenArt("#43a047", "triangle")] * 30
    pages = token_pages(art, (210, 297), print_conventions(), shape="square", size=15, gap=0, ink=INK)
    canvas = PlacedCanvas(210, 297)
    pages[0].draw(canvas)
    cuts = [s.box for s in canvas.shapes if s.kind == "rect" and s.style.get("stroke") == INK]
    assert len(cuts) == 30 and all(abs(b[2] - 15) < TOLERANCE and abs(b[3] - 15) < TOLERANCE for b in cuts)
    for a, b in itertools.combinations(cuts, 2):
        ox = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
        oy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
        assert ox <= TOLERANCE or oy <= TOLERANCE


def test_token_larger_than_the_paper_is_refused():
    with pytest.raises(BoardlabError):
        token_pages([TokenArt("#000000", "circle")], (210, 297), print_conventions(), shape="disc", size=300, gap=1,
                    ink=INK)
    with pytest.raises(BoardlabError):
        token_pages([TokenArt("#000000", "circle")], (210, 297), print_conventions(), shape="oval", size=10, gap=1,
                    ink=INK)


def test_paginate_keeps_order_and_count():
    pages = paginate(list(range(10)), 4)
    assert [len(p) for p in pages] == [4, 4, 2] and sum(pages, []) == list(range(10))


def test_standee_strip_measures_and_folds():
    size = StandeeSize(width=22, height=31, base=13)
    canvas = PlacedCanvas(100, 200)
    draw_standee(canvas, 5, 7, size, StandeeArt("#5e2a84", "star", "purple"), ink=INK)
    outline = [s for s in canvas.shapes if s.kind == "rect" and s.style.get("stroke") == INK]
    assert len(outline) == 1
    x, y, w, h = outline[0].box
    assert (abs(x - 5), abs(y - 7), abs(w - 22), abs(h - (2 * 31 + 2 * 13))) < (TOLERANCE,) * 4
    folds = sorted(s.points[0][1] - 7 for s in canvas.shapes if s.kind == "line" and s.style.get("dash"))
    assert folds == pytest.approx([13, 13 + 31, 13 + 62])
    # the back panel is turned half a turn, so it stands upright once folded over the head
    labels = [(s.angle, s.points[0][1]) for s in canvas.shapes if s.kind == "text" and s.content == "purple"]
    assert sorted(angle for angle, _ in labels) == [0.0, 180.0]
    upright = next(py for angle, py in labels if angle == 0.0)
    turned = next(py for angle, py in labels if angle == 180.0)
    assert 7 + 13 + 31 < upright < 7 + 13 + 62 and 7 + 13 < turned < 7 + 13 + 31


def test_standee_sheet_places_every_standee_inside_the_printable_area():
    size = StandeeSize(width=20, height=30, base=12)
    arts = [StandeeArt("#c62828", "heart", f"p{k}") for k in range(17)]
    pages = standee_pages(arts, size, (210, 297), print_conventions(), ink=INK, gap=2)
    boxes = []
    for page in pages:
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        area = printable_area(210, 297, print_conventions())
        for s in canvas.shapes:
            if s.kind == "rect" and s.style.get("stroke") == INK:
                x, y, w, h = s.box
                assert (w, h) == pytest.approx(strip_size(size))
                assert area[0] - TOLERANCE <= x and x + w <= area[0] + area[2] + TOLERANCE
                assert area[1] - TOLERANCE <= y and y + h <= area[1] + area[3] + TOLERANCE
                boxes.append(s.box)
    assert len(boxes) == 17


def test_sections_share_a_sheet_without_overlap():
    from boardlab.printkit.packing import flow_pages
    from boardlab.printkit.standees import standee_section
    from boardlab.printkit.tokens import token_section

    size = StandeeSize(width=20, height=30, base=12)
    standees = [StandeeArt("#c62828", "heart", "red")] * 11
    tokens = [TokenArt("#1a3d8f", "diamond")] * 150
    pages = flow_pages([standee_section(standees, size, ink=INK, gap=2),
                        token_section(tokens, shape="disc", size=19, gap=2, ink=INK)], (210, 297),
                       print_conventions(), gap=4)
    strips, discs = [], []
    for number, page in enumerate(pages):
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        strips += [(number, s.box) for s in canvas.shapes if s.kind == "rect" and s.style.get("stroke") == INK]
        discs += [(number, s.box) for s in canvas.shapes if s.kind == "circle" and s.style.get("stroke")
                  and not s.style.get("fill")]
    assert (len(strips), len(discs)) == (11, 150)
    assert strips[0][0] == 0 and discs[0][0] == 0  # the chips start under the standees on the first page
    for (pa, a), (pb, b) in itertools.product(strips, discs):
        if pa == pb:
            ox = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            oy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            assert ox <= 0 or oy <= 0


@settings(max_examples=60, deadline=None)
@given(sections=st.lists(st.tuples(st.integers(0, 40), st.floats(8, 120), st.floats(8, 150)), min_size=1, max_size=4),
       gap=st.floats(0, 6))
def test_flow_places_every_item_once_inside_the_area_without_overlap(sections, gap):
    from boardlab.printkit.packing import Section, flow_pages

    conventions = print_conventions()
    placed = []

    def section(index, count, w, h):
        return Section(count, h, lambda aw, ah: grid_positions(aw, ah, w, h, gap),
                       lambda canvas, k, x, y: placed.append((canvas, index, k, (x, y, w, h))))
    pages = flow_pages([section(i, *s) for i, s in enumerate(sections)], (210, 297), conventions, gap)
    canvases = []
    for page in pages:
        canvases.append(PlacedCanvas(page.width, page.height))
        page.draw(canvases[-1])
    assert sorted((i, k) for _, i, k, _ in placed) == [(i, k) for i, s in enumerate(sections) for k in range(s[0])]
    area = printable_area(210, 297, conventions)
    for _, _, _, (x, y, w, h) in placed:
        assert area[0] - 1e-6 <= x and x + w <= area[0] + area[2] + 1e-6
        assert area[1] - 1e-6 <= y and y + h <= area[1] + area[3] + 1e-6
    for a, b in itertools.combinations(placed, 2):
        if a[0] is b[0]:
            (ax, ay, aw, ah), (bx, by, bw, bh) = a[3], b[3]
            assert min(ax + aw, bx + bw) - max(ax, bx) <= 1e-6 or min(ay + ah, by + bh) - max(ay, by) <= 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sixbysix_chips_of_every_colour_are_in_one_file(paper):
    """Each kind of piece in one file: every chip, of every colour, on the pieces sheets; the board
    and card sheets carry none (their spare room is left as it was)."""
    from boardlab.printkit.games import sixbysix as art
    from boardlab.printkit.measure import PlacedCanvas

    d = load("sixbysix")
    files = [f for f in art.print_files(d, PrintOptions(paper, "long", "duplex")) if not f.name.endswith("-single")]
    holders = [f.name for f in files if any(c.name.startswith("sixbysix-chip-") for c in f.components)]
    assert holders == [f"sixbysix-pieces-{paper}"]
    # the chips drawn: discs of the chip's size, counted page by page in every file
    radius = d.print.chip / 2
    discs = {}
    for f in files:
        count = 0
        for page in f.pages:
            canvas = PlacedCanvas(page.width, page.height)
            page.draw(canvas)
            count += sum(1 for s in canvas.shapes if s.kind == "circle" and abs(s.size - radius) < 1e-6)
        discs[f.name] = count
    assert discs.pop(f"sixbysix-pieces-{paper}") == len(d.components.seats) * d.components.chips_per_colour
    assert set(discs.values()) == {0}

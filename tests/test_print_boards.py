"""The 6x6 and Deblockle print files: sizes from the definition, counts, variants, PDFs.

Board geometry is measured from a PlacedCanvas; expected positions are computed here from the
spec's conventions (rank 1 at the bottom, files a.. from the left), not by printkit's helpers.
"""

from __future__ import annotations

import dataclasses

import io
import math
import subprocess
import sys
from collections import Counter

import pytest
from pypdf import PdfReader

from boardlab.layouts import load, print_conventions
from boardlab.printkit.games import deblockle as deblockle_print
from boardlab.printkit.games import sixbysix as sixbysix_print
from boardlab.printkit.measure import PlacedCanvas
from boardlab.printkit.output import render_print_files
from boardlab.printkit.pages import PrintOptions

TOLERANCE = 0.1  # mm
MM_PER_POINT = 25.4 / 72


def options(paper="a4"):
    return PrintOptions(paper, "long", "duplex")


def drawn(component_or_page):
    canvas = PlacedCanvas(component_or_page.width, component_or_page.height)
    component_or_page.draw(canvas)
    return canvas.shapes


def file_named(files, part):
    return next(f for f in files if part in f.name)


def variant(tmp_path, text, name="variant.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load(path)


def lightness(hex_colour):
    """CIE L* of an sRGB colour (what a greyscale print keeps)."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else y * 24389 / 27


# -- 6x6 ------------------------------------------------------------------------------------------

def grid_squares(shapes, side):
    return [s.box for s in shapes if s.kind == "rect" and s.style.get("stroke") and not s.style.get("fill")
            and abs(s.box[2] - side) < TOLERANCE and abs(s.box[3] - side) < TOLERANCE]


def test_sixbysix_board_holds_every_number_in_its_square():
    d = load("sixbysix")
    side = d.print.board_square
    board = sixbysix_print.board_component(d)
    rows = [row.split() for row in d.board.layout]
    # the grid, and the bank one square high under its last row
    assert (board.width, board.height) == (len(rows[0]) * side, (len(rows) + 1) * side)
    shapes = drawn(board)
    squares = grid_squares(shapes, side)
    assert len(squares) == 36
    texts = [s for s in shapes if s.kind == "text" and s.content != "BANK"]
    numbers = Counter(s.content for s in texts)
    assert sorted(int(n) for n in numbers) == list(range(2, 37)) and set(numbers.values()) == {1}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token == d.board.base:
                continue
            text = next(s for s in texts if s.content == token)
            x, y = text.points[0]
            assert c * side < x < (c + 1) * side and r * side < y < (r + 1) * side, token
    # the base square shows dice: pips drawn inside the square of the base token
    (br, bc), = [(r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == d.board.base]
    pips = [s for s in shapes if s.kind == "circle"]
    assert pips and all(bc * side < s.points[0][0] < (bc + 1) * side and br * side < s.points[0][1] < (br + 1) * side
                        for s in pips)


def test_sixbysix_board_has_the_bank_under_the_numbers_named_in_its_language():
    from boardlab.layouts.terms import speaking

    d = load("sixbysix")
    side = d.print.board_square
    grid = len(d.board.layout) * side
    for language, name in (("en", "BANK"), ("es", "BANCA")):
        with speaking(language):
            shapes = drawn(sixbysix_print.board_component(d))
        [label] = [s for s in shapes if s.kind == "text" and s.content == name]
        assert grid < label.points[0][1] < grid + side
        # its area for the chips: a dashed frame inside the band, clear of every numbered square
        [area] = [s for s in shapes if s.kind == "rect" and s.style.get("dash")]
        x, y, w, h = area.box
        assert grid < y and y + h < grid + side and 0 < x and x + w < len(d.board.cells[0]) * side


def test_sixbysix_player_card_covers_one_board_row_and_shows_every_face():
    d = load("sixbysix")
    files = sixbysix_print.print_files(d, options())
    cards = file_named(files, "-cards-")
    fronts = [c for c in cards.components if not c.name.endswith("-back")]
    assert [c.name.rsplit("-", 1)[1] for c in fronts] == list(d.components.seats)
    side, bleed = d.print.board_square, d.print.bleed
    ink = d.colours[d.print.ink_colour].hex
    for card in fronts:
        assert abs(card.width - 2 * bleed - len(d.dice.faces) * side) < TOLERANCE  # a board row of squares
        assert abs(card.height - 2 * bleed - side) < TOLERANCE
        pips = [s for s in drawn(card) if s.kind == "circle" and s.style.get("fill") == ink]
        assert len(pips) == sum(d.dice.faces)
        colours = {s.style.get("fill") for s in drawn(card) if s.kind == "rect"}
        assert d.colours[card.name.rsplit("-", 1)[1]].hex in colours
    assert len(cards.pages) == 2  # one sheet of fronts, one of backs


def test_sixbysix_chips_and_markers_match_the_definition(tmp_path):
    for d in (load("sixbysix"), variant(tmp_path, 'extends = "sixbysix"\n[components]\nchips_per_colour = 7\n'
                                                  '[colours.red]\nhex = "#e53935"\n')):
        ink = d.colours[d.print.ink_colour].hex
        # the pieces fill the room under the board and beside the player cards first
        all_pages = [page for f in sixbysix_print.print_files(d, options()) for page in f.pages]
        cut_discs, colour_of = 0, Counter()
        strips = 0
        w, h = d.print.marker.width, 2 * d.print.marker.height + 2 * d.print.marker.base
        for page in all_pages:
            shapes = drawn(page)
            for s in shapes:
                if s.kind == "circle" and s.style.get("stroke") and not s.style.get("fill") \
                        and abs(s.size * 2 - d.print.chip) < TOLERANCE:  # a cut outline (ink or light on dark)
                    cut_discs += 1
                    bleed = next(b for b in shapes if b.kind == "circle" and b.style.get("fill")
                                 and math.dist(b.points[0], s.points[0]) < 1e-6)
                    colour_of[bleed.style["fill"]] += 1
                if s.kind == "rect" and s.style.get("stroke") == ink and abs(s.box[2] - w) < TOLERANCE \
                        and abs(s.box[3] - h) < TOLERANCE:
                    strips += 1
        seats = d.components.seats
        assert cut_discs == d.components.chips_per_colour * len(seats)
        assert colour_of == {d.colours[seat].hex: d.components.chips_per_colour for seat in seats}
        assert strips == len(seats)


def test_sixbysix_square_chips_from_the_definition(tmp_path):
    d = variant(tmp_path, 'extends = "sixbysix"\n[print]\nchip_shape = "square"\nchip = 16.0\n')
    ink = d.colours[d.print.ink_colour].hex
    all_pages = [page for f in sixbysix_print.print_files(d, options()) for page in f.pages]
    squares = [s for page in all_pages for s in drawn(page) if s.kind == "rect" and s.style.get("stroke")
               and not s.style.get("fill")
               and abs(s.box[2] - 16) < TOLERANCE and abs(s.box[3] - 16) < TOLERANCE]
    assert len(squares) == d.components.chips_per_colour * len(d.components.seats)


def test_sixbysix_colours_stay_apart_in_greyscale():
    d = load("sixbysix")
    seats = d.components.seats
    assert len({d.colours[s].symbol for s in seats}) == len(seats)  # every seat its own symbol
    values = sorted(lightness(d.colours[s].hex) for s in seats)
    assert min(b - a for a, b in zip(values, values[1:])) >= 8  # and its own grey


def test_sixbysix_pieces_show_the_seat_symbols(monkeypatch):
    drawn_symbols = Counter()

    def record(canvas, name, cx, cy, size, fill, stroke=None):
        drawn_symbols[name] += 1
    # the faces draw their symbols through printkit.symbols (imported where drawn); tokens and standees by name
    for module in ("boardlab.printkit.symbols", "boardlab.printkit.tokens", "boardlab.printkit.standees"):
        monkeypatch.setattr(f"{module}.draw_symbol", record)
    d = load("sixbysix")
    for f in sixbysix_print.print_files(d, options()):
        for page in f.pages:
            drawn(page)
    for seat in d.components.seats:
        # chips, six boxes on the card front and six on the back, the marker's two faces and two flaps
        assert drawn_symbols[d.colours[seat].symbol] >= d.components.chips_per_colour + 12 + 4, seat


def test_sixbysix_larger_squares_tile_the_board(tmp_path):
    d = variant(tmp_path, 'extends = "sixbysix"\n[print]\nboard_square = 40.0\n')
    files = sixbysix_print.print_files(d, options())
    board = file_named(files, "-board-a4")
    assert len(board.pages) > 1
    poster = file_named(files, f"-board-{print_conventions().sheet.poster_paper}")
    assert len(poster.pages) == 1
    squares = grid_squares(drawn(board.components[0]), 40.0)
    assert len(squares) == 36


# -- Deblockle ------------------------------------------------------------------------------------

def test_deblockle_board_geometry_and_marks(tmp_path):
    for d in (load("deblockle"), variant(tmp_path, 'extends = "deblockle"\n[print]\nboard_square = 29.0\n')):
        side = d.print.board_square
        board = [f for f in deblockle_print.print_files(d, options()) if "-board-" in f.name][0].components[0]
        shapes = drawn(board)
        lines = [s for s in shapes if s.kind == "line" and not s.style.get("dash")]
        xs = sorted({round(s.points[0][0], 3) for s in lines if abs(s.points[0][0] - s.points[1][0]) < 1e-9})
        ys = sorted({round(s.points[0][1], 3) for s in lines if abs(s.points[0][1] - s.points[1][1]) < 1e-9})
        assert len(xs) == d.board.files + 1 and len(ys) == d.board.ranks + 1
        assert all(abs(b - a - side) < TOLERANCE for a, b in zip(xs, xs[1:]))
        assert all(abs(b - a - side) < TOLERANCE for a, b in zip(ys, ys[1:]))
        left, top = xs[0], ys[0]

        def corner(name):
            file, rank = ord(name[0]) - ord("a"), int(name[1:])
            return left + file * side, top + (d.board.ranks - rank) * side

        star = d.colours[d.print.star_colour].hex
        stars = [s.box for s in shapes if s.kind == "rect" and s.style.get("fill") == star]
        assert sorted((round(x, 3), round(y, 3)) for x, y, _, _ in stars) == \
            sorted((round(x, 3), round(y, 3)) for x, y in (corner(p.home_star) for p in d.players))
        starts = [s for s in shapes if s.kind == "rect" and s.style.get("dash")]
        assert len(starts) == sum(d.rules.counts)
        for player, count in zip(d.players, d.rules.counts):
            colour = d.colours[player.colour].hex
            for square in player.start[:count]:
                x, y = corner(square)
                assert any(s.style["stroke"] == colour and x < s.box[0] < x + side and y < s.box[1] < y + side
                           for s in starts), square
        labels = Counter(s.content for s in shapes if s.kind == "text")
        assert all(labels[chr(ord("a") + i)] == 2 for i in range(d.board.files))
        assert all(labels[str(r)] == 2 for r in range(1, d.board.ranks + 1))


def test_deblockle_files_follow_the_definition(tmp_path):
    d = load("deblockle")
    files = deblockle_print.print_files(d, options())
    assert [f.name for f in files] == ["deblockle-cover-a4", "deblockle-board-a4", "deblockle-board-a3", "deblockle-cubes-a4"]
    nets = file_named(files, "-cubes-")
    assert len(nets.components) == d.rules.blocks * len(d.players)
    handicap = deblockle_print.print_files(load("deblockle-handicap"), options())  # blocks = [3, 4]
    assert [c.name for c in file_named(handicap, "-cubes-").components] == \
        [f"deblockle-cube-gold-{k}" for k in (1, 2, 3)] + [f"deblockle-cube-blue-{k}" for k in (1, 2, 3, 4)]
    small = variant(tmp_path, 'extends = "deblockle"\n[rules]\nblocks = 1\n[print]\nboard_square = 24.0\n'
                              'cube_edge = 20.0\nglue_tab = 6.0\n')
    files = deblockle_print.print_files(small, options())
    assert [f.name for f in files] == ["deblockle-cover-a4", "deblockle-board-a4", "deblockle-cubes-a4"]  # 8 x 24 mm: one A4
    assert len(file_named(files, "-cubes-").components) == 2


# -- PDF output -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game, module", [("sixbysix", sixbysix_print), ("deblockle", deblockle_print)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pdfs_open_are_reproducible_and_have_the_paper_size(game, module, paper):
    conventions = print_conventions()
    d = load(game)
    first = render_print_files(module.print_files(d, options(paper)))
    second = render_print_files(module.print_files(load(game), options(paper)))
    assert first == second  # identical bytes for identical input
    for name, data in first.items():
        if not name.endswith(".pdf") or name.endswith("-single.pdf"):
            continue  # one card face a page for print-on-demand: the page is the card with its bleed
        reader = PdfReader(io.BytesIO(data))
        expected = conventions.papers[conventions.sheet.poster_paper if name.endswith(
            f"-{conventions.sheet.poster_paper}.pdf") else paper]
        for page in reader.pages:
            size = sorted((float(page.mediabox.width) * MM_PER_POINT, float(page.mediabox.height) * MM_PER_POINT))
            assert size == pytest.approx(sorted(expected), abs=TOLERANCE), name


def test_a_definition_change_changes_the_pdf(tmp_path):
    base = render_print_files(deblockle_print.print_files(load("deblockle"), options()))
    edge = variant(tmp_path, 'extends = "deblockle"\n[print]\ncube_edge = 27.0\n')
    edged = render_print_files(deblockle_print.print_files(edge, options()))
    # the variant's footers name it; under the baseline's name only the cubes change
    unnamed = render_print_files(deblockle_print.print_files(dataclasses.replace(edge, variant="baseline"), options()))
    assert base["deblockle-board-a4.pdf"] != edged["deblockle-board-a4.pdf"]
    assert base["deblockle-board-a4.pdf"] == unnamed["deblockle-board-a4.pdf"]
    assert base["deblockle-cubes-a4.pdf"] != unnamed["deblockle-cubes-a4.pdf"]


def test_print_command_rejects_an_impossible_cube_in_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "deblockle"\n[print]\ncube_edge = 40.0\n', encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "boardlab.cli", "print", "deblockle", "--variant", str(bad),
                             "--out", str(out)], capture_output=True, text=True)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "cube_edge" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize("game, text, key", [
    ("sixbysix", "[print]\nchip = 30.0\n", "print.chip"),
    ("sixbysix", "[print.marker]\nwidth = 40.0\n", "print.marker.width"),
    ("deblockle", "[print]\nglue_tab = 13.0\n", "print.glue_tab"),
    ("deblockle", "[print]\ncube_edge = 33.0\n", "print.cube_edge"),
    ("deblockle", '[print]\nstar_colour = "crimson"\n', "print.star_colour"),
])
def test_pieces_that_cannot_work_are_refused_by_the_definition(tmp_path, game, text, key):
    from boardlab.layouts import DefinitionError

    with pytest.raises(DefinitionError) as err:
        variant(tmp_path, f'extends = "{game}"\n{text}')
    assert [p.key for p in err.value.problems] == [key]


def test_deblockle_sizes_measured_in_the_pdf():
    """Read back from the PDF bytes (pypdf content-stream reader), not from the drawing calls."""
    from print_pdf_reading import open_pdf, page_geometry

    d = load("deblockle")
    side, edge = d.print.board_square, d.print.cube_edge
    rendered = render_print_files(deblockle_print.print_files(d, options()))
    poster = page_geometry(open_pdf(rendered["deblockle-board-a3.pdf"]), 0)
    grid = d.board.files * side
    verticals = sorted(x1 for x1, y1, x2, y2, _ in poster.lines if abs(x1 - x2) < 1e-6 and abs(abs(y2 - y1) - grid) < TOLERANCE)
    assert len(verticals) == d.board.files + 1
    assert all(abs(b - a - side) < TOLERANCE for a, b in zip(verticals, verticals[1:]))
    tiles = open_pdf(rendered["deblockle-board-a4.pdf"])
    board_w, board_h = deblockle_print.board_size(d)
    overlap = print_conventions().sheet.tile_overlap
    widths = []
    for k in range(len(tiles.pages)):
        clip = max(page_geometry(tiles, k).clips, key=lambda c: c[2] * c[3])
        widths.append(clip[2])
        assert abs(clip[3] - board_h) < TOLERANCE
    assert abs(sum(widths) - (len(widths) - 1) * overlap - board_w) < TOLERANCE
    nets = open_pdf(rendered["deblockle-cubes-a4.pdf"])
    per_net = 5 + 7 + 7  # folds between faces, tab folds, face edges that are cut
    full_edges = 0
    for k in range(len(nets.pages)):
        lines = page_geometry(nets, k).lines
        full_edges += sum(1 for ln in lines if abs(math.dist(ln[:2], ln[2:4]) - edge) < TOLERANCE)
    assert full_edges == per_net * d.rules.blocks * len(d.players)


def test_the_sixbysix_setup_drawing_covers_the_rows_its_setup_step_covers():
    from boardlab.analysis.sixbysix.board import allowed_numbers
    from boardlab.printkit.games import sixbysix as art
    from boardlab.layouts.terms import speaking, term
    from boardlab.printkit.measure import PlacedCanvas

    d = load("sixbysix")
    players = (d.game.min_players + d.game.max_players) // 2
    draw, width, height = art.setup_drawing(d)
    canvas = PlacedCanvas(width, height)
    draw(canvas)
    labels = [s.content for s in canvas.shapes if s.kind == "text"]
    unused = d.components.seats[players:]
    # one card back (its colour's name) per colour nobody plays, over a row no sum can reach
    assert all(labels.count(d.colours[seat].label) == 1 for seat in unused)
    dead_rows = [row for row in d.board.cells
                 if all(t == d.board.base or int(t) not in allowed_numbers(d, players) for t in row)]
    assert len(dead_rows) == len(unused) == 2
    # no markers before the first round (they are placed during a round), and the caption counts
    # what is drawn
    bare = PlacedCanvas(width, height)
    art.draw_printed_board(bare, d)
    art.draw_covering_cards(bare, d, players)
    assert len(canvas.shapes) == len(bare.shapes)
    assert art.setup_caption(d) == term("sixbysix.setup.covered.many", n=2, players=players)
    with speaking("es"):
        assert "4 jugadores" in art.setup_caption(d) and "2 cartones" in art.setup_caption(d)


def test_the_deblockle_a4_board_splits_near_the_middle_leaving_no_sheet_nearly_empty():
    """Measured in the PDF: the A4 board's two tiles split it on the square line that makes the
    larger tile smallest (a-d and d-g with the glue strip, 144 and 122 mm of the 256 mm board),
    not five files and a one-third sheet; both cover more than half the printable width."""
    from print_pdf_reading import open_pdf, page_geometry

    d = load("deblockle")
    conventions = print_conventions()
    rendered = render_print_files(deblockle_print.print_files(d, options()))
    tiles = open_pdf(rendered["deblockle-board-a4.pdf"])
    widths = [max(page_geometry(tiles, k).clips, key=lambda c: c[2] * c[3])[2] for k in range(len(tiles.pages))]
    side, band = d.print.board_square, d.print.board_square / 2
    board_w = d.board.files * side + 2 * band
    overlap = conventions.sheet.tile_overlap
    room = conventions.papers["a4"][0] - 2 * conventions.sheet.margin
    splits = [(band + k * side, board_w - (band + k * side) + overlap) for k in range(d.board.files + 1)]
    fitting = [split for split in splits if max(split) <= room]
    best = min(fitting, key=max)
    assert len(widths) == 2 and widths == pytest.approx(list(best), abs=TOLERANCE)
    assert best == (144.0, 122.0) and min(widths) > room / 2

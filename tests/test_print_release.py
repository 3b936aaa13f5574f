"""Print files ready to release: bleed on every exposed card edge, sheet counts, Letter poker 3 x 3.

Everything here is read back out of the PDFs with pypdf (tests/print_pdf_reading.py), not taken
from the code that placed the cards.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from boardlab.layouts import load, print_conventions
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.measure import PlacedCanvas
from boardlab.printkit.pdf import render_pdf
from boardlab.layouts.registry import game_ids
from boardlab.printkit.print_modules import print_module

from print_pdf_reading import open_pdf, page_geometry

CONVENTIONS = print_conventions()
TOLERANCE = 1e-3  # mm


def card_cut_size(game: str) -> tuple[float, float]:
    """The cut size of a game's cards: its print module's `card_size` (cards of a size of their
    own, such as 6x6's player cards), else the definition's card (a preset or [width, height])."""
    d = load(game)
    own = getattr(print_module(game), "card_size", None)
    if own is not None:
        return own(d)
    return tuple(d.print.card) if isinstance(d.print.card, tuple) else tuple(CONVENTIONS.card_sizes[d.print.card])


def card_files(game: str, options: PrintOptions):
    """The card-sheet files of a game (their pages carry one clip per card face)."""
    return [f for f in print_module(game).print_files(load(game), options)
            if "-cards-" in f.name and not f.name.endswith("-single")]


def touching(a, b, side: str) -> bool:
    """Whether box b lies against `side` of box a (sharing that edge over some length)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    overlap_x = min(ax + aw, bx + bw) - max(ax, bx) > TOLERANCE
    overlap_y = min(ay + ah, by + bh) - max(ay, by) > TOLERANCE
    return {"left": abs(bx + bw - ax) < TOLERANCE and overlap_y,
            "right": abs(ax + aw - bx) < TOLERANCE and overlap_y,
            "top": abs(by + bh - ay) < TOLERANCE and overlap_x,
            "bottom": abs(ay + ah - by) < TOLERANCE and overlap_x}[side]


def painted(point, fills) -> bool:
    x, y = point
    return any(fx - TOLERANCE <= x <= fx + fw + TOLERANCE and fy - TOLERANCE <= y <= fy + fh + TOLERANCE
               for fx, fy, fw, fh in fills)


OPTIONS = [PrintOptions(paper, duplex, backs) for paper in ("a4", "letter")
           for duplex, backs in (("long", "duplex"), ("short", "duplex"), ("long", "gutterfold"))]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: f"{o.paper}-{o.duplex}-{o.backs}")
@pytest.mark.parametrize("game", [g for g in game_ids("print") if card_files(g, PrintOptions("a4", "long", "duplex"))])
def test_every_card_face_has_bleed_on_every_edge_no_card_butts_against(game, options):
    """Each card face is drawn clipped to its bleed box.  A side of that box either lies against
    another card's box (the two share a cut line) or reaches exactly `bleed` beyond the cut
    line; the cut size left over must be the definition's.  The art paints the whole box."""
    bleed = load(game).print.bleed
    width, height = card_cut_size(game)
    faces = 0
    for print_file in card_files(game, options):
        reader = open_pdf(render_pdf(print_file))
        for index in range(len(reader.pages)):
            page = page_geometry(reader, index)
            for clip in page.clips:
                others = [c for c in page.clips if c is not clip]
                # the bleed the box holds on each axis, for the orientation in which both are whole
                extras = [(clip[2] - cw, clip[3] - ch) for cw, ch in ((width, height), (height, width))]
                fitting = [e for e in extras if all(any(abs(v - k * bleed) < 0.01 for k in (0, 1, 2)) for v in e)]
                assert fitting, (print_file.name, index + 1, clip)
                for extra, sides in zip(fitting[0], (("left", "right"), ("top", "bottom"))):
                    bled = round(extra / bleed) if bleed else 2
                    butted = [side for side in sides if any(touching(clip, o, side) for o in others)]
                    # every side without bleed lies against another card (a shared cut line)
                    assert len(butted) >= 2 - bled, (print_file.name, index + 1, clip, sides, butted)
                x, y, w, h = clip
                inset = 0.2
                samples = [(x + w * t, y + inset) for t in (0.02, 0.5, 0.98)] + \
                          [(x + w * t, y + h - inset) for t in (0.02, 0.5, 0.98)] + \
                          [(x + inset, y + h * t) for t in (0.02, 0.5, 0.98)] + \
                          [(x + w - inset, y + h * t) for t in (0.02, 0.5, 0.98)]
                assert all(painted(p, page.fills) for p in samples), (print_file.name, index + 1, clip)
                faces += 1
    assert faces >= 2


#: Sheets of paper each file takes (a duplex sheet is a front page and a back page), by game and paper.
#: Blockd: 25 poker cards, 9 a sheet on both papers: 9 + 9 + 7; the 4 pawn strips (18 x 80 mm) fill
#: the 2 empty slots of the last sheet (2 strips a slot), so there is no pawn sheet.
#: Links: 46 cards, 9 a sheet: 6 sheets (5 x 9 + 1; nothing else of the game could use the rest).
#: 6x6: the board (192 mm of numbers and the 32 mm bank under them), the 6 player cards on one
#: sheet, and each kind of piece in one file: the 6 markers (80 mm standees, taller than the strip
#: the board leaves) and all 120 chips together on two sheets of their own, on either paper.
#: Deblockle: the 256 mm board in 2 tiles; 8 cube nets (75 x 107 mm), 4 a sheet.
#: Every run has a cover sheet (printed on both sides when the run has back pages, for its test square).
EXPECTED_SHEETS = {
    ("blockd", "a4"): {"blockd-cover-a4": 1, "blockd-cards-a4": 3},
    ("blockd", "letter"): {"blockd-cover-letter": 1, "blockd-cards-letter": 3},
    ("links", "a4"): {"links-cover-a4": 1, "links-cards-a4": 6},
    ("links", "letter"): {"links-cover-letter": 1, "links-cards-letter": 6},
    ("sixbysix", "a4"): {"sixbysix-cover-a4": 1, "sixbysix-board-a4": 1, "sixbysix-cards-a4": 1, "sixbysix-pieces-a4": 2},
    ("sixbysix", "letter"): {"sixbysix-cover-letter": 1, "sixbysix-board-letter": 1, "sixbysix-cards-letter": 1, "sixbysix-pieces-letter": 2},
    ("deblockle", "a4"): {"deblockle-cover-a4": 1, "deblockle-board-a4": 2, "deblockle-board-a3": 1, "deblockle-cubes-a4": 2},
    ("deblockle", "letter"): {"deblockle-cover-letter": 1, "deblockle-board-letter": 2, "deblockle-board-a3": 1, "deblockle-cubes-letter": 2},
}


@pytest.mark.parametrize("game, paper", sorted(EXPECTED_SHEETS))
def test_sheet_counts_are_what_the_components_need(game, paper):
    files = [f for f in print_module(game).print_files(load(game), PrintOptions(paper, "long", "duplex"))
             if not f.name.endswith("-single")]
    sheets = {}
    for f in files:
        reader = open_pdf(render_pdf(f))
        two_sided = reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] != "/Simplex"
        sheets[f.name] = len(reader.pages) // 2 if two_sided else len(reader.pages)  # fronts and backs
    assert sheets == EXPECTED_SHEETS[(game, paper)]


def test_poker_cards_come_three_by_three_on_letter():
    for game in ("blockd", "links"):
        [deck] = card_files(game, PrintOptions("letter", "long", "duplex"))
        page = page_geometry(open_pdf(render_pdf(deck)), 0)
        assert len(page.clips) == 9
        columns = {round(c[0] + c[2] / 2, 1) for c in page.clips}
        rows = {round(c[1] + c[3] / 2, 1) for c in page.clips}
        assert len(columns) == 3 and len(rows) == 3
        assert all(c[3] > c[2] for c in page.clips)  # standing, not on their side


# --- contrast: every mark stands out on what it is drawn on ---------------------------------------------------

MARK_CONTRAST = 3.0  # WCAG 2's least contrast for graphics a reader must see


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance, written out here independently of printkit.palette."""
    values = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        values.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * values[0] + 0.7152 * values[1] + 0.0722 * values[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def every_definition():
    paths = sorted(Path(__file__).parent.parent.joinpath("layouts").glob("*.toml"))
    paths += sorted(Path(__file__).parent.parent.joinpath("layouts", "variants").glob("*.toml"))
    return [load(p) for p in paths if p.name != "print.toml"]


def test_mark_ink_stands_out_on_every_colour_of_every_definition():
    from boardlab.printkit.palette import contrast_ink, ink_and_paper, mark_ink
    checked = 0
    for d in every_definition():
        ink, paper = ink_and_paper(d)
        for name, colour in d.colours.items():
            assert contrast(mark_ink(colour.hex, ink, paper), colour.hex) >= MARK_CONTRAST, (d.game.id, name)
            assert contrast(contrast_ink(colour.hex), colour.hex) >= 4.5, (d.game.id, name)
            checked += 1
    assert checked >= 20


def test_check_refuses_colours_marks_or_text_would_not_read_on(tmp_path, capsys):
    """The colour rule is `boardlab check`'s (printkit.palette.contrast_problems), stated here with
    the independent luminance above: every shipped definition passes it, and a variant whose ink
    does not read on its paper, or whose colour neither ink nor paper stands out on, is refused
    with the file and line."""
    from boardlab.cli import main
    from boardlab.layouts import locate
    from boardlab.printkit.palette import contrast_problems
    for d in every_definition():
        ink, paper = (d.colours[d.print.ink_colour].hex, d.colours[d.print.paper_colour].hex)
        assert contrast(ink, paper) >= 4.5, d.game.id
        assert all(max(contrast(ink, c.hex), contrast(paper, c.hex)) >= MARK_CONTRAST for c in d.colours.values())
        assert contrast_problems(d) == []
    game = game_ids("print")[0]
    d = load(game)
    paper, other = d.print.paper_colour, next(n for n in d.colours if n not in (d.print.ink_colour, d.print.paper_colour))
    assert contrast("#808080", d.colours[d.print.ink_colour].hex) < 4.5
    variant = tmp_path / "grey.toml"
    variant.write_text(f'extends = "{game}"\n\n[colours.{paper}]\nhex = "#808080"\n\n[colours.{other}]\nhex = "#5a5a5a"\n')
    assert main(["check", str(variant)]) == 2
    err = capsys.readouterr().err.splitlines()
    ink_file, ink_line = locate(variant, ("print", "ink_colour"))
    assert f"{ink_file}:{ink_line}: print.ink_colour: the ink" in "\n".join(err), err
    assert contrast("#5a5a5a", "#808080") < MARK_CONTRAST
    assert contrast("#5a5a5a", d.colours[d.print.ink_colour].hex) < MARK_CONTRAST
    assert any(line.startswith(f"{variant}:7: colours.{other}.hex: neither the ink") for line in err), err
    assert not any("Traceback" in line for line in err)


def _inside(shape, point) -> bool:
    x, y = point
    if shape.clip is not None:
        (cx1, cy1), (cx2, cy2) = shape.clip
        if not (cx1 <= x <= cx2 and cy1 <= y <= cy2):
            return False
    if shape.kind == "circle":
        return math.dist(shape.points[0], point) <= shape.size
    if shape.kind == "line":  # a wide line under a mark (its underlay) counts as a fill
        (x1, y1), (x2, y2) = shape.points
        length = math.dist((x1, y1), (x2, y2))
        if length == 0:
            return False
        t = max(0.0, min(1.0, ((x - x1) * (x2 - x1) + (y - y1) * (y2 - y1)) / length ** 2))
        return math.dist((x1 + t * (x2 - x1), y1 + t * (y2 - y1)), point) <= shape.style.get("width", 0.25) / 2
    inside = False  # rectangles (four corners) and polygons: ray casting
    points = shape.points
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _fill_under(shapes, before: int, point, background: str) -> str:
    for shape in reversed(shapes[:before]):
        fill = shape.style.get("fill") if shape.kind != "line" else (
            shape.style.get("stroke") if shape.style.get("width", 0) >= 0.5 else None)
        if fill and shape.kind in ("rect", "circle", "polygon", "line") and _inside(shape, point):
            return fill
    return background


def _samples(shape):
    """(point on the stroke, unit normal) pairs along a cut or fold line."""
    if shape.kind == "circle":
        (cx, cy), r = shape.points[0], shape.size
        return [((cx + r * dx, cy + r * dy), (dx, dy)) for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1))]
    points = shape.points if shape.kind == "line" else shape.points + shape.points[:1]
    result = []
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        length = math.dist((x1, y1), (x2, y2))
        if length < 1e-6:
            continue
        normal = ((y1 - y2) / length, (x2 - x1) / length)
        result += [((x1 + t * (x2 - x1), y1 + t * (y2 - y1)), normal) for t in (0.2, 0.5, 0.8)]
    return result


@pytest.mark.parametrize("game", game_ids("print"))
def test_every_cut_and_fold_line_stands_out_on_the_fill_it_is_drawn_on(game):
    """Every thin unfilled stroke (cut marks, cut outlines, fold lines, seams) on every page:
    at each sample point the fill on at least one side of it (both sides are the same colour
    for a fold between two faces) contrasts with the stroke by MARK_CONTRAST or more."""
    from boardlab.printkit.measure import PlacedCanvas
    checked = 0
    for print_file in print_module(game).print_files(load(game), PrintOptions("a4", "long", "duplex")):
        if print_file.name.endswith("-single"):
            continue
        for number, page in enumerate(print_file.pages, start=1):
            canvas = PlacedCanvas(page.width, page.height)
            page.draw(canvas)
            shapes = canvas.shapes
            for index, shape in enumerate(shapes):
                stroke, width = shape.style.get("stroke"), shape.style.get("width", 0.25) * shape.scale
                if not stroke or shape.style.get("fill") or width > 0.35 or shape.kind not in ("line", "circle", "rect"):
                    continue
                for (x, y), (nx, ny) in _samples(shape):
                    reach = width / 2 + 0.15
                    sides = [_fill_under(shapes, index, (x + s * reach * nx, y + s * reach * ny), "#ffffff")
                             for s in (1, -1)]
                    assert max(contrast(stroke, fill) for fill in sides) >= MARK_CONTRAST, \
                        (print_file.name, number, shape.kind, stroke, sides, (round(x, 2), round(y, 2)))
                    checked += 1
    assert checked > 50


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_ids("print"))
def test_every_line_keeps_a_quarter_inch_from_the_paper_edge(game, paper):
    """Cut, fold and glue lines, marks, outlines and art strokes, as far as they show (clipped):
    none closer than 6.35 mm to the edge, which many printers cannot reach.  A straight line
    lies on or inside that limit; its ink may spread half its width (0.15 mm at most) past it,
    as the cut line on the top edge of Letter's 3 x 3 block does: the block fills the sheet
    from limit to limit.  White (a mark's underlay) is no ink."""
    from boardlab.printkit.measure import PlacedCanvas
    edge = 6.35
    assert CONVENTIONS.sheet.margin >= edge
    for print_file in print_module(game).print_files(load(game), PrintOptions(paper, "long", "duplex")):
        if print_file.name.endswith("-single"):
            continue  # one card per page for print-on-demand: the page is the card with its bleed
        for number, page in enumerate(print_file.pages, start=1):
            canvas = PlacedCanvas(page.width, page.height)
            page.draw(canvas)
            for shape in canvas.shapes:
                if not shape.style.get("stroke") or shape.kind == "path" or shape.style["stroke"] == "#ffffff":
                    continue
                half = shape.style.get("width", 0.25) * shape.scale / 2
                within = []
                for spread in (half, 0.0):  # the ink, then the line itself
                    x, y, w, h = shape.box
                    x1, y1, x2, y2 = x - spread, y - spread, x + w + spread, y + h + spread
                    if shape.clip is not None:
                        (cx1, cy1), (cx2, cy2) = shape.clip
                        x1, y1, x2, y2 = max(x1, cx1), max(y1, cy1), min(x2, cx2), min(y2, cy2)
                    within.append(x1 >= x2 or y1 >= y2 or (  # clipped away entirely, or inside the limits
                        edge - 1e-6 <= x1 and x2 <= page.width - edge + 1e-6
                        and edge - 1e-6 <= y1 and y2 <= page.height - edge + 1e-6))
                assert within[0] or (shape.kind == "line" and half <= 0.15 + 1e-9 and within[1]), \
                    (print_file.name, number, shape.kind, shape.box, half)


def test_tile_seams_run_between_squares_and_alignment_marks_stay_off_the_playing_area():
    from boardlab.printkit.games.deblockle import board_size, square_box
    from boardlab.printkit.measure import PlacedCanvas
    d = load("deblockle")
    special = {p.home_star for p in d.players} | {s for p in d.players for s in p.start[:d.rules.blocks]}
    boxes = [square_box(d, name) for name in special]
    side = d.print.board_square
    width, height = board_size(d)
    band = (width - d.board.files * side) / 2
    for paper in ("a4", "letter"):
        [board_file] = [f for f in print_module("deblockle").print_files(d, PrintOptions(paper, "long", "duplex"))
                        if f.name == f"deblockle-board-{paper}"]
        assert len(board_file.pages) >= 2
        for page in board_file.pages:
            canvas = PlacedCanvas(page.width, page.height)
            page.draw(canvas)
            # the tile's cut outline is the one page-level stroked rectangle the size of a tile
            clip = next(s.clip for s in canvas.shapes if s.clip is not None)
            (cx1, cy1), (cx2, cy2) = clip
            # where the board's (0, 0) lies on this page: the board's outer rectangle, drawn first
            board_rect = next(s for s in canvas.shapes if s.kind == "rect" and s.clip == clip)
            ox, oy = board_rect.points[0]
            overlap = CONVENTIONS.sheet.tile_overlap
            # a tile's right (lower) edge inside the board is a seam; its left (upper) edge lies the
            # overlap strip before the seam of the tile laid over it
            for axis, edge, seam, length in ((0, cx2 - ox, cx2 - ox, width), (0, cx1 - ox, cx1 - ox + overlap, width),
                                             (1, cy2 - oy, cy2 - oy, height), (1, cy1 - oy, cy1 - oy + overlap, height)):
                if 1e-6 < edge < length - 1e-6:  # on a line between squares: no square is split
                    assert abs((seam - band) / side - round((seam - band) / side)) < 1e-6, seam
                    assert not any(b[axis] + 1e-6 < seam < b[axis] + b[axis + 2] - 1e-6 for b in boxes)
            # alignment marks (paper-filled rings on a seam) lie in the band round the playing area
            paper = d.colours[d.print.paper_colour].hex
            rings = [s for s in canvas.shapes if s.kind == "circle" and s.style.get("fill") == paper
                     and s.style.get("stroke") and s.clip == clip and s.size < band / 2]
            assert rings
            for ring in rings:
                bx, by = ring.points[0][0] - ox, ring.points[0][1] - oy
                r = ring.size
                assert bx + r <= band or bx - r >= width - band or by + r <= band or by - r >= height - band


def test_every_pdf_has_its_own_id_a_subject_and_the_duplex_hint_of_its_pages():
    import io

    from pypdf import PdfReader
    ids, two_sided, backed = {}, {}, 0
    for game in game_ids("print"):
        for options in (PrintOptions("a4", "long", "duplex"), PrintOptions("letter", "short", "duplex"),
                        PrintOptions("a4", "long", "gutterfold")):
            for print_file in print_module(game).print_files(load(game), options):
                data = render_pdf(print_file)
                reader = PdfReader(io.BytesIO(data))
                file_id = bytes(reader.trailer["/ID"][0].original_bytes)
                assert ids.setdefault(file_id, print_file.name) == print_file.name  # no two files share an /ID
                subject = reader.metadata["/Subject"]
                assert print_file.title in subject and "100 %" in subject
                preferences = reader.trailer["/Root"]["/ViewerPreferences"]
                two_sided[print_file.name] = preferences["/Duplex"] != "/Simplex"
                expected = {"long": "/DuplexFlipLongEdge", "short": "/DuplexFlipShortEdge"}[options.duplex]
                assert preferences["/Duplex"] in (expected, "/Simplex"), print_file.name
                assert preferences["/PrintScaling"] == "/None"
                assert render_pdf(print_file) == data  # the /ID is derived, not drawn from a clock or chance
            # card sheets have back pages when the run prints backs; a one-card-a-page file and a
            # gutterfold run never; the cover always has a back: the rulebook's quick reference (and
            # the test square's twin when some other file of the run has back pages)
            covers = [name for name in two_sided if "-cover-" in name]
            assert len(covers) == 1, (game, sorted(two_sided))
            others = [name for name in two_sided if name not in covers]
            for name in others:
                if "-cards-" in name and not name.endswith("-single"):
                    assert two_sided[name] == (options.backs == "duplex"), name
                if name.endswith("-single") or options.backs != "duplex":
                    assert not two_sided[name], name
            assert two_sided[covers[0]], (game, options)
            backed += two_sided[covers[0]]
            two_sided.clear()
    assert len(ids) >= 20 and backed >= 1


# --- the cover sheet and the back offset ----------------------------------------------------------------------

def _texts(print_file) -> list[str]:
    from boardlab.printkit.measure import PlacedCanvas
    shown = []
    for page in print_file.pages:
        canvas = PlacedCanvas(page.width, page.height)
        page.draw(canvas)
        shown += [s.content for s in canvas.shapes if s.kind == "text"]
    return shown


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_ids("print"))
def test_the_cover_lists_every_file_with_its_sheets_the_pieces_and_what_else_to_get(game, paper):
    d = load(game)
    cover, *files = print_module(game).print_files(d, PrintOptions(paper, "long", "duplex"))
    assert cover.name == f"{game}-cover-{paper}"
    text = "\n".join(_texts(cover))
    for f in files:
        pages = len(open_pdf(render_pdf(f)).pages)
        two_sided = "-cards-" in f.name and not f.name.endswith("-single")
        sheets = pages // 2 if two_sided else pages
        how = "print both sides, flip on the long edge" if two_sided else "print one side"
        assert f"{f.name}.pdf: {f.title}; {sheets} sheet{'s' if sheets != 1 else ''}, {how}" in text
    assert "100 %" in text and "g/m²" in text and "You also need" in text
    if game == "blockd":
        cards = len(d.cards.suits) * (1 + len(d.cards.values)) + d.cards.blind
        counts = [f"{cards} cards", f"{len(d.cards.suits)} pawns"]
    elif game == "links":
        counts = [f"{len(d.deck.game_cards) + d.deck.central + d.deck.empty + sum(m.count for m in d.deck.masters)} cards"]
    elif game == "sixbysix":
        seats = len(d.components.seats)
        counts = [f"{seats} player cards", f"{seats} markers", f"{seats * d.components.chips_per_colour} chips",
                  f"{seats} ordinary six-sided dice"]
    elif game == "deblockle":
        counts = [f"{len(d.players) * d.rules.blocks} cubes"]
    else:  # a game this test does not know: its print module's own piece lines, at least one
        counts = []
        assert re.search(r"The pieces\n• \S", text), text
    for count in counts:
        assert count in text, count
    # the cover is one sheet printed on both sides: the quick reference on its back, and a duplex
    # run's test square on both sides
    assert len(cover.pages) == 2 and cover.duplex == "long"
    back = PlacedCanvas(cover.pages[1].width, cover.pages[1].height)
    cover.pages[1].draw(back)
    back_text = " ".join(s.content for s in back.shapes if s.kind == "text")
    assert f"{d.game.name} — Quick reference" in back_text and "Goal:" in back_text
    two_sided_run = any(f.duplex for f in files)
    assert ("back" in back_text.split()) == two_sided_run  # the test square's label


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_offset_moves_every_back_page_and_the_covers_test_square_as_seen_from_the_front(duplex):
    plain = print_module("links").print_files(load("links"), PrintOptions("a4", duplex, "duplex"))
    moved = print_module("links").print_files(load("links"), PrintOptions("a4", duplex, "duplex", (1.5, -0.5)))
    for before, after in zip(plain, moved):
        if not before.duplex:
            continue
        a, b = open_pdf(render_pdf(before)), open_pdf(render_pdf(after))
        for index in range(len(a.pages)):
            shapes_a, shapes_b = page_geometry(a, index), page_geometry(b, index)
            items_a = shapes_a.clips or shapes_a.rects
            items_b = shapes_b.clips or shapes_b.rects
            back = index % 2 == 1
            # seen from the front a long-edge flip mirrors x and a short-edge flip y
            dx, dy = ((-1.5, -0.5) if duplex == "long" else (1.5, 0.5)) if back else (0.0, 0.0)
            assert len(items_a) == len(items_b) > 0
            for (xa, ya, wa, ha), (xb, yb, wb, hb) in zip(items_a, items_b):
                assert (xb - xa, yb - ya, wb, hb) == pytest.approx((dx, dy, wa, ha), abs=1e-3), (after.name, index)


# --- print-on-demand images ------------------------------------------------------------------------------------

def test_pod_writes_one_png_per_card_face_at_300_dpi_with_the_shops_bleed(tmp_path):
    from PIL import Image

    from boardlab.cli import main
    assert main(["print", "blockd", "--pod", "thegamecrafter", "--out", str(tmp_path / "one")]) == 0
    assert main(["print", "blockd", "--pod", "thegamecrafter", "--out", str(tmp_path / "two")]) == 0
    folder = tmp_path / "one" / "pod-thegamecrafter"
    names = sorted(p.name for p in folder.glob("*.png"))
    d = load("blockd")
    fronts = {f"{suit}-start" for suit in d.cards.suits} | {f"{suit}-{v}" for suit in d.cards.suits for v in d.cards.values}
    assert set(names) == {f"{n}.png" for n in fronts | {"blind", "back"}}  # every face once, the common back once
    for name in names:
        assert (folder / name).read_bytes() == (tmp_path / "two" / "pod-thegamecrafter" / name).read_bytes()
    # The Game Crafter's poker card: 63.5 x 88.9 mm plus 1/8 inch round it, 300 dpi: 825 x 1125 pixels
    image = Image.open(folder / "red-3.png").convert("RGB")
    assert image.size == (825, 1125)
    assert [round(v) for v in image.info["dpi"]] == [300, 300]
    # the art reaches the edge of the image: the red frame, not white paper, in every corner and mid-edge
    red = tuple(int(d.colours["red"].hex[i:i + 2], 16) for i in (1, 3, 5))
    for x, y in ((0, 0), (824, 0), (0, 1124), (824, 1124), (412, 0), (0, 562)):
        assert all(abs(a - b) <= 2 for a, b in zip(image.getpixel((x, y)), red)), (x, y)


def test_an_unknown_pod_preset_is_one_line_and_exit_2(tmp_path, capsys):
    from boardlab.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["print", "links", "--pod", "nowhere", "--out", str(tmp_path / "out")])
    assert stop.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


# --- SVG for editing and cutting ------------------------------------------------------------------------------

def test_every_svg_has_its_id_four_inkscape_layers_closed_cut_paths_and_embedded_fonts():
    import xml.etree.ElementTree as ET

    from boardlab.printkit.output import render_print_files
    svg_ns, ink_ns = "{http://www.w3.org/2000/svg}", "{http://www.inkscape.org/namespaces/inkscape}"
    seen = 0
    for game in ("blockd", "sixbysix", "links", "deblockle"):
        rendered = render_print_files(print_module(game).print_files(load(game), PrintOptions("a4", "long", "duplex")))
        for name, data in rendered.items():
            if not name.endswith(".svg"):
                continue
            root = ET.fromstring(data)
            stem = name[len("svg/"):-len(".svg")]
            assert root.get("id") == stem
            layers = {g.get(f"{ink_ns}label"): g for g in root if g.get(f"{ink_ns}groupmode") == "layer"}
            assert sorted(layers) == ["art", "cut", "fold", "guides"], name
            for element in layers["cut"].iter():
                # cut paths are closed shapes: rectangles, circles, polygons; never loose lines
                assert element.tag in (f"{svg_ns}g", f"{svg_ns}rect", f"{svg_ns}circle", f"{svg_ns}polygon"), \
                    (name, element.tag)
                assert not element.get("stroke-dasharray"), name
            for element in layers["fold"].iter():
                assert element.tag == f"{svg_ns}g" or element.get("stroke-dasharray"), name
            if any(e.tag == f"{svg_ns}text" for e in root.iter()):
                style = "".join(e.text or "" for e in root.iter(f"{svg_ns}style"))
                assert "@font-face" in style and "base64," in style, name
            seen += 1
            if "-cube-" in stem:  # a cube net: one closed polygon cuts it out
                assert len([e for e in layers["cut"].iter(f"{svg_ns}polygon")]) == 1, name
            if stem in ("red-3", "back", "master-four"):  # a card face: trim on the cut layer, safe zone as guide
                assert len(list(layers["cut"].iter(f"{svg_ns}rect"))) == 1
                assert len(list(layers["guides"].iter(f"{svg_ns}rect"))) == 1
    assert seen >= 50

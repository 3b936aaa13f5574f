"""Print files ready to release: bleed on every exposed card edge, sheet counts, Letter poker 3 x 3.

Everything here is read back out of the PDFs with pypdf (tests/print_pdf_reading.py), not taken
from the code that placed the cards.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from boardlab.layouts import load, print_conventions
from boardlab.printkit.games.sixbysix import card_size as sixbysix_card_size
from boardlab.printkit.pages import PrintOptions
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.print_modules import PRINT_MODULES, print_module

sys.path.insert(0, str(Path(__file__).parent))  # helpers beside this file (pytest --import-mode=importlib)
from print_pdf_reading import open_pdf, page_geometry  # noqa: E402

CONVENTIONS = print_conventions()
TOLERANCE = 1e-3  # mm


def card_cut_size(game: str) -> tuple[float, float]:
    d = load(game)
    if game == "sixbysix":
        return sixbysix_card_size(d)
    return tuple(CONVENTIONS.card_sizes[d.print.card])


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
@pytest.mark.parametrize("game", ["blockd", "links", "sixbysix"])
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
#: 6x6: the board (192 mm) leaves a strip under it, the 6 player cards leave room on their sheet;
#: the 6 markers and 120 chips fill those and one sheet more.
#: Deblockle: the 256 mm board in 2 tiles; 8 cube nets (75 x 107 mm), 4 a sheet.
EXPECTED_SHEETS = {
    ("blockd", "a4"): {"blockd-cards-a4": 3},
    ("blockd", "letter"): {"blockd-cards-letter": 3},
    ("links", "a4"): {"links-cards-a4": 6},
    ("links", "letter"): {"links-cards-letter": 6},
    ("sixbysix", "a4"): {"sixbysix-board-a4": 1, "sixbysix-cards-a4": 1, "sixbysix-pieces-a4": 1},
    ("sixbysix", "letter"): {"sixbysix-board-letter": 1, "sixbysix-cards-letter": 1, "sixbysix-pieces-letter": 1},
    ("deblockle", "a4"): {"deblockle-board-a4": 2, "deblockle-board-a3": 1, "deblockle-cubes-a4": 2},
    ("deblockle", "letter"): {"deblockle-board-letter": 2, "deblockle-board-a3": 1, "deblockle-cubes-letter": 2},
}


@pytest.mark.parametrize("game, paper", sorted(EXPECTED_SHEETS))
def test_sheet_counts_are_what_the_components_need(game, paper):
    files = [f for f in print_module(game).print_files(load(game), PrintOptions(paper, "long", "duplex"))
             if not f.name.endswith("-single")]
    sheets = {}
    for f in files:
        pages = len(open_pdf(render_pdf(f)).pages)
        sheets[f.name] = pages // 2 if "-cards-" in f.name else pages  # card files: fronts and backs
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

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

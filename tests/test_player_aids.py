"""Player aids: a card of layouts/print.toml's `sheet.aid` size for each player, in both languages,
inside the sheet margin, with the quick reference's goal, turn and end, and the symbols drawn
where the game has them.  Read back from the PDFs (cut lines with tests/print_pdf_reading.py).
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from boardlab.layouts import load, print_conventions
from boardlab.layouts.registry import game_ids
from boardlab.printkit.rulebook import render_player_aid
from boardlab.printkit.rulebook.aid import aid_grid

from print_pdf_reading import page_geometry

CONVENTIONS = print_conventions()
HEADINGS = {"en": ("Goal", "End"), "es": ("Objetivo", "Final")}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_ids())
def test_one_aid_card_per_player_inside_the_margin(game: str, paper: str) -> None:
    definition = load(game)
    width, height = CONVENTIONS.sheet.aid
    columns, rows, _, _ = aid_grid(CONVENTIONS.papers[paper], CONVENTIONS.sheet.aid)
    for language in definition.rulebook.languages:
        pdf = render_player_aid(definition, language, paper)
        assert pdf is not None
        reader = PdfReader(io.BytesIO(pdf))
        cards = []
        for index, page in enumerate(reader.pages):
            geometry = page_geometry(reader, index)
            # the cut line round each card: a rectangle of the aid's size within the sheet margin
            found = [r for r in geometry.rects if abs(r[2] - width) < 0.05 and abs(r[3] - height) < 0.05]
            margin = CONVENTIONS.sheet.margin
            assert all(margin - 1e-6 <= x and x + w <= geometry.width - margin + 1e-6 and margin - 1e-6 <= y
                       and y + h <= geometry.height - margin + 1e-6 for x, y, w, h in found)
            cards += found
            text = page.extract_text()
            goal, end = HEADINGS[language]
            assert text.count(f"{goal}:") == text.count(f"{end}:") == len(found)
        assert len(cards) == definition.game.max_players
        assert len(reader.pages) == -(-definition.game.max_players // (columns * rows))


def test_deblockle_aid_draws_the_faces_players_see() -> None:
    """Each face's symbol is drawn on each aid, named under it in the aid's language."""
    definition = load("deblockle")
    pdf = render_player_aid(definition, "es", "a4")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    for name in ("Estrella", "Alto", "Cruz", "Aspa", "Deslizador", "Aros"):
        assert text.count(name) >= definition.game.max_players
    plain = render_player_aid(load("links"), "es", "a4")
    assert len(pdf) > 0 and len(plain) > 0


def test_aids_are_byte_identical_for_identical_input() -> None:
    definition = load("blockd")
    assert render_player_aid(definition, "en", "a4") == render_player_aid(definition, "en", "a4")

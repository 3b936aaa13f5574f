"""Every rule of the seed games is in both rulebooks as a player rule or a named optional rule,
and the books speak to players (no simulation talk).

The phrases are read back from the rendered PDFs, within the section that must hold them.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from boardlab.layouts import GAMES, load
from boardlab.printkit.rulebook.book import render_rulebook


def text(game: str, language: str) -> str:
    pdf = render_rulebook(load(game), language, "a4")
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())


def in_section(book: str, start: str, end: str, phrase: str) -> bool:
    """Whether `phrase` stands after some `start` (a section's heading) and before the next `end`
    (the next heading): the contents page names both headings with nothing between them."""
    position = book.find(start)
    while position >= 0:
        stop = book.find(end, position + len(start))
        if phrase in book[position:stop if stop >= 0 else len(book)]:
            return True
        position = book.find(start, position + 1)
    return False


SEED_RULES = {
    # the table may agree on another number of chips (the setup, and the quick reference)
    ("sixbysix", "en"): [("Setup", "Playing a round", "the table may agree on another number of chips, the same for everyone"),
                         ("Quick reference", "End:", "20 chips each (or another number the table agrees on)")],
    ("sixbysix", "es"): [("Preparación", "La ronda", "la mesa puede acordar otro número de fichas, el mismo para todos"),
                         ("Resumen", "Final:", "20 fichas cada uno (u otro número que acuerde la mesa)")],
    # everyone stuck in one round: the last player to move wins, in the end rules under the default;
    # one colour rule, in the setup
    ("blockd", "en"): [("End of the game", "Interpretations", "the last player to have made a move takes the game"),
                       ("Setup", "Playing a turn", "the first player takes red, the second blue, and so on")],
    ("blockd", "es"): [("Final de la partida", "Interpretaciones", "gana el último jugador que hizo un movimiento"),
                       ("Preparación", "Tu turno", "el primer jugador lleva el rojo, el segundo el azul")],
    # the starter (the youngest, or the last winner), and the handicap as a named optional rule
    ("deblockle", "en"): [("Setup", "Playing a turn", "The youngest player, or the winner of the last game, plays gold and moves first"),
                          ("Optional rules", "Quick reference", "Handicap. A stronger player may play with fewer blocks")],
    ("deblockle", "es"): [("Preparación", "El turno", "El jugador más joven, o quien ganó la partida anterior, juega con oro y empieza"),
                          ("Reglas opcionales", "Resumen", "Hándicap. Quien juega mejor puede jugar con menos bloques")],
}


@pytest.mark.parametrize("game, language", sorted(SEED_RULES))
def test_each_seed_rule_is_in_its_section(game: str, language: str) -> None:
    book = text(game, language)
    for start, end, phrase in SEED_RULES[(game, language)]:
        assert in_section(book, start, end, phrase), (start, phrase)


@pytest.mark.parametrize("game", GAMES)
def test_rulebooks_speak_to_players(game: str) -> None:
    """No simulation talk and no colour chosen two ways: the cap on turns is a rule of the table."""
    for language in load(game).rulebook.languages:
        book = text(game, language).lower()
        for word in ("simulation", "simulaci", "pair of numbers", "par de números", "recorded as unfinished",
                     "se anota como inacabada"):
            assert word not in book, (game, language, word)

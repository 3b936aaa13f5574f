"""Links decks as card lists (a CSV file the definition names, or [[deck.cards]] in the TOML)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from boardlab.analysis.links.cards import LinksDeck
from boardlab.cli import main
from boardlab.layouts import load
from boardlab.printkit.games.links import links_cards


def csv_of_the_generated_deck(definition) -> list[str]:
    """The baseline deck written out card by card, as a designer would copy it into a spreadsheet."""
    rows = ["kind,ends,value,count,text"]
    for (a, b), n in Counter(definition.deck.game_cards).items():
        rows.append(f"game,{a.colour} {a.points} / {b.colour} {b.points},,{n},")
    rows += ["central,,,1,", f"empty,,,{definition.deck.empty},"]
    rows += [f"master,,{m.value},{m.count},{m.name}" for m in definition.deck.masters]
    return rows


def write_variant(tmp_path, rows: list[str], name: str = "links-listed") -> str:
    (tmp_path / f"{name}.csv").write_text("\n".join(rows) + "\n")
    variant = tmp_path / f"{name}.toml"
    variant.write_text(f'extends = "links"\n\n[deck]\ncard_list = "{name}.csv"\n')
    return str(variant)


def test_the_generated_deck_as_a_card_list_is_the_same_deck(tmp_path, capsys):
    base = load("links")
    listed = load(write_variant(tmp_path, csv_of_the_generated_deck(base)))
    assert listed.deck.listed and not base.deck.listed
    a, b = LinksDeck(base), LinksDeck(listed)
    assert a.kinds == b.kinds and a.full_copies == b.full_copies and a.face_texts == b.face_texts
    assert [c.name for c in links_cards(base)] == [c.name for c in links_cards(listed)]
    assert main(["tables", "links", "--format", "json"]) == 0
    generated = json.loads(capsys.readouterr().out)
    assert main(["tables", "links", "--format", "json", "--variant", str(tmp_path / "links-listed.toml")]) == 0
    listed_tables = json.loads(capsys.readouterr().out)
    assert listed_tables.pop("variant") == "links-listed"  # every output names its variant
    assert listed_tables == generated


def test_four_added_cards_are_printed_and_counted(tmp_path, capsys):
    base = load("links")
    rows = csv_of_the_generated_deck(base) + ["# two copies each of two new cards", "game,red 1 / blue 2,,2,",
                                              "game,green 2 / yellow 1,,2,"]
    variant = write_variant(tmp_path, rows)
    d = load(variant)
    assert d.deck.size == base.deck.size + 4 == 50
    assert len(links_cards(d)) == 50
    assert main(["print", "links", "--variant", variant, "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    from pypdf import PdfReader
    single = PdfReader(tmp_path / "out" / "links-cards-single.pdf")
    assert len(single.pages) == 2 * 50  # one face per page, front and back of every card
    assert main(["tables", "links", "--format", "json", "--variant", variant]) == 0
    tables = json.loads(capsys.readouterr().out)
    assert tables["deck"]["game"] == 40 and sum(tables["deck"].values()) == 50
    for players, doc in tables["by_players"].items():
        assert doc["deck"] == 50 - 1 - base.deck.removed_empty[int(players)]  # the central card is not shuffled
    copies = dict(zip((LinksDeck(d).text(k) for k in range(len(LinksDeck(d).kinds))), LinksDeck(d).full_copies))
    assert copies["R1-B2"] == 3 and copies["G2-Y1"] == 3  # one in the baseline, two added
    assert main(["simulate", "links", "--variant", variant, "--games", "4", "--workers", "1"]) == 0
    assert "links-listed" in capsys.readouterr().out


def test_the_toml_form_reads_like_the_csv(tmp_path):
    rows = csv_of_the_generated_deck(load("links"))[1:]
    toml = ['extends = "links"']
    for row in rows:
        kind, ends, value, count, text = row.split(",")
        toml += ["", "[[deck.cards]]", f'kind = "{kind}"', f"count = {count}"]
        toml += [f'ends = "{ends}"'] if ends else []
        toml += [f"value = {value}", f'text = "{text}"'] if kind == "master" else []
    path = tmp_path / "links-toml-list.toml"
    path.write_text("\n".join(toml) + "\n")
    from_toml = LinksDeck(load(path))
    from_csv = LinksDeck(load(write_variant(tmp_path, csv_of_the_generated_deck(load("links")))))
    assert from_toml.kinds == from_csv.kinds and from_toml.full_copies == from_csv.full_copies


@pytest.mark.parametrize("row, said", [
    ("joker,,,1,", 'deck.cards[36].kind: unknown value "joker"'),
    ("game,red 1 - blue 2,,1,", "deck.cards[36].ends: ends 'red 1 - blue 2' are not two ends"),
    ("game,purple 1 / blue 2,,1,", 'deck.cards[36].ends: unknown colour "purple"'),
    ("game,red 1 / blue 2,,zero,", "deck.cards[36].count: wrong type"),
    ("master,,0,1,", "deck.cards[36].text: a master card needs its name"),
    ("empty,red 1 / blue 2,,1,", "deck.cards[36].ends: an empty card has no ends"),
])
def test_a_bad_row_is_reported_at_its_file_and_line(tmp_path, capsys, row, said):
    rows = csv_of_the_generated_deck(load("links"))
    rows.insert(37, row)  # after the header and 36 game rows: line 38 of the file
    variant = write_variant(tmp_path, rows)
    assert main(["check", variant]) == 2
    err = capsys.readouterr().err
    assert f"links-listed.csv:38: {said}" in err, err


def test_a_missing_file_or_a_bad_header_is_one_line(tmp_path, capsys):
    variant = tmp_path / "v.toml"
    variant.write_text('extends = "links"\n[deck]\ncard_list = "nowhere.csv"\n')
    assert main(["check", str(variant)]) == 2
    assert "v.toml:3: deck.card_list: no such file" in capsys.readouterr().err
    bad = write_variant(tmp_path, ["kind,colour,points", "game,red,1"])
    assert main(["check", bad]) == 2
    assert "links-listed.csv:1: deck.card_list: the header kind,colour,points is not a card list's" in capsys.readouterr().err


def test_the_rulebook_describes_a_listed_deck_in_each_language(tmp_path):
    """A card list's game cards in the rulebook: by the colours of their ends, how many, and the
    points of each card with its copies (counted here from the rows as written), in English and Spanish."""
    import io
    import re

    from pypdf import PdfReader

    from boardlab.printkit.rulebook import render_rulebook

    rows = ["kind,ends,value,count,text", "game,red 1 / red 2,,8,", "game,red 1 / blue 2,,10,",
            "game,blue 2 / red 2,,4,", "game,red 2 / blue 1,,1,", "game,green 1 / blue 1,,8,",
            "game,yellow 2 / yellow 2,,6,", "central,,,1,", "empty,,,6,", "master,,1,1,ONE", "master,,2,1,TWO"]
    d = load(write_variant(tmp_path, rows))
    # red-blue: 10 of red 1 / blue 2, 4 of blue 2 / red 2 (red first: 2/2), 1 of red 2 / blue 1
    expected = {"en": "red and red: 8 (1/2 ×8); red and blue: 15 (1/2 ×10, 2/1, 2/2 ×4); blue and green: 8 (1/1 ×8); "
                      "yellow and yellow: 6 (2/2 ×6)",
                "es": "rojo y rojo: 8 (1/2 ×8); rojo y azul: 15 (1/2 ×10, 2/1, 2/2 ×4); azul y verde: 8 (1/1 ×8); "
                      "amarillo y amarillo: 6 (2/2 ×6)"}
    for language, groups in expected.items():
        pdf = PdfReader(io.BytesIO(render_rulebook(d, language, "a4")))
        text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in pdf.pages))
        assert groups in text, language
        assert ("46 cards the definition lists" if language == "en" else "46 cartas que enumera la definición") in text
        assert "every pair" not in text and "todas las parejas" not in text  # the generated deck's words

"""Blockd decks as card lists (a CSV file the definition names, or [[cards.cards]] in the TOML),
read by the same loader code as Links' (tests/test_links_card_list.py)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from boardlab.analysis.blockd.engine import BlockdGame, random_deal
from boardlab.cli import main
from boardlab.layouts import load
from boardlab.printkit.games.blockd import blockd_cards


def csv_of_the_generated_deck(definition) -> list[str]:
    """The baseline deck written out card by card, as a designer would copy it into a spreadsheet."""
    rows = ["kind,colour,value,count"]
    for suit in definition.cards.suits:
        rows.append(f"start,{suit},,1")
        rows += [f"number,{suit},{value},1" for value in definition.cards.values]
    rows.append(f"blind,,,{definition.cards.blind}")
    return rows


def write_variant(tmp_path, rows: list[str], name: str = "blockd-listed", extra: str = "") -> str:
    (tmp_path / f"{name}.csv").write_text("\n".join(rows) + "\n")
    variant = tmp_path / f"{name}.toml"
    variant.write_text(f'extends = "blockd"\n{extra}\n[cards]\ncard_list = "{name}.csv"\n')
    return str(variant)


def run(capsys, *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_the_generated_deck_as_a_card_list_is_the_same_deck(tmp_path, capsys):
    base = load("blockd")
    variant = write_variant(tmp_path, csv_of_the_generated_deck(base))
    listed = load(variant)
    assert listed.cards.listed and not base.cards.listed and listed.cards.uniform
    for players in (2, 3, 4):
        a, b = BlockdGame(base, players), BlockdGame(listed, players)
        assert a.cards == b.cards and a.suits == b.suits and b.rotates_deal
    assert [c.name for c in blockd_cards(base)] == [c.name for c in blockd_cards(listed)]
    generated = json.loads(run(capsys, "tables", "blockd", "--format", "json"))
    listed_tables = json.loads(run(capsys, "tables", "blockd", "--format", "json", "--variant", variant))
    assert listed_tables.pop("variant") == "blockd-listed"  # every output names its variant
    assert listed_tables == generated
    args = ("--games", "12", "--workers", "1", "--players", "3")
    timing = re.compile(r"^run time: .*$", re.M)  # the one line that differs run to run
    baseline = timing.sub("", run(capsys, "simulate", "blockd", *args))
    from_list = timing.sub("", run(capsys, "simulate", "blockd", "--variant", variant, *args))
    assert from_list == baseline.replace("Blockd (baseline),", "Blockd (blockd-listed),", 1) != baseline


def test_added_cards_are_printed_and_dealt(tmp_path, capsys):
    base = load("blockd")
    added = ["# five more cards for a 5 x 6 grid", "number,red,3,2", "number,blue,2,1", "number,green,1,1",
             "number,yellow,4,1"]
    variant = write_variant(tmp_path, csv_of_the_generated_deck(base) + added, extra="[board]\ncolumns = 6\n")
    d = load(variant)
    assert d.card_count == 30 and not d.cards.uniform
    assert d.cards.numbers("red") == (1, 2, 3, 4, 5, 3, 3)
    listed = Counter()  # (suit, value) -> copies, straight from the CSV rows
    for row in csv_of_the_generated_deck(base)[1:] + added[1:]:
        kind, colour, value, count = row.split(",")
        listed[(colour, 0 if kind == "start" else -1 if kind == "blind" else int(value))] += int(count)
    names = Counter(c.name for c in blockd_cards(d))
    assert sum(names.values()) == 30 and names["red-3"] == 3 and names["blue-2"] == 2 and names["yellow-4"] == 2
    out = tmp_path / "out"
    assert main(["print", "blockd", "--variant", variant, "--out", str(out)]) == 0
    capsys.readouterr()
    from pypdf import PdfReader
    assert len(PdfReader(out / "blockd-cards-single.pdf").pages) == 2 * 30  # one face per page, front and back
    assert main(["rulebook", "blockd", "--variant", variant, "--out", str(out), "--lang", "en"]) == 0
    capsys.readouterr()
    text = "".join(page.extract_text() for page in PdfReader(out / "blockd-rulebook-en-a4.pdf").pages)
    said = " ".join(text.split())
    assert "25 number cards; by colour: red: 1, 2, 3, 3, 3, 4 and 5; blue: 1, 2, 2, 3, 4 and 5;" in said
    assert "30 cards" in said
    for players in (2, 4):
        game = BlockdGame(d, players)
        assert not game.rotates_deal  # the seats' suits differ: the runner rotates agents, not deals
        dealt = Counter((d.cards.suits[c.suit] if c.suit >= 0 else "", c.value)
                        for c in (game.cards[i] for i in random_deal(game, random.Random(players))))
        assert dealt == listed
    assert "blockd-listed" in run(capsys, "simulate", "blockd", "--variant", variant, "--games", "4", "--workers", "1")


def test_a_rotated_deal_keeps_every_copy(tmp_path):
    rows = csv_of_the_generated_deck(load("blockd"))
    rows = [r for r in rows if not r.startswith("blind")] + [f"number,{s},2,1" for s in ("red", "blue", "green", "yellow")]
    d = load(write_variant(tmp_path, rows, extra="[board]\nrows = 4\ncolumns = 7\n"))
    game = BlockdGame(d, 4)
    assert game.rotates_deal and d.cards.blind == 0
    deal = random_deal(game, random.Random(5))
    for rotation in range(4):
        turned = game.rotate_deal(deal, rotation)
        assert sorted(turned) == list(range(len(game.cards)))  # still every card once
        for cell, (was, now) in enumerate(zip(deal, turned)):
            a, b = game.cards[was], game.cards[now]
            assert a.value == b.value and b.suit == (a.suit - rotation) % 4


def test_the_toml_form_reads_like_the_csv(tmp_path):
    rows = csv_of_the_generated_deck(load("blockd"))[1:]
    toml = ['extends = "blockd"']
    for row in rows:
        kind, colour, value, count = row.split(",")
        toml += ["", "[[cards.cards]]", f'kind = "{kind}"', f"count = {count}"]
        toml += [f'colour = "{colour}"'] if colour else []
        toml += [f"value = {value}"] if value else []
    path = tmp_path / "blockd-toml-list.toml"
    path.write_text("\n".join(toml) + "\n")
    from_toml = BlockdGame(load(path), 4)
    from_csv = BlockdGame(load(write_variant(tmp_path, csv_of_the_generated_deck(load("blockd")))), 4)
    assert from_toml.cards == from_csv.cards and load(path).cards.listed


@pytest.mark.parametrize("row, said", [
    ("joker,,,1", 'cards.cards[25].kind: unknown value "joker"'),
    ("number,purple,2,1", 'cards.cards[25].colour: unknown colour "purple"'),
    ("number,red,,1", "cards.cards[25].value: a number card needs its value"),
    ("number,red,2,zero", "cards.cards[25].count: wrong type"),
    ("blind,red,,1", "cards.cards[25].colour: a blind card has no colour and no value"),
    ("start,blue,3,1", "cards.cards[25].value: a start card counts as 0 steps"),
    ("number,red,30,1", "cards.cards[25].value: 30 steps cannot fit on 25 cells"),
])
def test_a_bad_row_is_reported_at_its_file_and_line(tmp_path, capsys, row, said):
    rows = csv_of_the_generated_deck(load("blockd"))
    rows.insert(26, row)  # after the header and 25 rows: line 27 of the file
    variant = write_variant(tmp_path, rows)
    assert main(["check", variant]) == 2
    err = capsys.readouterr().err
    assert f"blockd-listed.csv:27: {said}" in err, err


def test_a_deck_that_misses_a_start_card_or_the_grid_is_refused(tmp_path, capsys):
    rows = [r for r in csv_of_the_generated_deck(load("blockd")) if r != "start,green,,1"]
    assert main(["check", write_variant(tmp_path, rows + ["number,green,1,1"])]) == 2
    assert "0 start cards of green in the card list" in capsys.readouterr().err
    rows = csv_of_the_generated_deck(load("blockd")) + ["number,red,1,1"]
    assert main(["check", write_variant(tmp_path, rows)]) == 2
    assert "26 cards for a 5 x 5 grid of 25 cells" in capsys.readouterr().err
    bad = write_variant(tmp_path, ["kind,colour,points", "number,red,1"])
    assert main(["check", bad]) == 2
    assert "blockd-listed.csv:1: cards.card_list: the header kind,colour,points is not a card list's" in capsys.readouterr().err


# -- boardlab export cards: a deck written out as the list it is -------------------------------
def exported(capsys, game: str, variant: str | None = None) -> str:
    return run(capsys, "export", "cards", game, *(["--variant", variant] if variant else []))


def test_the_exported_baseline_is_the_list_a_designer_would_write(capsys):
    assert exported(capsys, "blockd") == "\n".join(csv_of_the_generated_deck(load("blockd"))) + "\n"


@pytest.mark.parametrize("game, variant", [("blockd", None), ("links", None)] + [
    (name.split("-")[0], name) for name in ("blockd-flat", "blockd-pawns-stack", "links-master-match",
                                            "links-free-play")])
def test_an_exported_deck_read_back_is_the_same_deck(tmp_path, capsys, game, variant):
    from boardlab.analysis.links.cards import LinksDeck

    text = exported(capsys, game, variant)
    (tmp_path / "deck.csv").write_text(text)
    path = tmp_path / "listed.toml"
    section = "cards" if game == "blockd" else "deck"
    path.write_text(f'extends = "{variant or game}"\n\n[{section}]\ncard_list = "deck.csv"\n')
    original, listed = load(variant or game), load(path)
    if game == "blockd":
        assert listed.cards.listed and BlockdGame(listed, 4).cards == BlockdGame(original, 4).cards
    else:
        a, b = LinksDeck(original), LinksDeck(listed)
        assert listed.deck.listed and (a.kinds, a.full_copies, a.face_texts) == (b.kinds, b.full_copies, b.face_texts)
        assert [(m.name, m.value, m.count) for m in listed.deck.masters] == \
            [(m.name, m.value, m.count) for m in original.deck.masters]
        if original.rules.master_links == "match":
            assert [m.ends for m in listed.deck.masters] == [m.ends for m in original.deck.masters]
    assert exported(capsys, game, str(path)) == text  # a listed deck exports its own rows


def test_a_game_without_a_deck_says_so(capsys):
    assert main(["export", "cards", "sixbysix"]) == 2
    assert "sixbysix has no deck to list (games with one: blockd, links)" in capsys.readouterr().err

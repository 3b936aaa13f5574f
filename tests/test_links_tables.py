"""Links deck-count tables against brute-force enumeration of hands and against scipy."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from scipy.stats import hypergeom

from boardlab.analysis.links.cards import LinksDeck
from boardlab.analysis.links.tables import tables
from boardlab.analysis.tables import TableOptions
from boardlab.cli import main
from boardlab.layouts import load

SMALL = """extends = "links"

[deck]
end_colours = ["red", "blue", "green"]
end_points = [1, 2]
empty = 3
hand_size = 3
removed_empty = {2 = 1, 3 = 2, 4 = 0, 5 = 3, 6 = 1, 7 = 2, 8 = 0}

[[deck.masters]]
name = "ONE"
value = 1
count = 2
ends = [{colour = "red", points = 1}, {colour = "blue", points = 1}]

[[deck.masters]]
name = "THREE"
value = 3
count = 1
ends = [{colour = "red", points = 1}, {colour = "red", points = 1}]
"""

BIG = """extends = "links"

[colours.purple]
hex = "#6a1b9a"
letter = "P"
symbol = "hexagon"
label = "purple"

[colours.orange]
hex = "#ef6c00"
letter = "O"
symbol = "pentagon"
label = "orange"

[deck]
end_colours = ["red", "blue", "green", "yellow", "purple", "orange"]
end_points = [1, 2, 3]
copies = 2
empty = 7
removed_empty = {2 = 1, 3 = 2, 4 = 3, 5 = 4, 6 = 4, 7 = 6, 8 = 6}
"""


def variant(tmp_path: Path, text: str, name: str = "variant.toml"):
    path = tmp_path / name
    path.write_text(text)
    return load(path)


def physical_cards(deck: LinksDeck, players: int) -> list[int]:
    """One entry (the kind) per card shuffled for dealing, built from the definition directly."""
    d = deck.definition.deck
    cards = [kind for kind in deck.game_kinds for _ in range(d.copies)]
    cards += [deck.empty] * (d.empty - d.removed_empty[players])
    for master, kind in zip(d.masters, deck.master_kinds):
        cards += [kind] * master.count
    return cards


def brute_force(deck: LinksDeck, players: int) -> dict:
    """Every probability of one opening hand, by listing every hand of distinct physical cards."""
    cards = physical_cards(deck, players)
    hands = list(combinations(range(len(cards)), deck.hand_size))
    masters = set(deck.master_kinds)

    def share(test) -> Fraction:
        return Fraction(sum(1 for hand in hands if test([cards[i] for i in hand])), len(hands))

    out = {"p_master_in_hand": share(lambda h: any(k in masters for k in h)),
           "p_empty_in_hand": share(lambda h: deck.empty in h),
           "p_no_special_in_hand": share(lambda h: all(k in deck.game_kinds for k in h)),
           "p_each_master_in_hand": {name: share(lambda h, k=k: k in h)
                                     for name, k in zip(deck.master_names, deck.master_kinds)},
           "p_links_to_end": {deck.face_texts[f]: share(lambda h, f=f: any(deck.links_to(k, f) for k in h))
                              for f in range(len(deck.faces))}}
    return out


def as_fractions(value):
    if isinstance(value, dict):
        return {k: as_fractions(v) for k, v in value.items()}
    return Fraction(value)


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_small_deck_matches_brute_force_enumeration(tmp_path, players):
    definition = variant(tmp_path, SMALL)
    doc = tables(definition, TableOptions(players=players)).data["by_players"][str(players)]
    want = brute_force(LinksDeck(definition), players)
    for key, value in want.items():
        assert as_fractions(doc[key]) == value, key
    assert doc["deck"] == 21 + 3 - definition.deck.removed_empty[players] + 3


def test_match_masters_link_only_by_their_ends(tmp_path):
    definition = variant(tmp_path, SMALL + '\n[rules]\nmaster_links = "match"\n')
    doc = tables(definition, TableOptions(players=2)).data["by_players"]["2"]
    assert as_fractions(doc["p_links_to_end"]) == brute_force(LinksDeck(definition), 2)["p_links_to_end"]
    assert doc["p_links_to_end"]["R1"] != doc["p_links_to_end"]["B1"]  # THREE shows red at both ends


def test_default_deck_agrees_with_scipy_from_the_printed_counts():
    data = tables(load("links"), TableOptions()).data
    box = data["deck"]
    assert box == {"game": 36, "central": 1, "empty": 5, "ONE": 1, "TWO": 1, "THREE": 1, "FOUR": 1}
    for n, doc in data["by_players"].items():
        kinds = doc["kinds"]
        size = sum(kinds.values())
        assert size == doc["deck"] == doc["dealt"] + doc["draw_pile"] and doc["dealt"] == 4 * int(n)
        assert kinds["empty"] == box["empty"] - doc["removed"]
        masters = sum(kinds[m] for m in ("ONE", "TWO", "THREE", "FOUR"))
        p = Fraction(doc["p_master_in_hand"])
        assert float(p) == pytest.approx(hypergeom(size, masters, 4).sf(0), abs=1e-12)
        assert float(Fraction(doc["p_empty_in_hand"])) == pytest.approx(hypergeom(size, kinds["empty"], 4).sf(0),
                                                                        abs=1e-12)
        none = hypergeom(size, masters + kinds["empty"], 4).pmf(0)
        assert float(Fraction(doc["p_no_special_in_hand"])) == pytest.approx(none, abs=1e-12)
        for k, p in doc["specials_in_hand"].items():
            assert float(Fraction(p)) == pytest.approx(hypergeom(size, masters + kinds["empty"], 4).pmf(int(k)),
                                                       abs=1e-12)
        assert sum(Fraction(p) for p in doc["specials_in_hand"].values()) == 1
        # a face is on 8 game cards (7 others + its double); every wild card links too
        linking = 8 + masters + kinds["empty"]
        for p in doc["p_links_to_end"].values():
            assert float(Fraction(p)) == pytest.approx(hypergeom(size, linking, 4).sf(0), abs=1e-12)
        first, last = doc["draw_pile_over_time"][0], doc["draw_pile_over_time"][-1]
        assert Fraction(first["p_card_in_draw_pile"]) == Fraction(doc["draw_pile"], size)
        assert last["draw_pile"] == doc["draw_pile"] % int(n) or last["draw_pile"] < int(n)
    assert data["by_players"]["2"]["p_master_in_hand"] == "363/1066"  # 1 - C(38,4)/C(42,4)


def test_another_deck_changes_every_statistic_without_code(tmp_path):
    base = tables(load("links"), TableOptions()).data
    other = tables(variant(tmp_path, BIG), TableOptions()).data
    assert other["deck"]["game"] == 2 * (18 * 19 // 2)
    for n in base["by_players"]:
        a, b = base["by_players"][n], other["by_players"][n]
        for key in ("deck", "draw_pile", "turns_to_empty_deck", "p_master_in_hand", "p_empty_in_hand",
                    "p_no_special_in_hand", "specials_in_hand", "p_each_master_in_hand", "kinds"):
            assert a[key] != b[key], (n, key)
        assert set(b["p_links_to_end"]) == {f"{c}{p}" for c in "RBGYPO" for p in (1, 2, 3)}


def test_cli_json_with_and_without_players(capsys):
    assert main(["tables", "links", "--format", "json"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert sorted(full["by_players"], key=int) == [str(n) for n in range(2, 9)]
    assert main(["tables", "links", "--players", "5", "--format", "json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["by_players"] == {"5": full["by_players"]["5"]}
    for doc in full["by_players"].values():
        for key in ("p_master_in_hand", "p_empty_in_hand", "p_no_special_in_hand"):
            p = Fraction(doc[key])
            assert doc[key] == f"{p.numerator}/{p.denominator}"  # reduced
    assert main(["tables", "links", "--format", "csv"]) == 0
    assert "\nOne opening hand: exact chances" in capsys.readouterr().out
    assert main(["tables", "links", "--players", "9"]) == 2

"""`boardlab tables sixbysix` against brute force over every roll; board coverage from first principles."""

import csv
import io
import json
from fractions import Fraction

import pytest

from boardlab.analysis.sixbysix.board import allowed_numbers, board_check, coverage
from boardlab.cli import main
from boardlab.layouts import load

from sixbysix_helpers import brute_best_face, brute_face_values, brute_sums, with_rules

DEFINITION = load("sixbysix")
FACES = DEFINITION.dice.faces


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("players", range(2, 7))
def test_json_is_exact(capsys, players):
    code, out, _ = run_cli(capsys, "tables", "sixbysix", "--players", str(players), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"players", "sums"} and data["players"] == players
    expected = brute_sums(FACES, players)
    assert {int(s): Fraction(p) for s, p in data["sums"].items()} == expected
    for text in data["sums"].values():  # reduced fractions, written p/q
        p = Fraction(text)
        assert text == f"{p.numerator}/{p.denominator}"
    assert list(map(int, data["sums"])) == list(range(players, 6 * players + 1))


def test_json_without_players_holds_every_count(capsys):
    code, out, _ = run_cli(capsys, "tables", "sixbysix", "--format", "json")
    data = json.loads(out)
    assert code == 0 and sorted(data["by_players"], key=int) == [str(n) for n in range(2, 7)]
    for n, doc in data["by_players"].items():
        assert {int(s): Fraction(p) for s, p in doc["sums"].items()} == brute_sums(FACES, int(n))
    assert data["board"]["ok"] is True
    six = data["markers"]["6"]
    assert six["greedy_numbers"] == [21, 20, 22, 19, 23, 18]
    assert Fraction(six["fixed"][0]) == Fraction(4332, 46656)


def test_markdown_and_csv(capsys):
    code, md, _ = run_cli(capsys, "tables", "sixbysix", "--players", "6")
    assert code == 0
    assert "| 21 | 4332 | 361/3888 | 0.092850 |" in md
    assert "| 6 | 6..36 | 2..5 | none | 31..36 | yes |" in md
    code, csv_text, _ = run_cli(capsys, "tables", "sixbysix", "--players", "2", "--format", "csv")
    assert code == 0 and csv_text.startswith("table,row,column,value,exact,label\n")
    assert ("Sum of 2 dice,6,sum s,7,7,\nSum of 2 dice,6,ways of 36,6,6,\n"
            "Sum of 2 dice,6,P(exactly s),0.16666666666666666,1/6,\n") in csv_text


def test_cumulative_columns(capsys):
    _, out, _ = run_cli(capsys, "tables", "sixbysix", "--players", "3", "--format", "csv")
    rows: dict[str, dict[str, str]] = {}
    for cell in csv.DictReader(io.StringIO(out)):
        if cell["table"] == "Sum of 3 dice":
            rows.setdefault(cell["row"], {})[cell["column"]] = cell["exact"]
    assert len(rows) == 16
    expected = brute_sums(FACES, 3)
    below = Fraction(0)
    for row in rows.values():
        s = int(row["sum s"])
        assert Fraction(row["P(exactly s)"]) == expected[s]
        assert Fraction(row["P(at least s)"]) == 1 - below
        below += expected[s]
        assert Fraction(row["P(at most s)"]) == below
    assert below == 1 and row["P(at most s)"] == "1"  # "1", never "1/1"


def test_bad_player_count(capsys):
    code, out, err = run_cli(capsys, "tables", "sixbysix", "--players", "7", "--format", "json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_coverage_from_first_principles():
    cover = coverage(DEFINITION)
    rows = [set(int(t) for t in row.split() if t != DEFINITION.board.base) for row in DEFINITION.board.layout]
    for n in range(2, 7):
        sums = set(brute_sums(FACES, n))
        c = cover[n]
        assert set(c.can_win) == sums
        assert c.cannot_win_below == tuple(range(2, n))  # the spec: with 6 players 2..5 can never win
        assert c.cannot_win_above == tuple(range(6 * n + 1, 37))
        if n > 2:
            card = set(sums) - set(brute_sums(FACES, n - 1)) - set(range(2, n))
            assert set(c.covered_by_elimination) == card == set(range(6 * n - 5, 6 * n + 1))
            assert card in rows and c.card_fits and c.card_is_a_row
        else:
            assert c.covered_by_elimination == ()
    assert cover[6].cannot_win_below == (2, 3, 4, 5)
    assert board_check(DEFINITION).ok


def test_allowed_numbers_follow_covering():
    assert allowed_numbers(DEFINITION, 3) == tuple(range(2, 19))
    assert allowed_numbers(with_rules(DEFINITION, covering=False), 3) == tuple(range(2, 37))


def test_favourite_number_must_be_on_the_board(tmp_path, capsys):
    variant = tmp_path / "odd-favourite.toml"
    variant.write_text('extends = "sixbysix"\n\n[analysis]\nfavourite_number = 37\n')
    code, _, err = run_cli(capsys, "check", str(variant))
    assert code == 2 and "favourite_number" in err and len(err.strip().splitlines()) == 1


def test_face_values_are_exact_for_every_marker(capsys):
    """`tables sixbysix` gives every face's exact value per marker, equal to listing every roll."""
    code, out, _ = run_cli(capsys, "tables", "sixbysix", "--format", "json")
    assert code == 0
    faces = json.loads(out)["faces"]
    assert sorted(faces, key=int) == [str(n) for n in range(2, 7)]
    for players in (2, 3, 4):  # 5 and 6 by brute force would take too long for the fast suite
        by_marker = faces[str(players)]
        assert sorted(map(int, by_marker)) == list(allowed_numbers(DEFINITION, players))
        for marker, entry in by_marker.items():
            brute = brute_face_values(FACES, players, int(marker))
            assert {int(f): Fraction(v) for f, v in entry["values"].items()} == brute
            assert entry["best"] == brute_best_face(FACES, players, int(marker))
    # the spec's example: with 2 players, a 6 never wins on 6 and refunds together
    assert faces["2"]["6"] == {"values": {"1": "5/36", "2": "5/36", "3": "5/36", "4": "5/36", "5": "5/36",
                                          "6": "1/6"}, "best": 6}
    code, out, _ = run_cli(capsys, "tables", "sixbysix", "--players", "3")
    assert "| 3 | 10 | 4/27 | 31/216 | 5/36 | 31/216 | 4/27 | 11/72 | 6 |" in out  # by hand: 1/6 (1 - P(2 dice = 10 - f))

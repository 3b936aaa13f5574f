"""Table games: the CSV log, its checks, `boardlab playtests add|import|list|export|remove`, the store."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from boardlab.analysis.playtests import TableGame, read_log, write_log
from boardlab.analysis.store import ResultStore, definition_hash
from boardlab.cli import main
from boardlab.layouts import load
from boardlab.layouts.errors import DefinitionError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "playtests" / "sixbysix-log.csv"


def stored(path) -> list[TableGame]:
    with ResultStore(path) as store:
        return [game for _, game in store.playtests("sixbysix")]


def test_the_documented_example_reads_as_written():
    games = read_log(io.StringIO(EXAMPLE.read_text(encoding="utf-8")), str(EXAMPLE), "sixbysix")
    assert len(games) == 5
    first = games[0]
    # "Ana;Bruno;Carmen", Bruno started: seat 1 is Bruno, Carmen (the winner) seat 2
    assert first.seats == ("Bruno", "Carmen", "Ana") and first.winners == (1,)
    assert (first.length, first.unit, first.minutes) == (16, "rounds", 11.0)
    assert first.definition == definition_hash(load("sixbysix")) and first.variant == "baseline"
    assert games[3].variant == "sixbysix-house-bank"
    assert games[3].definition == definition_hash(load("sixbysix-house-bank"))
    assert games[2].notes == "Dani's first game; slow, explained the bets twice"
    # no winners column value: the highest score wins
    assert games[4].scores == (3.0, 0.0) and games[4].winners == (0,)


def test_import_list_export_round_trip(tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    assert main(["playtests", "import", "sixbysix", str(EXAMPLE), "--store", str(store)]) == 0
    assert "stored 5 games" in capsys.readouterr().out
    # the same log again (a spreadsheet re-exported with the old rows): nothing added
    assert main(["playtests", "import", "sixbysix", str(EXAMPLE), "--store", str(store)]) == 0
    assert "stored 0 games of sixbysix; 5 already stored" in capsys.readouterr().out
    assert len(stored(store)) == 5
    out = tmp_path / "out.csv"
    assert main(["playtests", "export", "sixbysix", "--store", str(store), "--out", str(out)]) == 0
    again = read_log(io.StringIO(out.read_text(encoding="utf-8")), str(out), "sixbysix")
    assert again == stored(store)
    other = tmp_path / "other.sqlite"
    assert main(["playtests", "import", "sixbysix", str(out), "--store", str(other)]) == 0
    assert stored(other) == stored(store)
    capsys.readouterr()
    assert main(["playtests", "list", "sixbysix", "--store", str(store)]) == 0
    listing = capsys.readouterr().out
    assert "Bruno, Carmen, Ana" in listing and "sixbysix-house-bank" in listing and "5 games of sixbysix" in listing
    assert "earlier rules" not in listing


def test_two_identical_rows_are_two_games(tmp_path):
    text = "date,players,seats,winners\n2026-11-28,2,A;B,A\n2026-11-28,2,A;B,A\n"
    log = tmp_path / "log.csv"
    log.write_text(text)
    store = tmp_path / "s.sqlite"
    assert main(["playtests", "import", "sixbysix", str(log), "--store", str(store)]) == 0
    assert main(["playtests", "import", "sixbysix", str(log), "--store", str(store)]) == 0
    assert len(stored(store)) == 2
    log.write_text(text + "2026-11-28,2,A;B,A\n")  # a third game played alike, logged later
    assert main(["playtests", "import", "sixbysix", str(log), "--store", str(store)]) == 0
    assert len(stored(store)) == 3


def test_add_with_flags_then_remove(tmp_path, capsys):
    store = tmp_path / "s.sqlite"
    assert main(["playtests", "add", "sixbysix", "--seats", "Ann,Bo,Cy", "--started", "Cy", "--winners", "Bo",
                 "--rounds", "14", "--minutes", "12.5", "--date", "2026-11-28", "--store", str(store)]) == 0
    [game] = stored(store)
    assert game.seats == ("Cy", "Ann", "Bo") and game.winners == (2,) and game.length == 14
    assert main(["playtests", "add", "sixbysix", "--seats", "Ann,Bo,Cy", "--started", "Cy", "--winners", "Bo",
                 "--rounds", "14", "--minutes", "12.5", "--date", "2026-11-28", "--store", str(store)]) == 0
    assert len(stored(store)) == 2  # the same game twice is two games
    capsys.readouterr()
    assert main(["playtests", "add", "sixbysix", "--seats", "Ann,Bo", "--winners", "Zed", "--turns", "3",
                 "--store", str(store)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == ["boardlab playtests add: --winners: 'Zed' is not at the table (seats: Ann, Bo)",
                   "boardlab playtests add: --turns: 6x6 is counted in rounds, not turns "
                   "(give the length in the column rounds)"]
    with ResultStore(store) as s:
        ident = s.playtests("sixbysix")[0][0]
    assert main(["playtests", "remove", "sixbysix", ident[:8], "--store", str(store)]) == 0
    assert len(stored(store)) == 1


BAD_ROWS = [
    ("date,variant,players,seats,winners,rounds,minutes\n"
     "2026-11-28,no-such,3,Ann;Bo;Cy,Bo,14,12\n"
     "2026-11-28,,3,Ann;Bo;Cy,Zed,14,12\n"
     "2026-11-28,,3,Ann;Bo;Cy,Bo,fourteen,12\n"
     "2026-11-28,,3,Ann;Bo;Cy,Bo,14,twelve\n"
     "2026-11-28,,3,Ann;Bo;Cy,Bo,14,12\n",
     ["LOG:2: variant: 'no-such' is not a variant of sixbysix (variants: sixbysix-house-bank, sixbysix-lead-fixed; "
      "empty for the game's own rules)",
      "LOG:3: winners: 'Zed' is not at the table (seats: Ann, Bo, Cy)",
      "LOG:4: rounds: 'fourteen' is not a whole number (rounds)",
      "LOG:5: minutes: 'twelve' is not a number (minutes at the table)"]),
    ("date,players,winners\n2026-11-28,2,A\n", ["LOG:1: seats: missing column (needed)"]),
    ("date,players,seats,rounds\n2026-11-28,2,A;B,3\n",
     ["LOG:1: winners: missing column: give winners, scores or ranking"]),
    ("date,players,seats,winner\n", ["LOG:1: winner: unknown column; did you mean winners? (columns: date, variant, "
                                     "players, seats, started, winners, scores, ranking, turns, rounds, minutes, "
                                     "notes, definition)",
                                     "LOG:1: winners: missing column: give winners, scores or ranking"]),
    ("date,players,seats,scores\n2026-02-30,3,A;B;A,1;2\n",
     ["LOG:2: date: '2026-02-30' is not a date YYYY-MM-DD",
      "LOG:2: seats: A named twice (give each seat its own name or label)"]),
    ("date,players,seats,scores\n2026-02-03,7,A;B,1;2\n2026-02-03,2,A;B,1\n",
     ["LOG:2: players: 7 is not between 2 and 6 (players of 6x6)",
      "LOG:3: scores: 1 scores for 2 seats (one per name of seats, in that order)"]),
    # a quoted note over two lines: the next row's line number is still right
    ('date,players,seats,winners,notes\n2026-02-03,2,A;B,A,"two\nlines"\n2026-02-03,2,A;B,C,\n',
     ["LOG:4: winners: 'C' is not at the table (seats: A, B)"]),
]


@pytest.mark.parametrize("text, lines", BAD_ROWS)
def test_every_problem_is_one_line_and_nothing_is_stored(tmp_path, capsys, text, lines):
    log = tmp_path / "log.csv"
    log.write_text(text)
    store = tmp_path / "s.sqlite"
    assert main(["playtests", "import", "sixbysix", str(log), "--store", str(store)]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [line.replace("LOG", str(log)) for line in lines]
    assert "Traceback" not in captured.err and captured.out == ""
    assert not store.exists() or stored(store) == []


def test_a_semicolon_separated_spreadsheet_file_reads_the_same():
    comma = "date,players,seats,winners,minutes\n2026-11-28,3,Ann;Bo;Cy,Bo,12.5\n"
    semicolon = 'date;players;seats;winners;minutes\n2026-11-28;3;"Ann;Bo;Cy";Bo;12,5\n'
    assert read_log(io.StringIO(comma), "a", "sixbysix") == read_log(io.StringIO(semicolon), "b", "sixbysix")


def test_games_of_earlier_rules_are_kept_and_marked(tmp_path, capsys):
    [game] = read_log(io.StringIO("date,players,seats,winners\n2026-11-28,2,A;B,A\n"), "x", "sixbysix")
    old = TableGame(**{**game.content(), "seats": game.seats, "winners": game.winners, "definition": "0" * 64})
    store = tmp_path / "s.sqlite"
    with ResultStore(store) as s:
        s.put_playtests([game, old])
    assert main(["playtests", "list", "sixbysix", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert out.count("earlier rules") == 2 and "1 played under earlier rules" in out  # the row and the note
    out_csv = io.StringIO()
    write_log(stored(store), out_csv)
    assert read_log(io.StringIO(out_csv.getvalue()), "x", "sixbysix")[1].definition == "0" * 64


def test_playtests_survive_a_store_moved_aside(tmp_path):
    store = tmp_path / "s.sqlite"
    [game] = read_log(io.StringIO("date,players,seats,winners\n2026-11-28,2,A;B,A\n"), "x", "sixbysix")
    with ResultStore(store) as s:
        s.put_playtests([game])
    db = sqlite3.connect(store)
    with db:
        db.execute("UPDATE meta SET value = '0.0.0' WHERE name = 'boardlab'")
    db.close()
    notes: list[str] = []
    with ResultStore(store, notice=notes.append) as s:
        assert [g for _, g in s.playtests("sixbysix")] == [game]
    assert any("moved to s.sqlite.old" in n for n in notes) and any("kept the 1 playtest game" in n for n in notes)

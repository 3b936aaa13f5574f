"""The commands added since the first hardening (sweep, tune, compare, export, card lists) and a
closed standard stream, against careless and hostile input: one line, exit status 2 (or the quiet
end of a closed pipe), no traceback, nothing written; and the card-list round trip.

Each case here failed before its fix (a traceback, a silent acceptance, a quoted outside file).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.layouts import game_ids, game_part, load
from boardlab.layouts.limits import MAX_CARD_LIST_BYTES, MAX_CARD_LIST_ROWS
from boardlab.layouts.loader import card_list_csv

from command_line import one_line_failure, run

ENTRY = "import sys; from boardlab.entry import main; sys.exit(main())"
HUGE = "9" * 5000


# -- a standard stream the command was started without ---------------------------------------------
def closed(redirect: str, *argv: str) -> subprocess.CompletedProcess:
    """The installed command run by a shell with `redirect` (`>&-` closes standard output)."""
    words = " ".join(f"'{a}'" for a in argv)
    return subprocess.run(["sh", "-c", f"exec '{sys.executable}' -c '{ENTRY}' {words} {redirect}"],
                          capture_output=True, text=True, timeout=300)


#: simulate --quiet: a set-up that takes more than a second on a loaded machine (Blockd's walk tables after
#: a change) says so on standard error; the one line under test is the closed output's
@pytest.mark.parametrize("argv", [["list"], ["--version"], ["simulate", "blockd", "--games", "8", "--workers", "1",
                                                          "--quiet"]])
def test_a_closed_standard_output_is_one_line_not_a_traceback(argv):
    done = closed(">&-", *argv)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "standard output is closed" in done.stderr, done.stderr


def test_a_closed_standard_input_reads_as_empty():
    done = closed("<&-", "moves", "blockd", "-")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_no_file_takes_the_number_of_a_closed_standard_output(tmp_path):
    """Else a print lands in that file (a results store, a PDF)."""
    script = ("import os, sys; from boardlab.entry import fill_closed_streams; fill_closed_streams(); "
              f"fd = os.open({str(tmp_path / 'f')!r}, os.O_CREAT | os.O_WRONLY); print(fd, file=sys.stderr)")
    done = subprocess.run(["sh", "-c", f"exec '{sys.executable}' -c \"{script}\" >&-"], capture_output=True, text=True)
    assert done.returncode == 0 and int(done.stderr) > 2, done.stderr


# -- sweep and tune: numbers bounded before any list is built ------------------------------------
SWEEP = ["--games", "10", "--workers", "1"]


@pytest.mark.parametrize("vary,words", [
    (f"rules.max_turns=1..{HUGE}", ["a bound of 5,000 digits"]),
    (f"rules.max_turns=1..100:{HUGE}", ["a bound of 5,000 digits"]),
    (f"rules.max_turns={HUGE}", ["a value of 5,000 characters"]),
    ("rules.max_turns=1..100000000000000", ["100,000,000,000,000 values, more than the 2,000"]),
    ("rules.max_turns=1..1000000000000000", ["a bound of 16 digits"]),
    ("rules.max_turns=" + ",".join(str(n) for n in range(1, 3002)), ["3,001 values"]),
    ("game.id=blockd2,blockd3", ["[game] keys say which game this is"]),
    ("game.min_players=2,3", ["[game] keys", "--players"]),
])
@pytest.mark.parametrize("command", ["sweep", "tune"])
def test_sweep_and_tune_refuse_huge_values_and_game_keys(tmp_path, capsys, command, vary, words):
    flag = ["--vary", vary] if command == "sweep" else ["--over", vary, "--goal", "minutes<=30"]
    code, out, err = run(capsys, command, "blockd", *flag, *SWEEP, "--store", str(tmp_path / "s.sqlite"))
    one_line_failure(code, out, err, *words)
    assert list(tmp_path.iterdir()) == []  # refused before the store is opened


@pytest.mark.parametrize("goal,words", [
    ("minutes<=1" + "0" * 400, ["beyond any value a metric takes"]),
    ("minutes>=2000000", ["beyond any value"]),
    ("draws<=150%", ["a share, from 0% to 100%"]),
    ("draws<=5", ["a share"]),
])
def test_tune_refuses_an_infinite_or_absurd_goal(tmp_path, capsys, goal, words):
    code, out, err = run(capsys, "tune", "blockd", "--goal", goal, "--over", "rules.max_turns=100,200", *SWEEP,
                         "--store", str(tmp_path / "s.sqlite"))
    one_line_failure(code, out, err, *words)


# -- card lists ------------------------------------------------------------------------------------
def card_list_section(definition) -> str:
    """The section of a definition that may name a card list."""
    return next(f.name for f in dataclasses.fields(definition) if hasattr(getattr(definition, f.name), "card_list"))


def games_with_card_lists() -> list[str]:
    return [g for g in game_ids() if hasattr(game_part(g, "definition"), "card_list")]


def card_list_variant(folder: Path, game: str, card_list: str, name: str = "v.toml") -> Path:
    path = folder / name
    path.write_text(f'extends = "{game}"\n\n[{card_list_section(load(game))}]\ncard_list = "{card_list}"\n')
    return path


def header(game: str) -> str:
    return card_list_csv(game_part(game, "definition").card_list(load(game))).splitlines()[0]


@pytest.mark.parametrize("game", games_with_card_lists())
@pytest.mark.parametrize("case,rows,words", [
    ("empty", "", ["no header and no card row"]),
    ("header only", "HEADER\n", ["a header and no card row"]),
    ("header and comments", "HEADER\n# nothing yet\n\n", ["a header and no card row"]),
    ("a NUL in a name", "HEADER\nsta\x00rt,1\n", [":2: ", "U+0000"]),
    ("an escape in a cell", "HEADER\nstart,\x1b[31m\n", [":2: ", "U+001B"]),
    ("a 5,000-digit count", f"HEADER\nstart,{HUGE}\n", [":2: ", "a whole number of 5,000 digits"]),
])
def test_a_bad_card_list_is_one_line_with_its_file_and_line(tmp_path, capsys, game, case, rows, words):
    (tmp_path / "deck.csv").write_text(rows.replace("HEADER", header(game)), encoding="utf-8")
    code, out, err = run(capsys, "check", str(card_list_variant(tmp_path, game, "deck.csv")))
    one_line_failure(code, out, err, "deck.csv", *words)


@pytest.mark.parametrize("game", games_with_card_lists())
def test_a_card_list_that_is_not_a_file_is_never_read(tmp_path, capsys, game):
    code, out, err = run(capsys, "check", str(card_list_variant(tmp_path, game, "/dev/zero")))
    one_line_failure(code, out, err, "/dev/zero is not a regular file")


def test_a_huge_card_list_is_refused_before_it_is_parsed(tmp_path, capsys):
    game = games_with_card_lists()[0]
    (tmp_path / "deck.csv").write_text(header(game) + "\n" + "x" * MAX_CARD_LIST_BYTES)
    code, out, err = run(capsys, "check", str(card_list_variant(tmp_path, game, "deck.csv")))
    one_line_failure(code, out, err, f"larger than {MAX_CARD_LIST_BYTES:,} bytes")
    (tmp_path / "deck.csv").write_text(header(game) + "\n" + "start\n" * (MAX_CARD_LIST_ROWS + 1))
    code, out, err = run(capsys, "check", str(card_list_variant(tmp_path, game, "deck.csv")))
    one_line_failure(code, out, err, f"more than {MAX_CARD_LIST_ROWS:,} rows", f"deck.csv:{MAX_CARD_LIST_ROWS + 2}:")


@pytest.mark.parametrize("game", games_with_card_lists())
def test_a_refusal_quotes_nothing_of_a_file_outside_the_definitions_folder(tmp_path, capsys, game):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:swordfish:/root:/bin/bash\n")
    inside = tmp_path / "project"
    inside.mkdir()
    code, out, err = run(capsys, "check", str(card_list_variant(inside, game, "../secret.txt")))
    one_line_failure(code, out, err, "secret.txt:1:", "not a card list's header")
    assert "swordfish" not in err and "/bin/bash" not in err
    secret.write_text(header(game) + "\nswordfish-kind\n")  # a header, then a row the schema refuses
    code, out, err = run(capsys, "check", str(card_list_variant(inside, game, "../secret.txt")))
    one_line_failure(code, out, err, "secret.txt:2:", "not shown")
    assert "swordfish" not in err
    # the same rows beside the definition: quoted, the designer needs to see them
    (inside / "deck.csv").write_text(secret.read_text())
    code, out, err = run(capsys, "check", str(card_list_variant(inside, game, "deck.csv")))
    one_line_failure(code, out, err, "deck.csv:2:", "swordfish")


@pytest.mark.parametrize("name", ["deck.csv", "passwd"])
def test_check_refuses_a_file_that_is_not_a_definition(tmp_path, capsys, name):
    path = tmp_path / name
    path.write_text("kind,count\nstart,1\n")
    code, out, err = run(capsys, "check", str(path))
    one_line_failure(code, out, err, "not a definition file")
    assert "TOML" not in err


# -- export and the round trip -----------------------------------------------------------------------
def test_an_exported_cell_never_runs_as_a_spreadsheet_formula_and_reads_back(tmp_path, capsys):
    links = next(g for g in games_with_card_lists() if "text" in header(g).split(","))
    exported = card_list_csv(game_part(links, "definition").card_list(load(links)))
    formulas = ['=HYPERLINK("http://evil.example","ok")', "+1+1", "-2-2", "@SUM(A1)"]
    lines = exported.splitlines()
    masters = [i for i, line in enumerate(lines) if line.startswith("master,")]
    for i, formula in zip(masters, formulas):  # the names of the masters, as a designer could write them
        lines[i] = lines[i].rsplit(",", 1)[0] + ',"' + formula.replace('"', '""') + '"'
    (tmp_path / "deck.csv").write_text("\n".join(lines) + "\n")
    variant = card_list_variant(tmp_path, links, "deck.csv")
    names = [row.text for row in game_part(links, "definition").card_list(load(variant)) if row.kind == "master"]
    assert names[:len(formulas)] == formulas[:len(masters)]
    code, out, err = run(capsys, "export", "cards", links, "--variant", str(variant))
    assert code == 0, err
    cells = [row[-1] for row in csv.reader(io.StringIO(out)) if row[0] == "master"]  # as a spreadsheet reads it
    assert cells[:len(formulas)] == ["'" + formula for formula in formulas]  # shown as text, not run
    (tmp_path / "again.csv").write_text(out)  # read back: the same names
    again = card_list_variant(tmp_path, links, "again.csv", "again.toml")
    assert [row.text for row in game_part(links, "definition").card_list(load(again)) if row.kind == "master"] == names


@pytest.mark.parametrize("game", games_with_card_lists())
def test_an_exported_deck_read_back_is_the_same_deck_and_its_report_runs(tmp_path, capsys, game):
    code, out, err = run(capsys, "export", "cards", game)
    assert code == 0, err
    (tmp_path / "deck.csv").write_text(out)
    variant = card_list_variant(tmp_path, game, "deck.csv")
    module = game_part(game, "definition")
    assert module.card_list(load(variant)) == module.card_list(load(game))
    low = load(game).game.min_players
    code, out, err = run(capsys, "report", game, "--variant", str(variant), "--players", str(low), "--games", "12",
                         "--skill-games", "2", "--skill-budget", "8", "--decision-games", "2", "--deals", "20",
                         "--workers", "1", "--store", str(tmp_path / "r.sqlite"), "--out", str(tmp_path / "out"),
                         "--lang", load(game).rulebook.languages[0])
    assert code == 0, err
    [written] = (tmp_path / "out").rglob("v.json")
    alternatives = json.loads(written.read_text())["data"]["by_players"][str(low)]["sensitivity"]["alternatives"]
    assert alternatives and [a for a in alternatives if "error" in a] == []  # every one played (Links' "match" too)


def test_a_rule_alternative_the_list_cannot_take_is_skipped_and_named(tmp_path):
    from boardlab.analysis.report.options import rule_alternatives, rule_problem, with_rule

    game = next(g for g in games_with_card_lists() if "ends" in header(g).split(","))
    rows = card_list_csv(game_part(game, "definition").card_list(load(game))).splitlines()
    without = [",".join(["master", ""] + line.split(",")[2:]) if line.startswith("master,") else line for line in rows]
    (tmp_path / "deck.csv").write_text("\n".join(without) + "\n")
    definition = load(card_list_variant(tmp_path, game, "deck.csv"))
    refused = [(option, value, rule_problem(with_rule(definition, option, value)))
               for option, value in rule_alternatives(definition)[0]]
    assert [(option, value) for option, value, problem in refused if problem] == [("master_links", "match")]
    assert "needs the ends of every master card" in next(p for _, _, p in refused if p)


# -- compare -------------------------------------------------------------------------------------------
def test_compare_plays_a_count_every_compared_definition_allows(tmp_path, capsys):
    game = next(g for g in game_ids("engine") if load(g).game.max_players > load(g).game.min_players)
    info = load(game).game
    fewer = tmp_path / "fewer.toml"
    fewer.write_text(f'extends = "{game}"\n\n[game]\nmax_players = {info.max_players - 1}\n')
    code, out, err = run(capsys, "compare", game, str(fewer), "--games", "8", "--workers", "1", "--json",
                         "--store", str(tmp_path / "s.sqlite"))
    assert code == 0, err
    assert json.loads(out)["players"] == info.max_players - 1
    code, out, err = run(capsys, "compare", game, str(fewer), "--players", str(info.max_players), "--games", "8",
                         "--store", str(tmp_path / "s.sqlite"))
    one_line_failure(code, out, err, "fewer", f"not {info.max_players}")

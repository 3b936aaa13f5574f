"""The command line: help everywhere, one-line errors with exit status 2, no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from boardlab.cli import COMMANDS, main
from boardlab.layouts import GAMES, load, variants_of


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "boardlab.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: boardlab {command}")


def test_version_and_top_level_help():
    result = run_cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("boardlab ")
    result = run_cli("--help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert command in result.stdout


@pytest.mark.parametrize("args", [
    ["frobnicate"],
    ["check", "--bogus"],
    ["simulate"],
    ["simulate", "blockd", "--games", "-3"],
    ["simulate", "blockd", "--seed", "x"],
    ["simulate", "chess"],
    ["tables", "chess"],
    ["tables", "blockd", "--format", "xml"],
])
def test_usage_mistakes_are_one_line_and_status_2(args):
    result = run_cli(*args)
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_list_names_every_game_and_variant(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for game in GAMES:
        assert load(game).game.name in out
        for variant in variants_of(game):
            assert variant in out


def test_no_arguments_is_one_line_on_stderr_naming_the_commands(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"boardlab: give a command: {', '.join(COMMANDS)} (see boardlab --help)\n"


def test_an_absurdly_nested_position_is_refused_in_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000)
    assert main(["moves", "blockd", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"boardlab moves: {path}: nested too deeply to be a position"


def test_simulate_says_when_no_game_finished(tmp_path, capsys):
    variant = tmp_path / "cap.toml"
    variant.write_text('extends = "blockd"\n[rules]\nmax_turns = 3\n')
    assert main(["simulate", "blockd", "--variant", str(variant), "--games", "8", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "unfinished (stopped by the definition's turn or round cap): 8 (100.0%)" in out
    assert "game length in turns (every player's moves counted, one move = one turn): no game finished" in out
    assert "unfinished games: 8, stopped after rules.max_turns = 3 turns" in out

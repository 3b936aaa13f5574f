"""The command line: help everywhere, one-line errors with exit status 2, no traceback."""

from __future__ import annotations

import json
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


def test_python_dash_m_boardlab_is_the_command():
    result = subprocess.run([sys.executable, "-m", "boardlab", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("boardlab ")
    result = subprocess.run([sys.executable, "-m", "boardlab", "simulate", "chess"], capture_output=True, text=True)
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "chess" in result.stderr


def test_simulate_plays_the_definitions_model_of_the_players_by_default(capsys):
    """Without --agents, simulate plays `analysis.agent` (greedy for 6x6), as compare and report do."""
    assert load("sixbysix").analysis.agent == "greedy"
    base = ["simulate", "sixbysix", "--players", "3", "--games", "6", "--seed", "2", "--workers", "1", "--json"]
    assert main(base) == 0
    default = json.loads(capsys.readouterr().out)
    assert main([*base, "--agents", "greedy"]) == 0
    greedy = json.loads(capsys.readouterr().out)
    assert default["agents"] == ["greedy"] * 3
    for summary in (default, greedy):
        summary.pop("seconds")
    assert default == greedy
    assert main(base[:-1]) == 0
    assert "agents: greedy in every seat" in capsys.readouterr().out
    assert main(["simulate", "blockd", "--games", "2", "--workers", "1", "--json"]) == 0  # no analysis.agent
    assert set(json.loads(capsys.readouterr().out)["agents"]) == {"random"}


def test_simulate_speed_in_the_unit_it_reaches():
    from boardlab.commands.simulate import speed

    assert speed(1000, 2.0) == "500 games per second"
    assert speed(10, 38.0) == "3.8 s a game"
    assert speed(5, 2.0) == "2.5 games per second"


def test_compare_shows_length_in_minutes_with_median_and_90th_percentile(tmp_path, capsys):
    store = str(tmp_path / "r.sqlite")
    args = ["compare", "sixbysix", "sixbysix-lead-fixed", "--players", "2", "--games", "20", "--workers", "1",
            "--store", store]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "greedy in every seat" in out
    assert main([*args, "--json"]) == 0
    length = json.loads(capsys.readouterr().out)["comparisons"][0]["length"]
    seconds = load("sixbysix").analysis.seconds_per_round
    for side in ("baseline", "variant"):
        for key in ("mean", "median", "p90"):
            assert length[side]["minutes"][key] == round(length[side][key] * seconds / 60, 2)
    b, v = length["baseline"], length["variant"]
    for key, label in (("median", "median"), ("p90", "90th percentile")):
        diff = v["minutes"][key] - b["minutes"][key]
        row = (f"| {label} (table minutes) | {b['minutes'][key]:,.1f} | {v['minutes'][key]:,.1f} | {diff:+,.1f} |")
        assert row in out
    mean = [line for line in out.splitlines() if line.startswith("| mean length (rounds) |")][0]
    assert mean.split("|")[4].strip()[0] in "+-"  # a difference always carries its sign


def test_a_stop_that_a_library_turns_into_its_own_error_still_ends_as_a_stop(monkeypatch, capsys):
    """reportlab, interrupted by Ctrl-C while it opens a font, raises "Cannot open resource"
    instead: the command ends interrupted (130, one line), not as an output error (2)."""
    import signal

    from boardlab import cli
    from boardlab.common import stopping

    def library_swallows_the_stop():
        try:
            stopping._stop(signal.SIGINT, None)
        except KeyboardInterrupt:
            raise OSError("Cannot open resource 'Vera.ttf'") from None

    monkeypatch.setattr(stopping, "_raised", [])
    monkeypatch.setattr(cli, "check_environment", library_swallows_the_stop)
    assert cli.main(["list"]) == 130
    assert capsys.readouterr().err == "boardlab: interrupted\n"
    monkeypatch.setattr(stopping, "_raised", [])
    monkeypatch.setattr(cli, "check_environment", lambda: (_ for _ in ()).throw(OSError("Cannot open resource")))
    assert cli.main(["list"]) == 2  # without a signal, the same error is the output's
    assert "cannot write the output: Cannot open resource" in capsys.readouterr().err

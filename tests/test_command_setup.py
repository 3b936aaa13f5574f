"""The setup every command shares: one argument set for the game, one store-and-backend context."""

from __future__ import annotations

import argparse
import ast
import sqlite3
from pathlib import Path

import pytest

from boardlab import arguments
from boardlab.cli import COMMANDS, build_parser

COMMANDS_DIR = Path(arguments.__file__).parent / "commands"


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's own parser, with its full arguments."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: sub.choices[name] for name in COMMANDS}


def options_of(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {option: action for action in parser._actions for option in action.option_strings}


def test_every_variant_option_says_the_same():
    with_variant = {name: options_of(p)["--variant"] for name, p in command_parsers().items()
                    if "--variant" in options_of(p)}
    assert {"simulate", "report", "sweep", "tune", "skill", "print", "rulebook", "play", "watch"} <= set(with_variant)
    assert {action.help for action in with_variant.values()} == {arguments.VARIANT_HELP}


def test_every_command_playing_games_takes_the_same_store_and_backend_arguments():
    expected = {"--store", "--workers", "--cluster", "--cluster-timeout"}
    for name in ("report", "compare", "sweep", "tune", "skill"):
        options = options_of(command_parsers()[name])
        assert expected <= set(options), name
        assert options["--store"].default == command_parsers()["report"]._option_string_actions["--store"].default


def test_no_command_defines_the_game_or_store_arguments_itself():
    """The game positional, --variant and --store come from boardlab.arguments only (export's sub-commands
    name their own games, those with an export)."""
    for path in sorted(COMMANDS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and first.value in ("--variant", "--store", "game"):
                    assert path.name == "export.py", f"{path.name}:{node.lineno} adds {first.value} itself"
            if isinstance(node, ast.ImportFrom) and node.module == "boardlab.commands.report":
                assert "add_store_arguments" not in [a.name for a in node.names], path.name


class RecordingBackend:
    closed = False

    def close(self) -> None:
        self.closed = True


def test_the_store_and_the_backend_are_closed_when_the_work_fails(tmp_path, monkeypatch):
    from boardlab.analysis import runner

    made = []
    monkeypatch.setattr(runner, "backend_for", lambda *a: made.append(RecordingBackend()) or made[-1])
    args = argparse.Namespace(store=str(tmp_path / "results.sqlite"), cluster=None, workers=1, cluster_timeout=10)
    with pytest.raises(RuntimeError, match="inside"):
        with arguments.store_and_backend(args) as (store, backend):
            assert backend is made[0] and not backend.closed
            raise RuntimeError("inside")
    assert made[0].closed
    with pytest.raises(sqlite3.ProgrammingError):  # a closed connection
        store.db.execute("SELECT 1")


def test_a_store_that_cannot_be_opened_starts_no_backend(tmp_path, monkeypatch):
    from boardlab.analysis import runner
    from boardlab.layouts import BoardlabError

    made = []
    monkeypatch.setattr(runner, "backend_for", lambda *a: made.append(RecordingBackend()) or made[-1])
    not_a_store = tmp_path / "results.sqlite"
    not_a_store.write_text("this is not SQLite\n" * 100)
    args = argparse.Namespace(store=str(not_a_store), cluster=None, workers=1, cluster_timeout=10)
    with pytest.raises(BoardlabError, match="not a usable results store"):
        with arguments.store_and_backend(args):
            pass
    assert made == []

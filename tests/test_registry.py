"""The game registry: the one list of games, its lookups, and a game added from outside
(tests/toygame) through `register_game` and through the `boardlab.games` entry point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.layouts import BoardlabError, game_entry, game_ids, game_part, load, register_game, registry

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture
def toygame():
    from toygame.registration import GAME

    register_game(GAME)
    yield GAME
    registry.unregister_game(GAME.id)


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


#: what each part's module must provide (the registry's docstring)
CONTRACT = {"definition": ("Definition", "check"), "engine": ("make_game", "AGENTS"), "moves": ("moves",),
            "tables": ("tables", "exact_tables"), "print": ("print_files",)}


def test_every_part_module_exists_is_installed_and_keeps_its_contract():
    assert set(CONTRACT) == set(registry.PARTS)
    for entry in registry.BUILT_IN:
        for part in registry.PARTS:
            if entry.has(part):
                module = game_part(entry.id, part)
                # installed: setup.py finds every folder with an __init__.py under the mapped folders
                assert Path(module.__file__).with_name("__init__.py").is_file(), (entry.id, part)
                assert all(hasattr(module, name) for name in CONTRACT[part]), (entry.id, part)
        assert entry.definition_path().is_file()
        assert load(entry.id).game.id == entry.id


def test_no_other_file_lists_the_games():
    """The Makefile asks `boardlab list --ids`; no code outside the registry spells the game ids as a list."""
    makefile = (ROOT / "Makefile").read_text()
    assert "list --ids" in makefile
    assert not re.search(r"blockd\s+sixbysix", makefile)
    ids = game_ids()
    for folder in ("analysis", "boardlab", "layouts", "printkit"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "registry.py":
                continue
            text = path.read_text()
            mentioned = [game_id for game_id in ids if re.search(rf'"{game_id}":\s*"boardlab\.', text)]
            assert not mentioned, f"{path} maps game ids to modules: {mentioned}"


def test_list_ids_is_the_registry(capsys):
    code, out, _ = run(["list", "--ids"], capsys)
    assert code == 0 and tuple(out.split()) == game_ids()


def test_lookups_say_what_is_missing(monkeypatch):
    with pytest.raises(BoardlabError, match="unknown game 'chess'"):
        game_entry("chess")
    without_tables = [game_id for game_id in game_ids() if not game_entry(game_id).has("tables")]
    if without_tables:
        with pytest.raises(BoardlabError, match="no tables for this game yet"):
            game_part(without_tables[0], "tables")
    monkeypatch.setattr(registry, "BUILT_IN", tuple(
        registry.GameEntry(e.id, e.definition, engine="boardlab.analysis.not_written_yet") if e.id == "blockd" else e
        for e in registry.BUILT_IN))
    with pytest.raises(BoardlabError, match="not available yet"):
        game_part("blockd", "engine")


def test_a_game_cannot_be_registered_twice(toygame):
    with pytest.raises(BoardlabError, match="already registered"):
        register_game(registry.GameEntry("blockd", "toygame.definition"))


def test_the_test_game_runs_end_to_end(toygame, tmp_path, capsys):
    """check, simulate, print and list on a game that boardlab itself does not contain."""
    assert "toygame" in game_ids("engine") and "toygame" in game_ids("print")
    code, out, err = run(["check", "toygame"], capsys)
    assert code == 0 and "ok (Pile, 2 to 3 players)" in out, err
    code, out, err = run(["simulate", "toygame", "--games", "60", "--seed", "2", "--workers", "1", "--json"], capsys)
    summary = json.loads(out)
    assert code == 0 and summary["game"] == "toygame" and summary["games"] == 60
    assert sum(summary["wins_by_seat"]) + summary["draws"] + summary["unfinished"] == 60
    assert sum(summary["toygame"]["start_piles"].values()) == 60  # the game's own figures under its id
    from boardlab.analysis.engines import make_game
    from boardlab.layouts.terms import speaking
    with speaking("es"):  # its own text in the language being written, from its own table
        spanish = make_game(load("toygame"), 2).describe_summary({"start_piles": {"3": 12345, "4": 2}})
    assert spanish == "montones al empezar: 3: 12\u00a0345; 4: 2"
    code, out, err = run(["simulate", "toygame", "--games", "10", "--workers", "1"], capsys)
    assert code == 0 and "start piles:" in out
    code, out, err = run(["print", "toygame", "--out", str(tmp_path)], capsys)
    assert code == 0 and (tmp_path / "toygame-counters-a4.pdf").read_bytes().startswith(b"%PDF")
    code, out, err = run(["list"], capsys)
    assert "toygame" in out and "Pile" in out
    code, out, err = run(["tables", "toygame"], capsys)
    assert code == 2 and err.count("\n") == 1 and "toygame: no tables for this game yet (games with one: " in err


def test_a_package_adds_a_game_through_the_entry_point(tmp_path):
    """A distribution on the path whose entry point names tests/toygame's registration."""
    info = tmp_path / "toygame-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toygame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[boardlab.games]\ntoygame = toygame.registration:GAME\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(TESTS)])}
    script = ("import sys; from boardlab.cli import main; "
              "sys.exit(main(['list', '--ids']) or main(['simulate', 'toygame', '--games', '5', '--workers', '1', '--json']))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:len(game_ids()) + 1] == [*game_ids(), "toygame"]
    assert json.loads("\n".join(lines[len(game_ids()) + 1:]))["games"] == 5


def test_a_broken_entry_point_is_one_line(tmp_path):
    info = tmp_path / "broken-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[boardlab.games]\nbroken = no_such_module:GAME\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "list"], capture_output=True, text=True, env=env)
    # said once, by name; the other games still work (before, one broken plugin broke every command)
    assert done.returncode == 0 and done.stderr.count("\n") == 1, done.stderr
    assert "game plugin 'broken' (no_such_module:GAME) cannot be loaded" in done.stderr
    assert "it is left out" in done.stderr and "blockd (Blockd)" in done.stdout
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "simulate", "blockd", "--games", "4", "--workers", "1"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0 and done.stderr.count("\n") == 1 and "'broken'" in done.stderr


def broken_toygame(tmp_path, definition_extra: str = "", drop_agents: bool = False) -> dict:
    """tests/toygame copied into tmp_path and damaged, installed through its entry point: the
    environment to run boardlab with."""
    import shutil

    package = tmp_path / "toygame"
    shutil.copytree(TESTS / "toygame", package)
    if definition_extra:
        toml = package / "toygame.toml"
        toml.write_text(toml.read_text().replace("minutes = 2\n", "minutes = 2\n" + definition_extra, 1))
    if drop_agents:
        engine = package / "engine.py"
        engine.write_text(engine.read_text().replace("AGENTS: dict = {}\n", "", 1))
    info = tmp_path / "toygame-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toygame\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[boardlab.games]\ntoygame = toygame.registration:GAME\n")
    return {**os.environ, "PYTHONPATH": str(tmp_path)}


def test_a_plugin_whose_definition_is_broken_is_said_by_name_and_the_rest_is_listed(tmp_path):
    env = broken_toygame(tmp_path, definition_extra="colour_of_the_box = 3\n")
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "list"], capture_output=True, text=True, env=env,
                          cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("boardlab list: toygame: ") and "game.colour_of_the_box: unknown key" in done.stderr
    assert "blockd (Blockd)" in done.stdout and "deblockle (Deblockle)" in done.stdout
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "simulate", "blockd", "--games", "4", "--workers", "1"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""


def test_a_plugin_engine_without_agents_is_one_line(tmp_path):
    env = broken_toygame(tmp_path, drop_agents=True)
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "simulate", "--help"], capture_output=True, text=True,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0 and "toygame: (toygame: its engine offers no agents" in done.stdout, done.stderr
    done = subprocess.run([sys.executable, "-m", "boardlab.cli", "simulate", "toygame", "--games", "4"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "offers no agents" in done.stderr, done.stderr


def test_skill_ladder_comes_from_the_engines_own_agents(toygame, monkeypatch):
    """The report's skill trace climbs the engine's ladder (`Game.skill_ladder`): greedy and MCTS when
    it has them, else its own agents in the order it lists them; random alone for an engine with no other."""
    from boardlab.analysis import engines
    import toygame.engine as toy
    for game_id in game_ids("engine"):
        game = engines.make_game(load(game_id), load(game_id).game.min_players)
        known = engines.agent_factories(game_id)
        assert all(a in known for a in game.skill_ladder(64)), game_id
    game = engines.make_game(load("toygame"), 2)
    assert game.skill_ladder(64) == ["random"] and game.report_extras(1) == ([], {})
    monkeypatch.setattr(toy, "AGENTS", {"takes-one": lambda g: None, "takes-two": lambda g: None})
    assert game.skill_ladder(64) == ["random", "takes-one", "takes-two"]
    monkeypatch.setattr(toy, "AGENTS", {"greedy": lambda g: None, "takes-one": lambda g: None})
    assert game.skill_ladder(64) == ["random", "greedy"]

"""`boardlab new-game`: the skeleton works as written.  A new game is made in a temporary
folder, registered through the `boardlab.games` entry point as a designer's package would be,
and the conformance suite (tests/test_conformance.py, unchanged) and the commands run on it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.analysis.report.budgeted import SHARES
from boardlab import newgame
from boardlab.cli import main
import boardlab.layouts.registry as registry

ROOT = Path(__file__).resolve().parent.parent
#: the new game's id: the first of these words no registered game has (a game the designer added,
#: `boardlab new-game tandem` say, takes none of the names the tests write)
NAME = next(word for word in ("sixth", "seventh", "eighth", "ninth", "tenth") if word not in registry.game_ids())


#: the rules of Nim (a pile of `rules.track` stones; take 1 to `rules.step`; whoever takes the
#: last stone wins) written into the skeleton's engine.py, as a designer would: the only edit
NIM_ENGINE = '''"""Nim: one pile of `rules.track` stones; in turn each player takes 1 to `rules.step`; whoever
takes the last stone wins.  A die decides who starts."""

from __future__ import annotations

from fractions import Fraction

from boardlab.analysis.agents import AgentTable, OnePlyAgent, RandomAgent
from boardlab.analysis.mcts import MCTSAgent
from boardlab.analysis.protocol import CHANCE, TERMINAL, Game, IllegalMoveError, State


class NimGame(Game):
    def new_initial_state(self) -> "NimState":
        return NimState(self)


class NimState(State):
    def __init__(self, game: NimGame):
        self.game = game
        self.pile = game.definition.rules.track
        self.mover = CHANCE
        self.turns = 0
        self.won: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"NimState(pile={self.pile}, mover={self.mover})"

    @property
    def players(self) -> int:
        return self.game.players

    def current_player(self) -> int:
        return self.mover

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        return [(seat, Fraction(1, self.players)) for seat in range(self.players)] if self.mover == CHANCE else []

    def legal_moves(self) -> list[int]:
        return [] if self.mover < 0 else list(range(1, min(self.game.definition.rules.step, self.pile) + 1))

    def apply(self, move) -> None:
        if self.mover == CHANCE:
            if type(move) is not int or move not in range(self.players):
                raise IllegalMoveError(f"{move!r} is not a seat to start")
            self.mover = move
            return
        if type(move) is not int or move not in self.legal_moves():
            raise IllegalMoveError(f"cannot take {move!r} from {self.pile}")
        self.pile -= move
        self.turns += 1
        if self.pile == 0:
            self.won, self.mover = (self.mover,), TERMINAL
        else:
            self.mover = (self.mover + 1) % self.players

    def clone(self) -> "NimState":
        other = NimState.__new__(NimState)
        other.__dict__.update(self.__dict__)
        return other

    def winners(self) -> tuple[int, ...]:
        return self.won

    def length(self) -> int:
        return self.turns


class Greedy(OnePlyAgent):
    """Leaves a multiple of step + 1 stones when it can (the winning reply in two-player Nim)."""

    name = "greedy"

    @staticmethod
    def value(after: NimState, seat: int) -> float:
        return 1.0 if after.pile % (after.game.definition.rules.step + 1) == 0 else 0.0


def make_game(definition, players: int) -> NimGame:
    return NimGame(definition, players)


def _mcts(iterations: int):
    return lambda game: MCTSAgent(iterations, RandomAgent(), name=f"mcts-{iterations}")


AGENTS = AgentTable({"greedy": lambda game: Greedy()}, families={"mcts": _mcts})
'''


@pytest.fixture(scope="module", params=["as written", "with the rules of nim"])
def package(request, tmp_path_factory):
    """The skeleton as a package of its own in a temporary folder, with an entry point naming it;
    as written, or with Nim's rules in its engine file (the only file edited)."""
    into = tmp_path_factory.mktemp("newgame")
    assert main(["new-game", NAME, "--into", str(into)]) == 0
    if request.param != "as written":
        (into / NAME / "engine.py").write_text(NIM_ENGINE)
    info = into / f"{NAME}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {NAME}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[boardlab.games]\n{NAME} = {NAME}.registration:GAME\n")
    return into


def run(into: Path, *argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(into)}
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, cwd=cwd)


def test_the_skeleton_is_one_folder(package):
    folder = package / NAME
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["__init__.py", "definition.py", "engine.py", "printing.py", "registration.py", f"{NAME}.toml",
         f"{NAME}.en.md", f"{NAME}.es.md"])
    assert not re.search(r"@[A-Z]+@", "".join(p.read_text() for p in folder.iterdir()))  # every placeholder filled


def test_the_conformance_suite_passes_on_a_new_game(package):
    done = run(package, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=--import-mode=importlib",
               "tests/test_conformance.py", "-k", NAME)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    # both player counts of every protocol test (a skip: a capability the skeleton does not declare)
    assert passed and int(passed.group(1)) >= 6 and "failed" not in done.stdout, done.stdout


def test_every_command_handles_a_new_game(package, tmp_path):
    script = ("import sys; from boardlab.cli import main; sys.exit(main(sys.argv[1:]))")
    out = str(tmp_path)
    for argv in (["list", "--ids"], ["check", NAME], ["simulate", NAME, "--games", "40", "--workers", "1", "--json"],
                 ["print", NAME, "--out", out], ["rulebook", NAME, "--out", out],
                 ["report", NAME, "--games", "24", "--skill-games", "4", "--skill-budget", "16", "--decision-games",
                  "4", "--workers", "1", "--store", str(tmp_path / "r.sqlite"), "--out", out]):
        done = run(package, "-c", script, *argv, cwd=tmp_path)
        assert done.returncode == 0, (argv, done.stderr[-2000:])
        if argv[0] == "list":
            assert NAME in done.stdout.split()
        if argv[0] == "simulate":
            assert json.loads(done.stdout)["games"] == 40
    written = {p.name for p in tmp_path.iterdir()}
    assert {f"{NAME}-cover-a4.pdf", f"{NAME}-cards-a4.pdf", f"{NAME}-rulebook-en-a4.pdf",
            f"{NAME}-rulebook-es-a4.pdf", f"{NAME}.json", f"{NAME}.pdf"} <= written
    report = json.loads((tmp_path / f"{NAME}.json").read_text())
    assert set(report["data"]["by_players"]) == {"2", "3", "4"}


def test_in_the_source_tree_it_is_one_folder_in_games_that_registers_itself(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "layouts").mkdir()
    old_mask = os.umask(0o022)
    try:
        folder = newgame.write_in_tree(NAME, tmp_path)
    finally:
        os.umask(old_mask)
    assert folder == tmp_path / "games" / NAME and (folder / "engine.py").is_file()
    assert sorted(p.name for p in tmp_path.rglob("*") if folder not in p.parents and p != folder) == ["games", "layouts"]
    assert folder.stat().st_mode & 0o777 == 0o755  # what mkdir gives under umask 022, not mkdtemp's 700
    assert {p.stat().st_mode & 0o777 for p in folder.iterdir()} == {0o644}
    entry = registry.folder_games(tmp_path / "games", "boardlab.games")[NAME]
    assert (entry.id, entry.definition, entry.engine, entry.print, entry.definition_file) == \
        (NAME, f"boardlab.games.{NAME}.definition", f"boardlab.games.{NAME}.engine",
         f"boardlab.games.{NAME}.printing", f"{NAME}.toml")
    assert f"from boardlab.games.{NAME}" not in (folder / "engine.py").read_text()  # imports boardlab only


def test_a_game_in_games_is_found_by_every_command_with_no_other_file_changed(tmp_path):
    """The registry reads the folders of the package boardlab.games (a second folder of it here, so that
    the source tree is not touched): the game is listed, checked and played."""
    games = tmp_path / "games"
    games.mkdir()
    newgame.write_in_tree(NAME, tmp_path)
    script = ("import sys, boardlab.games; boardlab.games.__path__.append(sys.argv[1]); "
              "from boardlab.cli import main; sys.exit(main(sys.argv[2:]))")
    for argv in (["list", "--ids"], ["check", NAME], ["simulate", NAME, "--games", "20", "--workers", "1", "--json"]):
        done = run(tmp_path, "-c", script, str(games), *argv, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == "", (argv, done.stderr[-2000:])
        if argv[0] == "list":
            assert done.stdout.split() == [*registry.game_ids(), NAME]
        if argv[0] == "simulate":
            assert json.loads(done.stdout)["games"] == 20


#: the tests that read every game of the registry and the game's own files, with what they need
#: of a game as written (its languages, its rulebook texts, its print files, its reports)
EVERY_GAME_TESTS = ("tests/test_languages.py", "tests/test_rulebook.py", "tests/test_rulebook_seed_rules.py",
                    "tests/test_game_ids.py", "tests/test_print_cards.py", "tests/test_definitions.py")


def test_the_language_rulebook_and_report_tests_pass_on_a_new_game_as_written(tmp_path):
    """`boardlab new-game NAME` then the tests: the game in games/ (a second folder of boardlab.games
    here) passes every test that reads the registry, its Spanish report included, with no file outside
    its folder changed."""
    (tmp_path / "games").mkdir()
    newgame.write_in_tree(NAME, tmp_path)
    script = ("import sys, boardlab.games; boardlab.games.__path__.append(sys.argv[1]); import pytest; "
              "sys.exit(pytest.main(sys.argv[2:]))")
    done = run(tmp_path, "-c", script, str(tmp_path / "games"), "-q", "-p", "no:cacheprovider", "-o",
               "addopts=--import-mode=importlib", "-m", "not slow", *EVERY_GAME_TESTS, "-k", NAME)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = re.search(r"(\d+) passed", done.stdout)
    assert passed and int(passed.group(1)) >= 10 and "failed" not in done.stdout, done.stdout[-2000:]


def test_a_broken_registration_is_left_out_in_one_line_and_the_other_games_stay(tmp_path, capsys):
    games = tmp_path / "games"
    games.mkdir()
    newgame.write_in_tree(NAME, tmp_path)
    for name, text in {"broken": "definition = [unclosed\n", "outside": 'definition = "os.path"\n',
                       "odd": 'definition = "boardlab.games.odd.definition"\nrules = "x"\n',
                       "Bad": 'definition = "boardlab.games.Bad.definition"\n'}.items():
        (games / name).mkdir()
        (games / name / registry.REGISTRATION_FILE).write_text(text)
    found = registry.folder_games(games, "boardlab.games")
    assert list(found) == [NAME]
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.endswith("; the game is left out") for line in err)
    assert [line.split(": ")[1].split("/")[-2] for line in err] == ["Bad", "broken", "odd", "outside"]
    assert "not a game id" in err[0] and "not a TOML file" in err[1] and "unknown key 'rules'" in err[2] \
        and "os.path is not in the game's own folder" in err[3]


def test_an_error_inside_a_games_module_is_one_line_naming_it(tmp_path, monkeypatch, capsys):
    package = tmp_path / "brokenmodule"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "definition.py").write_text("RULES = {'track': 1} + 2  # a designer's mistake\n")
    (tmp_path / "x.toml").write_text('[game]\nid = "brokenmodule"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register_game(registry.GameEntry("brokenmodule", "brokenmodule.definition",
                                              definition_file=str(tmp_path / "x.toml")))
    try:
        assert main(["check", "brokenmodule"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "definition module brokenmodule.definition cannot be loaded: TypeError" in err
        assert main(["list"]) == 2  # said for the broken game, every other game listed
        out, err = capsys.readouterr()
        assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] == \
            [g for g in registry.game_ids() if g != "brokenmodule"]
        assert err.count("\n") == 1 and "brokenmodule" in err
    finally:
        registry.unregister_game("brokenmodule")


@pytest.mark.parametrize("name,message", [
    ("Nim", "cannot be a game id"), ("9x", "cannot be a game id"), ("class", "cannot be a game id"),
    ("a-b", "cannot be a game id"), ("blockd", "already registered")])
def test_names_that_cannot_be_a_new_game_are_refused_in_one_line(name, message, tmp_path, capsys):
    if name == "blockd":
        from boardlab.layouts import game_ids
        name = game_ids()[0]
    assert main(["new-game", name, "--into", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_overwritten(tmp_path, capsys):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "mine.txt").write_text("keep")
    assert main(["new-game", NAME, "--into", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / NAME).iterdir()] == ["mine.txt"]


#: names that must never reach the disk: each is refused in one line before anything is written
BAD_NAMES = {"trailing newline": "nim\n", "slash": "a/b", "dot dot": "..", "keyword": "class",
             "soft keyword": "match", "300 characters": "n" * 300, "upper case": "Nim", "a digit first": "9x",
             "a dash": "a-b", "a NUL": "ni\x00m", "not ASCII": "ñandú", "a standard module": "json",
             "an installed module": "numpy", "a word of boardlab's code": "duel", "empty": ""}


@pytest.mark.parametrize("where", ["--into", "source tree"])
@pytest.mark.parametrize("label", BAD_NAMES)
def test_a_bad_name_writes_nothing_and_every_command_still_works(label, where, tmp_path, monkeypatch, capsys):
    name = BAD_NAMES[label]
    (tmp_path / "games").mkdir()
    argv = ["new-game", name] + (["--into", str(tmp_path / "games")] if where == "--into" else [])
    monkeypatch.setattr(newgame, "source_root", lambda: tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "cannot be a game id" in err, err
    assert "\x00" not in err and len(err) < 300
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*")] == [Path("games")]
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and main(["list", "--ids"]) == 0
    assert capsys.readouterr().out.split()[1:] == [boardlab_version(), *registry.game_ids()]


def boardlab_version() -> str:
    import boardlab

    return boardlab.__version__


@pytest.mark.parametrize("fail_at", ["the third file", "the rename into place"])
def test_a_write_that_fails_half_way_leaves_nothing(fail_at, tmp_path, monkeypatch, capsys):
    """A full disk or a read-only games/ (a permission error: root ignores a chmod, so it is made here)."""
    (tmp_path / "games").mkdir()
    monkeypatch.setattr(newgame, "source_root", lambda: tmp_path)
    if fail_at == "the rename into place":
        def refuse(source, target):
            raise PermissionError(13, "Permission denied", str(target))
        monkeypatch.setattr(newgame.os, "replace", refuse)
    else:
        written = []
        real = newgame.write_synced

        def full_disk(path, data):
            if len(written) == 2:
                raise OSError(28, "No space left on device", str(path))
            written.append(path)
            real(path, data)
        monkeypatch.setattr(newgame, "write_synced", full_disk)
    assert main(["new-game", NAME]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("No space left" in err or "Permission denied" in err), err
    assert list((tmp_path / "games").iterdir()) == []


def report_with_fixed_probe(package, tmp_path, minutes: str) -> dict:
    """The new game's report JSON at a budget of `minutes`, its probe fixed at 0.05 s a game and the
    CPU clock standing still (so a test's sizes are sums by hand)."""
    script = ("import sys; from boardlab.analysis import budget; from boardlab.analysis.report import jobs; "
              "jobs.estimated_seconds = lambda js, store: (0.05 * sum(j.games for j in js), sum(j.games for j in js)); "
              "budget.cpu_seconds = lambda: 0.0; from boardlab.cli import main; sys.exit(main(sys.argv[1:]))")
    done = run(package, "-c", script, "report", NAME, "--budget", minutes, "--skill-games", "4", "--skill-budget", "16",
               "--decision-games", "4", "--workers", "1", "--lang", "en", "--store", str(tmp_path / "r.sqlite"),
               "--out", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((tmp_path / f"{NAME}.json").read_text())


def test_a_new_games_report_is_sized_to_its_budget_and_says_what_it_bought(package, tmp_path, request):
    """A new game's report (issue 35): its phases sized from the probe's cost per game, here fixed
    at 0.05 s with the CPU clock standing still, so the sizes are sums by hand."""
    if request.node.callspec.params["package"] != "as written":
        pytest.skip("one skeleton is enough: the sizes do not depend on the rules")
    report = report_with_fixed_probe(package, tmp_path, "0.1")
    budget = report["data"]["budget"]
    # 6 s, self-play's share 40 of 110 (budgeted.SHARES): 2.18 s for 2,400 + 2,160 + 1,800 games at
    # 0.05 s (318 s): each times 2.18 / 318, in whole rotations: 16.5 -> 16 (of 2), 14.8 -> 12 (of 3),
    # 12.3 -> 12 (of 4)
    assert sum(SHARES.values()) == 110 and SHARES["self-play"] == 40
    sizes = [(p["players"], p["wanted"], p["games"]) for p in budget["phases"] if p["phase"] == "self-play"]
    assert sizes == [(2, 2400, 16), (3, 2160, 12), (4, 1800, 12)]
    assert [report["data"]["by_players"][str(n)]["seats"]["games"] for n in (2, 3, 4)] == [16, 12, 12]
    head = dict(report["head"])
    assert head["CPU budget"].startswith("0.1 CPU minutes: self-play: 16 games at 2 players (a share ")
    assert "left out: 2,384 games of self-play at 2 players" in head["CPU budget"]


def test_a_new_game_without_restricted_play_leaves_its_share_to_the_levels(package, tmp_path, request):
    """A game with no element to restrict (the skeleton) withdraws restricted play's share
    (`Budget.withdraw`): the player levels' share is theirs against the remedies' alone. The probe
    is fixed at 0.05 s a game and the CPU clock stands still, so the sizes are sums by hand."""
    if request.node.callspec.params["package"] != "as written":
        pytest.skip("one skeleton is enough: the sizes do not depend on the rules")
    budget = report_with_fixed_probe(package, tmp_path, "0.03")["data"]["budget"]
    assert not [p for p in budget["phases"] if p["phase"] == "restricted"]  # nothing to restrict
    # 1.8 s, all free again when the levels ask (the clock stands still): their share 10 of 20 (theirs and
    # the remedies'; 10 of 28 while restricted play's 8 waited: 0.64 s) is 0.9 s, and their games, greedy (the
    # model agent, both levels) against random at 2, 3 and 4 players in whole rotations of 4, 6 and 4
    # games, take 0.7 s: all fit
    assert SHARES["levels"] == SHARES["remedies"] == 10 and SHARES["restricted"] == 8
    levels = [(p["detail"], p["wanted"], p["games"]) for p in budget["phases"] if p["phase"] == "levels"]
    assert levels == [("2: greedy, random", 4, 4), ("3: greedy, random, random", 6, 6),
                      ("4: greedy, random, random, random", 4, 4)]

"""No module outside a game's own files names a game id: everything per game sits behind the
registry (layouts/registry.py, the one list of games) and the game's own modules.

A game's own files are those in a folder named by its id (analysis/ID/), or whose file name is
its id or starts with `ID_` (layouts/ID.py, printkit/games/ID.py, printkit/games/ID_table.py).
What is read is code: names and string literals.  Docstrings (with their doctests, which load a
game as an example) and comments are documentation and are not read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.layouts import game_ids
from boardlab.newgame import code_mentions as mentions  # the scan `boardlab new-game` refuses a name by

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ("analysis", "boardlab", "common", "layouts", "printkit")
#: the one module that lists the games
REGISTRY = ROOT / "layouts" / "registry.py"


def own_file(path: Path, game_id: str) -> bool:
    """Whether `path` is one of the game's own modules."""
    relative = path.relative_to(ROOT)
    return game_id in relative.parts[:-1] or path.stem == game_id or path.stem.startswith(game_id + "_")


def test_the_scan_finds_code_and_skips_documentation():
    text = ('"""Doc: load("alpha")."""\n'
            'import x  # alpha here is a comment\n'
            'def f():\n    """alpha"""\n    return "alpha", alpha_cards, "alphabet", f"alpha-{1}"\n')
    found = mentions(text, ("alpha",))
    assert [line for line, _, _ in found] == [5, 5, 5]
    assert [token for _, _, token in found][:2] == ['"alpha"', "alpha_cards"] and "alpha-" in found[2][2]


def package_files():
    for folder in PACKAGE:
        yield from sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("game_id", game_ids())
def test_no_module_outside_a_games_own_files_names_it(game_id):
    offenders = []
    for path in package_files():
        if path == REGISTRY or own_file(path, game_id):
            continue
        offenders += [f"{path.relative_to(ROOT)}:{line}: {token}"
                      for line, _, token in mentions(path.read_text(), (game_id,))]
    assert offenders == [], f"{game_id} is named outside its own modules:\n" + "\n".join(offenders)

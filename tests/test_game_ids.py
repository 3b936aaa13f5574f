"""No module outside a game's own files names a game id: everything per game sits behind the
registry (layouts/registry.py, the one list of games) and the game's own modules.

A game's own files are those in a folder named by its id (analysis/ID/), or whose file name is
its id or starts with `ID_` (layouts/ID.py, printkit/games/ID.py, printkit/games/ID_table.py).
What is read is code: names and string literals.  Docstrings (with their doctests, which load a
game as an example) and comments are documentation and are not read.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from boardlab.layouts import game_ids

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ("analysis", "boardlab", "layouts", "printkit")
#: the one module that lists the games
REGISTRY = ROOT / "layouts" / "registry.py"
#: the tokens of code that can name something (f-strings are split into parts from Python 3.12)
CODE_TOKENS = {tokenize.NAME, tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())


def own_file(path: Path, game_id: str) -> bool:
    """Whether `path` is one of the game's own modules."""
    relative = path.relative_to(ROOT)
    return game_id in relative.parts[:-1] or path.stem == game_id or path.stem.startswith(game_id + "_")


def docstring_starts(tree: ast.AST) -> set[tuple[int, int]]:
    """Where each module, class and function docstring starts (line, column)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out.add((first.lineno, first.col_offset))
    return out


def mentions(text: str, game_ids: tuple[str, ...]) -> list[tuple[int, str, str]]:
    """(line, game id, token) for every name or string literal of code in `text` naming a game id
    as a word (``blockd``, ``"blockd"``, ``blockd_cards``, ``f"blockd-{n}"``; not ``blockdx``)."""
    docs = docstring_starts(ast.parse(text))
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in CODE_TOKENS or token.start in docs:
            continue
        for game_id in game_ids:
            if re.search(rf"(?<![A-Za-z0-9]){re.escape(game_id)}(?![A-Za-z0-9])", token.string):
                found.append((token.start[0], game_id, token.string))
    return found


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

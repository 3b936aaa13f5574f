"""The skeleton of a new game (`boardlab new-game NAME`): one folder, written whole or not at all.

A name is checked before anything is written (`check_name`): a plain identifier that is no
Python keyword, no module already importable, no game already registered and no word of
boardlab's own code (tests/test_game_ids.py would then find the new game named outside its
folder).  The folder is built beside its place and renamed into it, with the permissions the
umask gives.

The folder holds everything of the game, from the templates in boardlab/skeleton/: its
definition (NAME.toml) and schema (definition.py), a rules engine on the basic protocol
(engine.py: a small race game to replace with the game's own rules), a print module with one
card (printing.py), and its rulebook texts in every language boardlab's rulebooks are written in
(NAME.LANG.md).  As written, the game passes the conformance tests and every command handles it.

Two places to write it:

- boardlab's own source tree (`write_in_tree`): games/NAME/, as the package
  `boardlab.games.NAME`, with registration.toml (its `GameEntry`'s fields), which the registry
  finds there: no other file is changed;
- any folder (`write_package`): DIR/NAME/, a package of its own named NAME, with
  registration.py holding its `GameEntry` for the `boardlab.games` entry point (or
  `register_game`).

>>> check_name("nim")
'nim'
>>> check_name("nim\\n")
Traceback (most recent call last):
...
boardlab.layouts.errors.BoardlabError: 'nim\\n' cannot be a game id (2 to 30 lower-case letters, digits and underscores, starting with a letter)
>>> class_name("nim"), class_name("go9")
('Nim', 'Go9')
"""

from __future__ import annotations

import ast
import importlib.util
import io
import keyword
import os
import re
import shutil
import sys
import tempfile
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

from boardlab.common.files import write_synced
from boardlab.layouts.errors import BoardlabError

SKELETON = Path(__file__).resolve().parent / "skeleton"
#: template file -> the file it becomes in the game's folder (NAME replaced by the game id)
FILES = {"__init__.py.tmpl": "__init__.py", "definition.py.tmpl": "definition.py", "engine.py.tmpl": "engine.py",
         "printing.py.tmpl": "printing.py", "game.toml.tmpl": "NAME.toml",
         "rulebook.en.md.tmpl": "NAME.en.md", "rulebook.es.md.tmpl": "NAME.es.md"}
#: boardlab's packages whose code must not name a game outside its own files (tests/test_game_ids.py)
CODE_PACKAGES = ("boardlab", "boardlab.common", "boardlab.layouts", "boardlab.analysis", "boardlab.printkit")
#: the tokens of code that can name something (f-strings are split into parts from Python 3.12)
CODE_TOKENS = {tokenize.NAME, tokenize.STRING} | ({tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE")
                                                   else set())


def check_name(name: str) -> str:
    """`name` if it can be a new game's id.

    :raises BoardlabError: for a name that is not a plain identifier (`GAME_ID`: 2 to 30 lower-case
        letters, digits and underscores starting with a letter), a Python keyword, the name of a
        module Python can already import, the id of a game already registered, or a word of
        boardlab's own code.
    """
    from boardlab.layouts.registry import GAME_ID, game_ids

    shown = repr(name[:40]) + ("..." if len(name) > 40 else "")
    if not GAME_ID.fullmatch(name):  # fullmatch: "nim\n" is refused, re.match with $ would take it
        raise BoardlabError(f"{shown} cannot be a game id (2 to 30 lower-case letters, digits and underscores, "
                            "starting with a letter)")
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        raise BoardlabError(f"'{name}' cannot be a game id: it is a Python keyword")
    if name in game_ids():
        raise BoardlabError(f"a game '{name}' is already registered")
    if name in sys.stdlib_module_names or importlib.util.find_spec(name) is not None:
        raise BoardlabError(f"'{name}' cannot be a game id: a Python module of that name exists (its package "
                            "would hide it or be hidden)")
    for path in package_files():
        if code_mentions(path.read_text(encoding="utf-8"), (name,)):
            raise BoardlabError(f"'{name}' cannot be a game id: boardlab's own code already uses it as a word "
                                f"({path.parent.name}/{path.name}); choose a word of its own")
    return name


def package_files() -> Iterator[Path]:
    """Every module of boardlab's own packages (`CODE_PACKAGES`), wherever they are installed."""
    for package in CODE_PACKAGES:
        spec = importlib.util.find_spec(package)
        for place in (spec.submodule_search_locations or []) if spec is not None else []:
            for path in sorted(Path(place).rglob("*.py")):
                if package != "boardlab" or path.relative_to(place).parts[0] not in ("games", "skeleton"):
                    yield path


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


def code_mentions(text: str, game_ids: Iterable[str]) -> list[tuple[int, str, str]]:
    """(line, game id, token) for every name or string literal of code in `text` naming a game id
    as a word (``blockd``, ``"blockd"``, ``blockd_cards``, ``f"blockd-{n}"``; not ``blockdx``).
    Docstrings (with their doctests) and comments are documentation and are not read.

    >>> code_mentions("x = ('alpha', alpha_cards, 'alphabet')  # alpha\\n", ("alpha",))
    [(1, 'alpha', "'alpha'"), (1, 'alpha', 'alpha_cards')]
    """
    docs = docstring_starts(ast.parse(text))
    patterns = [(game_id, re.compile(rf"(?<![A-Za-z0-9]){re.escape(game_id)}(?![A-Za-z0-9])")) for game_id in game_ids]
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in CODE_TOKENS or token.start in docs:
            continue
        for game_id, pattern in patterns:
            if pattern.search(token.string):
                found.append((token.start[0], game_id, token.string))
    return found


def class_name(name: str) -> str:
    """The CamelCase prefix of the game's classes."""
    return name[0].upper() + name[1:]


def render(name: str, package: str) -> dict[str, str]:
    """File name -> text of the game's folder, for a game id and the package its modules are in."""
    values = {"@ID@": name, "@NAME@": class_name(name), "@CLASS@": class_name(name), "@PACKAGE@": package}
    out = {}
    for template, target in FILES.items():
        text = (SKELETON / template).read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        out[target.replace("NAME", name)] = text
    return out


def entry_source(name: str, package: str) -> str:
    """The `GameEntry(...)` expression of the game (registration.py of a package of its own)."""
    return (f'GameEntry("{name}", "{package}.definition", engine="{package}.engine", print="{package}.printing",\n'
            f'              definition_file="{name}.toml"),')


def registration_toml(name: str, package: str) -> str:
    """registration.toml of a game in games/: the fields of its `GameEntry`, which the registry reads
    (`boardlab.layouts.registry.folder_games`).

    >>> import tomllib; tomllib.loads(registration_toml("nim", "boardlab.games.nim"))["engine"]
    'boardlab.games.nim.engine'
    """
    return (f"# {class_name(name)}'s entry in boardlab's registry: boardlab finds this file in games/{name}/ "
            "(layouts/registry.py, folder_games).\n"
            f'definition = "{package}.definition"\nengine = "{package}.engine"\nprint = "{package}.printing"\n'
            f'definition_file = "{name}.toml"\n')


def umask_mode(mode: int = 0o777) -> int:
    """`mode` less the process's umask: what a folder made by `mkdir` gets."""
    mask = os.umask(0)
    os.umask(mask)
    return mode & ~mask


def _write_folder(folder: Path, files: dict[str, str]) -> None:
    """Write the folder whole or not at all (built beside it, then renamed into place), with the
    permissions the umask gives (a temporary folder is made 700)."""
    if folder.exists():
        raise BoardlabError(f"{folder} already exists (a new game needs a folder of its own)")
    if not folder.parent.is_dir():
        raise BoardlabError(f"{folder.parent} is not a folder")
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        for file, text in files.items():
            write_synced(staging / file, text.encode("utf-8"))
        staging.chmod(umask_mode())
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def source_root() -> Path | None:
    """boardlab's source tree when it is installed from one (an editable install), else None."""
    root = Path(__file__).resolve().parent.parent
    return root if (root / "pyproject.toml").is_file() and (root / "games" / "__init__.py").is_file() else None


def write_in_tree(name: str, root: Path) -> Path:
    """games/NAME/ in the source tree `root`, with the registration.toml that registers it; the
    folder written (the one path: nothing else changes)."""
    check_name(name)
    package = f"boardlab.games.{name}"
    files = render(name, package)
    files["registration.toml"] = registration_toml(name, package)
    folder = root / "games" / name
    _write_folder(folder, files)
    return folder


def write_package(name: str, into: Path) -> list[Path]:
    """DIR/NAME/, a package of its own with registration.py (its `GameEntry` as `GAME`)."""
    check_name(name)
    files = render(name, name)
    files["registration.py"] = (f'"""{class_name(name)}\'s registry entry: the `boardlab.games` entry point\n'
                                f'`{name} = "{name}.registration:GAME"` names it (or `register_game(GAME)`)."""\n\n'
                                "from boardlab.layouts.registry import GameEntry\n\n"
                                f"GAME = {entry_source(name, name).rstrip(',')}\n")
    folder = into / name
    _write_folder(folder, files)
    return [folder]

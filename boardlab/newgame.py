"""The skeleton of a new game (`boardlab new-game NAME`): one folder and one registry line.

The folder holds everything of the game, from the templates in boardlab/skeleton/: its
definition (NAME.toml) and schema (definition.py), a rules engine on the basic protocol
(engine.py: a small race game to replace with the game's own rules), a print module with one
card (printing.py), and its rulebook texts in every language boardlab's rulebooks are written in
(NAME.LANG.md).  As written, the game passes the conformance tests and every command handles it.

Two places to write it:

- boardlab's own source tree (`write_in_tree`): games/NAME/, as the package
  `boardlab.games.NAME`, and its `GameEntry` line added to `BUILT_IN` in layouts/registry.py;
- any folder (`write_package`): DIR/NAME/, a package of its own named NAME, with
  registration.py holding its `GameEntry` for the `boardlab.games` entry point (or
  `register_game`).

>>> check_name("nim")
'nim'
>>> class_name("nim"), class_name("go9")
('Nim', 'Go9')
"""

from __future__ import annotations

import keyword
import os
import re
import shutil
import tempfile
from pathlib import Path

from boardlab.files import write_synced
from boardlab.layouts.errors import BoardlabError

SKELETON = Path(__file__).resolve().parent / "skeleton"
#: template file -> the file it becomes in the game's folder (NAME replaced by the game id)
FILES = {"__init__.py.tmpl": "__init__.py", "definition.py.tmpl": "definition.py", "engine.py.tmpl": "engine.py",
         "printing.py.tmpl": "printing.py", "game.toml.tmpl": "NAME.toml",
         "rulebook.en.md.tmpl": "NAME.en.md", "rulebook.es.md.tmpl": "NAME.es.md"}
NAME = re.compile(r"^[a-z][a-z0-9]{1,29}$")
#: the line of layouts/registry.py that ends the tuple of built-in games
BUILT_IN_END = "\n)\n"


def check_name(name: str) -> str:
    """`name` if it can be a new game's id.

    :raises BoardlabError: for a name that is not 2 to 30 lower-case letters and digits starting
        with a letter, a Python keyword, or the id of a game already registered.
    """
    from boardlab.layouts.registry import game_ids

    if not NAME.match(name) or keyword.iskeyword(name):
        raise BoardlabError(f"'{name}' cannot be a game id (2 to 30 lower-case letters and digits, "
                            "starting with a letter; not a Python keyword)")
    if name in game_ids():
        raise BoardlabError(f"a game '{name}' is already registered")
    return name


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
    """The `GameEntry(...)` expression of the game (its one registry line)."""
    return (f'GameEntry("{name}", "{package}.definition", engine="{package}.engine", print="{package}.printing",\n'
            f'              definition_file="{name}.toml"),')


def with_entry(registry_text: str, name: str, package: str) -> str:
    """layouts/registry.py's text with the game's `GameEntry` added at the end of `BUILT_IN`.

    :raises BoardlabError: when the text has no `BUILT_IN` tuple to add it to.
    """
    start = registry_text.find("BUILT_IN: tuple[GameEntry, ...] = (")
    end = registry_text.find(BUILT_IN_END, start)
    if start < 0 or end < 0:
        raise BoardlabError("layouts/registry.py has no BUILT_IN tuple to add the game to")
    return registry_text[:end] + "\n    " + entry_source(name, package) + registry_text[end:]


def _write_folder(folder: Path, files: dict[str, str]) -> None:
    """Write the folder whole or not at all (built beside it, then renamed into place)."""
    if folder.exists():
        raise BoardlabError(f"{folder} already exists (a new game needs a folder of its own)")
    if not folder.parent.is_dir():
        raise BoardlabError(f"{folder.parent} is not a folder")
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        for file, text in files.items():
            write_synced(staging / file, text.encode("utf-8"))
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def source_root() -> Path | None:
    """boardlab's source tree when it is installed from one (an editable install), else None."""
    root = Path(__file__).resolve().parent.parent
    registry = root / "layouts" / "registry.py"
    return root if (root / "pyproject.toml").is_file() and registry.is_file() and (root / "games").is_dir() else None


def write_in_tree(name: str, root: Path) -> list[Path]:
    """games/NAME/ in the source tree `root` and the game's line in layouts/registry.py; the
    paths written, the registry last."""
    check_name(name)
    package = f"boardlab.games.{name}"
    registry = root / "layouts" / "registry.py"
    text = with_entry(registry.read_text(encoding="utf-8"), name, package)
    folder = root / "games" / name
    _write_folder(folder, render(name, package))
    staging = registry.with_name(f".{registry.name}.new")
    staging.unlink(missing_ok=True)
    write_synced(staging, text.encode("utf-8"))
    os.replace(staging, registry)
    return [folder, registry]


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

"""Every game boardlab knows, and which module holds each of its parts (module names only).

This is the one list of game ids.  Commands, tests, `make print` and `boardlab list` all ask it.
A game is one `GameEntry`: its id and the dotted names of the modules that make it up, each
optional except the definition.  The modules are imported only when a part is asked for
(`game_part`), so layouts/ imports nothing above itself.

What each part's module provides:

- ``definition``: ``Definition`` (a frozen dataclass built from the TOML) and
  ``check(definition, report)`` (cross-field checks).  Its TOML file is ``definition_file``:
  for a built-in game layouts/ID.toml; for a game added by a package, a path relative to the
  folder of the definition module.
- ``engine``: ``make_game(definition, players) -> protocol.Game`` and ``AGENTS`` (agent name ->
  factory(game)); the game's optional capabilities are methods of ``protocol.Game``.
- ``moves``: ``moves(definition, position: dict) -> list[dict]`` for ``boardlab moves``.
- ``tables``: ``tables(definition, options: TableOptions) -> TableSet`` for ``boardlab tables``,
  and ``exact_tables(definition) -> TableSet`` (the tables that need no random deal, for the
  rulebook's appendix).
- ``print``: ``print_files(definition, options: PrintOptions) -> list[PrintFile]``.

A game written by `boardlab new-game` into boardlab's source tree is a folder games/ID/ (the
package ``boardlab.games.ID``) holding ``registration.toml``: the fields of its `GameEntry`, found
here (`folder_games`) without any edit of this file.  A folder whose registration cannot be read
is left out with one line; the other games still work.

A designer's own package adds a game without editing boardlab through the entry-point group
``boardlab.games``: in its pyproject.toml,

    [project.entry-points."boardlab.games"]
    mygame = "mygame.registration:GAME"

where ``GAME`` is a `GameEntry` (or a dict of its fields) whose id is the entry point's name.
`register_game` does the same from Python (tests use it).

>>> game_entry("blockd").engine
'boardlab.analysis.blockd.engine'
>>> game_part("blockd", "tables").__name__
'boardlab.analysis.blockd.tables'
>>> "blockd" in game_ids()
True
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import re
import tomllib
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from boardlab.common.files import UnreadableFile, read_bounded
from boardlab.layouts.errors import BoardlabError

#: the entry-point group through which other packages add games
ENTRY_POINT_GROUP = "boardlab.games"

#: what a game id may be: a plain identifier of 2 to 30 lower-case letters, digits and underscores,
#: from a letter (it names a folder, a Python package and files; nothing in it needs quoting)
GAME_ID = re.compile(r"[a-z][a-z0-9_]{1,29}")
#: the file of a game's folder in games/ that registers it (`folder_games`)
REGISTRATION_FILE = "registration.toml"
#: the largest registration file read (bytes; a real one has about 300)
MAX_REGISTRATION_BYTES = 64_000

#: the parts a game may have, and how messages name them
PARTS = {"definition": "definition", "engine": "rules engine", "moves": "move lister", "tables": "tables",
         "print": "print module"}


@dataclass(frozen=True)
class GameEntry:
    """Where a game's parts live: dotted module names, None for a part the game does not have."""

    id: str
    definition: str
    engine: str | None = None
    moves: str | None = None
    tables: str | None = None
    print: str | None = None
    definition_file: str | None = None  # None: layouts/ID.toml

    def has(self, part: str) -> bool:
        """Whether the game has `part` (one of `PARTS`)."""
        return getattr(self, _check_part(part)) is not None

    def definition_path(self) -> Path:
        """The game's TOML definition file."""
        if self.definition_file is None:
            return Path(__file__).resolve().parent / f"{self.id}.toml"
        path = Path(self.definition_file)
        if path.is_absolute():
            return path
        spec = importlib.util.find_spec(self.definition)
        if spec is None or spec.origin is None:
            raise BoardlabError(f"{self.id}: the definition module {self.definition} does not exist")
        return Path(spec.origin).parent / path


#: the games that ship with boardlab; a new game is one line here (or an entry point)
BUILT_IN: tuple[GameEntry, ...] = (
    GameEntry("blockd", "boardlab.layouts.blockd", engine="boardlab.analysis.blockd.engine",
              moves="boardlab.analysis.blockd.position", tables="boardlab.analysis.blockd.tables",
              print="boardlab.printkit.games.blockd"),
    GameEntry("sixbysix", "boardlab.layouts.sixbysix", engine="boardlab.analysis.sixbysix.engine",
              tables="boardlab.analysis.sixbysix.tables", print="boardlab.printkit.games.sixbysix"),
    GameEntry("links", "boardlab.layouts.links", engine="boardlab.analysis.links.engine",
              moves="boardlab.analysis.links.position", tables="boardlab.analysis.links.tables",
              print="boardlab.printkit.games.links"),
    GameEntry("deblockle", "boardlab.layouts.deblockle", engine="boardlab.analysis.deblockle.engine",
              moves="boardlab.analysis.deblockle.position", tables="boardlab.analysis.deblockle.tables",
              print="boardlab.printkit.games.deblockle"),
)

_registered: dict[str, GameEntry] = {}
_plugins: dict[str, GameEntry] | None = None
_folders: dict[str, GameEntry] | None = None


def _check_part(part: str) -> str:
    if part not in PARTS:
        raise ValueError(f"unknown part '{part}' (parts: {', '.join(PARTS)})")
    return part


def _as_entry(name: str, value: object) -> GameEntry:
    if isinstance(value, dict):
        value = GameEntry(**{"id": name, **value})
    if not isinstance(value, GameEntry):
        raise BoardlabError(f"game plugin '{name}': not a GameEntry or a dict of its fields")
    if value.id != name:
        raise BoardlabError(f"game plugin '{name}': its entry says id '{value.id}'")
    for field in dataclasses.fields(GameEntry):
        text = getattr(value, field.name)
        if field.name != "id" and text is not None and not isinstance(text, str):
            raise BoardlabError(f"game plugin '{name}': {field.name} must be a module name (text)")
    return value


def _load_plugins() -> dict[str, GameEntry]:
    global _plugins
    if _plugins is None:
        found: dict[str, GameEntry] = {}
        for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
            try:
                found[point.name] = _as_entry(point.name, point.load())
            except Exception as err:  # a broken plugin: said once, by name; the other games still work
                _left_out(f"game plugin '{point.name}' ({point.value}) cannot be loaded: {err}; it is left out")
        _plugins = found
    return _plugins


def registration(path: Path, package: str) -> GameEntry:
    """The `GameEntry` a game folder's registration file gives: the game id is the folder's name, its
    modules lie in the folder's package `package`.

    :raises BoardlabError: for a file that is too large, not UTF-8 TOML, a folder name that is not a
        game id, a field that is not one of `GameEntry`'s, or a module outside `package`.
    """
    name = path.parent.name
    if not GAME_ID.fullmatch(name):
        raise BoardlabError(f"the folder name {name!r} is not a game id")
    try:
        fields = tomllib.loads(read_bounded(path, MAX_REGISTRATION_BYTES))
    except UnreadableFile as err:
        raise BoardlabError(err.reason) from None
    except tomllib.TOMLDecodeError as err:
        raise BoardlabError(f"not a TOML file ({err})") from None
    known = {field.name for field in dataclasses.fields(GameEntry)}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise BoardlabError(f"unknown key '{unknown[0]}' (keys: {', '.join(sorted(known))})")
    if fields.pop("id", name) != name:
        raise BoardlabError(f"its id is not the folder's name '{name}'")
    if "definition" not in fields:
        raise BoardlabError("no definition module")
    entry = _as_entry(name, fields)
    for field in dataclasses.fields(GameEntry):
        module = getattr(entry, field.name)
        if field.name not in ("id", "definition_file") and module is not None \
                and not module.startswith(f"{package}."):
            raise BoardlabError(f"{field.name}: the module {module} is not in the game's own folder ({package})")
    if entry.definition_file is not None and Path(entry.definition_file).name != entry.definition_file:
        raise BoardlabError(f"definition_file: {entry.definition_file} is not a file of the game's own folder")
    return entry


def folder_games(folder: Path, package: str) -> dict[str, GameEntry]:
    """Game id -> entry of every folder of `folder` holding a `REGISTRATION_FILE` (the games that
    `boardlab new-game` writes into games/, each the package `package.ID`).  A folder whose file
    cannot be used is left out with one line naming it; the other games still work.
    """
    found = {}
    for path in sorted(folder.glob(f"*/{REGISTRATION_FILE}")):
        try:
            found[path.parent.name] = registration(path, f"{package}.{path.parent.name}")
        except (OSError, BoardlabError) as err:
            _left_out(f"{path}: {getattr(err, 'strerror', None) or err}; the game is left out")
    return found


def _load_folders() -> dict[str, GameEntry]:
    global _folders
    if _folders is None:
        spec = importlib.util.find_spec("boardlab.games")
        places = list(spec.submodule_search_locations or []) if spec is not None else []
        _folders = {}
        for place in places:
            _folders.update(folder_games(Path(place), "boardlab.games"))
    return _folders


def _left_out(message: str) -> None:
    import sys

    from boardlab.layouts.errors import one_line

    print(one_line(f"boardlab: {message}"), file=sys.stderr)


def register_game(entry: GameEntry) -> None:
    """Add a game for this process (what an entry point of `ENTRY_POINT_GROUP` does for a package).

    :raises BoardlabError: when the id is already taken.
    """
    entry = _as_entry(entry.id, entry)
    if entry.id in registry() and registry()[entry.id] != entry:
        raise BoardlabError(f"a game '{entry.id}' is already registered")
    _registered[entry.id] = entry


def unregister_game(game_id: str) -> None:
    """Remove a game added by `register_game` (for tests)."""
    _registered.pop(game_id, None)


def registry() -> dict[str, GameEntry]:
    """Game id -> entry: the built-in games, then those of games/ (`folder_games`), then those of
    entry points, then registered ones."""
    out = {entry.id: entry for entry in BUILT_IN}
    for source in (_load_folders(), _load_plugins(), _registered):
        for game_id, entry in source.items():
            if game_id in out and out[game_id] != entry:
                raise BoardlabError(f"two games are registered as '{game_id}'")
            out[game_id] = entry
    return out


def game_ids(part: str | None = None) -> tuple[str, ...]:
    """Every game id, or those of the games that have `part`."""
    return tuple(game_id for game_id, entry in registry().items() if part is None or entry.has(part))


def game_entry(game_id: str) -> GameEntry:
    """The entry of a game.

    :raises BoardlabError: for an unknown game.
    """
    games = registry()
    if game_id not in games:
        raise BoardlabError(f"unknown game '{game_id}' (games: {', '.join(games)})")
    return games[game_id]


def game_part(game_id: str, part: str) -> ModuleType:
    """The module of one part of a game (the one lookup of engines, tables, moves and print modules).

    :raises BoardlabError: for an unknown game, a game without that part, or a listed module
        that does not exist.
    """
    entry = game_entry(game_id)
    name = getattr(entry, _check_part(part))
    if name is None:
        have = ", ".join(game_ids(part)) or "none yet"
        raise BoardlabError(f"{game_id}: no {PARTS[part]} for this game yet (games with one: {have})")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is not None and name.startswith(err.name):
            raise BoardlabError(f"{game_id}: the {PARTS[part]} is not available yet (module {name} does not "
                                "exist)") from None
        raise BoardlabError(f"{game_id}: the {PARTS[part]} module {name} cannot be loaded: {err}") from None
    except Exception as err:  # an error in a game's own module: one line naming it, the other games unharmed
        raise BoardlabError(f"{game_id}: the {PARTS[part]} module {name} cannot be loaded: "
                            f"{type(err).__name__}: {err}") from None

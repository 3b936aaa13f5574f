"""The results store: every simulated game's record in one SQLite file, so no game is played twice.

What is stored.  A *configuration* is everything that decides the games of a simulation:
game id, definition hash (`definition_hash`: the rules, board, deck... as loaded), variant
name, player count, agent per seat, seed, seat rotation, and the engine fingerprint
(`engine_fingerprint`: a hash of the simulation code, so that changed code never reuses old
results).  `ConfigKey` holds them; its id is the SHA-256 of their canonical JSON.  Under a
configuration, game i's `GameRecord` is one row keyed by (configuration id, i).  The runner
guarantees that game i's record depends on (configuration, i) alone - not on the block size,
the worker count or the backend - so records may arrive in any order from any process and
any subset may be missing; what is there is never wrong.

How results flow in (any execution backend, local processes or a cluster):

    store = ResultStore(path)                    # create, or open and check the file
    config = store.register(key)                 # ConfigKey -> configuration id
    todo = store.missing_blocks(config, blocks)  # the (start, stop) blocks not yet complete
    ...play todo, and as each block finishes, in the process that holds the store:
    store.put_block(config, start, stop, records, seconds)   # one transaction: all or nothing
    records = store.records(config, games)       # games 0..games-1, decoded, sorted by index

`put_block` commits the block's rows and its compute time together, so a run killed at any
moment keeps every finished block and none half; rerunning plays only what is missing.
Results are always summarised from records read back from the store (never from the fresh
objects), so an interrupted-and-resumed run and an uninterrupted one give identical numbers.

Only one process writes (the one that holds the store); workers return their records to it.
Records are stored as compact JSON (tuples come back as tuples where `GameRecord` has them;
inside `stats`, lists stay lists - summaries treat both alike).

Other deterministic results (a game's exact tables, deal statistics) are kept with
`cached(key, compute)`, so that an unchanged report reruns without recomputing them.
`boardlab play` keeps its games in progress here too (`put_open_game`, `open_games`), so that a
restarted server resumes them.

Safety: the file carries its schema version and the boardlab version that wrote it.  A file
written by another schema or boardlab version is moved aside (to PATH.old) and a new store is
started, saying so in one line; a file that is not a store, or is damaged, raises `StoreError`
(one clear line, the file left untouched).

>>> import tempfile, os
>>> from boardlab.analysis.runner import GameRecord
>>> folder = tempfile.mkdtemp()
>>> store = ResultStore(os.path.join(folder, "results.sqlite"))
>>> config = store.register(ConfigKey("demo", "d" * 64, "baseline", 2, ("random", "random"), 1, True, "f" * 64))
>>> store.missing_blocks(config, [(0, 2), (2, 4)])
[(0, 2), (2, 4)]
>>> store.put_block(config, 0, 2, [GameRecord(0, 0, 0, ("random", "random"), (1,), False, 7, {}),
...                                GameRecord(1, 0, 1, ("random", "random"), (0,), False, 9, {})], 0.5)
>>> store.missing_blocks(config, [(0, 2), (2, 4)])
[(2, 4)]
>>> store.records(config, 2)[1].length
9
>>> store.close()
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import importlib
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from boardlab.common import files
from boardlab.layouts.errors import BoardlabError, one_line
from boardlab.layouts.registry import game_entry

if TYPE_CHECKING:  # the runner brings numpy: loaded when records are read, not to name the store's path
    from boardlab.analysis.playtests import TableGame
    from boardlab.analysis.progress import Progress
    from boardlab.analysis.protocol import Game
    from boardlab.analysis.runner import AgentFactory, GameRecord
    from boardlab.layouts.common import GameDefinition

#: bump when the tables or the record encoding change
SCHEMA_VERSION = 2

#: where commands keep the store unless told otherwise (`--store PATH`)
DEFAULT_STORE = Path("build") / "results.sqlite"

#: modules every simulation runs through; a change in any of them changes every fingerprint
COMMON_SIMULATION_MODULES = ("runner", "protocol", "agents", "mcts", "chance")


class StoreError(BoardlabError):
    """The store file cannot be used (not a store, or damaged): one clear line."""


@dataclass(frozen=True)
class ConfigKey:
    """Everything that decides the games of one simulation (see the module docstring)."""

    game: str
    definition_hash: str
    variant: str
    players: int
    agents: tuple[str, ...]  # agent name per seat
    seed: int
    seat_rotation: bool
    engine: str  # `engine_fingerprint` of the game

    def id(self) -> str:
        """SHA-256 of the canonical JSON of the key."""
        text = json.dumps(dataclasses.asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def canonical(value: object) -> object:
    """A JSON-ready form of a definition (dataclasses, tuples, dicts), with sorted keys.

    Fields the loader sets (`variant`, `source`: where it came from, not what it says) are left out,
    and so is a field added later while it holds its default (metadata "hashed_when_set", e.g.
    print.gutter): the definitions written before it keep their hash and their stored games.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canonical(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not f.metadata.get("loaded") and not f.metadata.get("appearance")
                and not (f.metadata.get("hashed_when_set") and getattr(value, f.name) == f.default)}
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


def definition_hash(definition: GameDefinition) -> str:
    """SHA-256 (hex) of a loaded definition's content: every section, as the engines see it.

    Two files that load to the same definition have the same hash; any changed key changes it.

    >>> from boardlab.layouts import load
    >>> definition_hash(load("blockd")) == definition_hash(load("blockd")) != definition_hash(load("blockd-flat"))
    True
    """
    text = json.dumps(canonical(definition), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _source(module: ModuleType) -> str:
    """The file a module was loaded from."""
    assert module.__file__ is not None  # a module of files, not a namespace package
    return module.__file__


@functools.lru_cache(maxsize=None)
def engine_fingerprint(engine_module: str) -> str:
    """SHA-256 of the simulation code of one engine: its package's sources plus the common modules.

    `engine_module` is the dotted name of the engine module (e.g. boardlab.analysis.blockd.engine).
    Computed once per process, when first asked (the report and compare ask before playing
    anything), so that files changed on disk during a run do not relabel what the running code
    plays.
    """
    analysis = Path(_source(importlib.import_module("boardlab.analysis"))).parent
    module_file = Path(_source(importlib.import_module(engine_module)))
    files = [analysis / f"{name}.py" for name in COMMON_SIMULATION_MODULES]
    files += sorted(module_file.parent.glob("*.py")) if module_file.parent != analysis else [module_file]
    digest = hashlib.sha256()
    for path in files:
        if path.exists():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def encode_record(record: GameRecord) -> str:
    """A record as compact JSON without its index (the index is the row's key).

    Keys keep the order the engine wrote them in (summaries list them in that order).
    """
    return json.dumps([record.deal, record.rotation, list(record.agents), list(record.winners),
                       record.unfinished, record.length, record.stats], separators=(",", ":"))


def decode_record(index: int, text: str) -> GameRecord:
    """A stored game's record.  Its agent names and the keys of its figures are interned, and equal
    agent tuples shared, so that the records of many games (a comparison's 96,000 a side) hold each
    name once rather than once a game."""
    from boardlab.analysis.runner import GameRecord

    deal, rotation, agents, winners, unfinished, length, stats = json.loads(text)
    stats = {sys.intern(k): v for k, v in stats.items()}
    return GameRecord(index, deal, rotation, _shared(tuple(agents)), tuple(winners), bool(unfinished), length, stats)


_SHARED: dict = {}


def _shared(agents: tuple) -> tuple:
    """One tuple object for every record's equal agents (at most a few hundred distinct ones)."""
    if len(_SHARED) > 4096:
        _SHARED.clear()
    return _SHARED.setdefault(agents, agents)


_TABLES = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS configs (id TEXT PRIMARY KEY, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (config TEXT NOT NULL, idx INTEGER NOT NULL, record TEXT NOT NULL,
                                  PRIMARY KEY (config, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (config TEXT NOT NULL, start INTEGER NOT NULL, stop INTEGER NOT NULL,
                                   seconds REAL NOT NULL, PRIMARY KEY (config, start, stop)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS playtests (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, game TEXT NOT NULL,
                                      variant TEXT NOT NULL, definition TEXT NOT NULL, content TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS open_games (id TEXT PRIMARY KEY, game TEXT NOT NULL, definition TEXT NOT NULL,
                                       updated REAL NOT NULL, content TEXT NOT NULL);
"""


@functools.cache
def _columns() -> dict[str, tuple[str, ...]]:
    """Each table's column names as _TABLES makes them (a store whose tables differ is refused)."""
    db = sqlite3.connect(":memory:")
    db.executescript(_TABLES)
    tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = {table: tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})")) for table in tables}
    db.close()
    return found


def _boardlab_version() -> str:
    from boardlab import __version__
    return __version__


class ResultStore:
    """One SQLite results file (see the module docstring for the API and its guarantees).

    :raises StoreError: when the file exists but is not a results store, or is damaged.
    """

    def __init__(self, path: str | os.PathLike, notice: Callable[[str], object] | None = None) -> None:
        self.path = Path(path)
        self.notice = notice if notice is not None else (lambda line: print(line, file=sys.stderr))
        if self.path.is_dir():
            raise StoreError(f"{self.path}: is a folder, not a results store file")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = self._open()
        found = self._versions()
        wanted = {"schema": str(SCHEMA_VERSION), "boardlab": _boardlab_version()}
        if found and found != wanted:
            self.db.close()
            try:
                aside = files.move_aside(self.path)
            except OSError as err:
                raise StoreError(f"{self.path}: written by another boardlab, and it cannot be moved aside "
                                 f"({err.strerror or err}); choose another file with --store") from None
            self.notice(f"{self.path}: written by boardlab {found.get('boardlab', '?')} (store schema "
                        f"{found.get('schema', '?')}); moved to {aside.name}, starting a new store")
            self.db = self._open()
            found = {}
            self._carry_playtests(aside)
        if not found:
            with self.db:
                self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", sorted(wanted.items()))

    def _carry_playtests(self, old: Path) -> None:
        """Copy the table games of a store moved aside into this new one: simulated games can be
        played again, a designer's playtests cannot."""
        try:
            self.db.execute("ATTACH DATABASE ? AS old", (str(old),))
        except sqlite3.Error:  # not readable: nothing to carry
            return
        try:
            with self.db:
                copied = self.db.execute("INSERT OR IGNORE INTO playtests (id, game, variant, definition, content) "
                                         "SELECT id, game, variant, definition, content FROM old.playtests "
                                         "ORDER BY seq").rowcount
        except sqlite3.Error:  # an old store without table games: nothing to carry
            copied = 0
        finally:
            self.db.execute("DETACH DATABASE old")
        if copied:
            self.notice(f"{self.path}: kept the {copied} playtest game{'s' if copied != 1 else ''} of {old.name}")

    def _open(self) -> sqlite3.Connection:
        try:
            # the play server writes from its worker threads, one at a time (its own lock)
            db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_TABLES)
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            for table, columns in _columns().items():
                found = tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))
                if found != columns:
                    raise sqlite3.DatabaseError(f"its table {table} has the columns {', '.join(found)}, "
                                                f"not {', '.join(columns)}")
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path}: not a usable results store ({err}); "
                             f"remove it or choose another file with --store") from None
        return db

    def _versions(self) -> dict:
        try:
            return dict(self.db.execute("SELECT name, value FROM meta"))
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path}: not a usable results store ({err}); "
                             f"remove it or choose another file with --store") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _guarded(self) -> Iterator[None]:
        """SQLite's errors (a read-only file, a full disk, a table changed under us) and records
        that do not decode, as one `StoreError` naming the file."""
        try:
            yield
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot use the results store ({err}); "
                             f"free some space, make it writable, or choose another file with --store") from None
        except (ValueError, TypeError) as err:  # a record that is not JSON, or not of a record's shape
            raise StoreError(f"{self.path}: a stored record is damaged ({one_line(str(err))}); "
                             f"remove the file or choose another with --store") from None

    # -- the API the runners feed ---------------------------------------------------------------
    def register(self, key: ConfigKey) -> str:
        """The configuration id of `key`, recorded with the key itself (for people reading the file)."""
        config = key.id()
        with self._guarded(), self.db:
            self.db.execute("INSERT OR IGNORE INTO configs VALUES (?, ?)",
                            (config, json.dumps(dataclasses.asdict(key), sort_keys=True)))
        return config

    def missing_blocks(self, config: str, blocks: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """The blocks of which at least one game is not stored."""
        have = self._stored_indices(config)
        return [(a, b) for a, b in blocks if any(i not in have for i in range(a, b))]

    def put_block(self, config: str, start: int, stop: int, records: Sequence[GameRecord], seconds: float) -> None:
        """Store a finished block (games start..stop-1) in one transaction.

        :raises ValueError: when the records are not exactly games start..stop-1.
        """
        if sorted(r.index for r in records) != list(range(start, stop)):
            raise ValueError(f"block {start}..{stop} got records of other games")
        with self._guarded(), self.db:
            self.db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                                [(config, r.index, encode_record(r)) for r in records])
            self.db.execute("INSERT OR REPLACE INTO blocks VALUES (?, ?, ?, ?)", (config, start, stop, seconds))

    def records(self, config: str, games: int) -> list[GameRecord]:
        """Games 0..games-1 of a configuration, sorted by index.

        :raises KeyError: when one of them is not stored.
        """
        with self._guarded():
            rows = self.db.execute("SELECT idx, record FROM games WHERE config = ? AND idx < ? ORDER BY idx",
                                   (config, games))
            found = [decode_record(i, text) for i, text in rows]  # row by row: never every text at once
            if len(found) != games:
                raise KeyError(f"{games - len(found)} of {games} games of {config[:12]} are not stored")
            return found

    def record_chunks(self, config: str, games: int, size: int = 8192) -> Iterator[list[GameRecord]]:
        """Games 0..games-1 of a configuration as `records` gives them, in lists of at most `size`
        (a caller that tallies them never holds every record at once).

        :raises KeyError: when one of them is not stored.
        """
        for start in range(0, games, size):
            stop = min(games, start + size)
            with self._guarded():
                rows = self.db.execute("SELECT idx, record FROM games WHERE config = ? AND idx >= ? AND idx < ? "
                                       "ORDER BY idx", (config, start, stop))
                chunk = [decode_record(i, text) for i, text in rows]
            if len(chunk) != stop - start:
                raise KeyError(f"{stop - start - len(chunk)} of games {start}..{stop - 1} of {config[:12]} are not stored")
            yield chunk

    def seconds(self, config: str, games: int) -> float:
        """Compute time recorded for the blocks that lie within games 0..games-1."""
        with self._guarded():
            row = self.db.execute("SELECT COALESCE(SUM(seconds), 0) FROM blocks WHERE config = ? AND stop <= ?",
                                  (config, games)).fetchone()
            return float(row[0])

    def cached(self, key: dict, compute: Callable[[], object]) -> Any:
        """The JSON-ready result of `compute()` for `key`, computed once and then read from the store
        (Any: the JSON value as `json.loads` gives it back, of the shape `compute` made).

        For deterministic results other than game records (exact tables, deal statistics): `key`
        must hold everything they depend on (include an engine fingerprint).
        """
        name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
        with self._guarded():
            row = self.db.execute("SELECT value FROM results WHERE key = ?", (name,)).fetchone()
            if row is not None:
                return json.loads(row[0])
        text = json.dumps(compute(), sort_keys=True)
        with self._guarded(), self.db:
            self.db.execute("INSERT OR REPLACE INTO results VALUES (?, ?)", (name, text))
        return json.loads(text)

    # -- table games (playtests: `boardlab.analysis.playtests`), apart from the simulated ones --------
    def put_playtests(self, games: Sequence[TableGame]) -> tuple[list[str], int]:
        """Store table games in one transaction; a game already stored (the same content logged
        as often before) is not stored again.  Returns (ids of the games added, how many were
        there already).
        """
        added, already = [], 0
        with self._guarded(), self.db:
            seen: dict[str, int] = {}
            for game in games:
                base = game.identity()
                occurrence = seen.get(base, 0)
                seen[base] = occurrence + 1
                ident = game.identity(occurrence)
                if self.db.execute("SELECT 1 FROM playtests WHERE id = ?", (ident,)).fetchone():
                    already += 1
                    continue
                self.db.execute("INSERT INTO playtests (id, game, variant, definition, content) VALUES (?, ?, ?, ?, ?)",
                                (ident, game.game, game.variant, game.definition,
                                 json.dumps(game.content(), sort_keys=True, separators=(",", ":"))))
                added.append(ident)
        return added, already

    def add_playtest(self, game: TableGame) -> str:
        """Store one table game, also when an identical one is stored (two games played alike);
        returns its id."""
        with self._guarded(), self.db:
            occurrence = 0
            while self.db.execute("SELECT 1 FROM playtests WHERE id = ?", (game.identity(occurrence),)).fetchone():
                occurrence += 1
            ident = game.identity(occurrence)
            self.db.execute("INSERT INTO playtests (id, game, variant, definition, content) VALUES (?, ?, ?, ?, ?)",
                            (ident, game.game, game.variant, game.definition,
                             json.dumps(game.content(), sort_keys=True, separators=(",", ":"))))
        return ident

    def playtests(self, game: str) -> list[tuple[str, TableGame]]:
        """(id, game) of every table game of `game` stored, in the order they were stored."""
        from boardlab.analysis.playtests import TableGame

        with self._guarded():
            rows = self.db.execute("SELECT id, content FROM playtests WHERE game = ? ORDER BY seq", (game,)).fetchall()
            return [(ident, TableGame.from_content(json.loads(text))) for ident, text in rows]

    def remove_playtests(self, game: str, prefix: str) -> list[str]:
        """Remove the table games of `game` whose id starts with `prefix`; returns their ids."""
        with self._guarded(), self.db:
            ids = [i for (i,) in self.db.execute("SELECT id FROM playtests WHERE game = ? AND substr(id, 1, ?) = ?",
                                                (game, len(prefix), prefix))]
            self.db.executemany("DELETE FROM playtests WHERE id = ?", [(i,) for i in ids])
        return ids

    # -- games in progress in `boardlab play` (boardlab.play_server), resumed after a restart ---------
    def put_open_game(self, ident: str, game: str, definition: str, content: dict) -> None:
        """Keep (or replace) the game in progress `ident` of `game` under `definition` (its hash)."""
        import time

        with self._guarded(), self.db:
            self.db.execute("INSERT OR REPLACE INTO open_games VALUES (?, ?, ?, ?, ?)",
                            (ident, game, definition, time.time(), json.dumps(content, sort_keys=True)))

    def open_games(self, game: str, definition: str) -> list[tuple[str, dict]]:
        """(id, content) of the games kept for `game` under `definition`, least recently changed first."""
        with self._guarded():
            rows = self.db.execute("SELECT id, content FROM open_games WHERE game = ? AND definition = ? "
                                   "ORDER BY updated, id", (game, definition)).fetchall()
            return [(ident, json.loads(text)) for ident, text in rows]

    def drop_open_games(self, idents: Sequence[str]) -> None:
        with self._guarded(), self.db:
            self.db.executemany("DELETE FROM open_games WHERE id = ?", [(i,) for i in idents])

    def _stored_indices(self, config: str) -> set[int]:
        with self._guarded():
            return {i for (i,) in self.db.execute("SELECT idx FROM games WHERE config = ?", (config,))}



def config_key(game: Game, agent_names: Sequence[str], seed: int, seat_rotation: bool) -> ConfigKey:
    """The `ConfigKey` of a simulation of `game` (a `protocol.Game` built from a definition)."""
    definition = game.definition
    return ConfigKey(game.id, definition_hash(definition), game.variant, game.players, tuple(agent_names), seed,
                     seat_rotation, engine_fingerprint(game_entry(game.id).engine))


def run_stored(store: ResultStore, game: Game, agents: Sequence[AgentFactory], games: int, seed: int,
               agent_names: Sequence[str], workers: int | None = None, seat_rotation: bool = True,
               progress: Progress | None = None) -> tuple[list[GameRecord], dict]:
    """`runner.run` through the store: play only the missing blocks, save each as it finishes.

    Returns (records read back from the store, summary); the summary's `seconds` is the compute
    time the store recorded for these games, so it too is the same on every rerun.
    `progress` is a `runner.Progress` (its total should count the games still to play), or None.
    """
    from boardlab.analysis import runner
    match = runner.make_match(game, agents, seed, seat_rotation, agent_names)
    config = store.register(config_key(game, match.agent_names, seed, match.seat_rotation))
    todo = store.missing_blocks(config, runner.blocks_of(match, games))
    if todo:  # each block is saved as it arrives and not kept: only the read-back records are
        runner.stream_blocks(match, todo, lambda start, stop, records, seconds: store.put_block(
            config, start, stop, records, seconds), workers, progress=progress)
    records = store.records(config, games)
    return records, runner.summarize(game, match, records, round(store.seconds(config, games), 3))


def games_to_play(store: ResultStore, game: Game, agents: Sequence[AgentFactory], games: int, seed: int, agent_names: Sequence[str],
                  seat_rotation: bool = True) -> int:
    """How many of a simulation's games are not stored yet (for progress bars)."""
    from boardlab.analysis import runner
    match = runner.make_match(game, agents, seed, seat_rotation, agent_names)
    config = config_key(game, match.agent_names, seed, match.seat_rotation).id()
    return sum(b - a for a, b in store.missing_blocks(config, runner.blocks_of(match, games)))

"""Table games: a designer's playtest log, read from a CSV file or from flags, checked, and kept.

A playtest is a game played at a real table (or in `boardlab play`), not by the simulation.  It
is kept in the results store (`store.ResultStore.put_playtests`) apart from the simulated games,
tied to the game, the variant and the hash of the definition it was played under: a game logged
against an earlier version of the rules stays stored and is shown as such, never mixed in
silently with games of the current rules.

The CSV log has one row per game and a header row naming its columns, in any order:

=========  ========  ======================================================================
column     needed    what it holds
=========  ========  ======================================================================
date       yes       the day played, YYYY-MM-DD
players    yes       how many played
seats      yes       the players' names or labels in playing order, separated by ";"
started    no        who started (one of seats; default: the first of seats)
winners    one of    who won, names separated by ";" (several: a shared win), or "none"
scores     these     final scores, one number per name of seats, in the same order
ranking    three     every name of seats once, separated by ";", the winner first
turns      no        turns played (games counted in turns)
rounds     no        rounds played (games counted in rounds)
minutes    no        minutes at the table
variant    no        the variant played (default: the game's own rules)
notes      no        free text
definition no        the definition hash the game was played under (written by export)
=========  ========  ======================================================================

Seats are numbered from the player who started: seat 1 starts, seat 2 plays next, and so on,
as the simulation numbers them.  Winners come from `winners` when given, else from the highest
score (ties share the win), else from the first of `ranking`.  The file may use ",", ";" or a
tab between columns (what a spreadsheet writes); names and notes stay in the store on this
machine.

Every problem of a file is said, one line each (`FILE:LINE: column: what`), and nothing is
stored unless the whole file is right (`read_log` raises `DefinitionError`).

>>> import io
>>> text = "date,players,seats,winners,rounds,minutes\\n2026-11-28,3,Ann;Bo;Cy,Bo,14,12.5\\n"
>>> [game] = read_log(io.StringIO(text), "log.csv", "sixbysix")
>>> game.seats, game.winners, game.length, game.minutes
(('Ann', 'Bo', 'Cy'), (1,), 14, 12.5)
"""

from __future__ import annotations

import csv
import dataclasses
import datetime
import difflib
import hashlib
import io
import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Sequence, TextIO, TypeVar

from boardlab.layouts.common import GameDefinition, MeasuredPace
from boardlab.layouts.errors import BoardlabError, DefinitionError, Problem, one_line

if TYPE_CHECKING:
    from boardlab.analysis.store import ResultStore
    from boardlab.analysis.sweep import Point

_T = TypeVar("_T")
#: a loaded definition, of whichever game
_D = TypeVar("_D", bound=GameDefinition)

#: the columns of a playtest log, in the order `write_log` writes them
COLUMNS = ("date", "variant", "players", "seats", "started", "winners", "scores", "ranking", "turns", "rounds",
           "minutes", "notes", "definition")
#: columns every log needs
REQUIRED = ("date", "players", "seats")
#: at least one of these says who won
OUTCOME_COLUMNS = ("winners", "scores", "ranking")
#: what separates names (and scores) inside one column
SEPARATOR = ";"
#: the word of the winners column for a game nobody won
NOBODY = "none"
#: the most minutes one logged game may last (a day), and the most rows one log may hold
MAX_MINUTES = 24 * 60
MAX_ROWS = 100_000
#: where a game came from
TABLE, BROWSER = "table", "browser"


@dataclass(frozen=True)
class TableGame:
    """One game played by people: seats numbered from the starter (seat 0 started)."""

    game: str
    variant: str  # "baseline" for the game's own rules
    definition: str  # `store.definition_hash` of the definition it was played under
    date: str  # YYYY-MM-DD
    seats: tuple[str, ...]  # names (or labels) per seat, the starter first
    winners: tuple[int, ...]  # seats; () for a game nobody won
    length: int | None = None  # turns or rounds, in the game's own unit (`unit`)
    unit: str = "turns"
    minutes: float | None = None
    scores: tuple[float, ...] | None = None
    ranking: tuple[int, ...] | None = None  # seats, the winner first
    notes: str = ""
    source: str = TABLE  # TABLE or BROWSER
    #: a browser game's saved record (`boardlab.playtest.Session.record()`), for replay
    record: dict | None = field(default=None, compare=False)

    @property
    def players(self) -> int:
        return len(self.seats)

    def content(self) -> dict:
        """The game as JSON-ready data (what the store keeps)."""
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v)
                for f in dataclasses.fields(self)}

    @classmethod
    def from_content(cls, data: dict) -> "TableGame":
        """The inverse of `content`."""
        values = dict(data)
        for name in ("seats", "winners", "scores", "ranking"):
            if values.get(name) is not None:
                values[name] = tuple(values[name])
        return cls(**values)

    def identity(self, occurrence: int = 0) -> str:
        """SHA-256 of the game's content and `occurrence` (the number of identical games logged
        before it): importing the same log again adds nothing, two identical rows stay two games.
        """
        data = self.content()
        data.pop("record")
        text = json.dumps([data, occurrence], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def winner_names(self) -> str:
        return SEPARATOR.join(self.seats[s] for s in self.winners) if self.winners else NOBODY


@dataclass(frozen=True)
class LogContext:
    """What checking a row needs to know about the game: its variants, their hashes, its unit."""

    game: str
    name: str  # the game's name, for messages
    min_players: int
    max_players: int
    unit: str  # "turns" or "rounds"
    variants: dict  # variant name -> definition hash ("baseline" included)

    @classmethod
    def of(cls, game_id: str) -> "LogContext":
        """The context of a registered game with a rules engine.

        :raises BoardlabError: for an unknown game or one without an engine.
        """
        from boardlab.analysis import engines
        from boardlab.analysis.store import definition_hash
        from boardlab.layouts import game_entry, load, variants_of

        if not game_entry(game_id).has("engine"):
            raise BoardlabError(f"{game_id} has no rules engine yet: its playtests could not be compared")
        definition = load(game_id)
        info = definition.game
        unit = engines.make_game(definition, info.min_players).length_unit
        variants = {"baseline": definition_hash(definition)}
        for name in variants_of(game_id):
            try:
                variants[name] = definition_hash(load(name))
            except BoardlabError:  # a broken variant file: it cannot be named in a log
                continue
        return cls(game_id, info.name, info.min_players, info.max_players, unit, variants)

    def variant_name(self, text: str) -> str:
        """The variant a log names: "", "baseline" or the game id for the game's own rules; a
        variant's name with or without the game's id in front.

        :raises ValueError: for a name that is no variant of the game.
        """
        text = text.strip()
        if text in ("", "baseline", self.game):
            return "baseline"
        for name in (text, f"{self.game}-{text}"):
            if name in self.variants:
                return name
        known = ", ".join(sorted(v for v in self.variants if v != "baseline")) or "none"
        raise ValueError(f"'{text}' is not a variant of {self.game} (variants: {known}; "
                         f"empty for the game's own rules)")


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(SEPARATOR)] if text.strip() else []


def _number(text: str, what: str) -> float:
    try:
        value = float(text.replace(",", ".")) if text.count(",") == 1 and "." not in text else float(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a number ({what})") from None
    if not math.isfinite(value):
        raise ValueError(f"'{text}' is not a number ({what})")
    return value


def _whole(text: str, what: str, least: int, most: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a whole number ({what})") from None
    if not least <= value <= most:
        raise ValueError(f"{value} is not between {least} and {most} ({what})")
    return value


def check_row(row: dict, context: LogContext) -> tuple[TableGame | None, list[tuple[str, str]]]:
    """A log row (column -> text, columns absent from the file missing) as a `TableGame`, or
    None and its problems as (column, message) pairs, every problem of the row."""
    problems: list[tuple[str, str]] = []

    def checked(column: str, read: Callable[[str], _T]) -> _T | None:
        text = (row.get(column) or "").strip()
        try:
            return read(text)
        except ValueError as err:
            problems.append((column, str(err)))
            return None

    def date(text: str) -> str:
        if not text:
            raise ValueError("empty (the day played, YYYY-MM-DD)")
        try:
            return datetime.date.fromisoformat(text).isoformat() if len(text) == 10 else _bad_date(text)
        except ValueError:
            return _bad_date(text)

    day = checked("date", date)
    variant = checked("variant", context.variant_name)
    players = checked("players", lambda t: _whole(t, f"players of {context.name}", context.min_players,
                                                  context.max_players))

    def seat_list(text: str) -> list[str]:
        names = _names(text)
        if not names or any(not n for n in names):
            raise ValueError(f"give every player's name or label in playing order, separated by '{SEPARATOR}'")
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"{', '.join(doubled)} named twice (give each seat its own name or label)")
        if players is not None and len(names) != players:
            raise ValueError(f"{len(names)} names for {players} players")
        return names

    seats = checked("seats", seat_list)

    def at_table(name: str, column: str) -> int:
        assert seats is not None
        if name not in seats:
            raise ValueError(f"'{name}' is not at the table (seats: {', '.join(seats)})")
        return seats.index(name)

    started = 0
    if seats is not None:
        started = checked("started", lambda t: at_table(t, "started") if t else 0) or 0
        order = seats[started:] + seats[:started]  # seat 0 is the starter

        def winners(text: str) -> tuple[int, ...] | None:
            if not text:
                return None
            if text.lower() == NOBODY:
                return ()
            names = _names(text)
            if any(not n for n in names):
                raise ValueError(f"an empty name among the winners (separate names with '{SEPARATOR}')")
            return tuple(sorted({order.index(seats[at_table(n, 'winners')]) for n in names}))

        def scores(text: str) -> tuple[float, ...] | None:
            if not text:
                return None
            values = [_number(v, "a score") for v in text.split(SEPARATOR)]
            if len(values) != len(seats):
                raise ValueError(f"{len(values)} scores for {len(seats)} seats (one per name of seats, in that order)")
            return tuple(values[started:] + values[:started])

        def ranking(text: str) -> tuple[int, ...] | None:
            if not text:
                return None
            names = _names(text)
            places = [order.index(seats[at_table(n, "ranking")]) for n in names]
            if sorted(places) != list(range(len(seats))):
                raise ValueError("name every player of seats once, the winner first")
            return tuple(places)

        won = checked("winners", winners)
        scored = checked("scores", scores)
        ranked = checked("ranking", ranking)
        if won is None and not any(c in (p[0] for p in problems) for c in OUTCOME_COLUMNS):
            if scored is not None:
                best = max(scored)
                won = tuple(s for s, v in enumerate(scored) if v == best)
            elif ranked is not None:
                won = (ranked[0],)
            else:
                problems.append(("winners", "say who won: winners (or 'none'), scores or ranking"))
    other = "rounds" if context.unit == "turns" else "turns"
    if (row.get(other) or "").strip():
        problems.append((other, f"{context.name} is counted in {context.unit}, not {other} "
                                f"(give the length in the column {context.unit})"))
    length = checked(context.unit, lambda t: _whole(t, context.unit, 1, 100_000) if t else None)

    def minutes(text: str) -> float | None:
        if not text:
            return None
        value = _number(text, "minutes at the table")
        if not 0 < value <= MAX_MINUTES:
            raise ValueError(f"{text} minutes is not between 0 and {MAX_MINUTES} (minutes at the table)")
        return value

    spent = checked("minutes", minutes)

    def definition(text: str) -> str | None:
        if not text:
            return None
        if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise ValueError("not a definition hash (64 hexadecimal digits, as export writes it; "
                             "leave it empty for the current rules)")
        return text

    played_under = checked("definition", definition)
    if problems:
        return None, problems
    assert seats is not None and variant is not None and day is not None and won is not None
    return TableGame(context.game, variant, played_under or context.variants[variant], day,
                     tuple(seats[started:] + seats[:started]), won, length, context.unit, spent,
                     scored, ranked, (row.get("notes") or "").strip()), []


def _bad_date(text: str) -> str:
    raise ValueError(f"'{text}' is not a date YYYY-MM-DD")


def _delimiter(header: str) -> str:
    """The column separator of a log: the one of ",", ";" and tab that splits its header most."""
    return max(",;\t", key=lambda d: (sum(c.strip().lower() in COLUMNS for c in header.split(d)), d == ","))


def read_log(stream: TextIO, name: str, game_id: str, context: LogContext | None = None) -> list[TableGame]:
    """The games of a CSV playtest log (see the module docstring), every row checked.

    :raises DefinitionError: with one `FILE:LINE: column: what` problem per mistake, when there is any.
    """
    context = context or LogContext.of(game_id)
    text = stream.read()
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise DefinitionError([Problem(name, 1, "header", "empty: the first line names the columns",
                                       f"at least {', '.join(REQUIRED)} and one of {', '.join(OUTCOME_COLUMNS)}")])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(lines[0]))
    try:
        header = [c.strip().lower() for c in next(reader)]
    except csv.Error as err:
        raise DefinitionError([Problem(name, 1, "header", f"not a CSV line ({err})")]) from None
    problems: list[Problem] = []
    for column in header:
        if column not in COLUMNS:
            close = difflib.get_close_matches(column, COLUMNS, 1)
            problems.append(Problem(name, 1, column or "(empty)", "unknown column" + (f"; did you mean {close[0]}?"
                                                                                      if close else ""),
                                    f"columns: {', '.join(COLUMNS)}"))
    doubled = sorted({c for c in header if header.count(c) > 1})
    problems += [Problem(name, 1, c, "named twice in the header") for c in doubled]
    problems += [Problem(name, 1, c, "missing column (needed)") for c in REQUIRED if c not in header]
    if not any(c in header for c in OUTCOME_COLUMNS):
        problems.append(Problem(name, 1, "winners", "missing column: give winners, scores or ranking"))
    if problems:
        raise DefinitionError(problems)
    games: list[TableGame] = []
    line = reader.line_num
    try:
        for cells in reader:
            start, line = line + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue  # a blank line (spreadsheets write some at the end)
            if len(games) + len(problems) >= MAX_ROWS:
                raise DefinitionError([Problem(name, start, "rows", f"more than {MAX_ROWS:,} games in one log")])
            if len(cells) > len(header):
                problems.append(Problem(name, start, "row", f"{len(cells)} cells for {len(header)} columns "
                                                            f"(a separator inside a name or note? quote that cell)"))
                continue
            row = dict(zip(header, cells))
            game, found = check_row(row, context)
            problems += [Problem(name, start, column, message) for column, message in found]
            if game is not None:
                games.append(game)
    except csv.Error as err:
        problems.append(Problem(name, line + 1, "row", f"not a CSV line ({one_line(str(err))})"))
    if problems:
        raise DefinitionError(problems)
    return games


def write_log(games: Iterable[TableGame], stream: TextIO) -> None:
    """Games as a CSV log that `read_log` reads back to the same games (seats starter first)."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(COLUMNS)
    for game in games:
        def joined(values: Sequence[str] | None) -> str:
            return "" if values is None else SEPARATOR.join(values)
        writer.writerow([
            game.date, game.variant, game.players, joined(game.seats), game.seats[0], game.winner_names(),
            joined(None if game.scores is None else [f"{s:g}" for s in game.scores]),
            joined(None if game.ranking is None else [game.seats[s] for s in game.ranking]),
            game.length if game.unit == "turns" and game.length is not None else "",
            game.length if game.unit == "rounds" and game.length is not None else "",
            "" if game.minutes is None else f"{game.minutes:g}", game.notes, game.definition])


#: the fewest timed playtests (minutes and length both logged) a measured pace needs
MIN_PACE_GAMES = 3


def ratio_pace(games: Sequence[TableGame], players: int | None) -> MeasuredPace:
    """Seconds per turn or round of `games` (each with minutes and length): the ratio of the
    sums (all the seconds over all the turns or rounds, so a long game weighs as much as its
    length), with the 95% interval of a ratio estimator (Student's t with n - 1 degrees of freedom
    on the residuals seconds - pace x length).

    :raises ValueError: with fewer than two games.

    >>> g = [TableGame("x", "baseline", "h", "2026-01-01", ("a", "b"), (0,), n, "turns", n / 2) for n in (10, 20, 40)]
    >>> p = ratio_pace(g, None)
    >>> p.seconds, p.low, p.high, p.games
    (30.0, 30.0, 30.0, 3)
    """
    from scipy.stats import t as student

    if len(games) < 2:
        raise ValueError("a pace needs at least two timed games")
    lengths = [float(g.length or 0) for g in games]
    seconds = [60.0 * (g.minutes or 0.0) for g in games]
    n = len(games)
    pace = sum(seconds) / sum(lengths)
    residual = sum((y - pace * x) ** 2 for x, y in zip(lengths, seconds)) / (n - 1)
    half = float(student.ppf(0.975, n - 1)) * math.sqrt(residual / n) / (sum(lengths) / n)
    return MeasuredPace(players, round(pace, 1), round(max(pace - half, 0.0), 1), round(pace + half, 1), n)


def measured_paces(games: Iterable[TableGame], definition: str, unit: str) -> tuple[MeasuredPace, ...]:
    """The paces the playtests of one definition (its hash) measure: one per player count with at
    least `MIN_PACE_GAMES` timed games and, for a game counted in turns (a turn takes about as
    long whatever the player count), one over every count; a round of more players takes longer,
    so rounds are measured per count only."""
    timed = [g for g in games if g.definition == definition and g.minutes and g.length]
    out = []
    for players in sorted({g.players for g in timed}):
        mine = [g for g in timed if g.players == players]
        if len(mine) >= MIN_PACE_GAMES:
            out.append(ratio_pace(mine, players))
    if unit == "turns" and len(timed) >= MIN_PACE_GAMES and len({g.players for g in timed}) > 1:
        out.append(ratio_pace(timed, None))
    elif unit == "turns" and len(timed) >= MIN_PACE_GAMES:
        out.append(dataclasses.replace(out[0], players=None))
    return tuple(out)


def with_measured_pace(definition: _D, store: ResultStore) -> _D:
    """`definition` with the paces its playtests in `store` measure (`measured_paces`), which then
    replace its stated pace for table minutes (`report.sections.pace`); the definition itself when
    none is measured or the definition type cannot carry one (its hash never changes)."""
    from boardlab.analysis import engines
    from boardlab.analysis.store import definition_hash

    if not hasattr(definition, "measured_paces"):
        return definition
    info = definition.game
    try:
        unit = engines.make_game(definition, info.min_players).length_unit
    except BoardlabError:  # a game without an engine has no lengths to time
        return definition
    mine = [g for _, g in store.playtests(info.id) if g.variant == definition.variant]
    paces = measured_paces(mine, definition_hash(definition), unit)
    return dataclasses.replace(definition, measured_paces=paces) if paces else definition


def carry_measured_pace(points: Iterable[Point], definition: GameDefinition, store: ResultStore) -> None:
    """Give every playable sweep or tune point (`sweep.Point`) the paces the playtests of the
    definition it varies measured: a point's rule change is taken not to change the time a turn or
    round takes at the table (its minutes are the point's lengths at the measured pace)."""
    measured = with_measured_pace(definition, store)
    paces = getattr(measured, "measured_paces", ())
    for point in points:
        if paces and point.definition is not None and hasattr(point.definition, "measured_paces"):
            point.definition = dataclasses.replace(point.definition, measured_paces=paces)

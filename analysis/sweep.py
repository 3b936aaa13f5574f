"""Parameter sweeps: a definition played at every point of a grid of key values, on the same seeds.

A sweep varies one or more keys of a definition (`Axis`: a key and its values, read from
`KEY=VALUES` by `parse_axis`).  VALUES is a list (`3,4,5`, `house,winner`, `true,false`) or a
whole-number range (`10..40`, every value, or `10..40:5`, every fifth).  Every value is read as
the key's type in the definition's schema and checked there (types, limits) before anything is
played: a value the schema refuses is bad input.  Keys of the sections that change how the
game looks, never how it plays (`NO_PLAY_SECTIONS`), are refused.

Several axes make a grid (`grid`: every combination, the first axis varying slowest).  Each
point is the definition with those keys changed (`loader.load_with`, as a variant file holding
only those keys would load), checked by the game's own `check()`; a point that check refuses,
or that the engine cannot play, is *refused* (with the reason) and the sweep goes on.

Every point plays the same games: the same seed, so the same deals and dice (common random
numbers), and a point's games go through the results store like every other run, so a sweep
resumes and a rerun plays nothing.  `point_metrics` measures one point: every headline metric
with its 95% interval (`report.metrics.HEADLINE`) and the game's own per-game figures.
"""

from __future__ import annotations

import itertools
import math
import re
import types
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Sequence

from boardlab.layouts.errors import BoardlabError, DefinitionError
from boardlab.layouts.limits import MAX_INTEGER_DIGITS
from boardlab.layouts.loader import load_with
from boardlab.layouts.schema import key_field, key_names, type_name

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.runner import Backend, GameRecord
    from boardlab.analysis.store import ResultStore

#: sections whose keys change how a game looks, never how it plays: a sweep never varies them
NO_PLAY_SECTIONS = ("print", "rulebook", "colours", "layout", "icons")
#: the section that names the game and states its facts (id, name, player counts): never varied, a
#: point must stay the same game (its id picks the engine, its player counts the grid's players)
IDENTITY_SECTION = "game"
#: the most points one sweep or tune may have (a larger grid is refused, not tried)
MAX_POINTS = 2000
RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")


@dataclass(frozen=True)
class Axis:
    """One varied key: its path in the definition and its values, in the order given."""

    key: tuple[str, ...]
    values: tuple

    @property
    def name(self) -> str:
        return ".".join(self.key)


def value_text(value: Any) -> str:
    """A value as the command line and a definition file write it.

    >>> value_text(True), value_text(30), value_text("house")
    ('true', '30', 'house')
    """
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _allowed(tp: Any) -> list:
    """The values a Literal or true/false key can take; empty for any other type."""
    if tp is bool:
        return [True, False]
    if typing.get_origin(tp) is Literal:
        return list(typing.get_args(tp))
    return []


def _scalar(tp: Any) -> Any:
    """The type of a plain key, an optional key's own type; None for lists and tables."""
    union = typing.get_origin(tp) in (typing.Union, types.UnionType)
    options = [a for a in typing.get_args(tp) if a is not type(None)] if union else [tp]
    scalars = [a for a in options if a in (bool, int, float, str) or typing.get_origin(a) is Literal]
    return scalars[0] if len(scalars) == 1 and len(options) == 1 else None


def _token(text: str, tp: Any, key: str) -> Any:
    """One listed value read as the key's type."""
    word = text.strip()
    if not word:
        raise BoardlabError(f"--vary {key}: an empty value in the list")
    if tp is bool:
        if word.lower() not in ("true", "false"):
            raise BoardlabError(f"--vary {key}: '{word}' is not true or false")
        return word.lower() == "true"
    if tp in (int, float) and len(word) > MAX_INTEGER_DIGITS + 10:  # checked before it is converted
        raise BoardlabError(f"--vary {key}: a value of {len(word):,} characters (a number has at most "
                            f"{MAX_INTEGER_DIGITS} digits)")
    if tp is int:
        try:
            return int(word)
        except ValueError:
            raise BoardlabError(f"--vary {key}: '{word}' is not a whole number") from None
    if tp is float:
        try:
            value = float(word)
        except ValueError:
            raise BoardlabError(f"--vary {key}: '{word}' is not a number") from None
        if not math.isfinite(value):
            raise BoardlabError(f"--vary {key}: '{word}' is not a finite number")
        return int(value) if value.is_integer() and "." not in word and "e" not in word.lower() else value
    choices = _allowed(tp)
    if choices:
        for choice in choices:
            if str(choice) == word:
                return choice
        raise BoardlabError(f"--vary {key}: unknown value '{word}' ({type_name(tp)})")
    return word


def parse_values(text: str, tp: Any, key: str) -> tuple:
    """The values of `KEY=VALUES` (a list or a whole-number range), read as type `tp`.

    >>> parse_values("10..40:10", int, "rules.chips")
    (10, 20, 30, 40)
    >>> parse_values("3..5", int, "k"), parse_values("true,false", bool, "k")
    ((3, 4, 5), (True, False))

    :raises BoardlabError: for a range with no values, a value of the wrong type, a repeated value.
    """
    m = RANGE.match(text)
    if m:
        if tp not in (int, float):
            raise BoardlabError(f"--vary {key}: a range {text.strip()} for a key that holds {type_name(tp)}")
        for bound in m.groups():
            if bound is not None and len(bound.lstrip("-")) > MAX_INTEGER_DIGITS:  # before int(): 5,000 digits
                raise BoardlabError(f"--vary {key}: a bound of {len(bound.lstrip('-')):,} digits in the range "
                                    f"(at most {MAX_INTEGER_DIGITS})")
        lo, hi, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if step <= 0:
            raise BoardlabError(f"--vary {key}: the step of {text.strip()} must be at least 1")
        if hi < lo:
            raise BoardlabError(f"--vary {key}: the range {text.strip()} holds no values (write LOW..HIGH, LOW <= HIGH)")
        count = (hi - lo) // step + 1  # counted before any list is built: 1..10^15 is refused, not tried
        if count > MAX_POINTS:
            raise BoardlabError(f"--vary {key}: {count:,} values, more than the {MAX_POINTS:,} a sweep may play")
        values = tuple(range(lo, hi + 1, step))
    else:
        count = text.count(",") + 1
        if count > MAX_POINTS:
            raise BoardlabError(f"--vary {key}: {count:,} values, more than the {MAX_POINTS:,} a sweep may play")
        values = tuple(_token(word, tp, key) for word in text.split(","))
    seen = [v for i, v in enumerate(values) if v in values[:i] and type(v) is type(values[values.index(v)])]
    if seen:
        raise BoardlabError(f"--vary {key}: the value {value_text(seen[0])} is listed twice")
    return values


def parse_axis(base: str, definition: GameDefinition, text: str, flag: str = "--vary") -> Axis:
    """`KEY=VALUES` as an axis of `definition` (loaded from `base`), every value checked by the schema.

    :raises BoardlabError: one line: no '=', an unknown key, a key of a section that changes no
        play, a list or table key, a value the schema refuses.
    """
    name, sep, values_text = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise BoardlabError(f"{flag} '{text}': write KEY=VALUES, e.g. rules.max_rounds=100..400:100")
    key = tuple(name.split("."))
    cls = type(definition)
    if key[0] in NO_PLAY_SECTIONS:
        raise BoardlabError(f"{flag} {name}: [{key[0]}] keys change how the game looks, not how it plays; "
                            f"vary a rule instead")
    if key[0] == IDENTITY_SECTION:
        raise BoardlabError(f"{flag} {name}: [{IDENTITY_SECTION}] keys say which game this is and its stated "
                            f"facts; vary a rule instead (another player count: --players)")
    found = key_field(cls, key)
    if found is None:
        import difflib

        keys = [k for k in key_names(cls) if k.split(".")[0] not in (*NO_PLAY_SECTIONS, IDENTITY_SECTION)]
        near = difflib.get_close_matches(name, keys, n=1, cutoff=0.6)
        raise BoardlabError(f"{flag} {name}: no such key in {definition.game.name}'s definition"
                            + (f"; did you mean {near[0]}?" if near else f" (keys: {', '.join(keys)})"))
    tp = _scalar(found[0])
    if tp is None:
        raise BoardlabError(f"{flag} {name}: holds {type_name(found[0])}; only a single number, word or "
                            f"true/false can be varied")
    values = parse_values(values_text, tp, name)
    for value in values:  # the schema's own check of each value on its own (types, limits)
        try:
            load_with(base, {key: value}, cross_checks=False)
        except DefinitionError as err:
            p = err.problems[0]
            raise BoardlabError(f"{flag} {name}={value_text(value)}: {p.message.split(', with the changes')[0]}"
                                + (f" ({p.allowed})" if p.allowed else "")) from None
    return Axis(key, values)


def check_axes(axes: Sequence[Axis]) -> None:
    """:raises BoardlabError: when a key is varied twice or the grid is too large."""
    names = [a.name for a in axes]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise BoardlabError(f"{n} is varied twice; give all its values in one --vary")
    size = 1
    for a in axes:
        size *= len(a.values)
    if size > MAX_POINTS:
        raise BoardlabError(f"the grid has {size:,} points, more than the {MAX_POINTS:,} a sweep may play")


@dataclass
class Point:
    """One combination of values: its definition, or the reason it cannot be played."""

    values: dict[str, Any]
    definition: Any = None
    refused: str = ""
    metrics: dict = field(default_factory=dict)
    games: int = 0

    def label(self) -> str:
        return ", ".join(f"{k} = {value_text(v)}" for k, v in self.values.items())


def grid(base: str, axes: Sequence[Axis], players: int) -> list[Point]:
    """Every combination of the axes' values (the first axis varying slowest) as a point: its
    definition checked by the game's `check()` and playable at `players`, or refused."""
    from boardlab.analysis import engines

    points = []
    for combo in itertools.product(*(a.values for a in axes)):
        changes = {a.key: v for a, v in zip(axes, combo)}
        point = Point({a.name: v for a, v in zip(axes, combo)})
        try:
            point.definition = load_with(base, changes)
            engines.make_game(point.definition, players)
        except DefinitionError as err:
            point.definition = None
            point.refused = "; ".join(f"{p.key}: {p.message.split(', with the changes')[0]}" for p in err.problems)
        except (BoardlabError, ValueError) as err:
            point.definition = None
            point.refused = str(err)
        points.append(point)
    return points


def playable_grid(base: str, axes: Sequence[Axis], players: int) -> list[Point]:
    """`grid`, when at least one point can be played.

    :raises BoardlabError: when the definition's checks or the engine refuse every point.
    """
    points = grid(base, axes, players)
    if all(p.refused for p in points):
        raise BoardlabError(f"every point is refused at {players} players, nothing to play "
                            f"({points[0].label()}: {points[0].refused})")
    return points


# -- what a point measures ---------------------------------------------------------------------

def metric_names(definition: GameDefinition) -> list[str]:
    """The headline metrics a point of `definition` has (`metrics.HEADLINE` shown by a sweep;
    minutes only with a stated pace)."""
    from boardlab.analysis.report.metrics import HEADLINE
    from boardlab.analysis.report.sections import pace

    unit = _unit(definition)
    return [m.id for m in HEADLINE if m.sweep and (not m.per_minute or pace(definition, unit))]


def _unit(definition: GameDefinition) -> str:
    from boardlab.analysis import engines

    game = engines.make_game(definition, definition.game.min_players)
    return game.length_unit


def own_figures(records: Sequence[GameRecord]) -> list[str]:
    """The game's own per-game figures: the keys of a record's stats that hold a number in every game."""
    if not records:
        return []
    keys = [k for k, v in records[0].stats.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return [k for k in keys if all(isinstance(r.stats.get(k), (int, float)) and not isinstance(r.stats.get(k), bool)
                                   for r in records)]


def point_metrics(records: Sequence[GameRecord], definition: GameDefinition, players: int) -> dict[str, dict]:
    """Every headline metric of one point's games that a sweep shows (`metrics.HEADLINE`), each
    {"value", "ci95", "n"} (n: the games it counts; `metrics.point_value`), then the game's own
    per-game figures (mean, normal 95% interval).

    The metrics are those of every report and comparison, computed from the same per-game
    tallies: seats on decided games (a shared win counts as its share), the length of finished
    games and its table minutes at the definition's pace, draws and capped games as shares of
    all games.
    """
    from boardlab.analysis.report.metrics import HEADLINE, mean_interval, point_value
    from boardlab.analysis.report.sections import pace

    seconds = pace(definition, _unit(definition), players)
    out: dict[str, dict] = {}
    for m in HEADLINE:
        value = point_value(m, records, players, seconds) if m.sweep else None
        if value is not None:
            out[m.id] = value
    for key in own_figures(records):
        if key not in out:
            out[key] = mean_interval([r.stats[key] for r in records])
    return out


def play_points(points: Sequence[Point], players: int, agent: str, games: int, seed: int, store: ResultStore,
                workers: int | None = None, progress: bool = True, backend: Backend | None = None,
                estimate: float | None = None) -> None:
    """Play `games` games at every playable point (all on seed `seed`) through the results store,
    all the points' missing blocks together, and measure each (`point.metrics`); `estimate`: the
    CPU seconds a budget expects of them, on the progress line."""
    from boardlab.analysis.report.jobs import Job, play_jobs

    live = [p for p in points if p.definition is not None]
    jobs = [Job(p.definition, players, (agent,) * players, games, seed) for p in live]
    measured = play_jobs(jobs, store, workers, progress, backend=backend, estimate=estimate,  # one point at a time
                         reduce=lambda outcome: point_metrics(outcome.records, outcome.job.definition, players))
    for point, metrics in zip(live, measured):
        point.games = games
        point.metrics = metrics


def point_json(point: Point) -> dict:
    """A point as the sweep's JSON holds it."""
    out: dict = {"values": dict(point.values)}
    if point.refused:
        out["refused"] = point.refused
    else:
        out["games"] = point.games
        out["metrics"] = point.metrics
    return out


@dataclass(frozen=True)
class SweepOptions:
    players: tuple[int, ...]
    agent: str
    games: int = 1000
    seed: int = 1
    workers: int | None = None
    progress: bool = True
    backend: Any = None  # a runner.Backend; None: `workers` local processes
    cpu_minutes: float | None = None  # the sweep's CPU budget: games per point sized to fit; None: no limit
    quick: bool = False


def sized_games(points_by_players: dict[int, list[Point]], agent: str, games: int, seed: int, store: ResultStore,
                budget: Budget) -> dict[int, int]:
    """{players: games per point} within `budget` (`budget.Budget`, phase "points"): every point of a
    player count plays the same games (a sweep compares points on common seeds), their cost per game
    probed on a few points (`budget.sampled_cost`); at least one rotation of the seats."""
    from boardlab.analysis.budget import Ask, sampled_cost
    from boardlab.analysis.report.jobs import Job

    asks, counts = [], []
    for players, points in points_by_players.items():
        live = [p for p in points if p.definition is not None]
        if not live:
            continue
        jobs = [Job(p.definition, players, (agent,) * players, games, seed) for p in live]
        cost = sampled_cost(jobs, store) if budget.limited else 0.0
        asks.append(Ask(str(players), cost * len(live), games, least=min(players, games), step=players, required=True,
                        facts={"players": players, "points": len(live)}))
        counts.append(players)
    return dict(zip(counts, budget.fit("points", asks)))


def sweep(base: str, definition: GameDefinition, axes: Sequence[Axis], store: ResultStore, options: SweepOptions,
          grids: dict[int, list[Point]] | None = None) -> dict:
    """The sweep's result (JSON-ready): every point at every player count, played or refused.

    `grids` holds each player count's points when the caller has made them already.
    """
    unit = _unit(definition)
    out: dict = {"game": definition.game.id, "name": definition.game.name,
                 "base": getattr(definition, "variant", "baseline"), "source": getattr(definition, "source", ""),
                 "axes": [{"key": a.name, "values": list(a.values)} for a in axes],
                 "written": {a.name: _get(definition, a.key) for a in axes},
                 "agent": options.agent, "games": options.games, "seed": options.seed, "length_unit": unit,
                 "stated_minutes": definition.game.minutes,
                 "minutes_source": getattr(definition.game, "minutes_source", ""), "by_players": []}
    from boardlab.analysis.playtests import carry_measured_pace, with_measured_pace
    from boardlab.analysis.report.sections import pace_data

    from boardlab.analysis.budget import Budget

    measured = with_measured_pace(definition, store)
    grids = {players: grids[players] if grids else grid(base, axes, players) for players in options.players}
    budget = Budget(options.cpu_minutes, quick=options.quick)
    games = sized_games(grids, options.agent, options.games, options.seed, store, budget)
    for players in options.players:
        points = grids[players]
        carry_measured_pace(points, definition, store)
        play_points(points, players, options.agent, games.get(players, options.games), options.seed, store,
                    options.workers, options.progress, options.backend,
                    budget.estimate("points", str(players)) if budget.limited else None)
        out["by_players"].append({"players": players, "pace": pace_data(measured, unit, players),
                                  "points": [point_json(p) for p in points]})
    bought = budget.bought()
    out["budget"] = {"cpu_minutes": bought["cpu_minutes"], "quick": bought["quick"],
                     "games_per_point": {str(n): g for n, g in games.items()},
                     "left_out": {str(n): options.games - g for n, g in games.items() if g < options.games}}
    return out


def _get(definition: object, key: tuple[str, ...]) -> Any:
    value = definition
    for part in key:
        value = getattr(value, part)
    return value


def known_metrics(definition: GameDefinition, players: int, agent: str, wanted: Sequence[str] = ()) -> list[str]:
    """The metrics a point of `definition` measures: the headline ones, and - only when `wanted`
    names something else - the game's own per-game figures, read from one game of the written
    rules played here (not stored, not counted anywhere)."""
    from boardlab.analysis import engines, runner

    names = metric_names(definition)
    if all(w in names for w in wanted):
        return names
    game = engines.make_game(definition, players)
    match = runner.make_match(game, [engines.agent_factories(definition.game.id)[agent]] * players, 0,
                              agent_names=[agent] * players)
    return names + [k for k in own_figures([runner.play_one(match, 0)]) if k not in names]

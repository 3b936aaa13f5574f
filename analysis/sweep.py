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
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Sequence

from boardlab.layouts.errors import BoardlabError, DefinitionError
from boardlab.layouts.limits import MAX_INTEGER_DIGITS
from boardlab.layouts.loader import load_with
from boardlab.layouts.schema import key_field, key_names, type_name

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.analysis.budget import Budget
    from boardlab.analysis.runner import Backend, GameRecord
    from boardlab.analysis.store import ResultStore
    from boardlab.analysis.report.jobs import Job

#: sections whose keys change how a game looks, never how it plays: a sweep never varies them
NO_PLAY_SECTIONS = ("print", "rulebook", "colours", "layout", "icons")
#: the section that names the game and states its facts (id, name, player counts): never varied, a
#: point must stay the same game (its id picks the engine, its player counts the grid's players)
IDENTITY_SECTION = "game"
#: records read from the store at a time when a point's games are tallied (`PointTally`)
CHUNK = 1024
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
    refused: str = ""  # why it cannot be played, in English (a bad-input line when every point is refused)
    reasons: list[tuple[str, str, str]] = field(default_factory=list)  # (key, message, allowed) of `refused`
    metrics: dict = field(default_factory=dict)
    games: int = 0
    stop: dict = field(default_factory=dict)  # a sequential sweep's answer (`sequential_points`)

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
            point.reasons = [(p.key, p.message.split(', with the changes')[0], p.allowed) for p in err.problems]
            point.refused = "; ".join(f"{key}: {message}" for key, message, _ in point.reasons)
        except (BoardlabError, ValueError) as err:
            point.definition = None
            point.reasons = [("", str(err), "")]
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


class PointTally:
    """What a sweep point keeps of its games, a chunk of records at a time (`point_metrics_tallied`):
    counts, exact sums and histograms of lengths, never a record, so that its memory is flat in the
    number of games; `metrics()` equals `point_metrics` of the same records (its slow, obvious twin,
    which the tests hold it to).  Every metric is tallied from its own per-game series
    (`metrics.Metric.series`, one chunk at a time): a share's numerators and denominators summed
    exactly, a mean's values counted, summed and squared exactly."""

    def __init__(self, players: int):
        from boardlab.analysis.report.metrics import HEADLINE
        from boardlab.analysis.tally import Histogram

        self.players = players
        self.unit = math.lcm(*range(1, players + 1))
        self.games = self.decided = self.capped = 0
        self.scaled = [0] * players  # credit per seat in units of 1/lcm(1..players) (`metrics.seat_counts`)
        self.finished, self.stopped = Histogram(), Histogram()  # lengths of finished and capped games
        #: per metric with a series: [sum of numerators, sum of denominators] (a share) or
        #: [count, sum, sum of squares] of the counted values (a mean), exact
        self.sums: dict[str, list] = {m.id: [0, 0, 0] for m in HEADLINE
                                      if m.sweep and m.series is not None and players >= m.least_players}
        self.own: dict[str, list] | None = None  # per own figure: [count, sum, sum of squares] (exact)

    def add(self, records: Iterable[GameRecord]) -> None:
        from fractions import Fraction

        from boardlab.analysis.report.metrics import metric

        records = list(records)
        for r in records:
            self.games += 1
            if r.unfinished:
                self.capped += 1
                self.stopped.counts[r.length] += 1
            else:
                self.finished.counts[r.length] += 1
                if r.winners:
                    self.decided += 1
                    for seat in r.winners:
                        self.scaled[seat] += self.unit // len(r.winners)
            numbers = {k: v for k, v in r.stats.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            if self.own is None:
                self.own = {k: [0, 0, 0] for k in numbers}
            for k in [k for k in self.own if k not in numbers]:
                del self.own[k]  # a figure some game lacks is no figure of every game
            for k, sums in self.own.items():
                _count(sums, numbers[k])
        for name, sums in self.sums.items():
            m = metric(name)
            assert m.series is not None
            numerators, denominators = m.series(records, self.players)
            if m.unit in ("share", "points"):
                sums[0] += sum(Fraction(x) for x in numerators)
                sums[1] += sum(denominators)
            else:
                for x, d in zip(numerators, denominators):
                    if d:
                        _count(sums, x)

    def median(self) -> dict:
        """`metrics.median_interval` of the lengths, from their histograms: the Kaplan-Meier median
        (the product-limit estimate over every distinct length, `stats.kaplan_meier`) and the order
        statistics of `metrics.median_ranks`, a stopped game sorted after every finished one."""
        from boardlab.analysis.report.metrics import NOTHING, median_ranks
        from boardlab.analysis.stats import survival_quantile

        finished, stopped = self.finished.counts, self.stopped.counts
        n = sum(finished.values()) + sum(stopped.values())
        if not n:
            return {**NOTHING, "at_least": False, "capped": 0.0}
        if not sum(finished.values()):
            times, survival = [float(max(stopped))], [1.0]
        else:
            times, survival, at_risk, s = [], [], n, 1.0
            for t in sorted(set(finished) | set(stopped)):
                s *= 1 - finished.get(t, 0) / at_risk
                times.append(float(t))
                survival.append(s)
                at_risk -= finished.get(t, 0) + stopped.get(t, 0)
        median, open_ = survival_quantile(times, survival, 0.5)

        def ranked(rank: int) -> float:
            seen = 0
            for counts in (finished, stopped):
                for v in sorted(counts):
                    seen += counts[v]
                    if seen >= rank:
                        return float(v)
            raise ValueError(rank)

        low, high = median_ranks(n)
        return {"value": round(median, 6), "ci95": [ranked(low), ranked(high)], "n": n, "at_least": bool(open_),
                "capped": round(sum(stopped.values()) / n, 6)}

    def metrics(self, definition: GameDefinition) -> dict[str, dict]:
        from boardlab.analysis.report.metrics import HEADLINE, NOTHING, balance_interval, share_value, _whole
        from boardlab.analysis.report.sections import pace

        n = self.players
        seconds = pace(definition, _unit(definition), n)
        out: dict[str, dict] = {}
        for m in HEADLINE:
            if not m.sweep or n < m.least_players or (m.per_minute and not seconds):
                continue
            scale = (seconds or 0) / 60
            if m.id == "balance":
                credits = [_whole(round(x / self.unit, 6)) for x in self.scaled]
                out[m.id] = balance_interval(credits, self.decided) if self.decided else dict(NOTHING)
            elif m.id == "median_minutes":
                got = self.median()
                out[m.id] = got if got["value"] is None else \
                    {**got, "value": round(got["value"] * scale, 6), "ci95": [round(x * scale, 6) for x in got["ci95"]]}
            elif m.unit in ("share", "points"):
                total, counted = self.sums[m.id][0], self.sums[m.id][1]
                if not counted:
                    out[m.id] = dict(NOTHING)
                    continue
                # float(): math.fsum of the numerators, their exact sum rounded once
                out[m.id] = share_value(float(total), counted, 1 / n if m.shift_by_fair else 0.0)
            else:  # a mean (the length), and the minutes at the pace
                got = _mean(*self.sums[m.id])
                if got["value"] is not None:
                    got["at_least"] = self.capped > 0
                    got["capped"] = round(self.capped / self.games, 6)
                if m.per_minute and got["value"] is not None:
                    got = {**got, "value": round(got["value"] * scale, 6), "ci95": [round(x * scale, 6) for x in got["ci95"]]}
                out[m.id] = got
        for key, sums in (self.own or {}).items():
            if key not in out:
                out[key] = _mean(*sums)
        return out


def _count(sums: list, value: float) -> None:
    """Add one value to [count, sum, sum of squares], exactly (a float as its exact fraction)."""
    from fractions import Fraction

    v = value if isinstance(value, int) else Fraction(value)
    sums[0] += 1
    sums[1] += v
    sums[2] += v * v


def _mean(n: int, total: Any, squares: Any) -> dict:
    """`metrics.mean_interval` from a count and exact sums."""
    from fractions import Fraction

    from boardlab.analysis.report.metrics import Z95

    if not n:
        return {"value": None, "ci95": [None, None], "n": 0}
    total, squares = Fraction(total), Fraction(squares)
    mean = float(total / n)
    var = float((squares - total * total / n) / (n - 1)) if n > 1 else 0.0
    half = Z95 * math.sqrt(max(var, 0.0) / n)
    return {"value": round(mean, 6), "ci95": [round(mean - half, 6), round(mean + half, 6)], "n": n}


def point_metrics_tallied(players: int) -> Callable[[Job, Iterator[list[GameRecord]]], dict[str, dict]]:
    """The `jobs.tally_jobs` fold of a point's games: `point_metrics` read a chunk at a time (`PointTally`)."""
    def fold(job: Job, chunks: Iterator[list[GameRecord]]) -> dict[str, dict]:
        tally = PointTally(players)
        for records in chunks:
            tally.add(records)
        return tally.metrics(job.definition)
    return fold


def play_points(points: Sequence[Point], players: int, agent: str, games: int, seed: int, store: ResultStore,
                workers: int | None = None, progress: bool = True, backend: Backend | None = None,
                estimate: float | None = None) -> None:
    """Play `games` games at every playable point (all on seed `seed`) through the results store,
    all the points' missing blocks together, and measure each (`point.metrics`); `estimate`: the
    CPU seconds a budget expects of them, on the progress line."""
    from boardlab.analysis.report.jobs import Job, tally_jobs

    live = [p for p in points if p.definition is not None]
    jobs = [Job(p.definition, players, (agent,) * players, games, seed) for p in live]
    # each point's games read from the store a chunk at a time and tallied: memory flat in the games
    measured = tally_jobs(jobs, store, point_metrics_tallied(players),
                          workers, progress, backend=backend, estimate=estimate, chunk=CHUNK)
    for point, metrics in zip(live, measured):
        point.games = games
        point.metrics = metrics


def refusal(point: Point) -> str:
    """Why a point was refused, in the language being written (`layouts.terms.speaking`): each
    check's key as written (code) and its message, in another language than English by the terms
    table's `{n}` patterns of the checks' English messages (`terms.word`).

    >>> p = Point({"analysis.favourite_number": 40}, refused="x",
    ...           reasons=[("analysis.favourite_number", "40 is not on the board", "a board number, 2..12")])
    >>> refusal(p)
    'analysis.favourite_number: 40 is not on the board'
    >>> from boardlab.layouts.terms import speaking
    >>> with speaking("es"):
    ...     refusal(p)
    'analysis.favourite_number: 40 no está en el tablero'
    """
    from boardlab.layouts.terms import word

    if not point.reasons:
        return point.refused
    return "; ".join((f"{key}: " if key else "") + word(message) for key, message, _ in point.reasons)


def in_language(result: dict, grids: dict[int, list[Point]]) -> dict:
    """A sweep's result with its refused points' reasons in the language being written (`refusal`):
    one sweep, its report in each language.  `grids` are the points the sweep played, by player count."""
    out = dict(result)
    out["by_players"] = [{**block, "points": [{**p, "refused": refusal(point)} if "refused" in p else p
                                              for p, point in zip(block["points"], grids[block["players"]])]}
                         for block in result["by_players"]]
    return out


def point_json(point: Point) -> dict:
    """A point as the sweep's JSON holds it (a refused point's reason in the language being written)."""
    out: dict = {"values": dict(point.values)}
    if point.refused:
        out["refused"] = refusal(point)
    else:
        out["games"] = point.games
        out["metrics"] = point.metrics
        if point.stop:
            out["stop"] = dict(point.stop)
    return out


# -- sequential points: a point stops once it is shown to differ from the written rules --------------

#: the metrics whose difference from the base point answers a sequential point (`difference_p`)
STOP_METRICS = ("first_player_advantage", "length", "draws", "capped")
#: the least rotations of the seats a point's first look plays (fewer: one look, at the cap)
LOOK_ROTATIONS = 10


def base_point(points: Sequence[Point], written: dict[str, Any]) -> Point | None:
    """The playable point whose values are the definition's written ones (None: the grid lacks them)."""
    for p in points:
        if p.definition is not None and all(p.values[k] == v and isinstance(p.values[k], bool) == isinstance(v, bool)
                                            for k, v in written.items()):
            return p
    return None


def look_games(games: int, players: int) -> tuple[int, ...]:
    """The games a sequential point has played after each look (`skill.LOOKS`: a quarter, a half and
    all of `games`, the first two in whole rotations of the seats); only `games` when a quarter is
    under `LOOK_ROTATIONS` rotations.

    >>> look_games(1000, 4), look_games(1000, 3), look_games(100, 4)
    ((248, 496, 1000), (249, 498, 1000), (100,))
    """
    from boardlab.analysis.skill import LOOKS

    first = games // LOOKS[-1] // players * players
    if first < LOOK_ROTATIONS * players:
        return (games,)
    return tuple(first * k for k in LOOKS[:-1]) + (games,)


def difference_p(metrics: dict, base: dict, looks: int) -> float:
    """The p-value that a point differs from the base point on any of `STOP_METRICS`, over `looks`
    sequential looks: each metric's difference over its standard error (each side's from the width
    of its 95% interval, the two sides taken as independent: the common seeds make their games
    agree more than that, so the error is overstated and the test conservative), its two-sided
    normal p, the smallest times the metrics compared times `looks` (Bonferroni over both), at most 1.

    >>> base = {"length": {"value": 10.0, "ci95": [9.0, 11.0]}}
    >>> round(difference_p({"length": {"value": 13.0, "ci95": [12.0, 14.0]}}, base, 3), 6)  # z = 4.16
    9.6e-05
    >>> difference_p(base, base, 3)
    1.0
    """
    from statistics import NormalDist

    from boardlab.analysis.report.metrics import Z95

    found = []
    for name in STOP_METRICS:
        a, b = metrics.get(name), base.get(name)
        if not a or not b or a.get("value") is None or b.get("value") is None:
            continue
        diff = a["value"] - b["value"]
        se = math.hypot(a["ci95"][1] - a["ci95"][0], b["ci95"][1] - b["ci95"][0]) / (2 * Z95)
        found.append((0.0 if diff else 1.0) if se == 0 else 2 * NormalDist().cdf(-abs(diff) / se))
    return min(1.0, min(found) * len(found) * looks) if found else 1.0


def sequential_points(points: Sequence[Point], base: Point | None, players: int, agent: str, games: int, seed: int,
                      store: ResultStore, workers: int | None = None, progress: bool = True,
                      backend: Backend | None = None, estimate: float | None = None) -> tuple[int, ...]:
    """Play the points as `play_points` does, each asking whether it differs from the `base` point
    (the written rules): at each look (`look_games`) every open point is measured against the base's
    games of the same seeds, and one whose `difference_p` is below `skill.ALPHA` is answered and
    plays no further; the others play on to `games`.  The base always plays `games`.  Each point's
    `stop` says {"games", "p_value", "differs", "answered_early"}; the looks are returned.  Without
    a base every point plays `games` (one look)."""
    from boardlab.analysis.skill import ALPHA

    live = [p for p in points if p.definition is not None]
    looks = look_games(games, players) if base is not None else (games,)
    open_, before = list(live), 0
    for i, g in enumerate(looks):
        share = None if estimate is None else estimate * len(open_) / max(1, len(live)) * (g - before) / games
        play_points(open_, players, agent, g, seed, store, workers, progress, backend, share)
        before = g
        if base is None:
            break
        last = i == len(looks) - 1
        answered = []
        for p in open_:
            if p is base:
                continue
            pv = difference_p(p.metrics, base.metrics, len(looks))
            p.stop = {"games": g, "p_value": round(pv, 6), "differs": pv < ALPHA, "answered_early": pv < ALPHA and not last}
            if pv < ALPHA:
                answered.append(p)
        if last:
            break
        open_ = [p for p in open_ if p not in answered]
        if open_ == [base]:
            break  # every other point is answered: the base's own games are played to the cap all the same
    if base is not None and base.games < games:
        play_points([base], players, agent, games, seed, store, workers, progress, backend)
    return looks


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
    sequential: bool = True  # a point stops once it differs from the written rules (`sequential_points`)


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
    answered = {}
    for players in options.players:
        points = grids[players]
        carry_measured_pace(points, definition, store)
        cap = games.get(players, options.games)
        written = base_point(points, out["written"]) if options.sequential else None
        looks = sequential_points(points, written, players, options.agent, cap, options.seed, store, options.workers,
                                  options.progress, options.backend,
                                  budget.estimate("points", str(players)) if budget.limited else None)
        block = {"players": players, "pace": pace_data(measured, unit, players),
                 "points": [point_json(p) for p in points]}
        if written is None and options.sequential and len(points) > 1:
            # nothing to measure the points against: every point plays to the cap, and the report says why
            block["sequential"] = {"base": None, "written": dict(out["written"]), "looks": list(looks)}
        if written is not None:
            block["sequential"] = {"base": dict(written.values), "looks": list(looks)}
            early = [p for p in points if p.stop.get("answered_early")]
            if early:
                answered[str(players)] = {"points": len(early), "games": sum(cap - p.games for p in early)}
        out["by_players"].append(block)
    bought = budget.bought()
    out["budget"] = {"cpu_minutes": bought["cpu_minutes"], "quick": bought["quick"],
                     "games_per_point": {str(n): g for n, g in games.items()},
                     "left_out": {str(n): options.games - g for n, g in games.items() if g < options.games},
                     "answered_early": answered}
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

"""The sentences a report generates (findings and the verdict), as templates in one place.

Each template is a `str.format` pattern with named fields, the key `report.KEY` of the terms
table of every language (layouts/terms/LANG.toml); `say(KEY, **fields)` fills one in the
language being written (`layouts.terms.speaking`).  Numbers reach a template already written
as people read them in that language (`pct`, `points`, `p_words`, `number`), so a translation
is a terms table and nothing else.

>>> say("p", p=format_p(0.0))
'p < 0.001'
>>> pct(0.1234), points(-0.023), minutes(125)
('12.3%', '-2.3 points', '2.1 hours')
>>> with speaking("es"):
...     pct(0.1234), points(-0.023), minutes(125), p_words(0.0196), games(12400)
('12,3\\xa0%', '-2,3 puntos', '2,1 horas', 'p = 0,020', '12\xa0400')
"""

from __future__ import annotations

from typing import Iterable

from boardlab.analysis.stats import format_p
from boardlab.layouts.terms import agent_label, plural, respell, speaking, term, word  # noqa: F401 (speaking: the doctest)

#: the template fields that hold one agent's name (`mcts-16`), shown by `agent_label`
AGENT_FIELDS = frozenset({"agent", "bot", "top", "below", "next", "level", "beginner", "skilled"})



def say(key: str, **fields: object) -> str:
    """The template `report.KEY` of the language being written, filled with `fields`.

    :raises BoardlabError: for a template the language's table lacks; KeyError for a missing field.
    """
    return term(f"report.{key}", **{k: agent_label(v) if k in AGENT_FIELDS and isinstance(v, str) else v
                                    for k, v in fields.items()})


def say_plural(key: str, n: int, **fields: object) -> str:
    """`report.KEY.one` or `report.KEY.many` by the count `n`."""
    return say(f"{key}.{'one' if n == 1 else 'many'}", n=n, **fields)


def number(value: float, spec: str = "") -> str:
    """A number by a format spec (`,`, `.1f`, `+.1f`) as the language writes it."""
    return respell(format(value, spec))


def p_words(p: float) -> str:
    """A p-value in a sentence.

    >>> p_words(0.0196), p_words(0.0)
    ('p = 0.020', 'p < 0.001')
    """
    return say("p", p=respell(format_p(p))) if p < 0.001 else say("p_equals", p=respell(format_p(p)))


def pace_words(length: dict) -> str:
    """The pace of a report's length data: "30 s a turn", marked when it is the definition's
    assumption, with its source when it was measured from playtests."""
    unit = length["unit"].rstrip("s")
    words = say("pace_assumed" if length.get("pace_assumed") else "pace", seconds=number(length['seconds_per_unit'], "g"),
                unit=word(unit))
    return words + say("pace_measured_note", source=measured_words(length["pace_measured"])) \
        if length.get("pace_measured") else words


def measured_words(measured: dict) -> str:
    """Where a measured pace comes from: "measured from 5 playtests (95% interval 44 to 60 s)".

    >>> measured_words({"games": 5, "players": 3, "ci95": [44.2, 59.9]})
    'measured from 5 playtests at 3 players (95% interval 44 to 60 s)'
    """
    where = (say("pace_measured_at", players=measured["players"]) if measured.get("players") is not None
             else "")
    return say("pace_measured", games=measured["games"], where=where, low=number(measured["ci95"][0], ".0f"),
               high=number(measured["ci95"][1], ".0f"))


def cap_words(unit: str) -> str:
    """How a report names the cap that stops a game, from its length unit.

    >>> cap_words("rounds")
    'the round cap'
    """
    return say("cap", unit=word(unit.rstrip("s")), units=word(unit))


def pct(share: float, decimals: int = 1) -> str:
    """A share as a percentage."""
    return term("report.percent", n=number(share * 100, f".{decimals}f"))


def points(difference: float) -> str:
    """A difference of shares in percentage points, signed."""
    return term("report.points", n=number(difference * 100, "+.1f"))


def unsigned_points(difference: float) -> str:
    """A size of difference in percentage points."""
    return term("report.points", n=number(difference * 100, ".1f"))


def places_over(value: float, limit: float) -> int:
    """The decimals (one to three) of percentage points it takes for `value` to read larger than
    `limit`: 5.04 beside 5.0 points must not read "5.0 points, more than the 5.0 points".

    >>> places_over(0.0504, 0.05), places_over(0.071, 0.05)
    (2, 1)
    """
    for places in (1, 2):
        if round(value * 100, places) > round(limit * 100, places):
            return places
    return 3


def points_over(value: float, limit: float) -> tuple[str, str]:
    """A size of difference beside the limit it exceeds, both in percentage points, with the
    decimals of `places_over`.

    >>> points_over(0.0504, 0.05)
    ('5.04 points', '5.00 points')
    >>> points_over(0.071, 0.05)
    ('7.1 points', '5.0 points')
    """
    places = places_over(value, limit)
    return (term("report.points", n=number(value * 100, f".{places}f")),
            term("report.points", n=number(limit * 100, f".{places}f")))


def minutes(value: float) -> str:
    """A duration given in minutes, as minutes or (from 90 minutes) hours; under half a minute
    "less than a minute", never "0 minutes", and one minute in the singular.

    >>> minutes(0.3), minutes(1.2), minutes(38), minutes(426)
    ('less than a minute', '1 minute', '38 minutes', '7.1 hours')
    """
    if value < 0.5:
        return say("minute_less")
    if round(value) == 1:
        return say("minute_one")
    return term("report.minutes", n=number(value, ".0f")) if value < 90 else term("report.hours", n=number(value / 60, ".1f"))


def target_time(length: dict) -> str:
    """The playing time a report measures against: "the stated N minutes" when the definition
    names its source (`game.minutes_source`), else "the target time of N minutes".

    >>> target_time({"stated_minutes": 15, "minutes_source": "the box"}), target_time({"stated_minutes": 30})
    ('the stated 15 minutes', 'the target time of 30 minutes')
    """
    key = "target.stated" if length.get("minutes_source") else "target.goal"
    return say(key, time=stated_words(length["stated_minutes"]))


def stated_words(stated: float) -> str:
    """A stated or target playing time in whole minutes, one minute in the singular.

    >>> stated_words(30), stated_words(1), stated_words(120)
    ('30 minutes', '1 minute', '120 minutes')
    """
    return say("minute_one") if stated == 1 else term("report.minutes", n=number(stated, ","))


def would_tell(needed: int | None) -> str:
    """"; about N games would tell" of a seats sentence, "" when no number of games is known (no
    game was decided, `metrics.power_statement`'s None) or none is needed.

    >>> would_tell(420), would_tell(None), would_tell(0)
    ('; about 420 games would tell', '', '')
    """
    return say("would_tell", needed=games(needed)) if needed else ""


def at_least(text: str, bound: bool | None) -> str:
    """A figure in a sentence, "at least ..." when games stopped at the cap make it a lower bound.

    >>> at_least("2,000", True), at_least("41", False)
    ('at least 2,000', '41')
    """
    return say("at_least", n=text) if bound else text


def games(count: int) -> str:
    """A number of games, with thousands separators."""
    return number(count, ",")


def listed(items: Iterable[str], last: str = "and") -> str:
    """Items joined with commas and the word `last` before the final one.

    >>> listed(["2", "3", "4"]), listed(["a"])
    ('2, 3 and 4', 'a')
    """
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + say(last) + items[-1]


def series(items: Iterable[str]) -> str:
    """Items of a list of figures joined as the language writes such a list: by commas in English,
    by semicolons where the decimal mark is a comma ("3: 0,1 %; 4: 0,6 %").

    >>> series(["1.5", "2.5"])
    '1.5, 2.5'
    >>> with speaking("es"):
    ...     series(["1,5", "2,5"])
    '1,5; 2,5'
    """
    return term("summary.list").join(items)


def spread(values: dict, decimals: int = 1) -> str:
    """The mean (`decimals` places), median and 90th percentile of a `stats.describe_lengths` dict.

    >>> spread({"mean": 20.94, "median": 21, "p90": 22.0})
    'mean 20.9, median 21, 90th percentile 22'
    """
    return term("summary.spread", mean=number(values["mean"], f".{decimals}f"), median=number(values["median"], "g"),
                p90=number(values["p90"], "g"))

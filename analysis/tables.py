"""Exact tables as structured data: analysis computes them, the CLI and reports format them.

A game offers tables through the `tables` part of its registry entry
(`boardlab.layouts.registry`): a module with `tables(definition, options: TableOptions) -> TableSet`.

>>> t = TableSet("Demo", (Table("Sums", ("sum", "p"), ((2, "1/36"), (3, "1/18"))),), {"sums": {}})
>>> print(to_markdown(t).splitlines()[6])
| 2 | 1/36 |
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from boardlab.layouts.limits import MAX_DEALS  # noqa: F401 (the most random deals a table may ask for)


def fraction_text(p: Fraction) -> str:
    """An exact probability as the reduced "p/q" that tables and JSON documents print ("0/1" and
    "1/1" at the ends).

    >>> fraction_text(Fraction(6, 36)), fraction_text(Fraction(1))
    ('1/6', '1/1')
    """
    return f"{p.numerator}/{p.denominator}"


def decimal_text(p: Fraction) -> str:
    """The same probability as a decimal for reading, to six places.

    >>> decimal_text(Fraction(1, 6))
    '0.166667'
    """
    return f"{float(p):.6f}"


@dataclass(frozen=True)
class TableOptions:
    players: int | None = None  # None: every allowed player count
    deals: int = 1000  # for tables estimated over random deals
    seed: int = 1
    workers: int | None = None
    progress: bool = False  # a progress bar on stderr (on a terminal) for long estimates


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class TableSet:
    """Tables for people (md/csv) plus `data`, the machine form printed by --format json."""

    title: str
    tables: tuple[Table, ...]
    data: dict = field(default_factory=dict)


def to_markdown(tables: TableSet) -> str:
    out = [f"# {tables.title}"]
    for t in tables.tables:
        out += ["", f"## {t.title}", "", "| " + " | ".join(t.columns) + " |",
                "|" + "|".join("---" for _ in t.columns) + "|"]
        out += ["| " + " | ".join(str(v) for v in row) + " |" for row in t.rows]
        if t.note:
            out += ["", t.note]
    return "\n".join(out) + "\n"


#: the columns of `to_csv`'s one long table
CSV_COLUMNS = ("table", "row", "column", "value", "exact", "label")

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
#: a cell the tables write as a number: "7", "0.25", "64.6%", "1/36", "363/1066 (0.340525)", "1 (gold)"
_NUMERIC_CELL = re.compile(rf"(?P<num>{_NUMBER})(?:/(?P<den>\d+))?(?P<pct>%)?(?: \((?P<note>[^()]*)\))?")


def csv_cell(value: object) -> tuple[str, str, str]:
    """(value, exact, label) of one table cell for the CSV: a number as a decimal a spreadsheet
    reads as a number; an exact number (a whole number, a fraction) also as it is in `exact`
    (empty: `value` is rounded); the words a table puts in brackets after a number (a player's
    colour) in `label` (a decimal in brackets is dropped: `value` holds it in full); any other
    cell (a range, a word, yes/no) in `label` with `value` empty, so that the `value` column holds
    numbers only and a spreadsheet or pandas reads it as numbers.

    >>> csv_cell("363/1066 (0.340525)"), csv_cell("1 (gold)"), csv_cell("64.6%"), csv_cell(7)
    (('0.3405253283302064', '363/1066', ''), ('1', '1', 'gold'), ('0.646', '', ''), ('7', '7', ''))
    >>> csv_cell("1/4"), csv_cell("2..12"), csv_cell(Fraction(1, 3)), csv_cell(0.5), csv_cell("0 (0.000000)")
    (('0.25', '1/4', ''), ('', '', '2..12'), ('0.3333333333333333', '1/3', ''), ('0.5', '', ''), ('0', '0', ''))
    >>> csv_cell(True), csv_cell(None)
    (('', '', 'True'), ('', '', 'None'))
    """
    if isinstance(value, bool) or value is None:
        return "", "", str(value)
    if isinstance(value, (int, Fraction)):
        return _exact_cell(Fraction(value), "")
    if isinstance(value, float):
        return repr(value), "", ""
    text = str(value)
    m = _NUMERIC_CELL.fullmatch(text.strip())
    if m is None:
        return "", "", text
    note = m["note"] or ""
    if _is_number(note):
        note = ""
    whole = re.fullmatch(r"[-+]?\d+", m["num"]) is not None
    if m["den"] is not None:
        if not whole or m["pct"] or int(m["den"]) == 0:
            return "", "", text
        return _exact_cell(Fraction(int(m["num"]), int(m["den"])), note)
    if m["pct"]:
        return repr(round(float(m["num"]) / 100, 12)), "", note
    if whole:
        return _exact_cell(Fraction(int(m["num"])), note)
    return m["num"], "", note


def _exact_cell(value: Fraction, note: str) -> tuple[str, str, str]:
    if value.denominator == 1:
        return str(value.numerator), str(value.numerator), note
    return repr(float(value)), f"{value.numerator}/{value.denominator}", note


def _is_number(text: str) -> bool:
    return re.fullmatch(_NUMBER, text.strip()) is not None


def to_csv(tables: TableSet) -> str:
    """Every table as one long CSV table that a spreadsheet opens as it is: one line per cell,
    `table,row,column,value,exact,label` (row counted from 1 in each table), so that a filter on
    `table` gives one table back. `value` is a decimal wherever the cell is a number (a
    fraction, a percentage, a count) and empty elsewhere: one type, a number; `exact` the number
    as a whole number or fraction when the cell is exact (empty when rounded); `label` the
    words a table writes beside a number ("1 (gold)"), or the whole cell when it is no number
    ("2..12", "yes"). See `csv_cell`.

    :raises ValueError: when a table repeats a column name (its cells could not be told apart).

    >>> print(to_csv(TableSet("t", (Table("Sums", ("sum", "P"), ((2, "1/4"), (3, "1/2"))),))), end="")
    table,row,column,value,exact,label
    Sums,1,sum,2,2,
    Sums,1,P,0.25,1/4,
    Sums,2,sum,3,3,
    Sums,2,P,0.5,1/2,
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in tables.tables:
        if len(set(t.columns)) != len(t.columns):
            raise ValueError(f"table '{t.title}' repeats a column name: {t.columns}")
        for number, row in enumerate(t.rows, start=1):
            writer.writerows((t.title, number, column, *csv_cell(value)) for column, value in zip(t.columns, row))
    return buf.getvalue()

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
CSV_COLUMNS = ("table", "row", "column", "value")


def to_csv(tables: TableSet) -> str:
    """Every table as one long CSV table that a spreadsheet opens as it is: one line per cell,
    `table,row,column,value` (row counted from 1 in each table), so that a filter on `table`
    gives one table back.

    :raises ValueError: when a table repeats a column name (its cells could not be told apart).

    >>> print(to_csv(TableSet("t", (Table("Sums", ("sum", "P"), ((2, "1/4"), (3, "1/2"))),))), end="")
    table,row,column,value
    Sums,1,sum,2
    Sums,1,P,1/4
    Sums,2,sum,3
    Sums,2,P,1/2
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for t in tables.tables:
        if len(set(t.columns)) != len(t.columns):
            raise ValueError(f"table '{t.title}' repeats a column name: {t.columns}")
        for number, row in enumerate(t.rows, start=1):
            writer.writerows((t.title, number, column, value) for column, value in zip(t.columns, row))
    return buf.getvalue()

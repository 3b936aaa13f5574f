"""Exact tables as structured data: analysis computes them, the CLI and reports format them.

A game offers tables through a module listed in `TABLE_PROVIDERS` with
`tables(definition, options: TableOptions) -> TableSet`.

>>> t = TableSet("Demo", (Table("Sums", ("sum", "p"), ((2, "1/36"), (3, "1/18"))),), {"sums": {}})
>>> print(to_markdown(t).splitlines()[6])
| 2 | 1/36 |
"""

from __future__ import annotations

import csv
import importlib
import io
from dataclasses import dataclass, field
from typing import Any

from boardlab.layouts.errors import BoardlabError

#: game id -> module with `tables(definition, options) -> TableSet`
TABLE_PROVIDERS: dict[str, str] = {
    "blockd": "boardlab.analysis.blockd.tables",
    "sixbysix": "boardlab.analysis.sixbysix.tables",
    "deblockle": "boardlab.analysis.deblockle.tables",
    "links": "boardlab.analysis.links.tables",
}


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


def provider(game_id: str):
    """The table module of a game.

    :raises BoardlabError: when the game has no tables yet.
    """
    if game_id not in TABLE_PROVIDERS:
        have = ", ".join(TABLE_PROVIDERS) or "none yet"
        raise BoardlabError(f"{game_id}: no tables for this game yet (games with tables: {have})")
    return importlib.import_module(TABLE_PROVIDERS[game_id])


def to_markdown(tables: TableSet) -> str:
    out = [f"# {tables.title}"]
    for t in tables.tables:
        out += ["", f"## {t.title}", "", "| " + " | ".join(t.columns) + " |",
                "|" + "|".join("---" for _ in t.columns) + "|"]
        out += ["| " + " | ".join(str(v) for v in row) + " |" for row in t.rows]
        if t.note:
            out += ["", t.note]
    return "\n".join(out) + "\n"


def to_csv(tables: TableSet) -> str:
    """Every table in one CSV stream: a `# title` line, the header, the rows, a blank line."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for i, t in enumerate(tables.tables):
        if i:
            buf.write("\n")
        buf.write(f"# {t.title}\n")
        writer.writerow(t.columns)
        writer.writerows(t.rows)
    return buf.getvalue()

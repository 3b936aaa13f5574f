"""The report as a structured document: sections of text, tables and chart data, no drawing.

A document is plain JSON-ready data, so that `GAME.json` is the document itself and the
Markdown and the PDF are both written from it (they cannot disagree):

    {"title": ..., "head": [[label, value], ...], "sections": [section, ...],
     "glossary": [[term, definition], ...], "data": {...every number, raw...}}
    section = {"title": ..., "level": 2 | 3, "blocks": [block, ...]}
    block   = {"kind": "text", "text": ...}
            | {"kind": "pre", "text": ...}           (fixed-width lines)
            | {"kind": "table", "title": ..., "columns": [{"name": ..., "format": ...}], "rows": [[...]],
               "note": ...}
            | {"kind": "chart", "chart": "whiskers" | "histogram" | "bars" | "grid" | "lines", "id": ..., "title": ...,
               "x_axis": ..., "axis": ..., ...}   (x_axis: what the categories are; axis: the values)

Table cells hold raw values; `format_cell` turns one into text by its column's format, for
every renderer alike.

>>> format_cell(0.1234, "pct"), format_cell([0.1, 0.2], "ci_pct"), format_cell(0.0004, "p")
('12.3%', '10.0% .. 20.0%', '< 0.001')
>>> format_cell(2.5, "sf1"), format_cell(-0.25, "sf1"), format_cell(0.031, "pp")
('+2.5', '-0.2', '+3.1 pts')
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from boardlab.analysis.stats import format_p

FORMATS = ("text", "int", "credit", "rating", "f0", "f1", "f2", "f3", "sf1", "sf3", "pct", "pp", "ci_pct", "ci_pp", "ci_f0", "ci_f1",
           "ci_f3", "p", "yes")


def format_cell(value: Any, fmt: str) -> str:  # Any: a cell of the format `fmt` (a number, a pair, a word)
    """One cell as text (see the module docstring), numbers as the language being written writes
    them (`layouts.terms.speaking`); None is a dash.

    :raises ValueError: for an unknown format.
    """
    from boardlab.layouts.terms import respell, term, word

    if value is None:
        return "-"
    if fmt == "text":
        return str(value)
    if fmt == "yes":
        return word("yes") if value else word("no")
    if fmt == "p":
        return respell(format_p(value))

    def pct(x: float) -> str:
        return term("report.percent", n=respell(f"{x * 100:.1f}"))

    def pts(text: str) -> str:
        return term("report.pts", n=text)

    if fmt == "int":
        return respell(f"{int(value):,}")
    if fmt == "credit":  # games won, a shared win counted as its share: whole, or to one decimal
        return respell(f"{int(value):,}" if float(value).is_integer() else f"{value:,.1f}")
    if fmt == "rating":  # a level's rating, or {"at_least": x}: only a lower bound (`skill.at_least`)
        return "≥ " + respell(f"{value['at_least']:,.0f}") if isinstance(value, dict) else respell(f"{value:,.0f}")
    if fmt in ("f0", "f1", "f2", "f3"):
        return respell(f"{value:,.{fmt[1]}f}")
    if fmt in ("sf1", "sf3"):  # a difference: its sign always shown
        return respell(f"{value:+,.{fmt[2]}f}")
    if fmt == "pct":
        return pct(value)
    if fmt == "pp":
        return pts(respell(f"{value * 100:+.1f}"))
    if fmt == "ci_pct":
        return f"{pct(value[0])} .. {pct(value[1])}"
    if fmt == "ci_pp":
        return pts(f"{respell(f'{value[0] * 100:+.1f}')} .. {respell(f'{value[1] * 100:+.1f}')}")
    if fmt == "ci_f0":  # an interval of plain numbers (ratings)
        return f"{respell(f'{value[0]:,.0f}')} .. {respell(f'{value[1]:,.0f}')}"
    if fmt in ("ci_f1", "ci_f3"):  # an interval of a difference, signed
        return f"{respell(f'{value[0]:+,.{fmt[4]}f}')} .. {respell(f'{value[1]:+,.{fmt[4]}f}')}"
    raise ValueError(f"unknown cell format {fmt!r}")


def text(words: str) -> dict:
    return {"kind": "text", "text": words}


def preformatted(lines: str) -> dict:
    """Lines whose columns line up (an engine's plain-text summary): shown in a fixed-width font."""
    return {"kind": "pre", "text": lines}


def table(title: str, columns: Iterable[tuple[str, str]], rows: Iterable[Sequence[object]], note: str = "") -> dict:
    """A table block; `columns` is a sequence of (name, format).

    :raises ValueError: for an unknown format or a row of the wrong width.
    """
    cols = [{"name": name, "format": fmt} for name, fmt in columns]
    for c in cols:
        if c["format"] not in FORMATS:
            raise ValueError(f"unknown cell format {c['format']!r}")
    rows = [list(r) for r in rows]
    for r in rows:
        if len(r) != len(cols):
            raise ValueError(f"row {r} has {len(r)} cells for {len(cols)} columns")
    return {"kind": "table", "title": title, "columns": cols, "rows": rows, "note": note}


def chart(kind: str, chart_id: str, title: str, **data: object) -> dict:
    """A chart block: its kind, a file-name-safe id, a title, and the kind's data (see renderers)."""
    return {"kind": "chart", "chart": kind, "id": slug(chart_id), "title": title, **data}


def section(title: str, blocks: Iterable[dict], level: int = 2) -> dict:
    return {"title": title, "level": level, "blocks": list(blocks)}


def slug(words: str) -> str:
    """A lower-case, dash-separated form of `words`, safe in file names.

    >>> slug("Win rates, 3 players")
    'win-rates-3-players'
    """
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")

"""A report document as Markdown that reads well in a code review; charts as SVG files beside it.

Every figure is written from the document with `format_cell`, as the PDF is, so the two
cannot disagree.  A chart block becomes an image link to `CHART_FOLDER/ID.svg`.

>>> doc = {"title": "T", "head": [["seed", "1"]], "sections": [{"title": "S", "level": 2, "blocks": [
...     {"kind": "table", "title": "t", "columns": [{"name": "p", "format": "pct"}], "rows": [[0.5]], "note": ""}]}],
...     "glossary": [["p", "a share"]]}
>>> "| 50.0% |" in markdown(doc, "demo")
True
"""

from __future__ import annotations

from boardlab.analysis.report.document import format_cell
from boardlab.layouts.terms import respell, term


def chart_path(game: str, chart_id: str) -> str:
    """Where a chart's SVG lives, relative to the report's folder."""
    return f"{game}/{chart_id}.svg"


def markdown(document: dict, game: str) -> str:
    lines = [f"# {document['title']}", ""]
    first = [s for s in document["sections"] if s.get("first")]  # the verdict page comes before the head
    for section in first:
        lines += _section(section, game)
    lines += ["| | |", "|---|---|"]
    lines += [f"| {_cell_text(label)} | {_cell_text(value)} |" for label, value in document["head"]]
    run = document.get("run")
    if run is not None:
        seconds = respell(f"{run['seconds']:,.1f}")
        lines.append(f"| {term('report.head.run_time')} | {term('report.head.run_time_value', seconds=seconds)} |")
    lines.append("")
    for section in document["sections"]:
        if not section.get("first"):
            lines += _section(section, game)
    lines += [f"## {term('report.glossary')}", ""]
    lines += [f"- **{term}**: {definition}" for term, definition in document["glossary"]]
    return "\n".join(lines).rstrip() + "\n"


def _section(section: dict, game: str) -> list[str]:
    lines = ["#" * section["level"] + " " + section["title"], ""]
    for block in section["blocks"]:
        lines += _block(block, game) + [""]
    return lines


def blocks_markdown(blocks: list[dict], game: str) -> str:
    """Some blocks of a document as Markdown (a command's summary on the terminal)."""
    return "\n".join(line for block in blocks for line in _block(block, game) + [""])


def _block(block: dict, game: str) -> list[str]:
    kind = block["kind"]
    if kind == "text":
        return [block["text"]]
    if kind == "pre":
        return ["```", block["text"], "```"]
    if kind == "chart":
        out = [f"![{block['title']}]({chart_path(game, block['id'])})"]
        if block.get("note"):
            out += ["", block["note"]]
        return out
    columns = block["columns"]
    out = [f"**{block['title']}**", "", "| " + " | ".join(_cell_text(c["name"]) for c in columns) + " |",
           "|" + "|".join("---:" if c["format"] not in ("text", "yes") else "---" for c in columns) + "|"]
    out += ["| " + " | ".join(_cell_text(format_cell(v, c["format"])) for v, c in zip(row, columns)) + " |"
            for row in block["rows"]]
    if block.get("note"):
        out += ["", block["note"]]
    return out


def _cell_text(value: object) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")

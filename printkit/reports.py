"""Writing a balance report: GAME.md, GAME.pdf, GAME.json and GAME/CHART.svg, all or nothing.

The JSON is the document itself (without the run time, so that it depends only on what
decides the games); the Markdown and the PDF are written from the same document.
"""

from __future__ import annotations

import json
from pathlib import Path

from boardlab.printkit.charts import chart_drawing, svg_text
from boardlab.printkit.output import write_rendered
from boardlab.printkit.report_markdown import chart_path, markdown
from boardlab.printkit.report_pdf import report_pdf


def report_json(document: dict) -> str:
    """The report's JSON: every number, byte-identical for identical inputs."""
    return json.dumps({k: v for k, v in document.items() if k != "run"}, indent=1, ensure_ascii=False) + "\n"


def render_report(document: dict, name: str) -> dict[str, bytes]:
    """Every file of a report (relative path -> bytes)."""
    files = {f"{name}.json": report_json(document).encode(), f"{name}.md": markdown(document, name).encode(),
             f"{name}.pdf": report_pdf(document)}
    for section in document["sections"]:
        for block in section["blocks"]:
            if block["kind"] == "chart":
                files[chart_path(name, block["id"])] = svg_text(chart_drawing(block)).encode()
    return files


def write_report(document: dict, name: str, out_dir: Path | str) -> list[Path]:
    """Render, then move every file into `out_dir` (nothing is replaced if rendering fails).

    :raises BoardlabError: when the folder cannot be written.
    """
    return write_rendered(render_report(document, name), out_dir)

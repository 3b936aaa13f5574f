"""The report PDF's tables break lines at spaces only: no number, sign, unit or word is split.

The tables are real ones, read from the committed reports' JSON (the document the PDF is
written from); the lines are those reportlab's own layout computes for each cell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Paragraph

from boardlab.layouts.terms import speaking
from boardlab.printkit import report_pdf
from boardlab.printkit.fonts import register_fonts

REPORTS = Path(__file__).resolve().parents[1] / "reports"
WIDTH = A4[0] - 2 * report_pdf.MARGIN
BREAKABLE = " \t\n"  # reportlab breaks at these; a no-break space (U+00A0) is not one


def _tables(path: Path, *titles: str) -> list[dict]:
    document = json.loads(path.read_text(encoding="utf-8"))
    return [b for s in document["sections"] for b in s["blocks"]
            if b["kind"] == "table" and any(t in b["title"] for t in titles)]


def _lines(paragraph: Paragraph) -> list[str]:
    """The lines reportlab set a wrapped paragraph's text in (markup gone)."""
    lay = paragraph.blPara
    if lay.kind == 0:
        return [" ".join(words) for _, words in lay.lines]
    return ["".join(fragment.text for fragment in line.words) for line in lay.lines]


def _split_tokens(paragraph: Paragraph) -> list[str]:
    """Where the paragraph's lines end other than at a breakable space: the two sides, for a message."""
    text = paragraph.getPlainText()
    squeezed = "".join(c for c in text if c not in BREAKABLE)
    allowed = {0, len(squeezed)}  # a line may end where the text had a breakable space
    k = 0
    for c in text:
        if c in BREAKABLE:
            allowed.add(k)
        else:
            k += 1
    lines = ["".join(c for c in line if c not in BREAKABLE) for line in _lines(paragraph)]
    assert "".join(lines) == squeezed, (lines, text)
    bad, end = [], 0
    for line in lines[:-1]:
        end += len(line)
        if end not in allowed:
            bad.append(f"{squeezed[max(0, end - 8):end]} / {squeezed[end:end + 8]}")
    return bad


def _cells(table) -> list[Paragraph]:
    """The paragraphs of a laid-out table (a cell may hold a list of flowables)."""
    out = []
    for row in table._cellvalues:
        for cell in row:
            out += [cell] if isinstance(cell, Paragraph) else [c for c in cell if isinstance(c, Paragraph)]
    return out


def _check(block: dict) -> None:
    register_fonts()
    styles = report_pdf._styles()
    table = report_pdf._table(block, styles, WIDTH)[1]
    table.wrap(WIDTH, 10 ** 6)
    assert sum(table._colWidths) <= WIDTH + 0.01
    split = [(block["title"], piece) for cell in _cells(table) for piece in _split_tokens(cell)]
    assert not split, split
    # a number with its sign, comparison or unit is on one line: "< 0,001", "50,9 %", "+12,8 puntos"
    for cell in _cells(table):
        for line in _lines(cell):
            assert not re.search(r"(^|\s)[<>]$", line.strip()), line
            assert not line.strip().startswith(("%", "pts", "puntos")), line


@pytest.mark.parametrize("language, folder", [("es", REPORTS / "es"), ("en", REPORTS)])
@pytest.mark.parametrize("game, titles", [("sixbysix", ("Sensibilidad", "Open-rule sensitivity")),
                                          ("blockd", ("Juego restringido", "Restricted play"))])
def test_sensitivity_and_restricted_play_tables_split_no_number_or_word(language, folder, game, titles):
    tables = _tables(folder / f"{game}.json", *titles)
    assert tables
    with speaking(language):
        for block in tables:
            _check(block)


def test_every_table_of_the_committed_reports_splits_nothing():
    for language, folder in (("es", REPORTS / "es"), ("en", REPORTS)):
        with speaking(language):
            for path in sorted(folder.glob("*.json")):
                for block in _tables(path, ""):
                    _check(block)


def test_a_table_too_wide_for_the_page_shrinks_its_text_instead_of_splitting_numbers():
    block = {"title": "wide", "note": "", "columns": [{"name": f"column {i}", "format": "p"} for i in range(16)],
             "rows": [[0.0004 + i / 1000 for i in range(16)], [0.12345] * 16]}
    with speaking("es"):
        table = report_pdf._table(block, report_pdf._styles(), WIDTH)[1]
        _check(block)
    sizes = {cell.style.fontSize for cell in _cells(table)}
    assert len(sizes) == 1 and sizes.pop() < report_pdf.CELL_SIZES[0]


def test_descriptions_give_up_width_before_numbers():
    long_text = "a description that goes on for many words " * 6
    block = {"title": "t", "note": "", "columns": [{"name": "what", "format": "text"},
                                                   {"name": "share", "format": "pct"}],
             "rows": [[long_text, 0.509], [long_text, 0.525]]}
    with speaking("es"):
        table = report_pdf._table(block, report_pdf._styles(), WIDTH)[1]
        table.wrap(WIDTH, 10 ** 6)
        share = [_lines(cell) for cell in _cells(table)[3::2]]
    assert share == [["50,9\u00a0%"], ["52,5\u00a0%"]]  # each number on one line of its own cell
    assert table._colWidths[0] > table._colWidths[1]
    assert abs(sum(table._colWidths) - WIDTH) < 0.01


def test_glued_keeps_signs_and_units_with_their_numbers():
    with speaking("es"):
        assert report_pdf.glued("< 0,001") == "<\u00a00,001"
        assert report_pdf.glued("+1,7 puntos (-1,5 .. +4,9 puntos)") == "+1,7\u00a0puntos (-1,5 .. +4,9\u00a0puntos)"
        assert report_pdf.glued("50,9 %") == "50,9\u00a0%"
        assert report_pdf.glued("3 puntos de vista") == "3\u00a0puntos de vista"  # a unit word after a number
        assert report_pdf.glued("a < b") == "a < b"  # not before a word
    with speaking("en"):
        assert report_pdf.glued("+3.1 pts") == "+3.1\u00a0pts"

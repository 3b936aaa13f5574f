"""No text off the page: every PDF that `make print` and `make rulebooks` write, read back.

Each file is made as the commands make it (every game of the registry, A4 and Letter, every
language of its rulebook) and read back with printkit.pagecheck, a content-stream reader
independent of the drawing code: no string may reach past the sheet margin of
layouts/print.toml (the card's safe zone on a single-card page), and no rulebook, player aid
or report page may end on a heading.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.layouts import load, print_conventions
from boardlab.layouts.registry import game_ids
from boardlab.layouts.terms import speaking
from boardlab.printkit.output import render_print_files
from boardlab.printkit.pagecheck import headings_last, text_off_page
from boardlab.printkit.pages import Page, PrintFile, PrintOptions
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.print_modules import print_module
from boardlab.printkit.report_pdf import report_pdf
from boardlab.printkit.rulebook import player_aid_name, render_player_aid, render_rulebook, rulebook_name

CONVENTIONS = print_conventions()
MARGIN = CONVENTIONS.sheet.margin
REPORTS = Path(__file__).resolve().parent.parent / "reports"


def made_files(game: str, paper: str) -> dict[str, bytes]:
    """Every PDF `boardlab print GAME --lang all` and `boardlab rulebook GAME` write on `paper`."""
    definition = load(game)
    files: dict[str, bytes] = {}
    for language in definition.rulebook.languages:
        with speaking(language):
            rendered = render_print_files(print_module(game).print_files(definition, PrintOptions(paper=paper, duplex=CONVENTIONS.duplex,
                                                                                      backs=CONVENTIONS.layout)))
            files.update({f"{language}/{name}": data for name, data in rendered.items() if name.endswith(".pdf")})
            aid = render_player_aid(definition, language, paper)
            if aid is not None:
                files[f"{language}/{player_aid_name(game, paper)}.pdf"] = aid
        files[f"{rulebook_name(game, language, paper)}.pdf"] = render_rulebook(definition, language, paper)
    return files


def safe_zone(game: str) -> float:
    return float(load(game).print.safe)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_ids())
def test_no_text_leaves_the_safe_area(game: str, paper: str) -> None:
    files = made_files(game, paper)
    assert any("rulebook" in name for name in files)
    problems = [problem.line() for name, data in sorted(files.items())
                for problem in text_off_page(data, MARGIN, safe_zone(game), name)]
    assert problems == []
    ends = [problem.line() for name, data in sorted(files.items()) if "rulebook" in name or "aid" in name
            for problem in headings_last(data, name)]
    assert ends == []


@pytest.mark.parametrize("path", sorted(REPORTS.glob("**/*.json")), ids=lambda p: str(p.relative_to(REPORTS)))
def test_no_report_page_ends_on_a_heading(path: Path) -> None:
    """The committed reports' documents, laid out again: no page ends on a section's heading."""
    document = json.loads(path.read_text(encoding="utf-8"))
    language = "es" if path.parent.name == "es" else "en"
    with speaking(language):
        pdf = report_pdf(document)
    assert [problem.line() for problem in headings_last(pdf, path.name)] == []


def test_the_check_sees_text_past_each_side() -> None:
    """A line running off the right edge, one under the bottom margin, one turned a quarter and
    running off the top, one clipped away entirely (not printed: no problem) and one inside."""
    def draw(canvas) -> None:
        canvas.text(170, 20, "right of the margin", size=10)
        canvas.text(20, 196, "under the margin", size=10)
        canvas.text(40, 100, "inside", size=10)
        with canvas.clip(0, 0, 10, 10):
            canvas.text(300, 300, "clipped away", size=10)
        with canvas.transform(dx=100, dy=30, rotate=-90):
            canvas.text(0, 0, "turned upwards past the top", size=10)

    pdf = render_pdf(PrintFile("demo", "Demo", (Page(200, 200, draw),)))
    found = {(p.text, p.side) for p in text_off_page(pdf, margin=6, safe=3)}
    assert found == {("right of the margin", "right"), ("under the margin", "bottom"),
                     ("turned upwards past the top", "top")}


def test_the_check_measures_the_glyphs() -> None:
    """A string that ends 0.5 mm inside the margin passes and 0.5 mm past it fails: the width is
    the font's own advance widths."""
    from boardlab.printkit.fonts import text_width

    text = "Corta por el contorno"
    width = text_width(text, 10)
    for end, expected in ((200 - 6 - 0.5, []), (200 - 6 + 0.5, ["right"])):
        page = Page(200, 100, lambda c, end=end: c.text(end - width, 50, text, size=10))
        found = [p.side for p in text_off_page(render_pdf(PrintFile("d", "D", (page,))), margin=6, safe=3)]
        assert found == expected
        if found:
            assert text_off_page(render_pdf(PrintFile("d", "D", (page,))), margin=6, safe=3)[0].by_mm == \
                pytest.approx(0.5, abs=0.01)

"""The cover sheet of a game's print run: what each file holds, what else to get, how to print.

One cover per game and paper.  Its front page lists the pieces (counted from the definition by
the game's print module), what the files do not hold (dice, glue, tools), the print settings,
and every file with its sheets and how to print them (both sides and which edge to flip, or one
side).  A duplex test square sits on the front; when the run has back pages, the cover has a
back page too, with the matching square where a perfect duplex printer puts it.  Held against
the light, the two squares show how far the printer shifts its backs; `--back-offset X,Y`
moves every back page to make up for it (printkit.pages.back_shift).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.terms import plural, term, word
from boardlab.printkit.draw import Canvas
from boardlab.printkit.fonts import text_width, wrap_lines
from boardlab.printkit.marks import MARK_WIDTH, footed_file, printable_box, with_variant
from boardlab.printkit.packing import paper_size
from boardlab.printkit.pages import Box, Page, PrintFile, PrintOptions, back_shift
from boardlab.printkit.units import MM_PER_POINT

TITLE_SIZE = 16.0  # points
HEADING_SIZE = 10.0
TEXT_SIZE = 8.0
LINE = 1.45  # line height, in text sizes
TEST_SQUARE = 20.0  # mm: the duplex test square's side
def tools(cards: bool = True) -> str:
    """What every print run needs to cut its pieces out (a line of a cover's extras); the corner
    rounder only for a game with cards."""
    if not cards:
        return word("scissors, or a craft knife, a metal ruler and a cutting mat")
    return word("scissors, or a craft knife, a metal ruler and a cutting mat; a 3 mm corner rounder for the cards if you like")


def edge(flip: str) -> str:
    """The edge a duplex page flips on, in the language being written."""
    return {"long": word("long"), "short": word("short")}.get(flip, flip)


def sheets_of(print_file: PrintFile) -> int:
    """Sheets of paper a file takes: a duplex file's pages come in front-back pairs.

    >>> sheets_of(PrintFile("x", "x", (Page(1, 1, print),) * 4, duplex="long"))
    2
    """
    pages = len(print_file.pages)
    return (pages + 1) // 2 if print_file.duplex else pages


def how_to_print(print_file: PrintFile) -> str:
    """Both sides with the edge to flip, or one side."""
    if print_file.duplex:
        return term("cover.both_sides", edge=edge(print_file.duplex))
    return word("one side")


def test_square_box(width: float, height: float, conventions: PrintConventions) -> tuple[float, float, float, float]:
    """Where the duplex test square sits on the cover's front page: the top right of the printable area.

    >>> from boardlab.layouts import print_conventions
    >>> [round(v, 2) for v in test_square_box(210, 297, print_conventions())]
    [183.45, 6.55, 20.0, 20.0]
    """
    x, y, w, _ = printable_box(width, height, conventions)
    inset = MARK_WIDTH  # the outline's ink stays inside the margin
    return (x + w - TEST_SQUARE - inset, y + inset, TEST_SQUARE, TEST_SQUARE)


def _test_square(canvas: Canvas, box: Box, ink: str, label: str) -> None:
    x, y, w, h = box
    canvas.rect(x, y, w, h, stroke=ink, width=MARK_WIDTH * 2)
    canvas.line(x + w / 2, y, x + w / 2, y + h, stroke=ink, width=MARK_WIDTH)
    canvas.line(x, y + h / 2, x + w, y + h / 2, stroke=ink, width=MARK_WIDTH)
    canvas.text(x + w / 2, y + h + TEXT_SIZE * MM_PER_POINT * LINE, label, size=TEXT_SIZE - 1, fill=ink,
                anchor="middle")


def cover_file(name: str, *, game: str, version: str, files: Sequence[PrintFile], pieces: Sequence[str],
               extras: Sequence[str], options: PrintOptions, conventions: PrintConventions,
               ink: str, variant: str = "baseline", summary: Sequence[tuple[str, bool]] = ()) -> PrintFile:
    """The cover of a print run: `files` are the run's other files, `pieces` one line per kind of
    piece with its count, `extras` what to get besides the files; a `variant` other than the
    baseline is named under the title and in the footer.  `summary` (lines of text, bold or not:
    the rulebook's quick reference) fills a second page, printed on the back when the run has
    back pages, so the cover is never a sheet with one side blank.

    :raises BoardlabError: for an unknown paper.
    """
    width, height = paper_size(conventions, options.paper)
    duplex = any(f.duplex for f in files)
    lines: list[tuple[str, float, bool]] = [(term("cover.title", game=game, version=version,
                                                 paper=options.paper.capitalize()), TITLE_SIZE, True),
                                           ("", TEXT_SIZE, False), (term("cover.pieces"), HEADING_SIZE, True)]
    if variant != "baseline":
        lines[1:1] = [(term("cover.variant", variant=variant), HEADING_SIZE, True)]
    lines += [(f"• {piece}", TEXT_SIZE, False) for piece in pieces]
    lines += [("", TEXT_SIZE, False), (term("cover.also"), HEADING_SIZE, True)]
    lines += [(f"• {extra}", TEXT_SIZE, False) for extra in extras]
    lines += [("", TEXT_SIZE, False), (term("cover.files"), HEADING_SIZE, True)]
    for f in files:
        lines.append(("• " + term("cover.file", name=f.name, title=f.title, sheets=plural("cover.sheets", sheets_of(f)),
                                  how=how_to_print(f)), TEXT_SIZE, False))
    lines += [("", TEXT_SIZE, False), (term("cover.how"), HEADING_SIZE, True),
              ("• " + term("cover.how.scale"), TEXT_SIZE, False),
              ("• " + term("cover.how.stock"), TEXT_SIZE, False),
              ("• " + term("cover.how.cut"), TEXT_SIZE, False)]
    if duplex:
        lines += [("• " + " ".join(term(f"cover.how.duplex.{k}") for k in (1, 2, 3)), TEXT_SIZE, False)]
    square = test_square_box(width, height, conventions)

    def draw_front(canvas: Canvas) -> None:
        x, y, w, _ = printable_box(width, height, conventions)
        baseline = y + TITLE_SIZE * MM_PER_POINT
        for text, size, bold in lines:  # a line too long for the room wraps, indented under its bullet
            indent = 0.0
            rest = text
            while True:
                room = w - indent - (TEST_SQUARE + 3 if baseline < square[1] + square[3] + 6 else 0)
                parts = wrap_lines(rest, size, room, bold) or [""]
                line = parts[0]
                if text_width(line, size, bold) > room:  # one word wider than the page: made to fit
                    canvas.text(x + indent, baseline, line, size=size * room / text_width(line, size, bold), fill=ink,
                                bold=bold)
                elif line:
                    canvas.text(x + indent, baseline, line, size=size, fill=ink, bold=bold)
                baseline += size * MM_PER_POINT * LINE
                rest = rest[len(line):].strip()
                if not rest:
                    break
                indent = text_width("• ", size, bold) if text.startswith("• ") else 0.0
        if duplex:
            _test_square(canvas, square, ink, word("front"))

    pages = [Page(width, height, draw_front)]
    flip = next((f.duplex for f in files if f.duplex), None)
    back_box = None
    if flip is not None:
        sx, sy, sw, sh = square
        # where a perfect printer puts the back of the square: mirrored across the flipped edge
        back_box = (width - sx - sw, sy, sw, sh) if flip == "long" else (sx, height - sy - sh, sw, sh)

    def draw_back(canvas: Canvas) -> None:
        x, y, w, _ = printable_box(width, height, conventions)
        baseline = y + TITLE_SIZE * MM_PER_POINT
        for text, bold in summary:  # the summary keeps clear of the test square's corner
            size = HEADING_SIZE + 2 if bold and baseline == y + TITLE_SIZE * MM_PER_POINT else TEXT_SIZE + 1
            room = w - (TEST_SQUARE + 6 if back_box is not None and baseline < back_box[1] + back_box[3] + 8 else 0)
            left = x + (TEST_SQUARE + 6 if back_box is not None and room < w and back_box[0] < x + w / 2 else 0)
            for line in wrap_lines(text, size, room, bold) or [""]:
                canvas.text(left, baseline, line, size=size, fill=ink, bold=bold)
                baseline += size * MM_PER_POINT * LINE
            baseline += size * MM_PER_POINT * 0.4
        if back_box is not None and flip is not None:
            dx, dy = back_shift(options, flip)
            with canvas.transform(dx, dy):
                _test_square(canvas, back_box, ink, word("back"))
    if duplex or summary:
        pages.append(Page(width, height, draw_back))
    cover = footed_file(name, term("cover.subject", game=game), pages, (),
                        conventions, label=with_variant(f"{game} {version}", variant), ink=ink)
    if len(pages) == 1:
        return cover
    # two pages: one sheet printed on both sides (flipped as the run's options say when nothing
    # else of the run flips)
    sides = flip or options.duplex
    subject = term("subject.sheets", title=cover.title, how=term("cover.both_sides", edge=edge(sides)))
    return replace(cover, duplex=sides, subject=subject)

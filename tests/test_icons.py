"""Icons in text (`:star:`, `:red:`, a designer's own): where they are drawn and what check says.

The positions are measured on pixels PDFium renders, against what the letters themselves show:
an icon is centred on the capitals' middle (the middle of the rendered "AB"), about 0.8 of the
text size high, with the same room before it as after it.
"""

from __future__ import annotations

import io

import pytest

from boardlab.layouts.icons import Icon

DPI = 300
GREEN = (0, 255, 0)


def _render(draw, width=80.0, height=20.0):
    from PIL import Image

    from boardlab.printkit.pages import Page, PrintFile
    from boardlab.printkit.pod import page_images

    [png] = page_images(PrintFile("t", "t", (Page(width, height, draw),)), DPI)
    return Image.open(io.BytesIO(png)).convert("RGB")


def _green(r: int, g: int, b: int) -> bool:
    return g > 200 and r < 80 and b < 80


def _red(r: int, g: int, b: int) -> bool:
    return r > 150 and g < 90 and b < 90


def _pixels(image, is_icon, dark_below):
    """(pixels the icon's colour test takes, the other pixels darker than `dark_below` in each channel), as (x, y)."""
    width, height = image.size
    data = image.tobytes()
    icon, dark = [], []
    for y in range(height):
        for x in range(width):
            r, g, b = data[3 * (y * width + x):3 * (y * width + x) + 3]
            if is_icon(r, g, b):
                icon.append((x, y))
            elif r < dark_below and g < dark_below and b < dark_below:
                dark.append((x, y))
    return icon, dark


def _boxes(image):
    """(bounding boxes of the dark pixels left of the green ones, right of them, and of the green ones), px."""
    green, dark = _pixels(image, _green, 100)
    gx0, gx1 = min(x for x, _ in green), max(x for x, _ in green)
    left = [(x, y) for x, y in dark if x < gx0]
    right = [(x, y) for x, y in dark if x > gx1]

    def box(points):
        return (min(x for x, _ in points), min(y for _, y in points), max(x for x, _ in points), max(y for _, y in points))
    return box(left), box(right), box(green)


SQUARE_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
              '<rect x="0" y="0" width="10" height="10" fill="#00ff00"/></svg>')


def _symbol_box(tmp_path):
    """The square symbol in green: 0.84 of its box."""
    return {"box": Icon("box", symbol="square", colour="#00ff00")}, 0.84


def _designers_box(tmp_path):
    """`[icons] box = "box.svg"` (a green square filling its view box): its own colour, the whole box."""
    from boardlab.layouts import load
    from boardlab.layouts.icons import icons_of

    (tmp_path / "box.svg").write_text(SQUARE_SVG)
    variant = tmp_path / "boxed.toml"
    variant.write_text('extends = "blockd"\n\n[icons]\nbox = "box.svg"\n')
    icons = icons_of(load(variant))
    assert icons["box"].path == str((tmp_path / "box.svg").resolve())
    return icons, 1.0


@pytest.mark.parametrize("make_icons", [_symbol_box, _designers_box], ids=["symbol", "designers-svg"])
def test_an_icon_sits_on_the_capitals_middle_sized_to_the_line(tmp_path, make_icons):
    """`:box:` in a line is drawn centred on the capitals' middle, ICON_EM of the text size high (times
    the share of its box the icon fills), square, with the same room before it as after it."""
    from boardlab.printkit.faces import ICON_EM, draw_line
    from boardlab.printkit.units import MM_PER_POINT

    icons, fill = make_icons(tmp_path)
    size = 24.0
    image = _render(lambda canvas: draw_line(canvas, 5, 14, "AB :box: HE", size, "#000000", icons=icons))
    (lx0, ly0, lx1, ly1), (rx0, ry0, rx1, ry1), (gx0, gy0, gx1, gy1) = _boxes(image)
    px = DPI / 25.4
    capitals_middle = (ly0 + ly1) / 2  # A and B: capitals, no descender
    assert abs((gy0 + gy1) / 2 - capitals_middle) <= 1.5
    assert (ry0, ry1) == pytest.approx((ly0, ly1), abs=1)  # H and E stand on the same line
    assert gy1 - gy0 + 1 == pytest.approx(size * MM_PER_POINT * ICON_EM * fill * px, abs=2)
    assert gx1 - gx0 == pytest.approx(gy1 - gy0, abs=1)
    # the same room before the icon (after "AB ") as after it (before " HE")
    assert (gx0 - lx1) == pytest.approx(rx0 - gx1, abs=3)
    assert gx0 - lx1 > 0.2 * size * MM_PER_POINT * px  # at least a space between


def test_a_region_centres_a_line_with_icons():
    """A centred region with an icon: the drawn line (letters and icon) is centred on the region."""
    from boardlab.layouts.faces import Region
    from boardlab.printkit.faces import draw_text

    region = Region("title", 10, 2, 60, 16, font="bold", size=20, align="centre")
    image = _render(lambda canvas: draw_text(canvas, region, "GO :square: GO", "#000000"))
    # the square is in the text's colour here: every dark pixel is the line
    width, height = image.size
    data = image.tobytes()
    xs = [x for y in range(height) for x in range(width) if sum(data[3 * (y * width + x):3 * (y * width + x) + 3]) < 300]
    middle = (min(xs) + max(xs)) / 2
    assert middle == pytest.approx((10 + 30) * DPI / 25.4, abs=4)


def test_a_colour_icon_is_the_colours_symbol_in_its_colour():
    from boardlab.layouts import load
    from boardlab.layouts.icons import icons_of

    d = load("blockd")
    icons = icons_of(d)
    red = d.colours["red"]
    assert icons["red"] == Icon("red", symbol=red.symbol, colour=red.hex)
    assert icons["hoops"] == Icon("hoops", symbol="hoops")


def test_an_unknown_icon_is_one_line_at_check(tmp_path, capsys):
    from command_line import one_line_failure, run

    variant = tmp_path / "icons.toml"
    variant.write_text('extends = "blockd"\n\n[game]\nname = "Blockd :sun:"\n')
    code, out, err = run(capsys, "check", str(variant))
    one_line_failure(code, out, err, "icons.toml:4: game.name:", 'unknown icon ":sun:"')


def test_a_known_icon_checks_and_escaped_colons_stay_text(tmp_path, capsys):
    from command_line import run

    from boardlab.layouts.icons import split_icons

    variant = tmp_path / "icons.toml"
    variant.write_text('extends = "blockd"\n\n[game]\nname = "Blockd :star: \\\\:sun:"\n')
    code, out, err = run(capsys, "check", str(variant))
    assert code == 0, err
    assert split_icons("Blockd :star: \\:sun:") == ["Blockd ", ("star",), " :sun:"]


def _paragraph_png(text: str, inside: bool) -> "object":
    """`text` as one rulebook paragraph (14 pt) in a small PDF, rendered by PDFium."""
    import pypdfium2
    from PIL import Image  # noqa: F401  (pypdfium2 hands back a PIL image)
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import SimpleDocTemplate

    from boardlab.layouts import load
    from boardlab.printkit.rulebook.typeset import icons_in_text, para, register_family
    from boardlab.printkit.fonts import REGULAR_FONT

    register_family()
    buffer = io.BytesIO()
    style = ParagraphStyle("t", fontName=REGULAR_FONT, fontSize=14, leading=18)
    document = SimpleDocTemplate(buffer, pagesize=(200, 60), leftMargin=10, rightMargin=10, topMargin=10,
                                 bottomMargin=10, invariant=1)
    if inside:
        with icons_in_text(load("blockd"), "#000000"):
            document.build([para(text, style)])
    else:
        document.build([para(text, style)])
    pdf = pypdfium2.PdfDocument(buffer.getvalue())
    image = pdf[0].render(scale=DPI / 72).to_pil().convert("RGB")
    pdf.close()
    return image, buffer.getvalue()


def test_an_icon_in_a_rulebook_paragraph_sits_on_the_capitals_middle():
    """`:red:` in a rulebook paragraph is the red suit's symbol (Blockd: a heart, #c62828), about
    0.8 of the text size high, centred on the middle of the capitals next to it."""
    image, pdf = _paragraph_png("TAKE :red: HERE", inside=True)
    red, dark = _pixels(image, _red, 90)
    assert red and dark
    capitals = ((min(y for _, y in dark) + max(y for _, y in dark)) / 2)
    heart = (min(y for _, y in red) + max(y for _, y in red)) / 2
    points = DPI / 72
    assert abs(heart - capitals) <= 0.12 * 14 * points  # within an eighth of the text size
    tall = max(y for _, y in red) - min(y for _, y in red) + 1
    assert 0.5 * 14 * points <= tall <= 0.8 * 14 * points + 2
    lefts = [x for x, _ in dark]
    assert min(lefts) < min(x for x, _ in red) and max(x for x, _ in red) < max(lefts)  # between the words
    assert _paragraph_png("TAKE :red: HERE", inside=True)[1] == pdf  # identical input, identical bytes


def test_outside_a_rulebook_the_colons_are_text():
    image, _ = _paragraph_png("TAKE :red: HERE", inside=False)
    red, dark = _pixels(image, _red, 90)
    assert dark and not red


def test_an_unknown_icon_in_a_rulebook_text_is_a_problem_at_its_line():
    from boardlab.layouts import load
    from boardlab.layouts.rulebook import icon_problems
    from boardlab.layouts.rulebook_markup import parse

    text = parse("# Goal {#goal}\nWin :star: points.\n\n::: when rules.torus\nWrap :moon: round.\n::: end\n",
                 "x.md", "en")
    [problem] = icon_problems(text.blocks, load("blockd"), "x.md")
    assert (problem.file, problem.line, problem.message) == ("x.md", 5, 'unknown icon ":moon:"')


@pytest.mark.parametrize("what, path, words", [
    ("missing", "nowhere.svg", "no such file"),
    ("outside the folder", "../box.svg", "leaves the folder"),
    ("not an image", "notes.svg", "not"),
    ("a PNG", "box.png", "not an SVG"),
])
def test_a_bad_designer_icon_is_one_line_at_check(tmp_path, capsys, what, path, words):
    from PIL import Image

    from command_line import one_line_failure, run

    folder = tmp_path / "game"
    folder.mkdir()
    (tmp_path / "box.svg").write_text(SQUARE_SVG)
    (folder / "notes.svg").write_text("a shopping list, not a picture\n")
    Image.new("RGB", (8, 8), (0, 255, 0)).save(folder / "box.png")
    variant = folder / "mine.toml"
    variant.write_text(f'extends = "blockd"\n\n[icons]\nbox = "{path}"\n')
    code, out, err = run(capsys, "check", str(variant))
    one_line_failure(code, out, err, "mine.toml:4: icons.box:", words)

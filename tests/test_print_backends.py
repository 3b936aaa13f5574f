"""The PDF and SVG backends, the symbols and the all-or-nothing writer."""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from boardlab.layouts.common import SYMBOLS
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.draw import RecordingCanvas
from boardlab.printkit.output import render_print_files, write_print_file, write_print_files
from boardlab.printkit.pages import Component, Page, PrintFile
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.svg import render_svg
from boardlab.printkit.symbols import draw_symbol

from print_pdf_reading import open_pdf, page_geometry

SVG = "{http://www.w3.org/2000/svg}"


def everything(canvas):
    """One call of every Canvas method, with a transform and a clip."""
    canvas.rect(10, 20, 30, 40, fill="#c62828", stroke="#000000", radius=2, dash=(1, 1))
    canvas.line(5, 5, 50, 5, stroke="#1a3d8f", width=0.5)
    canvas.polygon([(60, 10), (70, 30), (50, 30)], fill="#4caf50")
    canvas.polygon([(60, 40), (70, 50), (50, 50)], stroke="#000000", closed=False)
    canvas.circle(80, 80, 5, fill="#f9d71c", stroke="#000000")
    canvas.path([("M", 10, 90), ("L", 20, 90), ("C", 25, 90, 25, 95, 20, 95), ("Z",)], fill="#000000")
    canvas.text(50, 70, "Ñandú é", size=12, anchor="middle", bold=True)
    with canvas.transform(40, 40, rotate=90, scale=2):
        canvas.rect(0, 0, 5, 2, fill="#000000")
    with canvas.clip(0, 0, 30, 30, radius=3):
        canvas.circle(15, 15, 20, fill="#4a4a4a")


def test_pdf_is_byte_identical_for_identical_input():
    file = PrintFile("demo", "Demo", (Page(100, 100, everything), Page(50, 80, everything)))
    assert render_pdf(file) == render_pdf(file)


def test_pdf_page_sizes_are_millimetres_and_print_scaling_is_none():
    file = PrintFile("demo", "Demo", (Page(210, 297, everything), Page(215.9, 279.4, everything)))
    reader = open_pdf(render_pdf(file))
    sizes = [(float(p.mediabox.width), float(p.mediabox.height)) for p in reader.pages]
    # 1 pt = 25.4/72 mm: A4 is 595.28 x 841.89 pt, Letter 612 x 792 pt
    assert sizes[0] == pytest.approx((595.2756, 841.8898), abs=1e-3)
    assert sizes[1] == pytest.approx((612.0, 792.0), abs=1e-3)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_pdf_embeds_every_font_it_uses():
    reader = open_pdf(render_pdf(PrintFile("demo", "Demo", (Page(100, 100, everything),))))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert fonts
    for font in fonts.values():
        font = font.get_object()
        assert "/FontFile2" in font["/FontDescriptor"].get_object(), font["/BaseFont"]
    assert "Ñandú é" in reader.pages[0].extract_text()


def test_pdf_flips_y_at_the_boundary():
    """A rectangle drawn at (10, 20) mm from the top-left is found there when read back."""
    page = Page(100, 150, lambda c: c.rect(10, 20, 30, 40, stroke="#000000"))
    geometry = page_geometry(open_pdf(render_pdf(PrintFile("r", "r", (page,)))), 0)
    assert geometry.rects == [pytest.approx((10, 20, 30, 40), abs=1e-3)]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_pdf_rendered_pixels_sit_where_drawn(tmp_path):
    """Render with poppler at 254 dpi (10 px per mm) and find a black square by its pixels."""
    page = Page(40, 30, lambda c: c.rect(5, 10, 8, 6, fill="#000000"))
    (tmp_path / "r.pdf").write_bytes(render_pdf(PrintFile("r", "r", (page,))))
    subprocess.run(["pdftoppm", "-r", "254", "-gray", "-singlefile", str(tmp_path / "r.pdf"), str(tmp_path / "r")],
                   check=True)
    data = (tmp_path / "r.pgm").read_bytes()
    header = data.split(b"\n", 3)
    width, height = (int(v) for v in header[1].split())
    pixels = header[3]
    dark = [(i % width, i // width) for i, value in enumerate(pixels) if value < 128]
    xs, ys = [x for x, _ in dark], [y for _, y in dark]
    assert (width, height) == (400, 300)
    assert (min(xs), max(xs) + 1, min(ys), max(ys) + 1) == pytest.approx((50, 130, 100, 160), abs=1)


def test_trim_and_bleed_boxes_are_written_in_points():
    page = Page(69.5, 94.9, lambda c: None, trim_box=(3, 3, 63.5, 88.9), bleed_box=(0, 0, 69.5, 94.9))
    reader = open_pdf(render_pdf(PrintFile("card", "card", (page,))))
    trim = [float(v) for v in reader.pages[0].trimbox]
    bleed = [float(v) for v in reader.pages[0].bleedbox]
    point = 72 / 25.4
    assert trim == pytest.approx([3 * point, 3 * point, 66.5 * point, 91.9 * point], abs=1e-3)
    assert bleed == pytest.approx([0, 0, 69.5 * point, 94.9 * point], abs=1e-3)


def test_svg_has_millimetre_size_and_one_element_per_drawing_call():
    component = Component("demo", 100, 100, everything)
    root = ET.fromstring(render_svg(component))
    assert root.get("width") == "100mm" and root.get("viewBox") == "0 0 100 100"
    recording = RecordingCanvas(100, 100)
    everything(recording)
    drawn = [name for name, _, _ in recording.calls if name not in ("transform", "end_transform", "clip", "end_clip")]
    shapes = [e for e in root.iter() if e.tag.replace(SVG, "") in ("rect", "line", "polygon", "polyline", "circle",
                                                                     "path", "text")]
    clip_rects = [e for e in root.iter(f"{SVG}clipPath")]
    assert len(shapes) - len(clip_rects) == len(drawn)
    texts = [e.text for e in root.iter(f"{SVG}text")]
    assert texts == ["Ñandú é"]
    # 12 pt = 4.2333 mm
    assert next(root.iter(f"{SVG}text")).get("font-size") == "4.2333"


def test_svg_is_identical_for_identical_input():
    component = Component("demo", 100, 100, everything)
    assert render_svg(component) == render_svg(component)


def test_every_symbol_draws_and_symbols_differ():
    outlines = {}
    for name in sorted(SYMBOLS):
        canvas = RecordingCanvas(20, 20)
        draw_symbol(canvas, name, 10, 10, 10, fill="#1a3d8f")
        assert canvas.calls, name
        outlines[name] = repr(canvas.calls)
        for kind, args, _ in canvas.calls:  # every symbol stays inside its box
            points = {"rect": lambda a: [(a[0], a[1]), (a[0] + a[2], a[1] + a[3])],
                      "circle": lambda a: [(a[0] - a[2], a[1] - a[2]), (a[0] + a[2], a[1] + a[2])],
                      "line": lambda a: [(a[0], a[1]), (a[2], a[3])],
                      "polygon": lambda a: list(a[0]),
                      "path": lambda a: [(c[-2], c[-1]) for c in a[0] if len(c) > 1]}[kind](args)
            for x, y in points:
                assert 5 - 1e-6 <= x <= 15 + 1e-6 and 5 - 1e-6 <= y <= 15 + 1e-6, (name, kind, x, y)
    assert len(set(outlines.values())) == len(SYMBOLS)


@pytest.mark.parametrize("name", ["star", "slider", "hoops"])
def test_orientation_symbols_change_under_every_quarter_turn(name):
    """Deblockle faces must show how a cube face is turned: the symbol's ink is not the same
    after a quarter, half or three-quarter turn (checked on a rasterised grid)."""
    canvas = RecordingCanvas(20, 20)
    draw_symbol(canvas, name, 10, 10, 10, fill="#000000")
    grid = _rasterise(canvas.calls, 10, 10, 41)
    for turn in range(1, 4):
        turned = grid
        for _ in range(turn):
            turned = [list(row) for row in zip(*turned[::-1])]
        assert turned != grid, (name, turn)


def _rasterise(calls, cx, cy, n):
    """Which cells of an n x n grid over the symbol's box are inside a filled polygon/rect/circle."""
    def inside_polygon(points, x, y):
        hit = False
        for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
        return hit
    grid = []
    for row in range(n):
        line = []
        for column in range(n):
            x = cx - 5 + (column + 0.5) * 10 / n
            y = cy - 5 + (row + 0.5) * 10 / n
            ink = False
            for kind, args, kw in calls:
                if kind == "polygon" and kw.get("fill"):
                    ink |= inside_polygon(list(args[0]), x, y)
                elif kind == "rect" and kw.get("fill"):
                    ink |= args[0] <= x <= args[0] + args[2] and args[1] <= y <= args[1] + args[3]
                elif kind == "circle":
                    d = ((x - args[0]) ** 2 + (y - args[1]) ** 2) ** 0.5
                    if kw.get("fill"):
                        ink |= d <= args[2]
                    elif kw.get("stroke"):
                        ink |= abs(d - args[2]) <= kw.get("width", 0.25) / 2
            line.append(ink)
        grid.append(line)
    return grid


def test_unknown_symbol_is_a_clear_error():
    with pytest.raises(BoardlabError, match="unknown symbol"):
        draw_symbol(RecordingCanvas(10, 10), "moon", 5, 5, 5, fill="#000000")


def test_writer_puts_pdf_and_svgs_in_place(tmp_path):
    component = Component("dot", 10, 10, lambda c: c.circle(5, 5, 2, fill="#000000"))
    file = PrintFile("demo", "Demo", (Page(10, 10, component.draw),), (component,))
    written = write_print_file(file, tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == ["demo.pdf", "svg/dot.svg"]
    assert (tmp_path / "demo.pdf").read_bytes() == render_pdf(file)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.pdf", "svg"]  # no temporary folder left


def test_writer_leaves_old_files_untouched_when_drawing_fails(tmp_path):
    (tmp_path / "demo.pdf").write_bytes(b"old")

    def broken(canvas):
        raise BoardlabError("does not fit")
    good = PrintFile("demo", "Demo", (Page(10, 10, lambda c: None),))
    bad = PrintFile("other", "Other", (Page(10, 10, broken),))
    with pytest.raises(BoardlabError):
        write_print_files([good, bad], tmp_path)
    assert (tmp_path / "demo.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.pdf"]


def test_components_with_one_name_must_draw_alike():
    a = Component("x", 10, 10, lambda c: c.circle(5, 5, 2, fill="#000000"))
    b = Component("x", 10, 10, lambda c: c.circle(5, 5, 3, fill="#000000"))
    files = [PrintFile("one", "One", (), (a,)), PrintFile("two", "Two", (), (b,))]
    with pytest.raises(BoardlabError, match="both called x"):
        render_print_files(files)


def test_writing_into_a_file_is_a_clear_error(tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    file = PrintFile("demo", "Demo", (Page(10, 10, lambda c: None),))
    with pytest.raises(BoardlabError, match="cannot write"):
        write_print_file(file, tmp_path / "taken" / "inside")

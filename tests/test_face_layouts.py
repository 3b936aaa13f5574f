"""The faces laid out as data (layouts/faces/*.toml, layouts/faces.py) print as the hand-placed
drawing code did, and a layout moves what it says.

The reference images in tests/data/faces/ are PNGs written by tests/face_renders.py from the
drawing code before the faces became layouts (commit 4d30d65, every position written in the game
modules); this test renders today's faces the same way (PDFium, 72 dpi) and compares them pixel by
pixel.  Two renders of the same drawing differ only where an edge falls between pixels by a hair
(floating-point sums such as 22.5% + 55% / 2 of the card's width for its middle): a few anti-aliased
pixels by a few levels.  A region moved by 0.35 mm moves a whole edge by a pixel, which this tolerance
does not take.
"""

from __future__ import annotations

import pytest

from face_renders import DPI, GAMES, PARTLY, REFERENCES, face_images

#: the most any pixel of a face may differ in any channel (0-255): anti-aliasing along an edge
CHANNEL_TOLERANCE = 48
#: the share of a face's pixels that may differ at all (anti-aliased edge pixels)
PIXEL_SHARE = 0.002


def differing(a, b) -> tuple[int, int]:
    """(pixels differing at all, the largest difference of one channel) of two equal-sized RGB images."""
    from PIL import ImageChops

    assert a.size == b.size
    difference = ImageChops.difference(a, b)
    largest = max(high for _, high in difference.getextrema())
    count = sum(1 for value in difference.convert("L").point(lambda v: 255 if v else 0).tobytes() if value)
    return count, largest


@pytest.mark.parametrize("game", GAMES)
def test_faces_print_as_before(game):
    from PIL import Image

    from boardlab.layouts import load

    images = face_images(load(game))
    references = sorted((REFERENCES / game).glob("*.png"))
    assert references, f"no reference images in {REFERENCES / game}"
    names = {path.stem for path in references}
    expected = {n for n in images if not (game in PARTLY and not n.startswith(PARTLY[game]))}
    assert names == expected
    for path in references:
        reference = Image.open(path).convert("RGB")
        count, largest = differing(reference, images[path.stem])
        share = count / (reference.width * reference.height)
        assert largest <= CHANNEL_TOLERANCE and share <= PIXEL_SHARE, (
            f"{game} {path.stem}: {count} pixels differ ({share:.2%}), by up to {largest}")


def _rows_that_differ(a, b) -> list[int]:
    from PIL import ImageChops

    difference = ImageChops.difference(a, b).convert("L")
    width = difference.width
    data = difference.tobytes()
    return [row for row in range(difference.height) if any(data[row * width:(row + 1) * width])]


def _clusters(rows: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for row in rows:
        if out and row - out[-1][-1] <= 2:
            out[-1].append(row)
        else:
            out.append([row])
    return out


def test_a_variant_moves_the_title_and_its_pixels_move(tmp_path):
    """A variant that writes only `[layout.back.title] y` moves the back's title: the pixels that
    change are the title's rows where it was and where the variant puts it, each band centred on the
    region's middle (mm from the layout, turned into pixels here: 72 dpi, the face's 3 mm bleed)."""
    from boardlab.layouts import load
    from boardlab.layouts.faces import face_regions

    variant = tmp_path / "title-up.toml"
    variant.write_text('extends = "blockd"\n\n[layout.back.title]\ny = "8%"\n')
    before, after = face_images(load("blockd"))["back"], face_images(load(variant))["back"]
    old, new = face_regions(load("blockd"), "back")["title"], face_regions(load(variant), "back")["title"]
    assert new.y == 0.08 * 88.9 and new.x == old.x  # the variant's one key, the rest inherited

    def pixel_row(mm: float) -> float:
        return (mm + 3.0) / 25.4 * DPI

    bands = _clusters(_rows_that_differ(before, after))
    assert len(bands) == 2, bands
    for band, region in zip(bands, (new, old)):  # top to bottom: the new place is higher up
        middle = (band[0] + band[-1]) / 2
        assert abs(middle - pixel_row(region.y + region.height / 2)) <= 1.5, (band, region)
        assert len(band) <= region.height / 25.4 * DPI + 2  # only the title's rows changed


def test_a_variant_changes_the_title_font(tmp_path):
    """`font = "regular"` sets the back's title in Vera instead of Vera Bold: thinner strokes, so fewer
    pixels of the title's colour in its band, and nothing outside the band changes."""
    from boardlab.layouts import load
    from boardlab.layouts.faces import face_regions

    variant = tmp_path / "title-regular.toml"
    variant.write_text('extends = "blockd"\n\n[layout.back.title]\nfont = "regular"\n')
    before, after = face_images(load("blockd"))["back"], face_images(load(variant))["back"]
    region = face_regions(load(variant), "back")["title"]
    top, bottom = ((region.y + 3.0) / 25.4 * DPI, (region.y + region.height + 3.0) / 25.4 * DPI)
    rows = _rows_that_differ(before, after)
    assert rows and top - 1 <= rows[0] and rows[-1] <= bottom + 1

    def light(image) -> int:  # the title is in the paper colour on the dark back
        band = image.crop((0, int(top), image.width, int(bottom) + 1)).convert("L")
        return sum(1 for value in band.tobytes() if value > 200)
    assert light(after) < light(before) * 0.85


BAD_LAYOUTS = [
    # (what, the variant's layout lines (from its line 3), the line and key named, words of the message)
    ("unknown region", '[layout.number.titel]\nx = 4', 3, "layout.number.titel", 'unknown region "titel"'),
    ("unknown kind", '[layout.joker.art]\nx = 4', 3, "layout.joker", 'unknown card kind "joker"'),
    ("negative size", '[layout.number.value]\nwidth = -5', 4, "layout.number.value.width", "-5 mm wide"),
    ("zero height", '[layout.back.title]\nheight = "0%"', 4, "layout.back.title.height", "0 mm high"),
    ("outside the card", '[layout.back.title]\nx = 80', 3, "layout.back.title", "outside the 63.5 x 88.9 mm face"),
    ("unknown font", '[layout.back.title]\nfont = "comic"', 4, "layout.back.title.font", 'unknown value "comic"'),
    ("not a length", '[layout.back.title]\ny = "ten%"', 4, "layout.back.title.y", '"ten%" is not a length'),
    ("unknown colour", '[layout.back.title]\ncolour = "mauve"', 4, "layout.back.title.colour", 'unknown colour "mauve"'),
    ("no layout file", '[layout]\nfile = "nowhere.toml"', 4, "layout.file", "no such file"),
]


@pytest.mark.parametrize("what, lines, line, key, words", BAD_LAYOUTS, ids=[case[0] for case in BAD_LAYOUTS])
def test_a_bad_layout_is_one_line_at_its_file_and_line(tmp_path, capsys, what, lines, line, key, words):
    """`boardlab check` of a variant with one layout mistake: exit 2, one FILE:LINE: KEY line."""
    from command_line import one_line_failure, run

    variant = tmp_path / "bad.toml"
    variant.write_text(f'extends = "blockd"\n\n{lines}\n')
    code, out, err = run(capsys, "check", str(variant))
    one_line_failure(code, out, err, f"bad.toml:{line}: {key}:", words)


def test_a_bad_region_in_a_layout_file_is_reported_in_that_file(tmp_path, capsys):
    """A layout file of the designer's own, named by `[layout] file`: its mistakes at its own lines."""
    from command_line import one_line_failure, run

    (tmp_path / "faces.toml").write_text((REFERENCES.parents[2] / "layouts" / "faces" / "blockd.toml").read_text()
                                         + '\n[start.steps2]\nx = 1\n')
    variant = tmp_path / "mine.toml"
    variant.write_text('extends = "blockd"\n\n[layout]\nfile = "faces.toml"\n')
    lines = (tmp_path / "faces.toml").read_text().split("\n")
    code, out, err = run(capsys, "check", str(variant))
    one_line_failure(code, out, err, f"faces.toml:{lines.index('[start.steps2]') + 1}: layout.start.steps2:",
                     'unknown region "steps2"')

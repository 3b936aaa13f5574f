"""The designer's own images (issue 36): every output carries them, `check` judges them.

A test variant of Links names a PNG of its own for each master card in its card list's `image`
column, stretched over the card's art region, and one for every back over the whole card.  Each
image is four flat quadrants of colours no other image uses, so a rendered page's pixel at the
middle of a quadrant, computed here from the spec's numbers (poker card 63.5 x 88.9 mm, 3 mm
bleed and safe margin, a master's art region as its face's layout writes it), says whose image is there.
"""

from __future__ import annotations

import base64
import io
import math
from pathlib import Path

import pytest

from command_line import one_line_failure, run

Image = pytest.importorskip("PIL.Image")
pypdfium2 = pytest.importorskip("pypdfium2")

W, H, BLEED, SAFE = 63.5, 88.9, 3.0, 3.0
#: a master card's art region (cut-box coordinates, mm), as layouts/faces/links.toml writes it (where the
#: star is): x 33% of the width, y 38% of the height less 10.795 mm, 34% wide, 21.59 mm high
REGION = (0.33 * W, 0.38 * H - 10.795, 0.34 * W, 21.59)
#: the safe box (the region "safe")
SAFE_BOX = (SAFE, SAFE, W - 2 * SAFE, H - 2 * SAFE)
MASTERS = ("ONE", "TWO", "THREE", "FOUR")
PIXELS = (800, 460)  # 353 dpi over the 57.5 mm wide region: sharp, no warning


def quadrants(seed: int) -> list[tuple[int, int, int]]:
    """Four colours of one image: top-left, top-right, bottom-left, bottom-right."""
    return [((60 * seed + 40 * q) % 256, (200 - 50 * q + 20 * seed) % 256, (30 + 70 * seed + 90 * q) % 256)
            for q in range(4)]


def write_png(path: Path, seed: int, size=PIXELS) -> bytes:
    image = Image.new("RGB", size)
    w, h = size
    for q, colour in enumerate(quadrants(seed)):
        x, y = (q % 2) * (w // 2), (q // 2) * (h // 2)
        image.paste(colour, (x, y, x + w // 2 if q % 2 == 0 else w, y + h // 2 if q < 2 else h))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="PNG")
    return path.read_bytes()


@pytest.fixture(scope="module")
def variant(tmp_path_factory):
    """A Links variant whose card list gives each master its own image, with a back image."""
    from boardlab.layouts import load
    from boardlab.layouts.loader import card_list_csv
    from boardlab.layouts.links import CardRow

    folder = tmp_path_factory.mktemp("illustrated")
    files = {name: write_png(folder / "art" / f"{name.lower()}.png", seed) for seed, name in enumerate(MASTERS)}
    files["back"] = write_png(folder / "art" / "back.png", 7, size=(840, 1140))  # 307 dpi over the bleed box
    deck = load("links").deck
    rows = [CardRow("game", 1, f"{a.colour} {a.points} / {b.colour} {b.points}") for a, b in deck.game_cards]
    rows += [CardRow("central"), CardRow("empty", deck.empty)]
    rows += [CardRow("master", m.count, value=m.value, text=m.name, image=f"art/{m.name.lower()}.png") for m in deck.masters]
    (folder / "deck.csv").write_text(card_list_csv(rows), encoding="utf-8")
    (folder / "art.toml").write_text('extends = "links"\n\n[deck]\ncard_list = "deck.csv"\n\n'
                                     '[art.cards.master]\nimage = "art/one.png"\nfit = "stretch"\n\n'
                                     '[art.back]\nimage = "art/back.png"\nfit = "stretch"\nregion = "full"\n',
                                     encoding="utf-8")
    return folder, files


def test_the_card_list_writes_the_image_column_and_reads_it_back(variant):
    folder, _ = variant
    header = (folder / "deck.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "kind,ends,value,count,text,image"
    from boardlab.layouts import load

    definition = load(folder / "art.toml")
    images = {row.text: row.image for row in definition.deck.cards if row.kind == "master"}
    assert images == {name: f"art/{name.lower()}.png" for name in MASTERS}


def render(pdf: Path, index: int, dpi: int = 150):
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return document[index].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def at(image, x_mm: float, y_mm: float, dpi: int):
    return image.getpixel((int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi)))


def quadrant_points(box):
    """The middles of the four quadrants of a box (mm)."""
    x, y, w, h = box
    return [(x + w * (0.25 + 0.5 * (q % 2)), y + h * (0.25 + 0.5 * (q // 2))) for q in range(4)]


def close(a, b, tolerance: int = 3) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def test_each_master_prints_its_own_image_and_the_back_reaches_the_bleed_edge(variant, tmp_path, capsys):
    folder, _ = variant
    out = tmp_path / "print"
    code, _, err = run(capsys, "print", "links", "--variant", str(folder / "art.toml"), "--out", str(out))
    assert code == 0, err
    from boardlab.layouts import load
    from boardlab.printkit.games.links import links_cards

    names = [card.name for card in links_cards(load(folder / "art.toml"))]
    dpi = 150
    single = out / "links-cards-single.pdf"
    region_on_page = (REGION[0] + BLEED, REGION[1] + BLEED, REGION[2], REGION[3])
    for seed, master in enumerate(MASTERS):
        page = render(single, 2 * names.index(f"master-{master.lower()}"), dpi)
        seen = [at(page, x, y, dpi) for x, y in quadrant_points(region_on_page)]
        assert all(close(s, e) for s, e in zip(seen, quadrants(seed))), (master, seen, quadrants(seed))
    back = render(single, 1, dpi)
    corners = [back.getpixel((1, 1)), back.getpixel((back.width - 2, 1)), back.getpixel((1, back.height - 2)),
               back.getpixel((back.width - 2, back.height - 2))]
    assert all(close(s, e) for s, e in zip(corners, quadrants(7))), corners  # the bleed edge, all four corners
    # the sheets for home printing carry them too: the last card (master FOUR) on the last front page
    sheet = out / "links-cards-a4.pdf"
    assert b"/Subtype /Image" in sheet.read_bytes()


def test_the_tts_sheet_and_the_play_page_show_the_same_files(variant, tmp_path, capsys):
    folder, files = variant
    out = tmp_path / "tts"
    code, _, err = run(capsys, "export", "tts", "links", "--variant", str(folder / "art.toml"), "--out", str(out))
    assert code == 0, err
    from boardlab.layouts import load
    from boardlab.printkit.games.links import links_cards
    from boardlab.printkit.tts import DPI, cell_pixels, sheet_grid

    definition = load(folder / "art.toml")
    names = [card.name for card in links_cards(definition)]
    [sheet_file] = list(out.glob("*faces*.png"))
    sheet = Image.open(sheet_file).convert("RGB")
    cell = (cell_pixels(W), cell_pixels(H))
    columns, _ = sheet_grid(len(names), cell)
    for seed, master in enumerate(MASTERS):
        row, column = divmod(names.index(f"master-{master.lower()}"), columns)
        seen = [sheet.getpixel((column * cell[0] + int(x / 25.4 * DPI), row * cell[1] + int(y / 25.4 * DPI)))
                for x, y in quadrant_points(REGION)]
        assert all(close(s, e) for s, e in zip(seen, quadrants(seed))), (master, seen)

    from starlette.testclient import TestClient

    from boardlab.play_server import make_app

    client = TestClient(make_app(definition, 2), base_url="http://127.0.0.1")
    for master in MASTERS:
        svg = client.get(f"/art/master-{master.lower()}.svg")
        assert svg.status_code == 200
        # the PNG file's own bytes, embedded: the same file, not a copy drawn again
        assert base64.b64encode(files[master]).decode("ascii") in svg.text, master
        others = [files[m] for m in MASTERS if m != master]
        assert not any(base64.b64encode(other).decode("ascii") in svg.text for other in others)


def test_an_svg_image_is_drawn_as_vector_art_where_it_belongs(tmp_path, capsys):
    """Half red, half blue (a path with an arc for the blue half's round end); the page pixels
    follow the SVG's geometry, scaled over the region."""
    (tmp_path / "half.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50">'
        '<rect width="50" height="50" fill="#ff0000"/>'
        '<path d="M50 0 H75 A25 25 0 0 1 75 50 H50 Z" style="fill:#0000ff"/></svg>', encoding="utf-8")
    (tmp_path / "v.toml").write_text('extends = "links"\n[art.cards.central]\nimage = "half.svg"\nfit = "stretch"\n'
                                     'region = "safe"\n', encoding="utf-8")
    code, _, err = run(capsys, "print", "links", "--variant", str(tmp_path / "v.toml"), "--out", str(tmp_path / "o"))
    assert code == 0, err
    from boardlab.layouts import load
    from boardlab.printkit.games.links import links_cards

    names = [card.name for card in links_cards(load(tmp_path / "v.toml"))]
    dpi = 150
    page = render(tmp_path / "o" / "links-cards-single.pdf", 2 * names.index("central"), dpi)
    x, y, w, h = SAFE_BOX[0] + BLEED, SAFE_BOX[1] + BLEED, SAFE_BOX[2], SAFE_BOX[3]

    def svg_point(u, v):  # viewBox units to page mm
        return x + u / 100 * w, y + v / 50 * h

    assert close(at(page, *svg_point(25, 25), dpi), (255, 0, 0))
    assert close(at(page, *svg_point(60, 25), dpi), (0, 0, 255))
    assert close(at(page, *svg_point(95, 25), dpi), (0, 0, 255))  # inside the round end (radius 25 from 75)
    # outside the arc, near the region's right corners: the stock card shows (not blue)
    assert not close(at(page, *svg_point(98, 3), dpi), (0, 0, 255), 40)
    # the SVG file of the face holds paths, no embedded picture
    svg = (tmp_path / "o" / "svg" / "central.svg").read_text(encoding="utf-8")
    assert "<image" not in svg and "#0000ff" in svg


def test_an_arc_becomes_curves_on_the_ellipse():
    """Slow twin of the arc conversion: points of each Bézier against the exact ellipse."""
    from boardlab.layouts.images import path_commands

    for d, (cx, cy, rx, ry) in [("M 10 0 A 10 5 0 1 1 -10 0", (0, 0, 10, 5)),
                                # the small arc turning the negative way: round the centre (10, -5), not (0, 0)
                                ("M 0 -5 A 10 5 0 0 0 10 0", (10, -5, 10, 5)),
                                ("M 0 -5 A 10 5 0 0 1 10 0", (0, 0, 10, 5)),
                                ("M 5 0 A 5 5 0 1 0 -5 0 A 5 5 0 1 0 5 0", (0, 0, 5, 5))]:
        commands = path_commands(d, "test")
        x0, y0 = commands[0][1:]
        for command in commands[1:]:
            assert command[0] == "C"
            x1, y1, x2, y2, x3, y3 = command[1:]
            for k in range(11):
                t = k / 10
                px = (1 - t) ** 3 * x0 + 3 * (1 - t) ** 2 * t * x1 + 3 * (1 - t) * t ** 2 * x2 + t ** 3 * x3
                py = (1 - t) ** 3 * y0 + 3 * (1 - t) ** 2 * t * y1 + 3 * (1 - t) * t ** 2 * y2 + t ** 3 * y3
                # on the ellipse: ((x - cx) / rx)^2 + ((y - cy) / ry)^2 = 1, within the cubic's 0.03% error
                assert abs(math.hypot((px - cx) / rx, (py - cy) / ry) - 1) < 1e-3, (d, t)
            x0, y0 = x3, y3


def low_variant(folder: Path, allow: bool) -> Path:
    write_png(folder / "art" / "low.png", 2, size=(163, 235))  # 72 dpi over the 57.5 x 82.9 mm safe box
    text = 'extends = "links"\n'
    if allow:
        text += "[art]\nallow_low_resolution = true\n"
    text += '[art.cards.central]\nimage = "art/low.png"\nfit = "stretch"\nregion = "safe"\n'
    (folder / "low.toml").write_text(text, encoding="utf-8")
    return folder / "low.toml"


def test_a_72_dpi_image_warns_with_the_card_and_its_dpi(tmp_path, capsys):
    path = low_variant(tmp_path, allow=True)
    code, _, err = run(capsys, "check", str(path))
    assert code == 0, err
    [warning] = [line for line in err.splitlines() if "warning" in line]
    # 163 pixels over 57.5 mm: 72.0 dpi; 235 over 82.9 mm: 72.0 dpi; the lower, rounded
    assert f"{min(163 / (57.5 / 25.4), 235 / ((H - 2 * SAFE) / 25.4)):.0f} dpi" == "72 dpi"
    assert "72 dpi on central" in warning and warning.startswith(f"{path}:5: art.cards.central.image")


def test_under_150_dpi_is_an_error_unless_allowed_and_nothing_is_printed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = low_variant(tmp_path, allow=False).relative_to(tmp_path)
    code, out, err = run(capsys, "check", str(path))
    assert code == 2 and "72 dpi on central" in err and "allow_low_resolution" in err
    code, out, err = run(capsys, "print", "links", "--variant", str(path), "--out", str(tmp_path / "out"))
    one_line_failure(code, out, err, "low.toml:3: art.cards.central.image: 72 dpi on central: art/low.png has 163 x 235")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", ["missing", "not an image", "outside"])
def test_a_bad_image_is_one_file_line_and_nothing_written(tmp_path, capsys, case):
    inside = tmp_path / "game"
    inside.mkdir()
    (tmp_path / "elsewhere.png").write_bytes(write_png(tmp_path / "x" / "ok.png", 1))
    (inside / "notes.png").write_text("not a picture at all\n", encoding="utf-8")
    image = {"missing": "art/nothing.png", "not an image": "notes.png", "outside": "../elsewhere.png"}[case]
    (inside / "bad.toml").write_text(f'extends = "links"\n\n[art.back]\nimage = "{image}"\n', encoding="utf-8")
    words = {"missing": "no such file", "not an image": "is not a PNG, JPEG or SVG image",
             "outside": "leads out of the definition's folder"}[case]
    for argv in (["check", str(inside / "bad.toml")],
                 ["print", "links", "--variant", str(inside / "bad.toml"), "--out", str(tmp_path / "out")],
                 ["export", "tts", "links", "--variant", str(inside / "bad.toml"), "--out", str(tmp_path / "tts")],
                 ["proof", "links", "--variant", str(inside / "bad.toml"), "--out", str(tmp_path / "proof")]):
        code, out, err = run(capsys, *argv)
        one_line_failure(code, out, err, "bad.toml:4: art.back.image", words)
    assert not any((tmp_path / name).exists() for name in ("out", "tts", "proof"))


def test_a_cmyk_image_is_converted_with_a_warning(tmp_path, capsys):
    Image.new("CMYK", (1000, 1400), (0, 255, 255, 0)).save(tmp_path / "red.jpg", format="JPEG")
    (tmp_path / "c.toml").write_text('extends = "links"\n[art.cards.central]\nimage = "red.jpg"\n', encoding="utf-8")
    code, _, err = run(capsys, "check", str(tmp_path / "c.toml"))
    assert code == 0 and "converted (CMYK to RGB)" in err
    from boardlab.layouts.images import read_picture

    picture = read_picture(tmp_path / "red.jpg")
    converted = Image.open(io.BytesIO(picture.data))
    assert converted.mode == "RGB" and close(converted.getpixel((450, 260)), (255, 0, 0), 8)


def test_the_proof_sheet_lists_every_face_with_its_count_in_each_language(tmp_path, capsys):
    from pypdf import PdfReader

    from boardlab.layouts import load
    from boardlab.printkit.games.links import links_cards

    code, _, err = run(capsys, "proof", "links", "--variant", "links-illustrated", "--out", str(tmp_path), "--lang", "all")
    assert code == 0, err
    cards = links_cards(load("links-illustrated"))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.name] = counts.get(card.name, 0) + 1
    backs = len(cards)  # every card has the one back
    for pdf, copy, copies in ((tmp_path / "links-proof-a4.pdf", "copia", "copias"),
                              (tmp_path / "en" / "links-proof-a4.pdf", "copy", "copies")):
        text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
        for name, n in counts.items():
            assert f"{name}.svg {n} {copy if n == 1 else copies}" in " ".join(text.split()), (pdf, name)
        assert f"back.svg {backs} {copies}" in " ".join(text.split())


def test_the_example_variant_ships_its_art():
    from boardlab.layouts import load

    definition = load("links-illustrated")
    shown = sorted(Path(p.path).name for p in definition.images.values())
    assert shown == ["compass.svg", "logo.svg", "moon.svg", "mountain.svg", "sun.svg", "tree.svg"]
    assert all(Path(p.path).is_file() for p in definition.images.values())


def test_boards_tokens_standees_and_cards_of_6x6_carry_their_images_everywhere(tmp_path, capsys):
    """Each of 6x6's targets gets a PNG of its own: every print SVG of it, every Tabletop Simulator
    piece and every component of the play page embeds that file's bytes, and no other's."""
    from boardlab.layouts import game_part, load
    from boardlab.printkit.svg import render_svg

    targets = {"boards.board": (1400, 1400), "tokens.chip": (400, 400), "standees.marker": (400, 400),
               "cards.card": (1200, 500), "back": (1400, 600)}
    text = 'extends = "sixbysix"\n'
    files = {}
    for k, (target, size) in enumerate(targets.items()):
        name = target.replace(".", "-")
        files[target] = base64.b64encode(write_png(tmp_path / f"{name}.png", k, size)).decode("ascii")
        text += f'[art.{target}]\nimage = "{name}.png"\n'
    (tmp_path / "six.toml").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "check", str(tmp_path / "six.toml"))
    assert code == 0, err
    definition = load(tmp_path / "six.toml")
    module = game_part("sixbysix", "print")

    def expect(name: str) -> str | None:
        if name.endswith("-back"):
            return "back"
        for part, target in (("-board", "boards.board"), ("-chip-", "tokens.chip"), ("-marker-", "standees.marker"),
                             ("-card-", "cards.card")):
            if part in name:
                return target
        return None

    def holds(component) -> set[str]:
        svg = render_svg(component)
        return {target for target, data in files.items() if data in svg}

    from boardlab.printkit.pages import PrintOptions

    seen = 0
    for print_file in module.print_files(definition, PrintOptions("a4", "long", "duplex")):
        for component in print_file.components:
            want = expect(component.name)
            assert holds(component) == ({want} if want else set()), component.name
            seen += want is not None
    assert seen >= 1 + 6 * 4  # the board, and per seat a card, its back, a marker and a chip
    box = module.tts_box(definition)
    for piece in [*box.boards, *box.tiles, *box.tokens]:
        for component in (piece.component, piece.back):
            if component is not None:
                assert holds(component) == {expect(component.name)}, component.name
    from boardlab.analysis.engines import make_game

    table = module.table_art(definition, make_game(definition, 2))
    for name, component in table.components().items():
        want = expect(name)
        if want is not None:
            assert holds(component) == {want}, name


def test_the_print_on_demand_image_carries_the_card_s_own_art(variant):
    """As `print --pod thegamecrafter` draws it: the shop's 1/8 inch bleed, 300 dpi."""
    from boardlab.layouts import load, print_conventions
    from boardlab.printkit.decks import single_card_file
    from boardlab.printkit.games.links import links_cards
    from boardlab.printkit.imposition import card_geometry
    from boardlab.printkit.pod import DPI, page_images, with_pod_bleed

    folder, _ = variant
    definition = with_pod_bleed(load(folder / "art.toml"), "thegamecrafter", print_conventions())
    cards = [card for card in links_cards(definition) if card.name == "master-two"]
    front, _ = page_images(single_card_file("pod", "pod", cards, card_geometry(definition.print, print_conventions())),
                           DPI)
    image = Image.open(io.BytesIO(front)).convert("RGB")
    bleed = 25.4 / 8
    assert image.size == (round((W + 2 * bleed) / 25.4 * DPI), round((H + 2 * bleed) / 25.4 * DPI))
    box = (REGION[0] + bleed, REGION[1] + bleed, REGION[2], REGION[3])
    seen = [at(image, x, y, DPI) for x, y in quadrant_points(box)]
    assert all(close(s, e) for s, e in zip(seen, quadrants(1))), seen


@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
def test_the_card_sheets_show_every_master_s_image_and_the_backs(variant, tmp_path, capsys, layout):
    """Every colour of every image is on the sheets' pages (flat areas render their exact colour)."""
    folder, _ = variant
    code, _, err = run(capsys, "print", "links", "--variant", str(folder / "art.toml"), "--out", str(tmp_path),
                       "--layout", layout)
    assert code == 0, err
    sheet = next(tmp_path.glob("links-cards-a4*.pdf"))
    document = pypdfium2.PdfDocument(str(sheet))
    colours: set = set()
    try:
        for page in document:
            colours |= {colour for _, colour in page.render(scale=50 / 72).to_pil().convert("RGB").getcolors(1 << 20)}
    finally:
        document.close()
    for seed in (0, 1, 2, 3, 7):
        assert all(tuple(c) in colours for c in quadrants(seed)), seed


@pytest.mark.parametrize("content, said", [
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><text>hi</text></svg>", "<text> is not drawn"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'>" + b"<g>" * 5000 + b"</g>" * 5000 + b"</svg>",
     "nested too deeply"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='1e999' height='1'/></svg>",
     "too large"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><rect width='5' height='5' fill='url(#g)'/></svg>",
     "the paint 'url(#g)' is not drawn"),
    (b"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><path d='M 1 L 2 2'/></svg>", "lacks numbers"),
    (b"\x89PNG\r\n\x1a\n" + bytes(40), "is not a readable PNG image"),
    (b"<?xml version='1.0'?><svg", "not XML"),
])
def test_a_broken_or_unsupported_image_is_one_line(tmp_path, capsys, content, said):
    (tmp_path / "x.svg").write_bytes(content)
    (tmp_path / "v.toml").write_text('extends = "links"\n[art.back]\nimage = "x.svg"\n', encoding="utf-8")
    code, out, err = run(capsys, "check", str(tmp_path / "v.toml"))
    one_line_failure(code, out, err, "v.toml:3: art.back.image", said)


def test_a_fifo_is_refused_without_being_opened(tmp_path, capsys):
    import os

    os.mkfifo(tmp_path / "pipe.png")  # opening it to read would wait for a writer for ever
    (tmp_path / "v.toml").write_text('extends = "links"\n[art.back]\nimage = "pipe.png"\n', encoding="utf-8")
    code, out, err = run(capsys, "check", str(tmp_path / "v.toml"))
    one_line_failure(code, out, err, "v.toml:3: art.back.image", "is not a regular file")


def test_a_16_bit_image_is_converted_to_8_bits_with_a_warning(tmp_path, capsys):
    import numpy

    levels = numpy.zeros((1400, 1000), dtype=numpy.uint16)
    levels[:, :500] = 40000  # the left half at 40000 / 65535 of white
    Image.fromarray(levels).save(tmp_path / "deep.png", format="PNG")
    assert Image.open(tmp_path / "deep.png").getpixel((100, 100)) == 40000
    assert (tmp_path / "deep.png").read_bytes()[24] == 16  # the PNG header says 16 bits
    (tmp_path / "d.toml").write_text('extends = "links"\n[art.cards.central]\nimage = "deep.png"\n', encoding="utf-8")
    code, _, err = run(capsys, "check", str(tmp_path / "d.toml"))
    assert code == 0 and "converted (16 bits to 8)" in err
    from boardlab.layouts.images import read_picture

    converted = Image.open(io.BytesIO(read_picture(tmp_path / "deep.png").data))
    assert converted.mode == "L"
    assert abs(converted.getpixel((100, 100)) - round(40000 / 257)) <= 1 and converted.getpixel((800, 100)) == 0


def test_an_image_follows_its_region_when_a_variant_moves_it_in_the_layout(variant, tmp_path, capsys):
    """[layout.master.art] moved to the card's lower left: master ONE's image is drawn there."""
    folder, _ = variant
    moved = (6.0, 60.0, 30.0, 20.0)  # x, y, width, height in mm
    (folder / "moved.toml").write_text(
        'extends = "art.toml"\n\n[layout.master.art]\n'
        f'x = {moved[0]}\ny = {moved[1]}\nwidth = {moved[2]}\nheight = {moved[3]}\n', encoding="utf-8")
    code, _, err = run(capsys, "print", "links", "--variant", str(folder / "moved.toml"), "--out", str(tmp_path))
    assert code == 0, err
    from boardlab.layouts import load
    from boardlab.printkit.games.links import links_cards

    names = [card.name for card in links_cards(load(folder / "moved.toml"))]
    page = render(tmp_path / "links-cards-single.pdf", 2 * names.index("master-one"), 150)
    box = (moved[0] + BLEED, moved[1] + BLEED, moved[2], moved[3])
    seen = [at(page, x, y, 150) for x, y in quadrant_points(box)]
    assert all(close(s, e) for s, e in zip(seen, quadrants(0))), seen

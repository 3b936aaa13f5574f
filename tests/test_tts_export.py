"""`boardlab export tts`: the saved object has the structure Tabletop Simulator reads, every image
it names exists with the size it implies, and the deck sheets slice back into the card faces."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from boardlab.cli import main
from boardlab.layouts import game_ids, game_part, load
from boardlab.printkit.pages import PrintFile
from boardlab.printkit.pod import page_images
from boardlab.printkit.tts import (DPI, MAX_COLUMNS, MAX_ROWS, SIDES, TtsBox, TtsDeck, card_page, cell_pixels,
                                   cube_obj, sheet_grid)

Image = pytest.importorskip("PIL.Image")

GAMES = [g for g in game_ids("print") if hasattr(game_part(g, "print"), "tts_box")]
TRANSFORM = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
#: the objects this export writes, and what TTS reads in each beyond the common keys
KINDS = {"Bag", "DeckCustom", "Card", "Custom_Board", "Custom_Tile", "Custom_Token", "Custom_Model", "Die_6"}


def export(game: str, out: Path, *extra: str) -> dict:
    assert main(["export", "tts", game, "--out", str(out), *extra]) == 0
    return json.loads((out / f"{load(game).game.id}.json").read_text())


def path_of(url: str, out: Path, relative: bool = False) -> Path:
    if relative:
        assert "/" not in url and ":" not in url, url
        return out / url
    parsed = urlparse(url)
    assert parsed.scheme == "file" and parsed.netloc == "", url
    return Path(unquote(parsed.path))


def image(path: Path):
    assert path.is_file(), path
    with Image.open(path) as picture:
        return picture.convert("RGBA").copy()


def walk(objects):
    for item in objects:
        yield item
        yield from walk(item.get("ContainedObjects", ()))


def check_object(item: dict, guids: set) -> None:
    assert item["Name"] in KINDS, item["Name"]
    assert set(TRANSFORM) <= set(item["Transform"]) and all(isinstance(item["Transform"][k], (int, float))
                                                            for k in TRANSFORM)
    assert re.fullmatch(r"[0-9a-f]{6}", item["GUID"]) and item["GUID"] not in guids
    guids.add(item["GUID"])
    assert isinstance(item["Nickname"], str)


@pytest.mark.parametrize("game", GAMES)
def test_the_saved_object_has_what_tts_reads(game, tmp_path):
    saved = export(game, tmp_path)
    assert isinstance(saved["ObjectStates"], list) and len(saved["ObjectStates"]) == 1
    [bag] = saved["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["ContainedObjects"]
    guids: set = set()
    kinds = set()
    for item in walk(saved["ObjectStates"]):
        check_object(item, guids)
        kinds.add(item["Name"])
        if item["Name"] == "DeckCustom":
            cards = item["ContainedObjects"]
            assert item["DeckIDs"] == [card["CardID"] for card in cards] and all(c["Name"] == "Card" for c in cards)
            for key, entry in item["CustomDeck"].items():
                assert set(entry) >= {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
                assert 1 <= entry["NumWidth"] <= MAX_COLUMNS and 1 <= entry["NumHeight"] <= MAX_ROWS
                assert entry["BackIsHidden"] is True and isinstance(entry["UniqueBack"], bool)
                faces = image(path_of(entry["FaceURL"], tmp_path))
                assert faces.width % entry["NumWidth"] == 0 and faces.height % entry["NumHeight"] == 0
                back = image(path_of(entry["BackURL"], tmp_path))
                cell = (faces.width // entry["NumWidth"], faces.height // entry["NumHeight"])
                assert back.size == (faces.size if entry["UniqueBack"] else cell)
                slots = entry["NumWidth"] * entry["NumHeight"]
                used = [c["CardID"] % 100 for c in cards if c["CardID"] // 100 == int(key)]
                # every card in its own slot, none in the last one (the hidden card's)
                assert len(set(used)) == len(used) and max(used) < slots - 1
                assert all(c["CustomDeck"][key] == entry for c in cards if c["CardID"] // 100 == int(key))
            assert {c["CardID"] // 100 for c in cards} == {int(k) for k in item["CustomDeck"]}
        if item["Name"] in ("Custom_Board", "Custom_Tile", "Custom_Token"):
            picture = image(path_of(item["CustomImage"]["ImageURL"], tmp_path))
            assert picture.width > 10 and picture.height > 10
        if item["Name"] == "Custom_Tile":
            assert item["CustomImage"]["CustomTile"]["Type"] in (0, 2)
        if item["Name"] == "Custom_Token":
            assert isinstance(item["CustomImage"]["CustomToken"]["Thickness"], float)
        if item["Name"] == "Custom_Model":
            mesh = item["CustomMesh"]
            assert path_of(mesh["MeshURL"], tmp_path).read_text() == cube_obj()
            texture = image(path_of(mesh["DiffuseURL"], tmp_path))
            assert texture.width * 2 == texture.height * 3  # 3 x 2 square faces
    assert "DeckCustom" in kinds or "Custom_Board" in kinds


def test_links_sheets_slice_back_into_the_46_faces_and_the_back(tmp_path):
    definition = load("links")
    saved = export("links", tmp_path)
    [deck] = [o for o in walk(saved["ObjectStates"]) if o["Name"] == "DeckCustom"]
    [tts_deck] = game_part("links", "print").tts_box(definition).decks
    assert len(tts_deck.cards) == 46 == len(deck["DeckIDs"]) == len(list(definition_cards(definition)))
    # the single-card renders: the same PDFium path, one page per card
    pages = [card_page(tts_deck, c.front, c.name) for c in tts_deck.cards]
    pages.append(card_page(tts_deck, tts_deck.cards[0].back, "back"))
    *singles, back_single = [png_image(png) for png in page_images(PrintFile("single", "single", tuple(pages)), DPI)]
    w, h = cell_pixels(tts_deck.width), cell_pixels(tts_deck.height)
    faces = []
    for card, single in zip(deck["ContainedObjects"], singles):
        entry = card["CustomDeck"][str(card["CardID"] // 100)]
        sheet = image(path_of(entry["FaceURL"], tmp_path))
        row, column = divmod(card["CardID"] % 100, entry["NumWidth"])
        face = sheet.crop((column * w, row * h, (column + 1) * w, (row + 1) * h))
        assert face.size == single.size == (w, h)
        assert worst_difference(face, single) <= 2, card["Nickname"]
        faces.append(face)
    assert len(faces) == 46
    for entry in deck["CustomDeck"].values():
        sheet = image(path_of(entry["FaceURL"], tmp_path))
        # the hidden slot, bottom right, and the back image are the back
        assert worst_difference(sheet.crop((sheet.width - w, sheet.height - h, sheet.width, sheet.height)),
                                back_single) <= 2
        assert worst_difference(image(path_of(entry["BackURL"], tmp_path)), back_single) <= 2
    # the faces are the cards' own: copies alike, different cards clearly different
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert names == [c.name for c in tts_deck.cards]
    first: dict = {}
    for name, face in zip(names, faces):
        if name in first:
            assert worst_difference(face, first[name]) <= 2, name
        else:
            assert all(worst_difference(face, other) > 64 for other in first.values()), name
            first[name] = face


def definition_cards(definition):
    """Every card the definition's deck holds, counted from the definition itself."""
    deck = definition.deck
    yield from deck.game_cards
    yield from range(deck.central + deck.empty + sum(m.count for m in deck.masters))


def png_image(png: bytes):
    return Image.open(io.BytesIO(png)).convert("RGBA")


def worst_difference(a, b) -> int:
    """The largest difference of a channel at a pixel (the sheet draws a face a whole number of
    pixels away and PDF coordinates keep a few decimals, so antialiased edges may differ a level)."""
    from PIL import ImageChops

    assert a.size == b.size, (a.size, b.size)
    return max(band[1] for band in ImageChops.difference(a, b).getextrema())


def test_unique_backs_make_a_sheet_of_backs():
    """A deck whose cards have backs of their own gets a sheet of backs in the faces' slots."""
    from boardlab.printkit.decks import Card
    from boardlab.printkit.tts import plan

    def blank(canvas):
        pass

    cards = [Card(f"c{k}", blank, blank, f"c{k}-back") for k in range(3)]
    planned = plan("t", "T", TtsBox(decks=[TtsDeck("d", cards, 63.0, 88.0)]), lambda name: name)
    [deck] = [o for o in walk(planned.saved["ObjectStates"]) if o["Name"] == "DeckCustom"]
    [entry] = deck["CustomDeck"].values()
    assert entry["UniqueBack"] and entry["BackURL"] == "t-d-backs-1.png" and "t-d-backs-1.png" in planned.pages


def test_relative_names_and_a_base_url(tmp_path):
    """--relative names every image by its file name; --base-url by the address it is uploaded to:
    no file:// path of this computer is left in the save."""
    game = GAMES[0]
    relative = export(game, tmp_path / "relative", "--relative")
    urls = [u for u in json_strings(relative) if u.endswith((".png", ".obj"))]
    assert urls
    for url in urls:
        assert path_of(url, tmp_path / "relative", True).is_file()
    base = "https://example.org/playtest/tts"
    shared = export(game, tmp_path / "shared", "--base-url", base)
    text = (tmp_path / "shared" / f"{load(game).game.id}.json").read_text()
    assert "file://" not in text
    urls = [u for u in json_strings(shared) if u.endswith((".png", ".obj"))]
    assert len(urls) == len([u for u in json_strings(relative) if u.endswith((".png", ".obj"))])
    for url in urls:
        assert url.startswith(base + "/")
        assert (tmp_path / "shared" / unquote(url[len(base) + 1:])).is_file()


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)


def test_sixbysix_player_cards_keep_their_shape(tmp_path):
    """6x6's player cards (a square per die face in a row) go out as tiles whose images have the
    card's own aspect ratio (a deck cell would be stretched to TTS's card shape), with their backs."""
    from boardlab.printkit.games.sixbysix import card_size

    definition = load("sixbysix")
    saved = export("sixbysix", tmp_path)
    width, height = card_size(definition)
    cards = [o for o in walk(saved["ObjectStates"]) if o["Nickname"].startswith("sixbysix-card-")]
    assert len(cards) == len(definition.components.seats)
    assert not [o for o in walk(saved["ObjectStates"]) if o["Name"] == "DeckCustom"]
    for card in cards:
        assert card["Name"] == "Custom_Tile" and card["CustomImage"]["CustomTile"]["Stretch"] is True
        for side in ("ImageURL", "ImageSecondaryURL"):
            picture = image(path_of(card["CustomImage"][side], tmp_path))
            assert abs(picture.width / picture.height - width / height) < 0.02, (picture.size, width / height)
        assert card["CustomImage"]["ImageURL"] != card["CustomImage"]["ImageSecondaryURL"]


def test_the_block_mesh_maps_each_side_to_its_cell():
    text = cube_obj()
    vertices = [tuple(map(float, line.split()[1:])) for line in text.splitlines() if line.startswith("v ")]
    uvs = [tuple(map(float, line.split()[1:])) for line in text.splitlines() if line.startswith("vt ")]
    faces = [[tuple(int(i) - 1 for i in part.split("/")) for part in line.split()[1:]]
             for line in text.splitlines() if line.startswith("f ")]
    # OBJ's axes are right-handed with y up: east +x makes north -z
    normals = {"top": (0, 1, 0), "bottom": (0, -1, 0), "north": (0, 0, -1), "south": (0, 0, 1),
               "east": (1, 0, 0), "west": (-1, 0, 0)}
    for face in faces:
        (a, ta), (b, tb), (c, tc) = face
        p, q, r = vertices[a], vertices[b], vertices[c]
        u = [q[i] - p[i] for i in range(3)]
        v = [r[i] - p[i] for i in range(3)]
        n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
        centre_u = (uvs[ta][0] + uvs[tb][0] + uvs[tc][0]) / 3
        centre_v = 1 - (uvs[ta][1] + uvs[tb][1] + uvs[tc][1]) / 3
        cell = int(centre_v * 2) * 3 + int(centre_u * 3)
        side = SIDES[cell]
        # outward (counter-clockwise seen from outside) along the side's own axis
        assert tuple(1 if x > 1e-9 else -1 if x < -1e-9 else 0 for x in n) == normals[side], side
        # the image's up (v growing) points up on the sides, north on the top
        top_corner = max((ta, tb, tc), key=lambda t: uvs[t][1])
        low_corner = min((ta, tb, tc), key=lambda t: uvs[t][1])
        rise = [vertices[face[[ta, tb, tc].index(top_corner)][0]][i] - vertices[face[[ta, tb, tc].index(low_corner)][0]][i]
                for i in range(3)]
        assert (rise[1] > 0) if side not in ("top", "bottom") else (rise[2] < 0), side


def test_deblockle_blocks_carry_the_definitions_faces(tmp_path):
    definition = load("deblockle")
    box = game_part("deblockle", "print").tts_box(definition)
    assert sum(b.count for b in box.blocks) == definition.rules.blocks * len(definition.players)
    for block in box.blocks:
        for side in SIDES:
            assert block.faces[side].name.endswith(getattr(definition.cube, side).lower())


def test_sixbysix_standard_dice():
    definition = load("sixbysix")
    box = game_part("sixbysix", "print").tts_box(definition)
    assert tuple(definition.dice.faces) == (1, 2, 3, 4, 5, 6)
    [dice] = box.dice
    assert list(dice.colours) == [definition.colours[s].hex for s in definition.components.seats]


def test_the_same_export_twice_is_byte_identical(tmp_path):
    export(GAMES[0], tmp_path / "a", "--relative")
    export(GAMES[0], tmp_path / "b", "--relative")
    a = {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()}
    b = {p.name: p.read_bytes() for p in (tmp_path / "b").iterdir()}
    assert a == b and a


def test_sheet_grid_holds_the_hidden_slot():
    for n in range(1, 70):
        for cell in ((375, 525), (1134, 189), (100, 100)):
            columns, rows = sheet_grid(n, cell)
            assert columns <= MAX_COLUMNS and rows <= MAX_ROWS and columns * rows >= n + 1
            assert columns * (rows - 1) < n + 1  # no empty row
            # no grid of the allowed ones has a shorter longer side
            best = min(max(c * cell[0], -(-(n + 1) // c) * cell[1]) for c in range(1, MAX_COLUMNS + 1)
                       if -(-(n + 1) // c) <= MAX_ROWS)
            assert max(columns * cell[0], rows * cell[1]) == best
    with pytest.raises(ValueError):
        sheet_grid(70)
    deck = TtsDeck("x", [], 63.5, 88.9)
    assert (cell_pixels(deck.width), cell_pixels(deck.height)) == (375, 525)


def test_bad_input_is_one_line(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    for argv, words in ((["export", "tts", "nosuchgame"], "unknown game"),
                        (["export", "tts", GAMES[0], "--out", str(blocked)], "not a folder"),
                        (["export"], "give a format"),
                        (["export", "tts", GAMES[0], "--base-url", "ftp://example.org/x"], "not an http"),
                        (["export", "tts", GAMES[0], "--base-url", "https://example.org/a b"], "not an http"),
                        (["export", "tts", GAMES[0], "--base-url", "example.org"], "not an http"),
                        (["export", "tts", GAMES[0], "--relative", "--base-url", "https://example.org/"], "not both")):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and words in err, (argv, err)
    assert blocked.read_text() == "x"

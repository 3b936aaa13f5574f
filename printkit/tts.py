"""A game's components as a Tabletop Simulator saved object (`boardlab export tts`).

A game's print module offers `tts_box(definition) -> TtsBox`: its decks (printkit.decks.Card
lists), boards, tiles, tokens, blocks (cubes with a face per side) and standard dice.  Every
image is drawn by the printkit's own drawing functions into a PDF page and rasterised by PDFium,
as `print --pod` does (`pod.page_images`), at `DPI`.

What is written (names relative to the output folder):

    GAME.json                   the saved object: a bag holding every object below
    GAME-DECK-faces-K.png       deck sheet K: at most 10 x 7 slots, cards row by row, the last
                                slot (bottom right) the hidden card, which TTS shows for a card in
                                another player's hand: the back
    GAME-DECK-back.png          the common back (or GAME-DECK-backs-K.png, a sheet of backs in the
                                faces' slots, when the cards' backs differ: UniqueBack)
    GAME-NAME.png               a board, tile or token; a block's texture (its six faces, 3 x 2)
    GAME-block.obj              the block's mesh (a cube whose faces map onto the texture's cells)

The JSON is what TTS reads from a saved object: `ObjectStates` holds one `Bag` whose
`ContainedObjects` are a `DeckCustom` per deck (`DeckIDs`, `CustomDeck` with `FaceURL`,
`BackURL`, `NumWidth`, `NumHeight`, `BackIsHidden`, `UniqueBack`, `Type`; a `Card` per card with
its `CardID` = deck key x 100 + slot), `Custom_Board`, `Custom_Tile` and `Custom_Token` objects
(`CustomImage`), blocks as `Custom_Model` dice (`CustomMesh`) and standard dice (`Die_6`), each
with a `Transform`.  Images are referenced by `file:///` path, or with `relative` by bare file
name (to replace with the addresses where they are uploaded).

A card's slot is exactly `cell` pixels of the sheet (its cut size rounded to whole pixels at
`DPI`): its drawing is the same at every slot, so the sheet sliced at the grid gives the card
images back (the tests compare them with single-card renders).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from boardlab.printkit.decks import Card
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import Component, Page, PrintFile

#: dots per inch of the images (a poker card: 375 x 525 pixels, a full sheet under 4096 pixels a side)
DPI = 150
#: TTS's largest deck sheet
MAX_COLUMNS, MAX_ROWS = 10, 7
#: the sides of a block, in the order of its texture's cells (3 columns, 2 rows)
SIDES = ("top", "north", "east", "south", "west", "bottom")
#: TTS units (about an inch) per mm, for sizes of objects on the table
UNITS_PER_MM = 1 / 25.4
#: the width in TTS units of a card at scale 1 (so a card's scale is its width over this)
CARD_UNITS = 2.5


@dataclass(frozen=True)
class TtsDeck:
    """A deck: its cards in order (copies included) and their cut size in mm."""

    name: str
    cards: Sequence[Card]
    width: float
    height: float


@dataclass(frozen=True)
class TtsPiece:
    """A board, tile or token drawn by `component`; `count` copies; a tile's `shape` and `back`
    (its other side; a component that is not card-shaped goes out as a tile with its own aspect
    ratio, where a deck's cell would be stretched to TTS's card shape)."""

    component: Component
    count: int = 1
    shape: str = "box"  # tiles: "box" or "circle"
    stand_up: bool = False  # tokens: stand up like a figure
    back: Component | None = None  # tiles: the other side (none: the same image on both)


@dataclass(frozen=True)
class TtsBlock:
    """A cube with a face (a component, square) on each of `SIDES`; `count` of them."""

    name: str
    faces: Mapping[str, Component]
    edge: float  # mm
    count: int = 1


@dataclass(frozen=True)
class TtsDice:
    """Standard six-sided dice: one per colour ("#rrggbb")."""

    name: str
    colours: Sequence[str]


@dataclass(frozen=True)
class TtsBox:
    """Everything of a game on the virtual table."""

    decks: Sequence[TtsDeck] = ()
    boards: Sequence[TtsPiece] = ()
    tiles: Sequence[TtsPiece] = ()
    tokens: Sequence[TtsPiece] = ()
    blocks: Sequence[TtsBlock] = ()
    dice: Sequence[TtsDice] = ()


def cell_pixels(mm: float, dpi: int = DPI) -> int:
    """Whole pixels for `mm` at `dpi`.

    >>> cell_pixels(63.5), cell_pixels(88.9)
    (375, 525)
    """
    return round(mm / 25.4 * dpi)


def sheet_grid(cards: int, cell: tuple[int, int] = (1, 1)) -> tuple[int, int]:
    """(columns, rows) of a sheet for `cards` cards plus the hidden slot, at most 10 x 7: of
    the grids without an empty row, the one whose longer side in pixels (`cell` a slot's
    width and height) is shortest, then the one with fewer empty slots.

    >>> sheet_grid(46, (375, 525)), sheet_grid(25, (375, 525)), sheet_grid(6, (1134, 189)), sheet_grid(1)
    ((8, 6), (7, 4), (1, 7), (1, 2))
    """
    slots = cards + 1
    if slots > MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"{cards} cards do not fit one sheet (at most {MAX_COLUMNS * MAX_ROWS - 1})")
    grids = [(columns, math.ceil(slots / columns)) for columns in range(1, MAX_COLUMNS + 1)]
    grids = [(c, r) for c, r in grids if r <= MAX_ROWS and c * (r - 1) < slots]
    return min(grids, key=lambda g: (max(g[0] * cell[0], g[1] * cell[1]), g[0] * g[1]))


def sheets_of(cards: Sequence[Card]) -> list[Sequence[Card]]:
    """The cards split into sheets of at most 69 (10 x 7 less the hidden slot)."""
    per = MAX_COLUMNS * MAX_ROWS - 1
    return [cards[i:i + per] for i in range(0, len(cards), per)] or [cards]


def _cell_mm(deck: TtsDeck, dpi: int) -> tuple[float, float]:
    return cell_pixels(deck.width, dpi) * 25.4 / dpi, cell_pixels(deck.height, dpi) * 25.4 / dpi


def _face_in_cell(face: Callable[[Canvas], None], w: float, h: float) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        with canvas.clip(0, 0, w, h):
            face(canvas)
    return draw


def deck_grid(deck: TtsDeck, cards: int, dpi: int = DPI) -> tuple[int, int]:
    """The sheet grid of `cards` cards of `deck` (`sheet_grid` for its slot size)."""
    return sheet_grid(cards, (cell_pixels(deck.width, dpi), cell_pixels(deck.height, dpi)))


def sheet_page(deck: TtsDeck, cards: Sequence[Card], side: str, dpi: int = DPI) -> Page:
    """One sheet: the cards' fronts (`side` "front") or backs ("back") in slot order, the hidden
    slot (bottom right) showing the back, other slots blank."""
    columns, rows = deck_grid(deck, len(cards), dpi)
    w, h = _cell_mm(deck, dpi)
    faces = [card.front if side == "front" else card.back for card in cards]
    hidden = cards[0].back

    def draw(canvas: Canvas) -> None:
        canvas.rect(0, 0, columns * w, rows * h, fill="#ffffff")
        slots = {i: face for i, face in enumerate(faces)}
        slots[columns * rows - 1] = hidden
        for slot, face in slots.items():
            row, column = divmod(slot, columns)
            with canvas.transform(column * w, row * h):
                _face_in_cell(face, deck.width, deck.height)(canvas)
    return Page(columns * w, rows * h, draw, name=f"{deck.name}-{side}")


def card_page(deck: TtsDeck, face: Callable[[Canvas], None], name: str, dpi: int = DPI) -> Page:
    """One card face alone in a page of its slot's size (what a sheet's slot must show)."""
    w, h = _cell_mm(deck, dpi)

    def draw(canvas: Canvas) -> None:
        canvas.rect(0, 0, w, h, fill="#ffffff")
        _face_in_cell(face, deck.width, deck.height)(canvas)
    return Page(w, h, draw, name=name)


def component_page(component: Component, dpi: int = DPI) -> Page:
    """A component alone in a page of its size in whole pixels."""
    w = cell_pixels(component.width, dpi) * 25.4 / dpi
    h = cell_pixels(component.height, dpi) * 25.4 / dpi
    return Page(w, h, component.draw, name=component.name)


def block_page(block: TtsBlock, dpi: int = DPI) -> Page:
    """A block's texture: its faces in `SIDES` order, 3 columns by 2 rows."""
    edge = cell_pixels(block.edge, dpi) * 25.4 / dpi

    def draw(canvas: Canvas) -> None:
        for k, side in enumerate(SIDES):
            row, column = divmod(k, 3)
            component = block.faces[side]
            with canvas.transform(column * edge, row * edge):
                with canvas.clip(0, 0, edge, edge):
                    with canvas.transform(scale=edge / component.width):
                        component.draw(canvas)
    return Page(3 * edge, 2 * edge, draw, name=f"{block.name}-texture")


#: per side of a block: its outward normal and the image's up, in OBJ's right-handed axes
#: (x east, y up, z south); the image's right is up x normal, so each face reads the right way
Vector = tuple[int, int, int]

#: round from outside
_FRAMES = {"top": ((0, 1, 0), (0, 0, -1)), "north": ((0, 0, -1), (0, 1, 0)), "east": ((1, 0, 0), (0, 1, 0)),
           "south": ((0, 0, 1), (0, 1, 0)), "west": ((-1, 0, 0), (0, 1, 0)), "bottom": ((0, -1, 0), (0, 0, -1))}


def _cross(a: Vector, b: Vector) -> Vector:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def cube_obj() -> str:
    """A cube of edge 1 (centred) in Wavefront OBJ whose faces map onto the texture's cells
    (`block_page`): top +y, east +x, north -z (OBJ's axes are right-handed, y up), corners
    counter-clockwise seen from outside; the image's up is up on the four sides and north on
    the top and the bottom.

    >>> text = cube_obj()
    >>> text.count("\\nv "), text.count("\\nvt "), text.count("\\nf ")
    (24, 24, 12)
    """
    lines = ["# a block of boardlab: one texture cell per side (3 x 2: top north east / south west bottom)"]
    uv_lines = []
    faces = []
    for k, side in enumerate(SIDES):
        normal, up = _FRAMES[side]
        right = _cross(up, normal)
        row, column = divmod(k, 3)
        u0, u1 = column / 3, (column + 1) / 3
        v0, v1 = 1 - (row + 1) / 2, 1 - row / 2  # OBJ's v runs up from the image's bottom
        # bottom left, bottom right, top right, top left of the image
        for (sr, su), (u, v) in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), ((u0, v0), (u1, v0), (u1, v1), (u0, v1))):
            x, y, z = (normal[i] + sr * right[i] + su * up[i] for i in range(3))
            lines.append(f"v {x / 2:g} {y / 2:g} {z / 2:g}")
            uv_lines.append(f"vt {u:.6f} {v:.6f}")
        a, b, c, d = (4 * k + i + 1 for i in range(4))
        faces += [f"f {a}/{a} {b}/{b} {c}/{c}", f"f {a}/{a} {c}/{c} {d}/{d}"]
    return "\n".join(lines + uv_lines + faces) + "\n"


def file_name(game_id: str, name: str, suffix: str = ".png") -> str:
    """An output file's name: the component's, with the game id in front when it lacks it.

    >>> file_name("demo", "board"), file_name("demo", "demo-board")
    ('demo-board.png', 'demo-board.png')
    """
    return (name if name.startswith(f"{game_id}-") else f"{game_id}-{name}") + suffix


def guid(*parts: object) -> str:
    """A six-hex-digit object id, a digest of `parts` (the same export, the same ids)."""
    return hashlib.sha256("\0".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x: float, z: float, scale: float = 1.0, y: float = 1.0, rot_y: float = 180.0) -> dict:
    return {"posX": round(x, 4), "posY": y, "posZ": round(z, 4), "rotX": 0.0, "rotY": rot_y, "rotZ": 0.0,
            "scaleX": round(scale, 4), "scaleY": 1.0, "scaleZ": round(scale, 4)}


def _base(name: str, nickname: str, transform: dict, key: str) -> dict:
    return {"GUID": guid(key), "Name": name, "Transform": transform, "Nickname": nickname, "Description": "",
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
            "Autoraise": True, "Sticky": True, "Tooltip": True}


def _rgb(colour: str) -> dict:
    value = colour.lstrip("#")
    return {"r": round(int(value[0:2], 16) / 255, 4), "g": round(int(value[2:4], 16) / 255, 4),
            "b": round(int(value[4:6], 16) / 255, 4)}


@dataclass
class Export:
    """What `export` makes: file name -> the page to rasterise (or bytes), and the saved object."""

    pages: dict[str, Page] = field(default_factory=dict)
    transparent: set[str] = field(default_factory=set)
    texts: dict[str, bytes] = field(default_factory=dict)
    saved: dict = field(default_factory=dict)


def plan(game_id: str, name: str, box: TtsBox, url: Callable[[str], str], dpi: int = DPI) -> Export:
    """The images and the saved object of `box`; `url(file name)` is how the JSON names an image."""
    out = Export()
    objects: list[dict] = []
    x = 0.0

    def image(file: str, page: Page, transparent: bool = False) -> str:
        out.pages[file] = page
        if transparent:
            out.transparent.add(file)
        return url(file)

    key = 0
    for deck in box.decks:
        cards = list(deck.cards)
        unique_back = len({card.back_name for card in cards}) > 1
        contained, ids, custom = [], [], {}
        for k, sheet in enumerate(sheets_of(cards), 1):
            key += 1
            columns, rows = deck_grid(deck, len(sheet), dpi)
            faces = image(f"{game_id}-{deck.name}-faces-{k}.png", sheet_page(deck, sheet, "front", dpi))
            if unique_back:
                back = image(f"{game_id}-{deck.name}-backs-{k}.png", sheet_page(deck, sheet, "back", dpi))
            else:
                back = image(f"{game_id}-{deck.name}-back.png", card_page(deck, sheet[0].back, "back", dpi))
            entry = {"FaceURL": faces, "BackURL": back, "NumWidth": columns, "NumHeight": rows,
                     "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0}
            custom[str(key)] = entry
            for slot, card in enumerate(sheet):
                card_id = key * 100 + slot
                ids.append(card_id)
                item = _base("Card", card.name, _transform(x, 0.0, deck.width * UNITS_PER_MM / CARD_UNITS, y=1.0 + 0.01 * len(ids)),
                             f"{game_id}/{deck.name}/{len(ids)}")
                item.update({"CardID": card_id, "CustomDeck": {str(key): entry}, "SidewaysCard": False})
                contained.append(item)
        deck_object = _base("DeckCustom", deck.name, _transform(x, 0.0, deck.width * UNITS_PER_MM / CARD_UNITS, rot_y=180.0),
                            f"{game_id}/{deck.name}")
        deck_object["Transform"]["rotZ"] = 180.0  # face down
        deck_object.update({"DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained,
                            "SidewaysCard": False, "HideWhenFaceDown": True})
        objects.append(deck_object)
        x += 4.0
    for piece in box.boards:
        component = piece.component
        item = _base("Custom_Board", component.name, _transform(0.0, 12.0, component.width * UNITS_PER_MM / 10, y=1.0),
                     f"{game_id}/board/{component.name}")
        item["CustomImage"] = {"ImageURL": image(file_name(game_id, component.name), component_page(component, dpi)),
                               "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
        objects.append(item)
    for piece in box.tiles:
        component = piece.component
        picture = image(file_name(game_id, component.name), component_page(component, dpi), transparent=True)
        other = "" if piece.back is None else image(file_name(game_id, piece.back.name),
                                                    component_page(piece.back, dpi), transparent=True)
        for copy in range(piece.count):
            item = _base("Custom_Tile", component.name, _transform(x, -6.0 - 0.3 * copy, component.width * UNITS_PER_MM,
                                                                   y=1.0 + 0.2 * copy),
                         f"{game_id}/tile/{component.name}/{copy}")
            # Stretch: the tile takes its image's aspect ratio
            item["CustomImage"] = {"ImageURL": picture, "ImageSecondaryURL": other, "ImageScalar": 1.0, "WidthScale": 0.0,
                                   "CustomTile": {"Type": 2 if piece.shape == "circle" else 0, "Thickness": 0.1,
                                                  "Stackable": True, "Stretch": True}}
            objects.append(item)
        x += 2.0
    for piece in box.tokens:
        component = piece.component
        picture = image(file_name(game_id, component.name), component_page(component, dpi), transparent=True)
        for copy in range(piece.count):
            item = _base("Custom_Token", component.name, _transform(x, -10.0 - 1.5 * copy, 1.0),
                         f"{game_id}/token/{component.name}/{copy}")
            item["CustomImage"] = {"ImageURL": picture, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                                   "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                                   "StandUp": piece.stand_up, "Stackable": False}}
            objects.append(item)
        x += 2.0
    if box.blocks:
        out.texts[f"{game_id}-block.obj"] = cube_obj().encode()
    for block in box.blocks:
        texture = image(file_name(game_id, block.name), block_page(block, dpi))
        for copy in range(block.count):
            item = _base("Custom_Model", block.name, _transform(x, -14.0 - 1.5 * copy, block.edge * UNITS_PER_MM, y=1.5),
                         f"{game_id}/block/{block.name}/{copy}")
            item["Transform"]["scaleY"] = item["Transform"]["scaleX"]
            item["CustomMesh"] = {"MeshURL": url(f"{game_id}-block.obj"), "DiffuseURL": texture, "NormalURL": "",
                                  "ColliderURL": "", "Convex": True, "MaterialIndex": 0, "TypeIndex": 2,
                                  "CastShadows": True}
            objects.append(item)
        x += 2.0
    for dice in box.dice:
        for k, colour in enumerate(dice.colours):
            item = _base("Die_6", dice.name, _transform(x, -18.0 - 1.5 * k, 1.0, y=1.5), f"{game_id}/dice/{dice.name}/{k}")
            item["ColorDiffuse"] = _rgb(colour)
            objects.append(item)
    bag = _base("Bag", name, _transform(-6.0, 0.0), f"{game_id}/bag")
    bag.update({"ContainedObjects": objects, "Bag": {"Order": 0}})
    out.saved = {"SaveName": name, "GameMode": name, "Date": "", "VersionNumber": "", "Gravity": 0.5,
                 "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
                 "LuaScriptState": "", "Tags": [], "ObjectStates": [bag], "TabStates": {}}
    return out


def render(game_id: str, name: str, box: TtsBox, url: Callable[[str], str], dpi: int = DPI) -> dict[str, bytes]:
    """Every file of the export (see the module docstring): PNGs by PDFium, the mesh, the JSON."""
    from boardlab.printkit.pod import page_images

    planned = plan(game_id, name, box, url, dpi)
    files: dict[str, bytes] = {}
    for transparent in (False, True):
        chosen = [f for f in planned.pages if (f in planned.transparent) == transparent]
        if chosen:
            document = PrintFile(f"{game_id}-tts", f"{name} for Tabletop Simulator",
                                 tuple(planned.pages[f] for f in chosen))
            for file, png in zip(chosen, page_images(document, dpi, transparent=transparent)):
                assert png is not None  # no page is skipped
                files[file] = png
    files.update(planned.texts)
    files[f"{game_id}.json"] = (json.dumps(planned.saved, indent=2) + "\n").encode()
    return files


def file_urls(folder: Path, relative: bool, base_url: str | None = None) -> Callable[[str], str]:
    """How the JSON names a file: `base_url` + its name (where the folder's files are uploaded,
    for a save to share), its bare name, or `file:///` + its absolute path (this computer only).

    >>> file_urls(Path("x"), False, "https://example.org/tts/")("6x6 card.png")
    'https://example.org/tts/6x6%20card.png'
    """
    if base_url is not None:
        from urllib.parse import quote

        prefix = base_url if base_url.endswith("/") else base_url + "/"
        return lambda name: prefix + quote(name)
    if relative:
        return lambda name: name
    base = folder.resolve()
    return lambda name: (base / name).as_uri()

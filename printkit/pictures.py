"""The designer's images on the faces: placed in a region, fitted, run out to the bleed.

The loader has found and checked every image a definition names (`definition.images`: key path
-> layouts.art.Placement).  Here they are drawn: `dress_cards` puts each card's image (its own
from the card list, else its kind's) and the backs' image over the faces, `dressed` over a
board or another component, and `draw_placed` does the placing for all of them: the region's
box (`region_box`), the image fitted (`fit`: all of it inside, centred), covering (`cover`:
the box filled, centred, the rest cut off) or stretched, clipped to the box; a side of the box
on the cut line moves out to the bleed edge, so the art is trimmed, never a white sliver.

Every output draws faces through these functions, so the art is on the sheets, the
one-card pages, the SVGs, the print-on-demand images, the Tabletop Simulator sheets and the
`boardlab play` page alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from boardlab.layouts.art import Placement
from boardlab.layouts.images import Picture, read_picture
from boardlab.printkit.draw import Canvas
from boardlab.printkit.pages import Box, Component

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition
    from boardlab.printkit.decks import Card
    from boardlab.printkit.imposition import CardGeometry
    from boardlab.printkit.pages import PrintFile

#: how close (mm) a region's side must be to the cut line to count as touching it
TOUCH = 1e-6


def region_box(target: str, region: str, width: float, height: float, safe: float) -> Box:
    """The box (x, y, width, height) mm of a component's region: `full` the whole component (to
    the cut line), `safe` inside the safe margin, `art` the component's art area where its face has
    no layout of regions (`face_region` gives the layout's where it has one): on a card the band
    from 15% to 52% of its height inside the safe margin, on a standee the figure above its label,
    on a back, a board or a token the whole face.

    >>> region_box("card", "art", 63.5, 88.9, 3.0)
    (3.0, 13.335, 57.5, 32.893)
    >>> region_box("back", "art", 63.5, 88.9, 3.0)
    (0.0, 0.0, 63.5, 88.9)
    """
    if region == "full":
        return (0.0, 0.0, width, height)
    if region == "safe":
        return (safe, safe, width - 2 * safe, height - 2 * safe)
    if target == "card":
        return (safe, round(height * 0.15, 6), width - 2 * safe, round(height * 0.37, 6))
    if target == "standee":  # the figure above its label
        return (0.0, 0.0, width, round(height * 0.8, 6))
    return (0.0, 0.0, width, height)


def picture_of(placement: Placement) -> Picture:
    """The picture a placement names (read once per process; the loader has checked it)."""
    return read_picture(Path(placement.path), placement.shown)


def image_box(picture: Picture, box: Box, fit: str) -> Box:
    """Where the whole image lands for a box: fitted inside it, covering it, or stretched over it,
    centred.

    >>> from boardlab.layouts.images import Picture
    >>> wide = Picture("x", "png", 200, 100)
    >>> image_box(wide, (0, 0, 10, 10), "fit"), image_box(wide, (0, 0, 10, 10), "cover")
    ((0.0, 2.5, 10.0, 5.0), (-5.0, 0.0, 20.0, 10.0))
    >>> image_box(wide, (0, 0, 10, 10), "stretch")
    (0, 0, 10, 10)
    """
    x, y, w, h = box
    if fit == "stretch":
        return box
    scale = (min if fit == "fit" else max)(w / picture.width, h / picture.height)
    iw, ih = picture.width * scale, picture.height * scale
    return (x + (w - iw) / 2, y + (h - ih) / 2, iw, ih)


def to_bleed(box: Box, width: float, height: float, bleed: float) -> Box:
    """`box` with each side that lies on the cut line (0, 0, width, height) moved out by `bleed`.

    >>> to_bleed((0, 10, 63.5, 20), 63.5, 88.9, 3)
    (-3, 10, 69.5, 20)
    """
    x, y, w, h = box
    left, top = x - (bleed if abs(x) <= TOUCH else 0), y - (bleed if abs(y) <= TOUCH else 0)
    right = x + w + (bleed if abs(x + w - width) <= TOUCH else 0)
    bottom = y + h + (bleed if abs(y + h - height) <= TOUCH else 0)
    return (left, top, right - left, bottom - top)


def draw_placed(canvas: Canvas, placement: Placement, target: str, width: float, height: float, safe: float,
                bleed: float = 0.0, radius: float = 0.0, region: Box | None = None) -> None:
    """The placement's image in its region of a `width` x `height` component (its own
    coordinates; `region` the region's box when the face's layout gives it, else `region_box`'s),
    run out by `bleed` past each side on the cut line, clipped to the region (corners rounded by
    `radius`, for a disc)."""
    picture = picture_of(placement)
    found = region if region is not None else region_box(target, placement.region, width, height, safe)
    box = to_bleed(found, width, height, bleed)
    with canvas.clip(*box, radius=radius):
        canvas.image(*image_box(picture, box, placement.fit), picture)


def face_region(definition: GameDefinition, kind: str, region: str, width: float, height: float) -> Box | None:
    """The box of `region` in the layout of face `kind` (layouts/faces.py) when the game lays that
    face out as data at this size; None otherwise ("full" and "safe" are never a layout's)."""
    from boardlab.layouts.faces import face_regions, game_faces

    kinds, frame = game_faces(definition.game.id)
    if region in ("full", "safe") or kind not in kinds or frame is None:
        return None
    size = frame(definition, kind)
    if size is None or abs(size[0] - width) > TOUCH or abs(size[1] - height) > TOUCH:
        return None  # the layout is of another shape (6x6's regions are one box of its player card)
    regions = face_regions(definition, kind, (width, height))
    return regions[region].box if region in regions else None


def over(face: Callable[[Canvas], None], placement: Placement | None, target: str, geometry: CardGeometry,
         definition: GameDefinition | None = None,
         kind: str = "") -> Callable[[Canvas], None]:
    """A card face with the placement's image drawn over it (the face unchanged without one), in
    its region of the face's layout (`definition`'s face `kind`) or else `region_box`'s."""
    if placement is None:
        return face
    region = (face_region(definition, kind, placement.region, geometry.width, geometry.height)
              if definition is not None else None)

    def draw(canvas: Canvas) -> None:
        face(canvas)
        draw_placed(canvas, placement, target, geometry.width, geometry.height, geometry.safe, geometry.bleed,
                    region=region)
    return draw


def dress_cards(definition: GameDefinition, cards: Sequence[Card], geometry: CardGeometry,
                own: Mapping[str, Placement] | None = None) -> list[Card]:
    """The cards (printkit.decks.Card) with their images: a card's own (`own`, by card name, from
    the card list), else its kind's (`[art.cards.KIND]`); every back the `[art.back]` image."""
    images = definition.images
    if not images:
        return list(cards)
    own = own or {}
    back = images.get(("art", "back", "image"))
    out: list[Card] = []
    backs: dict[int, Callable[[Canvas], None]] = {}  # one dressed back per back drawn, as shared as before
    for card in cards:
        front = own.get(card.name) or images.get(("art", "cards", card.kind, "image"))
        if id(card.back) not in backs:
            backs[id(card.back)] = over(card.back, back, "back", geometry, definition, "back")
        out.append(replace(card, front=over(card.front, front, "card", geometry, definition, card.kind),
                           back=backs[id(card.back)]))
    return out


def row_images(definition: GameDefinition, section: str, names: Callable[[int, Any], Sequence[str]]) -> dict[str, Placement]:
    """Card name -> its own image, from the card list of `section`: `names(index, row)` gives the
    names of the cards a row makes (a row of that game's card list: each game has its own type)."""
    out: dict[str, Placement] = {}
    rows = getattr(getattr(definition, section, None), "cards", ()) or ()
    for index, row in enumerate(rows):
        placement = definition.images.get((section, "cards", index, "image"))
        if placement is not None:
            for name in names(index, row):
                out[name] = placement
    return out


def piece_image(definition: GameDefinition, target: str, name: str) -> Placement | None:
    """The image `[art.TARGET.NAME]` names (a board, token or standee), or None."""
    return definition.images.get(("art", target, name, "image")) if definition.images else None


def dressed(component: Component, placement: Placement | None, target: str = "board", safe: float = 0.0) -> Component:
    """A component (a board) with the placement's image over it, in its region."""
    if placement is None:
        return component

    def draw(canvas: Canvas) -> None:
        component.draw(canvas)
        draw_placed(canvas, placement, target, component.width, component.height, safe)
    return replace(component, draw=draw)


#: dots per inch at print size under which an image warns, and under which it is refused
#: (unless `[art] allow_low_resolution`)
SHARP_DPI, LOWEST_DPI = 300, 150


@dataclass(frozen=True)
class Finding:
    """What `check` says about one image: a warning, or an error (`error`), as one line."""

    error: bool
    line: str


def image_findings(definition: GameDefinition, print_files: Sequence[PrintFile]) -> list[Finding]:
    """Every image's effective resolution where it is printed, and its conversions.

    Each component of the print files (every distinct face, board and piece) is drawn on a
    measuring canvas; a PNG or JPEG drawn there has pixels / (its printed size in inches) dots
    per inch, the lower of its width's and its height's.  Under `SHARP_DPI` is a warning naming
    the components and the dpi; under `LOWEST_DPI` an error unless the definition allows it.  An
    image that was converted (CMYK, 16 bits) is a warning saying so.  SVG art is vector: no dpi.
    """
    from boardlab.printkit.measure import PlacedCanvas

    placements = {p.shown: p for p in definition.images.values()} if definition.images else {}
    if not placements:
        return []
    lowest: dict[str, tuple[float, list[str], tuple[float, float]]] = {}
    seen: set[str] = set()
    for print_file in print_files:
        for component in print_file.components:
            if component.name in seen:
                continue
            seen.add(component.name)
            canvas = PlacedCanvas(component.width, component.height)
            component.draw(canvas)
            for shape in canvas.shapes:
                if shape.kind != "image":
                    continue
                picture = shape.style["picture"]
                assert isinstance(picture, Picture)  # what PlacedCanvas.raster records
                (x0, y0), (x1, y1), (x2, y2) = shape.points[:3]
                width, height = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
                dpi = min(picture.width / (width / 25.4), picture.height / (height / 25.4))
                path = picture.path  # the placement's shown name
                known = lowest.get(path)
                if known is None or dpi < known[0] - 0.5:
                    lowest[path] = (dpi, [component.name], (width, height))
                elif abs(dpi - known[0]) <= 0.5 and component.name not in known[1]:
                    known[1].append(component.name)
    out: list[Finding] = []
    allowed = definition.art.allow_low_resolution
    for path, placement in placements.items():
        where = f"{placement.named_at[0]}:{placement.named_at[1]}: {placement.key}"
        picture = picture_of(placement)
        if picture.converted:
            out.append(Finding(False, f"{where}: warning: {picture.path} is converted ({picture.converted}) for "
                                      "printing: colours or shades may shift (save it as 8-bit RGB to choose them)"))
        if path not in lowest:
            continue
        dpi, names, (width, height) = lowest[path]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        said = (f"{dpi:.0f} dpi on {shown}: {picture.path} has {picture.width:.0f} x {picture.height:.0f} pixels "
                f"for {width:.1f} x {height:.1f} mm")
        if dpi < LOWEST_DPI and not allowed:
            out.append(Finding(True, f"{where}: {said} (at least {LOWEST_DPI} dpi, {SHARP_DPI} to print sharp; "
                                     "or allow_low_resolution = true in [art])"))
        elif dpi < SHARP_DPI - 0.5:
            out.append(Finding(False, f"{where}: warning: {said}: it may print blurred ({SHARP_DPI} dpi or more "
                                      "prints sharp)"))
    return out


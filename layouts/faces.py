"""Card faces laid out as data: named regions in mm, per card kind, with font, size, alignment, colour.

A game's faces are laid out by a layout file (TOML, like Squib's layout files), by default the
game's own `layouts/faces/GAME.toml`; a definition or variant may name another with
`[layout] file = "my-faces.toml"` (relative to the file naming it), and may change any key of
any region inline, `[layout.number.value] y = "25%"`, without code.  The layout file holds
one table per card kind and in it one table per region; the regions of `[default]` are
inherited, key by key, by every kind that draws a region of that name:

    [number.value]          # the big value of a number card
    x = "22.5%"             # mm from the cut line's left edge, or "N%" of the card's width,
    y = "40% - 10"          #   optionally "+ M" or "- M" mm; y and height: of the card's height
    width = "55%"
    height = 20
    font = "bold"           # regular, bold, italic or bold-italic (Vera, embedded in every PDF)
    size = 110              # points; a text shrinks to fit the region's width
    align = "centre"        # left, centre, right
    valign = "middle"       # middle (capitals centred), baseline (on the bottom edge), bottom (descenders on it)
    colour = "ink"          # ink, paper, suit (the card's colour), contrast (legible on it), a colour name, "#rrggbb"
    both_ends = false       # true: drawn again turned half a turn, readable from the other end

Coordinates are card coordinates: the origin at the cut box's top-left corner, y down.  Which
kinds a game has and which regions each draws is the game's `FACE_REGIONS` (in its definition
module, layouts/GAME.py), with `face_frame(definition, kind)` giving the size the
percentages are of and the bleed a region may reach into.

>>> from boardlab.layouts import load
>>> d = load("blockd")
>>> value = face_regions(d, "number")["value"]
>>> round(value.x, 4), round(value.width, 4), value.font, value.size
(14.2875, 34.925, 'bold', 110.0)
>>> [round(v, 4) for v in face_regions(d, "back")["art"].box]
[12.7, 19.558, 38.1, 35.56]
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping

from boardlab.layouts.errors import DefinitionError, Problem
from boardlab.layouts.schema import Report, limits

if TYPE_CHECKING:
    from boardlab.layouts.common import GameDefinition

#: a game's `face_frame(definition, kind)`: (width, height, bleed) in mm of that face, or None
FaceFrame = Callable[["GameDefinition", str], "tuple[float, float, float] | None"]

#: the fonts a region may name: the Vera family, which ships with reportlab and is embedded in every PDF
FONTS = ("regular", "bold", "italic", "bold-italic")
#: the folder of the shipped games' layout files
FACES = Path(__file__).resolve().parent / "faces"
#: a coordinate written as a text: "N%" of the card's side, optionally plus or minus M mm
_PERCENT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*(?:([+-])\s*(\d+(?:\.\d+)?))?\s*$")
#: region keys that are sizes (must be positive) and the side a percentage of them is of
_AXES = {"x": 0, "y": 1, "width": 0, "height": 1}


@dataclass(frozen=True)
class RegionSpec:
    """One region as the layout writes it (every key optional: what is left out is inherited)."""

    x: float | str | None = None  # mm from the cut line's left edge, or "N%" (of the width) "+ M" / "- M"
    y: float | str | None = None  # mm from the cut line's top edge, or "N%" (of the height) ...
    width: float | str | None = None  # mm, or "N%" of the card's width ...
    height: float | str | None = None  # mm, or "N%" of the card's height ...
    font: Literal["regular", "bold", "italic", "bold-italic"] | None = None  # the region's text: Vera, embedded
    size: float | None = field(default=None, metadata=limits(min=1, max=400))  # points (text shrinks to fit the width)
    align: Literal["left", "centre", "right"] | None = None  # the text's place across the region
    valign: Literal["middle", "baseline", "bottom"] | None = None  # capitals centred, baseline or descenders on its foot
    colour: str | None = None  # ink, paper, suit, contrast, a colour name from [colours] or "#rrggbb"
    both_ends: bool | None = None  # drawn a second time turned half a turn about the card's centre


#: what a region is when neither its kind nor [default] says
FALLBACK = RegionSpec(font="regular", size=10.0, align="centre", valign="middle", colour="ink", both_ends=False)


@dataclass(frozen=True)
class Region:
    """A region resolved for one card size: where (mm, card coordinates) and how its text is set."""

    name: str
    x: float
    y: float
    width: float
    height: float
    font: str = "regular"
    size: float = 10.0
    align: str = "centre"
    valign: str = "middle"
    colour: str = "ink"
    both_ends: bool = False

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) in mm."""
        return self.x, self.y, self.width, self.height

    @property
    def centre(self) -> tuple[float, float]:
        """The region's middle (x, y) in mm."""
        return self.x + self.width / 2, self.y + self.height / 2

    @property
    def side(self) -> float:
        """The side of the largest square that fits (what a symbol is drawn at)."""
        return min(self.width, self.height)

    @property
    def bold(self) -> bool:
        return self.font in ("bold", "bold-italic")

    @property
    def italic(self) -> bool:
        return self.font in ("italic", "bold-italic")


def length(value: float | str, side: float) -> float | None:
    """A coordinate in mm: a number as it is, "N%" of `side`, "N% + M" or "N% - M"; None when unreadable.

    >>> length(4.5, 63.5), length("50%", 63.5), length("100% - 14", 63.5), length("10 %+2", 50), length("ten", 1)
    (4.5, 31.75, 49.5, 7.0, None)
    """
    if not isinstance(value, str):
        return float(value)
    m = _PERCENT.match(value)
    if m is None:
        return None
    mm = float(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    return float(m.group(1)) / 100 * side + mm


def card_frame(definition: Any) -> tuple[float, float, float] | None:
    """(width, height, bleed) in mm of the game's cards (`print.card`: a preset or [width, height];
    `definition`: a game's Definition whose [print] is a PrintSettings);
    None for a preset print.toml does not know (check_print says so).

    >>> from boardlab.layouts import load
    >>> card_frame(load("links"))
    (63.5, 88.9, 3.0)
    """
    from boardlab.layouts.loader import print_conventions

    card = definition.print.card
    if isinstance(card, str):
        if card not in print_conventions().card_sizes:
            return None
        card = print_conventions().card_sizes[card]
    return float(card[0]), float(card[1]), float(definition.print.bleed)


def game_faces(game_id: str) -> tuple[dict[str, tuple[str, ...]], FaceFrame | None]:
    """(kind -> the regions it draws, face_frame function) of a game; ({}, None) for a game whose
    print module lays out no face from data."""
    from boardlab.layouts.registry import game_part

    module = game_part(game_id, "definition")
    return dict(getattr(module, "FACE_REGIONS", {})), getattr(module, "face_frame", None)


def face_kinds(definition: GameDefinition) -> tuple[str, ...]:
    """The kinds of face a game lays out from data.

    >>> from boardlab.layouts import load
    >>> face_kinds(load("links"))
    ('game', 'central', 'empty', 'master', 'back')
    """
    return tuple(game_faces(definition.game.id)[0])


def _merged(definition: GameDefinition, kind: str, name: str) -> RegionSpec:
    layout = definition.layout
    spec = FALLBACK
    for table in (layout.get("default", {}), layout.get(kind, {})):
        if name in table:
            mine = table[name]
            spec = dataclasses.replace(spec, **{f.name: getattr(mine, f.name) for f in dataclasses.fields(mine)
                                                if getattr(mine, f.name) is not None})
    return spec


def face_regions(definition: GameDefinition, kind: str, size: tuple[float, float] | None = None) -> dict[str, Region]:
    """The regions of face `kind` of `definition`, resolved in mm for a face of `size` (width,
    height; by default the game's own, `face_frame`).  Only regions given every coordinate are
    returned (`check_layout` reports the others).

    :raises KeyError: for a kind the game does not lay out.
    """
    kinds, frame = game_faces(definition.game.id)
    if size is None:
        assert frame is not None
        found = frame(definition, kind)
        if found is None:
            raise KeyError(f"no size for the {kind} face")
        width, height, _ = found
    else:
        width, height = size
    regions = {}
    for name in kinds[kind]:
        spec = _merged(definition, kind, name)
        where = [length(getattr(spec, key), (width, height)[axis]) if getattr(spec, key) is not None else None
                 for key, axis in _AXES.items()]
        if any(v is None for v in where):
            continue
        x, y, w, h = (float(v) for v in where)  # type: ignore[arg-type]
        assert spec.font and spec.size and spec.align and spec.valign and spec.colour and spec.both_ends is not None
        regions[name] = Region(name, x, y, w, h, spec.font, spec.size, spec.align, spec.valign, spec.colour,
                               spec.both_ends)
    return regions


def check_layout(definition: GameDefinition, report: Report) -> None:
    """Every kind and region of `[layout]` is one the game draws, every region has its four
    coordinates, a positive width and height, lies within the face and its bleed, and names a
    colour that exists.  Fonts, alignments and sizes are checked by the schema."""
    from boardlab.layouts.common import HEX_COLOUR

    kinds, frame = game_faces(definition.game.id)
    layout = definition.layout
    if not kinds:
        for kind in layout:
            report(("layout", kind), f"{definition.game.name} lays out no face from data", "leave [layout] out")
        return
    known = sorted({r for names in kinds.values() for r in names})
    for kind, regions in layout.items():
        if kind != "default" and kind not in kinds:
            report(("layout", kind), f'unknown card kind "{kind}"', "kinds: default, " + ", ".join(kinds))
            continue
        allowed = known if kind == "default" else list(kinds[kind])
        for name, spec in regions.items():
            if name not in allowed:
                report(("layout", kind, name), f'unknown region "{name}"', "regions: " + ", ".join(allowed))
                continue
            for key in _AXES:
                value = getattr(spec, key)
                if isinstance(value, str) and length(value, 1.0) is None:
                    report(("layout", kind, name, key), f'"{value}" is not a length',
                           'mm (a number), or "N%" of the card\'s side, e.g. "50%" or "100% - 6"')
            colour = spec.colour
            if colour is not None and colour not in ("ink", "paper", "suit", "contrast") \
                    and colour not in definition.colours and not HEX_COLOUR.match(colour):
                report(("layout", kind, name, "colour"), f'unknown colour "{colour}"',
                       "ink, paper, suit, contrast, " + ", ".join(definition.colours) + ' or "#rrggbb"')
    assert frame is not None
    for kind, names in kinds.items():
        size = frame(definition, kind)
        if size is None:
            continue  # an unknown card size: check_print says so
        width, height, bleed = size
        for name in names:
            spec = _merged(definition, kind, name)
            where = {key: length(getattr(spec, key), (width, height)[axis]) if getattr(spec, key) is not None else None
                     for key, axis in _AXES.items()}
            path = _written(layout, kind, name)
            if any(getattr(spec, key) is None for key in _AXES):
                missing = ", ".join(key for key in _AXES if getattr(spec, key) is None)
                report(path, f"the {kind} face's {name} region has no {missing}", "x, y, width and height of every region")
                continue
            if any(v is None for v in where.values()):
                continue  # said above
            x, y, w, h = (float(where[key]) for key in _AXES)  # type: ignore[arg-type]
            for key, value in (("width", w), ("height", h)):
                if value <= 0:
                    report(path + (key,), f"the {kind} face's {name} region is {value:g} mm {key.replace('height', 'high').replace('width', 'wide')}",
                           "a positive size")
            if w > 0 and h > 0 and (x < -bleed - 1e-9 or y < -bleed - 1e-9 or x + w > width + bleed + 1e-9
                                    or y + h > height + bleed + 1e-9):
                report(path, f"the {kind} face's {name} region ({x:g}, {y:g}, {w:g} x {h:g} mm) lies outside the "
                       f"{width:g} x {height:g} mm face", f"within the face and its {bleed:g} mm bleed")


def _written(layout: Mapping[str, Mapping[str, RegionSpec]], kind: str, name: str) -> tuple:
    """The key path where a region is written (its kind's table, else [default]) for a problem's line."""
    if name in layout.get(kind, {}):
        return ("layout", kind, name)
    if name in layout.get("default", {}):
        return ("layout", "default", name)
    return ("layout", kind)


def read_layout_file(data: dict, origins: dict, game_id: str | None,
                     display: Callable[[Path], str]) -> tuple[dict, dict]:
    """`data` with its `[layout]` table completed from the layout file: `layout.file` (relative to
    the file that names it) or the game's shipped layouts/faces/GAME.toml; the keys written in
    `[layout]` itself win, key by key.  `origins` point the file's keys at its lines.

    :raises DefinitionError: when the named file cannot be read or parsed (at the line naming it).
    """
    from boardlab.layouts.loader import _merge, read_document

    table = data.get("layout")
    if table is not None and not isinstance(table, dict):
        return data, origins  # the schema says what is wrong
    table = dict(table or {})
    named = table.pop("file", None)
    origins = dict(origins)
    if named is not None:
        named_in, line = origins.get(("layout", "file"), ("?", 0))
        if not isinstance(named, str) or not named:
            raise DefinitionError([Problem(named_in, line, "layout.file", "must be a text in quotes",
                                           "a layout file, e.g. \"faces.toml\"")])
        path = Path(named_in).parent / named
        if not path.is_file():
            raise DefinitionError([Problem(named_in, line, "layout.file", f"no such file {display(path)}",
                                           "a TOML layout file beside the definition")])
    elif game_id is not None and (FACES / f"{game_id}.toml").is_file():
        path = FACES / f"{game_id}.toml"
    else:
        return ({**data, "layout": table} if "layout" in data else data), origins
    document = read_document(path)
    for key_path, line in document.lines.items():
        full = ("layout",) + key_path
        if full not in origins:
            origins[full] = (document.file, line)
    origins.setdefault(("layout",), (document.file, 1))
    return {**data, "layout": _merge(document.data, table)}, origins

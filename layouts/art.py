"""`[art]`: the designer's own images on a game's components, and where the loader finds them.

    [art]
    allow_low_resolution = false   # true: an image under 150 dpi at print size is a warning, not an error

    [art.cards.master]             # every card of a kind (the kinds are the game's: `check` lists them)
    image = "art/crown.svg"        # PNG, JPEG or SVG, relative to this file
    fit = "fit"                    # fit: the whole image in the region; cover: fills it, cropped; stretch
    region = "art"                 # the face's region it goes in: art (its layout's), full (to the bleed edge),
                                   # safe, or another region of the face's layout (layouts/faces.py)

    [art.back]                     # every card back
    image = "art/logo.svg"
    region = "full"

    [art.boards.board]             # a board, a token, a standee, by the name the game gives it
    [art.tokens.chip]
    [art.standees.pawn]

A card list may also name one card's own image in its `image` column (its kind's fit and region).
An image is drawn over the component's own drawing, in its region; a region touching the cut
line runs out to the bleed edge.  `[art]` changes how a game looks, not how it plays: it is
left out of the definition's hash (the results store keeps the games played).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal

from boardlab.layouts.errors import Problem
from boardlab.layouts.schema import FrozenDict, limits

#: the targets of `[art]` besides the cards and the back; a game names its own in `ART_NAMES`
PIECES = ("boards", "tokens", "standees")
#: the regions every component has (printkit.pictures.region_box): its art area, the whole of it, inside the safe margin
REGIONS = ("art", "full", "safe")


def appearance() -> dict:
    """Field metadata: how the game looks, not how it plays (left out of the definition's hash)."""
    return {"appearance": True}


@dataclass(frozen=True)
class ImageRef:
    """One image placed on a component."""

    image: str = field(metadata=limits(min=1))  # the file (PNG, JPEG or SVG), relative to the file naming it
    fit: Literal["fit", "cover", "stretch"] = "cover"  # fit: all of it shows; cover: it fills the region; stretch
    region: str = "art"  # the region of the component it is drawn in (art, full, safe, or the layout's own)


@dataclass(frozen=True)
class Art:
    """The designer's images: per card kind, the backs, and the game's boards, tokens and standees."""

    #: an image under 150 dpi at print size is refused unless this is true (under 300 dpi always warns)
    allow_low_resolution: bool = False
    cards: dict[str, ImageRef] = field(default_factory=FrozenDict)  # card kind -> image
    back: ImageRef | None = None  # every card back
    boards: dict[str, ImageRef] = field(default_factory=FrozenDict)  # board name -> image
    tokens: dict[str, ImageRef] = field(default_factory=FrozenDict)  # token name -> image
    standees: dict[str, ImageRef] = field(default_factory=FrozenDict)  # standee name -> image


@dataclass(frozen=True)
class Placement:
    """An image ready to place: the file (absolute), how it fits, its region, and where it was named."""

    path: str
    shown: str  # the file as the user would type it (relative to the working folder when inside it)
    fit: str
    region: str
    named_at: tuple[str, int]  # (file, line) of the key naming it
    key: str  # the key naming it, e.g. "art.cards.master.image" or "deck.cards[3].image"


def image_keys(definition: Any) -> list[tuple[tuple, ImageRef | str, str | None]]:
    """(key path, ImageRef or a card row's file, the row's kind) of every image a definition names."""
    out: list[tuple[tuple, ImageRef | str, str | None]] = []
    art = getattr(definition, "art", None)
    if art is not None:
        for kind, ref in art.cards.items():
            out.append((("art", "cards", kind, "image"), ref, None))
        if art.back is not None:
            out.append((("art", "back", "image"), art.back, None))
        for target in PIECES:
            for name, ref in getattr(art, target).items():
                out.append((("art", target, name, "image"), ref, None))
    for f in dataclasses.fields(definition):
        section = getattr(definition, f.name, None)
        rows = getattr(section, "cards", None)
        if isinstance(rows, tuple):
            for index, row in enumerate(rows):
                if getattr(row, "image", ""):
                    out.append(((f.name, "cards", index, "image"), row.image, getattr(row, "kind", None)))
    return out


def place_images(definition: Any, locate: Callable[[tuple], tuple[str, int]],
                 card_list_named_at: Callable[[str], tuple[str, int] | None]) -> tuple[dict[tuple, Placement], list[Problem]]:
    """Every image of `definition` resolved and checked: (key path -> Placement, problems).

    `locate(path) -> (file, line)` says where a key is written; `card_list_named_at(section)` the
    (file, line) of the definition naming that section's card list, or None.  A path is taken
    relative to the file naming it and must stay inside the folder of the definition naming it
    (for a card list's row, the definition naming the card list).  Each image is read once
    (`images.read_picture`): a missing, unreadable or non-image file is a problem at its line.
    """
    from boardlab.layouts.images import ImageProblem, read_picture
    from boardlab.layouts.loader import display_path

    placements: dict[tuple, Placement] = {}
    problems: list[Problem] = []
    art = getattr(definition, "art", None)
    names = _art_names(definition)
    from boardlab.layouts.faces import game_faces

    layout_regions = game_faces(definition.game.id)[0]
    for path, ref, kind in image_keys(definition):
        key = _dotted(path)
        file, line = locate(path)
        if path[0] == "art" and path[1] != "back":
            allowed = names.get(path[1])
            if allowed is not None and path[2] not in allowed:
                problems.append(Problem(file, line, _dotted(path[:3]), f'no {_singular(path[1])} called "{path[2]}"',
                                        ", ".join(allowed) or f"this game has no {path[1]}"))
                continue
        written = ref.image if isinstance(ref, ImageRef) else ref
        if isinstance(ref, ImageRef):
            fit, region = ref.fit, ref.region
        else:  # a card row: its kind's fit and region
            kind_ref = art.cards.get(kind) if art is not None and kind else None
            fit, region = (kind_ref.fit, kind_ref.region) if kind_ref else ("cover", "art")
        # a card's or a back's region may also be one of its face's layout (layouts/faces.py)
        face = "back" if path[:2] == ("art", "back") else path[2] if path[:2] == ("art", "cards") else kind
        known = tuple(dict.fromkeys(REGIONS + layout_regions.get(face or "", ())))
        if region not in known:
            where = locate(path[:-1] + ("region",)) if isinstance(ref, ImageRef) else (file, line)
            problems.append(Problem(where[0], where[1], _dotted(path[:-1] + ("region",)), f'no region called "{region}"',
                                    ", ".join(known)))
            continue
        named_in = Path(file)
        root = named_in.parent
        if path[0] != "art":
            named = card_list_named_at(path[0])
            if named is not None:
                root = Path(named[0]).parent
        target = named_in.parent / written
        shown = display_path(target)
        try:
            resolved = target.resolve()
        except (OSError, RuntimeError, ValueError):
            problems.append(Problem(file, line, key, f"{written} cannot be resolved", "a path to a file"))
            continue
        if not resolved.is_relative_to(root.resolve()):
            problems.append(Problem(file, line, key, f"{written} leads out of the definition's folder {display_path(root).rstrip('/')}/",
                                    "an image in that folder or below it"))
            continue
        try:
            # named as written: the problem's line already says which file wrote it, and a long
            # folder would crowd what is wrong out of the one line
            picture = read_picture(resolved, str(written))
        except ImageProblem as err:
            problems.append(Problem(file, line, key, str(err), "a PNG, JPEG or SVG file"))
            continue
        del picture
        placements[path] = Placement(str(resolved), shown, fit, region, (file, line), key)
    return FrozenDict(placements), problems


def _art_names(definition: Any) -> dict[str, tuple[str, ...]]:
    """The names the game's `[art]` tables may use: card kinds, boards, tokens, standees."""
    from boardlab.layouts.registry import game_part

    try:
        module = game_part(definition.game.id, "definition")
    except Exception:  # a game without the hook: no names checked
        return {}
    return dict(getattr(module, "ART_NAMES", {}))


def _singular(target: str) -> str:
    return {"cards": "card kind", "boards": "board", "tokens": "token", "standees": "standee"}.get(target, target)


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out

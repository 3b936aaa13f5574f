"""Every distinct printed face of a game as pixels: the card faces (with their bleed and the cut and
safe-zone guides of their SVG component) and, for Deblockle, the cube nets.

Used by tests/test_face_layouts.py to compare today's faces with the reference images in
tests/data/faces/, and run as a script to write those references:

    .venv/bin/python tests/face_renders.py            # writes tests/data/faces/GAME/NAME.png

The references in the repository were written by this script from the drawing code as it was
before the faces were laid out as data (commit 4d30d65, where every position was written in the
game modules), so that the test compares the layouts' faces with the hand-placed ones.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

#: the shipped games, and the variant that prints Links' masters with their ends (another drawing path)
GAMES = ("blockd", "links", "links-master-match", "sixbysix", "deblockle")
#: variants kept only for the faces they draw differently: their other faces are the game's
PARTLY = {"links-master-match": "master-"}
#: pixels per inch of the reference images: a 0.35 mm step moves a line by one pixel
DPI = 72
REFERENCES = Path(__file__).resolve().parent / "data" / "faces"


def face_components(definition) -> list:
    """The components showing the game's faces: every card face and back, or every cube net."""
    from boardlab.layouts import print_conventions  # noqa: F401  (loads the conventions once)
    from boardlab.layouts.registry import game_part
    from boardlab.printkit.pages import PrintOptions

    files = game_part(definition.game.id, "print").print_files(definition, PrintOptions("a4", "long", "duplex"))
    wanted = [f for f in files if "-cards-" in f.name and not f.name.endswith("-single") or "-cubes-" in f.name]
    seen: dict[str, object] = {}
    for print_file in wanted:
        for component in print_file.components:
            if "pawn" in component.name or "marker" in component.name:
                continue  # standees are no faces (drawn by printkit.standees, not laid out)
            seen.setdefault(component.name, component)
    return list(seen.values())


def face_images(definition) -> dict[str, "object"]:
    """Component name -> PIL image (RGB) of each face at DPI, rendered by PDFium from its PDF page."""
    from PIL import Image

    from boardlab.printkit.pages import Page, PrintFile
    from boardlab.printkit.pod import page_images

    components = face_components(definition)
    pages = tuple(Page(c.width, c.height, c.draw, name=c.name) for c in components)
    pngs = page_images(PrintFile("faces", "faces", pages), DPI)
    return {c.name: Image.open(io.BytesIO(png)).convert("RGB") for c, png in zip(components, pngs) if png is not None}


def write_references() -> None:
    from boardlab.layouts import load

    for game in GAMES:
        folder = REFERENCES / game
        folder.mkdir(parents=True, exist_ok=True)
        for name, image in face_images(load(game)).items():
            if game in PARTLY and not name.startswith(PARTLY[game]):
                continue
            image.save(folder / f"{name}.png", optimize=True)
        print(game, len(list(folder.glob("*.png"))), "faces")


if __name__ == "__main__":
    sys.exit(write_references())

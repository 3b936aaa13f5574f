"""Print-on-demand card images: one PNG per card face at 300 dpi, with a shop's bleed.

Shops such as The Game Crafter take one image per card face, the cut size plus their bleed
(1/8 inch round a face for The Game Crafter and DriveThruCards): layouts/print.toml names
these presets under [pod_bleeds].  The images are the pages of the game's one-face-per-page
file, drawn with the preset's bleed instead of the definition's and rasterised by PDFium
(pypdfium2, a wheel pip installs with PDFium inside, so no outside program is needed).  The
same PDF gives the same pixels, and PNG encoding adds no date, so the images rebuild
byte-identical.
"""

from __future__ import annotations

from typing import Callable, TypeVar

import io
from dataclasses import replace

from boardlab.layouts.common import GameDefinition, PrintConventions
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.pages import PrintFile
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.units import POINTS_PER_MM

#: a game's definition, whichever its type
DefinitionT = TypeVar("DefinitionT", bound=GameDefinition)

#: dots per inch of every image
DPI = 300


def with_pod_bleed(definition: DefinitionT, preset: str, conventions: PrintConventions) -> DefinitionT:
    """The definition with its cards' bleed replaced by the preset's.

    :raises BoardlabError: for a preset print.toml does not name.

    >>> from boardlab.layouts import load, print_conventions
    >>> with_pod_bleed(load("blockd"), "thegamecrafter", print_conventions()).print.bleed
    3.175
    """
    if preset not in conventions.pod_bleeds:
        raise BoardlabError(f'unknown print-on-demand preset "{preset}" (presets: {", ".join(conventions.pod_bleeds)})')
    return replace(definition, print=replace(definition.print, bleed=conventions.pod_bleeds[preset]))


def face_images(print_file: PrintFile, folder: str) -> dict[str, bytes]:
    """Every page of a one-face-per-page file as a PNG at DPI, named `folder/PAGE-NAME.png`;
    faces shown on several pages (a common back) give one image.
    """
    images: dict[str, bytes] = {}
    names = [f"{folder}/{page.name or f'page-{index + 1:03d}'}.png" for index, page in enumerate(print_file.pages)]
    for name, png in zip(names, page_images(print_file, DPI, skip=lambda index: names[index] in names[:index])):
        if png is not None:
            images[name] = png
    return images


def page_images(print_file: PrintFile, dpi: int, transparent: bool = False,
                skip: Callable[[int], bool] | None = None) -> list[bytes | None]:
    """Every page of `print_file` rasterised by PDFium as a PNG at `dpi`: its size in mm rounded
    to whole pixels (a 69.85 x 95.25 mm poker face with 1/8 inch bleed at 300 dpi: 825 x 1125),
    the page painted white first, or left transparent.  `skip(index)` True leaves a page out (None).
    """
    import pypdfium2  # only the commands that write images need it

    out: list[bytes | None] = []
    document = pypdfium2.PdfDocument(render_pdf(print_file))
    try:
        for index, page in enumerate(print_file.pages):
            if skip is not None and skip(index):
                out.append(None)
                continue
            # a hair under the exact scale, so that rounding up never adds a column
            pixels = round(page.width / 25.4 * dpi)
            bitmap = document[index].render(scale=pixels / (page.width * POINTS_PER_MM) * (1 - 1e-9),
                                            fill_color=(255, 255, 255, 0) if transparent else (255, 255, 255, 255))
            image = bitmap.to_pil()
            # the page size is stored to a few decimals: a sliver of a row past the last whole one goes
            rows = round(page.height / 25.4 * dpi)
            if image.size != (pixels, rows):
                image = image.crop((0, 0, min(pixels, image.width), min(rows, image.height)))
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", dpi=(dpi, dpi))
            out.append(buffer.getvalue())
    finally:
        document.close()
    return out

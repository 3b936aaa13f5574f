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

import io
from dataclasses import replace

from boardlab.layouts.common import PrintConventions
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.pages import PrintFile
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.units import POINTS_PER_MM

#: dots per inch of every image
DPI = 300


def with_pod_bleed(definition, preset: str, conventions: PrintConventions):
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
    import pypdfium2  # only this command needs it

    images: dict[str, bytes] = {}
    document = pypdfium2.PdfDocument(render_pdf(print_file))
    try:
        for index, page in enumerate(print_file.pages):
            name = f"{folder}/{page.name or f'page-{index + 1:03d}'}.png"
            if name in images:
                continue
            # whole pixels for the whole face (a 69.85 mm poker face with 1/8 inch bleed: 825 pixels);
            # a hair under the exact scale, so that rounding up never adds a column
            pixels = round(page.width / 25.4 * DPI)
            bitmap = document[index].render(scale=pixels / (page.width * POINTS_PER_MM) * (1 - 1e-9))
            buffer = io.BytesIO()
            bitmap.to_pil().save(buffer, format="PNG", dpi=(DPI, DPI))
            images[name] = buffer.getvalue()
    finally:
        document.close()
    return images

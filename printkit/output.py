"""Writing print files to disk: NAME.pdf plus svg/COMPONENT.svg, all or nothing.

Everything is rendered into a temporary folder beside the destination first; only when every
file has been drawn are they renamed into place, and if one rename fails the ones already made
are undone.  A Ctrl-C while files are written, renamed or cleaned up is held until that is
over (milliseconds), so no temporary folder is left behind either.  A failure while drawing (a component that does not fit, a bug) or while moving
therefore leaves whatever was in the destination before untouched.

Layout of `out_dir` after `write_print_files([file], out_dir)`:

    out_dir/NAME.pdf              one PDF per print file (all its pages)
    out_dir/svg/COMPONENT.svg     one SVG per component (a card face, a board, a cube net)

Components are paper-independent, so the A4 and the Letter file of a game share their SVGs;
two components with the same name must therefore draw the same picture.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterable, Iterator

from boardlab.common import files, stopping
from boardlab.layouts.errors import BoardlabError
from boardlab.printkit.pages import PrintFile
from boardlab.printkit.pdf import render_pdf
from boardlab.printkit.svg import render_svg

SVG_FOLDER = "svg"


def render_print_files(print_files: Iterable[PrintFile]) -> dict[str, bytes]:
    """Every output file's path relative to the output folder, mapped to its bytes.

    :raises BoardlabError: when two components share a name but draw differently.

    >>> from boardlab.printkit.pages import Component, Page
    >>> dot = Component("dot", 10, 10, lambda c: c.circle(5, 5, 2, fill="#000000"))
    >>> files = render_print_files([PrintFile("demo", "Demo", (Page(10, 10, dot.draw),), (dot,))])
    >>> sorted(files)
    ['demo.pdf', 'svg/dot.svg']
    """
    rendered: dict[str, bytes] = {}
    for print_file in print_files:
        pdf_name = f"{print_file.name}.pdf"
        if pdf_name in rendered:
            raise BoardlabError(f"two print files are both called {print_file.name}")
        rendered[pdf_name] = render_pdf(print_file)
        for component in print_file.components:
            svg_name = f"{SVG_FOLDER}/{component.name}.svg"
            svg = render_svg(component).encode("utf-8")
            if rendered.get(svg_name, svg) != svg:
                raise BoardlabError(f"two different components are both called {component.name}")
            rendered[svg_name] = svg
    return rendered


def write_rendered(rendered: dict[str, bytes], out_dir: Path | str) -> list[Path]:
    """Write already rendered files into `out_dir` through a temporary folder; return their paths.

    :raises BoardlabError: when the folder cannot be written (it exists as a file, no permission).
    """
    out_dir = Path(out_dir)
    try:
        with stopping.held():  # staging, swap and clean-up take milliseconds: never cut in the middle
            return _move_into_place(rendered, out_dir)
    except OSError as err:
        where = err.filename or out_dir
        raise BoardlabError(f"cannot write to {where}: {err.strerror or err}") from None


def _move_into_place(rendered: dict[str, bytes], out_dir: Path) -> list[Path]:
    """Stage every file, then swap them in; if one swap fails, undo the ones already made."""
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".boardlab-print-", dir=out_dir))
    backup = staging / ".previous"
    done: list[tuple[Path, Path | None]] = []  # (destination, where its old file was kept)
    try:
        for relative, data in rendered.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            files.write_synced(target, data)
        for relative in rendered:
            destination = out_dir / relative
            if destination.is_dir():
                raise IsADirectoryError(0, f"{destination} is a folder", str(destination))
            if destination.parent.exists() and not destination.parent.is_dir():
                raise NotADirectoryError(0, f"{destination.parent} is a file, not a folder", str(destination.parent))
        with _undone_on_failure(done):
            for relative in rendered:
                destination = out_dir / relative
                destination.parent.mkdir(parents=True, exist_ok=True)
                kept = None
                if destination.exists():
                    kept = backup / relative
                    kept.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(destination, kept)
                done.append((destination, kept))
                os.replace(staging / relative, destination)
        for folder in {destination.parent for destination, _ in done}:
            files.sync_folder(folder)  # the renames themselves reach the disk
        return [destination for destination, _ in done]
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def _undone_on_failure(done: list[tuple[Path, Path | None]]) -> Iterator[None]:
    """On any failure (an OSError, an interrupt), put the previous files back, then re-raise."""
    try:
        yield
    except BaseException:
        for destination, kept in reversed(done):
            if kept is not None:
                os.replace(kept, destination)
            elif destination.exists():
                destination.unlink()
        raise


def write_print_files(print_files: Iterable[PrintFile], out_dir: Path | str) -> list[Path]:
    """Render every print file (PDF + component SVGs), then move them all into `out_dir`.

    :raises BoardlabError: from drawing (e.g. a card that does not fit its paper); nothing is
        written then.
    """
    return write_rendered(render_print_files(list(print_files)), out_dir)


def write_print_file(print_file: PrintFile, out_dir: Path | str) -> list[Path]:
    """Write one print file: `out_dir/NAME.pdf` and `out_dir/svg/COMPONENT.svg` for each component.

    :raises BoardlabError: as `write_print_files`.
    """
    return write_print_files([print_file], out_dir)

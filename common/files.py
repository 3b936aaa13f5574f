"""Files written whole or not at all, and older files never overwritten.

`write_synced` writes a new file and syncs it before it is renamed into place (the callers
stage into a temporary name in the destination's own folder, then `os.replace`); `move_aside`
moves a file to the first free PATH.old, PATH.old.1, ... .  Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_synced(path: Path, data: bytes) -> None:
    """Write a new file whole and make sure it is on the disk (fsync) before it is renamed into
    place: a full disk is an OSError here, on a write, on the sync or on the close, never a
    short file found later."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)


def sync_folder(folder: Path) -> None:
    """Sync a folder, so that the renames made in it reach the disk (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder; the files themselves are synced
        pass
    finally:
        os.close(fd)


def move_aside(path: Path) -> Path:
    """Move `path` to PATH.old, or PATH.old.1, PATH.old.2, ... : the first name not taken, so that an
    older file moved aside before is never overwritten; return the new path.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for text in ("first", "second", "third"):
    ...     _ = (folder / "s.sqlite").write_text(text)
    ...     print(move_aside(folder / "s.sqlite").name)
    s.sqlite.old
    s.sqlite.old.1
    s.sqlite.old.2
    >>> (folder / "s.sqlite.old").read_text()
    'first'
    """
    for number in range(10_000):
        aside = path.with_name(path.name + ".old" + (f".{number}" if number else ""))
        try:
            os.link(path, aside)  # fails if the name is taken: never replaces another file
        except FileExistsError:
            continue
        except OSError:  # a file system without hard links: the first free name, then a rename
            if aside.exists():
                continue
            os.replace(path, aside)
            return aside
        os.unlink(path)
        return aside
    raise FileExistsError(0, "10,000 older copies are already there", str(path))

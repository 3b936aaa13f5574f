"""Files written whole or not at all, older files never overwritten, and a designer's files read
within a bound.

`read_bounded` reads a user's file (a card list, an image, a registration, a position) only when it
is a regular file of at most a given size, as bytes or decoded text, with one `UnreadableFile` error
saying why not; `write_synced` writes a new file and syncs it before it is renamed into place (the callers
stage into a temporary name in the destination's own folder, then `os.replace`); `move_aside`
moves a file to the first free PATH.old, PATH.old.1, ... .  Standard library only.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import overload


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


#: `UnreadableFile.reason` of a missing file and of a folder
NO_SUCH_FILE = "no such file"
FOLDER = "is a folder, not a file"


class UnreadableFile(Exception):
    """A file `read_bounded` refuses.  Its message names the file and says why (``no such file x.csv``,
    ``x.csv is larger than 1,000 bytes``); `reason` says why without the name (``no such file``, ``is
    larger than 1,000 bytes``), for a message that names the file its own way; `line` is the line of
    the first byte that is not text in the encoding (None for the other reasons)."""

    def __init__(self, name: str, reason: str, line: int | None = None) -> None:
        super().__init__(f"{reason} {name}" if reason == NO_SUCH_FILE else f"{name} {reason}")
        self.reason = reason
        self.line = line


@overload
def read_bounded(path: str | os.PathLike[str], limit: int, *, shown: str | None = None,
                 encoding: str = "utf-8") -> str: ...
@overload
def read_bounded(path: str | os.PathLike[str], limit: int, *, shown: str | None = None,
                 encoding: None) -> bytes: ...
def read_bounded(path: str | os.PathLike[str], limit: int, *, shown: str | None = None,
                 encoding: str | None = "utf-8") -> str | bytes:
    """The contents of `path`, decoded with `encoding` (None: the bytes), when it is a regular file of at
    most `limit` bytes.  A FIFO, a device or a folder is never read (opened without blocking, checked
    on the open file); at most `limit` + 1 bytes are read, whatever the file claims its size is.
    `shown` is the file's name in the messages (default: `path`).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.csv").write_bytes(b"name,count\\nstar,3\\n")
    >>> read_bounded(folder / "a.csv", 100, shown="a.csv")
    'name,count\\nstar,3\\n'

    :raises UnreadableFile: a missing file, a folder or another file that is not a regular one, a
        larger one, one that cannot be read, or (with an encoding) bytes that are not text in it.
    """
    name = str(path) if shown is None else shown
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise UnreadableFile(name, NO_SUCH_FILE) from None
    except IsADirectoryError:
        raise UnreadableFile(name, FOLDER) from None
    except OSError as err:
        raise UnreadableFile(name, f"cannot be read: {err.strerror or err}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UnreadableFile(name, FOLDER)
        if not stat.S_ISREG(mode):  # /dev/zero, a FIFO: reading could block or never end
            raise UnreadableFile(name, "is not a regular file")
        with open(fd, "rb", closefd=False) as file:
            data = file.read(limit + 1)
    except OSError as err:
        raise UnreadableFile(name, f"cannot be read: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise UnreadableFile(name, f"is larger than {limit:,} bytes")
    if encoding is None:
        return data
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        line = err.object.count(b"\n", 0, err.start) + 1  # err.object: utf-8-sig's offsets are past the mark
        raise UnreadableFile(name, f"is not {encoding.upper().removesuffix('-SIG')} text (line {line})", line) from None

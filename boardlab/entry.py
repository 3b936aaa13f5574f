"""The installed `boardlab` command: `boardlab.cli.main`, answering a signal from its first instant.

Ctrl-C, SIGTERM and SIGHUP (`boardlab.common.stopping`) are answered before anything else is imported:
one arriving while the command modules are still being imported (numpy, reportlab, ...) ends
with the same one line and exit status (130, 143, 129) as one during the work; one arriving
after the work is done is ignored (the command exits with its own status).

A standard stream it was started without (`boardlab list >&-`) is filled first
(`fill_closed_streams`), so that the command ends as a Unix tool does, never with a traceback.
"""

from __future__ import annotations

import errno
import io
import os
import sys


class ClosedOutput(io.TextIOBase):
    """Standard output that the command was started without: every write fails as a write to a
    closed descriptor does (EBADF), so that the command ends with one line and exit status 2, as
    `ls >&-` does, instead of reaching a `None`."""

    def __init__(self, fd: int):
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "standard output is closed")

    def fileno(self) -> int:
        return self.fd


class ClosedInput(io.TextIOBase):
    """Standard input that the command was started without: it reads as empty (the null device
    behind descriptor 0), and says it was closed (`started_closed`), so that a command reading
    `-` can tell the user so instead of finding an empty document."""

    started_closed = True

    def __init__(self, fd: int):
        self.fd = fd

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        return ""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return ""

    def fileno(self) -> int:
        return self.fd


def fill_closed_streams() -> None:
    """Give a standard stream the command was started without (closed descriptor 0, 1 or 2) the
    null device: no file the command opens can then take its number (a print would land in a
    results store or a PDF), standard input reads as empty and says it was closed
    (`ClosedInput`), a message to standard error is lost, and a write to standard output fails
    in one line (`ClosedOutput`)."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:  # the lowest free number is taken, so this is only a safeguard
            os.dup2(null, fd)
            os.close(null)
        if name == "stdin":
            sys.stdin = ClosedInput(fd)
        elif name == "stdout":
            sys.stdout = ClosedOutput(fd)
        else:
            sys.stderr = open(fd, "w", encoding="utf-8", closefd=False)


def main() -> int:
    fill_closed_streams()
    from boardlab.common import stopping

    stopping.install()
    try:
        from boardlab.cli import main as run_command
    except KeyboardInterrupt as interrupt:
        return stopping.end(interrupt)
    except Exception:  # a stop that Python turned into another error on its way out of an import
        signum = stopping.signalled()
        if signum is None:
            raise
        return stopping.end(stopping.Stopped(signum))
    code = run_command()
    stopping.ignore_all()  # the work is done: a late signal cannot cut the exit short
    return code


if __name__ == "__main__":
    sys.exit(main())

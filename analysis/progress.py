"""The one-line progress of a long phase on standard error: on a terminal only, never on a pipe.

`Progress(total, label)` shows nothing for its first `delay` seconds (a short phase stays
silent); after that it keeps one line up to date: done / total, the rate, the time left at that
rate, and the time so far.  The line is redrawn every `tick` seconds even while nothing
finishes, so a phase whose first games take minutes (a strong search agent's) still says that it
runs and for how long, instead of looking like a hang.

The redrawing thread and the main thread write under one lock, and a fork waits for that lock
(`os.register_at_fork`), so a worker process is never forked in the middle of a write to
standard error (whose buffer lock the child would inherit held).

>>> import io
>>> bar = Progress(10, stream=io.StringIO(), delay=0)  # not a terminal: nothing is written
>>> bar.update(5); bar.close(); bar.stream.getvalue()
''
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO

from boardlab.common import stopping
from boardlab.common.notes import quiet

#: one lock for every progress line of the process: the redrawing threads, the main thread, forks
_DRAWING = threading.RLock()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_DRAWING.acquire, after_in_parent=_DRAWING.release,
                        after_in_child=_DRAWING.release)


def clock(seconds: float) -> str:
    """A duration for people: seconds below two minutes, then minutes, then hours.

    >>> clock(42.4), clock(125), clock(7300)
    ('42 s', '2.1 min', '2.0 h')
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """A one-line progress bar on stderr, shown only on a terminal and only after `delay` seconds
    (see the module docstring)."""

    def __init__(self, total: int, label: str = "games", stream: TextIO | None = None, delay: float = 2.0,
                 tick: float = 1.0, estimate: float | None = None) -> None:
        self.total, self.label, self.delay = total, label, delay
        self.estimate = estimate  # the phase's CPU seconds estimated before it began (`budget`), said on the line
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty() and not quiet()  # --quiet: none
        self.start = time.monotonic()
        self.shown = False
        self.done = 0
        self._stop = threading.Event()
        if self.enabled and tick > 0:
            threading.Thread(target=self._tick, args=(tick,), name="boardlab-progress", daemon=True).start()

    def update(self, done: int) -> None:
        self.done = done
        self._draw()

    def _tick(self, tick: float) -> None:
        while not self._stop.wait(tick):
            self._draw()

    def line(self, elapsed: float) -> str:
        """The text of the line after `elapsed` seconds (without the carriage return).

        >>> bar = Progress(12, "games of mcts-512", delay=0, tick=0)
        >>> bar.line(150.0)
        '[..............................] 0/12 games of mcts-512  2.5 min so far, none finished yet'
        >>> bar.done = 3
        >>> bar.line(150.0).split("mcts-512  ")[1]
        '0.02/s  2.5 min so far, about 7.5 min left'
        >>> Progress(12, "games of self-play", delay=0, tick=0, estimate=300).line(10.0)
        '[..............................] 0/12 games of self-play (estimated 5.0 min of CPU)  10 s so far, none finished yet'
        """
        width = 30
        done, total = self.done, max(self.total, 1)
        filled = int(width * done / total)
        head = f"[{'#' * filled}{'.' * (width - filled)}] {done:,}/{self.total:,} {self.label}"
        if self.estimate is not None:
            head += f" (estimated {clock(self.estimate)} of CPU)"
        if not done:
            return f"{head}  {clock(elapsed)} so far, none finished yet"
        rate = done / elapsed if elapsed else 0.0
        left = (self.total - done) / rate if rate else 0.0
        speed = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
        return f"{head}  {speed}/s  {clock(elapsed)} so far, about {clock(left)} left"

    def _draw(self) -> None:
        if not self.enabled or self._stop.is_set() or stopping.signalled() is not None:
            return  # a stopping command's last line is its own
        elapsed = time.monotonic() - self.start
        if elapsed < self.delay and self.done < self.total:
            return
        with _DRAWING:
            if self._stop.is_set():  # closed while this thread waited for the lock
                return
            try:
                self.stream.write(f"\r{self.line(elapsed)}\033[K")
                self.stream.flush()
            except (OSError, ValueError):  # a closed terminal: the line is only a courtesy
                return
            self.shown = True

    def close(self) -> None:
        self._stop.set()
        with _DRAWING:
            if self.shown:
                self.stream.write("\n")
                self.stream.flush()

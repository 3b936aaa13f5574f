"""Local worker processes that a Ctrl-C stops at once and quietly.

A Ctrl-C at the terminal reaches every process of the foreground group.  Workers made here
ignore it: only the main process sees the `KeyboardInterrupt`, and leaving the `with` block
terminates the workers (SIGTERM), so no worker prints a traceback and none is left holding a
queue lock that would make the shutdown hang.

>>> with local_pool(2) as pool:
...     sorted(pool.imap_unordered(abs, [-1, -2]))
[1, 2]
"""

from __future__ import annotations

import multiprocessing
from typing import Callable

from boardlab import stopping
from boardlab.layouts.limits import default_workers


def _quiet_worker(initializer: Callable | None, initargs: tuple) -> None:
    stopping.for_worker()  # the main process answers Ctrl-C for everyone; SIGTERM ends a worker quietly
    if initializer is not None:
        initializer(*initargs)


def local_pool(workers: int, initializer: Callable | None = None, initargs: tuple = ()):
    """A `multiprocessing` pool of `workers` processes (fork where available) that ignore SIGINT,
    never more than the cores this process may run on (more would only share them: the results
    are the same whatever the number of workers).

    Use it as a context manager: on leaving the block, also by an exception, the workers are
    terminated.
    """
    workers = max(1, min(workers, default_workers()))
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    return context.Pool(workers, initializer=_quiet_worker, initargs=(initializer, initargs))

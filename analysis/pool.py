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
import multiprocessing.pool
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
    return _Pool(workers, initializer=_quiet_worker, initargs=(initializer, initargs), context=context)


class _Pool(multiprocessing.pool.Pool):
    """A pool whose shutdown cannot hang on a lock that a killed worker took with it."""

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self._kill_workers()
        self.terminate()

    def _kill_workers(self) -> None:
        """SIGTERM or SIGHUP to the whole process group reaches the workers too, and ends them at
        once (`stopping.for_worker`); an idle worker dies holding the task queue's read lock (a worker
        holds it while it waits for a task), on which `terminate()` then waits for ever.  So: stop the
        pool from starting new workers, kill every worker, and free the locks only workers take."""
        self._worker_handler._state = multiprocessing.pool.TERMINATE  # type: ignore[attr-defined]
        self._change_notifier.put(None)  # type: ignore[attr-defined]
        self._worker_handler.join(2)  # type: ignore[attr-defined]
        workers = list(self._pool)  # type: ignore[attr-defined]
        for process in workers:
            process.kill()
        for process in workers:
            process.join(2)
        for lock in (self._inqueue._rlock, self._outqueue._wlock):  # type: ignore[attr-defined]
            if lock is not None:
                lock.acquire(block=False)  # a free lock is now ours; one a dead worker held stays held
                lock.release()  # either way, it is free again

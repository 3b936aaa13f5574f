"""Local worker processes that a stop ends at once: no lock and no thread that a dying worker can hang.

Each worker is a process with a pipe of its own.  The main process hands a worker a task (and,
while many are left, a second one queued behind it, so that a worker never idles waiting for the
main process to take its result), waits on all the pipes at once (`multiprocessing.connection.wait`,
which a signal interrupts) and gives the worker its next task when a result is in.  Nothing else runs: no
handler threads, no shared queue, no lock.  So a worker that dies at any moment (SIGTERM to the
whole process group, the kernel's out-of-memory killer), even in the middle of writing its result,
leaves nothing behind that the main process could wait on for ever: its pipe ends (EOF), and the
main process either is stopping anyway or says in one line that a worker ended.  (The standard
library's `multiprocessing.Pool` hangs in both cases: its result thread waits for the rest of a
half-written result, and its task queue's lock stays with a worker that died holding it.)

A Ctrl-C at the terminal reaches every process of the foreground group.  Workers ignore it
(`stopping.for_worker`): only the main process answers, and leaving the `with` block kills the
workers, so none prints a traceback and none outlives the command.

>>> with local_pool(2) as pool:
...     sorted(pool.imap_unordered(abs, [-1, -2, -3])), list(pool.imap(abs, [-4, -5, -6]))
([1, 2, 3], [4, 5, 6])
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
import time
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator

from boardlab.common import stopping
from boardlab.layouts.errors import BoardlabError
from boardlab.layouts.limits import default_workers

#: seconds workers get to finish after the last task before they are killed
CLOSE_WAIT = 5.0

#: a worker is given a second task queued behind the one it plays while at least this many tasks per
#: worker are left to hand out (see `LocalPool._results`)
PREFETCH_FROM = 4

#: this process's ends of its workers' pipes; a forked worker closes its copies of them, so that
#: each pipe's worker end lives in its worker alone
_PARENT_ENDS: list = []


def local_pool(workers: int, initializer: Callable | None = None, initargs: tuple = ()) -> "LocalPool":
    """A pool of `workers` processes (fork where available) that ignore SIGINT, never more than the
    cores this process may run on (more would only share them: the results are the same whatever
    the number of workers).

    Use it as a context manager: leaving the block normally lets the workers finish and exit;
    leaving it by an exception (a stop, an error) kills them at once.
    """
    workers = max(1, min(workers, default_workers()))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    return LocalPool(workers, initializer, initargs, multiprocessing.get_context(method))


class WorkerEnded(BoardlabError):
    """A worker process ended without being told to."""


class LocalPool:
    """Worker processes, each fed one task at a time through a pipe of its own (see the module)."""

    def __init__(self, workers: int, initializer: Callable | None, initargs: tuple,
                 context: Any) -> None:  # a multiprocessing context (typeshed's base class has no Process)
        self.processes: list = []
        self._pipes: list = []
        try:
            for _ in range(workers):
                ours, theirs = context.Pipe(duplex=True)
                process = context.Process(target=_serve, args=(theirs, initializer, initargs), daemon=True,
                                          name="boardlab-worker")
                process.start()
                theirs.close()
                _PARENT_ENDS.append(ours)
                self.processes.append(process)
                self._pipes.append(ours)
        except BaseException:
            self.kill()
            raise

    def __enter__(self) -> "LocalPool":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self.kill()

    def imap_unordered(self, function: Callable, tasks: Iterable) -> Iterator[Any]:
        """`function(task)` for every task, computed by the workers, each result as soon as it is in.

        :raises: the exception a task raised (the first one to arrive), or `WorkerEnded`.
        """
        for _, result in self._results(function, tasks):
            yield result

    def imap(self, function: Callable, tasks: Iterable) -> Iterator[Any]:
        """As `imap_unordered`, the results in the order of the tasks."""
        waiting: dict[int, Any] = {}
        wanted = 0
        for index, result in self._results(function, tasks):
            waiting[index] = result
            while wanted in waiting:
                yield waiting.pop(wanted)
                wanted += 1

    def map(self, function: Callable, tasks: Iterable) -> list:
        return list(self.imap(function, tasks))

    def _results(self, function: Callable, tasks: Iterable) -> Iterator[tuple[int, Any]]:
        todo = list(tasks)
        numbered = enumerate(todo)
        left = len(todo)  # tasks not handed out yet
        out: dict[Any, int] = {}  # pipe -> how many of its tasks are out, for the pipes with any
        for pipe in self._pipes:
            if self._hand_out(pipe, function, numbered):
                out[pipe] = 1
                left -= 1
        process_of = dict(zip(self._pipes, self.processes))
        while out:
            stopping.reraise_swallowed()  # a stop that a library swallowed whole still ends the run
            for pipe in multiprocessing.connection.wait(list(out)):
                assert isinstance(pipe, multiprocessing.connection.Connection)  # wait gives back what it was given
                try:
                    index, ok, value = pipe.recv()
                except (EOFError, OSError):
                    raise self._ended(process_of[pipe]) from None
                if not ok:
                    assert isinstance(value, BaseException)
                    raise value
                out[pipe] -= 1
                # the worker's next task, and while many are left one more queued behind it, so that a
                # worker never waits for this process to read its result and answer (on a busy
                # machine this process may wait for a core before it can); near the end one at a
                # time, so that the last tasks go to whichever worker is free first
                ahead = 2 if left >= PREFETCH_FROM * len(self._pipes) else 1
                while out[pipe] < ahead and self._hand_out(pipe, function, numbered):
                    out[pipe] += 1
                    left -= 1
                if not out[pipe]:
                    del out[pipe]
                yield index, value

    @staticmethod
    def _hand_out(pipe: Connection, function: Callable, numbered: Iterator) -> bool:
        """Send the next task to the worker at `pipe`; False when there is none left."""
        for index, task in numbered:
            pipe.send((index, function, task))
            return True
        return False

    @staticmethod
    def _ended(process: multiprocessing.process.BaseProcess) -> BaseException:
        process.join(0.5)
        time.sleep(0.05)  # a stop that also ended the worker (SIGTERM to the group) is answered here
        stopping.reraise_swallowed()
        code = process.exitcode
        how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0
               else f"exit status {code}" if code is not None else "its pipe closed")
        extra = " (out of memory?)" if code == -signal.SIGKILL else ""
        return WorkerEnded(f"a worker process ended in the middle of the run ({how}){extra}")

    def close(self) -> None:
        """Tell the workers there is no more work; kill those still running `CLOSE_WAIT` s later."""
        for pipe in self._pipes:
            try:
                pipe.send(None)
            except OSError:  # that worker is gone already
                pass
        stop = time.monotonic() + CLOSE_WAIT
        for process in self.processes:
            process.join(max(0.0, stop - time.monotonic()))
        self.kill()

    def kill(self) -> None:
        """End every worker now (SIGKILL) and close the pipes: whatever they were doing is dropped."""
        for process in self.processes:
            if process.exitcode is None:
                try:
                    process.kill()
                except (OSError, ValueError):  # gone, or already closed
                    pass
        for process in self.processes:
            process.join(2)
        for pipe in self._pipes:
            pipe.close()
            if pipe in _PARENT_ENDS:
                _PARENT_ENDS.remove(pipe)


#: the pipe of this worker process (None in the main process)
_PIPE = None


def _serve(pipe: Connection, initializer: Callable | None, initargs: tuple) -> None:
    """A worker's life: answer each task on `pipe` with (index, True, result) or (index, False, error)
    until told to stop (None) or the main process is gone."""
    global _PIPE
    stopping.for_worker()  # the main process answers Ctrl-C for everyone; SIGTERM ends a worker quietly
    for other in _PARENT_ENDS:  # a forked worker's copies of the main process's ends
        other.close()
    _PARENT_ENDS.clear()
    _PIPE = pipe
    failed: BaseException | None = None
    if initializer is not None:
        try:
            initializer(*initargs)
        except BaseException as err:  # every task answers with it
            failed = err
    while True:
        try:
            message = pipe.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        index, function, task = message
        try:
            if failed is not None:
                raise failed
            answer = (index, True, function(task))
        except Exception as err:
            answer = (index, False, err)
        try:
            pipe.send(answer)
        except Exception as err:  # the result or the error cannot be pickled: say what it was
            pipe.send((index, False, RuntimeError(f"{type(err).__name__}: {err}")))

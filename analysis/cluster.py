"""The Dask backend of the runner: blocks played by the workers of a Dask distributed scheduler.

`DaskBackend("tcp://HOST:8786")` connects to a running scheduler (`dask scheduler`, with
`dask worker tcp://HOST:8786` on each machine); `DaskBackend("local")` starts a LocalCluster of
worker processes on this machine.  Needs the optional extra: ``pip install 'boardlab[cluster]'``.

What a block computes depends only on its match and bounds (the seeds are derived per game), so
the records, and the summary made of them, are the same as with the local backend whatever the
number of workers.  Dask reschedules the blocks of a worker that dies; a scheduler that cannot
be reached within `timeout` seconds, or that stops answering during a run, is one
`BoardlabError`.  At connect time every worker must run the same boardlab code as this process
(`code_fingerprint`), or the run is refused before anything is played.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib
import logging
import os
from pathlib import Path
from typing import Any, Iterator, Sequence

import boardlab
from boardlab.common import stopping
from boardlab.analysis.runner import Backend, BlockPlayer, BlockResult, Job, Match, play_timed
from boardlab.layouts.errors import BoardlabError, one_line

#: seconds to wait for the scheduler (and for a first worker) unless told otherwise
TIMEOUT = 10.0
#: seconds between two looks at a signal while blocks are in flight
STEP = 0.1
#: seconds a stopped command with an abandoned local cluster may take to exit before it is made to
#: (Dask's threads have once kept the interpreter's shutdown spinning for a minute)
EXIT_WATCHDOG = 3.0


#: the packages whose code a worker runs when it plays a block: the engines and agents (analysis),
#: the definitions (layouts), the helpers below both (common) and the games `new-game` wrote (games)
FINGERPRINTED = ("boardlab.analysis", "boardlab.common", "boardlab.games", "boardlab.layouts")


def code_fingerprint() -> str:
    """boardlab's version and a SHA-256 of its Python sources and definitions (what workers compare):
    every package a worker runs (`FINGERPRINTED`), each file named by its package and path."""
    digest = hashlib.sha256(boardlab.__version__.encode())
    for package in FINGERPRINTED:
        module = importlib.import_module(package)
        assert module.__file__ is not None  # a package of files, not a namespace
        root = Path(module.__file__).parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
                digest.update(f"{package}/{path.relative_to(root)}".encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{boardlab.__version__}+{digest.hexdigest()[:16]}"


def _children() -> set:
    """This process's live child processes (those `multiprocessing` started: a local cluster's workers)."""
    import multiprocessing

    return set(multiprocessing.active_children())


def _without_gc_diagnosis() -> None:
    """Keep a local cluster's scheduler, which runs in this process, from hooking Dask's diagnosis
    of full garbage collections (`distributed.gc.GCDiagnosis`) into the collector.  A Ctrl-C landing
    inside that hook leaves its timer started, and the next full collection (one at shutdown) then
    printed 'Exception ignored in: <bound method GCDiagnosis._gc_callback ...> AssertionError'
    above the command's one line.  The diagnosis only writes to Dask's logs, which the command
    silences; there is no setting for it, so the scheduler's two calls are made to do nothing, and
    a hook already there is taken out."""
    from distributed import gc as dask_gc, scheduler

    scheduler.enable_gc_diagnosis = _no_gc_diagnosis
    scheduler.disable_gc_diagnosis = _no_gc_diagnosis
    dask_gc.disable_gc_diagnosis(force=True)  # does nothing unless it was enabled


def _no_gc_diagnosis(force: bool = False) -> None:
    """What a local cluster's scheduler calls instead of Dask's (`_without_gc_diagnosis`)."""


#: while set, a process forked from this one is a local cluster's worker (`forked_workers`)
_FORKING_WORKERS = False
_HOOKED = False


def _as_forked_worker() -> None:
    """In a process just forked (`os.register_at_fork`): when it is a local cluster's worker, the
    signals of one started by `stopping.helpers_ignore_ctrl_c` (Ctrl-C and SIGHUP ignored, SIGTERM's
    default), not the command's handlers it was forked with."""
    if _FORKING_WORKERS:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def forked_workers() -> Iterator[None]:
    """A local cluster's worker processes started inside the block are forked from this one (Dask's
    `multiprocessing-method` "fork", set by the caller), with the signals `_as_forked_worker` gives.

    Started afresh ("spawn", Dask's default) each worker imported Dask, boardlab, numpy and numba
    again before its first block (about 2 s of CPU each), and the cluster's start and close took
    4.2 and 1.5 s of wall clock against 1.4 and 0.1 s forked (10^5 Blockd games on 2 loaded cores):
    a forked worker has them all already.
    """
    global _FORKING_WORKERS, _HOOKED
    if not _HOOKED and hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_as_forked_worker)
        _HOOKED = True
    _FORKING_WORKERS = True
    try:
        yield
    finally:
        _FORKING_WORKERS = False


#: a task of the cluster plays several consecutive blocks when there are many, so that each
#: worker gets about this many tasks (Dask's own cost per task, a few ms, is paid fewer times);
#: with fewer blocks than this many per worker, a task plays one block
TASKS_PER_WORKER = 8


def _play_group(match: Match, bounds: Sequence[tuple[int, int]], player: BlockPlayer | None
                ) -> list[tuple[Any, float]]:
    """(output, seconds) of each of several blocks of one match, in their order."""
    return [play_timed(match, start, stop, player) for start, stop in bounds]


def groups(jobs: Sequence[Job], workers: int) -> list[list[int]]:
    """The jobs' positions cut into tasks: runs of consecutive jobs of one match, each of at most
    `len(jobs) // (TASKS_PER_WORKER * workers)` jobs (at least one).  What a block computes does
    not depend on the task it is played in, so neither does the summary.

    >>> from types import SimpleNamespace
    >>> a, b = SimpleNamespace(), SimpleNamespace()
    >>> groups([(a, (0, 1))] * 20 + [(b, (0, 1))] * 13, workers=2)
    [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11], [12, 13], [14, 15], [16, 17], [18, 19], [20, 21], [22, 23], [24, 25], [26, 27], [28, 29], [30, 31], [32]]
    >>> groups([(a, (0, 1))] * 3, workers=2)
    [[0], [1], [2]]
    """
    size = max(1, len(jobs) // (TASKS_PER_WORKER * max(1, workers)))
    tasks: list[list[int]] = []
    for i, (match, _) in enumerate(jobs):
        if tasks and len(tasks[-1]) < size and jobs[tasks[-1][-1]][0] is match:
            tasks[-1].append(i)
        else:
            tasks.append([i])
    return tasks


class DaskBackend(Backend):
    """Blocks on a Dask cluster (see the module docstring).

    :raises BoardlabError: when `distributed` is missing, the scheduler cannot be reached or no
        worker joins within `timeout`, or a worker runs other boardlab code.
    """

    name = "dask"

    def __init__(self, address: str, workers: int | None = None, timeout: float | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BoardlabError("--cluster needs Dask: pip install 'boardlab[cluster]'") from None
        self.address, self.timeout = address, TIMEOUT if timeout is None else timeout
        logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)  # failures reach the user as one line
        self.cluster = None
        self.abandoned = False
        self._children_before = _children()
        try:
            if address == "local":
                _without_gc_diagnosis()
                self._connect_interruptibly(Client, LocalCluster, address, workers)
            else:  # `_client_within_timeout` waits in a thread of its own; a signal is answered after it
                with stopping.deferred():
                    self._connect(Client, LocalCluster, address, workers)
        except KeyboardInterrupt:
            self.abandon()
            raise
        except BaseException:
            self.close()
            raise

    def _connect_interruptibly(self, Client: type, LocalCluster: type, address: str, workers: int | None) -> None:
        """`_connect` in a thread of its own, the main thread waiting in short steps: a Ctrl-C during a
        local cluster's start-up (a second or more) is answered at once.  The main thread is never
        inside Dask's code when the signal's `KeyboardInterrupt` arrives, so no lock of Dask's is left
        held by it."""
        import threading

        outcome: list[BaseException] = []

        def connect() -> None:
            try:
                self._connect(Client, LocalCluster, address, workers)
            except BaseException as err:  # handed to the main thread below
                outcome.append(err)

        thread = threading.Thread(target=connect, name="boardlab-dask-start", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(0.05)
        if outcome:
            raise outcome[0]

    def abandon(self) -> None:
        """Stop at once, on a signal: kill the local cluster's worker processes (what they were playing
        is thrown away anyway) instead of the orderly close, which waits for the blocks in flight (a
        second or more).  The processes Dask starts also end by themselves when this one exits (their
        pipe to it closes).  A remote scheduler is told to drop this client's work, as in `close`.
        Once is enough: a second call (the command's way out after `play`'s) does nothing."""
        if self.abandoned:
            return
        self.abandoned = True
        if self.address != "local":
            self.close()
            return
        from distributed.deploy.spec import SpecCluster

        for cluster in list(SpecCluster._instances):  # all this process's, also one still starting
            cluster.shutdown_on_close = False  # Dask's own close at exit would wait for its busy scheduler
            for nanny in list(getattr(cluster, "workers", {}).values()):
                close_gracefully = getattr(nanny, "close_gracefully", None)
                if callable(close_gracefully):  # a nanny would start a new worker for the one killed below
                    close_gracefully()
        for child in _children() - self._children_before:
            try:
                child.kill()
            except (OSError, ValueError):  # already gone
                pass
        for child in _children() - self._children_before:
            child.join(1)
        stopping.exit_within(EXIT_WATCHDOG)

    def _connect(self, Client: type, LocalCluster: type, address: str, workers: int | None) -> None:
        try:
            if address == "local":
                from boardlab.analysis.runner import default_workers
                import dask

                import boardlab.analysis.jit  # noqa: F401 (numba: imported once here, not in every worker)

                # its processes leave the terminal's Ctrl-C to this one; they are forked from this
                # process (`forked_workers`), not started afresh
                with stopping.helpers_ignore_ctrl_c(), forked_workers(), \
                        dask.config.set({"distributed.worker.multiprocessing-method": "fork"}):
                    self.cluster = LocalCluster(n_workers=min(workers or default_workers(), default_workers()), threads_per_worker=1,
                                                processes=True, host="127.0.0.1", dashboard_address=None,
                                                # its HTTP server (health, metrics) runs even without the
                                                # dashboard, by default on 8787: any free port, no warning
                                                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                                                silence_logs=logging.CRITICAL)
                self.client = Client(self.cluster, timeout=self.timeout, set_as_default=False)
            else:
                _check_address(address)
                self.client = self._client_within_timeout(Client, address)
        except ValueError as err:  # Dask's parser of addresses: 'garbage', 'tcp://[::1'
            raise BoardlabError(f"--cluster: '{address}' is not a scheduler address ({one_line(str(err))}); give "
                                f"tcp://HOST:PORT, or 'local' (the default comes from $BOARDLAB_CLUSTER)") from None
        except (BoardlabError, KeyboardInterrupt):
            raise
        except (OSError, TimeoutError) as err:
            self.close()
            raise BoardlabError(f"cannot reach the Dask scheduler at {address} within {self.timeout:g} s "
                                f"({str(err).splitlines()[0] if str(err) else type(err).__name__})") from None
        except Exception as err:  # something answered, but not as a Dask scheduler (HTTP, garbage)
            self.close()
            raise BoardlabError(f"{address} does not answer as a Dask scheduler ({type(err).__name__}: "
                                f"{one_line(str(err))[:200]})") from None
        try:
            self.client.wait_for_workers(1, timeout=self.timeout)
        except (OSError, TimeoutError):
            self.close()
            raise BoardlabError(f"no Dask worker joined the scheduler at {address} within {self.timeout:g} s "
                                f"(start one with: dask worker {address})") from None
        self.check_versions()

    def _client_within_timeout(self, Client: type, address: str) -> Any:
        """`Client(address)`, given up after `timeout` seconds: Dask bounds the connection but not
        the handshake, so a server that accepts and never answers would hold the command forever."""
        import threading

        made: dict = {}

        def connect() -> None:
            try:
                made["client"] = Client(address, timeout=self.timeout)
            except BaseException as err:  # handed to the main thread below
                made["error"] = err

        worker = threading.Thread(target=connect, name="boardlab-dask-connect", daemon=True)
        worker.start()
        worker.join(self.timeout + 1)
        if worker.is_alive():
            raise BoardlabError(f"{address} accepted the connection but gave no answer within {self.timeout:g} s "
                                f"(is it a Dask scheduler? --cluster-timeout sets the wait)")
        if "error" in made:
            raise made["error"]
        return made["client"]

    def check_versions(self) -> None:
        """Refuse workers that run other boardlab code than this process.

        :raises BoardlabError: naming the first such worker.
        """
        mine = code_fingerprint()
        theirs = self.client.run(code_fingerprint)
        for worker, fingerprint in sorted(theirs.items()):
            if fingerprint != mine:
                self.close()
                raise BoardlabError(f"Dask worker {worker} runs boardlab {fingerprint}, this machine {mine}: "
                                    f"install the same boardlab on every worker")

    def play(self, jobs: Sequence[Job], player: BlockPlayer | None = None) -> Iterator[BlockResult]:
        # A signal is answered between the client's calls, never inside one (`stopping.deferred`):
        # the client holds locks across its calls, and an interrupt in the middle deadlocks it.
        try:
            with stopping.deferred() as signals:
                yield from self._play(jobs, player, signals)
        except KeyboardInterrupt:
            self.abandon()
            raise

    def _play(self, jobs: Sequence[Job], player: BlockPlayer | None, signals: stopping.Deferred) -> Iterator[BlockResult]:
        from distributed import wait

        matches: dict[int, object] = {}
        for match, _ in jobs:
            if id(match) not in matches:  # each match travels to the cluster once
                matches[id(match)] = self.client.scatter(match, broadcast=False, hash=False)
        pending = {}
        from distributed.client import FuturesCancelledError
        from distributed.comm import CommClosedError

        try:
            workers = sum(self.client.nthreads().values()) or 1
            for task in groups(jobs, workers):
                signals.check()
                match = jobs[task[0]][0]
                future = self.client.submit(_play_group, matches[id(match)], [jobs[i][1] for i in task], player,
                                            pure=False, retries=2)
                pending[future] = task
            waited = 0.0
            while pending:
                signals.check()
                stopping.reraise_swallowed()
                try:
                    with self.client.as_current():  # the client is not the process's default (see _connect)
                        done, _ = wait(list(pending), timeout=STEP, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    waited += STEP
                    if waited >= self.timeout:
                        self._check_alive()
                        waited = 0.0
                    continue
                waited = 0.0
                for future in done:
                    task = pending.pop(future)
                    if future.status == "cancelled":
                        raise self._lost()
                    if future.status == "error":
                        raise future.exception()
                    for i, (output, seconds) in zip(task, future.result()):
                        start, stop = jobs[i][1]
                        with signals.outside():  # the consumer's work: a stop is answered at once there
                            yield BlockResult(i, start, stop, output, seconds)
        except (FuturesCancelledError, CommClosedError, asyncio.CancelledError):
            raise self._lost() from None
        finally:
            if pending and not (signals.caught and self.address == "local"):  # `abandon` ends a local cluster
                # one message for all (one per future takes seconds when thousands are queued)
                try:
                    self.client.cancel(list(pending))
                except Exception:  # the scheduler is gone: nothing left to cancel
                    pass

    def _lost(self) -> BoardlabError:
        return BoardlabError(f"lost the Dask scheduler at {self.address} (no answer within {self.timeout:g} s); "
                             f"the blocks finished before are kept")

    def _check_alive(self) -> None:
        if self.client.status != "running":
            raise self._lost()

    def close(self) -> None:
        if self.abandoned and self.address == "local":
            return  # its processes are gone; an orderly close would only wait for them
        for part in (getattr(self, "client", None), self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing a half-made connection: nothing more to do
                    pass


def _check_address(address: str) -> None:
    """Dask's own reading of a scheduler address, done here before any connection: the client
    reads it on its connecting thread, which a busy machine may not run within the timeout, and
    'tcp://host:notaport' must be a bad address, never a silent server.

    :raises ValueError: as Dask words it, for an address the client would refuse.

    >>> _check_address("tcp://127.0.0.1:8786")
    >>> _check_address("tcp://host:notaport")
    Traceback (most recent call last):
    ValueError: invalid literal for int() with base 10: 'notaport'
    >>> _check_address("garbage")
    Traceback (most recent call last):
    ValueError: missing port number in address 'garbage'
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, location = parse_address(address)
    if scheme in ("tcp", "tls"):
        parse_host_port(location)

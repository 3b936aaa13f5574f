"""The Dask backend on a LocalCluster of two worker processes on the loopback address: the same
records as the local backend, also when a worker is killed during the run; an unreachable
scheduler and a worker running other code are one clear error.  One cluster serves the module
(starting one costs seconds)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

import boardlab  # noqa: E402
from boardlab.analysis import cluster, engines  # noqa: E402
from boardlab.analysis.cluster import DaskBackend  # noqa: E402
from boardlab.analysis.runner import make_match, play_block, run_records  # noqa: E402
from boardlab.cli import main  # noqa: E402
from boardlab.layouts import BoardlabError, load  # noqa: E402


#: seconds the backend waits for the scheduler's workers: only a bound on a hang (they start in
#: seconds; a loaded machine's suite can take far longer)
WORKERS_TIMEOUT = 120


@pytest.fixture(scope="module")
def scheduler():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=logging.CRITICAL) as local:
        yield local.scheduler_address


def sixbysix_match(games_per_block: int = 8):
    game = engines.make_game(load("sixbysix"), 3)
    known = engines.agent_factories("sixbysix")
    names = ("greedy", "random", "favourite")
    return game, [known[n] for n in names], names


def test_same_summary_as_the_local_backend(scheduler):
    game, agents, names = sixbysix_match()
    backend = DaskBackend(scheduler, timeout=WORKERS_TIMEOUT)
    try:
        records, summary = run_records(game, agents, 100, seed=3, agent_names=names, progress=False, backend=backend)
    finally:
        backend.close()
    local_records, local_summary = run_records(game, agents, 100, seed=3, agent_names=names, progress=False, workers=1)
    summary.pop("seconds"), local_summary.pop("seconds")
    assert records == local_records and summary == local_summary


def test_a_worker_killed_during_the_run_loses_nothing(scheduler):
    """Many small blocks; after the first result one worker process is killed (its nanny starts
    another); Dask plays its blocks again and every block's records are as the local backend's."""
    game = engines.make_game(load("deblockle"), 2)
    match = make_match(game, [engines.agent_factories("deblockle")["random"]] * 2, seed=5, agent_names=["random"] * 2)
    jobs = [(match, (start, start + 2)) for start in range(0, 40, 2)]
    backend = DaskBackend(scheduler, timeout=WORKERS_TIMEOUT)
    try:
        results = []
        killed_at = None
        for result in backend.play(jobs):
            results.append(result)
            if killed_at is None:
                pids = backend.client.run(os.getpid)
                os.kill(max(pids.values()), signal.SIGKILL)
                killed_at = len(results)
    finally:
        backend.close()
    assert killed_at == 1 and sorted(r.job for r in results) == list(range(len(jobs)))
    for result in results:
        assert result.output == play_block(match, result.start, result.stop)


def test_workers_running_other_code_are_refused(scheduler, monkeypatch):
    """This process claims another version; the workers (other processes) keep the real one."""
    monkeypatch.setattr(boardlab, "__version__", "0.0.0")
    assert cluster.code_fingerprint().startswith("0.0.0+")
    with pytest.raises(BoardlabError, match=r"runs boardlab .*, this machine 0\.0\.0\+.*: install the same boardlab"):
        DaskBackend(scheduler, timeout=WORKERS_TIMEOUT)


def test_the_fingerprint_covers_every_package_a_worker_runs(monkeypatch):
    """A file changed in common/ or in a game `new-game` wrote changes the fingerprint, as one in
    analysis/ does (workers running older helpers were accepted when only analysis/ and layouts/
    counted)."""
    import importlib

    base = cluster.code_fingerprint()
    for package, name in [("boardlab.common", "stopping.py"), ("boardlab.games", "__init__.py"),
                          ("boardlab.analysis", "runner.py"), ("boardlab.layouts", "registry.py")]:
        changed = Path(importlib.import_module(package).__file__).parent / name
        real = Path.read_bytes

        def read_bytes(path, changed=changed, real=real):
            return real(path) + (b"# changed\n" if path == changed else b"")

        with monkeypatch.context() as m:
            m.setattr(Path, "read_bytes", read_bytes)
            assert cluster.code_fingerprint() != base, package
    assert cluster.code_fingerprint() == base


def test_an_unreachable_scheduler_is_one_line_and_exit_2(capsys):
    started = time.monotonic()
    code = main(["simulate", "blockd", "--games", "10", "--cluster", "tcp://127.0.0.1:9", "--cluster-timeout", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9 within 2 s" in err
    assert time.monotonic() - started < 120  # never "until killed" (a generous bound: no test measures speed)


def test_a_local_cluster_with_port_8787_taken_says_nothing():
    """The scheduler's HTTP server (health, metrics) runs even without the dashboard and took
    8787 by default: with that port busy (another Dask, a notebook), Dask warned under the command's
    output.  It takes any free port now."""
    import socket

    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            taken.bind(("127.0.0.1", 8787))
        except OSError:
            pass  # busy already: the case under test
        taken.listen()
        done = subprocess.run([sys.executable, "-m", "boardlab", "simulate", "blockd", "--games", "40", "--workers", "2",
                               "--cluster", "local"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 0, done.stderr[-800:]
    # nothing of Dask's under the command's output (a progress line of a loaded machine is not the case under test)
    assert not any(word in done.stderr for word in ("8787", "Port", "port", "Warning", "warning")), done.stderr[-800:]


def test_a_local_cluster_leaves_no_garbage_collection_hook_in_this_process():
    """A local cluster's scheduler runs in the command's own process, and Dask's scheduler hooks a
    diagnosis of its own into every full garbage collection (distributed.gc.GCDiagnosis).  A Ctrl-C
    landing inside that hook left it half-way, and a later collection printed 'Exception ignored
    in: <bound method GCDiagnosis._gc_callback ...> AssertionError' above 'boardlab: interrupted'
    (seen under load).  The command hooks nothing into the collector, whatever the load."""
    script = ("import gc; from boardlab.analysis.cluster import DaskBackend; backend = DaskBackend('local', workers=1); "
              "hooks = [getattr(cb, '__qualname__', repr(cb)) for cb in gc.callbacks]; backend.close(); print(hooks)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    assert "GCDiagnosis" not in done.stdout and done.stdout.strip() == "[]", done.stdout


def test_a_stop_anywhere_in_a_command_abandons_a_local_cluster_without_its_graceful_shutdown():
    """Ctrl-C ends every command within a second, `--cluster local` included.  A stop that lands
    while blocks are in flight is answered in `DaskBackend.play`; one that lands anywhere else in
    the command (a report between two phases, writing its files) reaches `backend_of`, whose
    orderly close (client, then cluster) waited a second or more for the cluster's graceful
    shutdown (1.16 s measured).  The command abandons it instead: the worker processes killed,
    neither close called.  (In a process of its own: the abandon's exit watchdog ends it.)"""
    script = """
import multiprocessing, os, types
from boardlab import arguments
from boardlab.analysis import runner
from boardlab.analysis.cluster import DaskBackend
backend = DaskBackend('local', workers=1)
workers = multiprocessing.active_children()
graceful = []
backend.client.close = lambda *a, **k: graceful.append('client')
backend.cluster.close = lambda *a, **k: graceful.append('cluster')
runner.backend_for = lambda *a, **k: backend
try:
    with arguments.backend_of(types.SimpleNamespace(cluster='local', workers=1, cluster_timeout=None)):
        raise KeyboardInterrupt  # the stop, outside DaskBackend.play
except KeyboardInterrupt:
    pass
for w in workers:
    w.join(30)  # a killed process is reaped when the machine gets to it (a busy machine: not at once)
print(graceful, len(workers), [w.is_alive() for w in workers], flush=True)
os._exit(0)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.strip() == "[] 1 [False]", done.stdout


class Recording:
    """A backend that only notes what is asked of it."""

    def __init__(self):
        self.calls: list[str] = []

    def close(self):
        self.calls.append("close")

    def abandon(self):
        self.calls.append("abandon")


@pytest.mark.parametrize("raised,calls", [(None, ["close"]), (BoardlabError("bad"), ["close"]),
                                          (KeyboardInterrupt(), ["abandon"])])
def test_the_backend_is_closed_at_the_end_and_abandoned_on_a_stop(monkeypatch, raised, calls):
    import types

    from boardlab import arguments
    from boardlab.analysis import runner

    backend = Recording()
    monkeypatch.setattr(runner, "backend_for", lambda *a, **k: backend)
    try:
        with arguments.backend_of(types.SimpleNamespace(cluster=None, workers=1, cluster_timeout=None)):
            if raised is not None:
                raise raised
    except (KeyboardInterrupt, BoardlabError):
        pass
    assert backend.calls == calls

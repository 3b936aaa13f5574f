"""analysis.pool: the same results as a plain loop, errors passed on, and no hang whatever a worker does."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import time

import pytest

from boardlab.analysis import pool as pool_module
from boardlab.analysis.pool import WorkerEnded, local_pool


def slow_square(n: int) -> int:
    time.sleep(0.002 * (n % 5))  # unequal tasks, so that results come back out of order
    return n * n


def test_the_same_results_as_a_plain_loop_in_order_and_out_of_order():
    tasks = list(range(40))
    with local_pool(2) as pool:
        assert list(pool.imap(slow_square, tasks)) == [n * n for n in tasks]
        assert sorted(pool.imap_unordered(slow_square, tasks)) == sorted(n * n for n in tasks)
        assert pool.map(slow_square, []) == []


def fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n


def test_a_task_s_exception_reaches_the_caller_with_its_type():
    with pytest.raises(ValueError, match="seven"), local_pool(2) as pool:
        list(pool.imap(fail_on_seven, range(20)))


def unpicklable(n: int):
    return lambda: n


def test_a_result_that_cannot_travel_is_named():
    with pytest.raises(RuntimeError, match="pickle"), local_pool(2) as pool:
        list(pool.imap(unpicklable, [1]))


def refuse(*args):
    raise LookupError("no such match")


def test_an_initializer_s_error_is_every_task_s_answer():
    with pytest.raises(LookupError, match="no such match"), local_pool(2, initializer=refuse) as pool:
        list(pool.imap(abs, [1, 2]))


def half_a_result(n: int) -> int:
    """Write the start of a 1000-byte message and die, as a worker killed while it writes its result."""
    os.write(pool_module._PIPE.fileno(), struct.pack("!i", 1000) + b"abc")
    os._exit(0)


def test_a_worker_that_dies_halfway_through_its_result_is_one_error_not_a_hang():
    started = time.monotonic()
    with pytest.raises(WorkerEnded, match="a worker process ended in the middle of the run"), local_pool(2) as pool:
        list(pool.imap_unordered(half_a_result, [1, 2]))
    assert time.monotonic() - started < 120  # an error, not a hang (a generous bound: no test measures speed)


def sleep_long(n: int) -> int:
    time.sleep(60)
    return n


def test_a_worker_killed_during_a_task_is_named_with_its_signal():
    with pytest.raises(WorkerEnded, match="killed by SIGKILL"), local_pool(2) as pool:
        results = pool.imap_unordered(sleep_long, [1, 2])
        os.kill(pool.processes[0].pid, signal.SIGKILL)
        next(results)
    assert all(process.exitcode is not None for process in pool.processes)  # none left running


SCRIPT = r"""
import os, signal, time
from boardlab.analysis.pool import local_pool

class Stop(Exception):
    pass

try:
    with local_pool(2) as pool:
        assert sorted(pool.map(abs, [-1, -2])) == [1, 2]
        time.sleep(0.3)  # the idle workers now wait for a task
        for process in pool.processes:
            os.kill(process.pid, signal.SIGTERM)  # as a SIGTERM to the whole process group does
        time.sleep(0.3)
        raise Stop
except Stop:
    print("left the block")
"""


def test_leaving_the_block_after_the_workers_were_killed_does_not_hang():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "left the block\n"), done.stderr[-2000:]


def test_a_stop_that_a_library_swallowed_still_ends_the_pool_s_run(monkeypatch):
    """A Ctrl-C inside an extension module's initialisation comes out as ImportError, which an
    optional import may catch whole; the first signal has already made later ones only noted, so the
    run must see that a stop was raised and end (seen: simulate running on 20 s after SIGINT)."""
    from boardlab.common import stopping

    monkeypatch.setattr(stopping, "_raised", [signal.SIGINT])
    with pytest.raises(stopping.Stopped), local_pool(2) as pool:
        list(pool.imap(abs, range(10)))

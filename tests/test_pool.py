"""analysis.pool: leaving the pool's block after its workers were killed does not hang."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r"""
import os, signal, time
from boardlab.analysis.pool import local_pool

class Stop(Exception):
    pass

try:
    with local_pool(2) as pool:
        assert sorted(pool.map(abs, [-1, -2])) == [1, 2]
        time.sleep(0.3)  # the idle workers now wait for a task, one of them holding the queue's read lock
        for process in list(pool._pool):
            os.kill(process.pid, signal.SIGTERM)  # as a SIGTERM to the whole process group does
        time.sleep(0.3)
        raise Stop
except Stop:
    print("left the block")
"""


def test_leaving_the_block_after_the_workers_were_killed_does_not_hang():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "left the block\n"), done.stderr[-2000:]

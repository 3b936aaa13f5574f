"""The line that says the fast paths are compiling (boardlab.analysis.jit): once, on a terminal,
only while numba really compiles."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.analysis import jit


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def unsaid(monkeypatch):
    monkeypatch.delenv(jit.SAID, raising=False)


class Clock:
    """The notice's clock, moved by hand: the seconds a compilation takes are what the test says, whatever
    the machine's load (the notice's timer, a real thread, is waited for with `join`, never by sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(jit, "time", clock)
    return clock


def compile_for(notice: jit.CompileNotice, seconds: float, clock: Clock) -> None:
    """What numba's compile events do around a compilation of `seconds` (one nested inside)."""
    notice.on_start(None)
    notice.on_start(None)  # a function the outer one calls, compiled with it
    clock.now += seconds
    notice.on_end(None)
    notice.on_end(None)


def said_while_compiling(notice: jit.CompileNotice, clock: Clock, seconds: float) -> None:
    """A compilation of `seconds` that runs until the notice's timer has fired (the timer's thread
    joined: however long that takes on a loaded machine), then ends."""
    notice.on_start(None)
    assert notice.timer is not None
    notice.timer.join(timeout=300)  # generous: it fires after its delay, at once on a quiet machine
    clock.now += seconds
    notice.on_end(None)


def test_a_long_compilation_is_announced_once_while_it_runs(unsaid, clock):
    stream = Terminal()
    notice = jit.CompileNotice(stream, delay=0.2)
    said_while_compiling(notice, clock, 0.5)
    assert stream.getvalue() == jit.MESSAGE + "\n"  # said before the compilation ended
    compile_for(notice, 0.3, clock)
    assert stream.getvalue() == jit.MESSAGE + "\n" and os.environ[jit.SAID] == "1"


def test_short_compilations_add_up_and_quick_ones_say_nothing(unsaid, clock):
    stream = Terminal()
    notice = jit.CompileNotice(stream, delay=60.0)  # a timer that cannot fire during the quick ones
    compile_for(notice, 20.0, clock)
    compile_for(notice, 20.0, clock)
    assert stream.getvalue() == "" and notice.spent == 40.0 and notice.timer is None
    notice.delay = 40.1  # the third starts with 0.1 s left of the delay
    said_while_compiling(notice, clock, 0.3)  # the third passes the delay in all
    assert stream.getvalue() == jit.MESSAGE + "\n"


def test_nothing_on_a_pipe_or_after_another_process_said_it(unsaid, monkeypatch, clock):
    piped = io.StringIO()  # not a terminal: tests and scripts read standard error
    for stream, said in ((piped, ""), (Terminal(), "1")):  # "1": the parent process already wrote the line
        monkeypatch.setenv(jit.SAID, said)
        notice = jit.CompileNotice(stream, delay=0.0)
        notice.on_start(None)
        assert notice.timer is None  # nothing will say it
        clock.now += 0.2
        notice.on_end(None)
        assert stream.getvalue() == ""


def test_numba_reports_a_real_compilation_and_not_a_compiled_call(unsaid):
    from numba.core import event

    notice = jit.CompileNotice(io.StringIO())
    event.register("numba:compile", notice)
    try:
        @jit.njit
        def total(n):
            s = 0
            for i in range(n):
                s += i * i
            return s

        assert total(10) == sum(i * i for i in range(10))
        spent = notice.spent
        assert spent > 0 and notice.depth == 0
        assert total(20) == sum(i * i for i in range(20))
        assert notice.spent == spent  # already compiled: no event
    finally:
        event.unregister("numba:compile", notice)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("script") is None, reason="needs script(1) for a terminal")
def test_a_first_run_says_it_on_a_terminal_and_nothing_on_a_pipe(tmp_path):
    """A command with an empty numba cache: one line under a terminal (`script`), none piped."""
    boardlab = str(Path(sys.executable).with_name("boardlab"))
    command = [boardlab, "simulate", "sixbysix", "--games", "2", "--workers", "1"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "piped")}
    env.pop(jit.SAID, None)
    piped = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and piped.stderr == ""
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "terminal")
    shown = subprocess.run(["script", "-qec", " ".join(command), "/dev/null"], env=env, capture_output=True,
                           text=True, timeout=300)
    assert shown.returncode == 0 and shown.stdout.count(jit.MESSAGE) == 1, shown.stdout[-500:]
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "terminal")  # now compiled: read back, nothing said
    again = subprocess.run(["script", "-qec", " ".join(command), "/dev/null"], env=env, capture_output=True,
                           text=True, timeout=300)
    assert again.returncode == 0 and jit.MESSAGE not in again.stdout


def test_start_up_skips_numbas_blas_probe_and_linear_algebra_still_works():
    """numba's array math is imported without scipy.linalg (0.2 s of every command's start-up);
    a compiled np.dot, which no kernel uses, still gives numpy's answer afterwards."""
    probe = """
import sys
import numpy as np
from boardlab.analysis.jit import njit
from boardlab.analysis.blockd import kernel
print("scipy.linalg" in sys.modules)
@njit
def dot(a, b):
    return np.dot(a, b)
a = np.arange(6.0).reshape(2, 3)
print(bool((dot(a, a.T) == a @ a.T).all()), dot(np.arange(3.0), np.arange(3.0)))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "5.0"]


def test_the_compiled_code_cache_is_named_by_every_compiled_module_source():
    # a kernel calling uct.py's compiled functions must not be read back from a cache compiled
    # against an older uct.py: the folder changes with any compiled module's source
    import numba
    from pathlib import Path

    from boardlab.analysis import jit

    names = {path.relative_to(Path(jit.__file__).resolve().parent).as_posix() for path in jit.compiled_sources()}
    assert {"uct.py", "blockd/kernel.py", "links/games.py", "sixbysix/kernel.py"} <= names
    assert "report/build.py" not in names  # a change to the reports keeps the compiled code
    assert numba.config.CACHE_DIR == jit.cache_folder(str(Path(numba.config.CACHE_DIR).parent))
    assert Path(numba.config.CACHE_DIR).name.startswith("numba-")

"""The line that says the fast paths are compiling (boardlab.analysis.jit): once, on a terminal,
only while numba really compiles."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardlab.analysis import jit


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def unsaid(monkeypatch):
    monkeypatch.delenv(jit.SAID, raising=False)


def compile_for(notice: jit.CompileNotice, seconds: float) -> None:
    """What numba's compile events do around a compilation of `seconds` (one nested inside)."""
    notice.on_start(None)
    notice.on_start(None)  # a function the outer one calls, compiled with it
    time.sleep(seconds)
    notice.on_end(None)
    notice.on_end(None)


def test_a_long_compilation_is_announced_once_while_it_runs(unsaid):
    stream = Terminal()
    notice = jit.CompileNotice(stream, delay=0.2)
    notice.on_start(None)
    time.sleep(0.5)
    assert stream.getvalue() == jit.MESSAGE + "\n"  # said before the compilation ended
    notice.on_end(None)
    compile_for(notice, 0.3)
    assert stream.getvalue() == jit.MESSAGE + "\n" and os.environ[jit.SAID] == "1"


def test_short_compilations_add_up_and_quick_ones_say_nothing(unsaid):
    stream = Terminal()
    notice = jit.CompileNotice(stream, delay=0.5)
    compile_for(notice, 0.2)
    compile_for(notice, 0.2)
    assert stream.getvalue() == "" and 0.4 <= notice.spent < 0.5
    compile_for(notice, 0.3)  # the third passes the second in all
    assert stream.getvalue() == jit.MESSAGE + "\n"


def test_nothing_on_a_pipe_or_after_another_process_said_it(unsaid, monkeypatch):
    piped = io.StringIO()  # not a terminal: tests and scripts read standard error
    compile_for(jit.CompileNotice(piped, delay=0.0), 0.2)
    assert piped.getvalue() == ""
    monkeypatch.setenv(jit.SAID, "1")  # the parent process already wrote the line
    stream = Terminal()
    compile_for(jit.CompileNotice(stream, delay=0.0), 0.2)
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

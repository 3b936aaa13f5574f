"""Stopping on a signal: Ctrl-C (SIGINT), SIGTERM and SIGHUP end every command the same way.

`install()` (called by `boardlab.entry` before any heavy import) makes each of the three raise
`Stopped` in the main thread, a `KeyboardInterrupt`, so every `with` block on the way out runs:
worker pools are terminated, temporary files removed, the store's transaction rolled back.  The
command then prints one line and exits with 128 + the signal's number: 130 for Ctrl-C, 143 for
SIGTERM, 129 for SIGHUP.  After the first signal, further ones are only noted, so that the
clean-up they interrupt is never cut short (it takes well under a second).  A signal the command
was started with ignored (`nohup`, a background job without job control) stays ignored.

>>> Stopped(signal.SIGTERM).status, Stopped(signal.SIGHUP).status, status_of(KeyboardInterrupt())
(143, 129, 130)
>>> message_of(KeyboardInterrupt()), message_of(Stopped(signal.SIGTERM))
('boardlab: interrupted', 'boardlab: stopped by SIGTERM')
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType

#: the signals that stop a command
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """The command was told to stop by signal `signum`."""

    def __init__(self, signum: int | str):
        super().__init__(signum)
        # a library that re-raises the interrupt as `type(e)(message)` (reportlab's paragraph parser
        # does) gives a text here: the signal is then the one `_stop` raised for (else Ctrl-C's), so
        # the exit status and the one line stay right
        self.signum: int = signum if isinstance(signum, int) else (signalled() or signal.SIGINT)

    @property
    def status(self) -> int:
        """128 + the signal.

        >>> Stopped(signal.SIGTERM).status
        143
        """
        return 128 + self.signum


def status_of(interrupt: KeyboardInterrupt) -> int:
    """The exit status for an interrupt: 128 + its signal (a bare KeyboardInterrupt is Ctrl-C, 130)."""
    return interrupt.status if isinstance(interrupt, Stopped) else 128 + signal.SIGINT


def message_of(interrupt: KeyboardInterrupt) -> str:
    """The one line the command ends with."""
    if not isinstance(interrupt, Stopped) or interrupt.signum == signal.SIGINT:
        return "boardlab: interrupted"
    return f"boardlab: stopped by {signal.Signals(interrupt.signum).name}"


#: whether the one line has been said (by `end`, or by the exit watchdog when the way out is slow)
_said: list[bool] = []
_saying = threading.Lock()


def begin() -> None:
    """A command starts: its stop's line is not yet said (several commands run in one process in
    the tests)."""
    with _saying:
        _said.clear()


def _say_once(interrupt: KeyboardInterrupt) -> None:
    with _saying:
        if _said:
            return
        _said.append(True)
        try:
            print(message_of(interrupt), file=sys.stderr, flush=True)
        except (KeyboardInterrupt, OSError, ValueError):
            pass


def end(interrupt: KeyboardInterrupt) -> int:
    """Say the one line a stopped command ends with (if stderr still takes it, and only once); its
    exit status."""
    _say_once(interrupt)
    return status_of(interrupt)


_late: list[int] = []
#: the signal `_stop` raised for, kept in case a library catches the exception and raises its own
_raised: list[int] = []


def _note(signum: int, frame: FrameType | None) -> None:
    _late.append(signum)


def _stop(signum: int, frame: FrameType | None) -> None:
    for number in SIGNALS:  # the clean-up on the way out must not be cut short by a second signal
        if signal.getsignal(number) is _stop:
            signal.signal(number, _note)
    _raised.append(signum)
    raise Stopped(signum)


def signalled() -> int | None:
    """The signal a stop was raised for in this process, if any (also when the `Stopped` was since
    swallowed: a KeyboardInterrupt inside an extension module's initialisation comes out as
    "ImportError: initialization failed", which an optional import then catches)."""
    return _raised[0] if _raised else None


def reraise_swallowed() -> None:
    """Raise `Stopped` again if a signal's `Stopped` was caught on its way out by a library that
    raised an error of its own instead (reportlab, interrupted while opening a font, raises
    "Cannot open resource"; an extension module interrupted in its initialisation, "ImportError:
    initialization failed"): the command then ends as interrupted, not as bad input.  Long loops
    (the worker pool's, the runner's) call it too, so that a stop an optional import swallowed
    whole still ends the command (the first signal had already made later ones only noted)."""
    if _raised:
        raise Stopped(_raised[0])


def exit_within(seconds: float, signum: int | None = None) -> None:
    """A stop (by `signum`, else the signal `_stop` raised for, else Ctrl-C) is on its way out: if
    the process still runs `seconds` from now (a library's thread holding up the interpreter's
    shutdown, or a machine so loaded that the way out is slow), end it then, with the stop's one
    line (unless already said) and exit status.  Everything of ours (temporary files, the store's
    transaction) is undone on the way out well before."""
    import os

    def watchdog() -> None:
        import time

        time.sleep(seconds)
        number = signum if signum is not None else (_raised[0] if _raised else signal.SIGINT)
        _say_once(Stopped(number))
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(128 + number)

    threading.Thread(target=watchdog, name="boardlab-exit-watchdog", daemon=True).start()


#: Python's hook for exceptions it can only report (sys.unraisablehook)
UnraisableHook = Callable[["sys.UnraisableHookArgs"], object]  # a name of typeshed only


def _unraisable(previous: UnraisableHook) -> UnraisableHook:
    """A hook for exceptions Python can only report ("Exception ignored in ..."): a `Stopped` raised
    where nothing can catch it (a signal landing in logging's fork handler, a finaliser, a gc
    callback) is the stop itself, not news: it is dropped, and `reraise_swallowed` ends the command
    as stopped; anything else goes to the previous hook."""
    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt) and _raised:
            return
        previous(unraisable)
    hook.boardlab = True  # type: ignore[attr-defined]
    return hook


def install() -> None:
    """Answer SIGINT, SIGTERM and SIGHUP by raising `Stopped` (except those inherited as ignored);
    a stop raised where Python can only report it is not printed (`_unraisable`)."""
    if threading.current_thread() is not threading.main_thread():
        return
    if not getattr(sys.unraisablehook, "boardlab", False):
        sys.unraisablehook = _unraisable(sys.unraisablehook)
    for number in SIGNALS:
        if signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, _stop)


def ignore_all() -> None:
    """The work is done: a late signal cannot cut the exit short."""
    for number in SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def for_worker() -> None:
    """In a worker process: Ctrl-C is the main process's to answer (ignored here); SIGTERM and
    SIGHUP end the worker at once and quietly (their default actions, no Python handler); and the
    worker ends with its parent (Linux: PR_SET_PDEATHSIG), even when the parent was killed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()


def _die_with_parent() -> None:
    import os

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the call: nobody will send the signal
        os._exit(1)


@contextlib.contextmanager
def helpers_ignore_ctrl_c() -> Iterator[None]:
    """Processes that multiprocessing spawns inside the block (a Dask LocalCluster's workers)
    start with SIGINT and SIGHUP ignored: a terminal's Ctrl-C reaches every process of the group,
    and only the main process must answer it (it then closes the helpers itself; SIGTERM, which
    is how they are closed, keeps its default).  Spawned processes run a small /bin/sh wrapper
    around this interpreter (`trap '' INT HUP`, then exec): an ignored signal is inherited
    through exec, and Python keeps it ignored."""
    import multiprocessing.spawn as spawn
    import os
    import shlex
    import shutil
    import tempfile

    previous = spawn.get_executable()
    folder = tempfile.mkdtemp(prefix="boardlab-spawn-")
    try:
        wrapper = os.path.join(folder, "python")
        with open(wrapper, "w", encoding="utf-8") as script:
            script.write(f"#!/bin/sh\ntrap '' INT HUP\nexec {shlex.quote(os.fsdecode(previous))} \"$@\"\n")
        os.chmod(wrapper, 0o700)
        spawn.set_executable(wrapper)
        _quiet_resource_tracker()
        yield
    finally:
        spawn.set_executable(previous)
        shutil.rmtree(folder, ignore_errors=True)


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (a process of its own) with its warnings off: after a
    stop, whose clean-up kills the helpers instead of closing them, it would otherwise print "leaked
    semaphore objects" under the command's one line.  (It still removes what they leave.)  Its
    command line takes the -W options of `sys.warnoptions`."""
    from multiprocessing import resource_tracker

    quiet = "ignore::UserWarning:multiprocessing.resource_tracker"
    sys.warnoptions.append(quiet)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(quiet)


class Deferred:
    """Signals noted, to be answered where the code says it is safe (`check`)."""

    def __init__(self) -> None:
        self.caught: list[int] = []
        #: the handlers outside the deferred block (empty outside the main thread: nothing deferred)
        self.previous: dict[signal.Signals, Callable[[int, FrameType | None], object] | int | None] = {}

    def note(self, signum: int, frame: FrameType | None) -> None:
        self.caught.append(signum)

    def check(self) -> None:
        """Raise `Stopped` if a stopping signal arrived."""
        if self.caught:
            raise Stopped(self.caught[0])

    @contextlib.contextmanager
    def outside(self) -> Iterator[None]:
        """Inside this block a signal acts at once, as outside the deferred block: for the code
        between the library's calls that is not the library's (a generator's `yield`: its consumer
        saving a block, a report's next phase, may run for seconds while the generator waits, and
        a Ctrl-C then was answered only when the generator was next resumed).  A signal noted
        before is answered on entry; the deferring is back on a normal exit."""
        self.check()
        for number, handler in self.previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        yield  # a stop raised inside leaves the handlers as the stop set them (later signals only noted)
        for number, handler in self.previous.items():
            if handler is not signal.SIG_IGN:
                signal.signal(number, self.note)


@contextlib.contextmanager
def deferred() -> Iterator[Deferred]:
    """Inside the block a stopping signal is only noted; `check()` on the object it gives raises
    `Stopped` at a point the code chose.  For libraries that must not be interrupted anywhere
    (Dask's client holds locks across its calls: a KeyboardInterrupt in the middle leaves it
    deadlocked); the code waits in short steps and checks between them.  Outside the main
    thread, nothing is deferred (check never raises)."""
    state = Deferred()
    if threading.current_thread() is not threading.main_thread():
        yield state
        return
    previous = {number: signal.getsignal(number) for number in SIGNALS}
    state.previous = previous
    for number, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, state.note)
    try:
        yield state
    finally:
        for number, handler in previous.items():
            if handler is _stop and (state.caught or _raised):
                handler = _note  # stopping: the clean-up on the way out is not cut short
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
    state.check()


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold the stopping signals until the block is over, then stop: a few renames or a commit
    (milliseconds) are never cut in the middle.  Outside the main thread, nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {signal.Signals(number): signal.getsignal(number) for number in SIGNALS}
    for number, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(number, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
    if caught:
        first = caught[0]
        handler = previous[signal.Signals(first)]
        if callable(handler):  # _stop, or Python's own default_int_handler: raises
            handler(first, None)
        elif handler == signal.SIG_DFL:
            signal.raise_signal(first)

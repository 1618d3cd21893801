"""Stopping a run from outside: Ctrl-C (SIGINT), SIGTERM (a batch system's or ``kill``'s) and SIGHUP (a closed
terminal) all stop it the same way. Inside a run, the first one sets a flag checked between chunks (:class:`StopFlag`):
the chunk in flight finishes (or, on a backend that cannot wait, is dropped; a checkpoint never holds part of one),
the summary of the games finished is printed, and the command exits with 128 + the signal's number (130, 143, 129).
A second signal stops at once. Outside a run's chunk loop a signal raises :class:`Interrupted`, a KeyboardInterrupt
that remembers its exit code, so every command's Ctrl-C handling covers the other two as well."""

from __future__ import annotations

import contextlib
import signal
import threading

# the signals that stop a run, and the exit code each leaves (128 + its number, as a shell reports it)
STOP_SIGNALS = {signal.SIGINT: 130, signal.SIGTERM: 143}
if hasattr(signal, "SIGHUP"):  # pragma: no branch - POSIX
    STOP_SIGNALS[signal.SIGHUP] = 129


class Interrupted(KeyboardInterrupt):
    """A stop by signal ``signum`` (a KeyboardInterrupt, so code that handles Ctrl-C handles it too)."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def code(self) -> int:
        return exit_code(self.signum)


def exit_code(signum: int | None) -> int:
    """The exit code of a run stopped by ``signum`` (None or unknown: Ctrl-C's 130)."""
    return STOP_SIGNALS.get(signum, 130) if signum is not None else 130


def code_of(exc: BaseException | None) -> int:
    """The exit code for a KeyboardInterrupt (or an exception caused by one, as click wraps it)."""
    while exc is not None:
        if isinstance(exc, Interrupted):
            return exc.code
        if isinstance(exc, KeyboardInterrupt):
            return 130
        exc = exc.__cause__ or exc.__context__
    return 130


def stopped_by(exc: BaseException | None) -> str | None:
    """The name of the signal behind ``exc`` (a KeyboardInterrupt, or an exception caused by one), else None."""
    while exc is not None:
        if isinstance(exc, Interrupted):
            return signal.Signals(exc.signum).name
        if isinstance(exc, KeyboardInterrupt):
            return "SIGINT"
        exc = exc.__cause__ or exc.__context__
    return None


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def signals_interrupt():
    """Inside the block SIGTERM and SIGHUP raise :class:`Interrupted` as Ctrl-C raises KeyboardInterrupt (the
    command line wraps every command in it)."""
    if not _in_main_thread():
        yield
        return

    def handle(signum, frame):
        raise Interrupted(signum)

    old = {s: signal.signal(s, handle) for s in STOP_SIGNALS if s != signal.SIGINT}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


class StopFlag:
    """``with StopFlag() as flag:`` the first stop signal sets ``flag.stop`` (and ``flag.signum``), checked between
    chunks, instead of raising inside one; a second raises :class:`Interrupted` at once."""

    def __init__(self):
        self.stop = False
        self.signum: int | None = None
        self._old: dict = {}

    def __enter__(self):
        if _in_main_thread():
            self._old = {s: signal.signal(s, self._handle) for s in STOP_SIGNALS}
        return self

    def _handle(self, signum, frame):
        if self.stop:  # a second signal stops at once
            raise Interrupted(signum)
        self.stop, self.signum = True, signum

    @property
    def code(self) -> int:
        return exit_code(self.signum)

    def __exit__(self, *exc):
        for s, h in self._old.items():
            signal.signal(s, h)
        return False

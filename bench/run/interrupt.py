"""Stopping a run: the first of :data:`STOPS` (SIGINT, SIGTERM, SIGHUP, SIGQUIT) becomes
:class:`Interrupted` in the main thread; the runner then starts no further task and kills the
running ones, which raise :class:`TaskInterrupted` instead of giving a result (nothing false is
journaled, and a resumed run runs them); the command writes the Parquet of what finished and
says how to resume."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

#: the signals that stop a run cleanly: Ctrl-C, SIGTERM, SIGHUP (its terminal closed, or the
#: ssh session that ran it ended) and SIGQUIT (Ctrl-\, whose default would end the run at
#: once with a core dump, its running tasks left to the watchdog and its table unwritten)
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

#: the stops taken over even where the process started with them ignored: a shell ignores
#: SIGINT in every background job of a script by itself (so that Ctrl-C ends the script, not
#: its jobs), where a run still stops on ``kill -INT``. Every other stop found ignored (SIGHUP
#: under ``nohup``, SIGQUIT in a script's background job, a ``trap '' TERM``) stays ignored:
#: whoever started the run chose that it survives it.
TAKEN_WHEN_IGNORED = frozenset({signal.SIGINT})


class TaskInterrupted(Exception):
    """The run was stopped (:class:`Interrupted`) before this task finished: it has no result
    and is not journaled, so a resumed run runs it."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal (one of :data:`STOPS`): ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def wrapped_interrupt(error: BaseException) -> Interrupted | None:
    """The interrupt that ``error`` was raised *from* (its chain of ``__cause__``), as an
    :class:`Interrupted`, when a Ctrl-C (or a handled SIGTERM) is in it; else None. Python
    wraps an exception raised in some callbacks: on 3.11 a signal arriving while a class
    body's ``__set_name__`` runs (a dataclass field, during an import) surfaces as
    "RuntimeError: Error calling __set_name__", caused by the interrupt. An error raised
    while an interrupt was being handled (the interrupt only its ``__context__``) is an
    error of its own, not an interrupt."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return Interrupted(int(getattr(cause, "signum", 0) or signal.SIGINT))
        seen.add(id(cause))
        cause = cause.__cause__
    return None


@dataclass
class Stop:
    """The signal state inside :func:`stop_on_signals`: ``fired`` is the first signal caught
    (0: none yet); while ``raising``, catching it raises :class:`Interrupted`, afterwards
    (:meth:`settle`) it is only recorded, for the code that reads ``fired`` at its end."""

    fired: int = 0
    raising: bool = True

    def settle(self) -> None:
        """From now on a signal is recorded, not raised: what had to be kept is kept."""
        self.raising = False

    def handle(self, signum: int, frame: object) -> None:
        if self.fired:
            return
        self.fired = signum
        if self.raising:
            raise Interrupted(signum)


@contextlib.contextmanager
def unraised_kept(stop: Stop) -> Iterator[None]:
    """While inside, an :class:`Interrupted` that Python could not raise (the signal arrived in
    a callback run by the garbage collector, such as an import lock's, where Python prints
    "Exception ignored" and drops the exception: ``sys.unraisablehook``) is left unprinted:
    the signal stays in ``stop.fired`` for the code that reads it. Everything else goes to
    the hook there was."""
    import sys

    before = sys.unraisablehook

    def hook(unraisable: object) -> None:
        if not (stop.fired and isinstance(getattr(unraisable, "exc_value", None),
                                          KeyboardInterrupt)):
            before(unraisable)  # type: ignore[arg-type]

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = before


@contextlib.contextmanager
def stop_on_signals(signums: Sequence[int] = STOPS, deaf: bool = False) -> Iterator[Stop]:
    """While inside, the first of these signals raises :class:`Interrupted` in the main
    thread (or, once :meth:`Stop.settle` was called, is only recorded) and later ones are
    ignored, so a second Ctrl-C cannot cut short the clean-up (the running tasks killed, the
    Parquet written). On leaving, the previous handlers are restored; with ``deaf`` (a
    command that ends with the signal's exit code), once a signal fired these signals stay
    ignored instead. Inside another ``stop_on_signals`` it is that one: the same
    :class:`Stop`, raising again unless a signal fired, and nothing done on leaving for the
    outer one's signals (it owns their handlers until its end, so no signal falls between the
    two); a signal the outer one does not take is taken by that :class:`Stop` while inside,
    and left as the outer one would leave it (a command that takes SIGTERM only once it runs
    a task, inside the command line's Ctrl-C handler). A signal found
    ignored (``SIG_IGN``) is left ignored, but for those of :data:`TAKEN_WHEN_IGNORED`: a run
    under ``nohup`` survives its hangup. Outside the main thread (where Python delivers no
    signal) nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield Stop()
        return
    current = {n: signal.getsignal(n) for n in signums}
    outer = next((s for h in current.values()
                  if isinstance(s := getattr(h, "__self__", None), Stop)), None)
    if outer is not None:
        outer.raising = not outer.fired
        taken = {n: signal.signal(n, outer.handle) for n, h in current.items()
                 if getattr(h, "__self__", None) is not outer
                 and (h is not signal.SIG_IGN or n in TAKEN_WHEN_IGNORED)}
        try:
            yield outer
        finally:
            for n, h in taken.items():
                signal.signal(n, signal.SIG_IGN if deaf and outer.fired else h)
        return
    stop = Stop()
    old = {n: signal.signal(n, stop.handle) for n, h in current.items()
           if h is not signal.SIG_IGN or n in TAKEN_WHEN_IGNORED}
    try:
        yield stop
    finally:
        stop.settle()  # no signal raises between the handlers' restores
        for n, h in old.items():
            signal.signal(n, signal.SIG_IGN if deaf and stop.fired else h)

"""Stopping a run: the first SIGINT or SIGTERM becomes :class:`Interrupted` in the main
thread; the runner then starts no further task and kills the running ones, which raise
:class:`TaskInterrupted` instead of giving a result (nothing false is journaled, and a resumed
run runs them); the command writes the Parquet of what finished and says how to resume."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator, Sequence


class TaskInterrupted(Exception):
    """The run was stopped (:class:`Interrupted`) before this task finished: it has no result
    and is not journaled, so a resumed run runs it."""



class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal (SIGINT, SIGTERM): ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals(signums: Sequence[int] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """While inside, the first of these signals raises :class:`Interrupted` in the main
    thread and later ones are ignored, so a second Ctrl-C cannot cut short the clean-up (the
    running tasks killed, the Parquet written); on leaving, the previous handlers are restored,
    or, once a signal fired, these signals stay ignored until the process exits with its code.
    Outside the main thread (where Python delivers no signal) nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum: int, frame: object) -> None:
        if not fired:
            fired.append(signum)
            raise Interrupted(signum)

    old = {n: signal.signal(n, handler) for n in signums}
    try:
        yield
    finally:
        for n, h in old.items():  # once stopped, stay deaf: the command is ending with its code
            signal.signal(n, signal.SIG_IGN if fired else h)

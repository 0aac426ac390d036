"""The signal state of a run (bench/run/interrupt.py): the first signal raises, later ones are
ignored; once settled a signal is only recorded; a nested ``stop_on_signals`` is the outer one,
so no signal falls into a gap between a session's end and its command's. Real signals, sent to
this process."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pandas as pd
import pytest

from bench.run.interrupt import Interrupted, stop_on_signals
from bench.run.plan import make_plan
from bench.run.session import run_session
from tests.conftest import SHIKAKU_SEEDS


@pytest.fixture(autouse=True)
def handlers() -> Iterator[None]:
    """The test process's own handlers back after each test (a fired stop leaves SIG_IGN)."""
    old = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    yield
    for n, h in old.items():
        signal.signal(n, h)


def deliver(signum: int) -> None:
    """Send ``signum`` to this process and give Python a few bytecodes to run its handler."""
    os.kill(os.getpid(), signum)
    for _ in range(100):
        time.sleep(0.001)


def test_the_first_signal_raises_and_later_ones_are_ignored_until_the_process_ends():
    with pytest.raises(Interrupted) as e, stop_on_signals() as stop:
        deliver(signal.SIGTERM)
    assert e.value.signum == stop.fired == signal.SIGTERM
    with stop_on_signals():
        pass  # nothing fired: the handler before is back
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # the fired stop's state
    deliver(signal.SIGINT)  # ignored, no exception


def test_a_settled_stop_records_the_signal_without_raising():
    with stop_on_signals() as stop:
        stop.settle()
        deliver(signal.SIGINT)
        deliver(signal.SIGTERM)
    assert stop.fired == signal.SIGINT  # the first one; the process's command ends with it


def test_a_nested_stop_is_the_outer_one_and_leaves_its_handler_in_place():
    with stop_on_signals() as outer:
        with stop_on_signals() as inner:
            assert inner is outer
        assert signal.getsignal(signal.SIGINT) == outer.handle
        with pytest.raises(Interrupted):
            deliver(signal.SIGINT)
    assert outer.fired == signal.SIGINT


def test_a_signal_after_the_sessions_table_is_written_is_recorded_for_the_caller(tmp_path):
    """The gap the ``run`` command closes: a signal between the session's end and the
    command's raised KeyboardInterrupt there, which the command took for a stop before the run
    began ("nothing was run") though every result was kept."""
    planned = make_plan(None, [str(SHIKAKU_SEEDS[0])], formulations=["cpsat-cover"],
                        solvers=["cpsat"], time_limit=20.0)
    with stop_on_signals() as stop:
        outcome = run_session(planned, tmp_path / "r")
        deliver(signal.SIGINT)  # as the command reads the outcome
    assert outcome.signum == 0 and stop.fired == signal.SIGINT
    assert outcome.table is not None and len(pd.read_parquet(outcome.table)) == 1

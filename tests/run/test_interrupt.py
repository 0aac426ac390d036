"""The signal state of a run (bench/run/interrupt.py): the first signal raises, later ones are
ignored; once settled a signal is only recorded; a nested ``stop_on_signals`` is the outer one,
so no signal falls into a gap between a session's end and its command's. Real signals, sent to
this process."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator

import pandas as pd
import pytest

from bench.run.interrupt import Interrupted, stop_on_signals
from bench.run.plan import make_plan
from bench.run.session import run_session
from tests.conftest import SHIKAKU_SEEDS


@pytest.fixture(autouse=True)
def handlers() -> Iterator[None]:
    """The test process's own handlers back after each test (a fired deaf stop leaves
    SIG_IGN)."""
    old = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                                            signal.SIGQUIT)}
    yield
    for n, h in old.items():
        signal.signal(n, h)


def deliver(signum: int) -> None:
    """Send ``signum`` to this process and give Python a few bytecodes to run its handler."""
    os.kill(os.getpid(), signum)
    for _ in range(100):
        time.sleep(0.001)


def test_the_first_signal_raises_and_later_ones_are_ignored_while_inside():
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(Interrupted) as e, stop_on_signals() as stop:
        deliver(signal.SIGTERM)
        deliver(signal.SIGINT)  # ignored: the clean-up is not cut short
    assert e.value.signum == stop.fired == signal.SIGTERM
    assert signal.getsignal(signal.SIGINT) is before  # a library caller gets its handler back


def test_a_deaf_stop_that_fired_leaves_the_signals_ignored_until_the_process_ends():
    with stop_on_signals(deaf=True):
        pass  # nothing fired: the handler before is back
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    with pytest.raises(Interrupted), stop_on_signals(deaf=True):
        deliver(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
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
            inner.settle()
        assert signal.getsignal(signal.SIGINT) == outer.handle
        # a second session under the same command raises again
        with stop_on_signals(), pytest.raises(Interrupted):
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


RUN = ["run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--solver", "cpsat",
       "--time-limit", "20"]


def test_a_sigterm_while_the_command_prints_its_summary_ends_it_with_143_and_the_kept_line(
        tmp_path, monkeypatch, capsys):
    """The run command, in this process: the signal comes after the session wrote its table,
    as the summary is printed."""
    import bench.cli.run as run_cli
    from bench.cli import main

    summary = run_cli._run_summary

    def summary_then_signal(*args: object) -> int:
        code = summary(*args)  # type: ignore[arg-type]
        deliver(signal.SIGTERM)
        return code

    monkeypatch.setattr(run_cli, "_run_summary", summary_then_signal)
    code = main([*RUN, "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 143, err
    assert "terminated (SIGTERM): 1 finished results kept in" in err, err
    assert "nothing was run" not in err
    assert len(pd.read_parquet(tmp_path / "r" / "results.parquet")) == 1


def test_a_sigterm_before_the_session_takes_the_folder_ends_with_143(tmp_path, monkeypatch,
                                                                     capsys):
    """The signal as the session takes the folder's lock (the lock not taken)."""
    import bench.run.session as session
    from bench.cli import main

    monkeypatch.setattr(session.RunLock, "__enter__", lambda self: deliver(signal.SIGTERM))
    code = main([*RUN, "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 143, err
    assert "terminated before the run started: nothing was run" in err, err


def _signal_inside_a_collector_callback() -> None:
    """A SIGINT that arrives while a weakref callback runs (as an import lock's does): Python
    cannot raise the handler's exception there and hands it to ``sys.unraisablehook``."""
    import weakref

    class Thing:
        pass

    def callback(ref: object) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # bytecode for the handler to run in
            pass

    thing = Thing()
    ref = weakref.ref(thing, callback)
    del thing
    assert ref() is None


def test_a_signal_whose_exception_python_dropped_is_kept_and_not_printed(capfd):
    from bench.run.interrupt import unraised_kept

    with stop_on_signals() as stop, unraised_kept(stop):
        _signal_inside_a_collector_callback()  # no exception here: Python dropped it
    assert stop.fired == signal.SIGINT
    assert "Exception ignored" not in capfd.readouterr().err


def test_the_command_line_acts_on_a_signal_whose_exception_python_dropped(capfd, monkeypatch):
    # the signal arrives inside a collector callback while the command starts: the command
    # still ends with 130 and one line, no "Exception ignored" traceback, nothing listed
    import bench.cli
    from bench.cli import main

    build = bench.cli.parser

    def marked(argv: list[str] | None = None):  # type: ignore[no-untyped-def]
        _signal_inside_a_collector_callback()
        return build(argv)

    monkeypatch.setattr(bench.cli, "parser", marked)
    assert main(["list", "--json"]) == 130
    err = capfd.readouterr().err
    assert err.splitlines() == ["puzzlebench: interrupted"]


def _raised(make: Callable[[], None]) -> BaseException:
    try:
        make()
    except BaseException as e:  # the chain under test
        return e
    raise AssertionError("nothing raised")


def test_an_interrupt_is_found_where_an_error_was_raised_from_it_and_only_there():
    from bench.run.interrupt import wrapped_interrupt

    def wrapped() -> None:  # as Python 3.11 wraps an interrupt raised in __set_name__
        try:
            raise Interrupted(signal.SIGTERM)
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__") from e

    def twice() -> None:
        try:
            wrapped()
        except RuntimeError as e:
            raise ValueError("again") from e

    def during() -> None:  # an error of its own while a Ctrl-C was handled
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise OSError(28, "No space left on device") from None

    def context_only() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise OSError(28, "No space left on device")  # noqa: B904

    found = wrapped_interrupt(_raised(wrapped))
    assert isinstance(found, Interrupted) and found.signum == signal.SIGTERM
    found = wrapped_interrupt(_raised(twice))
    assert found is not None and found.signum == signal.SIGTERM
    found = wrapped_interrupt(KeyboardInterrupt())
    assert found is not None and found.signum == signal.SIGINT
    assert wrapped_interrupt(_raised(during)) is None
    assert wrapped_interrupt(_raised(context_only)) is None
    assert wrapped_interrupt(ValueError("plain")) is None


def test_a_stop_found_ignored_stays_ignored_but_sigint():
    """``nohup`` ignores SIGHUP, a script's background job SIGQUIT (and SIGINT, which a run
    still takes: the shell ignores it by itself)."""
    for n in (signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(n, signal.SIG_IGN)
    with stop_on_signals(deaf=True) as stop:
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGQUIT) is signal.SIG_IGN
        deliver(signal.SIGHUP)
        deliver(signal.SIGQUIT)
        assert not stop.fired
        with stop_on_signals() as inner:  # nested: still the outer one, found by SIGINT
            assert inner is stop
        with pytest.raises(Interrupted):
            deliver(signal.SIGINT)
    assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN


def test_a_nested_stop_finds_the_outer_one_by_any_of_its_signals():
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with stop_on_signals((signal.SIGTERM, signal.SIGHUP)) as outer, \
            stop_on_signals((signal.SIGTERM, signal.SIGHUP)) as inner:
        assert inner is outer

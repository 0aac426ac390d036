"""Argument types, the task options shared by commands (``solve``, ``run``), and the one-line
error every command ends with on bad input."""

from __future__ import annotations

import argparse
import sys


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return v


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return v


def add_task_options(sp: argparse.ArgumentParser, time_default: float | None) -> None:
    """The options of one task: limits, seed, threads, solution count, process start."""
    sp.add_argument("--time-limit", type=positive_float, default=time_default,
                    metavar="SECONDS",
                    help="wall-clock limit of build + solve" + (
                        f" (default {time_default:g})" if time_default is not None else ""))
    sp.add_argument("--memory-limit", type=positive_int, default=8192, metavar="MB",
                    help="peak RSS of the task's process tree (default 8192)")
    sp.add_argument("--seed", type=int, default=0,
                    help="the solver's random seed, where the solver takes one (default 0)")
    sp.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    sp.add_argument("--count", type=int, default=0, metavar="N",
                    help="count solutions up to N (projected onto cell values)")
    sp.add_argument("--start", choices=("fork", "spawn"), default=None,
                    help="task processes forked from a pre-imported process (default "
                    "where the OS forks) or spawned as fresh interpreters")


def add_pin_option(sp: argparse.ArgumentParser) -> None:
    """``--pin``: each task process on a core of its own (:mod:`bench.run.pin`)."""
    sp.add_argument("--pin", action="store_true",
                    help="pin each task process to its own core (worker slot i on the i-th "
                    "usable core, os.sched_setaffinity; needs --jobs <= the usable cores; "
                    "local pool only: a Dask cluster's tasks are not pinned)")


def fail(message: str) -> int:
    """Print ``puzzlebench: MESSAGE`` on stderr; the exit code of bad input (2)."""
    print(f"puzzlebench: {message}", file=sys.stderr)
    return 2

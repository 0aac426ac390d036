"""Argument types, the task options shared by commands (``solve``, ``run``), and the one-line
error every command ends with on bad input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from bench.bounds import MAX_INT64, MAX_JOBS, MAX_MEMORY_MB, MAX_RUNS, MAX_SEED, MAX_THREADS


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return v


def interval_seconds(text: str) -> float:
    """An argument type: a finite number of seconds, 0 or more (0: never), else a one-line
    argparse error (nan, inf and negative numbers are refused, not read as 0)."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= v < float("inf"):
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds, 0 or more (0: none), not {text}")
    return v


def path_arg(what: str) -> Callable[[str], str]:
    """An argument type: a path as given, refusing the empty one (``Path("")`` is the current
    folder: an empty ``--out`` would write there, an empty input would read it) with a
    one-line argparse error naming ``what`` it should be."""

    def parse(text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError(f"an empty path names no {what}")
        return text

    return parse


def bounded_int(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argument type: an integer in ``low .. high``, else a one-line argparse error naming
    the range (and ``what`` it is)."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if not low <= v <= high:
            # the 64-bit top is named only to a value past it ("at least 1" misleads there)
            span = f"at least {low}" if high == MAX_INT64 and v < low else f"{low} .. {high}"
            raise argparse.ArgumentTypeError(
                f"must be {span}{f' ({what})' if what else ''}, not {text}")
        return v

    return parse


#: ``run --jobs``: tasks at a time, each a process (:data:`bench.bounds.MAX_JOBS`)
jobs_count = bounded_int(1, MAX_JOBS, "a process each: the most a Linux system holds")
#: ``run --repeat`` and ``--seeds``: the runs of each task (:data:`bench.bounds.MAX_RUNS`)
runs_count = bounded_int(1, MAX_RUNS, "every run of every task is planned before any starts")


def runs_problem(seed: int, seeds: int, repeat: int) -> str:
    """Why ``--seed``, ``--seeds`` and ``--repeat`` together cannot run ("" when they can):
    the seeds past :data:`MAX_SEED`, or more than :data:`MAX_RUNS` runs of each task."""
    if seeds * repeat > MAX_RUNS:
        return (f"--repeat {repeat} --seeds {seeds} runs each task {seeds * repeat} times, "
                f"more than {MAX_RUNS} (every run of every task is planned before any starts)")
    return seeds_past(seed, seed + seeds - 1, f"--seeds {seeds}")


def seeds_past(seed: int, top: int, how: str) -> str:
    """The line of a run whose seeds reach past :data:`MAX_SEED` ("" when ``top``, its largest
    seed, does not): ``--seed SEED HOW runs seeds up to TOP, past MAX_SEED ...``."""
    if top <= MAX_SEED:
        return ""
    return (f"--seed {seed} {how} runs seeds up to {top}, past {MAX_SEED} (the largest every "
            "seeded solver takes)")


def add_task_options(sp: argparse.ArgumentParser, time_default: float | None) -> None:
    """The options of one task: limits, seed, threads, solution count, process start."""
    sp.add_argument("--time-limit", type=positive_float, default=time_default,
                    metavar="SECONDS",
                    help="wall-clock limit of build + solve" + (
                        f" (default {time_default:g})" if time_default is not None else ""))
    sp.add_argument("--memory-limit", type=bounded_int(1, MAX_MEMORY_MB, "MB"), default=8192,
                    metavar="MB", help=f"peak RSS of the task's process tree, 1 .. "
                    f"{MAX_MEMORY_MB} (default 8192)")
    sp.add_argument("--seed", type=bounded_int(0, MAX_SEED, "every seeded solver takes it"),
                    default=0, help=f"the solver's random seed, where the solver takes one, "
                    f"0 .. {MAX_SEED} (a 32-bit int; CBC is given the seed + 1) (default 0)")
    sp.add_argument("--threads", type=bounded_int(1, MAX_THREADS), default=1,
                    help="solver threads, at least 1 (default 1)")
    sp.add_argument("--count", type=bounded_int(0, MAX_INT64), default=0, metavar="N",
                    help="count solutions up to N (projected onto cell values; default 0: "
                    "no counting)")
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

"""Argument types, the task options shared by commands (``solve``, ``run``), and the one-line
error every command ends with on bad input."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


def positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return v


#: the largest solver seed: every seeded solver takes a 32-bit int (CP-SAT ``random_seed``,
#: HiGHS ``random_seed`` and SCIP ``randomization/randomseedshift`` 0 .. 2**31-1), and CBC's
#: ``-randomCbcSeed`` and Exact are given the seed + 1
MAX_SEED = 2**31 - 2
#: the largest memory limit in MB: 2**37 MB is 2**57 bytes, the largest virtual address
#: space of a Linux process (x86-64 with 5-level paging)
MAX_MEMORY_MB = 2**37
#: the largest thread count: the solvers' thread options are 32-bit ints (CP-SAT
#: ``num_workers``, HiGHS ``threads``, SCIP ``lp/threads``)
MAX_THREADS = 2**31 - 1
#: the largest integer a results table holds (a signed 64-bit Parquet column)
MAX_INT64 = 2**63 - 1


def bounded_int(low: int, high: int, what: str = "") -> Callable[[str], int]:
    """An argument type: an integer in ``low .. high``, else a one-line argparse error naming
    the range (and ``what`` it is)."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if not low <= v <= high:
            span = f"at least {low}" if high == MAX_INT64 else f"{low} .. {high}"
            raise argparse.ArgumentTypeError(
                f"must be {span}{f' ({what})' if what else ''}, not {text}")
        return v

    return parse


def positive_int(text: str) -> int:
    """An integer of at least 1 that a results table holds (at most 2**63 - 1)."""
    return bounded_int(1, MAX_INT64)(text)


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

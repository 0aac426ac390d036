"""The `puzzlebench` command: the parser and :func:`main`; each command is a module beside this
one (list: :mod:`bench.cli.listing`, solve, run, report, compare, import/export:
:mod:`bench.cli.interchange`, generate)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

log = logging.getLogger("puzzlebench")


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


def parser() -> argparse.ArgumentParser:
    """The command line. Over 60 lines: one declarative argparse block per command, kept
    together so the whole interface reads in one place."""
    p = argparse.ArgumentParser(prog="puzzlebench", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", required=True)
    from bench.cli import compare, generate, interchange, listing, report, run, solve

    ls = sub.add_parser("list", help="formulations, solvers and suites")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--suites", action="store_true", help="list the suites")
    ls.set_defaults(func=listing.cmd_list)

    def limits(sp: argparse.ArgumentParser, time_default: float | None) -> None:
        sp.add_argument("--time-limit", type=positive_float, default=time_default,
                        metavar="SECONDS")
        sp.add_argument("--memory-limit", type=positive_int, default=8192, metavar="MB",
                        help="peak RSS of the task's process tree (default 8192)")
        sp.add_argument("--seed", type=int, default=0)
        sp.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
        sp.add_argument("--count", type=int, default=0, metavar="N",
                        help="count solutions up to N (projected onto cell values)")
        sp.add_argument("--start", choices=("fork", "spawn"), default=None,
                        help="task processes forked from a pre-imported process (default "
                        "where the OS forks) or spawned as fresh interpreters")

    so = sub.add_parser("solve", help="solve one instance file")
    so.add_argument("instance")
    so.add_argument("--json", action="store_true")
    so.add_argument("--formulation", help="name or name[key=value] (default: the fastest known)")
    so.add_argument("--solver")
    limits(so, 60.0)
    so.set_defaults(func=solve.cmd_solve)

    ru = sub.add_parser("run", help="run a suite or instance files over every formulation "
                        "x solver")
    ru.add_argument("instances", nargs="*", metavar="PATH",
                    help="instance files, folders (their *.txt) or globs, besides --suite")
    ru.add_argument("--suite")
    ru.add_argument("--out", metavar="DIR", help="the run folder (required unless --dry-run)")
    ru.add_argument("--puzzle", action="append")
    ru.add_argument("--formulation", action="append")
    ru.add_argument("--solver", action="append")
    ru.add_argument("--jobs", type=positive_int, default=None,
                    help="tasks at a time (<= cores; default 1); with --executor dask and no "
                    "--scheduler, the local cluster's single-threaded workers (default: one "
                    "per core)")
    ru.add_argument("--executor", choices=("local", "dask"), default="local",
                    help="run tasks here (default) or on a Dask cluster (extra 'dask')")
    ru.add_argument("--scheduler", metavar="ADDRESS",
                    help="Dask scheduler, e.g. tcp://HOST:8786 (default: start a LocalCluster)")
    ru.add_argument("--repeat", type=positive_int, default=1, metavar="N",
                    help="run every task N times with the same seed (timing noise)")
    ru.add_argument("--seeds", type=positive_int, default=1, metavar="K",
                    help="run every task with solver seeds SEED .. SEED+K-1 (solver variance)")
    ru.add_argument("--dry-run", action="store_true",
                    help="print the plan (tasks per puzzle and pair, worst-case time at the "
                    "limit) and run nothing")
    ru.add_argument("--estimate", action="append", metavar="RUN_DIR",
                    help="with --dry-run: estimate the time from these earlier runs' times")
    limits(ru, None)
    ru.set_defaults(func=run.cmd_run)

    rp = sub.add_parser("report", help="write reports/<run>/index.html and summary.md")
    rp.add_argument("results", metavar="RESULTS_DIR")
    rp.add_argument("--out", metavar="REPORT_DIR")
    rp.add_argument("--instance", action="append", metavar="PATTERN",
                    help="add a per-instance table for instance names matching PATTERN")
    rp.add_argument("--scatter", action="append", metavar="PAIR",
                    help="twice: the two 'formulation / solver' pairs of the scatter plot "
                    "(default: the two best)")
    rp.set_defaults(func=report.cmd_report)
    cp = sub.add_parser("compare", help="per pair and instance, the time factor between two "
                        "runs and which changes exceed the noise")
    cp.add_argument("run_a", metavar="RUN_A")
    cp.add_argument("run_b", metavar="RUN_B")
    cp.add_argument("--out", metavar="FILE", help="also write the Markdown to FILE")
    cp.set_defaults(func=compare.cmd_compare)


    interchange.add_commands(sub)  # import, export
    generate.add_commands(sub)  # generate
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args))
    except KeyboardInterrupt as e:
        print("puzzlebench: interrupted; finished results are in the journal", file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    except BrokenPipeError:  # `puzzlebench list | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141

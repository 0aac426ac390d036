"""`puzzlebench run`: the command over :func:`bench.run.plan.make_plan` and
:func:`bench.run.session.run_session`.

:func:`add_commands` declares the run's arguments; ``cmd_run`` takes them and returns the
exit code. ``run [PATH...] [--suite NAME] --out DIR`` plans the tasks (the suite's tiers,
repeats and limits unless the flags say otherwise) and runs the session (the folder's lock,
reuse, the tasks into the folder's journal, ``results.parquet``), then prints a summary;
``--dry-run`` prints the plan and its cost and runs nothing. Ctrl-C, SIGTERM, SIGHUP (a closed
terminal) or SIGQUIT stops the run at once: running tasks are killed and not journaled, the
Parquet of what finished is written, exit 128 + the signal's number (130, 143, 129, 131).
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.bounds import MAX_RUNS
from bench.cli.args import (
    add_pin_option,
    add_task_options,
    fail,
    interval_seconds,
    jobs_count,
    path_arg,
    runs_count,
    runs_problem,
    seeds_past,
)

if TYPE_CHECKING:
    from bench.run.plan import Planned
    from bench.run.session import Options

log = logging.getLogger("puzzlebench")


def add_commands(subparsers: Any) -> None:
    ru = subparsers.add_parser("run", help="run a suite or instance files over every "
                               "formulation x solver")
    ru.add_argument("instances", nargs="*", metavar="PATH",
                    help="instance files, folders (their *.txt) or globs, besides --suite")
    ru.add_argument("--suite")
    ru.add_argument("--out", metavar="DIR", type=path_arg("folder"),
                    help="the run folder (required unless --dry-run)")
    ru.add_argument("--puzzle", action="append")
    ru.add_argument("--formulation", action="append",
                    help="a name (its recommended variants), NAME[*] (every variant), a "
                    "variant label NAME[key=value], or PUZZLE:NAME; repeatable")
    ru.add_argument("--all-variants", action="store_true",
                    help="a named formulation (or every one) runs its whole parameter grid")
    ru.add_argument("--solver", action="append",
                    help="a solver, or PUZZLE:SOLVER for that puzzle's tasks only; repeatable")
    ru.add_argument("--jobs", type=jobs_count, default=None,
                    help="tasks at a time (<= cores; default 1); with --executor dask and no "
                    "--scheduler, the local cluster's single-threaded workers (default: one "
                    "per core)")
    ru.add_argument("--executor", choices=("local", "dask"), default="local",
                    help="run tasks here (default) or on a Dask cluster (extra 'dask')")
    ru.add_argument("--scheduler", metavar="ADDRESS",
                    help="Dask scheduler, e.g. tcp://HOST:8786 (default: start a LocalCluster)")
    ru.add_argument("--repeat", type=runs_count, default=1, metavar="N",
                    help=f"run every task N times with the same seed (timing noise; N times "
                    f"--seeds at most {MAX_RUNS})")
    ru.add_argument("--seeds", type=runs_count, default=1, metavar="K",
                    help=f"run every task with solver seeds SEED .. SEED+K-1 (solver variance; "
                    f"at most {MAX_RUNS}, and SEED+K-1 a solver seed)")
    ru.add_argument("--add-formulation", action="append", metavar="LABEL",
                    help="run these formulations (a name: every variant) besides the suite's "
                    "or --formulation's selection")
    ru.add_argument("--reuse", nargs="+", action="extend", metavar="RUN_DIR",
                    type=path_arg("run folder"),
                    help="take the finished results of these runs whose identity (instance "
                    "content, formulation and backend code, solver version, limits, seed, "
                    "repetition, machine) matches a planned task's; run only the rest")
    ru.add_argument("--reuse-latest", metavar="PATTERN",
                    help="reuse the newest run folder matching PATTERN (a glob) made on this "
                    "machine type")
    ru.add_argument("--dry-run", action="store_true",
                    help="print the plan (tasks per puzzle and pair, worst-case time at the "
                    "limit) and run nothing")
    ru.add_argument("--estimate", action="append", metavar="RUN_DIR",
                    type=path_arg("run folder"),
                    help="with --dry-run (refused without it): estimate the time from these "
                    "earlier runs' times")
    ru.add_argument("--progress", type=interval_seconds, default=30.0, metavar="SECONDS",
                    help="when stdout is not a terminal (a log file), print a progress line "
                    "this often (default 30; 0: none)")
    add_task_options(ru, None)
    add_pin_option(ru)
    ru.set_defaults(func=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    from bench.run.estimate import dry_run
    from bench.run.plan import PlanError, make_plan
    from bench.run.session import Options

    if _executor_problem(args):
        return fail(_executor_problem(args))
    if args.estimate and not args.dry_run:  # a run measures its time: nothing to estimate
        return fail("--estimate needs --dry-run (it estimates the plan's time and runs nothing)")
    if args.pin and _pin_problem(args):  # before --jobs is checked: one line
        return fail(_pin_problem(args))
    args.jobs = _jobs(args)
    if problem := runs_problem(args.seed, args.seeds, args.repeat):
        return fail(problem)
    try:
        planned = make_plan(
            args.suite, args.instances, puzzles=args.puzzle or (),
            formulations=args.formulation or (), add=args.add_formulation or (),
            solvers=args.solver or (), all_variants=args.all_variants,
            time_limit=args.time_limit, memory_limit_mb=args.memory_limit, seed=args.seed,
            threads=args.threads, count=args.count, repeat=args.repeat, seeds=args.seeds)
    except PlanError as e:
        return fail(str(e))
    except KeyboardInterrupt as e:
        print("puzzlebench: interrupted while planning: nothing was run or written",
              file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    if problem := _tier_seeds_past(args.seed, planned):
        return fail(problem)
    if args.dry_run:  # the plan and its cost, nothing run
        text, error = dry_run(planned.plan, args.jobs, args.estimate or planned.estimate,
                              planned.under, planned.ladder, planned.fixed)
        print(text) if not error else None
        problem = error or _would_reuse(args, planned.plan.tasks)
        return fail(problem) if problem else 0
    if not args.out:
        return fail("run needs --out DIR (or --dry-run)")
    folders = _reuse_folders(args)
    options = Options(jobs=args.jobs, start=args.start, executor=args.executor,
                      scheduler=args.scheduler or "", reuse=folders,
                      memory_limit_mb=args.memory_limit, threads=args.threads, seed=args.seed,
                      seeds=args.seeds, repeat=args.repeat, pin=args.pin,
                      progress_s=0.0 if sys.stdout.isatty() else args.progress)
    return _session(planned, args.out, options)


def _session(planned: Planned, out: str, options: Options) -> int:
    """Run the session under one signal handler to the command's end (no signal falls between
    the session's and the summary's); the exit code."""
    from bench.run.interrupt import stop_on_signals
    from bench.run.session import SessionError, run_session

    with stop_on_signals(deaf=True) as stop:
        if stop.fired:  # caught during the start-up, its exception dropped by Python
            return _before_start(stop.fired)
        try:
            outcome = run_session(planned, out, options, say=_say)
        except SessionError as e:
            return fail(str(e))
        except KeyboardInterrupt as e:  # before the session took the folder: nothing written
            return _before_start(getattr(e, "signum", signal.SIGINT))
        except OSError as e:  # a read-only or full disk: the journal keeps what was written
            if options.executor == "dask" and e.errno is None and not e.filename:
                # no file's error: Dask's own (a scheduler it cannot reach, a lost cluster)
                return fail(f"the Dask cluster ({options.scheduler or 'local'}) failed: {e}; "
                            f"{out} keeps every result journaled before")
            return fail(f"cannot write the run folder {out}: "
                        f"{e.strerror or e}{f' ({e.filename})' if e.filename else ''}")
        code = 0
        if not outcome.signum:
            code = _run_summary(outcome.out, outcome.table or outcome.out, outcome.errors)
            for line in (outcome.not_run_line(), outcome.disturbed_line()):
                if line:
                    print(f"puzzlebench: {line}")
    outcome.signum = outcome.signum or stop.fired  # also one after the table was written
    if outcome.signum:
        print(f"puzzlebench: {outcome.stopped()}", file=sys.stderr)
        return 128 + outcome.signum
    return code


def _tier_seeds_past(seed: int, planned: Planned) -> str:
    """Why the plan cannot run ("" when it can): a suite tier's ``seeds`` (or its ``repeats``,
    run as seeds by a seeded solver) from ``--seed`` reach past the largest solver seed (a
    plan without the tiers' runs has ``--seeds``', checked before planning)."""
    s, top = planned.suite, max(planned.plan.tasks, key=lambda t: t.seed, default=None)
    tier = next((t for t in s.tiers if t.name == top.tier), None) if s and top else None
    if s is None or top is None or tier is None:
        return ""
    field = f"seeds = {tier.seeds}" if tier.seeds > 1 else (
        f"repeats = {tier.repeats}, run as seeds by a seeded solver")
    return seeds_past(seed, top.seed, f"(suite {s.name}, tier {tier.name}: {field})")


def _before_start(signum: int) -> int:
    """The line of a run stopped before its session took the folder; the exit code."""
    word = "interrupted" if signum == signal.SIGINT else "terminated"
    print(f"puzzlebench: {word} before the run started: nothing was run", file=sys.stderr)
    return 128 + signum


def _say(line: str) -> None:
    print(f"puzzlebench: {line}", flush=True)


def _executor_problem(args: argparse.Namespace) -> str:
    if args.executor == "dask" and importlib.util.find_spec("distributed") is None:
        return "--executor dask needs dask.distributed: pip install 'puzzlebench[dask]'"
    if args.scheduler and args.executor != "dask":
        return "--scheduler needs --executor dask"
    return _scheduler_problem(args.scheduler) if args.scheduler else ""


def _scheduler_problem(address: str) -> str:
    """Why ``address`` is no Dask scheduler address ("" when it is one), by Dask's own parser
    and its list of schemes (``tcp://HOST:PORT``, a bare ``HOST:PORT``, ``tls://``, ...):
    said before the run folder is made, not as a traceback from the connection."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not host or not 0 < int(port) < 65536:
                raise ValueError(f"no host, or port {port} is not 1 .. 65535")
    except (ValueError, TypeError) as e:
        return (f"--scheduler {address!r} is no Dask scheduler address ({e}); e.g. "
                "tcp://HOST:8786")
    return ""


def _pin_problem(args: argparse.Namespace) -> str:
    """Why ``--pin`` cannot be done ("" when it can; a Dask run is not pinned, said in the
    log)."""
    from bench.run.pin import problem

    if args.executor == "dask":
        log.warning("--pin: tasks on a Dask cluster are not pinned (each worker owns its "
                    "machine's cores); the run goes on unpinned")
        return ""
    return problem(args.jobs or 1)


def _jobs(args: argparse.Namespace) -> int:
    """``--jobs``, or its default: the local pool one task at a time, a LocalCluster one per
    core; warns when it exceeds the cores (timings would interfere)."""
    jobs: int = args.jobs
    if jobs is None:
        jobs = (os.cpu_count() or 1) if args.executor == "dask" and not args.scheduler else 1
    if jobs > (os.cpu_count() or 1):
        log.warning("--jobs %d exceeds the %s cores: timings will interfere", jobs,
                    os.cpu_count())
    return jobs


def _reuse_folders(args: argparse.Namespace) -> list[str | Path]:
    """The folders of ``--reuse RUN_DIR...`` and ``--reuse-latest PATTERN`` (said which)."""
    import glob

    from bench.run.reuse import latest_run

    folders: list[str | Path] = list(args.reuse or ())
    if args.reuse_latest:
        latest = latest_run(sorted(glob.glob(args.reuse_latest)), args.out or "")
        _say(f"latest run on this machine type matching {args.reuse_latest!r}: "
             + (str(latest) if latest else "none (nothing reused)"))
        folders += [latest] if latest else []
    return folders


def _would_reuse(args: argparse.Namespace, tasks: list[Any]) -> str:
    """A dry run's ``--reuse``: say how many tasks would take a result from which runs; the
    problem with a folder given ("" if none)."""
    from collections import Counter

    from bench.run.reuse import SourceError, Sources, matches, summary

    folders = _reuse_folders(args)
    if not folders:
        return ""
    try:
        sources = Sources.load(folders)
    except SourceError as e:
        return str(e)
    for note in sources.notes():
        _say(note)
    pinned = bool(getattr(args, "pin", False)) and getattr(args, "executor", "local") != "dask"
    from bench.run.pool import default_start

    start = getattr(args, "start", None) or default_start()
    taken = Counter(r.run for r in matches(tasks, sources, pinned=pinned, start=start))
    _say(f"would have {summary(taken, len(tasks))}")
    return ""


def _run_summary(out: Path, table: Path, errors: list[Any]) -> int:
    from bench.run.storage import load_results

    df = load_results(out)
    counts = df["status"].value_counts().to_dict()
    print(f"{len(df)} results in {table}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    tasks = df[df["formulation"] != "-"]
    for line in _overhead_lines(tasks):
        print(line)
    if len(tasks) and "overshoot_s" in tasks and tasks["overshoot_s"].notna().any():
        over = tasks.groupby("solver")["overshoot_s"].max().dropna()
        print("time past the limit per task (max; build + solve over the limit is a timeout): "
              + ", ".join(f"{k} {v:.2f} s" for k, v in over.items()))
    from bench.records import NOT_RUN

    for err in errors:  # unreadable instances; tasks a suite recorded not run are no error
        if not err.message.startswith(NOT_RUN):
            print(f"puzzlebench: error: {err.message}", file=sys.stderr)
    said = {err.key for err in errors}
    bad = df[df["status"].isin(["error", "wrong"])]
    for _, row in bad.iterrows():
        if row["formulation"] != "-":
            print(f"puzzlebench: {row['status']}: {row['instance']} {row['formulation']} "
                  f"{row['solver']}: {row['message']}", file=sys.stderr)
        elif row["key"] not in said:  # an instance file unreadable in an earlier invocation
            print(f"puzzlebench: error: {row['message']} (recorded earlier)", file=sys.stderr)
    return 1 if len(bad) else 0


def _overhead_lines(tasks: Any) -> list[str]:
    """The harness's overhead per task as the report gives it (:mod:`bench.run.overhead`: a
    package's one-time set-up apart, the slowest solver's median per kind), and that set-up."""
    from bench.run.overhead import setup_median, slowest_median

    lines = []
    if med := slowest_median(tasks):
        lines.append("harness overhead per task (median, slowest solver per kind; one-time "
                     "set-up apart): " + ", ".join(f"{k} {v * 1000:.1f} ms"
                                                   for k, v in med.items()))
    if setup := setup_median(tasks):
        lines.append("one-time set-up of an external package per task (median): "
                     + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in setup.items()))
    return lines

"""`puzzlebench run`: the command side of bench/run/pool.py and bench/run/plan.py.

:func:`add_commands` declares the run's arguments; ``cmd_run`` takes them and returns the
exit code. ``run [PATH...] [--suite NAME] --out DIR`` plans the
tasks (the suite's tiers, repeats and limits unless the flags say otherwise), refuses a folder
holding results of other limits, runs the tasks (each in its own measured process) into the
folder's journal, consolidates ``results.parquet`` and prints a summary; ``--dry-run`` prints
the plan and its cost and runs nothing. Ctrl-C or SIGTERM stops the run at once: running tasks
are killed and not journaled, the Parquet of what finished is written, exit 130 or 143.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bench.cli.args import add_task_options, fail, positive_int

log = logging.getLogger("puzzlebench")


def add_commands(subparsers: Any) -> None:
    ru = subparsers.add_parser("run", help="run a suite or instance files over every "
                               "formulation x solver")
    ru.add_argument("instances", nargs="*", metavar="PATH",
                    help="instance files, folders (their *.txt) or globs, besides --suite")
    ru.add_argument("--suite")
    ru.add_argument("--out", metavar="DIR", help="the run folder (required unless --dry-run)")
    ru.add_argument("--puzzle", action="append")
    ru.add_argument("--formulation", action="append",
                    help="a name (its recommended variants), NAME[*] (every variant), a "
                    "variant label NAME[key=value], or PUZZLE:NAME; repeatable")
    ru.add_argument("--all-variants", action="store_true",
                    help="a named formulation (or every one) runs its whole parameter grid")
    ru.add_argument("--solver", action="append",
                    help="a solver, or PUZZLE:SOLVER for that puzzle's tasks only; repeatable")
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
    ru.add_argument("--add-formulation", action="append", metavar="LABEL",
                    help="run these formulations (a name: every variant) besides the suite's "
                    "or --formulation's selection")
    ru.add_argument("--reuse", nargs="+", action="extend", metavar="RUN_DIR",
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
                    help="with --dry-run: estimate the time from these earlier runs' times")
    add_task_options(ru, None)
    ru.set_defaults(func=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    from bench.run.interrupt import stop_on_signals
    from bench.run.plan import dry_run, suite_formulations, tier_plan
    from bench.run.pool import Selection, plan_tasks
    from bench.run.storage import FolderLocked, RunLock
    from bench.suites import get_suite

    try:
        suite = get_suite(args.suite) if args.suite else None
        instances = (suite.instances() if suite else []) + expand_paths(args.instances)
    except (KeyError, FileNotFoundError) as e:
        return fail(str(e.args[0] if e.args else e))
    if not instances:
        return fail("run needs --suite NAME or instance paths")
    if _executor_problem(args):
        return fail(_executor_problem(args))
    time_limit = args.time_limit if args.time_limit is not None else \
        suite.time_limit if suite else 60.0
    args.jobs = _jobs(args)
    added = tuple(args.add_formulation or ())
    chosen = (tuple(args.formulation or ()) or suite_formulations(suite)) + added
    solvers = tuple(args.solver or ()) or (suite.solvers if suite else ())
    every = args.all_variants or bool(suite and suite.variants == "all" and not args.formulation)
    sel = Selection(tuple(args.puzzle or ()), chosen, solvers, every)
    try:
        sel.check()
    except ValueError as e:
        return fail(str(e))
    plan = plan_tasks(instances, sel, time_limit=time_limit, memory_limit_mb=args.memory_limit,
                      seed=args.seed, threads=args.threads, count=args.count,
                      repeat=args.repeat, seeds=args.seeds)
    unmatched = [f for f in (*(args.formulation or ()), *added) if f not in plan.matched]
    if unmatched:
        return fail(f"--formulation {unmatched[0]!r} selects no formulation variant of these "
                     f"instances{_close(unmatched[0])} (see `puzzlebench list`)")
    if not plan.tasks and not plan.errors:
        return fail("no task matches the selection (see `puzzlebench list`)")
    # the tiers' repeats and limits, unless --repeat/--seeds/--time-limit say otherwise
    under = tier_plan(plan, suite, args.repeat == args.seeds == 1, args.time_limit is None)
    if args.dry_run:  # the plan and its cost, nothing run
        text, error = dry_run(plan, args.jobs, args.estimate or (), under,
                              bool(suite and suite.ladder_rule))
        print(text) if not error else None
        problem = error or _reuse(args, None, plan.tasks)  # what --reuse would take
        return fail(problem) if problem else 0
    if not args.out:
        return fail("run needs --out DIR (or --dry-run)")
    run = {"suite": suite.name if suite else "", "suite_version": suite.version if suite else 0,
           "instances": None if suite else instances, "time_limit": time_limit,
           "repeat_under": under, "ladder_rule": bool(suite and suite.ladder_rule)}
    try:
        with RunLock(args.out), stop_on_signals():
            return _run_locked(args, plan, run)
    except FolderLocked as e:
        return fail(str(e))
    except OSError as e:  # a read-only or full disk: the journal keeps what was written
        return fail(f"cannot write the run folder {args.out}: "
                     f"{e.strerror or e}{f' ({e.filename})' if e.filename else ''}")


def _executor_problem(args: argparse.Namespace) -> str:
    if args.executor == "dask" and importlib.util.find_spec("distributed") is None:
        return "--executor dask needs dask.distributed: pip install 'puzzlebench[dask]'"
    if args.scheduler and args.executor != "dask":
        return "--scheduler needs --executor dask"
    return ""


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



def _run_locked(args: argparse.Namespace, plan: Any, run: dict[str, Any]) -> int:
    from bench.run.environment import calibrate, environment, harness_version, write_constraints
    from bench.run.plan import run_gated
    from bench.run.pool import default_start, resume_conflict, run_plan
    from bench.run.storage import (
        Journal,
        consolidate,
        load_environment,
        record_environment,
        update_environment,
    )

    out = Path(args.out)
    journal = Journal(out)
    earlier = [int(r["memory_limit_mb"]) for r in load_environment(out)
               if isinstance(r.get("memory_limit_mb"), int) and r.get("tasks")]
    conflict = resume_conflict(journal, plan, earlier)
    if conflict:
        return fail(conflict)
    problem = _reuse(args, journal, plan.tasks)
    if problem:
        return fail(problem)
    start = args.start or default_start()
    executor = _executor(args, start)
    calibration = {"start_s": calibrate()}
    record_environment(out, environment(
        **run, memory_limit_mb=args.memory_limit, jobs=args.jobs, threads=args.threads,
        seed=args.seed, seeds=args.seeds, repeat=args.repeat, start=start,
        executor=args.executor, scheduler=args.scheduler or "",
        tasks=len(plan.tasks), calibration=calibration))
    write_constraints(out)
    log.info("%d tasks (%d instances unreadable) -> %s", len(plan.tasks), len(plan.errors), out)
    # the Parquet writer, imported before the tasks (not beside them, not after an interrupt)
    import pandas  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    stopped: KeyboardInterrupt | None = None
    try:
        provenance = {"run": out.name, "harness": harness_version()}
        run_gated(plan, run["repeat_under"], lambda p: run_plan(
            p, journal, jobs=args.jobs, start=start, executor=executor,
            provenance=provenance), journal.results,
            ladder=run["ladder_rule"])
    except KeyboardInterrupt as e:  # the running tasks are killed and not journaled
        stopped = e
    finally:
        with contextlib.suppress(OSError):  # the first write error is the one reported
            workers = getattr(executor, "environments", None)
            end = {} if stopped else {"end_s": calibrate()}  # a stopped run ends at once
            update_environment(out, calibration={**calibration, **end},
                               **({"workers": workers} if workers else {}))
    table = consolidate(out)
    if stopped is not None:
        signum = getattr(stopped, "signum", signal.SIGINT)
        print(f"puzzlebench: {'interrupted' if signum == signal.SIGINT else 'terminated'} "
              f"({signal.Signals(signum).name}): {len(journal.keys())} results kept in {table}; "
              "run the same command again to resume (unfinished tasks run then)",
              file=sys.stderr)
        return 128 + signum
    return _run_summary(out, table, plan.errors)


def _reuse(args: argparse.Namespace, journal: Any, tasks: list[Any]) -> str:
    """``--reuse RUN_DIR...`` and ``--reuse-latest PATTERN``: copy the results of matching
    identity into the journal (bench/run/reuse.py; without a journal, a dry run, only count
    them) and say how many came from which runs; the problem with a folder given ("" if
    none)."""
    import glob
    from collections import Counter

    from bench.run.reuse import Sources, latest_run, matches, reuse_into, summary

    folders = list(args.reuse or ())
    if args.reuse_latest:
        latest = latest_run(sorted(glob.glob(args.reuse_latest)), args.out or "")
        print(f"puzzlebench: latest run on this machine type matching {args.reuse_latest!r}: "
              + (str(latest) if latest else "none (nothing reused)"))
        folders += [latest] if latest else []
    if not folders:
        return ""
    try:
        sources = Sources.load(folders)
    except FileNotFoundError as e:
        return str(e)
    for note in sources.notes():
        print(f"puzzlebench: {note}")
    if journal is None:
        taken = Counter(r.run for r in matches(tasks, sources))
        print(f"puzzlebench: would have {summary(taken, len(tasks))}")
    else:
        print(f"puzzlebench: {summary(reuse_into(journal, tasks, sources), len(tasks))}")
    return ""


def _executor(args: argparse.Namespace, start: str) -> Any:
    """The Dask executor for ``--executor dask`` (None: the local pool)."""
    if args.executor != "dask":
        return None
    from bench.run.executors import DaskExecutor

    return DaskExecutor(scheduler=args.scheduler, workers=args.jobs, start=start)


def expand_paths(paths: list[str]) -> list[str]:
    """Instance files from paths: a folder gives its ``*.txt`` files, a glob its matches, in a
    stable order without repeats; a path matching nothing is an error (FileNotFoundError)."""
    import glob

    out: list[str] = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            found = sorted(str(q) for q in p.glob("*.txt"))
        elif glob.has_magic(arg):
            found = sorted(glob.glob(arg, recursive=True))
        else:
            found = [arg] if p.exists() else []
        if not found:
            raise FileNotFoundError(f"no instance file matches {arg!r}")
        out += [f for f in found if f not in out]
    return out


def _run_summary(out: Path, table: Path, errors: list[Any]) -> int:
    from bench.run.storage import load_results

    df = load_results(out)
    counts = df["status"].value_counts().to_dict()
    print(f"{len(df)} results in {table}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    tasks = df[df["formulation"] != "-"]
    if len(tasks) and "overhead_s" in tasks and tasks["overhead_s"].notna().any():
        med = tasks.groupby("kind")["overhead_s"].median()
        print("harness overhead per task (median): "
              + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in med.items()))
    if len(tasks) and "overshoot_s" in tasks and tasks["overshoot_s"].notna().any():
        over = tasks.groupby("solver")["overshoot_s"].max().dropna()
        print("time past the limit per task (max; build + solve over the limit is a timeout): "
              + ", ".join(f"{k} {v:.2f} s" for k, v in over.items()))
    for err in errors:
        print(f"puzzlebench: error: {err.message}", file=sys.stderr)
    bad = df[df["status"].isin(["error", "wrong"])]
    for _, row in bad.iterrows():
        if row["formulation"] != "-":
            print(f"puzzlebench: {row['status']}: {row['instance']} {row['formulation']} "
                  f"{row['solver']}: {row['message']}", file=sys.stderr)
    return 1 if len(bad) else 0


def _close(want: str) -> str:
    """Close matches of a ``--formulation`` entry among the registered names and variants."""
    from bench.registry import close_matches, formulations, parse_label, variants
    from bench.run.pool import split_puzzle

    name = parse_label(split_puzzle(want)[1])[0]
    known = {c.name for c in formulations()} | {a for c in formulations() for a in c.aliases}
    hint = close_matches(name, known)
    if hint or name not in known:
        return hint
    labels = {v.label for c in formulations() if c.name == name for v in variants(c)}
    return close_matches(split_puzzle(want)[1].replace(" ", ""), labels)

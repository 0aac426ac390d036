"""The `puzzlebench` command: list, solve, run, report, compare (``run`` itself is
:mod:`bench.run_cli`)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

from bench.instance import InstanceError, read_instance
from bench.records import Task

log = logging.getLogger("puzzlebench")

#: `solve --json` statuses of the interchange contract; a grid that fails the checker is an error
CONTRACT_STATUSES = ("solved", "infeasible", "timeout", "memout", "error")


def cmd_list(args: argparse.Namespace) -> int:
    from bench.backends import all_backends, backends_for
    from bench.registry import formulations, variant_info
    from bench.suites import load_suites

    backends = all_backends()
    forms: list[dict[str, Any]] = []
    for c in formulations():
        var = variant_info(c)
        forms.append({
            "puzzle": c.puzzle,
            "name": c.name,
            "kind": c.kind,
            # the default variant's (the first point of the grid); per variant in "variants"
            "exact": var[0].exact,
            "lazy": var[0].lazy,
            "description": c.description,
            "parameters": c.parameters,
            "solvers": [b.name for b in backends_for(c.kind)
                        if b.available() is None and c.available() is None],
            "available": c.available() is None,
            "reason": c.available() or "",
            "variants": [{"label": v.label, "exact": v.exact, "lazy": v.lazy} for v in var],
        })
    solvers: list[dict[str, Any]] = [
        {"name": b.name, "kinds": list(b.kinds), "version": b.version(),
         "available": b.available() is None, "incremental": b.incremental,
         "reason": b.available() or ""}
        for b in backends
    ]
    suites: dict[str, dict[str, Any]] = {
        n: {"version": s.version, "description": s.description, "instances": s.instances(),
            "formulations": list(s.formulations)}
        for n, s in load_suites().items()}
    if args.json:
        out: dict[str, Any] = {"formulations": forms, "solvers": solvers}
        if args.suites:
            out["suites"] = suites
        print(json.dumps(out, indent=2))
        return 0
    if args.suites:
        for n, s in suites.items():
            print(f"{n} (v{s['version']}, {len(s['instances'])} instances): {s['description']}")
            if s["formulations"]:
                print(f"    formulations: {', '.join(s['formulations'])}")
        return 0
    print_table(forms, solvers)
    return 0


def print_table(forms: list[dict[str, Any]], solvers: list[dict[str, Any]]) -> None:
    """`puzzlebench list` as text: formulations with their variants, then solvers."""
    print("Formulations:")
    for f in forms:
        params = "".join(f" [{k}: {', '.join(map(str, v))}]" for k, v in f["parameters"].items())
        print(f"  {f['puzzle']:<11} {f['name']:<13} {f['kind']:<8} {f['description']}{params}")
        if not f["available"]:
            print(f"      unavailable: {f['reason']}")
        for v in f["variants"] if len(f["variants"]) > 1 else []:
            print(f"      {v['label']}{_flags(v)}")
        if len(f["variants"]) == 1 and _flags(f):
            print(f"      {f['name']}{_flags(f)}")
    print("Solvers:")
    for s in solvers:
        state = "available" if s["available"] else f"unavailable: {s['reason']}"
        incr = ", incremental" if s["incremental"] else ""
        print(f"  {s['name']:<11} {'/'.join(s['kinds']):<8} {s['version']} ({state}{incr})")


def _flags(variant: dict[str, Any]) -> str:
    return ("" if variant["exact"] else " (inexact)") + (" (lazy)" if variant["lazy"] else "")


def cmd_solve(args: argparse.Namespace) -> int:
    from bench.registry import default_choice
    from bench.runner import run_task

    if args.start is None:
        from bench.runner import default_start

        args.start = default_start()
    out: dict[str, Any] = {"puzzle": None, "instance": args.instance,
                           "formulation": args.formulation, "solver": args.solver}
    try:
        inst = read_instance(args.instance)
    except InstanceError as e:
        out.update(status="error", message=str(e))
        return _emit_solve(args, out, None)
    out["puzzle"] = inst.puzzle
    if args.formulation and args.solver:  # both chosen: no need to load every formulation
        form, solver = args.formulation, args.solver
    else:
        try:
            form, solver = default_choice(inst.puzzle)
        except KeyError as e:
            out.update(status="error", message=f"{args.instance}: {e.args[0]}")
            return _emit_solve(args, out, inst)
    if args.formulation or args.solver:
        form = args.formulation or _first_formulation_for(inst.puzzle, args.solver, form)
        solver = args.solver or _first_solver_for(inst.puzzle, form, solver)
    out.update(formulation=form, solver=solver)
    from bench.forkserver import Watchdog

    watchdog = Watchdog()
    try:
        res = run_task(Task(args.instance, form, solver, args.time_limit, args.memory_limit,
                            args.seed, args.threads, args.count), start=args.start,
                       watchdog=watchdog)
    finally:
        watchdog.close()
    status = res.status
    message = res.message
    if status not in CONTRACT_STATUSES:  # "wrong": the grid failed the rule checker
        status, message = "error", f"solution failed the rule checker: {message}"
    out.update(formulation=res.formulation, status=status)
    if status == "solved":
        out["grid"] = res.grid
    out.update(build_s=res.build_s, solve_s=res.solve_s, wall_s=res.wall_s,
               solver_s=res.solver_s, peak_rss_mb=res.peak_rss_mb, iterations=res.iterations)
    if args.count:
        out["count"] = res.count
    if status != "solved":
        out["message"] = message or f"{status} (no message from the task)"
    return _emit_solve(args, out, inst)


def _first_formulation_for(puzzle: str, solver: str | None, fallback: str) -> str:
    from bench.backends import get_backend
    from bench.registry import formulations

    if not solver:
        return fallback
    try:
        kinds = get_backend(solver).kinds
    except KeyError:
        return fallback
    return next((c.name for c in formulations(puzzle) if c.kind in kinds), fallback)


def _first_solver_for(puzzle: str, form: str, fallback: str) -> str:
    from bench.backends import backends_for
    from bench.registry import get_formulation

    try:
        kind = get_formulation(puzzle, form).kind
    except (KeyError, ValueError):
        return fallback
    return next((b.name for b in backends_for(kind) if b.available() is None), fallback)


def _emit_solve(args: argparse.Namespace, out: dict[str, Any], inst: Any) -> int:
    code = 0 if out["status"] == "solved" else 1
    if args.json:
        print(json.dumps(out))
        return code
    if out["status"] != "solved":
        print(f"puzzlebench: {out['status']}: {out.get('message', '')}".rstrip(": "),
              file=sys.stderr)
        return code
    from bench.puzzles import get_puzzle

    print(get_puzzle(inst.puzzle).render(inst, out["grid"]))
    print(f"{out['formulation']} / {out['solver']}: build {out['build_s']:.3f} s, "
          f"solve {out['solve_s']:.3f} s, task wall {out['wall_s']:.3f} s")
    return code


def cmd_report(args: argparse.Namespace) -> int:
    from bench.report import ReportError, write_report

    try:
        out = write_report(args.results, args.out, args.instance, args.scatter)
    except ReportError as e:
        print(f"puzzlebench: {e}; no report written", file=sys.stderr)
        return 2
    print(f"report written to {out / 'index.html'} and {out / 'summary.md'}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from bench.report import ReportError
    from bench.report.compare import compare_markdown

    try:
        text = compare_markdown(args.run_a, args.run_b)
    except ReportError as e:
        print(f"puzzlebench: {e}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0


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

    ls = sub.add_parser("list", help="formulations, solvers and suites")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--suites", action="store_true", help="list the suites")
    ls.set_defaults(func=cmd_list)

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

    from bench import generate_cli, import_cli, run_cli

    so = sub.add_parser("solve", help="solve one instance file")
    so.add_argument("instance")
    so.add_argument("--json", action="store_true")
    so.add_argument("--formulation", help="name or name[key=value] (default: the fastest known)")
    so.add_argument("--solver")
    limits(so, 60.0)
    so.set_defaults(func=cmd_solve)

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
    ru.set_defaults(func=run_cli.cmd_run)

    rp = sub.add_parser("report", help="write reports/<run>/index.html and summary.md")
    rp.add_argument("results", metavar="RESULTS_DIR")
    rp.add_argument("--out", metavar="REPORT_DIR")
    rp.add_argument("--instance", action="append", metavar="PATTERN",
                    help="add a per-instance table for instance names matching PATTERN")
    rp.add_argument("--scatter", action="append", metavar="PAIR",
                    help="twice: the two 'formulation / solver' pairs of the scatter plot "
                    "(default: the two best)")
    rp.set_defaults(func=cmd_report)
    cp = sub.add_parser("compare", help="per pair and instance, the time factor between two "
                        "runs and which changes exceed the noise")
    cp.add_argument("run_a", metavar="RUN_A")
    cp.add_argument("run_b", metavar="RUN_B")
    cp.add_argument("--out", metavar="FILE", help="also write the Markdown to FILE")
    cp.set_defaults(func=cmd_compare)


    import_cli.add_commands(sub)  # import, export
    generate_cli.add_commands(sub)  # generate
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


if __name__ == "__main__":
    sys.exit(main())

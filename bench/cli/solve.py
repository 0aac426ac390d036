"""`puzzlebench solve`: one instance file in a task process, its grid or the interchange
contract's JSON (``--json``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bench.instance import InstanceError, read_instance
from bench.records import Task

#: `solve --json` statuses of the interchange contract; a grid that fails the checker is an error
CONTRACT_STATUSES = ("solved", "infeasible", "timeout", "memout", "error")



def cmd_solve(args: argparse.Namespace) -> int:
    from bench.registry import default_choice
    from bench.run.pool import run_task

    if args.start is None:
        from bench.run.pool import default_start

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
    from bench.run.forkserver import Watchdog

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

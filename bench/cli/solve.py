"""`puzzlebench solve`: one instance file in a task process, its grid or the interchange
contract's JSON (``--json``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from bench.cli.args import add_task_options
from bench.instance import InstanceError, read_instance
from bench.records import Task

if TYPE_CHECKING:
    from bench.registry import Formulation

#: `solve --json` statuses of the interchange contract; a grid the rule verifier rejects is an
#: error
CONTRACT_STATUSES = ("solved", "infeasible", "timeout", "memout", "error")
#: the exit code of a solve that ran and did not solve (any status but ``solved``)
NOT_SOLVED = 1
#: the exit code of bad input, where no task ran: an instance file that cannot be read, a
#: formulation, solver or parameter that does not exist or does not fit, a selector that cannot
#: choose (as argparse's own usage errors, and every other command's bad input)
BAD_INPUT = 2
EXIT_CODES = ("Exit codes: 0 solved; 1 the solve ran and did not solve (infeasible, timeout, "
              "memout, or an error of the task: the formulation or solver failed, declined "
              "the instance, or its grid failed the rule verifier); 2 bad input, nothing run "
              "(an instance file that cannot be read, an unknown or unfitting formulation, "
              "solver or parameter, a selector that cannot choose; with --json the JSON, "
              "status error and a message naming the problem, is still printed).")
STOPPED = ("Ctrl-C, SIGTERM, SIGHUP or SIGQUIT stops it: the task is killed at once, "
           "'puzzlebench: interrupted' is said and the exit code is 128 + the signal's number "
           "(130, 143, 129, 131).")


def add_commands(subparsers: Any) -> None:
    so = subparsers.add_parser(
        "solve", help="solve one instance file",
        description="Solve one instance file in a task process of its own, under the same "
        "limits and checks as a benchmark task; print the grid (or, with --json, the "
        "interchange contract's JSON). " + EXIT_CODES + " " + STOPPED)
    so.add_argument("instance", help="the instance file (its first line names the puzzle)")
    so.add_argument("--json", action="store_true",
                    help="print one JSON object (status, grid, times, count) instead of the "
                    "grid")
    so.add_argument("--formulation", help="name or name[key=value], or a selector: auto (the "
                    "pair the puzzle's learned rule picks from the instance's features) or "
                    "robust (Nurikabe: frontier where few clues cover the grid, else "
                    "sat-hybrid), said with its reason (default: the puzzle's declared "
                    "default; with --solver alone, that default where the solver takes its "
                    "kind, else the first built-in formulation of the solver's kind by name, "
                    "else the first plugin one, said on stderr and in the JSON as chosen)")
    so.add_argument("--solver", help="a solver name from `puzzlebench list`, or a selector "
                    "(as --formulation auto or robust) (default: the puzzle's declared "
                    "default, else the first available solver of the formulation's kind)")
    add_task_options(so, 60.0)
    so.set_defaults(func=cmd_solve, end_now=True)  # leaves no thread or child behind


def cmd_solve(args: argparse.Namespace) -> int:
    """The command: SIGTERM, SIGHUP and SIGQUIT stop it as Ctrl-C does (as they stop
    ``run``): the task's process tree is killed and reaped and its memory cgroup removed
    before the command leaves, which says "interrupted" and exits with 128 + the signal's
    number (143 for SIGTERM)."""
    from bench.run.interrupt import STOPS, stop_on_signals

    with stop_on_signals(STOPS, deaf=True):  # inside the command line's Ctrl-C handler
        return _solve(args)


def _solve(args: argparse.Namespace) -> int:
    if args.start is None:
        from bench.run.pool import default_start

        args.start = default_start()
    out: dict[str, Any] = {"puzzle": None, "instance": args.instance,
                           "formulation": args.formulation, "solver": args.solver}
    try:
        inst = read_instance(args.instance)
    except InstanceError as e:  # the puzzle is named where the header was read
        out.update(puzzle=e.puzzle, status="error", message=str(e))
        return _emit_solve(args, out, None, BAD_INPUT)
    out["puzzle"] = inst.puzzle
    chosen = _choose(args, out, inst)
    if chosen is None:
        return _emit_solve(args, out, inst, BAD_INPUT)
    form, solver = chosen
    out.update(formulation=form, solver=solver)
    res = _run(args, form, solver)
    if res.status == "skipped" and "auto" in out:  # the chosen pair declined the instance
        res = _fallback(args, out, inst.puzzle, res)
    status = res.status
    message = res.message
    if status == "skipped":  # the formulation declined the instance: not in the contract
        status, message = "error", f"skipped: {message}"
    elif status not in CONTRACT_STATUSES:  # "wrong": the grid failed the rule verifier
        status, message = "error", f"solution failed the rule verifier: {message}"
    elif status == "infeasible" and res.exact is False:  # none found, nothing proved
        status, message = "error", (f"{args.instance}: no solution found, which proves nothing: "
                                    f"{res.formulation} is not exact (it may cut solutions off)")
    elif status == "infeasible" and res.known is False:  # contradicted by the .sol beside it
        status, message = "error", (f"{args.instance}: {res.formulation} / {res.solver} found "
                                    "no solution, but the instance has a known one (.sol)")
    out.update(formulation=res.formulation, status=status)
    if status == "solved":
        out["grid"] = res.grid
    out.update(build_s=res.build_s, solve_s=res.solve_s, wall_s=res.wall_s,
               solver_s=res.solver_s, peak_rss_mb=res.peak_rss_mb, iterations=res.iterations,
               setup_s=getattr(res, "setup_s", None))
    if args.count:
        out["count"] = res.count
    if status == "infeasible" and not message:
        how = "reported it infeasible" if res.exact is None else "proved it infeasible"
        out["message"] = f"{args.instance}: no solution ({res.formulation} / {res.solver} {how})"
    elif status != "solved":
        out["message"] = message or f"{status} (no message from the task)"
    if res.traceback and not args.json:
        out["_trace"] = _trace(res.traceback, inst.puzzle, res.formulation, args.verbose,
                               res.phase)
    return _emit_solve(args, out, inst)



def _choose(args: argparse.Namespace, out: dict[str, Any], inst: Any) -> tuple[str, str] | None:
    """The formulation and solver to run: both named; one named and the other the first that
    fits it (the first available solver of the formulation's kind; the formulation
    :func:`formulation_for` picks for the solver, said in ``out["chosen"]`` and on stderr),
    the declared default's half where none fits (a declared selector's fallback pair's, never
    the selector); or a selector's pick (named, or the declared default). None, with the error
    in ``out``, when there is nothing to run."""
    from bench.solve import default_choice

    if args.formulation and args.solver:  # both chosen: no need to load every formulation
        form, solver = args.formulation, args.solver
    else:
        try:
            form, solver = default_choice(inst.puzzle)
        except KeyError as e:
            out.update(status="error", message=f"{args.instance}: {e.args[0]}")
            return None
    from bench.select.rules import is_selector

    if is_selector(args.formulation) or is_selector(args.solver):  # it chooses both halves
        form = solver = args.formulation if is_selector(args.formulation) else args.solver
    elif args.formulation or args.solver:
        if is_selector(form) or is_selector(solver):  # a declared selector: its pair fills in
            pair = fallback_pair(inst.puzzle)
            if pair is None:
                out.update(status="error", message=f"{args.instance}: the declared default of "
                           f"{inst.puzzle} is a selector with no fallback pair: name both the "
                           "formulation and the solver")
                return None
            form, solver = pair
        if args.formulation:
            form = args.formulation
        else:
            form, why = formulation_for(inst.puzzle, args.solver, form)
            if why:  # said on stderr and in the JSON, as a selector's pick is
                out["chosen"] = {"formulation": form, "why": why}
                if not args.json:
                    print(f"--solver {args.solver}: formulation {form}: {why}", file=sys.stderr)
        try:
            solver = args.solver or _first_solver_for(inst.puzzle, form, solver)
        except (KeyError, ValueError) as e:  # no such formulation: no solver to name
            out.update(status="error", message=f"--formulation {form!r}: "
                       f"{e.args[0] if e.args else e}")
            return None
    if is_selector(form) or is_selector(solver):  # a per-instance choice (bench.select.rules)
        return _auto(args, out, inst, form if is_selector(form) else solver)
    # a pair the command line names is checked here; the declared default's, by its tests
    problem = pair_problem(inst.puzzle, form, solver, args.formulation or args.solver)
    if problem:  # before a task process starts for it
        out.update(status="error", message=problem)
        return None
    return form, solver


def pair_problem(puzzle: str, form: str, solver: str, named: bool = True) -> str:
    """Why ``form`` / ``solver`` cannot run on an instance of ``puzzle`` ("" when it can): an
    unknown solver and, where the command line ``named`` either, an unknown formulation,
    parameter or value, a formulation whose model kind the solver does not take or that
    refuses it. The formulation's modules of the solver's kinds are imported here (its solver
    library is not)."""
    from bench.backends import get_backend
    from bench.registry import get_formulation
    from bench.run.names import solver_problem

    try:
        backend = get_backend(solver)
    except KeyError as e:  # said briefly, with the close names
        return f"--solver {solver!r}: {solver_problem(solver) or e.args[0]}"
    if not named:
        return ""
    try:
        formulation = get_formulation(puzzle, form, backend.kinds)
    except (KeyError, ValueError) as e:
        return f"--formulation {form!r}: {e.args[0] if e.args else e}"
    if formulation.kind not in backend.kinds:
        return (f"--formulation {form!r} is a {formulation.kind} model, which solver {solver} "
                f"does not take (it takes {', '.join(backend.kinds)})")
    refused = formulation.refuses(solver)
    return f"--formulation {form!r} {refused}" if refused else ""


def _run(args: argparse.Namespace, form: str, solver: str) -> Any:
    """One task of ``form`` and ``solver`` on the instance, in a process of its own."""
    from bench.run.forkserver import Watchdog
    from bench.run.pool import run_task

    watchdog = Watchdog()
    try:
        return run_task(Task(args.instance, form, solver, args.time_limit, args.memory_limit,
                             args.seed, args.threads, args.count), start=args.start,
                        watchdog=watchdog)
    finally:
        watchdog.close()


def fallback_pair(puzzle: str) -> tuple[str, str] | None:
    """The pair that runs where a selector's pick declines an instance: the puzzle's declared
    default, or where that is a selector itself, its pair in
    :data:`bench.select.rules.FALLBACK` (a pair, never a selector: no loop); None when there
    is none."""
    from bench.select.rules import FALLBACK, is_selector
    from bench.solve import default_choice

    fallback = default_choice(puzzle)
    if not any(map(is_selector, fallback)):
        return fallback
    pair = FALLBACK.get(puzzle)
    return (pair.rsplit(" / ", 1)[0], pair.rsplit(" / ", 1)[1]) if pair else None


def _fallback(args: argparse.Namespace, out: dict[str, Any], puzzle: str, declined: Any) -> Any:
    """The task of :func:`fallback_pair`, run because the selector's pair declined the
    instance (said in ``out["auto"]`` and on stderr); ``declined`` itself when there is no
    fallback pair or it is the pair that declined."""
    from bench.registry import get_formulation

    pick = fallback_pair(puzzle)
    if pick is None:
        return declined
    fallback = pick
    if (get_formulation(puzzle, fallback[0]).label == declined.formulation
            and fallback[1] == declined.solver):
        return declined
    out["auto"].update(declined=declined.message, declined_wall_s=declined.wall_s,
                       fallback=" / ".join(fallback))
    if not args.json:
        print(f"{declined.formulation} declined it ({declined.message}); the fallback pair "
              f"{' / '.join(fallback)} runs instead", file=sys.stderr)
    out.update(formulation=fallback[0], solver=fallback[1])
    return _run(args, *fallback)


def _auto(args: argparse.Namespace, out: dict[str, Any], inst: Any, name: str
          ) -> tuple[str, str] | None:
    """The formulation and solver the selector ``name`` (``auto``, ``robust``: given on the
    command line or as the declared default) picks for the instance, said on stderr (in the
    JSON as ``auto``, with ``selector``); None, with the error in ``out``, when the command
    line names the other half as something else, the puzzle has no rule or its rule reads a
    feature the instance's features lack."""
    from bench.select.rules import resolve

    form, solver = args.formulation, args.solver
    if form and solver and form != solver:
        other, what = (solver, "solver") if form == name else (form, "formulation")
        out.update(status="error", message=f"{args.instance}: {name} chooses the formulation "
                   f"and the solver together; give --formulation {name} or --solver {name} "
                   f"alone, not with --{what} {other}")
        return None
    try:
        form, solver, choice = resolve(inst, name)
    except (KeyError, ValueError) as e:  # no rule, or a feature its rule reads is missing
        out.update(status="error", message=f"{args.instance}: {e.args[0]}")
        return None
    out["auto"] = {"pair": choice.pair, "why": choice.why, "selector": name}
    if not args.json:
        print(f"{name} chose {choice.pair}: {choice.why}", file=sys.stderr)
    return form, solver


def count_line(count: int | None, limit: int) -> str:
    """What `solve --count N` says of the count: all there are when fewer than N were found."""
    if count is None:
        return f"solutions: not counted (counting up to {limit} stopped early)"
    if count < limit:
        return f"solutions: {count} (all there are)"
    return f"solutions: at least {count} (counted up to {limit})"


def _trace(trace: str, puzzle: str, label: str, verbose: bool, phase: str = "") -> str:
    """The error's traceback as `solve` shows it: the last frames of the code that raised,
    the puzzle's rules for an error in its ``verify`` phase, else the formulation's (every
    frame with ``-v``)."""
    from bench.failure import own_frames
    from bench.puzzles import get_puzzle
    from bench.registry import find_formulation, parse_label

    if verbose:
        return trace.rstrip()
    cls: type | None
    try:
        cls = type(get_puzzle(puzzle)) if phase == "verify" else \
            find_formulation(puzzle, parse_label(label)[0])
    except (KeyError, ValueError):
        cls = None
    whose = "the puzzle's rules" if phase == "verify" else "the formulation's code"
    frames = own_frames(trace, cls)
    return "\n".join([f"in {whose} (-v: the whole traceback):", *frames] if frames else [])


def formulation_for(puzzle: str, solver: str, declared: str) -> tuple[str, str]:
    """The formulation `solve --solver SOLVER` runs when none is named, and why: the puzzle's
    declared default formulation ``declared`` (a declared selector's fallback pair's) when
    ``solver`` takes its kind and it runs on it; else the first built-in formulation
    (``formulations/<puzzle>/``) of the solver's kinds, in the order of its kinds and then by
    name, that is available and runs on it; else the first plugin formulation so chosen (an
    installed plugin never displaces a built-in one). ``(declared, "")`` when none fits (or the
    solver is unknown): the pair's check then says why. A puzzle that declares no default
    (``declared`` is then its first registered formulation) is named so in the reason."""
    from bench.backends import get_backend
    from bench.puzzles import get_puzzle
    from bench.registry import BUILTIN, formulations, get_formulation

    try:
        named = getattr(get_puzzle(puzzle), "default", None) is not None
    except (KeyError, ValueError):
        named = False
    own = "declared default" if named else "first registered formulation (no declared default)"

    try:
        kinds = get_backend(solver).kinds
    except KeyError:
        return declared, ""
    try:
        default: Formulation | None = get_formulation(puzzle, declared, kinds)
    except (KeyError, ValueError):
        default = None
    if default is not None and default.kind in kinds and _runs_on(type(default), solver,
                                                                   default):
        return declared, f"the {own} of {puzzle}, a {default.kind} model {solver} takes"
    why = f"the {own} {declared} does not run on {solver}"
    if default is not None and default.kind not in kinds:
        why = f"the {own} {declared} is a {default.kind} model, which {solver} does not take"
    fits = [c for k in kinds for c in formulations(puzzle) if c.kind == k and _runs_on(c, solver)]
    for builtin in (True, False):
        for c in fits:
            if c.__module__.startswith(BUILTIN + ".") == builtin:
                what, none = ("built-in", "") if builtin else ("plugin", "; no built-in one does")
                return c.name, (f"the first {what} {c.kind} formulation of {puzzle} by name that "
                                f"runs on {solver} ({why}{none})")
    return declared, ""


def _runs_on(cls: type[Formulation], solver: str, variant: Formulation | None = None) -> bool:
    """Whether the formulation ``cls`` is available here and its ``variant`` (default: its
    default variant) does not refuse ``solver``."""
    try:
        return cls.available() is None and not (variant or cls()).refuses(solver)
    except Exception:  # a plugin's own code: a class that cannot say is not chosen
        return False


def _first_solver_for(puzzle: str, form: str, fallback: str) -> str:
    """The first available solver of the formulation ``form``'s kind, else ``fallback``;
    KeyError or ValueError when ``form`` names no formulation of ``puzzle``."""
    from bench.backends import backends_for
    from bench.registry import get_formulation

    kind = get_formulation(puzzle, form).kind
    return next((b.name for b in backends_for(kind) if b.available() is None), fallback)



def _emit_solve(args: argparse.Namespace, out: dict[str, Any], inst: Any,
                code: int = NOT_SOLVED) -> int:
    """Print ``out`` (the contract's JSON, or the grid and times); the exit code: 0 when
    solved, else ``code`` (:data:`NOT_SOLVED`, or :data:`BAD_INPUT` where no task ran). The
    contract's time fields are always there, null where no task ran."""
    code = 0 if out["status"] == "solved" else code
    for key in ("build_s", "solve_s", "wall_s"):
        out.setdefault(key, None)
    if args.json:
        print(json.dumps(out))
        return code
    if out["status"] != "solved":
        print(f"puzzlebench: {out['status']}: {out.get('message', '')}".rstrip(": "),
              file=sys.stderr)
        if out.get("_trace"):
            print(out["_trace"], file=sys.stderr)
        return code
    from bench.puzzles import get_puzzle

    print(get_puzzle(inst.puzzle).render(inst, out["grid"]))
    print(f"{out['formulation']} / {out['solver']}: build {out['build_s']:.3f} s, "
          f"solve {out['solve_s']:.3f} s, task wall {out['wall_s']:.3f} s")
    if args.count:
        print(count_line(out.get("count"), args.count))
    return code

"""What a finished run says of its ``error`` results (:func:`error_summary`).

How many tasks ended in error in each phase of the solve they were in (the ``phase`` a result
records: :data:`bench.failure.PHASES`, or none for an error outside the solve: a crash of the
task process, a kill from outside, code changed since the plan, an instance that can no
longer be read); one example of each phase, with its message and the ``puzzlebench solve``
command that runs that task alone under the same limits (:func:`solve_command`); and how to
run them again. A resume keeps an error result (it runs only the keys the folder lacks); a new
``--out`` with ``--reuse`` of the folder runs every error again and takes every other result
that still matches, since :mod:`bench.run.reuse` never reuses an error.
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from bench.failure import PHASES
from bench.records import Result

#: what `puzzlebench solve` does without the flag (bench/cli/args.py): a command leaves it out
SOLVE_DEFAULTS = {"seed": 0, "memory_limit_mb": 8192, "threads": 1}

#: how the summary names the errors that record no phase
OUTSIDE = "outside the solve (a crash, a kill from outside, code changed since the plan)"


def asked_count(key: str) -> int:
    """The solution count a task asked for (``count=N`` in its key,
    :func:`bench.records.task_key`), 0 when it did not count."""
    for part in key.split("|")[3:]:
        if part.startswith("count="):
            return int(part.removeprefix("count="))
    return 0


def _number(x: float) -> str:
    """``x`` as the command line takes it back exactly: ``60`` for 60.0, else its repr."""
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def solve_command(res: Result) -> str:
    """The ``puzzlebench solve`` command line that runs the task of ``res`` alone: its
    instance file, formulation variant, solver and time limit, and its seed, memory limit,
    threads and solution count where they differ from the command's defaults (shell-quoted)."""
    args = ["puzzlebench", "solve", res.instance_path, "--formulation", res.formulation,
            "--solver", res.solver, "--time-limit", _number(res.time_limit)]
    if res.seed != SOLVE_DEFAULTS["seed"]:
        args += ["--seed", str(res.seed)]
    if res.memory_limit_mb and res.memory_limit_mb != SOLVE_DEFAULTS["memory_limit_mb"]:
        args += ["--memory-limit", str(res.memory_limit_mb)]
    if res.threads != SOLVE_DEFAULTS["threads"]:
        args += ["--threads", str(res.threads)]
    if count := asked_count(res.key):
        args += ["--count", str(count)]
    return shlex.join(args)


def _where(phase: str) -> str:
    return f"in {phase}" if phase else OUTSIDE


def error_summary(results: Iterable[Result], folder: str | Path) -> list[str]:
    """The lines a finished run says of its ``error`` results (none when it has none): how
    many ended in error by phase (the solve's phases in their order, then any other, then the
    errors outside the solve), one example of each phase (the first by instance, formulation,
    solver and seed) with its message and :func:`solve_command` (none for an instance file
    that could not be read: it has no task), and the advice to rerun into a new ``--out``
    with ``--reuse`` of ``folder``."""
    errors = [r for r in results if r.status == "error"]
    if not errors:
        return []
    by_phase = Counter(r.phase for r in errors)
    order = [*PHASES, *sorted(set(by_phase) - set(PHASES) - {""}), ""]
    phases = [p for p in order if by_phase[p]]
    lines = [f"{len(errors)} task(s) ended in error: "
             + ", ".join(f"{by_phase[p]} {_where(p)}" for p in phases)]
    for p in phases:
        r = min((r for r in errors if r.phase == p),
                key=lambda r: (r.instance_path, r.formulation, r.solver, r.seed, r.rep))
        lines.append(f"error {_where(p)}, e.g. {r.instance} {r.formulation} / {r.solver}: "
                     f"{r.message}")
        if r.formulation != "-":
            lines.append(f"  to run it alone: {solve_command(r)}")
    lines.append("running this command again keeps them; to run them again, run with "
                 f"--out NEW_FOLDER --reuse {shlex.quote(str(folder))} (an error is never "
                 "reused, the other results are)")
    return lines

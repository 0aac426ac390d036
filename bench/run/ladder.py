"""The ladder rule of a suite that declares it (``ladder_rule = true``): a pair (formulation
variant, solver) whose first run timed out on an instance of a generated family is not run on
the instances after it in the family: the larger ones, and those of the same size with a later
seed. Same-size seeds are draws of one generator at one size; a pair that timed out on one of
them seldom answers another within the limit, and each such timeout costs the whole limit.
Each task left out is recorded, never dropped: a ``timeout`` result at the task's own limit
whose message (starting :data:`bench.records.NOT_RUN`) names the instance, its size and the
limit it timed out under. It therefore counts as unsolved (PAR-2), and as a censored time in
the growth table, like a timeout; the report counts these results per pair.

A family: the generated instances of one folder whose file names (``gen-PUZZLE-RxC-sN...``)
differ only in size and seed: ``gen-nurikabe-20x20-s1-big1-0`` and ``...-s2-big1-0`` are one
family, ``sparse/gen-nurikabe-20x20-s1-0`` is another. An instance's rung in its family is
(cell count, seed) (:func:`bench.suites.family`); instances of the same rung all run. With
``ladder_rule = true`` the rule holds across the suite's tiers, so a pair that timed out on a
ladder's 14x14 under its 3 s limit is not run on the hard tier's 20x20 of the same family, even
though the hard tier's limit is longer (the message gives both facts). A suite may instead name
the tiers the rule holds in (``ladder_rule = ["ladder"]``): a task of any other tier is outside
every family, neither left out nor a cause (:func:`bench.run.plan.rung`).

Method: the tasks run in steps, step k holding each family's k-th rung and step 0 also every
task outside a family. Before each step, the timeouts recorded so far (the journal's, so a
resumed run decides the same way) decide which of its tasks are left out; a recorded timeout
is placed in its family by its instance's content, as the planned task of that content is,
never by the path it recorded (the file may have moved since, or the path be relative to
another working folder).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bench.instance import read_instance
from bench.judge import UNJUDGED
from bench.judge import not_run as judge_not_run
from bench.records import NOT_RUN, Result, Task
from bench.run.execute import base_result
from bench.run.outcome import stamp
from bench.run.plan import Plan, content, rung


def steps(tasks: Iterable[Task], ladder: bool | frozenset[str] = True) -> list[list[Task]]:
    """The tasks in steps: step k holds each family's k-th rung (by size, then seed); step 0
    also holds the tasks outside a family (or outside the tiers ``ladder`` names)."""
    tasks = list(tasks)
    sizes: dict[str, set[tuple[int, int]]] = {}
    for t in tasks:
        f = rung(t, ladder)
        if f is not None:
            sizes.setdefault(f[0], set()).add(f[1])
    rank = {fam: {c: i for i, c in enumerate(sorted(cs))} for fam, cs in sizes.items()}
    out: list[list[Task]] = [[] for _ in range(max((len(r) for r in rank.values()),
                                                   default=1))]
    for t in tasks:
        f = rung(t, ladder)
        out[rank[f[0]][f[1]] if f else 0].append(t)
    return out


def causes(done: Iterable[Result], planned: Iterable[Task],
           ladder: bool | frozenset[str] = True
           ) -> dict[tuple[str, str, str], tuple[tuple[int, int], Result]]:
    """Per (family, formulation, solver): the earliest measured timeout (its rung and result)
    of a first run (repetition 0) in the tiers ``ladder`` names (True: every tier); recorded
    not-run results do not count. A result is placed in its family by its instance's content,
    as the ``planned`` task of that content is (:func:`bench.run.plan.rung`), so a resume
    from another working folder or after a file was moved decides as the run it resumes."""
    where = {content(t): t for t in planned}
    out: dict[tuple[str, str, str], tuple[tuple[int, int], Result]] = {}
    for r in done:
        f = rung(r, ladder, where)
        if f is None or r.status != "timeout" or r.rep or r.message.startswith(NOT_RUN):
            continue
        k = (f[0], r.formulation, r.solver)
        if k not in out or f[1] < out[k][0]:
            out[k] = (f[1], r)
    return out


def not_run(task: Task, cause: Result, larger: bool = True) -> Result:
    """The recorded result of a task the rule leaves out, as the judge records one
    (:func:`bench.judge.not_run`: a timeout at its own limit, not measured), whose message
    names the timed-out instance (``larger``: a smaller instance of the family, else the same
    size with an earlier seed); stamped with its identity on this machine, where the rule
    decided it (never reused: :mod:`bench.run.reuse`)."""
    res = base_result(task, read_instance(task.instance), UNJUDGED)
    res.kind, res.solver_version, res.rep = cause.kind, cause.solver_version, task.rep
    judge_not_run(res, f"timed out on {cause.instance} ({cause.rows}x{cause.cols}, "
                       f"limit {cause.time_limit:g} s), "
                       + ("a smaller instance of its family" if larger
                          else "an earlier seed of the same size in its family"))
    return stamp(res, task)


def left_out(step: list[Task], done: Iterable[Result], planned: Iterable[Task],
             ladder: bool | frozenset[str] = True) -> tuple[list[Task], list[Result]]:
    """The step's tasks to run, and the not-run results of those the rule leaves out: one
    per (instance, formulation, solver), for its first run (repetition 0, lowest seed); its
    further repetitions are dropped, as the repetition gate drops those of a slow first run.
    ``planned``: the plan's tasks, which place ``done`` in their families (:func:`causes`)."""
    why = causes(done, planned, ladder)
    base: dict[tuple[str, str, str], int] = {}
    for t in step:
        g = (t.instance, t.formulation, t.solver)
        base[g] = min(base.get(g, t.seed), t.seed)
    run: list[Task] = []
    out: list[Result] = []
    for t in step:
        f = rung(t, ladder)
        c = why.get((f[0], t.formulation, t.solver)) if f else None
        if f is None or c is None or c[0] >= f[1]:
            run.append(t)
        elif t.rep == 0 and t.seed == base[(t.instance, t.formulation, t.solver)]:
            out.append(not_run(t, c[1], larger=c[0][0] < f[1][0]))
    return run, out


def run_ladder(plan: Plan, run: Callable[[Plan], object],
               done: Callable[[], Iterable[Result]],
               ladder: bool | frozenset[str] = True) -> None:
    """Run ``plan`` in :func:`steps`, recording the tasks :func:`left_out` leaves out (as
    ``Plan.errors`` are: journaled, not run). ``run`` runs a plan (the repetition gate
    included); ``done`` gives the results so far; ``ladder``: the tiers the rule holds in
    (True: every tier)."""
    errors = list(plan.errors)
    for step in steps(plan.tasks, ladder):
        keep, skipped = left_out(step, done(), plan.tasks, ladder)
        run(Plan(tasks=keep, errors=[*errors, *skipped]))
        errors = []

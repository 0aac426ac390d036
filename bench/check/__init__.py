"""``puzzlebench check NAME``: the conformance checks of one formulation, without pytest, from
an installed package (the instances are package data of each puzzle's folder: ``data/*.txt``
and ``data/infeasible/*.txt``, :meth:`~bench.puzzles.Puzzle.check_instances`).

For each variant of the formulation (its recommended ones; one variant when a label is
given), on one available solver of its kind, in this process:

* ``solve``: the puzzle's check instances (its seed puzzles; Fillomino: a small real and a
  small generated one) are solved and the grids pass the rule verifier (an inexact variant
  may say infeasible, never return a wrong grid); MIP variants take the smallest only;
* ``unsat``: the puzzle's unsatisfiable instance is reported infeasible (exact variants);
* ``exact``: on tiny drawn instances whose solutions are known by brute force
  (:mod:`bench.check.tiny`) the variant finds a solution exactly when one exists, and every
  solution it finds is one of them;
* ``count``: with ``block``, counting finds each brute-force solution once: fewer means the
  model (or the block) forbids a valid solution, more means the block is not projected onto
  the cell values (a solution counted once per assignment of auxiliary variables);
* ``lazy``: a lazy variant's loop ends on every instance above, and every round whose
  ``separate`` reports cuts grows the model.

Each check is one :class:`Check` (pass, fail with the reason, or skip when it does not apply);
the method is the one of ``tests/test_conformance.py``, which runs it for every registered
formulation.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench.backends import Backend, SolveOptions, backends_for, check_preference, get_backend
from bench.check.tiny import Drawn, Tiny, drawn
from bench.failure import Failure
from bench.instance import Instance, read_instance
from bench.models import AspModel, Model
from bench.puzzles import SolutionGrid, get_puzzle
from bench.registry import Formulation, Unsupported
from bench.solve import (
    Loop,
    PhaseError,
    SolveStats,
    cannot_count,
    kind_mismatch,
    phase,
    skip_reason,
)

TIME_LIMIT = 20.0
#: lazy rounds per solve before the loop counts as not terminating
MAX_ROUNDS = 2000


@dataclass(frozen=True)
class Check:
    name: str  # solve, unsat, exact, count, lazy
    variant: str  # puzzle/label / solver
    status: str  # "pass", "fail", "skip"
    detail: str

    def line(self) -> str:
        return f"{self.status.upper():<4} {self.name:<6} {self.variant}: {self.detail}"


def solve_paths(puzzle: str) -> list[Path]:
    """The puzzle's instances with a solution, smallest first."""
    paths = get_puzzle(puzzle).check_instances()
    return sorted(paths, key=lambda p: (read_instance(p).cells, p.name))


def seed_paths(puzzle: str) -> list[Path]:
    """Deprecated name of :func:`solve_paths` (until 0.3)."""
    warnings.warn("bench.check.seed_paths is renamed solve_paths (the old name works until 0.3)",
                  DeprecationWarning, stacklevel=2)
    return solve_paths(puzzle)


def unsat_paths(puzzle: str) -> list[Path]:
    """The puzzle's instances without a solution."""
    return get_puzzle(puzzle).infeasible_instances()


def solver_for(form: Formulation, wanted: str | None = None) -> Backend | None:
    if wanted:
        return get_backend(wanted)
    # one solver per kind, the first available in the backends' declared preference
    preferred = check_preference()
    usable = [b for b in backends_for(form.kind) if b.available() is None]
    usable.sort(key=lambda b: preferred.index(b.name) if b.name in preferred else len(preferred))
    return usable[0] if usable else None


@dataclass
class Run:
    """What one model of one instance gave: the grids found (up to ``limit``), the status
    that ended the search, and any failure (a formulation error, a wrong grid, a lazy round
    without cuts)."""

    grids: list[SolutionGrid] = field(default_factory=list)
    status: str = ""  # "infeasible" (no more), "limit", "timeout", "error", "skipped", ...
    problem: str = ""
    rounds: int = 0
    phase: str = ""  # of an "error": the step that raised (bench.failure.PHASES)


def search(inst: Instance, form: Formulation, backend: Backend, limit: int,
           time_limit: float = TIME_LIMIT) -> Run:
    """Solve ``inst`` and, up to ``limit`` solutions, block each and solve again (the solve
    loop of :mod:`bench.solve`, with every grid kept and every lazy round watched)."""
    run = Run()
    deadline = time.perf_counter() + time_limit
    stats = SolveStats()
    sizes: list[int] = []
    built: list[Model] = []

    def round_(s: SolveStats, _message: str) -> None:
        run.rounds += 1
        size = _grown(built[0])
        if sizes and size <= sizes[-1]:
            raise PhaseError(_no_cut(form, size))
        sizes.append(size)
        if run.rounds > MAX_ROUNDS:
            raise PhaseError(_no_end(form))

    try:
        reason = skip_reason(inst, form, backend)
        if reason:
            run.status, run.problem = "skipped", reason
            return run
        with phase("build", form):
            model = form.build(inst)
        mismatch = kind_mismatch(form, backend, model)
        if mismatch:
            run.status, run.problem = "error", mismatch
            return run
        built.append(model)
        sizes.append(_grown(model))
        with phase("solve", form):
            session = backend.start(model, SolveOptions())
        loop = Loop(inst, form, model, session, deadline, stats, round_)
        try:
            _count(loop, run, limit)
        finally:
            session.close()
    except Unsupported as e:  # as the task says it: the variant does not take the instance
        run.status, run.problem = "skipped", str(e)
    except PhaseError as e:
        run.status, run.problem, run.phase = "error", e.failure.message, e.failure.phase
    return run


def _count(loop: Loop, run: Run, limit: int) -> None:
    form, inst = loop.form, loop.inst
    while True:
        outcome = loop.settle()
        if outcome.value is None:
            run.status = outcome.status
            return
        grid, problems = loop.decoded(outcome)
        if problems:
            run.status, run.problem = "wrong", f"a grid the verifier rejects: {problems[0]}"
            return
        run.grids.append(grid)
        if len(run.grids) >= limit:
            run.status = "limit"
            return
        with phase("block", form):
            blocked = form.block(inst, loop.model, grid)
        if not blocked:
            run.status, run.problem = "noblock", cannot_count(form, blocked)
            return


def _grown(model: Model) -> int:
    """How far the model has grown: its constraints (an ASP program: its added rules, whose
    ground size is known only after the next solve)."""
    if isinstance(model, AspModel):
        return len(model.added)
    return model.size()["constraints"]


def _no_cut(form: Formulation, size: int) -> Failure:
    return Failure("separate", f"{form.label}: separate reported cuts but the model did not "
                   f"grow ({size} constraints): the lazy loop would not end", "")


def _no_end(form: Formulation) -> Failure:
    return Failure("separate", f"{form.label}: the lazy loop went past {MAX_ROUNDS} rounds", "")


def picture(grid: SolutionGrid) -> str:
    return " / ".join(" ".join(str(v) for v in row) for row in grid)


def counts_solutions(form: Formulation) -> bool:
    return type(form).block is not Formulation.block


@dataclass
class Notes:
    """What the lazy check learns from every solve of the other checks: the instances solved
    (not skipped), the first failure of the loop (an error of ``separate``: it raised, or its
    round added no cut, or the loop did not end) and the solves that ended in another error
    (the loop was not seen to end there)."""

    rounds: list[str] = field(default_factory=list)  # "instance solves" where a loop ran
    failure: str = ""
    ran: int = 0
    errors: list[str] = field(default_factory=list)

    def saw(self, name: str, run: Run) -> None:
        if run.status == "skipped":
            return
        self.ran += 1
        if run.rounds:
            self.rounds.append(f"{name} {run.rounds + 1}")
        if run.status != "error":
            return
        if run.phase != "separate":
            self.errors.append(f"{name}: {run.problem}")
        elif not self.failure:
            self.failure = f"{name}: {run.problem}"


def check_variant(form: Formulation, backend: Backend,
                  time_limit: float = TIME_LIMIT) -> Iterator[Check]:
    """The checks of one variant on one solver, in order."""
    where = f"{form.puzzle}/{form.label} / {backend.name}"
    refused = form.refuses(backend.name)
    if refused:
        yield Check("solver", where, "skip", refused)
        return
    notes = Notes()
    yield _solve(form, backend, where, time_limit, notes)
    yield _unsat(form, backend, where, time_limit, notes)
    yield from _tiny_checks(form, backend, where, time_limit, notes)
    if form.is_lazy():
        yield _lazy(where, notes)


def _lazy(where: str, notes: Notes) -> Check:
    """The lazy check's line: a fail at the loop's first failure; not applicable when no
    instance's loop ran to an end (every solve skipped, or ended in an error elsewhere); else
    a pass naming the instances whose loop ended."""
    if notes.failure:
        return Check("lazy", where, "fail", notes.failure)
    if len(notes.errors) == notes.ran:
        return Check("lazy", where, "skip", (
            f"no loop ran to its end: every solve ended in an error before (e.g. "
            f"{notes.errors[0]})") if notes.ran else "every instance was skipped by the variant")
    on = (f"{notes.ran - len(notes.errors)} of the {notes.ran} instances solved (the others "
          "ended in an error outside separate)") if notes.errors else "every instance"
    return Check("lazy", where, "pass", f"the loop ended on {on} (solves per instance: "
                 + (", ".join(notes.rounds[:6]) or "1 each") + ")")


def _solve(form: Formulation, backend: Backend, where: str, time_limit: float,
           notes: Notes) -> Check:
    paths = solve_paths(form.puzzle)
    if not paths:
        return Check("solve", where, "skip", f"no {form.puzzle} instance with a solution shipped "
                     "(data/*.txt beside rules.py; an installed plugin needs them as package "
                     "data)")
    if form.kind == "mip":
        paths = paths[:1]
    failures: list[str] = []
    solved, skipped = 0, []
    for path in paths:
        run = search(read_instance(path), form, backend, 1, time_limit)
        notes.saw(path.stem, run)
        if run.status == "skipped":
            skipped.append(run.problem)
        elif run.grids:
            solved += 1
        elif run.status == "infeasible" and form.is_exact():
            failures.append(f"{path.name}: infeasible, but it has a solution (an exact "
                            "formulation must find it)")
        elif run.status != "infeasible":
            failures.append(f"{path.name}: {run.status} {run.problem}".strip())
    if len(skipped) == len(paths):
        return _all_skipped("solve", where, skipped)
    skip_note = f", {len(skipped)} skipped by the variant" if skipped else ""
    return (Check("solve", where, "fail", "; ".join(failures[:2])) if failures else
            Check("solve", where, "pass", f"{solved} of {len(paths)} solved and checked"
                  f"{skip_note}"))


def _all_skipped(name: str, where: str, reasons: list[str]) -> Check:
    """The line of a check whose every instance the variant skipped: not applicable, with
    the first reason (nothing was tested, so nothing passed)."""
    return Check(name, where, "skip", f"all {len(reasons)} instance(s) skipped by the variant "
                 f"({reasons[0]})")


def untested(cases: list[Tiny]) -> str:
    """What the drawn tiny boards leave untested, as a note for the exact check's line ("" when
    they hold a board without a solution and one with several): the boards are random draws
    (:func:`~bench.check.tiny.tiny_cases`), so a puzzle's ``TINY`` may yield neither."""
    missing = [what for what, ok in (
        ("no board without a solution (infeasibility)", any(not c.solutions for c in cases)),
        ("no board with several solutions (counting)", any(len(c.solutions) > 1 for c in cases)))
        if not ok]
    return (f"; drawn: {' and '.join(missing)}, so not tested here (other givens in tiny.py's "
            "TINY make one likelier)") if missing else ""


def none_kept(got: Drawn) -> str:
    """Why no tiny board was kept, as the exact check's fail: of the boards drawn, how many the
    puzzle refused (with the first reason) and how many had too many solutions."""
    refused = (f"{got.refused} were refused by parse_token or validate"
               + (f" (e.g. {got.refusal})" if got.refusal else ""))
    crowded = f"{got.crowded} had more than {got.max_solutions} solutions"
    hint = ("tiny.py's TINY draws tokens the puzzle refuses" if got.refused == got.distinct else
            "more givens in TINY, or a verify that rejects more grids, leave fewer"
            if got.crowded == got.distinct else "")
    return (f"no tiny board was tested: of the {got.distinct} distinct boards drawn from "
            f"tiny.py's TINY, {refused} and {crowded}" + (f"; {hint}" if hint else ""))


def _unsat(form: Formulation, backend: Backend, where: str, time_limit: float,
           notes: Notes) -> Check:
    unsat = unsat_paths(form.puzzle)
    if not unsat:
        return Check("unsat", where, "skip", f"no unsatisfiable {form.puzzle} instance shipped")
    bad, skipped = [], []
    for path in unsat:
        run = search(read_instance(path), form, backend, 1, time_limit)
        notes.saw(path.stem, run)
        if run.status == "skipped":
            skipped.append(run.problem)
        if run.grids or run.status not in ("infeasible", "skipped"):
            got = "a solution" if run.grids else f"{run.status} {run.problem}".strip()
            if run.grids or form.is_exact() or run.status != "infeasible":
                bad.append(f"{path.name}: {got}")
    if len(skipped) == len(unsat):
        return _all_skipped("unsat", where, skipped)
    skip_note = f", {len(skipped)} skipped by the variant" if skipped else ""
    return (Check("unsat", where, "fail", "; ".join(bad)) if bad else
            Check("unsat", where, "pass", f"{len(unsat) - len(skipped)} unsatisfiable "
                  f"instance(s) reported infeasible{skip_note}"))


@dataclass
class _Tally:
    """What the tiny boards gave the exact and count checks: the exact check's failures, the
    count check's failures, the boards whose count was compared with brute force (and their
    solutions), the boards no count could be taken of, with why, and those the variant
    skipped."""

    found_bad: list[str] = field(default_factory=list)
    count_bad: list[str] = field(default_factory=list)
    counted: list[str] = field(default_factory=list)
    solutions: int = 0
    uncounted: list[str] = field(default_factory=list)
    skips: dict[str, str] = field(default_factory=dict)  # board -> the variant's reason


def _tiny_checks(form: Formulation, backend: Backend, where: str, time_limit: float,
                 notes: Notes) -> Iterator[Check]:
    counts = counts_solutions(form)
    try:
        got = drawn(form.puzzle)
    except PhaseError as e:  # the puzzle's verify failed in brute force: nothing to compare
        yield Check("exact", where, "fail", "brute force could not list the tiny boards' "
                    f"solutions: {e.failure.message}")
        yield _count_check(counts, where, 0, 0, _Tally())
        return
    if got is None or not got.cases:
        yield (Check("exact", where, "skip", f"{form.puzzle} has no tiny boards (tiny.py's TINY "
                     "beside rules.py: docs/adding-a-puzzle.md)") if got is None else
               Check("exact", where, "fail", none_kept(got)))
        yield _count_check(counts, where, 0, 0, _Tally())
        return
    cases, tally = got.cases, _Tally()
    for case in cases:
        run = search(case.inst, form, backend, len(case.solutions) + 2 if counts else 1,
                     time_limit)
        notes.saw(case.name, run)
        _judge(form, case, run, counts, tally)
    yield _exact_check(where, cases, tally)
    yield _count_check(counts, where, len(cases), sum(bool(c.solutions) for c in cases), tally)


def _exact_check(where: str, cases: list[Tiny], tally: _Tally) -> Check:
    """The exact check's line: a fail at the boards whose solve disagrees with brute force; not
    applicable when the variant skipped every board; else a pass naming what was compared."""
    if tally.found_bad:
        return Check("exact", where, "fail", "; ".join(tally.found_bad[:2]))
    if len(tally.skips) == len(cases):
        return _all_skipped("exact", where, list(tally.skips.values()))
    kept = [c for c in cases if c.name not in tally.skips]
    skip_note = f", {len(tally.skips)} skipped by the variant" if tally.skips else ""
    return Check("exact", where, "pass", f"{len(kept)} tiny instances agree with brute force "
                 f"({sum(len(c.solutions) for c in kept)} solutions, "
                 f"{sum(not c.solutions for c in kept)} unsatisfiable){skip_note}"
                 f"{untested(kept)}")


def _judge(form: Formulation, case: Tiny, run: Run, counts: bool, tally: _Tally) -> None:
    """Add what one tiny board's search shows to ``tally``."""
    same = get_puzzle(form.puzzle).same
    n = len(case.solutions)
    if run.status == "skipped":
        tally.skips[case.name] = run.problem
        return
    if run.status in ("error", "wrong", "timeout", "unknown", "memout"):
        tally.found_bad.append(f"{_where(case)}: {run.status} {run.problem}".strip())
        tally.uncounted.append(f"{case.name}: {run.status} {run.problem}".strip())
        return
    strangers = [g for g in run.grids if not any(same(case.inst, g, s) for s in case.solutions)]
    if strangers:  # the verifier accepted it, so brute force must have it
        tally.found_bad.append(f"{_where(case)}: found {picture(strangers[0])}, "
                               "which brute force does not list")
        tally.uncounted.append(f"{case.name}: found a grid brute force does not list")
        return
    if n and not run.grids and form.is_exact():
        tally.found_bad.append(f"{_where(case)}: infeasible, but {n} solution(s) exist, e.g. "
                               f"{picture(case.solutions[0])} (the model forbids it)")
    if not counts or not n or not run.grids:
        return
    if run.status == "noblock":
        if run.problem not in tally.count_bad:
            tally.count_bad.append(run.problem)
        return
    tally.counted.append(case.name)
    tally.solutions += n
    got = len(run.grids)
    if got > n:
        tally.count_bad.append(f"{_where(case)}: counted {got}+ solutions, brute force {n}: "
                               "block is not projected onto the cell values (the same grid "
                               "came back)" if _repeats(case, run) else
                               f"{_where(case)}: counted {got}, brute force {n}")
    elif got < n and (form.is_exact() or got):
        missing = next(s for s in case.solutions
                       if not any(same(case.inst, g, s) for g in run.grids))
        tally.count_bad.append(f"{_where(case)}: counted {got} of {n} solutions; missing "
                               f"{picture(missing)} (the model or block forbids it)")


def _count_check(counts: bool, where: str, boards: int, solvable: int, tally: _Tally) -> Check:
    """The count check's line: a fail when a count differs from brute force or a board could
    not be counted (its solve failed); a pass names only the boards actually counted."""
    if not counts:
        return Check("count", where, "skip", "no block: to count, implement block(inst, model, "
                     "grid) excluding the grid's cell values and return True")
    if not boards:
        return Check("count", where, "skip", "no tiny board to count (see the exact line)")
    uncounted = (f"{len(tally.uncounted)} of {boards} tiny instances could not be counted "
                 f"({'; '.join(tally.uncounted[:2])})") if tally.uncounted else ""
    bad = [*tally.count_bad[:2], *([uncounted] if uncounted else [])]
    if bad:
        return Check("count", where, "fail", "; ".join(bad))
    if not tally.counted:
        return Check("count", where, "skip", f"none of the {boards} tiny instances was counted "
                     f"({len(tally.skips)} skipped by the variant, the rest unsatisfiable or "
                     "reported infeasible)")
    skip_note = f", {len(tally.skips)} skipped by the variant" if tally.skips else ""
    which = (f"the {solvable}" if len(tally.counted) == solvable else
             f"{len(tally.counted)} of the {solvable}")
    return Check("count", where, "pass", f"counts equal brute force on {which} tiny instances "
                 f"with solutions ({', '.join(tally.counted)}: {tally.solutions} solutions; "
                 f"block is projected){skip_note}")


def _repeats(case: Tiny, run: Run) -> bool:
    same = get_puzzle(case.inst.puzzle).same
    return any(same(case.inst, a, b) for i, a in enumerate(run.grids)
               for b in run.grids[i + 1:])


def _where(case: Tiny) -> str:
    return f"{case.name} ({case.text.replace(chr(10), ' / ')})"

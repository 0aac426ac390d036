"""The one solve loop: build, solve, separate (lazy formulations), decode, check, count.

:func:`solve` is used by the task (:func:`bench.run.execute.execute`) and by the generators
(:mod:`bench.generate`, to find a solution other than the intended one): both go through the
same build / lazy loop / decode / check / block steps, so a formulation behaves the same in a
benchmark and in the uniqueness loop of a generator.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

from bench.backends import Backend, Outcome, Session, SolveOptions, backends_for
from bench.failure import Failure, describe
from bench.instance import Instance
from bench.models import Model
from bench.puzzles import Puzzle, SolutionGrid, get_puzzle
from bench.registry import Formulation, Unsupported, formulations


@dataclass
class SolveStats:
    """What the solve took so far (the task's result reports these)."""

    build_s: float = 0.0
    solve_s: float = 0.0  # wall time in the solver calls and the separation
    solver_s: float = 0.0  # the solver's own time, as it reports it
    iterations: int = 0  # solver calls (lazy rounds and counting included)
    variables: int = 0
    constraints: int = 0  # cuts and blocking constraints included
    #: machine-independent effort summed over the solver calls (Outcome.stats)
    effort: dict[str, float] = field(default_factory=dict)


@dataclass
class Solved:
    """The result of :func:`solve`. ``status`` is the first solve's: ``"solved"`` or
    ``"wrong"`` (with ``grid`` and the verifier's ``problems``), else the solver's status
    without a solution (``"infeasible"``, ``"timeout"``, ...), ``"skipped"`` with the
    formulation's reason in ``message`` (:meth:`Formulation.skip`), or ``"error"`` with
    ``message`` when ``exclude`` cannot be blocked, the formulation (or its solver) raised, its
    build returned no model its solvers take, or the puzzle's ``verify`` raised or returned no
    list: then ``failure`` holds the phase (and the traceback of what raised). When counting,
    ``count`` is the number of solutions found up to the requested count (fewer: that is all
    there are); ``count_status`` is set (``"error"``, ``"timeout"`` or ``"wrong"``, with
    ``count_message``) when counting stopped early, ``count`` then None except after a
    timeout."""

    status: str
    stats: SolveStats
    grid: SolutionGrid | None = None
    problems: list[str] = field(default_factory=list)
    message: str = ""
    count: int | None = None
    count_status: Literal["", "error", "timeout", "wrong"] = ""
    count_message: str = ""
    failure: Failure | None = None


class PhaseError(Exception):
    """An exception of the formulation or its solver, with the phase it was raised in
    (``failure``); raised out of the solve loop and turned into an ``error`` result."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@contextmanager
def phase(name: str, form: Formulation) -> Iterator[None]:
    """Run a step of the solve; an exception in it (not a MemoryError: that is a memout) is
    re-raised as :class:`PhaseError` naming the step and the formulation's own line."""
    try:
        yield
    except (MemoryError, PhaseError, Unsupported):
        raise
    except Exception as e:
        raise PhaseError(describe(e, name, form)) from e


def skip_reason(inst: Instance, form: Formulation, backend: Backend) -> str:
    """Why ``form`` does not take ``inst`` on ``backend`` ("" when it does): its refusal of the
    solver, else its :meth:`~bench.registry.Formulation.skip`, called in the ``skip`` phase (an
    exception is a :class:`PhaseError`). A reason that is not a str but is true (a ``skip``
    returning True) is a reason all the same, said as ``str()`` of it."""
    with phase("skip", form):
        reason = form.refuses(backend.name) or form.skip(inst)
    return str(reason) if reason else ""


def verified(rules: Puzzle, inst: Instance, grid: SolutionGrid, label: str) -> list[str]:
    """The rules ``grid`` breaks (``rules.verify``; [] when it is a solution of ``inst``), in
    the ``verify`` phase: an exception of ``verify``, or a result that is not a list (None:
    a forgotten ``return``), is a :class:`PhaseError` of the puzzle's rules, naming their module
    (and the line that raised), not the formulation's; ``label`` (the formulation's) leads."""
    try:
        problems = rules.verify(inst, grid)
    except MemoryError:
        raise
    except Exception as e:
        failure = describe(e, "verify", rules)
        said = failure.message.split(": verify: ", 1)[-1]
        raise PhaseError(Failure("verify", f"{label}: verify: {said}, in the {rules.name} "
                                 f"puzzle's rules ({_verify_of(rules)}), not the formulation",
                                 failure.traceback)) from e
    if isinstance(problems, list):
        return problems
    got = ("None (missing `return`?)" if problems is None else
           f"{type(problems).__name__}, not a list")
    raise PhaseError(Failure("verify", f"{label}: verify returned {got}: {_verify_of(rules)} "
                             "must return the list of rules the grid breaks ([] for a "
                             "solution)", ""))


def _verify_of(rules: Puzzle) -> str:
    cls = type(rules)
    return f"{cls.__qualname__}.verify in {cls.__module__}"


def cannot_count(form: Formulation, blocked: object = False) -> str:
    """Why ``form`` cannot count: it has no ``block`` of its own, or its ``block`` returned
    ``blocked`` (False: it declined, this model cannot exclude a grid; anything else but True:
    a forgotten ``return True``)."""
    cls = type(form)
    where = f"block(inst, model, grid) on {cls.__qualname__} ({cls.__module__})"
    if getattr(cls, "block", None) is Formulation.block:
        return (f"{form.label} cannot count solutions: implement {where}, adding a constraint "
                "that excludes the grid's cell values, and return True")
    if blocked is False:
        return (f"{form.label} cannot count solutions: {where} returned False (this model "
                "cannot exclude a grid)")
    return (f"{form.label} cannot count solutions: {where} returned {blocked!r}: return True "
            "once the grid is excluded (False: this model cannot exclude it)")


def kind_mismatch(form: Formulation, backend: Backend, model: object) -> str | None:
    """Why ``model`` (what ``build`` returned) does not fit the backend of the formulation's
    declared ``kind``, None when it fits: one line naming the formulation's class and the model
    type its solvers take (a build that returned None: most likely a missing ``return``)."""
    if isinstance(model, backend.model_type):
        return None
    cls, expected = type(form), backend.model_type.__name__
    if model is None:
        return (f"{form.label}: build returned None (missing `return`?): "
                f"{cls.__qualname__}.build ({cls.__module__}) must return the {expected} it "
                "built")
    return (f"{form.label} ({cls.__qualname__} in {cls.__module__}) declares kind = "
            f"{form.kind!r}, whose solvers take a {expected}, but its build "
            f"returned {type(model).__name__}: set kind to the model's kind or build a "
            f"{expected}")


#: called after the build (``on_built``) and before each further lazy round (``on_round``,
#: with the message a task killed in that round reports)
OnBuilt = Callable[[SolveStats], None]
OnRound = Callable[[SolveStats, str], None]


def solve(inst: Instance, form: Formulation, backend: Backend, deadline: float,
          count: int | None = None, exclude: SolutionGrid | None = None,
          options: SolveOptions | None = None, on_built: OnBuilt | None = None,
          on_round: OnRound | None = None) -> Solved:
    """Build ``form``'s model of ``inst``, solve it on ``backend`` until ``deadline`` (a
    ``time.perf_counter()`` value), decode and check the solution; with ``count``, count
    solutions up to it (each excluded by ``form.block``); with ``exclude``, block that grid
    first (a solution other than ``exclude``; "infeasible" means there is none)."""
    stats = SolveStats()
    try:
        reason = skip_reason(inst, form, backend)
        if reason:
            return Solved("skipped", stats, message=f"{form.label}: {reason}")
        return _solve(inst, form, backend, deadline, stats, count, exclude, options, on_built,
                      on_round)
    except Unsupported as e:
        return Solved("skipped", stats, message=f"{form.label}: {e}")
    except PhaseError as e:
        return Solved("error", stats, message=e.failure.message, failure=e.failure)


def _solve(inst: Instance, form: Formulation, backend: Backend, deadline: float,
           stats: SolveStats, count: int | None, exclude: SolutionGrid | None,
           options: SolveOptions | None, on_built: OnBuilt | None,
           on_round: OnRound | None) -> Solved:
    t0 = time.perf_counter()
    with phase("build", form):
        model = form.build(inst)
    stats.build_s = time.perf_counter() - t0
    mismatch = kind_mismatch(form, backend, model)
    if mismatch:  # what build returned is the error: an error of the build
        failure = Failure("build", mismatch, "")
        return Solved("error", stats, message=mismatch, failure=failure)
    size = model.size()
    stats.variables, stats.constraints = size["variables"], size["constraints"]
    if on_built is not None:
        on_built(stats)
    if exclude is not None:
        with phase("block", form):
            blocked = form.block(inst, model, exclude)
        if not blocked:
            return Solved("error", stats, message=cannot_count(form))
    with phase("solve", form):
        session = backend.start(model, options or SolveOptions())
    loop = Loop(inst, form, model, session, deadline, stats, on_round)
    try:
        return loop.run(count)
    finally:
        session.close()
        loop.update()


@dataclass
class Loop:
    """One model in one solver session (see :func:`solve`)."""

    inst: Instance
    form: Formulation
    model: Model
    session: Session
    deadline: float
    stats: SolveStats
    on_round: OnRound | None = None

    def update(self) -> None:
        """The model's size as it stands: cuts and blocks add constraints, and a model whose
        size is known only once solved (an ASP program's ground atoms and rules, an external
        package's own model) has it only now."""
        size = self.model.size()
        self.stats.variables, self.stats.constraints = size["variables"], size["constraints"]

    def settle(self) -> Outcome:
        """Solve; for lazy formulations separate and re-solve until the solution stands. A
        solver call or a separation that raises adds the time it took before raising to
        ``stats`` (a solver call's to ``solver_s`` too, timed around it) before the error
        leaves: an ``error`` keeps what its solve measured."""
        stats, lazy = self.stats, self.form.is_lazy()
        while True:
            t0 = time.perf_counter()
            try:
                with phase("solve", self.form):
                    outcome = self.session.solve(self.deadline - time.perf_counter())
            except PhaseError:  # the time up to the raise was spent solving: it is kept
                stats.iterations += 1
                spent = time.perf_counter() - t0
                stats.solve_s += spent
                stats.solver_s += spent  # no time of the solver's own: timed around it
                raise
            stats.iterations += 1
            stats.solve_s += outcome.wall_s
            stats.solver_s += outcome.solver_s
            for k, v in outcome.stats.items():
                stats.effort[k] = stats.effort.get(k, 0.0) + v
            if outcome.value is None or not lazy:
                return outcome
            ts = time.perf_counter()
            try:
                with phase("separate", self.form):
                    added = self.form.separate(self.inst, self.model, outcome.value)
            finally:  # a separation that raised took its time too
                stats.solve_s += time.perf_counter() - ts
            if added == 0:
                return outcome
            if time.perf_counter() >= self.deadline:
                return Outcome("timeout", None, outcome.solver_s, outcome.wall_s)
            if self.on_round is not None:
                self.update()
                self.on_round(stats, f"killed in lazy iteration {stats.iterations + 1}")

    def decoded(self, outcome: Outcome) -> tuple[SolutionGrid, list[str]]:
        assert outcome.value is not None
        with phase("decode", self.form):
            grid = self.form.decode(self.inst, self.model, outcome.value)
        if not isinstance(grid, list):
            cls = type(self.form)
            raise PhaseError(Failure("decode", f"{self.form.label}: decode of "
                                     f"{cls.__qualname__} ({cls.__module__}) returned "
                                     f"{type(grid).__name__}, not the solution grid (a list "
                                     "of rows)", ""))
        return grid, verified(get_puzzle(self.inst.puzzle), self.inst, grid, self.form.label)

    def run(self, count: int | None) -> Solved:
        outcome = self.settle()
        if outcome.value is None:
            return Solved(outcome.status, self.stats)
        grid, problems = self.decoded(outcome)
        found = Solved("wrong" if problems else "solved", self.stats, grid, problems)
        if count is not None and not problems:
            self.count_more(found, count)
        return found

    def count_more(self, found: Solved, count: int) -> None:
        """Count solutions up to ``count``, each excluded by ``form.block`` (projected onto
        the puzzle's cell values), each decoded one checked."""
        assert found.grid is not None
        grid, n = found.grid, 1
        while n < count:
            try:
                with phase("block", self.form):
                    blocked = self.form.block(self.inst, self.model, grid)
            except PhaseError as e:
                found.count_status, found.count_message = "error", e.failure.message
                found.failure = e.failure
                return
            if not blocked:
                found.count_status = "error"
                found.count_message = cannot_count(self.form, blocked)
                return
            outcome = self.settle()
            if outcome.value is None:
                if outcome.status != "infeasible":
                    found.count_status = "timeout"
                    found.count_message = f"counting stopped by {outcome.status} after {n}"
                break
            grid, problems = self.decoded(outcome)
            if problems:
                found.count_status = "wrong"
                found.count_message = f"solution {n + 1}: " + "; ".join(problems[:3])
                return
            n += 1
        found.count = n


def default_choice(puzzle: str) -> tuple[str, str]:
    """The puzzle's declared default (``Puzzle.default``, kept with the puzzle beside the report
    that justified it), else the first registered formulation with an available solver."""
    try:
        declared = getattr(get_puzzle(puzzle), "default", None)
    except (KeyError, ValueError):
        declared = None
    if declared is not None:
        return declared.formulation, declared.solver
    for cls in formulations(puzzle):
        for b in backends_for(cls.kind):
            if b.available() is None:
                return cls.name, b.name
    raise KeyError(f"no formulation registered for {puzzle}")

"""A run's plan before it runs: the tasks a selection gives on a set of instances
(:func:`plan_tasks`), a suite's default selection, its tiers and repeats on the tasks
(:func:`make_plan` does it all from a suite and paths). What a plan costs, ``run --dry-run``:
:mod:`bench.run.estimate`.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.backends import Backend, ModelKind, backends_for, get_backend
from bench.identity import backend_code, formulation_code
from bench.instance import InstanceError, read_instance
from bench.judge import UNJUDGED, unreadable
from bench.records import Result, Task, instance_digest, origin_of
from bench.registry import EVERY, Formulation, formulations, parse_label
from bench.run.execute import base_result
from bench.run.names import (
    close_formulation,
    formulation_problem,
    idle,
    solver_of,
    split_puzzle,
    suite_problem,
    unknown_names,
    unpaired,
)
from bench.run.plan_caps import apply_caps, left_out
from bench.suites import Suite, family
from bench.variants import recommended_labels, variants

if TYPE_CHECKING:  # pandas is slow to import: only the dry run's estimate needs it
    pass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Selection:
    puzzles: Sequence[str] = ()
    formulations: Sequence[str] = ()  # a name selects every variant; a label just that one
    solvers: Sequence[str] = ()
    #: a bare name (or no name) selects the whole parameter grid, not just the ``sweep``
    every: bool = False

    def uses(self, puzzle: str, solver: str) -> bool:
        """A solver runs a puzzle's tasks when ``solvers`` is empty, names it, or names it for
        that puzzle (``PUZZLE:SOLVER``, as ``--formulation`` takes ``PUZZLE:NAME``)."""
        return not self.solvers or solver in self.solvers or f"{puzzle}:{solver}" in self.solvers

    def check(self) -> None:
        """Raise ValueError naming a ``--formulation`` that is not a label."""
        for want in self.formulations:
            try:
                parse_label(split_puzzle(want)[1])
            except ValueError as e:
                raise ValueError(f"--formulation {want!r}: {e}") from None

    def matching(self, form: Formulation) -> list[str]:
        """The ``formulations`` entries that select ``form``."""
        return [want for want in self.formulations if self._selects(want, form)]

    def wants(self, form: Formulation) -> bool:
        """A bare name selects the formulation's recommended variants (its ``sweep``; every
        variant with ``every``), ``name[*]`` every variant, ``name[k=v]`` the variants with
        those values, an alias (``sat-tree``) the variant it names; no name at all selects
        every formulation as a bare name would."""
        if not self.formulations:
            return self.every or form.label in recommended_labels(type(form))
        return bool(self.matching(form))

    def _selects(self, want: str, form: Formulation) -> bool:
        puzzle, want = split_puzzle(want)
        if puzzle and puzzle != form.puzzle:
            return False
        name, params = parse_label(want)
        if name in form.aliases:
            params = {k: str(v) for k, v in form.aliases[name].items()} | params
            name = form.name
        elif name == form.name and not params and not self.every:
            return form.label in recommended_labels(type(form))
        if params == {EVERY: EVERY}:
            return name == form.name
        return name == form.name and all(str(form.params.get(k)) == v
                                         for k, v in params.items())


@dataclass
class Plan:
    tasks: list[Task] = field(default_factory=list)
    #: instances that could not be read: recorded as `error` results, the rest goes on
    errors: list[Result] = field(default_factory=list)
    #: selected formulation variants that cannot run here (puzzle/label -> reason)
    skipped: dict[str, str] = field(default_factory=dict)
    #: selected solvers that cannot run here (name -> reason)
    unavailable: dict[str, str] = field(default_factory=dict)
    #: the ``--formulation`` entries that selected some variant
    matched: set[str] = field(default_factory=set)
    #: another file of an instance's content (path -> the path planned for that content)
    same: dict[str, str] = field(default_factory=dict)
    #: the puzzles of the instances read (none: no instance could be read)
    puzzles: set[str] = field(default_factory=set)
    #: selected formulations none of whose solvers is selected ((puzzle, name) -> model kind)
    unpaired: dict[tuple[str, str], ModelKind] = field(default_factory=dict)
    #: per selection entry, the formulations it selected that had no selected solver
    lone: dict[str, dict[tuple[str, str], ModelKind]] = field(default_factory=dict)
    #: the ``--formulation`` and the solver entries that gave some task
    yielded: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)


def plan_tasks(
    instances: Iterable[str],
    selection: Selection,
    *,
    time_limit: float,
    memory_limit_mb: int,
    seed: int = 0,
    threads: int = 1,
    count: int = 0,
    repeat: int = 1,
    seeds: int = 1,
) -> Plan:
    """Every selected (instance, variant, solver), for seeds ``seed .. seed+seeds-1``, each
    ``repeat`` times (same seed: timing noise); a file named twice is planned once (by content)."""
    plan = Plan()
    seen: dict[str, str] = {}  # content digest -> the path planned for it
    codes: dict[type, str] = {}  # formulation and backend classes' code digests
    for path in instances:
        digest = instance_digest(path)
        if _planned_before(path, digest, seen, plan):
            continue
        try:
            inst = read_instance(path)
        except InstanceError as e:
            task = Task(path, "-", "-", time_limit, memory_limit_mb, seed, threads, count,
                        digest=digest)
            plan.errors.append(_unreadable(task, e))
            continue
        plan.puzzles.add(inst.puzzle)
        if selection.puzzles and inst.puzzle not in selection.puzzles:
            continue
        for cls in formulations(inst.puzzle):
            for form in variants(cls):
                if not selection.wants(form):
                    continue
                plan.matched.update(entries := selection.matching(form))
                solvers = _selected_solvers(plan, selection, cls, inst.puzzle, entries)
                if not solvers:  # no solver of its kind selected: nothing to run, nothing skipped
                    continue
                if cls.available() is not None:  # an external package not installed
                    where = f"{cls.puzzle}/{form.label}"
                    if where not in plan.skipped:
                        log.warning("skipping formulation %s: %s", where, cls.available())
                    plan.skipped[where] = cls.available() or ""
                    continue
                for b in solvers:
                    if not _runs_here(plan, b):
                        continue
                    code = _once(codes, cls, formulation_code)
                    bcode = _once(codes, type(b), backend_code)
                    plan.tasks += [
                        Task(path, form.label, b.name, time_limit, memory_limit_mb, seed + s,
                             threads, count, rep, digest, code=code, origin=origin_of(cls.peer),
                             backend_code=bcode)
                        for s in range(max(1, seeds)) for rep in range(max(1, repeat))
                    ]
                    plan.yielded.update(entries)
                    plan.used.update({b.name, f"{inst.puzzle}:{b.name}"})
    return plan


def _selected_solvers(plan: Plan, selection: Selection, cls: type[Formulation],
                      puzzle: str, entries: Iterable[str] = ()) -> list[Backend]:
    """The selected solvers of the formulation's kind on ``puzzle``; none: the formulation is
    recorded in ``plan.unpaired``, and in ``plan.lone`` under each selection entry that
    selected it (``entries``)."""
    solvers = [b for b in backends_for(cls.kind) if selection.uses(puzzle, b.name)]
    if not solvers:
        plan.unpaired[cls.puzzle, cls.name] = cls.kind
        for want in entries:
            plan.lone.setdefault(want, {})[cls.puzzle, cls.name] = cls.kind
    return solvers


def _runs_here(plan: Plan, solver: Backend) -> bool:
    """Whether the solver can run here; one that cannot is recorded in ``plan.unavailable``
    and said once a plan, not once a task."""
    if solver.available() is None:
        return True
    if solver.name not in plan.unavailable:
        log.warning("skipping solver %s: %s", solver.name, solver.available())
    plan.unavailable[solver.name] = solver.available() or ""
    return False


def _unreadable(task: Task, error: InstanceError) -> Result:
    """The result of a planned instance that cannot be read, as the judge records it
    (:func:`bench.judge.unreadable`)."""
    res = base_result(task, None, UNJUDGED)
    unreadable(res, error)
    return res


def _once(codes: dict[type, str], cls: type, digest: Callable[[type], str]) -> str:
    """``digest(cls)``, computed once a plan (``codes``): a digest reads and hashes source
    files."""
    if cls not in codes:
        codes[cls] = digest(cls)
    return codes[cls]


def _planned_before(path: str, digest: str, seen: dict[str, str], plan: Plan) -> bool:
    """Whether an instance of the content ``digest`` is planned already (``seen``: content
    digest -> the path planned for it; ``path`` is recorded otherwise). `x.txt` and
    `./x.txt`, or a suite's file also given, are one file; another file of that content is a
    copy, one instance all the same, said once (``plan.same``)."""
    if digest not in seen:
        seen[digest] = path
        return False
    first = seen[digest]
    real = os.path.realpath(path)
    if real != os.path.realpath(first) and real not in map(os.path.realpath, plan.same):
        log.warning("%s has the same content as %s: one instance, planned (and reported) "
                    "as %s", path, first, first)
        plan.same[path] = first
    return True


def default_variants(puzzles: Iterable[str] = ()) -> tuple[str, ...]:
    """``puzzle:label`` of each registered formulation's default variant (the first value of
    every parameter), for the given puzzles (all when empty)."""
    want = set(puzzles)
    return tuple(f"{cls.puzzle}:{variants(cls)[0].label}" for cls in formulations()
                 if not want or cls.puzzle in want)


def suite_formulations(suite: Suite | None) -> tuple[str, ...]:
    """The formulation selection a suite runs without ``--formulation``."""
    if suite is None:
        return ()
    if suite.variants == "default":
        return suite.formulations or default_variants()
    return suite.formulations


def apply_tiers(plan: Plan, tier_of: dict[str, str], repeats_of: dict[str, int],
                repeat: bool = True, limits_of: dict[str, float] | None = None,
                seeds_of: dict[str, int] | None = None) -> Plan:
    """Mark every task with its instance's tier and, with ``repeat``, run the tier's declared
    ``repeats``: as seeds ``seed .. seed+n-1`` for a solver that takes a seed, else as
    repetitions ``rep 0 .. n-1`` with the same seed (a run given ``--repeat`` or ``--seeds``
    passes ``repeat=False`` and keeps its own); and its declared ``seeds`` (``seeds_of``): seeds
    ``seed .. seed+n-1`` for a solver that takes a seed, one run for a deterministic one.
    ``limits_of``: tiers' own time limits (none when the run was given ``--time-limit``)."""
    tasks: list[Task] = []
    for t in plan.tasks:
        tier = tier_of.get(t.instance, "")
        if tier in (limits_of or {}):
            t = dataclasses.replace(t, time_limit=(limits_of or {})[tier])
        seeded = get_backend(t.solver).seeding.takes  # its declared seeding
        n = repeats_of.get(tier, 1) if repeat else 1
        k = (seeds_of or {}).get(tier, 1) if repeat else 1
        if k > 1 and seeded:
            tasks += [dataclasses.replace(t, tier=tier, seed=t.seed + s) for s in range(k)]
        elif n <= 1 or k > 1:
            tasks.append(dataclasses.replace(t, tier=tier))
        elif seeded:
            tasks += [dataclasses.replace(t, tier=tier, seed=t.seed + s) for s in range(n)]
        else:
            tasks += [dataclasses.replace(t, tier=tier, rep=r) for r in range(n)]
    plan.tasks = tasks
    return plan


def tier_plan(plan: Plan, suite: Suite | None, repeat: bool, own_limits: bool,
              left_out: Callable[[str], bool] = lambda pair: False) -> float:
    """:func:`apply_tiers` with the suite's tiers, repeats and seeds (``repeat``) and tier time
    limits (``own_limits``: the run was not given ``--time-limit``), then :func:`apply_caps`
    with its capped pairs (``left_out``: those the run's options leave out, unsaid); returns
    the suite's ``repeat_under`` for :func:`bench.run.session.run_gated` (0 without a suite or
    repeats)."""
    if suite is None:
        return 0.0
    tier_of = suite.tier_of()
    apply_tiers(plan, tier_of, suite.repeats_of(), repeat,
                suite.limits_of() if own_limits else {}, suite.seeds_of())
    apply_caps(plan, list(tier_of), suite.caps_of(), left_out)
    return suite.repeat_under if repeat else 0.0


def content(x: Task | Result) -> str:
    """The instance of a task or result by its content: the digest its key starts with
    (:func:`bench.records.task_key`), which a moved or renamed file, or a path spelled from
    another working folder, keeps."""
    return x.key.partition("|")[0]


def rung(t: Task | Result, ladder: bool | frozenset[str] = True,
         planned: Mapping[str, Task] | None = None) -> tuple[str, tuple[int, int]] | None:
    """A task's or result's (family, rung) for the ladder rule (:func:`bench.suites.family`);
    None outside a family or outside the tiers the rule holds in (``ladder``: True for every
    tier, the rule then holding across them). A result is placed as the planned task of its
    instance's content is (``planned``: :func:`content` -> a task of the run's plan), never
    by the path it recorded, which may name a file since moved or be relative to another
    working folder; a result of no planned content is outside every family."""
    if isinstance(t, Result):
        found = (planned or {}).get(content(t))
        if found is None:
            return None
        t = found
    if ladder is not True and (ladder is False or t.tier not in ladder):
        return None
    return family(t.instance)



# -- a run's plan from a suite and paths ----------------------------------------------------

class PlanError(ValueError):
    """The selection cannot be planned (an unknown suite or path, a label that selects
    nothing): one line for the user."""


@dataclass
class Planned:
    """A run's plan and what the run records of how it was chosen."""

    plan: Plan
    suite: Suite | None
    #: the instance files: the suite's and those given
    instances: list[str]
    time_limit: float
    #: the suite's ``repeat_under`` (0: every planned repetition runs)
    under: float = 0.0
    #: where the suite's ladder rule holds (:mod:`bench.run.ladder`): nowhere (False), every
    #: tier (True) or those tiers
    ladder: bool | frozenset[str] = False
    #: the tiers whose declared seeds all run (never gated by ``under``)
    fixed: frozenset[str] = frozenset()
    #: the suite's earlier run folders a dry run estimates from (``estimate`` in the suite)
    estimate: tuple[str, ...] = ()

    def record(self) -> dict[str, object]:
        """The run's part of its environment record: the suite, its version and, per tier, its
        limit, repeats, seeds and capped pairs (the design the report states)."""
        s = self.suite
        tiers = {t.name: {"time_limit": t.time_limit or self.time_limit, "repeats": t.repeats,
                          "seeds": t.seeds, "cap": t.cap, "capped": list(t.capped)}
                 for t in (s.tiers if s else ())}
        ladder = sorted(self.ladder) if isinstance(self.ladder, frozenset) else self.ladder
        return {"suite": s.name if s else "", "suite_version": s.version if s else 0,
                "instances": None if s else self.instances, "time_limit": self.time_limit,
                "repeat_under": self.under, "ladder_rule": bool(self.ladder),
                "ladder_tiers": ladder if isinstance(ladder, list) else None, "tiers": tiers}


def expand_paths(paths: Iterable[str]) -> list[str]:
    """Instance files from paths: a folder gives its ``*.txt`` files, a glob its matches, in a
    stable order without repeats; a path matching nothing, and an empty path (``Path("")`` is
    the working directory), are errors (FileNotFoundError)."""
    import glob

    out: list[str] = []
    for arg in paths:
        if not arg:
            raise FileNotFoundError("'': empty path, not an instance file or folder")
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


def _puzzles_of(paths: Iterable[str]) -> set[str]:
    """The puzzles of the instance files that can be read."""
    out = set()
    for path in paths:
        try:
            out.add(read_instance(path).puzzle)
        except (InstanceError, OSError):
            continue
    return out


def _unplanned(plan: Plan, options: dict[str, Sequence[str]], solvers: Sequence[str],
               puzzles: Collection[str]) -> str:
    """Why the plan cannot run ("" when it can): no instance could be read (the first one's
    problem, naming its file), an entry of a formulation option (``options``: option -> its
    entries) selects no variant (what in it is unknown: the formulation, with the known names
    of ``puzzles``, the selected puzzles among the instances', a parameter or a value), the
    selected formulations and ``solvers`` never pair (:func:`bench.run.names.unpaired`), or no
    task matches at all."""
    if plan.errors and not plan.puzzles:
        more = f"; {len(plan.errors) - 1} more unreadable" if len(plan.errors) > 1 else ""
        return f"{plan.errors[0].message} (no readable instance: nothing to run{more})"
    unmatched = [(o, w) for o, entries in options.items() for w in entries
                 if w not in plan.matched]
    if unmatched:
        option, want = unmatched[0]
        if why := formulation_problem(want, puzzles):
            return f"{option} {want!r} selects no formulation variant: {why}"
        if (puzzle := split_puzzle(want)[0]) and puzzle not in plan.puzzles:
            return (f"{option} {want!r} selects no formulation variant: no instance of "
                    f"{puzzle} here (these are {', '.join(sorted(plan.puzzles))})")
        return (f"{option} {want!r} selects no formulation variant of these instances"
                f"{close_formulation(want)} (see `puzzlebench list`)")
    if not plan.tasks and not plan.errors:
        return unpaired(plan.unpaired, solvers, plan.unavailable) if plan.unpaired else \
            "no task matches the selection (see `puzzlebench list`)"
    return ""


def _idle(plan: Plan, options: dict[str, Sequence[str]], solvers: Sequence[str],
          puzzles: Collection[str]) -> list[str]:
    """The warnings of a plan that runs (:func:`bench.run.names.idle`): each entry of a
    formulation option (``options``: option -> its entries) that gave no task because no
    selected solver runs its variants, and each of the ``solvers`` named that gave no task
    and can run here (one that cannot is said when planned); ``puzzles``: the selected
    puzzles among the instances'."""
    forms = {(o, w): plan.lone[w] for o, entries in options.items()
             for w in dict.fromkeys(entries) if w not in plan.yielded and w in plan.lone}
    spare = [n for n in solvers if n not in plan.used and solver_of(n) not in plan.unavailable]
    return idle(forms, spare, puzzles)


def make_plan(suite: str | None = None, paths: Sequence[str] = (), *,
              puzzles: Sequence[str] = (), formulations: Sequence[str] = (),
              add: Sequence[str] = (), solvers: Sequence[str] = (),
              all_variants: bool = False, time_limit: float | None = None,
              memory_limit_mb: int = 8192, seed: int = 0, threads: int = 1, count: int = 0,
              repeat: int = 1, seeds: int = 1) -> Planned:
    """The plan of a run of ``suite`` (a name in ``instances/suites.toml``) and/or instance
    ``paths`` (files, folders, globs): the suite's formulations, solvers, variants, tiers,
    repeats and limits unless the arguments say otherwise (``formulations`` replaces the
    suite's selection, ``add`` adds to it; ``time_limit`` None: the suite's or 60 s; a
    ``repeat`` or ``seeds`` above 1 replaces the tiers' repeats). Raises :class:`PlanError`."""
    from bench.suites import get_suite

    try:
        s = get_suite(suite) if suite else None
        instances = (s.instances() if s else []) + expand_paths(paths)
    except (KeyError, FileNotFoundError, ValueError) as e:
        raise PlanError(str(e.args[0] if e.args else e)) from None
    if not instances:
        raise PlanError("run needs --suite NAME or instance paths")
    if s is not None and (why := suite_problem(s, lambda: _puzzles_of(instances))):
        raise PlanError(why)
    limit = time_limit if time_limit is not None else s.time_limit if s else 60.0
    chosen = (tuple(formulations) or suite_formulations(s)) + tuple(add)
    every = all_variants or bool(s and s.variants == "all" and not formulations)
    sel = Selection(tuple(puzzles), chosen, tuple(solvers) or (s.solvers if s else ()), every)
    try:
        sel.check()
    except ValueError as e:
        raise PlanError(str(e)) from None
    if why := unknown_names(puzzles, solvers):
        raise PlanError(why)
    plan = plan_tasks(instances, sel, time_limit=limit, memory_limit_mb=memory_limit_mb,
                      seed=seed, threads=threads, count=count, repeat=repeat, seeds=seeds)
    named = {"--formulation": formulations, "--add-formulation": add}
    selected = set(puzzles) & plan.puzzles or plan.puzzles
    if why := unknown_names(puzzles, (), plan.puzzles, None if paths else s) or _unplanned(
            plan, named, sel.solvers, selected):
        raise PlanError(why)
    for line in _idle(plan, named, solvers, selected):
        log.warning(line)
    tiered = repeat == seeds == 1
    narrowed = (bool(puzzles), bool(formulations), bool(solvers))
    under = tier_plan(plan, s, tiered, time_limit is None,
                      lambda pair: left_out(pair, sel, narrowed))
    fixed = frozenset(s.seeds_of()) if s and tiered else frozenset()
    return Planned(plan, s, instances, limit, under, s.ladder_in() if s else False, fixed,
                   s.estimate_folders() if s else ())

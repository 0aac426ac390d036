"""A run's plan before it runs: the tasks a selection gives on a set of instances
(:func:`plan_tasks`), a suite's default selection, its tiers and repeats on the tasks
(:func:`make_plan` does it all from a suite and paths), and what it costs (``run --dry-run``).

The cost is told two ways: the worst case, every task at the time limit, and, given earlier
run folders, an estimate: each planned task at the median time its (instance, formulation,
solver) took there (a timeout or other unanswered task at the limit), and the tasks never
measured at the limit too, counted apart. Neither includes the harness's own start-up per task
(``overhead_s`` in a run's results).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.backends import backends_for, get_backend
from bench.identity import backend_code, formulation_code
from bench.instance import InstanceError, read_instance
from bench.records import NOT_RUN, Result, Task, instance_digest
from bench.registry import (
    EVERY,
    Formulation,
    formulations,
    parse_label,
    recommended_labels,
    variants,
)
from bench.run.execute import base_result
from bench.suites import Suite, family

if TYPE_CHECKING:  # pandas is slow to import: only the dry run's estimate needs it
    import pandas as pd

log = logging.getLogger(__name__)


def split_puzzle(want: str) -> tuple[str, str]:
    """``"nurikabe:mip-flow"`` -> ``("nurikabe", "mip-flow")``: a selection entry may name the
    puzzle it is for (formulation names repeat across puzzles); without one, ``("", want)``."""
    head, sep, rest = want.partition(":")
    return (head, rest) if sep and "[" not in head else ("", want)


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
    #: the ``--formulation`` entries that selected some variant
    matched: set[str] = field(default_factory=set)


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
    """Every selected (instance, variant, solver), for solver seeds ``seed .. seed+seeds-1``,
    each ``repeat`` times (rep 0..repeat-1, same seed: timing noise). An instance is known by
    its content (:func:`bench.records.instance_digest`): a file named twice is planned once."""
    plan = Plan()
    seen: set[str] = set()
    codes: dict[type, str] = {}  # formulation and backend classes' code digests
    for path in instances:
        digest = instance_digest(path)
        if digest in seen:  # `x.txt` and `./x.txt`, a suite's file also given: one instance
            continue
        seen.add(digest)
        try:
            inst = read_instance(path)
        except InstanceError as e:
            task = Task(path, "-", "-", time_limit, memory_limit_mb, seed, threads, count,
                        digest=digest)
            plan.errors.append(base_result(task, None, "error", str(e)))
            continue
        if selection.puzzles and inst.puzzle not in selection.puzzles:
            continue
        for cls in formulations(inst.puzzle):
            for form in variants(cls):
                if not selection.wants(form):
                    continue
                plan.matched.update(selection.matching(form))
                if cls.available() is not None:  # an external package not installed
                    where = f"{cls.puzzle}/{form.label}"
                    if where not in plan.skipped:
                        log.warning("skipping formulation %s: %s", where, cls.available())
                    plan.skipped[where] = cls.available() or ""
                    continue
                for b in backends_for(cls.kind):
                    if not selection.uses(inst.puzzle, b.name):
                        continue
                    if b.available() is not None:
                        log.warning("skipping solver %s: %s", b.name, b.available())
                        continue
                    code = codes.setdefault(cls, formulation_code(cls))
                    plan.tasks += [
                        Task(path, form.label, b.name, time_limit, memory_limit_mb, seed + s,
                             threads, count, rep, digest, code=code,
                             backend_code=codes.setdefault(type(b), backend_code(type(b))))
                        for s in range(max(1, seeds)) for rep in range(max(1, repeat))
                    ]
    return plan


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


def pair_key(puzzle: str, t: Task) -> str:
    """A task's pair as a suite's ``capped`` list names it: ``PUZZLE:FORMULATION/SOLVER``."""
    return f"{puzzle}:{t.formulation}/{t.solver}"


def _kind(puzzle: str, label: str) -> str:
    """The model kind of a puzzle's formulation variant ("" when none has that label)."""
    return next((c.kind for c in formulations(puzzle)
                 if any(v.label == label for v in variants(c))), "")


def apply_caps(plan: Plan, order: Sequence[str],
               caps: dict[str, tuple[int, frozenset[str]]]) -> Plan:
    """Per tier of ``caps`` (tier -> (cap, pairs)): a listed pair runs only on the first
    ``cap`` instances of its puzzle in that tier, in ``order`` (the suite's instance order), and
    there with its lowest seed only; each other instance's task is recorded as not run
    (:data:`bench.records.NOT_RUN`, a timeout at its own limit with no measurement: never
    scored), once per (instance, pair) for its lowest seed and first repetition, its further
    seeds dropped."""
    if not caps:
        return plan
    rank = {p: i for i, p in enumerate(order)}
    puzzle = {p: read_instance(p).puzzle for p in {t.instance for t in plan.tasks
                                                   if t.tier in caps}}
    allowed: dict[tuple[str, str], set[str]] = {}
    for tier, (cap, _pairs) in caps.items():
        for p in sorted((p for p in puzzle if any(t.instance == p and t.tier == tier
                                                  for t in plan.tasks)),
                        key=lambda p: rank.get(p, len(rank))):
            got = allowed.setdefault((tier, puzzle[p]), set())
            if len(got) < cap:
                got.add(p)
    low: dict[tuple[str, str, str], int] = {}
    for t in plan.tasks:
        g = (t.instance, t.formulation, t.solver)
        low[g] = min(low.get(g, t.seed), t.seed)
    keep: list[Task] = []
    first: dict[tuple[str, str, str], Task] = {}
    for t in plan.tasks:
        cap_pairs = caps.get(t.tier)
        if cap_pairs is None or pair_key(puzzle[t.instance], t) not in cap_pairs[1]:
            keep.append(t)
            continue
        if t.instance in allowed[(t.tier, puzzle[t.instance])]:
            if t.seed == low[(t.instance, t.formulation, t.solver)]:
                keep.append(t)  # a capped pair runs its lowest seed only
            continue
        g = (t.instance, t.formulation, t.solver)
        if g not in first or (t.seed, t.rep) < (first[g].seed, first[g].rep):
            first[g] = t
    from bench.run.outcome import stamp

    for t in first.values():
        cap = caps[t.tier][0]
        inst = read_instance(t.instance)
        r = base_result(t, inst, "timeout",
                        f"{NOT_RUN} capped: hopeless in the suite's pilot, this pair runs on "
                        f"the first {cap} {inst.puzzle} instances of the {t.tier} tier only")
        r.rep, r.kind = t.rep, _kind(inst.puzzle, t.formulation)
        plan.errors.append(stamp(r, t))
    plan.tasks = keep
    return plan


def tier_plan(plan: Plan, suite: Suite | None, repeat: bool, own_limits: bool) -> float:
    """:func:`apply_tiers` with the suite's tiers, repeats and seeds (``repeat``) and tier time
    limits (``own_limits``: the run was not given ``--time-limit``), then :func:`apply_caps`
    with its capped pairs; returns the suite's ``repeat_under`` for
    :func:`bench.run.session.run_gated` (0 without a suite or repeats)."""
    if suite is None:
        return 0.0
    tier_of = suite.tier_of()
    apply_tiers(plan, tier_of, suite.repeats_of(), repeat,
                suite.limits_of() if own_limits else {}, suite.seeds_of())
    apply_caps(plan, list(tier_of), suite.caps_of())
    return suite.repeat_under if repeat else 0.0


def dry_run(plan: Plan, jobs: int, estimate: Iterable[str | Path] = (),
            under: float = 0.0, ladder: bool | frozenset[str] = False,
            fixed: frozenset[str] = frozenset()) -> tuple[str, str]:
    """``run --dry-run``: (the plan's description, "") or ("", an error naming a run folder
    of ``estimate`` that cannot be read)."""
    from bench.report.data import ReportError

    folders = list(estimate)
    try:
        return describe(plan, jobs, measured(folders) if folders else None, under,
                        ladder, fixed), ""
    except ReportError as e:
        return "", str(e)


@dataclass(frozen=True)
class Cost:
    """A plan's task time: worst case (every task at its limit) and estimated from earlier
    runs (``estimated_s`` over the ``known`` tasks; the rest counted at the limit)."""

    tasks: int
    worst_s: float
    known: int = 0
    estimated_s: float = 0.0
    timeouts_s: float = 0.0  # of estimated_s: measured tasks that did not answer in time
    unknown_s: float = 0.0  # of estimated_s: tasks never measured, at their limit
    gated: int = 0  # further repetitions left out: their first run was not fast enough
    laddered: int = 0  # left out by the ladder rule: an earlier instance of the family timed out
    startup_s: float = 0.0  # the earlier runs' mean harness start-up per task

    def wall_s(self, jobs: int) -> float:
        return self.estimated_s / max(1, jobs)


def measured(folders: Iterable[str | Path]) -> pd.DataFrame:
    """Per (instance path, formulation, solver) of earlier run folders (the tasks that ran: one
    recorded not run says nothing of its time): the median build +
    solve time of the answered tasks, ``answered`` when at least half answered, and the time
    limit they ran under; ``attrs["startup_s"]``: the mean harness start-up per task."""
    import pandas as pd

    from bench.report.data import load_run, prepare
    from bench.report.verdicts import ran

    frames = [ran(prepare(load_run(f).df)) for f in folders]
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=["instance", "formulation", "solver", "time_s", "answered"])
    t = pd.concat(frames, ignore_index=True)
    t["instance"] = t["instance_path"].map(lambda p: str(Path(p).name))
    g = t.groupby(["instance", "formulation", "solver"])
    out = g.agg(time_s=("time_s", "median"), answered=("ok", "mean"),
                limit=("time_limit", "max")).reset_index()
    if "overhead_s" in t and t["overhead_s"].notna().any():
        out.attrs["startup_s"] = float(t["overhead_s"].mean())
    return out


def cost(plan: Plan, known: pd.DataFrame | None = None, under: float = 0.0,
         ladder: bool | frozenset[str] = False, fixed: frozenset[str] = frozenset()) -> Cost:
    """The plan's task time; with ``known`` (:func:`measured`), each task it covers at its
    measured median, an unanswered one at this plan's limit (an earlier run under a shorter
    limit that timed out says nothing of the time under a longer one: also at the limit).
    With ``under`` > 0, a further repetition or seed (beyond the task's lowest seed, outside
    the ``fixed`` tiers, whose seeds are never gated) whose measured time is ``under`` s or
    more (or unanswered) is left out, as :func:`bench.run.session.run_gated` would; with
    ``ladder`` (True, or the tiers it holds in), so is a task whose pair left an earlier
    instance of its family (a smaller one, or the same size with an earlier seed)
    unanswered within this plan's limit there (:mod:`bench.run.ladder`). Tasks recorded not run
    while planning (``plan.errors``) cost nothing."""
    worst = sum(t.time_limit for t in plan.tasks)
    if known is None or known.empty:
        return Cost(len(plan.tasks), worst)
    rows = {(str(i), str(f), str(s)): (float(a), float(x)) for i, f, s, a, x in zip(
        known["instance"], known["formulation"], known["solver"], known["answered"],
        known["time_s"], strict=True)}
    cut = _ladder_cuts(plan, rows, ladder) if ladder else {}
    base: dict[tuple[str, str, str], int] = {}
    for t in plan.tasks:
        g = (t.instance, t.formulation, t.solver)
        base[g] = min(base.get(g, t.seed), t.seed)
    n = 0
    est = tout = unknown = 0.0
    gated = laddered = 0
    for t in plan.tasks:
        fam = rung(t, ladder) if cut else None
        if fam is not None and fam[1] > cut.get((fam[0], t.formulation, t.solver), fam[1]):
            laddered += 1
            continue
        got = rows.get((Path(t.instance).name, t.formulation, t.solver))
        if got is None:
            est += t.time_limit
            unknown += t.time_limit
            continue
        answered, secs = got
        further = t.rep or (t.seed != base[(t.instance, t.formulation, t.solver)]
                            and t.tier not in fixed)
        if under > 0 and further and not (answered >= 0.5 and secs < under):
            gated += 1
            continue
        n += 1
        if answered >= 0.5 and secs == secs and secs <= t.time_limit:
            est += secs
        else:
            est += t.time_limit
            tout += t.time_limit
    startup = float(known.attrs.get("startup_s", 0.0))
    return Cost(len(plan.tasks), worst, n, est, tout, unknown, gated, laddered, startup)


def rung(t: Task | Result, ladder: bool | frozenset[str] = True
         ) -> tuple[str, tuple[int, int]] | None:
    """A task's or result's (family, rung) for the ladder rule (:func:`bench.suites.family`);
    None outside a family or outside the tiers the rule holds in (``ladder``: True for every
    tier, the rule then holding across them)."""
    if ladder is not True and (ladder is False or t.tier not in ladder):
        return None
    return family(t.instance if isinstance(t, Task) else t.instance_path)


def _ladder_cuts(plan: Plan, rows: dict[tuple[str, str, str], tuple[float, float]],
                 ladder: bool | frozenset[str] = True
                 ) -> dict[tuple[str, str, str], tuple[int, int]]:
    """Per (family, formulation, solver): the earliest rung among the plan's
    first runs measured unanswered (or slower than their limit)."""
    cut: dict[tuple[str, str, str], tuple[int, int]] = {}
    for t in plan.tasks:
        fam = rung(t, ladder)
        got = rows.get((Path(t.instance).name, t.formulation, t.solver))
        if fam is None or got is None or t.rep or (got[0] >= 0.5 and got[1] <= t.time_limit):
            continue
        k = (fam[0], t.formulation, t.solver)
        cut[k] = min(cut.get(k, fam[1]), fam[1])
    return cut


def describe(plan: Plan, jobs: int, known: pd.DataFrame | None = None,
             under: float = 0.0, ladder: bool | frozenset[str] = False,
             fixed: frozenset[str] = frozenset()) -> str:
    """The ``run --dry-run`` text: tasks per puzzle and pair (and tier), the tasks recorded
    not run while planning, the worst-case time at the limit, and with ``known`` the estimate
    and the expected wall time (the estimate plus the earlier runs' median start-up per task,
    over ``jobs``)."""
    import pandas as pd

    puzzle = {p: read_instance(p).puzzle for p in {t.instance for t in plan.tasks}}
    df = pd.DataFrame([{"puzzle": puzzle[t.instance], "tier": t.tier or "-",
                        "pair": f"{t.formulation} / {t.solver}", "limit": t.time_limit}
                       for t in plan.tasks])
    lines = []
    if df.empty:
        return "no task planned"
    for p, g in df.groupby("puzzle", sort=True):
        tiers = ", ".join(f"{k} {v}" for k, v in g["tier"].value_counts(sort=False).items())
        lines.append(f"{p}: {len(g)} tasks ({tiers}), {g['pair'].nunique()} pairs, worst case "
                     f"{g['limit'].sum() / 60:.1f} task-min")
        for pair, n in g["pair"].value_counts(sort=False).items():
            lines.append(f"  {pair}: {n}")
    capped = [e for e in plan.errors if e.message.startswith(NOT_RUN)]
    if capped:
        lines.append(f"{len(capped)} tasks recorded not run while planning (the suite's capped "
                     "pairs: never scored)")
    c = cost(plan, known, under, ladder, fixed)
    lines.append(f"{c.tasks} tasks; worst case (every task at its limit) {c.worst_s / 60:.1f} "
                 f"task-min, {c.worst_s / max(1, jobs) / 60:.1f} min wall with --jobs {jobs}")
    if known is not None and not known.empty:
        measured_s = c.estimated_s - c.unknown_s
        lines.append(f"estimate from earlier runs: the {c.known} measured tasks "
                     f"{measured_s / 60:.1f} task-min (of which {c.timeouts_s / 60:.1f} at "
                     "the limit: unanswered there), the "
                     f"{c.tasks - c.known - c.gated - c.laddered} unmeasured at their limit "
                     f"{c.unknown_s / 60:.1f} task-min; {c.gated} further repetitions left "
                     f"out (first run not under {under:g} s)"
                     + (f", {c.laddered} left out by the ladder rule"
                        if ladder else "") + "; in all "
                     f"{c.wall_s(jobs) / 60:.1f} min wall with --jobs {jobs}, before the "
                     "harness's start-up per task")
        ran = c.known + (c.tasks - c.known - c.gated - c.laddered)
        lines.append(f"expected: {(c.estimated_s + ran * c.startup_s) / max(1, jobs) / 60:.1f} "
                     f"min wall with --jobs {jobs} (the estimate plus {c.startup_s:.2f} s "
                     f"start-up for each of the {ran} tasks that would run, the earlier runs' "
                     "mean)")
    for err in plan.errors:
        if err not in capped:
            lines.append(f"unreadable: {err.instance_path}: {err.message}")
    return "\n".join(lines)


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


def close_formulation(want: str) -> str:
    """Close matches of a ``--formulation`` entry among the registered names and variants
    (``, did you mean ...``; "" when none)."""
    from bench.registry import close_matches

    name = parse_label(split_puzzle(want)[1])[0]
    known = {c.name for c in formulations()} | {a for c in formulations() for a in c.aliases}
    hint = close_matches(name, known)
    if hint or name not in known:
        return hint
    labels = {v.label for c in formulations() if c.name == name for v in variants(c)}
    return close_matches(split_puzzle(want)[1].replace(" ", ""), labels)


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
    limit = time_limit if time_limit is not None else s.time_limit if s else 60.0
    chosen = (tuple(formulations) or suite_formulations(s)) + tuple(add)
    every = all_variants or bool(s and s.variants == "all" and not formulations)
    sel = Selection(tuple(puzzles), chosen, tuple(solvers) or (s.solvers if s else ()), every)
    try:
        sel.check()
    except ValueError as e:
        raise PlanError(str(e)) from None
    plan = plan_tasks(instances, sel, time_limit=limit, memory_limit_mb=memory_limit_mb,
                      seed=seed, threads=threads, count=count, repeat=repeat, seeds=seeds)
    unmatched = [f for f in (*formulations, *add) if f not in plan.matched]
    if unmatched:
        raise PlanError(f"--formulation {unmatched[0]!r} selects no formulation variant of "
                        f"these instances{close_formulation(unmatched[0])} (see `puzzlebench "
                        "list`)")
    if not plan.tasks and not plan.errors:
        raise PlanError("no task matches the selection (see `puzzlebench list`)")
    tiered = repeat == seeds == 1
    under = tier_plan(plan, s, tiered, time_limit is None)
    fixed = frozenset(s.seeds_of()) if s and tiered else frozenset()
    return Planned(plan, s, instances, limit, under, s.ladder_in() if s else False, fixed,
                   s.estimate_folders() if s else ())

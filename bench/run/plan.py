"""A suite's run plan before it runs: its default selection, its tiers and repeats on the
tasks, and what it costs (``run --dry-run``).

The cost is told two ways: the worst case, every task at the time limit, and, given earlier
run folders, an estimate: each planned task at the median time its (instance, formulation,
solver) took there (a timeout or other unanswered task at the limit), and the tasks never
measured at the limit too, counted apart. Neither includes the harness's own start-up per task
(``overhead_s`` in a run's results).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from bench.backends import get_backend
from bench.records import Result, Task
from bench.registry import formulations, variants
from bench.run.ladder import run_ladder
from bench.run.pool import Plan
from bench.suites import Suite, family


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
                repeat: bool = True, limits_of: dict[str, float] | None = None) -> Plan:
    """Mark every task with its instance's tier and, with ``repeat``, run the tier's declared
    ``repeats``: as seeds ``seed .. seed+n-1`` for a solver that takes a seed, else as
    repetitions ``rep 0 .. n-1`` with the same seed (a run given ``--repeat`` or ``--seeds``
    passes ``repeat=False`` and keeps its own). ``limits_of``: tiers' own time limits (none
    when the run was given ``--time-limit``)."""
    tasks: list[Task] = []
    for t in plan.tasks:
        tier = tier_of.get(t.instance, "")
        if tier in (limits_of or {}):
            t = dataclasses.replace(t, time_limit=(limits_of or {})[tier])
        n = repeats_of.get(tier, 1) if repeat else 1
        if n <= 1:
            tasks.append(dataclasses.replace(t, tier=tier))
            continue
        if get_backend(t.solver).seeding.takes:  # its declared seeding
            tasks += [dataclasses.replace(t, tier=tier, seed=t.seed + s) for s in range(n)]
        else:
            tasks += [dataclasses.replace(t, tier=tier, rep=r) for r in range(n)]
    plan.tasks = tasks
    return plan


def _group(t: Task) -> tuple[str, str, str]:
    return (t.instance, t.formulation, t.solver)


def split_repeats(plan: Plan) -> tuple[list[Task], list[Task]]:
    """The plan's first run of each (instance, formulation, solver) -- its lowest seed,
    repetition 0 -- and the further repetitions and seeds."""
    base: dict[tuple[str, str, str], int] = {}
    for t in plan.tasks:
        base[_group(t)] = min(base.get(_group(t), t.seed), t.seed)
    first = [t for t in plan.tasks if t.rep == 0 and t.seed == base[_group(t)]]
    extra = [t for t in plan.tasks if not (t.rep == 0 and t.seed == base[_group(t)])]
    return first, extra


def gate(extra: list[Task], done: Iterable[Result], under: float) -> list[Task]:
    """The further repetitions worth running: those of a (instance, formulation, solver)
    whose first run answered in under ``under`` s (build + solve), where timing noise matters;
    one slower or unanswered is not repeated."""
    fast = {(r.instance_path, r.formulation, r.solver) for r in done
            if r.status in ("solved", "infeasible") and r.rep == 0
            and (r.build_s or 0.0) + (r.solve_s or 0.0) < under}
    return [t for t in extra if _group(t) in fast]


def run_gated(plan: Plan, under: float, run: Callable[[Plan], object],
              done: Callable[[], Iterable[Result]], ladder: bool = False) -> None:
    """Run the plan; with ``under`` > 0, first every task's first run, then only the further
    repetitions :func:`gate` keeps (``done``: the results so far, the journal's). With
    ``ladder``, in the steps of the suite's ladder rule (:mod:`bench.run.ladder`), each step
    gated so."""
    if ladder:
        run_ladder(plan, lambda p: run_gated(p, under, run, done), done)
        return
    first, extra = split_repeats(plan)
    if under <= 0 or not extra:
        run(plan)
        return
    run(Plan(tasks=first, errors=plan.errors))
    run(Plan(tasks=gate(extra, done(), under)))


def tier_plan(plan: Plan, suite: Suite | None, repeat: bool, own_limits: bool) -> float:
    """:func:`apply_tiers` with the suite's tiers, repeats (``repeat``) and tier time limits
    (``own_limits``: the run was not given ``--time-limit``); returns the suite's
    ``repeat_under`` for :func:`run_gated` (0 without a suite or repeats)."""
    if suite is None:
        return 0.0
    apply_tiers(plan, suite.tier_of(), suite.repeats_of(), repeat,
                suite.limits_of() if own_limits else {})
    return suite.repeat_under if repeat else 0.0


def dry_run(plan: Plan, jobs: int, estimate: Iterable[str | Path] = (),
            under: float = 0.0, ladder: bool = False) -> tuple[str, str]:
    """``run --dry-run``: (the plan's description, "") or ("", an error naming a run folder
    of ``estimate`` that cannot be read)."""
    from bench.report.data import ReportError

    folders = list(estimate)
    try:
        return describe(plan, jobs, measured(folders) if folders else None, under,
                        ladder), ""
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

    def wall_s(self, jobs: int) -> float:
        return self.estimated_s / max(1, jobs)


def measured(folders: Iterable[str | Path]) -> pd.DataFrame:
    """Per (instance path, formulation, solver) of earlier run folders: the median build +
    solve time of the answered tasks, ``answered`` when at least half answered, and the time
    limit they ran under."""
    from bench.report.data import load_run, prepare

    frames = [prepare(load_run(f).df) for f in folders]
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=["instance", "formulation", "solver", "time_s", "answered"])
    t = pd.concat(frames, ignore_index=True)
    t["instance"] = t["instance_path"].map(lambda p: str(Path(p).name))
    g = t.groupby(["instance", "formulation", "solver"])
    return g.agg(time_s=("time_s", "median"), answered=("ok", "mean"),
                 limit=("time_limit", "max")).reset_index()


def cost(plan: Plan, known: pd.DataFrame | None = None, under: float = 0.0,
         ladder: bool = False) -> Cost:
    """The plan's task time; with ``known`` (:func:`measured`), each task it covers at its
    measured median, an unanswered one at this plan's limit (an earlier run under a shorter
    limit that timed out says nothing of the time under a longer one: also at the limit).
    With ``under`` > 0, a further repetition whose measured time is ``under`` s or more (or
    unanswered) is left out, as :func:`run_gated` would; with ``ladder``, so is a task whose
    pair left an earlier instance of its family (a smaller one, or the same size with an
    earlier seed) unanswered within this plan's limit there (:mod:`bench.run.ladder`)."""
    worst = sum(t.time_limit for t in plan.tasks)
    if known is None or known.empty:
        return Cost(len(plan.tasks), worst)
    rows = {(str(i), str(f), str(s)): (float(a), float(x)) for i, f, s, a, x in zip(
        known["instance"], known["formulation"], known["solver"], known["answered"],
        known["time_s"], strict=True)}
    cut = _ladder_cuts(plan, rows) if ladder else {}
    n = 0
    est = tout = unknown = 0.0
    gated = laddered = 0
    for t in plan.tasks:
        fam = family(t.instance) if cut else None
        if fam is not None and fam[1] > cut.get((fam[0], t.formulation, t.solver), fam[1]):
            laddered += 1
            continue
        got = rows.get((Path(t.instance).name, t.formulation, t.solver))
        if got is None:
            est += t.time_limit
            unknown += t.time_limit
            continue
        answered, secs = got
        if under > 0 and (t.rep or t.seed) and not (answered >= 0.5 and secs < under):
            gated += 1
            continue
        n += 1
        if answered >= 0.5 and secs == secs and secs <= t.time_limit:
            est += secs
        else:
            est += t.time_limit
            tout += t.time_limit
    return Cost(len(plan.tasks), worst, n, est, tout, unknown, gated, laddered)


def _ladder_cuts(plan: Plan, rows: dict[tuple[str, str, str], tuple[float, float]]
                 ) -> dict[tuple[str, str, str], tuple[int, int]]:
    """Per (family, formulation, solver): the earliest rung (:func:`bench.suites.family`)
    among the plan's first runs measured unanswered (or slower than their limit)."""
    cut: dict[tuple[str, str, str], tuple[int, int]] = {}
    for t in plan.tasks:
        fam = family(t.instance)
        got = rows.get((Path(t.instance).name, t.formulation, t.solver))
        if fam is None or got is None or t.rep or (got[0] >= 0.5 and got[1] <= t.time_limit):
            continue
        k = (fam[0], t.formulation, t.solver)
        cut[k] = min(cut.get(k, fam[1]), fam[1])
    return cut


def describe(plan: Plan, jobs: int, known: pd.DataFrame | None = None,
             under: float = 0.0, ladder: bool = False) -> str:
    """The ``run --dry-run`` text: tasks per puzzle and pair (and tier), the worst-case time
    at the limit, and with ``known`` the estimate."""
    from bench.instance import read_instance

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
    c = cost(plan, known, under, ladder)
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
    for err in plan.errors:
        lines.append(f"unreadable: {err.instance_path}: {err.message}")
    return "\n".join(lines)

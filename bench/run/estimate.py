"""What a run's plan costs (``run --dry-run``), told two ways: the worst case, every task at
the time limit, and, given earlier run folders, an estimate: each planned task at the median
time its (instance, formulation, solver) took there (a timeout or other unanswered task at the
limit), and the tasks never measured at the limit too, counted apart; the expected wall time
adds the earlier runs' start-up per task (``overhead_s`` in a run's results). An instance is
told by its content (:func:`bench.run.plan.content`), never by its file's name: a renamed or
moved file keeps its times, a file edited since or another file of the same name has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench.instance import read_instance
from bench.records import NOT_RUN
from bench.run.plan import Plan, content, rung

if TYPE_CHECKING:  # pandas is slow to import: only the estimate needs it
    import pandas as pd


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
    """Per (instance content, formulation, solver) of earlier run folders (the tasks that ran:
    one recorded not run says nothing of its time): the median build +
    solve time of the answered tasks, ``answered`` when at least half answered (a task its
    formulation skipped counts as answered in no time: it costs only its start-up), and the
    time limit they ran under; ``attrs["startup_s"]``: the mean harness start-up per task."""
    import pandas as pd

    from bench.report.data import load_run, prepare, ran

    frames = [ran(prepare(load_run(f).df, f)) for f in folders]
    frames = [f for f in frames if len(f)]
    if not frames:
        return pd.DataFrame(columns=["content", "formulation", "solver", "time_s", "answered"])
    t = pd.concat(frames, ignore_index=True)
    skipped = t["status"].eq("skipped")  # refused by its formulation: nothing built or solved
    t.loc[skipped, "ok"] = True
    t.loc[skipped, "time_s"] = 0.0
    t["content"] = t["key"].map(lambda k: str(k).partition("|")[0])  # as plan.content
    labels = {(p, f): current_label(p, f)
              for p, f in set(zip(t["puzzle"], t["formulation"], strict=True))}
    t["formulation"] = [labels[p, f] for p, f in zip(t["puzzle"], t["formulation"], strict=True)]
    g = t.groupby(["content", "formulation", "solver"])
    out = g.agg(time_s=("time_s", "median"), answered=("ok", "mean"),
                limit=("time_limit", "max")).reset_index()
    if "overhead_s" in t and t["overhead_s"].notna().any():
        out.attrs["startup_s"] = float(t["overhead_s"].mean())
    return out


def current_label(puzzle: str, label: str) -> str:
    """An earlier run's variant label as the registry writes it now: a parameter added to the
    formulation since then takes its default (a new parameter's default keeps the behaviour
    that was measured), so the earlier time still estimates the variant; a label the
    registry cannot read (a formulation or value since removed) stays as it was."""
    from bench.registry import get_formulation

    try:
        return get_formulation(puzzle, label).label
    except (KeyError, ValueError, TypeError):  # TypeError: a plugin class's constructor
        return label


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
        known["content"], known["formulation"], known["solver"], known["answered"],
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
        got = rows.get((content(t), t.formulation, t.solver))
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


def _ladder_cuts(plan: Plan, rows: dict[tuple[str, str, str], tuple[float, float]],
                 ladder: bool | frozenset[str] = True
                 ) -> dict[tuple[str, str, str], tuple[int, int]]:
    """Per (family, formulation, solver): the earliest rung among the plan's
    first runs measured unanswered (or slower than their limit)."""
    cut: dict[tuple[str, str, str], tuple[int, int]] = {}
    for t in plan.tasks:
        fam = rung(t, ladder)
        got = rows.get((content(t), t.formulation, t.solver))
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
    and the expected wall time (the estimate plus the earlier runs' mean start-up per task,
    over ``jobs``)."""
    import pandas as pd

    puzzle = {p: read_instance(p).puzzle for p in {t.instance for t in plan.tasks}}
    df = pd.DataFrame([{"puzzle": puzzle[t.instance], "tier": t.tier or "untiered",
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

"""Reuse of finished results across runs (``run --reuse RUN_DIR...``, ``--reuse-latest``).

A planned task takes an earlier result when the result's identity (:mod:`bench.identity`)
equals the identity the task would have here: same instance content, formulation code,
variant, backend code, solver and version (an external formulation's: its peer package's,
none for one of ours), limits, seed, repetition and machine. The result is
copied into the new run's journal whole (every field, its ``run`` -- where it was produced --
and ``finished`` among them, so the report can say what was reused from where), except what
the current plan says of the task: its tier, instance name and path (a renamed or moved file,
a suite that tiers it): only the measurement is reused. A source folder is a run's
(its journal) or a committed run's (``results.parquet`` and ``environment.json`` only: its
table's rows are read back as results). Not reused: results
without an identity (folders written before identities were recorded: they match nothing) and
``error`` results (an error may be the harness's own, which is not part of the identity), and
tasks a suite's ladder rule recorded without running (the rule decides them again from the
results it has).
Among several samples of one identity (a merged folder) the latest is taken. A planned task's
identity names this machine: results made on other machine types (a cluster's workers) are
reused only by a run on their type.

How a task's process started (``fork`` from a template or ``spawn``) is no part of the
identity but is judged beside it (:func:`matches`): a run does not take the results of a run
that started its tasks otherwise (a spawned task's ``wall_s`` and ``overhead_s`` include a
fresh interpreter and its imports, and its ``peak_rss_mb`` every page those imports touched,
with no ``base_rss_mb``). The start judged is the source run's, not the task process's: a
forking run spawns a task whose fork failed (:func:`bench.run.pool.run_task`), and that
result, which says ``spawn``, is taken by a forking run when every run that recorded tasks
into its folder started by fork (:func:`run_start`), as a resume of that folder keeps it as
the run's own (``bench.run.session``): one run's results are the same wherever they are
taken. The measurement is the one that run reports: its build and solve times (the times a
report compares) are taken inside the task process from the start of the build, after the
task's modules are imported, either way (a module a formulation imports only inside its build
counts in a spawned task's build and not in a forked one's); its overhead and memory are a
spawned process's, beside forked ones in its own run as in the run that takes it. A result
that says ``spawn`` from a folder of spawning runs, or of runs that started otherwise than
each other, is judged by its own start: a forking run does not take it.
"""

from __future__ import annotations

import dataclasses
import logging
import shlex
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.identity import (
    differing_parts,
    identity,
    machine,
    machine_id,
    planned_identity,
    planned_record,
)
from bench.judge import Known, rejudged
from bench.records import NOT_RUN, Result, Task, instance_digest
from bench.run.outcome import solver_version
from bench.run.storage import (
    Journal,
    forget,
    is_run_folder,
    load_environment,
    samples,
    source_of,
    stored_results,
    unreadable_table_errors,
)

if TYPE_CHECKING:
    from bench.run.plan import Plan

log = logging.getLogger(__name__)


class SourceError(ValueError):
    """A ``--reuse`` folder that is no run folder or cannot be read (one line naming it)."""


@dataclass
class Sources:
    """The reusable results of earlier run folders, by identity."""

    folders: list[Path] = field(default_factory=list)
    by_identity: dict[str, Result] = field(default_factory=dict)
    #: folder -> results it holds without an identity (never reused)
    without_identity: dict[str, int] = field(default_factory=dict)
    #: identity -> :func:`run_start` of the folder its result was taken from
    run_starts: dict[str, str] = field(default_factory=dict)
    #: every folder and all its results, as read (:func:`bench.run.merge.folders_conflict`)
    read: list[tuple[str | Path, list[Result]]] = field(default_factory=list)

    @classmethod
    def load(cls, folders: Iterable[str | Path]) -> Sources:
        """Read the folders' results (a journal, or a committed run's table:
        :func:`bench.run.storage.stored_results`); :class:`SourceError` names a folder that
        is no run or cannot be read (a damaged or unreadable table), in one line. Unreadable
        lines or rows are skipped with a warning naming the folder."""
        src = cls()
        for folder in map(Path, folders):
            try:
                found, skipped = stored_results(folder)
            except FileNotFoundError as e:
                raise SourceError(f"--reuse {e}") from None
            except unreadable_table_errors() as e:
                raise SourceError(f"--reuse {source_of(folder)}: cannot be read "
                                  f"({getattr(e, 'strerror', None) or e})") from None
            if skipped:
                log.warning("--reuse %s: %d unreadable line(s) or row(s) skipped",
                            source_of(folder), skipped)
            src.folders.append(folder)
            src.read.append((folder, found))
            started = run_start(folder)
            old = 0
            for r in found:
                if r.formulation == "-":
                    continue
                if not r.identity:
                    old += 1
                elif r.status != "error" and not r.message.startswith(NOT_RUN):
                    r.run = r.run or folder.name
                    have = src.by_identity.get(r.identity)
                    if have is None or r.finished >= have.finished:
                        src.by_identity[r.identity] = r
                        src.run_starts[r.identity] = started
            if old:
                src.without_identity[str(folder)] = old
        return src

    def notes(self) -> list[str]:
        """A line per folder whose results carry no identity."""
        return [f"{folder}: {n} results have no identity (written before identities were "
                "recorded): none of them is reused" for folder, n in
                self.without_identity.items()]


def adopt(res: Result, task: Task, cache: Known | None = None) -> Result:
    """A copy of a source result as the planned ``task``'s: every field of the measurement
    kept, the task's key, tier, instance path and name (the file's stem) taken from the plan,
    a result written before origins were recorded takes the task's origin (the identity
    matched, so the formulation is the same), and its verdict against the known solution is
    taken again from the task's ``.sol`` (:func:`bench.judge.rejudged`)."""
    return rejudged(dataclasses.replace(res, key=task.key, tier=task.tier,
                                        instance_path=task.instance,
                                        instance=Path(task.instance).stem,
                                        origin=res.origin or task.origin), cache)


def rejudge_into(journal: Journal, held: Sequence[Result], keys: set[str]) -> int:
    """Append to ``journal`` each of its results ``held`` for these task keys whose verdict
    against the known solution changed since it was recorded (a ``.sol`` added, corrected or
    removed: :func:`bench.judge.rejudged`), the same sample with the new verdict (the
    latest line of a sample wins); how many."""
    cache: Known = {}
    changed = [new for r in samples(list(held)) if r.key in keys
               if (new := rejudged(r, cache)) is not r]
    if changed:
        journal.extend(changed)
    return len(changed)


def forget_not_run(journal: Journal, keys: set[str]) -> set[tuple[str, str]]:
    """Take out of the journal the results the ladder rule recorded as not run for these task
    keys (the journal rewritten in one step, every other line kept byte for byte); the
    samples taken out (:func:`bench.run.storage.forget`)."""
    return forget(journal, {r.key for r in journal.results() if r.key in keys
                             and r.message.startswith(NOT_RUN)}, NOT_RUN)


def forget_fixed(journal: Journal, plan: Plan) -> set[tuple[str, str]]:
    """Take out of the journal the error rows of instance files (formulation "-") that this
    plan reads again and plans under another key: the file was unreadable and is readable now
    (or unreadable otherwise), so the old row no longer describes the folder's data. The file
    is told by its instance name (a planned file's) and by its content: the row's content
    (:func:`bench.run.plan.content`) is planned no more, and its recorded path does not hold
    that content here (a path recorded from another working folder names no file here; the
    same name in another folder whose file is still unreadable keeps its row). The samples
    taken out (:func:`bench.run.storage.forget`)."""
    from bench.run.plan import content

    names = {Path(p).stem for p in [*(t.instance for t in plan.tasks),
                                    *(e.instance_path for e in plan.errors)]}
    keys = {t.key for t in plan.tasks} | {e.key for e in plan.errors}
    return forget(journal, {r.key for r in journal.results() if r.formulation == "-"
                            and r.status == "error" and r.key not in keys
                            and Path(r.instance_path).stem in names
                            and instance_digest(r.instance_path) != content(r)}, "")


def matches(tasks: Sequence[Task], sources: Sources, done: set[str] | None = None,
            pinned: bool = False, start: str = "") -> list[Result]:
    """The source result of every task (not among the ``done`` keys) whose identity matches
    and that was measured the way this run measures (``pinned``: ``run --pin``, each task on a
    core of its own; ``start``: how this run starts its tasks, "fork" or "spawn", "" any; a
    pinned and an unpinned measurement, or a forked and a spawned one, are never mixed in one
    run), taken over by the task (:func:`adopt`)."""
    found: list[Result] = []
    done = set(done or ())
    cache: Known = {}
    for task in tasks:
        if task.key in done or not task.code:
            continue
        version = solver_version(task.solver, task.origin)
        ident = planned_identity(task, version)
        res = sources.by_identity.get(ident)
        if res is not None and not _measured_otherwise(res, pinned, start,
                                                       sources.run_starts.get(ident, "")):
            found.append(adopt(res, task, cache))
            done.add(task.key)
    return found


def run_start(folder: Path) -> str:
    """The start method every run that recorded tasks into ``folder`` started its tasks by
    (its environment records' ``start``), "" when they differ or none says."""
    starts = {r.get("start") for r in load_environment(folder) if r.get("tasks")}
    one = starts.pop() if len(starts) == 1 else ""
    return one if isinstance(one, str) else ""


def _measured_otherwise(res: Result, pinned: bool, start: str,
                        source_start: str = "") -> list[str]:
    """How ``res`` was measured otherwise than a run pinning its tasks or not (``pinned``) and
    starting them by ``start`` ("" any; a result that does not say how it started matches;
    one whose source run started by ``start``, ``source_start``, is that run's own fallback
    and matches: the module's docstring). Pinning is judged on answers only: a task killed
    before it reported carries no pin whatever its run did, and an unanswered task's time is
    its limit either way."""
    out = []
    answered = res.status in ("solved", "infeasible", "wrong")
    if answered and (res.pinned_cpu is not None) != pinned:
        out.append(f"pinned to cpu {res.pinned_cpu}" if res.pinned_cpu is not None
                   else "not pinned")
    if start and res.start and res.start != start and source_start != start:
        out.append(f"started by {res.start}")
    return out


def stale(results: Iterable[Result], tasks: Sequence[Task], pinned: bool = False,
          start: str = "", here: bool = True, folder: str | Path = "FOLDER") -> str:
    """Why the results a run folder holds for these planned tasks' keys cannot stand for them
    ("" when they can): a result whose identity differs from the one the task would have
    (formulation or backend code, solver version, threads; and with ``here`` the machine: on
    a cluster the workers' types, which the client cannot know, are not judged), or one
    measured otherwise (:func:`_measured_otherwise`). Resuming keeps a key's results and
    runs only the keys it lacks, so such a result would be reported as this run's; the advice
    is a new ``--out`` with ``--reuse`` of the results' ``folder``, which takes the results
    that still match (:func:`matches`) and runs the rest. Not judged: results without an
    identity (written before identities were recorded) and tasks the ladder rule recorded as
    not run (the rule decides them again)."""
    planned = {t.key: t for t in tasks if t.code}
    bad: list[tuple[Result, list[str]]] = []
    this = machine()
    versions: dict[tuple[str, str], str] = {}
    for r in results:
        task = planned.get(r.key)
        if task is None or r.formulation == "-" or not r.identity \
                or r.message.startswith(NOT_RUN):
            continue
        at = (task.solver, task.origin)
        if at not in versions:
            versions[at] = solver_version(*at)
        have = r.to_dict()
        want = planned_record(task, versions[at], this if here else {k: have.get(k) for k in this})
        why = differing_parts(have, want) if r.identity != identity(want) else []
        why += _measured_otherwise(r, pinned, start)
        if why:
            bad.append((r, why))
    if not bad:
        return ""
    r, why = bad[0]
    return (f"{len(bad)} result(s) in this folder were measured otherwise than this run "
            f"would measure them ({', '.join(why)}: {r.instance}, {r.formulation} / "
            f"{r.solver}): run with --out NEW_FOLDER --reuse {shlex.quote(str(folder))}, "
            "which takes the results that still match and runs the rest")


def reuse_into(journal: Journal, tasks: Sequence[Task], sources: Sources,
               pinned: bool = False, start: str = "") -> Counter[str]:
    """Copy into ``journal`` the source result of every task not done there that
    :func:`matches`; return how many were taken from each origin run."""
    taken: Counter[str] = Counter()
    for res in matches(tasks, sources, journal.keys(), pinned, start):
        journal.append(res)
        taken[res.run] += 1
    return taken


def summary(taken: Counter[str], total: int, kept: int = 0) -> str:
    """``reused 95 of 103 tasks (90 from q1, 5 from q2); 8 to run``; ``kept``: tasks of the
    plan the run folder already holds (a resume), neither reused nor run:
    ``reused 0 of 30 tasks; 30 already in the run folder; 0 to run``."""
    n = sum(taken.values())
    where = ", ".join(f"{k} from {run}" for run, k in
                      sorted(taken.items(), key=lambda x: (-x[1], x[0])))
    return (f"reused {n} of {total} tasks" + (f" ({where})" if n else "")
            + (f"; {kept} already in the run folder" if kept else "")
            + f"; {total - n - kept} to run")


def same_machine(folder: Path) -> bool:
    """The run folder's last environment record names this machine's type."""
    envs = load_environment(folder)
    return bool(envs) and machine_id(envs[-1]) == machine_id(machine())


def latest_run(candidates: Iterable[str | Path], out: str | Path) -> Path | None:
    """The newest of ``candidates`` (by its environment's date, then its name) that is a run
    folder (a journal, or a committed run's table) made on this machine type, ``out`` itself
    left out."""
    found = []
    for c in map(Path, candidates):
        if not c.is_dir() or c.resolve() == Path(out).resolve() \
                or not is_run_folder(c) or not same_machine(c):
            continue
        envs = load_environment(c)
        found.append((str(envs[-1].get("recorded_at", "")), c.name, c))
    return max(found)[2] if found else None

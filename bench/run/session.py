"""One library call runs a suite: :func:`run_suite` plans it (:func:`bench.run.plan.make_plan`)
and :func:`run_session` runs a plan into a run folder, which the ``run`` command is a thin
layer over.

A session, under the folder's lock (:class:`bench.run.lock.RunLock`) and with Ctrl-C, SIGTERM,
SIGHUP and SIGQUIT turned into a clean stop (:func:`bench.run.interrupt.stop_on_signals`):

1. refuses a folder holding results of other limits (:func:`bench.run.pool.resume_conflict`),
   or results of the plan's keys measured otherwise than this run would measure them
   (another code, solver version, threads or machine, pinning or start:
   :func:`bench.run.reuse.stale`): a resumed run keeps a key's results as its own; then puts
   back into the journal the results only the folder's table holds
   (:func:`bench.run.storage.unjournaled`: a committed run's table, the rows of journal lines
   damaged since), since the table is written from the journal;
2. when the suite no longer applies its ladder rule, takes out of the journal the results the
   rule recorded as not run, so that those tasks run now (said through ``say``);
3. records the environment;
4. runs the plan in the order its suite asks (:func:`run_gated`: first runs, then the further
   repetitions of the fast ones; with the ladder rule, family rung by rung). Each plan handed
   to the runner first takes the earlier results of matching identity (``--reuse``,
   :mod:`bench.run.reuse`) and runs only the rest, so the repetition gate and the ladder rule
   decide on reused results exactly as on measured ones: the same suite and code give the
   same statuses with or without reuse;
5. writes ``results.parquet`` from the journal.

A stop (a signal) at any point of 2-5 keeps every finished result (the journal is written as
each one finishes or is copied) and still writes the Parquet; a signal during the Parquet write
writes it again (later signals are ignored). :class:`Outcome` says what happened.
"""

from __future__ import annotations

import contextlib
import logging
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.records import NOT_RUN, Result, Task
from bench.run.interrupt import stop_on_signals
from bench.run.ladder import run_ladder
from bench.run.lock import RunLock
from bench.run.plan import Plan, Planned, content, make_plan
from bench.run.storage import JOURNAL, Journal

log = logging.getLogger(__name__)


class SessionError(RuntimeError):
    """The run cannot start: the folder is locked, holds results of other limits, or a
    ``reuse`` folder is no run. One line for the user; nothing was run."""


@dataclass
class Options:
    """How a session runs its tasks (not which)."""

    jobs: int = 1
    #: "fork" (from per-kind templates) or "spawn"; None: fork where the OS has it
    start: str | None = None
    #: "local" (the pool here) or "dask"
    executor: str = "local"
    scheduler: str = ""
    #: run folders whose results of matching identity are taken instead of running
    reuse: Sequence[str | Path] = ()
    #: what the environment record notes of the run's options
    memory_limit_mb: int = 8192
    threads: int = 1
    seed: int = 0
    seeds: int = 1
    repeat: int = 1
    #: seconds between samples of the machine's state (:class:`bench.run.noise.Monitor`)
    sample_s: float = 60.0
    #: seconds between progress lines said (0: none)
    progress_s: float = 0.0
    #: each local task process on its worker slot's core (bench.run.pin); Dask: not pinned
    pin: bool = False


@dataclass
class Outcome:
    """What a session did."""

    out: Path
    #: the consolidated table (None: not written)
    table: Path | None = None
    #: results in the journal at the end
    results: int = 0
    #: tasks whose earlier result matched before the run, and of them those copied, by run
    reusable: int = 0
    reused: Counter[str] = field(default_factory=Counter)
    #: the signal that stopped the run (0: it ran to the end)
    signum: int = 0
    #: instances that could not be read (recorded as error results)
    errors: list[Result] = field(default_factory=list)
    #: planned tasks, and of them those not run by reason ("ladder rule": recorded not run;
    #: "repetition gate": further repetitions left out), counted when the run ran to the end
    planned: int = 0
    not_run: Counter[str] = field(default_factory=Counter)
    #: why the machine was disturbed during the run (:func:`bench.run.noise.disturbance`)
    disturbed: list[str] = field(default_factory=list)

    def not_run_line(self) -> str:
        """How many planned tasks were not run and why ("" when every one ran)."""
        if not sum(self.not_run.values()):
            return ""
        why = {"ladder rule": "left out by the suite's ladder rule (recorded as not run, "
                              "not as failures)",
               "repetition gate": "further repetitions or seeds left out by the repetition "
                                  "gate (their first run was slow or did not answer)"}
        return (f"{sum(self.not_run.values())} of {self.planned} planned tasks were not run: "
                + "; ".join(f"{n} {why.get(k, k)}" for k, n in self.not_run.items() if n))

    def disturbed_line(self) -> str:
        """The warning to print when the run was disturbed ("" when it was not): by other load
        on the machine, or by its own jobs outnumbering the cores."""
        if not self.disturbed:
            return ""
        return ("warning: this run was disturbed (" + "; ".join(self.disturbed)
                + "): its times are slower than the machine's and may not compare with other "
                "runs (see samples in environment.json)")

    @property
    def journal(self) -> Path:
        return self.out / JOURNAL

    def stopped(self) -> str:
        """The line to print when a signal stopped the run ("" when none did)."""
        if not self.signum:
            return ""
        word = "interrupted" if self.signum == signal.SIGINT else "terminated"
        where = f"{self.journal}" + (f" and {self.table}" if self.table else "")
        kept = (f"{self.results} finished results kept in {where}" if self.results
                else "no task had finished")
        return (f"{word} ({signal.Signals(self.signum).name}): {kept}; run the same command "
                "again to resume (unfinished tasks run then)")


# -- the order of a run: first runs, the gate, the ladder -----------------------------------

def _group(x: Task | Result) -> tuple[str, str, str]:
    """A task's or result's (instance, formulation, solver), the instance by its content
    (:func:`bench.run.plan.content`): a result recorded under another path (a file moved or
    renamed since, a run started from another working folder) is its task's all the same."""
    return (content(x), x.formulation, x.solver)


def split_repeats(plan: Plan, fixed: frozenset[str] = frozenset()
                  ) -> tuple[list[Task], list[Task]]:
    """The plan's first run of each (instance, formulation, solver) -- its lowest seed,
    repetition 0; every seed of a task in a ``fixed`` tier (its seeds are the design) -- and
    the further repetitions and seeds."""
    base: dict[tuple[str, str, str], int] = {}
    for t in plan.tasks:
        base[_group(t)] = min(base.get(_group(t), t.seed), t.seed)

    def first_run(t: Task) -> bool:
        return t.rep == 0 and (t.seed == base[_group(t)] or t.tier in fixed)

    return [t for t in plan.tasks if first_run(t)], [t for t in plan.tasks if not first_run(t)]


def gate(extra: list[Task], done: Iterable[Result], under: float) -> list[Task]:
    """The further repetitions worth running: those of a (instance, formulation, solver)
    whose first run answered in under ``under`` s (build + solve), where timing noise matters;
    one slower or unanswered is not repeated. A first run is matched by its instance's
    content (:func:`_group`), never by the path it recorded."""
    fast = {_group(r) for r in done
            if r.status in ("solved", "infeasible") and r.rep == 0
            and (r.build_s or 0.0) + (r.solve_s or 0.0) < under}
    return [t for t in extra if _group(t) in fast]


def run_gated(plan: Plan, under: float, run: Callable[[Plan], object],
              done: Callable[[], Iterable[Result]], ladder: bool | frozenset[str] = False,
              fixed: frozenset[str] = frozenset()) -> None:
    """Run the plan; with ``under`` > 0, first every task's first run (every seed of a task in
    a ``fixed`` tier), then only the further repetitions :func:`gate` keeps (``done``: the
    results so far, the journal's). With ``ladder`` (True, or the tiers it holds in), in the
    steps of the suite's ladder rule (:mod:`bench.run.ladder`), each step gated so."""
    if ladder:
        run_ladder(plan, lambda p: run_gated(p, under, run, done, fixed=fixed), done, ladder)
        return
    first, extra = split_repeats(plan, fixed)
    if under <= 0 or not extra:
        run(plan)
        return
    run(Plan(tasks=first, errors=plan.errors))
    run(Plan(tasks=gate(extra, done(), under)))


# -- the session ------------------------------------------------------------------------------

def _executor(options: Options, start: str) -> Any:
    """The Dask executor for ``executor="dask"`` (None: the local pool)."""
    if options.executor != "dask":
        return None
    from bench.run.executors import DaskExecutor

    return DaskExecutor(scheduler=options.scheduler or None, workers=options.jobs, start=start)


def run_session(planned: Planned, out: str | Path, options: Options | None = None,
                say: Callable[[str], None] = log.info) -> Outcome:
    """Run ``planned`` into the run folder ``out`` (created; a folder holding a run of the
    same limits is resumed: the tasks journaled there are not run again). ``say`` gets the
    lines a user should read (what was reused, what the ladder rule's change reruns). Raises
    :class:`SessionError` when the run cannot start (two ``reuse`` folders holding different
    measurements of one sample among the reasons: :func:`bench.run.merge.sample_conflict`),
    OSError when the folder cannot be written; a signal does not raise once the folder is
    taken: :attr:`Outcome.signum` says it stopped the run (inside the caller's
    :func:`~bench.run.interrupt.stop_on_signals`, a signal after the table was written is left
    in the caller's ``Stop.fired``)."""
    from bench.run.lock import FolderLocked
    from bench.run.merge import folders_conflict
    from bench.run.reuse import SourceError, Sources
    from bench.run.storage import consolidate

    options = options or Options()
    out = Path(out)
    try:
        sources = Sources.load(options.reuse) if options.reuse else None
        if sources and (conflict := folders_conflict(sources.read)):  # one sample, two
            raise SourceError(f"--reuse: {conflict}; nothing was run: reuse one of the two "
                              "folders, not both")  # measurements
    except SourceError as e:
        raise SessionError(str(e)) from None
    outcome = Outcome(out, errors=list(planned.plan.errors),
                      planned=len(planned.plan.tasks))
    journal = Journal(out)
    try:
        with RunLock(out), stop_on_signals() as stop:
            try:
                try:
                    stopped = _session(planned, journal, options, sources, outcome, say)
                except (KeyboardInterrupt, Exception) as e:  # during the environment's last
                    stopped = _stop_of(e)  # update; or an interrupt Python wrapped
                try:
                    outcome.table = consolidate(out)
                    stop.settle()  # the table is written: a signal now is recorded
                except KeyboardInterrupt as e:  # later signals are ignored now: write it again
                    stopped = stopped or e
                    outcome.table = consolidate(out)
            finally:  # an error leaving with the folder taken is not turned into a stop
                stop.settle()
            outcome.results = len(journal.results())
            signum = getattr(stopped, "signum", signal.SIGINT) if stopped else 0
    except FolderLocked as e:
        raise SessionError(str(e)) from None
    outcome.signum = signum or stop.fired
    return outcome


def _prepare(planned: Planned, journal: Journal, sources: Any, outcome: Outcome,
             say: Callable[[str], None], pinned: bool = False, start: str = "",
             here: bool = True) -> None:
    """Steps 1 and 2 of a session, and the count of reusable results (said; ``pinned``: the
    run pins its tasks, and reuses only pinned measurements; ``start``: how it starts them,
    and it reuses only measurements started so; ``here``: its tasks run on this machine, not
    on a cluster's workers)."""
    from bench.run.pool import resume_conflict
    from bench.run.reuse import forget_fixed, forget_not_run, matches, rejudge_into, stale, summary
    from bench.run.storage import TABLE, consolidate, load_environment, unjournaled

    plan = planned.plan
    earlier = [int(r["memory_limit_mb"]) for r in load_environment(journal.folder)
               if isinstance(r.get("memory_limit_mb"), int) and r.get("tasks")]
    held = journal.results()
    every = [*held, *unjournaled(journal.folder, held)]
    lost = every[len(held):]
    conflict = resume_conflict(journal, plan, earlier, every)
    if not conflict and (why := stale(every, plan.tasks, pinned,
                                      _judged_start(journal.folder, start), here,
                                      journal.folder)):
        conflict = f"{journal.folder}: {why}"
    if conflict:
        raise SessionError(conflict)
    if lost:  # the journal is the folder's record: what only the table kept goes back in
        journal.extend(lost)
        say(f"{len(lost)} result(s) of {journal.folder / TABLE} that {journal.path.name} "
            "lacked were put back into it")
    if forgotten := forget_fixed(journal, plan):
        say(f"{len(forgotten)} error row(s) of instance files in {journal.path} dropped: the "
            "files are readable now and their tasks are planned")
    if n := rejudge_into(journal, every, {t.key for t in plan.tasks}):
        say(f"{n} result(s) in {journal.path} judged again: their known solution (.sol) "
            "changed since they ran")
    if not planned.ladder and (gone := forget_not_run(journal, {t.key for t in plan.tasks})):
        say(f"{len(gone)} results in {journal.path} were recorded not run by the ladder rule, "
            "which this run does not apply: they run now")
        forgotten |= gone
    if forgotten and (journal.folder / TABLE).is_file():  # the table forgets them too, now
        consolidate(journal.folder, forgotten)
    if sources is not None:
        for note in sources.notes():
            say(note)
        kept = journal.keys()
        found = matches(plan.tasks, sources, kept, pinned, start)
        outcome.reusable = len(found)
        say(summary(Counter(r.run for r in found), len(plan.tasks),
                    len({t.key for t in plan.tasks} & kept)))


def _judged_start(folder: Path, start: str) -> str:
    """The start method a resume judges the folder's results by: ``start``, unless every run
    that recorded tasks into the folder started its tasks by ``start`` too, when "" (judge
    none). A run that forks spawns a task whose fork failed, and that result says "spawn";
    the run it belongs to started by ``start``, so its resume takes it as the run's own
    (:func:`bench.run.reuse.run_start`, which ``--reuse`` judges by too)."""
    from bench.run.reuse import run_start

    return "" if run_start(folder) == start else start


def _stop_of(error: BaseException) -> KeyboardInterrupt:
    """The interrupt that stopped a session: ``error`` itself, or the one Python wrapped in it
    (:func:`~bench.run.interrupt.wrapped_interrupt`); ``error`` raised again when it is no
    interrupt."""
    from bench.run.interrupt import wrapped_interrupt

    if isinstance(error, KeyboardInterrupt):
        return error
    wrapped = wrapped_interrupt(error)
    if wrapped is None:
        raise error
    return wrapped


def _session(planned: Planned, journal: Journal, options: Options, sources: Any,
             outcome: Outcome, say: Callable[[str], None]) -> KeyboardInterrupt | None:
    """Steps 1-4 of a session (the module's docstring); the interrupt that stopped them, if
    one did."""
    from bench.run.environment import harness_version
    from bench.run.noise import Monitor, calibrate
    from bench.run.pool import default_start, run_plan
    from bench.run.reuse import reuse_into

    out, plan = journal.folder, planned.plan
    recorded = failed = False  # failed: an interrupt or an error ended the tasks' loop
    calibration: dict[str, float] = {}
    executor = None
    monitor: Monitor | None = None
    stopped: KeyboardInterrupt | None = None
    try:
        pinned = options.pin and options.executor != "dask"  # Dask tasks are not pinned
        start = options.start or default_start()
        _prepare(planned, journal, sources, outcome, say, pinned, start, options.executor != "dask")
        executor = _executor(options, start)
        calibration = {"start_s": calibrate()}
        _record_start(planned, options, start, calibration, out)
        recorded = True
        # the Parquet writer, imported before the tasks: not beside them, nor after an interrupt
        import pandas  # noqa: F401
        import pyarrow.parquet  # noqa: F401

        provenance: dict[str, Any] = {"run": out.name, "harness": harness_version()}
        progress = _Progress(plan, journal, say)

        def run(p: Plan) -> None:
            if sources is not None:
                outcome.reused.update(reuse_into(journal, p.tasks, sources, pinned, start))
            run_plan(p, journal, jobs=options.jobs, start=start, executor=executor,
                     provenance=provenance, on_result=progress.result,
                     pin=options.pin and executor is None)

        # the machine's state while the run runs; each result recorded here takes the
        # load average of the moment (on a cluster, the client's says nothing of a worker's)
        monitor = Monitor(options.sample_s, options.progress_s, progress.say,
                          live=provenance if executor is None else {}).start()

        run_gated(plan, planned.under, run, journal.results, ladder=planned.ladder,
                  fixed=planned.fixed)
    except (KeyboardInterrupt, Exception) as e:  # the running tasks are killed, not journaled
        failed = True  # an error goes on up from here; an interrupt (wrapped or not) stops
        stopped = _stop_of(e)
    finally:
        if recorded:  # a loop that failed gets no closing calibration: it did not end
            with contextlib.suppress(OSError):  # the first write error is the one reported
                outcome.disturbed = _record_end(out, executor, monitor, calibration, failed,
                                                options.jobs)
    if stopped is not None:
        return stopped
    outcome.not_run = _not_run(planned, journal, say)
    if sources is not None and sum(outcome.reused.values()) < outcome.reusable:
        say(f"{outcome.reusable - sum(outcome.reused.values())} of the reusable results were "
            "not taken: the suite's repetition gate or ladder rule left their tasks out, as "
            "in a run without --reuse")
    return None


def _record_start(planned: Planned, options: Options, start: str,
                  calibration: dict[str, float], out: Path) -> None:
    """The run's environment record and ``constraints.txt``, written before any task."""
    from bench.run.environment import environment, write_constraints
    from bench.run.pin import pin_record
    from bench.run.storage import record_environment

    plan = planned.plan
    record_environment(out, environment(
        **planned.record(), memory_limit_mb=options.memory_limit_mb, jobs=options.jobs,
        threads=options.threads, seed=options.seed, seeds=options.seeds,
        repeat=options.repeat, start=start, executor=options.executor,
        scheduler=options.scheduler, tasks=len(plan.tasks), calibration=calibration,
        pin=pin_record(options.pin, options.jobs, options.executor)))
    write_constraints(out)
    log.info("%d tasks (%d recorded without running: unreadable, or capped) -> %s",
             len(plan.tasks), len(plan.errors), out)


def _record_end(out: Path, executor: Any, monitor: Any, calibration: dict[str, float],
                stopped: bool, jobs: int) -> list[str]:
    """The run's closing calibration (none when an interrupt or an error ended its task loop,
    ``stopped``: it ends at once), the machine samples and the workers' environments added to
    its record; why the machine was disturbed (:func:`bench.run.noise.disturbance`), recorded
    too."""
    from bench.run.noise import calibrate, disturbance
    from bench.run.storage import update_environment

    workers = getattr(executor, "environments", None)
    end = {} if stopped else {"end_s": calibrate()}
    samples = monitor.stop(last=not stopped) if monitor is not None else []
    update_environment(out, calibration={**calibration, **end}, samples=samples,
                       **({"workers": workers} if workers else {}))
    from bench.run.pin import usable_cores

    disturbed = disturbance({"calibration": {**calibration, **end}, "samples": samples,
                             "jobs": jobs, "cores": len(usable_cores())})
    update_environment(out, disturbed=disturbed)
    return disturbed


class _Progress:
    """Counts the results a session records and says a progress line on :meth:`say`."""

    def __init__(self, plan: Plan, journal: Journal, say: Callable[[str], None]) -> None:
        import time

        keys = {t.key for t in plan.tasks}
        self.total, self.say_, self.t0 = len(keys), say, time.monotonic()
        self.before = len(keys & journal.keys())
        self.ran = self.unanswered = 0

    def result(self, res: Result) -> None:
        self.ran += 1
        self.unanswered += res.status not in ("solved", "infeasible")

    def say(self) -> None:
        import time

        elapsed = time.monotonic() - self.t0
        self.say_(f"progress: {self.before + self.ran} of {self.total} planned tasks done "
                  f"({self.ran} run now, {self.unanswered} of them unanswered), "
                  f"{elapsed:.0f} s elapsed")


def _not_run(planned: Planned, journal: Journal,
             say: Callable[[str], None] = lambda s: None) -> Counter[str]:
    """Planned tasks that a finished run did not run, by reason: recorded not run by the
    ladder rule, or left out of the journal by the repetition gate. Says what the planned
    tasks whose results are errors ended in, and how to run them again, which a resume does
    not (:func:`bench.run.errors.error_summary`)."""
    from bench.run.errors import error_summary

    keys = {t.key for t in planned.plan.tasks}
    results = [r for r in journal.results(warn=False) if r.key in keys]
    for line in error_summary(results, journal.folder):
        say(line)
    out: Counter[str] = Counter()
    out["ladder rule"] = sum(r.message.startswith(NOT_RUN) for r in results)
    if missing := len(keys - {r.key for r in results}):
        out["repetition gate" if planned.under > 0 else "not run"] = missing
    return out


def run_suite(suite: str | None, out: str | Path, paths: Sequence[str] = (), *,
              options: Options | None = None, say: Callable[[str], None] = log.info,
              **selection: Any) -> Outcome:
    """Plan and run a suite (and/or instance ``paths``) into ``out``: :func:`make_plan` with
    ``selection`` (its keyword arguments: ``puzzles``, ``formulations``, ``solvers``,
    ``time_limit``, ...), then :func:`run_session`. Raises :class:`bench.run.plan.PlanError`
    for a selection that plans nothing, else as :func:`run_session`."""
    options = options or Options()
    for k in ("memory_limit_mb", "threads", "seed", "seeds", "repeat"):
        if k in selection:
            setattr(options, k, selection[k])
    planned = make_plan(suite, paths, **selection)
    return run_session(planned, out, options, say)

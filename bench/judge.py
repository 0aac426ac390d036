"""The judging rules: what decides a task's ``status``, ``message``, ``checked`` and ``known``
from what the solve found and what the harness saw. Pure functions, no measuring.

The task process calls :func:`unreadable`, :func:`cannot_run` or :func:`code_changed` on a
task it cannot start, :func:`solving` on the partial result of its first solve, and
:func:`conclude` and :func:`over_time_limit` on what its solve found (bench/run/execute.py),
and :func:`out_of_memory` or :func:`crashed` on what its solve raised (bench/run/task.py); the
plan calls :func:`unreadable` and :func:`not_run` on the instances and the capped pairs it
leaves out (bench/run/plan.py); the runner calls :func:`ended` and :func:`memory_status` on
what it measured of a killed or crashed task (bench/run/outcome.py), and
:func:`worker_failed` on a task a Dask worker failed (bench/run/executors.py); a reused or
kept result is judged again against the ``.sol`` beside its instance with :func:`rejudged`
(bench/run/reuse.py). This module lies outside the run layer so that it enters every
result's code digest (:func:`bench.identity.task_files`): a change to how results are judged
changes every result's identity, and no run reuses a verdict the current rules would not
give.

It imports the standard library and the small modules whose records it reads: the task and
result records (:mod:`bench.records`), the instance (:mod:`bench.instance`), the puzzle rules
that check a grid (:mod:`bench.puzzles`) and the failure record (:mod:`bench.failure`); the
solve's record (:class:`bench.solve.Solved`) for its type only. Never the formulations, the
backends or the run, report and command-line layers: they would enter every result's code
digest, or import this module back.

A result's answer (``grid``) and the checker's verdict on it (``checked``) stand beside two
statuses only: ``solved`` (``checked`` True) and ``wrong`` (the answer the checker rejected,
kept as the evidence, ``checked`` False; when counting, the first answer of a set with a
wrong one). Every other status (``infeasible``, ``timeout``, ``memout``, ``error``,
``skipped``) carries neither, nor a verdict against the known solution (``known``, and its
part of the message), whichever rule gives it and whatever a partial result held
(:func:`_no_answer`): a count stopped early keeps its count, not its first answer, as an
answer past the time limit is dropped. ``infeasible`` has a verdict of its own: False where a
known solution exists. A task no rule judged yet starts as
:data:`UNJUDGED`; a task a rule of the run leaves out is judged by :func:`not_run`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bench.failure import Failure, died_of
from bench.instance import Instance, InstanceError, not_utf8, read_instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.records import NOT_RUN, Result, Task, TaskStatus

if TYPE_CHECKING:  # the solve loop imports the backends and the registry
    from bench.solve import Solved

log = logging.getLogger(__name__)

#: the status a result record is made with before a rule here judges it (the run layer's
#: placeholder: a task that ends before any rule does is an error, :func:`ended`)
UNJUDGED: TaskStatus = "error"


#: the message parts of a verdict against the known solution (:func:`conclude`,
#: :func:`rejudged`), and the start of a note on the known solution file itself
DIFFERS = "differs from the known solution (.sol)"
INFEASIBLE_BUT_KNOWN = "infeasible, but the instance has a known solution (.sol)"
KNOWN_NOTE = "known solution "


def _no_answer(res: Result, status: TaskStatus, message: str) -> None:
    """A status that stands by no answer: no grid, no checker's verdict, no verdict against
    the known solution (a rule that gives one, :func:`conclude` on an infeasible answer, sets
    it after)."""
    res.status, res.message = status, message
    res.grid, res.checked, res.known = None, None, None


def _unknown(message: str) -> str:
    """``message`` without its parts on the known solution (:data:`DIFFERS`,
    :data:`INFEASIBLE_BUT_KNOWN`, a note starting :data:`KNOWN_NOTE`): what a rule that drops
    the answer keeps of the message it had."""
    return "; ".join(part for part in message.split("; ") if part not in (
        DIFFERS, INFEASIBLE_BUT_KNOWN) and not part.startswith(KNOWN_NOTE))


def failed(res: Result, failure: Failure) -> None:
    """An error of the formulation or its solver: status, one-line message, phase, traceback."""
    _no_answer(res, "error", failure.message)
    res.phase, res.traceback = failure.phase, failure.traceback


def not_run(res: Result, reason: str) -> None:
    """A task a rule of the run leaves out (the ladder rule, :mod:`bench.run.ladder`): a
    ``timeout`` at its own limit, not measured, whose message starts :data:`NOT_RUN` and gives
    ``reason``: it counts as unsolved, and as a censored time, like a timeout."""
    _no_answer(res, "timeout", f"{NOT_RUN} {reason}")


def unreadable(res: Result, error: InstanceError) -> None:
    """A task whose instance cannot be read, or changed since the run was planned (when the
    plan reads it, or when the task does): an ``error`` saying why."""
    _no_answer(res, "error", str(error))


def cannot_run(res: Result, reason: str) -> None:
    """A task that cannot run here (its solver or formulation unknown, unavailable, or not of
    a kind the solver takes): an ``error`` giving ``reason``, not measured."""
    _no_answer(res, "error", reason)


def code_changed(res: Result, what: str) -> None:
    """A task whose code changed on disk since the run was planned
    (:func:`bench.identity.changed_code` says ``what``): an ``error``, never an answer recorded
    under the planned code digest."""
    _no_answer(res, "error", what)


def solving(res: Result) -> None:
    """The partial result a task leaves once its model is built, before its first solve
    returns: a ``timeout`` as it stands should the harness kill the task then (the harness's
    kill, :func:`ended`, names the limit it was killed at around this message)."""
    _no_answer(res, "timeout", "killed during the first solve")


def out_of_memory(res: Result, error: MemoryError) -> None:
    """An allocation refused inside the task process (Python's allocator, or a solver's that
    raises :class:`MemoryError`: bench.backends.lpfile, bench.backends.highs): ``memout``, its
    answer dropped."""
    _no_answer(res, "memout",
               "MemoryError inside the task process" + (f": {error}" if str(error) else ""))


def crashed(res: Result, error: Exception, trace: str) -> None:
    """An exception out of the task's solve (a crash in a formulation or its solver): an
    ``error`` saying its type and the first line of its text, with its traceback; what the
    last partial result held of an answer is dropped (the crash may come after the check)."""
    _no_answer(res, "error",
               (f"{type(error).__name__}: {error}".splitlines() or [type(error).__name__])[0])
    res.traceback = trace


def worker_failed(res: Result, error: Exception, killed: bool) -> None:
    """A task a Dask worker returned no result of (bench/run/executors.py): ``killed`` (Dask's
    ``KilledWorker``: the task took its worker down more often than the cluster allows) or
    another exception out of the worker or the cluster, an ``error`` saying which."""
    _no_answer(res, "error", f"the task took its Dask worker down repeatedly: {error}"
               if killed else f"{type(error).__name__}: {error}")


def conclude(res: Result, solved: Solved, task: Task, inst: Instance) -> None:
    """The task's status and message from what :func:`bench.solve.solve` found, the known
    solution (``.sol``) compared."""
    rules = get_puzzle(inst.puzzle)
    if solved.failure is not None and solved.grid is None:
        failed(res, solved.failure)
        return
    if solved.status == "skipped":
        _no_answer(res, "skipped", solved.message)
        return
    if solved.grid is not None:
        problems = solved.problems
        res.grid = solved.grid
        res.checked = not problems
        res.status = "solved" if not problems else "wrong"
        res.message = "; ".join(problems[:3])
        known, note = checked_known(task.instance, inst)
        if known is not None and not problems:
            res.known = not note and rules.same(inst, solved.grid, known)
            if not res.known:
                res.message = DIFFERS
        if note:
            res.message = "; ".join(filter(None, [res.message, note]))
        if solved.count_status == "wrong":  # the first answer kept, with its verdicts
            res.status, res.message, res.checked = "wrong", solved.count_message, False
        elif solved.count_status:  # counting stopped early: the count stands, no answer
            _no_answer(res, solved.count_status, solved.count_message)
        if solved.count_status and solved.failure is not None:
            res.phase, res.traceback = solved.failure.phase, solved.failure.traceback
        res.count = solved.count
    elif solved.status == "infeasible":
        _no_answer(res, "infeasible", "")
        res.count = 0 if task.count else None
        known, note = checked_known(task.instance, inst)
        if known is not None and not note:  # an inexact model cut it off
            res.known = False
            res.message = INFEASIBLE_BUT_KNOWN
        elif note:
            res.message = note
    elif solved.status == "timeout":
        _no_answer(res, "timeout", f"no solution within {task.time_limit:g} s")
    elif solved.status == "error":
        _no_answer(res, "error", solved.message)
    else:
        _no_answer(res, "error", f"solver stopped with status {solved.status}")


def over_time_limit(res: Result, time_limit: float) -> None:
    """The same time limit for every solver: an answer whose build and solve together took
    longer than ``time_limit`` is a ``timeout`` (its grid dropped), whatever it found."""
    took = (res.build_s or 0.0) + (res.solve_s or 0.0)
    if took > time_limit and res.status not in ("error", "skipped"):
        _no_answer(res, "timeout",
                   f"build + solve took {took:.2f} s, past the {time_limit:g} s limit")


class KnownSolutionError(ValueError):
    """A ``NAME.sol`` beside an instance that cannot serve as its known solution; one line."""


def read_known_solution(instance_path: str) -> SolutionGrid | None:
    """The known solution stored beside an instance (``NAME.sol``, a JSON grid), None when
    there is none; :class:`KnownSolutionError` when there is one that cannot be read."""
    sol = Path(instance_path).with_suffix(".sol")
    if not sol.exists():
        return None
    if not sol.is_file():  # a FIFO would hang the task
        raise KnownSolutionError(f"{sol}: not a regular file")
    try:
        grid = json.loads(sol.read_text(encoding="utf-8"))
    except OSError as e:
        raise KnownSolutionError(f"{sol}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        line, problem = not_utf8(e)
        raise KnownSolutionError(f"{sol}:{line}: {problem}") from None
    except ValueError as e:
        raise KnownSolutionError(f"{sol}: not JSON ({str(e).splitlines()[0]})") from None
    if not isinstance(grid, list) or not all(isinstance(row, list) for row in grid):
        raise KnownSolutionError(f"{sol}: not a JSON list of rows")
    return grid


def known_solution(instance_path: str) -> SolutionGrid | None:
    """:func:`read_known_solution`, None for a ``.sol`` that cannot be read."""
    try:
        return read_known_solution(instance_path)
    except KnownSolutionError:
        return None


def checked_known(instance: str, inst: Instance) -> tuple[SolutionGrid | None, str]:
    """The known solution of the ``instance`` file and a one-line note on what is wrong with
    it ("" when nothing): an unreadable ``.sol`` is not used (None); one that breaks the rules
    is still compared (a solved grid then differs from it), and the note says so."""
    try:
        known = read_known_solution(instance)
    except KnownSolutionError as e:
        log.warning("%s", e)
        return None, f"known solution not used: {e}"
    if known is None:
        return None, ""
    problems = get_puzzle(inst.puzzle).verify(inst, known)
    if problems:
        note = f"known solution {Path(instance).with_suffix('.sol')} breaks the rules " \
               f"({problems[0]})"
        log.warning("%s", note)
        return known, note
    return known, ""


#: an instance path -> the instance and its known solution with the note on it, or None
Known = dict[str, tuple[Instance, SolutionGrid | None, str] | None]


def rejudged(res: Result, cache: Known | None = None) -> Result:
    """``res`` with its verdict against the known solution taken again from the ``.sol``
    beside its instance as that file is now, as :func:`conclude` takes it: a solved grid that
    passed the rules is compared with it, and an infeasible answer is wrong where one exists.
    The verdict is no measurement: a ``.sol`` added, corrected or removed since the task ran
    changes it, and a result kept or reused must not carry the old one. ``res`` itself when
    the verdict is unchanged or nothing decides it (``wrong``, an instance that cannot be read
    now); a status that stands by no answer carries no verdict (:func:`_no_answer`): one it
    holds is dropped, with its message part. ``cache``: the instances and known solutions read
    so far, by path."""
    solved = res.status == "solved" and res.grid is not None and bool(res.checked)
    if res.status not in ("solved", "wrong", "infeasible") and res.known is not None:
        return dataclasses.replace(res, known=None, message=_unknown(res.message))
    if not (solved or res.status == "infeasible"):
        return res
    cache = {} if cache is None else cache
    if res.instance_path not in cache:
        try:
            inst = read_instance(res.instance_path)
            cache[res.instance_path] = (inst, *checked_known(res.instance_path, inst))
        except InstanceError:
            cache[res.instance_path] = None
    if (found := cache[res.instance_path]) is None:
        return res
    inst, known, note = found
    if solved:
        same = (known is not None and not note and res.grid is not None
                and get_puzzle(inst.puzzle).same(inst, res.grid, known))
        verdict = None if known is None else same
        message = "; ".join(filter(None, ["" if verdict is not False else DIFFERS, note]))
    else:
        verdict = False if known is not None and not note else None
        message = INFEASIBLE_BUT_KNOWN if verdict is False else note
    if (verdict, message) == (res.known, res.message):
        return res
    return dataclasses.replace(res, known=verdict, message=message)

#: what a task says when an allocation failed under its RLIMIT_DATA (the messages of OpenBLAS
#: in cbc, a solver's thread stack, C++ new, Python's allocator, Rust's allocator in Pumpkin:
#: "memory allocation of N bytes failed" before it aborts, MiniSat's and Glucose's
#: ``OutOfMemoryException``)
OUT_OF_MEMORY = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory",
                 "Memory allocation", "can't start new thread", "memory allocation of",
                 "OutOfMemoryException")

#: the last lines of a failed task's stderr searched for why it failed (a fatal error's
#: first line stands above its stack dump: up to 100 frames a thread)
STDERR_SEEN = 400

#: a task that died of SIGSEGV (itself, or a solver child whose failure it reported) with its
#: measured peak at least this fraction of its memory limit is a ``memout``. Under RLIMIT_DATA
#: the kernel refuses an allocation when the process's reserved data (thread stacks and malloc
#: arenas included) reaches the limit, while the harness measures resident memory, which is
#: lower: CBC that dereferences a refused allocation dies with its tree's resident peak at
#: about half to two thirds of the limit; a genuine crash far below the limit stays ``error``
SEGV_AT_LIMIT = 0.5


def memory_crash(returncode: int | None, said: list[str], peak_mb: float,
                 limit_mb: float | None) -> bool:
    """Whether a failed task died of SIGSEGV at its memory limit (:data:`SEGV_AT_LIMIT`):
    ``returncode`` the task process's exit, ``said`` its message and the end of its stderr
    (where a solver child's signal is named, :func:`bench.failure.died_of`)."""
    if not limit_mb or peak_mb < SEGV_AT_LIMIT * limit_mb:
        return False
    text = "\n".join(said)
    return died_of(returncode) == "SIGSEGV" or "SIGSEGV" in text or "Segmentation fault" in text


#: how the harness killed a task (:attr:`bench.run.measure.Measured.killed`)
Killed = Literal["timeout", "memout", "interrupted"]


def ended(res: Result, killed: Killed | None, returncode: int | None, final: bool,
          stderr_tail: list[str], limit: str) -> None:
    """The status of a task from how its process ended: ``killed`` by the harness (at a limit,
    named by ``limit``, or ``interrupted``), exited other than 0, or without its final result
    (an ``error`` saying the last line of its stderr, or its exit); else what it wrote."""
    if killed == "interrupted":  # the runner raises TaskInterrupted instead of this result
        _no_answer(res, "error", "killed when the run was interrupted")
    elif killed:
        before = _unknown(res.message)
        _no_answer(res, killed, f"killed by the harness at {limit}"
                   + (f" ({before})" if before else ""))
    elif returncode != 0 or not final:
        _no_answer(res, "error", stderr_tail[-1] if stderr_tail else (
            f"worker exited with {returncode}" + ("" if final else " before writing its result")))


def memory_status(res: Result, memory_limit_mb: float | None, killed: Killed | None,
                  returncode: int | None, stderr_tail: list[str], peak: float,
                  killed_by_kernel: int) -> None:
    """Make a failed task ``memout`` where memory ended it: an allocation refused under its
    limit that the task or its solver said (:data:`OUT_OF_MEMORY`), a SIGSEGV at its limit
    (:func:`memory_crash`), or the kernel's kill in its memory cgroup."""
    # the whole tail: a fatal error's dump (one line per frame) ends far below its first line
    said = [res.message, *stderr_tail[-STDERR_SEEN:]]
    before = _unknown(res.message)[:120]
    if res.status == "error" and any(s in ln for ln in said for s in OUT_OF_MEMORY):
        _no_answer(res, "memout", f"an allocation was refused under the {memory_limit_mb} MB "
                   f"limit ({before})")
    if res.status == "error" and not killed and memory_crash(
            returncode, said, peak, memory_limit_mb):
        _no_answer(res, "memout", f"died of SIGSEGV with its peak at {peak:.0f} MB of the "
                   f"{memory_limit_mb} MB limit: an allocation refused under the "
                   f"limit ({before})")
    if killed_by_kernel and res.status != "memout" and killed != "timeout":
        _no_answer(res, "memout", f"killed by the kernel at the {memory_limit_mb} MB limit of "
                   f"the task's memory cgroup ({killed_by_kernel} process(es); "
                   f"{before})")

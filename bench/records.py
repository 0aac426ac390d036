"""Small typed records: a task to run and the result row it produces."""

from __future__ import annotations

import functools
import hashlib
import math
import os
import stat
import types
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Self, Union, cast, get_args, get_origin, get_type_hints

from bench.bounds import MAX_INT64, MIN_INT64

#: ``skipped``: the formulation declined the instance (:meth:`bench.registry.Formulation.skip`,
#: its reason in ``message``): neither a failure nor a solve
TaskStatus = Literal["solved", "infeasible", "timeout", "memout", "error", "wrong", "skipped"]


@dataclass(frozen=True)
class Limits:
    """The outside limits on one task process, enforced by :func:`bench.run.measure.watch`.

    ``time_limit_s`` (from the process's start) caps its start-up; once the task writes its
    deadline (a ``perf_counter`` value) to ``deadline_file``, the process group is killed
    ``grace_s`` past that deadline instead. ``memory_limit_mb`` caps the peak RSS of the process
    tree; ``group`` is the task's memory cgroup (:mod:`bench.run.cgroup`), which the process is
    moved into, if the machine has one."""

    time_limit_s: float
    memory_limit_mb: float
    grace_s: float = 0.5
    deadline_file: Path | None = None
    group: Path | None = None
#: the message of a ``timeout`` recorded without running the task (a suite's ladder rule,
#: :mod:`bench.run.ladder`): counted unsolved like a timeout, told apart by this start
NOT_RUN = "not run:"
#: a result's ``origin`` when its formulation is our own (not a peer package's)
OURS = "ours"
#: the built-in external formulations of results written before ``origin`` was recorded: the
#: peer packages among them (a formulation named after its package) and our own
LEGACY_PEERS = ("puzzlekit",)
LEGACY_OURS = ("frontier",)


def origin_of(peer: str | None) -> str:
    """The ``origin`` of a formulation calling the peer distribution ``peer`` (None: ours)."""
    return peer or OURS


def row_origin(origin: Any, kind: Any, formulation: Any) -> str:
    """Who wrote a result's formulation: :data:`OURS` or the peer distribution it calls.

    A result records it as ``origin``; a result written before that column (``origin`` empty
    or missing) follows the built-in formulations of that time: the ``puzzlekit``
    formulations called the peer package puzzlekit (known by name, also in a row killed before
    it recorded its kind), the ``frontier`` formulation was ours
    (pure Python, no package), every other formulation of kind ``external`` was a plugin's
    call of its own package (named here by its formulation, the package not being recorded),
    and every formulation of another kind was ours."""
    if isinstance(origin, str) and origin:
        return origin
    name = str(formulation or "").split("[", 1)[0]
    if name in LEGACY_PEERS:
        return name
    if kind == "external" and name not in LEGACY_OURS:
        return name
    return OURS


class Record:
    """A dataclass record that goes to and from a JSON object; keys it does not know (written
    by another version) are ignored."""

    def to_dict(self) -> dict[str, Any]:
        """The fields by name, in a new dict. Values are not copied (``dataclasses.asdict``
        would deep-copy every cell of every solution grid): a nested one is the record's own,
        to read, never to change in place."""
        return {f.name: getattr(self, f.name) for f in fields(cast(Any, self))}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Self:
        names = {f.name for f in fields(cast(Any, cls))}
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass(frozen=True)
class Task(Record):
    """One (instance, formulation variant, solver) run."""

    instance: str  # path of the instance file
    formulation: str  # label, e.g. "sat-cover[card=ladder]"
    solver: str
    time_limit: float = 60.0
    memory_limit_mb: int = 4096
    seed: int = 0
    threads: int = 1
    count: int = 0  # > 0: count solutions up to this many (projected onto cell values)
    rep: int = 0  # repetition of the same task (`run --repeat`): timing noise, same seed
    #: the instance file's content digest (:func:`instance_digest`); "" reads it when needed
    digest: str = ""
    tier: str = ""  # the suite tier of the instance (not part of the key)
    #: ``run --pin``: the core the task process pins itself to (not part of the key;
    #: :mod:`bench.run.pin`); None: unpinned
    pin: int | None = None
    #: code digests of the formulation and the backend (:mod:`bench.identity`; "" unknown)
    code: str = ""
    backend_code: str = ""
    #: the formulation's origin (:func:`origin_of`); "" unknown (read when the task runs)
    origin: str = ""

    @property
    def key(self) -> str:
        """Identity in a journal: a resumed run skips tasks whose key is already there."""
        return task_key(self.digest or instance_digest(self.instance), self.formulation,
                        self.solver, self.seed, self.count, self.rep)


def task_key(digest: str, formulation: str, solver: str, seed: int, count: int = 0,
             rep: int = 0) -> str:
    """A task's identity: the instance by its content (not its path, so a moved, renamed or
    differently spelled file is the same task, and a changed file another), the formulation
    variant, the solver, the seed, the solution count asked and the repetition."""
    key = f"{digest}|{formulation}|{solver}|seed={seed}"
    return key + (f"|count={count}" if count else "") + (f"|rep={rep}" if rep else "")


def instance_digest(path: str | Path) -> str:
    """:func:`content_digest` of the file's bytes; a file that cannot be read is named by its
    path (``path:...``) instead."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the read
            return f"path:{path}"
        data = Path(path).read_bytes()
    except OSError:
        return f"path:{path}"
    return content_digest(data)


def content_digest(data: bytes) -> str:
    """``sha256:`` and the first 16 hex digits of the SHA-256 of an instance file's bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


@dataclass
class Result(Record):
    """What one task produced; one row of the results table."""

    key: str
    puzzle: str
    instance: str  # instance name (file stem)
    instance_path: str
    rows: int
    cols: int
    formulation: str  # variant label
    kind: str
    solver: str
    solver_version: str
    status: TaskStatus
    #: who wrote the formulation: "ours", or the peer distribution it calls (its version is
    #: ``solver_version``); "" in results written before it (:func:`row_origin` reads them)
    origin: str = ""
    message: str = ""
    #: an error raised by the formulation or its solver: the step it was in ("setup",
    #: "build", "solve", "separate", "decode", "block"), "" otherwise
    phase: str = ""
    #: that error's Python traceback (the whole text), "" otherwise
    traceback: str = ""
    build_s: float | None = None  # model construction
    solve_s: float | None = None  # backend calls (incl. translation, child processes) + separation
    solver_s: float | None = None  # the solver's own reported time, summed over iterations
    #: one-time set-up of an external solver package in the task process (a warm-up solve
    #: before the time limit starts), like an import: not in build_s/solve_s nor the limit
    setup_s: float | None = None
    wall_s: float | None = None  # whole task process, measured from outside
    #: user + system CPU of the task process and the children it waited for (wait4: exact)
    cpu_s: float | None = None
    #: wall_s - build_s - solve_s: process start (fork or spawn + imports), reading, checking
    overhead_s: float | None = None
    #: seconds the task process lived past its deadline (limit counted from the start of
    #: the build; 0 if it ended in time); the harness kills it at GRACE_S past
    overshoot_s: float | None = None
    #: peak of the whole process tree (worker + solver children); a forked task's RSS counts
    #: the pages it shares with its template only as it touches them (see base_rss_mb)
    peak_rss_mb: float | None = None
    #: forked tasks: the task process's own RSS when its task began (after the fork and its
    #: start-up); the task's own increase is peak_rss_mb - base_rss_mb. None for spawned tasks.
    base_rss_mb: float | None = None
    rss_method: str = ""
    start: str = ""  # how the task process started: "fork" (from a template) or "spawn"
    host: str = ""  # the machine the task ran on (a Dask worker's, or this one)
    variables: int | None = None
    constraints: int | None = None  # rows, CP-SAT constraints, or clauses
    #: True while variables/constraints are the formulation's prediction (the build did not
    #: finish), False once counted from the built model, None without a prediction
    size_predicted: bool | None = None
    iterations: int | None = None  # solver calls (lazy loops > 1)
    #: machine-independent effort, summed over the solver calls, where the solver reports it:
    #: SAT conflicts/decisions/propagations (python-sat accum_stats), CP-SAT deterministic
    #: time/branches/conflicts, HiGHS's, CBC's and SCIP's simplex iterations and
    #: branch-and-bound nodes, Choco's search nodes and failures (bench.effort)
    conflicts: float | None = None
    decisions: float | None = None
    propagations: float | None = None
    deterministic_time: float | None = None
    branches: float | None = None
    simplex_iterations: float | None = None
    nodes: float | None = None
    failures: float | None = None
    #: a SAT model's propagator (IPASIR-UP): callbacks, seconds in them, inferred literals,
    #: added clauses (bench.effort)
    propagator_calls: float | None = None
    propagator_s: float | None = None
    propagator_inferences: float | None = None
    propagator_clauses: float | None = None
    exact: bool | None = None
    checked: bool | None = None  # the returned grid passed the puzzle's rule verifier
    count: int | None = None  # solutions found when counting (fewer than asked: all there are)
    known: bool | None = None  # agrees with the instance's known solution (a .sol beside it)
    seed: int = 0
    rep: int = 0
    threads: int = 1
    time_limit: float = 0.0  # the task's, in seconds: > 0 in a result (value_problem)
    tier: str = ""  # the suite tier of the instance ("" outside a tiered suite)
    grid: Any = field(default=None)  # solution grid (solved or wrong), JSON-able
    # identity (bench.identity): what produced the result, beside the key's instance content,
    # variant, solver, seed, count and repetition; "" / 0 in results written before them
    code: str = ""  # the formulation's code digest
    backend_code: str = ""  # the backend's code digest
    memory_limit_mb: int = 0
    cpu: str = ""  # the machine that ran the task: CPU model, logical cores, memory, Python
    cores: int = 0
    memory_gb: float = 0.0
    python: str = ""
    identity: str = ""  # digest of all the parts ("" never matches: not reused)
    # provenance, beside the identity and not in it
    harness: str = ""  # the harness's version (package version + git revision)
    run: str = ""  # the run folder the result was produced in (kept when reused or merged)
    finished: str = ""  # when it was recorded (UTC, ISO 8601)
    #: ``run --pin``: the logical CPU the task process was pinned to, as it read back its own
    #: affinity mask (:mod:`bench.run.pin`); None when not pinned (and in older results)
    pinned_cpu: int | None = None
    #: the 1-min load average of the machine that ran the run, sampled a few seconds or less
    #: before the result was recorded (None: not sampled, or the task ran on a Dask worker)
    load: float | None = None
    # sample identity: set by the journal writer when a new measurement is written
    # (:meth:`bench.run.storage.Journal.append`), then kept wherever the result is copied
    # (``run --reuse``, ``merge``); "" in lines written before them, which the journal reader
    # gives a fallback derived from the line (:func:`bench.run.storage.fallback_sample_id`)
    run_id: str = ""  # random id of the run folder that measured it (kept across resumes)
    sample_id: str = ""  # random id of this measurement: merge keeps one line per sample id



@functools.cache
def _checker(hint: Any) -> Callable[[Any], bool]:
    """Whether a decoded JSON value is of the type ``hint`` (a field's annotation), as a test
    built once per annotation: a JSON true is no number, an int is a float, a union is any of
    its members, a ``Literal`` one of its values. An integer (also in a float field) must lie
    in the signed 64-bit range, which is what a Parquet column holds (a JSON float is always a
    float64: the decoder reads one too large as ``inf``)."""
    origin = get_origin(hint)
    if hint is Any:
        return lambda v: True
    if origin is Literal:
        values = get_args(hint)
        return lambda v: v in values
    if origin in (Union, types.UnionType):
        members = tuple(_checker(h) for h in get_args(hint))
        return lambda v: any(c(v) for c in members)
    if hint is type(None):
        return lambda v: v is None
    if hint is bool:
        return lambda v: isinstance(v, bool)
    lo, hi = MIN_INT64, MAX_INT64
    if hint is float:
        return lambda v: isinstance(v, float) or (
            isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi)
    if hint is int:
        return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
    if isinstance(hint, type):
        return lambda v: isinstance(v, hint) and not isinstance(v, bool)
    return lambda v: False


@functools.cache
def _result_fields() -> tuple[tuple[str, bool, Any, Callable[[Any], bool]], ...]:
    """Per field of :class:`Result`: its name, whether a line must hold it, its annotation and
    its :func:`_checker`."""
    hints = get_type_hints(Result)
    return tuple((f.name, f.default is MISSING and f.default_factory is MISSING,
                  hints[f.name], _checker(hints[f.name])) for f in fields(Result))


#: the measured seconds and memory sizes of a :class:`Result`, none of which can be negative
#: (a missing one is None where the field allows it)
NONNEGATIVE = ("build_s", "solve_s", "solver_s", "setup_s", "wall_s", "cpu_s", "overshoot_s",
               "propagator_s", "peak_rss_mb", "base_rss_mb", "memory_limit_mb", "memory_gb",
               "load")


def value_problem(d: dict[str, Any]) -> str:
    """Why the values of a result's fields, each of its type, are no measurement ("" when
    they are one): a ``time_limit`` that is missing or not a positive finite number of seconds
    (every result is recorded from its task's limit, which ``run``, ``solve``, ``check`` and a
    suite's tiers take only positive and finite), one of :data:`NONNEGATIVE` negative or not
    finite, an ``overhead_s`` (a difference of two times: either sign) not finite."""
    limit = d.get("time_limit")
    if not (isinstance(limit, int | float) and not isinstance(limit, bool)
            and 0 < limit < math.inf):
        return f"no usable time limit ('time_limit' is {limit!r})" if "time_limit" in d \
            else "no 'time_limit'"
    for key in NONNEGATIVE:
        v = d.get(key)
        if v is not None and not 0 <= v < math.inf:
            return f"{key!r} is {v!r}, not a finite number >= 0"
    v = d.get("overhead_s")
    if v is not None and not math.isfinite(v):
        return f"'overhead_s' is {v!r}, not a finite number"
    return ""


def schema_problem(d: Any) -> str:
    """Why a decoded journal line is not a :class:`Result` ("" when it is one): not an
    object, a required field missing, a field of the wrong type or value (``"rows":
    "ten"``, ``"status": "banana"``, an integer beyond 64 bits), or values that are no
    measurement (:func:`value_problem`). Keys the record does not know are allowed."""
    if not isinstance(d, dict):
        return f"a JSON {type(d).__name__}, not an object"
    for key, required, want, conforms in _result_fields():
        if key not in d:
            if required:
                return f"no {key!r}"
        elif not conforms(d[key]):
            v = d[key]
            name = want.__name__ if isinstance(want, type) else str(want)
            if isinstance(v, int) and not isinstance(v, bool) and not (
                    MIN_INT64 <= v <= MAX_INT64):
                return f"{key!r} is an integer of {len(str(abs(v)))} digits, beyond 64 bits"
            return f"{key!r} is {v!r}, not {name.replace('typing.', '')}"
    return value_problem(d)

"""``puzzlebench merge RUN... --out DIR``: runs made on several machines or by several people
(Dask runs included: their journal is one folder's) combined into one run folder.

Every sample of every input is kept with its origin: ``run`` (the folder it was produced in,
already set by the run that made it, else the input folder's name), ``run_id`` and
``sample_id`` (:mod:`bench.run.storage`) and its machine columns. Samples are told apart by
their ``sample_id`` (with their task key), never by folder name or time: two measurements of
one task are two samples even when their folders share a name and they were recorded in the
same second; the same sample met twice (a run that reused another's result, a folder merged
again) is written once (:func:`bench.run.storage.samples`). One sample whose measurement
differs between two inputs (:func:`measured`: every field but the
provenance, origin and verdict a copy may change) is damaged or forged in one of them: the
merge refuses, naming the first such sample and both inputs, counting such samples, and
saying how to proceed, and writes nothing (:func:`sample_conflict`); with ``--prefer INPUT``
it keeps INPUT's copy of every such sample INPUT holds (:func:`preferred`). The verdict
against the known solution of every kept result (``known`` and, of a solved or infeasible
result, its ``message``) is taken again from the ``.sol`` beside its instance as it is now
(:func:`bench.judge.rejudged`, as a resume and a reuse take it), so it does not depend on
which input's copy was kept; where the instance cannot be read here, the copy of the last
input holding the sample is kept as it is.

A task a suite's ladder rule recorded as not run (a ``timeout`` whose message starts
:data:`bench.records.NOT_RUN`) is no measurement: where another input measured the same task
(task key), the not-run result is dropped and the measured samples stand alone; of several
not-run results of one task without a measurement, one (the latest line) is kept.

What differs among the inputs is stated, never pooled silently: per task key met in several
inputs, the identity parts that differ between its samples (formulation code, backend code,
solver version, limits, machine: :func:`bench.identity.differing_parts`), and per pair
(formulation variant / solver) the formulation code, backend code and solver versions it was
run with across the inputs. Each result keeps its own identity columns, so the data holds them
apart: the report ranks machine types apart (:mod:`bench.report.machines`) and splits a pair
whose results differ in code, versions or limits into one pair per identity
(:mod:`bench.report.identities`); the list goes into the merge's environment record under
``differs``.

Locks and atomicity: the merge holds every input's run lock (the ``.lock`` that ``run`` holds
exclusively while it writes, :class:`bench.run.lock.RunLock`) shared while it reads them, so
a run in progress is refused, not half read, and merges may read one input together; and the
output's exclusively, so two merges (or a run) into one ``--out`` cannot mix. It writes the
merged folder into a temporary folder beside ``--out`` (``.NAME.merge-*``) and renames its
files into ``--out`` at the end, the environment first, ``journal.jsonl`` (the commit: a
complete journal or none) next, the Parquet table last; an interrupted merge leaves no results
in ``--out`` (report and compare refuse it, a rerun proceeds) and its temporary folder is
removed by the next merge into the same ``--out``. The inputs' environment records
are appended to the merged folder's, each marked with the input it came from, after a
``merge`` record listing the inputs and, under ``stopped``, what is known of each input whose
latest run stopped before its end: how many of its planned tasks have no result in that input
(:func:`bench.report.stopped.input_stopped`; a report of the merged folder repeats it).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import fcntl
import math
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.identity import differing_parts
from bench.judge import Known, rejudged
from bench.records import NOT_RUN, Result
from bench.run.lock import LOCK, FolderLocked, RunLock, open_lock
from bench.run.storage import (
    ENVIRONMENT,
    JOURNAL,
    TABLE,
    Journal,
    consolidate,
    has_sample_ids,
    is_run_folder,
    load_environment,
    record_environment,
    samples,
    source_of,
    stored_results,
    unreadable_table_errors,
)

#: the identity parts compared per pair across inputs (beside the per-task comparison)
PAIR_PARTS = (("code", "formulation code"), ("backend_code", "backend code"),
              ("solver_version", "solver version"))


#: how to proceed past a refused conflict (:func:`sample_conflict`)
WAY_FORWARD = ("merge without one of the two inputs, or keep one input's copy of every "
               "sample that conflicts with --prefer INPUT")


class MergeError(Exception):
    """An input that is no run folder (or no journal), a run in progress, two inputs holding
    different measurements of one sample, or an output that already holds results or is
    being written."""


#: what a copy of a sample may hold otherwise than the sample (:func:`measured`): the sample's
#: own id and key, its provenance (the folder it was produced in, set where empty; the
#: harness; the plan's tier, instance name and path, :func:`bench.run.reuse.adopt`), its
#: origin (filled in where empty) and its verdict against the known solution (taken again,
#: :func:`bench.judge.rejudged`)
NOT_MEASURED = frozenset({"key", "sample_id", "run", "run_id", "harness", "tier", "instance",
                          "instance_path", "origin", "known"})


def measured(res: Result) -> dict[str, Any]:
    """The measurement ``res`` holds, which every copy of one sample holds alike: every field
    but those a copy may change (:data:`NOT_MEASURED`, and the ``message`` of a solved or
    infeasible result, which is its verdict's note); a missing float (None or NaN, which a
    table reads back as None) as None. A number compares by value, so a table's ``3.0`` is a
    journal's ``3``."""
    data = {k: v for k, v in res.to_dict().items() if k not in NOT_MEASURED}
    if res.status in ("solved", "infeasible"):
        data.pop("message", None)
    return {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in data.items()}


#: the samples whose measurement differs between inputs (:func:`conflicts`)
Conflicts = dict[tuple[str, str], tuple[Result, str | Path, str | Path, list[str]]]


def conflicts(inputs: Sequence[tuple[str | Path, list[Result]]]) -> Conflicts:
    """Every sample (task key, ``sample_id``) whose measurement (:func:`measured`) differs
    between two of these inputs (a folder, its results): the sample's first copy, the first
    input holding it, the first input holding another measurement of it, and the fields
    that differ. Within one input the latest line of a sample is the sample
    (:func:`bench.run.storage.samples`: a verdict taken again is appended). Not judged:
    results without ``finished`` (written before results recorded their time), whose
    fallback sample id is their task key's and tells no two measurements apart."""
    seen: dict[tuple[str, str], tuple[str | Path, dict[str, Any]]] = {}
    out: Conflicts = {}
    for folder, results in inputs:
        for r in samples(results):
            if not r.finished:
                continue
            content = measured(r)
            first = seen.setdefault((r.key, r.sample_id), (folder, content))
            if first[1] != content and (r.key, r.sample_id) not in out:
                fields = sorted(k for k in content.keys() | first[1].keys()
                                if content.get(k) != first[1].get(k))
                out[r.key, r.sample_id] = (r, first[0], folder, fields)
    return out


def sample_conflict(inputs: Sequence[tuple[str | Path, list[Result]]]) -> str:
    """Why these inputs (a folder, its results) cannot be combined ("" when they can): a
    sample whose measurement differs between two inputs (:func:`conflicts`), named with both
    inputs, and how many samples conflict in all. A sample is one measurement, so one of the
    two copies is damaged or forged, and keeping either would be a guess."""
    return conflict_said(conflicts(inputs))


def conflict_said(found: Conflicts) -> str:
    """:func:`sample_conflict` of the conflicts ``found`` already."""
    if not found:
        return ""
    r, first, other, fields = next(iter(found.values()))
    more = (f"; {len(found)} samples conflict in all" if len(found) > 1
            else "; it is the one sample that conflicts")
    return (f"task {r.key} ({r.instance}, {r.formulation} / {r.solver}), sample "
            f"{r.sample_id}: {first} and {other} hold different measurements of this one "
            f"sample ({', '.join(fields[:4])}{' ...' if len(fields) > 4 else ''} differ): one "
            f"of them is damaged or forged{more}")


def folders_conflict(read: Sequence[tuple[str | Path, list[Result]]]) -> str:
    """:func:`sample_conflict` of run folders' results as read already (``run --reuse``'s
    sources, :class:`bench.run.reuse.Sources`); a folder named twice counts once."""
    distinct = {Path(f).resolve(): (f, results) for f, results in read}
    return sample_conflict(list(distinct.values())) if len(distinct) > 1 else ""


def preferred(inputs: list[tuple[str | Path, list[Result]]], prefer: str | Path | None
              ) -> tuple[list[tuple[str | Path, list[Result]]], Conflicts]:
    """``merge --prefer INPUT``: every sample whose measurement differs between inputs
    (:func:`conflicts`, found once) and that ``prefer`` holds is taken from ``prefer`` alone
    (the other inputs' copies of it dropped). Returns those inputs and the conflicts left
    among them: those ``prefer`` does not hold, whose copies stay as they were (a dropped
    sample is left in ``prefer`` alone, which holds one copy of it: its latest line). Without
    ``prefer``, the inputs as they are and all their conflicts."""
    found = conflicts(inputs)
    if prefer is None:
        return inputs, found
    where = Path(prefer).resolve()
    own = next((results for f, results in inputs if Path(f).resolve() == where), None)
    if own is None:
        raise MergeError(f"--prefer {prefer}: not one of the inputs")
    held = {(r.key, r.sample_id) for r in own}
    drop = set(found) & held
    return ([(f, results if Path(f).resolve() == where
              else [r for r in results if (r.key, r.sample_id) not in drop])
             for f, results in inputs], {k: v for k, v in found.items() if k not in drop})


@dataclass
class Merged:
    table: Path
    results: int
    #: origin run -> results taken from it
    runs: Counter[str]
    duplicates: int  # samples met in more than one input, each written once
    #: not-run results dropped: their task was measured in another input (or not run twice)
    superseded: int = 0
    #: identity part (in words) -> the pairs whose results differ in it across the inputs
    differs: dict[str, list[str]] = field(default_factory=dict)
    #: input journal -> unreadable lines skipped in it
    skipped: dict[str, int] = field(default_factory=dict)
    #: input -> how many of the planned tasks of its latest run, which stopped before its end,
    #: have no result in it (:func:`bench.report.stopped.input_stopped`)
    stopped: dict[str, str] = field(default_factory=dict)


@contextlib.contextmanager
def _input_lock(folder: Path) -> Iterator[None]:
    """Hold the input's run lock (its ``.lock``, which ``run`` holds exclusively while it
    writes) shared: a folder a run or a merge is writing is refused, other merges may read it
    too, and no run starts on it meanwhile. A folder that never had a lock file and cannot get
    one (a read-only copy), or whose ``.lock`` is no lock a run could hold (a link: a run
    refuses such a folder), is being written by nobody."""
    path = folder / LOCK
    try:
        try:
            fd = open_lock(folder, os.O_RDWR | os.O_CREAT)
        except OSError as e:
            if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise
            fd = open_lock(folder, os.O_RDONLY)
    except (FileNotFoundError, FolderLocked):  # no lock a run could hold: nobody writes it
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise MergeError(f"{folder}: a run is in progress there (pid {holder} holds "
                             f"{path}); merge it once it has finished") from None
        yield
    finally:
        os.close(fd)


def _read(folder: Path) -> tuple[list[Result], int]:
    """The input's results (origin run set) and the number of unreadable lines or rows: its
    journal's with the rows only its table holds, or a committed run's table's
    (:func:`bench.run.storage.stored_results`); an
    input in which nothing is a result is a :class:`MergeError` naming it."""
    source = source_of(folder)
    try:
        found, skipped = stored_results(folder)
    except unreadable_table_errors() as e:
        raise MergeError(f"{source}: cannot be read "
                         f"({getattr(e, 'strerror', None) or e})") from None
    if found and not has_sample_ids(folder):
        raise MergeError(f"{source}: written before results carried sample ids, so a "
                         "measurement in it and in another input cannot be told apart; merge "
                         "the run's journal instead")
    if skipped and not found:
        raise MergeError(f"{source}: none of its {skipped} line(s) or row(s) is a result "
                         "(not a puzzlebench run, or damaged)")
    if not found:
        raise MergeError(f"{source}: holds no result (a run that recorded none): nothing to "
                         "merge from it")
    for r in found:
        r.run = r.run or folder.name
    return found, skipped


def _stopped_in(folder: Path, records: list[dict[str, Any]], found: list[Result]
                ) -> dict[str, str]:
    """What is known of the input's latest run where it stopped before its end (or of its
    inputs', for a merged input): how many of its planned tasks have no result in the input
    (:func:`bench.report.stopped.input_stopped`), counted here, where the input's results are
    still its own."""
    import pandas as pd

    from bench.report.stopped import input_stopped

    df = pd.DataFrame({"formulation": [r.formulation for r in found],
                       "key": [r.key for r in found]})
    return input_stopped(folder, records, df)


def _not_run(r: Result) -> bool:
    return r.formulation != "-" and r.message.startswith(NOT_RUN)


def supersede(results: list[Result]) -> tuple[list[Result], int]:
    """``results`` without the not-run results of a task that has a measured sample, and with
    one not-run result (the last) per task that has none; and how many were dropped."""
    measured = {r.key for r in results if not _not_run(r)}
    last_not_run = {r.key: r.sample_id for r in results if _not_run(r)}
    kept = [r for r in results if not _not_run(r)
            or (r.key not in measured and last_not_run[r.key] == r.sample_id)]
    return kept, len(results) - len(kept)


def differences(results: list[Result], origin: dict[str, int]) -> dict[str, list[str]]:
    """Identity part (in words) -> the pairs whose results differ in it across the inputs
    (``origin``: sample id -> input index): per task key, the parts in which its samples of
    different inputs differ; per pair, the formulation code, backend code and solver version
    it was run with in different inputs."""
    out: dict[str, set[str]] = {}
    by_key: dict[str, list[Result]] = {}
    by_pair: dict[str, dict[str, set[tuple[int, str]]]] = {}
    for r in results:
        if r.formulation == "-" or _not_run(r):
            continue
        by_key.setdefault(r.key, []).append(r)
        # a label names a pair within its puzzle (Nurikabe's cpsat-tree is not Fillomino's)
        pair = f"{r.puzzle}: {r.formulation} / {r.solver}"
        for col, _ in PAIR_PARTS:
            value = str(getattr(r, col) or "")
            if value:
                by_pair.setdefault(pair, {}).setdefault(col, set()).add(
                    (origin[r.sample_id], value))
    for group in by_key.values():
        first = group[0]
        for other in group[1:]:
            if origin[other.sample_id] == origin[first.sample_id]:
                continue
            for part in differing_parts(first.to_dict(), other.to_dict()):
                out.setdefault(part, set()).add(
                    f"{first.puzzle}: {first.formulation} / {first.solver}")
    words = dict(PAIR_PARTS)
    for pair, cols in by_pair.items():
        for col, seen in cols.items():
            inputs = {i for i, _ in seen}
            if len(inputs) > 1 and len({v for _, v in seen}) > 1:
                out.setdefault(words[col], set()).add(pair)
    return {part: sorted(pairs) for part, pairs in sorted(out.items())}


def _publish(tmp: Path, out: Path) -> None:
    """Rename the merged files from ``tmp`` into ``out``: the journal (the commit) after the
    environment, the table last; then sync ``out``'s directory entry."""
    for name in (ENVIRONMENT, JOURNAL, TABLE):
        if (tmp / name).exists():
            os.replace(tmp / name, out / name)
    fd = os.open(out, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _stale_temporaries(out: Path) -> None:
    """Remove the temporary folders of earlier merges into ``out`` that were interrupted (the
    caller holds ``out``'s lock: no live merge is writing one)."""
    for tmp in out.parent.glob(f".{out.name}.merge-*"):
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)


def _read_all(folders: list[Path], envs: list[list[dict[str, Any]]]
              ) -> tuple[list[tuple[str | Path, list[Result]]], dict[str, int], dict[str, str]]:
    """Every input and its results (:func:`_read`); per input journal its unreadable lines;
    what is known of each input that stopped before its end (:func:`_stopped_in`)."""
    each: list[tuple[str | Path, list[Result]]] = []
    skipped: dict[str, int] = {}
    stopped: dict[str, str] = {}
    for f, records in zip(folders, envs, strict=True):
        found, bad = _read(f)
        if bad:
            skipped[str(source_of(f))] = bad
        stopped |= _stopped_in(f, records, found)
        each.append((f, found))
    return each, skipped, stopped


def merge_runs(inputs: Sequence[str | Path], out: str | Path,
               prefer: str | Path | None = None) -> Merged:
    """Merge the run folders ``inputs`` into ``out`` (the module's contract); ``prefer``: the
    input whose copy of a conflicting sample is kept (:func:`preferred`)."""
    folders = [Path(f) for f in inputs]
    out = Path(out)
    for f in folders:
        if not is_run_folder(f):
            raise MergeError(f"{f}: no {JOURNAL} or {TABLE} (not a run folder)")
        if f.resolve() == out.resolve():
            raise MergeError(f"{f}: an input cannot be the --out folder")
    distinct = list({f.resolve(): f for f in folders}.values())
    with contextlib.ExitStack() as locks:
        for f in distinct:
            locks.enter_context(_input_lock(f))
        envs = [load_environment(f) for f in folders]  # read once: a damaged one warns once
        each, skipped, stopped = _read_all(folders, envs)
        each, clashes = preferred(each, prefer)
        if conflict := conflict_said(clashes):
            raise MergeError(f"{conflict}; nothing merged: {WAY_FORWARD}")
        everything = [r for _, found in each for r in found]
        origin: dict[str, int] = {}
        met: dict[tuple[str, str], set[int]] = {}
        for i, (_, found) in enumerate(each):
            for r in found:
                origin.setdefault(r.sample_id, i)
                met.setdefault((r.key, r.sample_id), set()).add(i)
        kept, superseded = supersede(samples(everything))
        cache: Known = {}  # the verdict is the current .sol's, whichever input's copy is kept
        kept = [rejudged(r, cache) for r in kept]
        try:
            locks.enter_context(RunLock(out))
        except FolderLocked as e:
            raise MergeError(str(e)) from None
        if (out / JOURNAL).exists() or (out / TABLE).exists():
            raise MergeError(f"{out} already holds results: merge into a new --out folder")
        _stale_temporaries(out)
        differs = differences(kept, origin)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.merge-", dir=out.parent))
        try:
            Journal(tmp).extend(kept)
            # the merge record first: a report shows the last record, an input's machine and
            # versions
            record_environment(tmp, {"merge": [str(f) for f in folders], "differs": differs,
                                     "stopped": stopped,
                                     "recorded_at": dt.datetime.now(dt.UTC).isoformat(
                                         timespec="seconds")})
            for f, records in zip(folders, envs, strict=True):
                for env in records:
                    inner = env.get("merged_from")  # an input that is itself a merge
                    record_environment(tmp, {**env, "merged_from": f"{f}: {inner}" if inner
                                             else str(f)})
            consolidate(tmp)
            _publish(tmp, out)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    runs = Counter(r.run for r in kept if r.formulation != "-")
    return Merged(out / TABLE, len(kept), runs, sum(len(i) > 1 for i in met.values()),
                  superseded, differs, skipped, stopped)

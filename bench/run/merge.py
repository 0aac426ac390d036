"""``puzzlebench merge RUN... --out DIR``: runs made on several machines or by several people
(Dask runs included: their journal is one folder's) combined into one run folder.

Every result of every input is kept with its origin: ``run`` (the folder it was produced in,
already set by the run that made it, else the input folder's name) and its machine columns.
Results of one identity from different runs are further samples of that task, never dropped;
only the same sample met twice (a run that reused another's result, a folder merged again: same
task key, origin run, machine and time of recording) is written once
(:func:`bench.run.storage.samples`). The inputs' environment records are appended to the
merged folder's, each marked with the input it came from, after a ``merge`` record listing the
inputs.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.records import Result
from bench.run.storage import (
    Journal,
    consolidate,
    load_environment,
    record_environment,
    samples,
)


class MergeError(Exception):
    """An input that is no run folder, or an output that already holds results."""


@dataclass
class Merged:
    table: Path
    results: int
    #: origin run -> results taken from it
    runs: Counter[str]
    duplicates: int  # the same sample met in two inputs, written once


def merge_runs(inputs: Sequence[str | Path], out: str | Path) -> Merged:
    folders = [Path(f) for f in inputs]
    out = Path(out)
    for f in folders:
        if not Journal(f).path.is_file():
            raise MergeError(f"{f}: no journal.jsonl (not a run folder)")
        if f.resolve() == out.resolve():
            raise MergeError(f"{f}: an input cannot be the --out folder")
    if Journal(out).path.exists():
        raise MergeError(f"{out} already holds results: merge into a new --out folder")
    everything: list[Result] = []
    for f in folders:
        for r in Journal(f).results():
            r.run = r.run or f.name
            everything.append(r)
    kept = samples(everything)
    journal = Journal(out)
    for r in kept:
        journal.append(r)
    # the merge record first: a report shows the last record, an input's machine and versions
    record_environment(out, {"merge": [str(f) for f in folders], "recorded_at":
                             dt.datetime.now(dt.UTC).isoformat(timespec="seconds")})
    for f in folders:
        for env in load_environment(f):
            record_environment(out, {**env, "merged_from": str(f)})
    runs = Counter(r.run for r in kept if r.formulation != "-")
    return Merged(consolidate(out), len(kept), runs, len(everything) - len(kept))

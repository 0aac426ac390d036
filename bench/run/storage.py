"""Run folders: an append-only JSON-lines journal, the consolidated Parquet table, the environment.

A run folder holds ``journal.jsonl`` (one result per line, flushed and fsynced as each task
finishes, so an interrupted run loses nothing and a re-run resumes), ``results.parquet``
(the consolidated table, readable with ``pandas.read_parquet``) and ``environment.json``
(one record per invocation that wrote to the folder: :mod:`bench.run.envfile`).

Every result line carries its sample identity: ``run_id``, the folder's random id (``run-id``,
written with the folder's first result and kept across resumes), and ``sample_id``, a random
UUID of that one measurement. Both are set by :meth:`Journal.append` on a result that has no
``sample_id`` yet (a new measurement) and kept as they are on a result copied from another
journal (``run --reuse``, ``merge``), so a sample stays one sample wherever it is copied.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import os
import shutil
import uuid
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args, get_type_hints

from bench.records import Result, schema_problem
from bench.run.atomic import replace_atomic, write_atomic
from bench.run.envfile import ENVIRONMENT as ENVIRONMENT
from bench.run.envfile import load_environment as load_environment
from bench.run.envfile import record_environment as record_environment
from bench.run.envfile import update_environment as update_environment

if TYPE_CHECKING:  # pandas is slow to import: only `run` and `report` need it
    import pandas as pd

log = logging.getLogger(__name__)

JOURNAL = "journal.jsonl"
TABLE = "results.parquet"
RUN_ID = "run-id"
#: the table's metadata key: the size in bytes of the journal it was written from
JOURNAL_BYTES = b"puzzlebench.journal_bytes"
#: fields left out of a fallback sample id: provenance a copy may change, not the measurement
_NOT_THE_SAMPLE = frozenset({"run", "run_id", "sample_id", "harness", "tier", "instance",
                             "instance_path"})
#: (journal, line, problem) already warned about in this process
_WARNED: set[tuple[str, int, str]] = set()
#: the fields a table's missing value leaves at their default (not None): the ones whose
#: default is not None, but the time limit (a row without one is no result)
_DEFAULTED = frozenset(f for f, d in Result.__dataclass_fields__.items()
                       if d.default is not None and d.default_factory is dataclasses.MISSING
                       ) - {"time_limit"}


class UnusableTable(ValueError):
    """A ``results.parquet`` whose rows cannot be taken as results at all, said in one line
    naming the file: no ``time_limit`` column, or two different rows of one sample."""


class Journal:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / JOURNAL
        self.skipped = 0  # lines the last :meth:`results` skipped
        self._run_id = ""

    def run_id(self) -> str:
        """The folder's run id: read from its ``run-id`` file, which the first call on a new
        folder creates (a random UUID; created exclusively, so concurrent callers agree)."""
        if self._run_id:
            return self._run_id
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / RUN_ID
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            self._run_id = path.read_text(encoding="utf-8").strip()
        else:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                self._run_id = uuid.uuid4().hex
                f.write(self._run_id + "\n")
                f.flush()
                os.fsync(f.fileno())
        if not self._run_id:  # an empty file left by a crash between create and write
            self._run_id = uuid.uuid4().hex
            write_atomic(path, self._run_id + "\n")
        return self._run_id

    def _line(self, res: Result) -> bytes:
        """The journal line of ``res``; a result without a ``sample_id`` is a new measurement
        of this folder's run: it gets a new random ``sample_id`` and the folder's ``run_id``,
        a result with one (copied from another journal) keeps both."""
        if not res.sample_id:
            res.run_id = self.run_id()
            res.sample_id = uuid.uuid4().hex
        return (json.dumps(res.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")

    def extend(self, results: list[Result]) -> None:
        """Append many results in one write, fsynced once (each one's sample identity as
        :meth:`_line` says)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        data = b"".join(self._line(r) for r in results)
        with open(self.path, "a+b") as f:
            end = os.fstat(f.fileno()).st_size
            # a line cut short by a kill mid-write: end it, so these results are not glued to it
            if end and os.pread(f.fileno(), 1, end - 1) != b"\n":
                data = b"\n" + data
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def append(self, res: Result) -> None:
        """Append one result, fsynced (:meth:`extend` of one)."""
        self.extend([res])

    def results(self, warn: bool = True) -> list[Result]:
        """Every complete line that is a result; a line cut short by a crash mid-write, or one
        that does not fit the result schema (:func:`bench.records.schema_problem`), is skipped
        with a warning (``warn``: once per line and process, however often the journal is
        read); ``skipped`` counts them. A line written before results carried a sample id gets
        :func:`fallback_sample_id`."""
        self.skipped = 0
        if not self.path.exists():
            return []
        out: list[Result] = []
        # split on "\n" only: a message may hold U+2028 or U+0085, which splitlines() splits
        for n, line in enumerate(self.path.read_bytes().split(b"\n"), 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line.decode("utf-8"))
                problem = schema_problem(data)
                if not problem:
                    res = Result.from_dict(data)
                    res.sample_id = res.sample_id or fallback_sample_id(data)
                    out.append(res)
                    continue
            except (ValueError, TypeError) as e:
                problem = str(e)
            self.skipped += 1
            if warn and (str(self.path), n, problem) not in _WARNED:
                _WARNED.add((str(self.path), n, problem))
                log.warning("%s:%d: skipping unreadable journal line (%s)", self.path, n, problem)
        return out

    def keys(self) -> set[str]:
        return {r.key for r in self.results()}


def fallback_sample_id(data: dict[str, Any]) -> str:
    """The sample id of a journal line written before results carried one: ``legacy-`` and
    the SHA-256 of the line's measurement (every field but the provenance a copy may change:
    run, harness, tier, instance name and path), so a copy of the line has the same id and
    two different measurements differ; a line without ``finished`` (written before results
    recorded their time) is one sample per task key."""
    if not data.get("finished"):
        basis: Any = {"key": data.get("key")}
    else:
        basis = {k: v for k, v in data.items() if k not in _NOT_THE_SAMPLE}
    text = json.dumps(basis, sort_keys=True, ensure_ascii=False, default=str)
    return "legacy-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def forget(journal: Journal, drop: set[str], prefix: str = "") -> set[tuple[str, str]]:
    """Take out the journal's lines of these keys whose message starts with ``prefix`` (the
    journal rewritten in one step, every other line kept byte for byte); the samples taken
    out (task key, sample id), for :func:`consolidate` to know them forgotten, not lost."""
    if not drop or not journal.path.is_file():
        return set()
    kept: list[bytes] = []
    gone: set[tuple[str, str]] = set()
    for line in journal.path.read_bytes().split(b"\n"):
        try:
            data = json.loads(line.decode("utf-8")) if line.strip() else None
        except ValueError:
            data = None
        if isinstance(data, dict) and data.get("key") in drop \
                and str(data.get("message", "")).startswith(prefix):
            gone.add((data["key"], str(data.get("sample_id") or fallback_sample_id(data))))
            continue
        kept.append(line)
    replace_atomic(journal.path, lambda tmp: tmp.write_bytes(b"\n".join(kept)))
    return gone


def samples(results: list[Result]) -> list[Result]:
    """The distinct results of a journal: one per sample (task key and ``sample_id``), the
    latest line winning. Two measurements are two samples whatever their folder's name or
    time of recording; a result copied (reused, merged again) keeps its sample id and is
    written once."""
    latest: dict[tuple[str, str], Result] = {}
    for r in results:
        latest[r.key, r.sample_id or fallback_sample_id(r.to_dict())] = r
    return list(latest.values())


def results_frame(results: list[Result]) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for r in results:
        d = r.to_dict()
        d["grid"] = json.dumps(d["grid"], ensure_ascii=False) if d["grid"] is not None else None
        rows.append(d)
    columns = list(Result.__dataclass_fields__)
    return pd.DataFrame(rows, columns=columns)


def _from_cell(value: Any, hint: Any) -> Any:
    """A Parquet cell as its journal value: a missing value (None, NaN, NA) as None, a numpy
    scalar as its Python value, a whole float in an integer field (a column holding None)
    as an int, an array (a list cell) as the list of its cells read alike."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if getattr(value, "ndim", 0):
        return [_from_cell(v, None) for v in value]
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()
    if isinstance(value, float) and value.is_integer() and _wants_int(hint):
        return int(value)
    return value


def _wants_int(hint: Any) -> bool:
    """The field's annotation is ``int`` or ``int | None``."""
    return hint is int or (int in get_args(hint) and float not in get_args(hint))


def table_results(folder: str | Path, why: list[str] | None = None,
                  df: pd.DataFrame | None = None) -> tuple[list[Result], int]:
    """The results of the run folder's ``results.parquet`` (the table a committed run keeps when its
    journal stays local), read back as the journal lines :func:`results_frame` made them from, and
    the number of rows that are no result (:func:`bench.records.schema_problem`; skipped). Every
    value equals the journal's; a missing one reads as None, a whole number in an integer field as
    an int (a float field's whole number stays a float, where the journal may have written an
    integer), a field absent from an older table takes its default, and the grid is decoded from
    its JSON text. A table written before results carried a sample id gives its rows a fallback id
    (:func:`fallback_sample_id`) of the row, unlike the journal line's (:func:`has_sample_ids`).
    ``why`` gets each skipped row's problem; ``df``: the table when read already. Copies of
    one row are one result; :class:`UnusableTable` names a table without ``time_limit`` or
    with two different rows of one sample (:func:`_one_each`)."""
    import pandas as pd

    path = Path(folder) / TABLE
    df = pd.read_parquet(path) if df is None else df
    if "time_limit" not in df.columns:
        raise UnusableTable(f"{path}: no 'time_limit' column (no row holds its time limit)")
    hints = get_type_hints(Result)
    out: list[dict[str, Any]] = []
    bad = 0
    for row in df.astype(object).to_dict("records"):
        data = {k: _from_cell(v, hints.get(k)) for k, v in row.items() if k in hints}
        data = {k: v for k, v in data.items() if v is not None or k not in _DEFAULTED}
        problem = ""
        if isinstance(data.get("grid"), str):
            try:
                data["grid"] = json.loads(data["grid"])
            except ValueError:
                problem = "'grid' is not JSON text"
        if problem := problem or schema_problem(data):
            bad += 1
            if why is not None:
                why.append(problem)
            continue
        out.append(data)
    return _one_each(out, path), bad


def _one_each(rows: list[dict[str, Any]], path: Path) -> list[Result]:
    """The results of a table's rows, copies of one row taken once; :class:`UnusableTable`
    when two rows of one sample differ. A sample is told by its task key and ``sample_id``;
    in a row without one (written before results carried it), by its key and ``finished`` (a
    task does not end twice at one instant); a row without either is told by all it holds
    (only its copies are one). A row without a sample id is given the fallback id of the row."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    out: list[Result] = []
    for data in rows:
        sid = data.get("sample_id") or ""
        tell = sid or (f"finished={data['finished']}" if data.get("finished") else "")
        which = (str(data["key"]), tell or json.dumps(data, sort_keys=True, default=str))
        if which in seen:
            if seen[which] != data:
                raise UnusableTable(f"{path}: two different rows of one sample (task "
                                    f"{which[0]}, {f'sample {sid}' if sid else which[1]})")
            continue
        seen[which] = data
        res = Result.from_dict(data)
        res.sample_id = res.sample_id or fallback_sample_id(data)
        out.append(res)
    return out


def has_sample_ids(folder: str | Path) -> bool:
    """The run folder's results carry their own sample ids: it has a journal (whose readers
    derive a missing one from the line alike), or a table with a ``sample_id`` on every row."""
    return Journal(folder).path.is_file() or _table_has_ids(folder)


def _table_has_ids(folder: str | Path) -> bool:
    """Every row of the folder's ``results.parquet`` carries a sample id."""
    import pandas as pd

    try:
        ids = pd.read_parquet(Path(folder) / TABLE, columns=["sample_id"])["sample_id"]
    except (KeyError, ValueError):  # no such column (pyarrow's ArrowInvalid is a ValueError);
        return False  # a damaged table never gets here: its rows were read before
    return bool(ids.notna().all() and (ids.astype(str) != "").all())


def unreadable_table_errors() -> tuple[type[Exception], ...]:
    """What reading a damaged or unreadable ``results.parquet`` raises: an OSError, or one of
    pyarrow's errors (``ArrowInvalid`` is also a ValueError)."""
    import pyarrow as pa

    return (OSError, ValueError, pa.ArrowException)


def source_of(folder: str | Path) -> Path:
    """The file a run folder's results are read from: its journal, or in a folder without one
    (a committed run keeps only ``results.parquet`` and ``environment.json``) its table."""
    journal = Journal(folder).path
    return journal if journal.is_file() else Path(folder) / TABLE


def is_run_folder(folder: str | Path) -> bool:
    """The folder holds a journal or a results table."""
    return source_of(folder).is_file()


def stored_results(folder: str | Path) -> tuple[list[Result], int]:
    """A run folder's results and the number of unreadable lines or rows, from
    :func:`source_of`: the journal's (:meth:`Journal.results`) with the rows only the table
    holds (:func:`unjournaled`: lines lost or damaged since the table was written), or the
    table's (:func:`table_results`). FileNotFoundError names a folder that has neither."""
    if not is_run_folder(folder):
        raise FileNotFoundError(f"{folder}: no {JOURNAL} or {TABLE} (not a run folder)")
    journal = Journal(folder)
    if journal.path.is_file():
        found = journal.results(warn=False)
        return [*found, *unjournaled(folder, found)], journal.skipped
    return table_results(folder)


def unjournaled(folder: str | Path, held: list[Result] | None = None) -> list[Result]:
    """The results of the folder's ``results.parquet`` that its journal does not hold (a
    committed run's table beside no journal; the rows of journal lines lost or damaged since
    the table was written): :func:`consolidate` writes the table from the journal alone, so a
    run into the folder that did not first put them back would drop them. Told by sample id
    (by task key in a table written before results carried one); a table that cannot be read
    holds nothing to keep (none). ``held``: the journal's results, when read already."""
    try:
        return _unheld(Path(folder), held)[0]
    except unreadable_table_errors():
        return []


def _unheld(folder: Path, held: list[Result] | None = None) -> tuple[list[Result], int]:
    """:func:`unjournaled`, and the number of the table's rows that are no result (counted
    only where some row is not held: the common case reads two columns); raises what reading
    a damaged table raises (:func:`unreadable_table_errors`)."""
    import pandas as pd

    path = folder / TABLE
    if not path.is_file():
        return [], 0
    journal = Journal(folder)
    held = journal.results(warn=False) if held is None else held
    by_id = _table_has_ids(folder) or not journal.path.is_file()
    ids = {(r.key, r.sample_id) for r in held}
    if by_id and held:  # the common case, all held, told from two columns
        cols = pd.read_parquet(path, columns=["key", "sample_id"])
        if all(k in ids for k in zip(cols["key"], cols["sample_id"], strict=True)):
            return [], 0
    rows, bad = table_results(folder)
    if by_id:
        return [r for r in rows if (r.key, r.sample_id) not in ids], bad
    keys = {r.key for r in held}
    return [r for r in rows if r.key not in keys], bad


def consolidate(folder: str | Path, forgotten: Collection[tuple[str, str]] = ()) -> Path:
    """Write ``results.parquet`` from the journal's :func:`samples`, noting in the table's
    metadata the size of the journal it was written from (:func:`table_current`). The size is
    taken before the journal is read: a line appended meanwhile leaves the table older than
    its journal, never newer. A table there that holds what the journal does not is kept
    beside it first (:func:`_keep_unheld`), but for the samples (task key, sample id) taken
    out of the journal on purpose (``forgotten``: :func:`forget`)."""
    folder = Path(folder)
    journal = Journal(folder)
    size = journal.path.stat().st_size if journal.path.is_file() else 0
    held = journal.results()
    _keep_unheld(folder, held, set(forgotten))
    df = results_frame(samples(held))
    path = folder / TABLE
    replace_atomic(path, lambda tmp: _write_table(df, tmp, size))
    return path


def _keep_unheld(folder: Path, held: list[Result],
                 forgotten: set[tuple[str, str]]) -> Path | None:
    """The folder's ``results.parquet`` kept as ``results.parquet.damaged-N`` (a hard link,
    else a copy; its path) when writing the table from the journal would lose what it holds:
    rows that are no result, results the journal lacks (:func:`_unheld`), or a table that
    cannot be read at all. Said in one warning naming both files, as a damaged journal line
    is skipped with a warning and kept in the journal: nothing is dropped unseen. The samples
    ``forgotten`` on purpose are not lacked."""
    path = folder / TABLE
    try:
        lacked, bad = _unheld(folder, held)
        lacked = [r for r in lacked if (r.key, r.sample_id) not in forgotten]
    except unreadable_table_errors() as e:
        why = f"cannot be read ({getattr(e, 'strerror', None) or e})"
    else:
        if not (lacked or bad):
            return None
        why = ", ".join(filter(None, [f"{bad} row(s) are no result" if bad else "",
                                      f"{len(lacked)} result(s) are not in {JOURNAL}"
                                      if lacked else ""]))
    n = 0
    while (aside := path.with_name(f"{TABLE}.damaged-{n}")).exists():
        n += 1
    try:
        os.link(path, aside)
    except OSError:  # a file system without hard links
        shutil.copy2(path, aside)
    log.warning("%s: %s; kept as %s before the table is written again from %s", path, why,
                aside, JOURNAL)
    return aside


def _write_table(df: pd.DataFrame, path: Path, journal_bytes: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = {**(table.schema.metadata or {}), JOURNAL_BYTES: str(journal_bytes).encode()}
    pq.write_table(table.replace_schema_metadata(meta), path)


def table_current(folder: str | Path) -> bool:
    """The folder's ``results.parquet`` holds every result of its journal: there is no
    journal, or the journal is the size the table was written from (an append-only journal
    grows with each result; a copy of the folder keeps sizes, not times). A table that does
    not say (written by an older version) is current when it is not older than the journal;
    one whose metadata cannot be read is left to its reader to judge (current)."""
    folder = Path(folder)
    table, journal = folder / TABLE, folder / JOURNAL
    if not journal.exists():
        return True
    try:
        import pyarrow.parquet as pq

        meta = pq.read_schema(table).metadata or {}
    except Exception:  # pyarrow raises several types for damaged files
        return True
    if JOURNAL_BYTES in meta:
        return bool(meta[JOURNAL_BYTES] == str(journal.stat().st_size).encode())
    return table.stat().st_mtime >= journal.stat().st_mtime


def load_results(folder: str | Path) -> pd.DataFrame:
    """The run's table: the Parquet file if present and current (:func:`table_current`), else
    from the journal, with the rows only the table holds (:func:`unjournaled`)."""
    folder = Path(folder)
    table, journal = folder / TABLE, folder / JOURNAL
    if table.exists() and table_current(folder):
        import pandas as pd

        return pd.read_parquet(table)
    if not journal.exists():
        raise FileNotFoundError(f"{folder}: no {TABLE} or {JOURNAL} (not a run folder)")
    return results_frame(every_sample(Journal(folder)))


def every_sample(journal: Journal) -> list[Result]:
    """The :func:`samples` of the journal's results and of the rows only the folder's table
    holds (:func:`unjournaled`): what a reader takes when the table is not current. The
    journal's count of unreadable lines is left in ``journal.skipped``."""
    held = journal.results()
    return samples([*held, *unjournaled(journal.folder, held)])

"""Run folders: an append-only JSON-lines journal, the consolidated Parquet table, the environment.

A run folder holds ``journal.jsonl`` (one result per line, flushed and fsynced as each task
finishes, so an interrupted run loses nothing and a re-run resumes), ``results.parquet``
(the consolidated table, readable with ``pandas.read_parquet``) and ``environment.json``
(one record per invocation that wrote to the folder).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.records import Result, schema_problem

if TYPE_CHECKING:  # pandas costs ~0.3 s to import: only `run` and `report` need it
    import pandas as pd

log = logging.getLogger(__name__)

JOURNAL = "journal.jsonl"
TABLE = "results.parquet"
ENVIRONMENT = "environment.json"
LOCK = ".lock"
#: (journal, line, problem) already warned about in this process
_WARNED: set[tuple[str, int, str]] = set()


class FolderLocked(RuntimeError):
    """Another run is writing the run folder."""


class RunLock:
    """An exclusive lock on a run folder while a run writes it (``flock``: released by the
    kernel however the run ends, so a killed run leaves no stale lock)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise FolderLocked(f"{self.folder} is being written by another run (pid {holder}); "
                               "wait for it to finish or use another --out") from None
        with contextlib.suppress(OSError):  # the pid is for the message only
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step: a full or read-only disk leaves the old
    file whole."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


class Journal:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / JOURNAL
        self.skipped = 0  # lines the last :meth:`results` skipped

    def append(self, res: Result) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        line = (json.dumps(res.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
        with open(self.path, "a+b") as f:
            end = os.fstat(f.fileno()).st_size
            # a line cut short by a kill mid-write: end it, so this result is not glued to it
            if end and os.pread(f.fileno(), 1, end - 1) != b"\n":
                line = b"\n" + line
            f.write(line)
            f.flush()
            os.fsync(f.fileno())

    def results(self) -> list[Result]:
        """Every complete line that is a result; a line cut short by a crash mid-write, or one
        that does not fit the result schema (:func:`bench.records.schema_problem`), is skipped
        with a warning (once per line and process, however often the journal is read);
        ``skipped`` counts them."""
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
                    out.append(Result.from_dict(data))
                    continue
            except (ValueError, TypeError) as e:
                problem = str(e)
            self.skipped += 1
            if (str(self.path), n, problem) not in _WARNED:
                _WARNED.add((str(self.path), n, problem))
                log.warning("%s:%d: skipping unreadable journal line (%s)", self.path, n, problem)
        return out

    def keys(self) -> set[str]:
        return {r.key for r in self.results()}


def results_frame(results: list[Result]) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for r in results:
        d = r.to_dict()
        d["grid"] = json.dumps(d["grid"], ensure_ascii=False) if d["grid"] is not None else None
        rows.append(d)
    columns = list(Result.__dataclass_fields__)
    return pd.DataFrame(rows, columns=columns)


def consolidate(folder: str | Path) -> Path:
    """Write ``results.parquet`` from the journal (the latest result per task key wins)."""
    folder = Path(folder)
    latest: dict[str, Result] = {}
    for r in Journal(folder).results():
        latest[r.key] = r
    df = results_frame(list(latest.values()))
    path = folder / TABLE
    tmp = folder / (TABLE + ".tmp")
    try:
        df.to_parquet(tmp, index=False)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def load_results(folder: str | Path) -> pd.DataFrame:
    """The run's table: the Parquet file if present and current, else straight from the journal."""
    folder = Path(folder)
    table, journal = folder / TABLE, folder / JOURNAL
    if table.exists() and (
        not journal.exists() or table.stat().st_mtime >= journal.stat().st_mtime
    ):
        import pandas as pd

        return pd.read_parquet(table)
    if not journal.exists():
        raise FileNotFoundError(f"{folder}: no {TABLE} or {JOURNAL} (not a run folder)")
    latest: dict[str, Result] = {}
    for r in Journal(folder).results():
        latest[r.key] = r
    return results_frame(list(latest.values()))


def record_environment(folder: str | Path, env: dict[str, Any]) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ENVIRONMENT
    records = load_environment(folder)
    records.append(env)
    write_atomic(path, json.dumps(records, indent=2) + "\n")


def update_environment(folder: str | Path, **fields: Any) -> None:
    """Add fields to the latest environment record (e.g. the end-of-run calibration)."""
    path = Path(folder) / ENVIRONMENT
    records = load_environment(folder) or [{}]
    records[-1].update(fields)
    write_atomic(path, json.dumps(records, indent=2) + "\n")


def load_environment(folder: str | Path) -> list[dict[str, Any]]:
    """The folder's environment records; a corrupt file is logged and read as none."""
    path = Path(folder) / ENVIRONMENT
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as e:
        log.warning("%s: unreadable (%s); ignored", path, e)
        return []
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        log.warning("%s: not a list of records; ignored", path)
        return []
    return records

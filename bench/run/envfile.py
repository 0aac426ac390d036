"""A run folder's ``environment.json``: one record per invocation that wrote to the folder
(:mod:`bench.run.environment` says what a record holds), read and extended without losing an
earlier run's records."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from bench.run.atomic import write_atomic

log = logging.getLogger(__name__)

ENVIRONMENT = "environment.json"


def record_environment(folder: str | Path, env: dict[str, Any]) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ENVIRONMENT
    records = _extensible(path)
    records.append(env)
    write_atomic(path, json.dumps(records, indent=2) + "\n")


def update_environment(folder: str | Path, **fields: Any) -> None:
    """Add fields to the latest environment record (e.g. the end-of-run calibration)."""
    path = Path(folder) / ENVIRONMENT
    records = _extensible(path) or [{}]
    records[-1].update(fields)
    write_atomic(path, json.dumps(records, indent=2) + "\n")


def _extensible(path: Path) -> list[dict[str, Any]]:
    """The records of ``path`` to write back with more: :func:`load_environment`'s, and a file
    that is there but holds no list of records (damaged) is first moved aside to
    ``environment.json.unreadable-N``, never overwritten: it may hold earlier runs' records."""
    records = load_environment(path.parent)
    if records or not path.is_file():
        return records
    try:
        if json.loads(path.read_text(encoding="utf-8")) == []:
            return records
    except (OSError, ValueError):
        pass
    n = 0
    while (aside := path.with_name(f"{path.name}.unreadable-{n}")).exists():
        n += 1
    os.replace(path, aside)
    log.warning("%s: kept as %s, and a new list of records begins", path, aside)
    return records


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

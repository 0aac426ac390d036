"""The run-folder page documents every column a run's table has (the fields of
:class:`bench.records.Result`, which :func:`bench.run.storage.results_frame` writes in order)
and every status a result can take."""

from __future__ import annotations

import re
from typing import get_args

from bench.records import Result, TaskStatus
from tests.docs._blocks import ROOT

PAGE = ROOT / "docs" / "run-folder.md"


def table_cells(heading: str) -> set[str]:
    """The backticked names in the first column of the table under ``## heading``."""
    text = PAGE.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return {name for line in text.splitlines() if line.startswith("| `")
            for name in re.findall(r"`([a-z_0-9]+)`", line.split("|")[1])}


def test_every_column_is_documented() -> None:
    documented = table_cells("Columns")
    columns = set(Result.__dataclass_fields__)
    prose = {"identity", "harness", "run", "finished"}  # explained below the table
    assert columns - documented - prose == set()
    assert documented - columns == set()
    assert all(f"`{name}`" in PAGE.read_text(encoding="utf-8") for name in prose)


def test_every_status_is_documented() -> None:
    assert table_cells("Statuses") == set(get_args(TaskStatus))

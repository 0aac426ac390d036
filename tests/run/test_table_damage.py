"""A run folder's ``results.parquet`` that holds what its journal does not (a damaged row, a
table that cannot be read) is kept beside it, and said so in one line, before a run writes the
table again from the journal: a damaged row is never dropped unseen, as a damaged journal line
is kept in the journal with a warning."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pandas as pd
import pytest

from bench.run.storage import JOURNAL, TABLE, Journal, consolidate
from tests.cli.test_cli import cli
from tests.conftest import SHIKAKU_SEEDS

RUN = ("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--solver", "cpsat",
       "--time-limit", "20")


def _add_damaged_row(folder: Path) -> None:
    """Append to the table a copy of its first row with a status no result has and a sample id
    of its own (the journal, where there is one, does not hold it)."""
    df = pd.read_parquet(folder / TABLE)
    bad = df.iloc[[0]].copy()
    bad["status"], bad["sample_id"] = "banana", "f" * 32
    pd.concat([df, bad], ignore_index=True).to_parquet(folder / TABLE, index=False)


@pytest.mark.parametrize("journal", ["missing", "lacking"])
def test_a_damaged_table_row_is_kept_beside_when_a_run_writes_the_table(tmp_path, journal):
    out = tmp_path / "r"
    first = cli(*RUN, "--out", str(out))
    assert first.returncode == 0, first.stderr
    [kept] = Journal(out).results()
    if journal == "missing":  # a committed run: the table alone
        (out / JOURNAL).unlink()
    _add_damaged_row(out)
    original = (out / TABLE).read_bytes()
    again = cli(*RUN, "--out", str(out))
    assert again.returncode == 0, again.stderr
    aside = out / f"{TABLE}.damaged-0"
    assert aside.read_bytes() == original  # the damaged row kept, as it was
    said = [line for line in again.stderr.splitlines() if str(aside) in line]
    assert len(said) == 1 and "1 row(s) are no result" in said[0], again.stderr
    # the new table holds the results; a run on a sound table keeps no further copy
    assert list(pd.read_parquet(out / TABLE)["sample_id"]) == [kept.sample_id]
    third = cli(*RUN, "--out", str(out))
    assert third.returncode == 0 and "damaged" not in third.stderr, third.stderr
    assert not (out / f"{TABLE}.damaged-1").exists()


def test_an_unreadable_table_is_kept_beside_before_it_is_written_again(tmp_path, caplog):
    journal = Journal(tmp_path)
    line = {"key": "k", "puzzle": "shikaku", "instance": "i", "instance_path": "p", "rows": 1,
            "cols": 1, "formulation": "f", "kind": "sat", "solver": "s",
            "solver_version": "v", "status": "solved"}
    journal.path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    (tmp_path / TABLE).write_bytes(b"PAR1 not a table")
    with caplog.at_level(logging.WARNING):
        consolidate(tmp_path)
    assert (tmp_path / f"{TABLE}.damaged-0").read_bytes() == b"PAR1 not a table"
    assert "cannot be read" in caplog.text and f"{TABLE}.damaged-0" in caplog.text
    assert len(pd.read_parquet(tmp_path / TABLE)) == 1
    consolidate(tmp_path)  # a sound table: no copy
    assert not (tmp_path / f"{TABLE}.damaged-1").exists()

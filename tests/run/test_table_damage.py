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
            "solver_version": "v", "status": "solved", "time_limit": 10.0}
    journal.path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    (tmp_path / TABLE).write_bytes(b"PAR1 not a table")
    with caplog.at_level(logging.WARNING):
        consolidate(tmp_path)
    assert (tmp_path / f"{TABLE}.damaged-0").read_bytes() == b"PAR1 not a table"
    assert "cannot be read" in caplog.text and f"{TABLE}.damaged-0" in caplog.text
    assert len(pd.read_parquet(tmp_path / TABLE)) == 1
    consolidate(tmp_path)  # a sound table: no copy
    assert not (tmp_path / f"{TABLE}.damaged-1").exists()


def test_forgetting_on_purpose_keeps_no_damaged_copy(tmp_path):
    """A resume that drops a journal line on purpose (the error row of an instance file that
    was garbage and is readable now) rewrites the table at once: the old table's row of it is
    no damage, no copy is kept and nothing is warned; a later resume finds nothing lacked."""
    inst = tmp_path / "inst.txt"
    inst.write_text("garbage\n", encoding="utf-8")
    out = tmp_path / "r"
    run = ("run", str(SHIKAKU_SEEDS[1]), str(inst), "--formulation", "cpsat-cover", "--solver",
           "cpsat", "--time-limit", "20", "--out", str(out))
    first = cli(*run)
    assert sorted(r.formulation for r in Journal(out).results()) == ["-", "cpsat-cover"], \
        first.stderr
    inst.write_text(SHIKAKU_SEEDS[0].read_text(encoding="utf-8"), encoding="utf-8")
    again = cli(*run)
    assert again.returncode == 0, again.stderr
    assert "damaged" not in again.stderr + again.stdout, again.stderr
    assert not list(out.glob(f"{TABLE}.damaged-*"))
    assert [r.status for r in Journal(out).results()] == ["solved"] * 2
    assert list(pd.read_parquet(out / TABLE)["status"]) == ["solved"] * 2
    third = cli(*run)
    assert third.returncode == 0 and "put back" not in third.stdout, third.stdout


def test_the_samples_forget_takes_out_are_known_to_the_table_check(tmp_path):
    """:func:`bench.run.storage.forget` (a resume's forgetting of error rows and of the
    ladder rule's not-run results) names the samples it took out; the table written next
    knows them forgotten, not lost. Any other sample the table alone holds is still kept."""
    from bench.run.storage import forget

    line = {"puzzle": "shikaku", "instance": "i", "instance_path": "p", "rows": 1, "cols": 1,
            "formulation": "f", "kind": "sat", "solver": "s", "solver_version": "v",
            "status": "timeout", "finished": "2026-12-01T00:00:00+00:00", "time_limit": 10.0}
    rows = [{**line, "key": k, "sample_id": k * 8, "message": m}
            for k, m in (("a", "not run: x"), ("b", "not run: y"), ("c", ""))]
    journal = Journal(tmp_path)
    journal.path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    consolidate(tmp_path)
    gone = forget(journal, {"a", "c"}, "not run")
    assert gone == {("a", "a" * 8)}
    consolidate(tmp_path, gone)
    assert not list(tmp_path.glob(f"{TABLE}.damaged-*"))
    assert sorted(pd.read_parquet(tmp_path / TABLE)["key"]) == ["b", "c"]
    forget(journal, {"b"}, "not run")
    consolidate(tmp_path)  # not said forgotten: kept beside
    assert (tmp_path / f"{TABLE}.damaged-0").exists()

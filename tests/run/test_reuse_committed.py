"""A committed run folder (``results.parquet`` and ``environment.json``, the journal left
local) is a source for ``run --reuse`` and ``merge`` like a run's own folder: its table's rows
read back as the results they were written from, on a real run of the Shikaku seeds on
CP-SAT and CaDiCaL and on the committed hard Nurikabe run."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.run.storage import JOURNAL, TABLE, Journal, table_results
from tests.conftest import ROOT, SHIKAKU_SEEDS

PAIRS = ("--formulation", "shikaku:cpsat-cover",
         "--formulation", "shikaku:sat-cover[card=seqcounter]",
         "--solver", "cpsat", "--solver", "cadical195")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    p = subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                       text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def committed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A real run, and a copy of it kept as a commit keeps it (no journal)."""
    root = tmp_path_factory.mktemp("committed")
    run = root / "run"
    cli("run", *map(str, SHIKAKU_SEEDS), *PAIRS, "--time-limit", "20", "--out", str(run))
    kept = root / "kept"
    kept.mkdir()
    for name in (TABLE, "environment.json"):
        shutil.copy(run / name, kept / name)
    return run, kept


def _same(a: object, b: object) -> bool:
    return (a == b or (isinstance(a, float) and isinstance(b, float)
                       and math.isnan(a) and math.isnan(b)))


def test_the_table_reads_back_every_field_of_every_result(committed):
    run, kept = committed
    journal = {r.sample_id: r.to_dict() for r in Journal(run).results()}
    table, bad = table_results(kept)
    assert bad == 0 and len(table) == len(journal) == 2 * len(SHIKAKU_SEEDS)
    for r in table:
        want = journal[r.sample_id]
        got = r.to_dict()
        assert {k for k in want if not _same(got[k], want[k])} == set()
        # the same type, but for a float field's whole number the journal wrote as an int
        assert {k for k in want if type(got[k]) is not type(want[k])
                and {type(got[k]), type(want[k])} != {int, float}} == set()
        assert {type(got[k]) for k in ("rows", "seed", "cores", "variables")} == {int}


def test_a_committed_run_is_reused_whole_and_nothing_runs_again(committed, tmp_path):
    _, kept = committed
    out = tmp_path / "again"
    p = cli("run", *map(str, SHIKAKU_SEEDS), *PAIRS, "--time-limit", "20",
            "--reuse", str(kept), "--out", str(out))
    n = 2 * len(SHIKAKU_SEEDS)
    assert f"reused {n} of {n} tasks" in p.stdout, p.stdout
    again = pd.read_parquet(out / TABLE)
    assert set(again["run"]) == {"run"} and len(again) == n
    original = pd.read_parquet(kept / TABLE)
    assert sorted(again["sample_id"]) == sorted(original["sample_id"])


def test_a_committed_run_merges_with_a_live_one(committed, tmp_path):
    run, kept = committed
    cli("merge", str(kept), str(run), "--out", str(tmp_path / "m"))
    merged = pd.read_parquet(tmp_path / "m" / TABLE)
    assert len(merged) == 2 * len(SHIKAKU_SEEDS)  # the same samples, each kept once
    assert (tmp_path / "m" / JOURNAL).is_file()


def test_a_folder_with_neither_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(SHIKAKU_SEEDS[0]),
                        "--formulation", "shikaku:cpsat-cover", "--solver", "cpsat",
                        "--reuse", str(tmp_path / "empty"), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode != 0
    assert f"{tmp_path / 'empty'}: no {JOURNAL} or {TABLE}" in p.stderr


def test_the_committed_hard_run_reads_whole():
    results, bad = table_results(ROOT / "results" / "nurikabe-hard-20261130")
    assert bad == 0 and len(results) == 100
    assert all(r.identity.startswith("id-") for r in results)
    solved = [r for r in results if r.status == "solved"]
    assert solved and all(isinstance(r.grid, list) and r.checked for r in solved)
    # integer fields the table stores as doubles (a column holding None) read back as ints
    assert {type(r.variables) for r in solved} == {int}
    assert {type(r.iterations) for r in solved} == {int}


def test_a_damaged_committed_table_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / TABLE).write_bytes(b"not parquet at all")
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(SHIKAKU_SEEDS[0]),
                        "--formulation", "shikaku:cpsat-cover", "--solver", "cpsat",
                        "--reuse", str(bad), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode != 0 and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{bad / TABLE}: cannot be read" in lines[0], p.stderr


def test_a_table_without_sample_ids_is_read_but_not_merged(committed, tmp_path):
    run, kept = committed
    old = tmp_path / "old"
    old.mkdir()
    shutil.copy(kept / "environment.json", old / "environment.json")
    pd.read_parquet(kept / TABLE).drop(columns=["sample_id"]).to_parquet(old / TABLE)
    assert len(table_results(old)[0]) == 2 * len(SHIKAKU_SEEDS)
    p = subprocess.run([sys.executable, "-m", "bench.cli", "merge", str(old), str(run),
                        "--out", str(tmp_path / "m")], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 2 and "written before results carried sample ids" in p.stderr
    assert not (tmp_path / "m" / JOURNAL).exists()

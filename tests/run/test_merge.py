"""``puzzlebench merge`` on real runs of Shikaku (python-sat and CP-SAT, small instances, short
limits) in real folders by real processes: every sample has an identity of its own (run id,
sample id) and merge keeps each sample once, whatever the folders are called and however
close in time the samples were recorded; a reused result keeps its sample id; a journal
written before sample ids loads with stable fallback ids. Merge holds the runs' locks, writes
atomically (an interrupted merge leaves nothing a report accepts), drops a not-run result
whose task another input measured, states which identity parts differ among its inputs, and
refuses a journal that holds no result, naming it.

The lock and atomicity tests merge a large input so that a merge is caught while it works:
a real run's journal repeated 400 times as further samples (each copy its own run name and
sample id).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pandas as pd
import pytest

from bench.records import NOT_RUN
from tests.cli.test_cli import cli
from tests.conftest import INSTANCES
from tests.run.test_ladder import project

SHIKAKU = INSTANCES / "shikaku"
SELECTION = [str(SHIKAKU / "seed-10x10.txt"), str(SHIKAKU / "gen-shikaku-5x5-s1-0.txt"),
             "--formulation", "sat-cover[card=seqcounter]", "--formulation", "cpsat-cover",
             "--solver", "cadical195", "--solver", "cpsat", "--time-limit", "5"]
TASKS = 4


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "bench.cli", *args]


def journal(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "journal.jsonl").read_text().splitlines() if x]


def collisions(a: Path, b: Path) -> int:
    """Samples of one task recorded in the same second in both folders."""
    seen = {(r["key"], r["finished"]) for r in journal(a)}
    return sum((r["key"], r["finished"]) in seen for r in journal(b))


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two runs of one selection into folders of one name (``A/q``, ``B/q``), run at the same
    time, with at least one task recorded in the same second in both (the runs are repeated,
    in fresh folders, until that happens)."""
    for attempt in range(8):
        base = tmp_path_factory.mktemp(f"twins{attempt}")
        a, b = base / "A" / "q", base / "B" / "q"
        procs = [subprocess.Popen(command("run", *SELECTION, "--out", str(f)),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for f in (a, b)]
        for p in procs:
            _, err = p.communicate(timeout=300)
            assert p.returncode == 0, err
        if collisions(a, b):
            return a, b
    pytest.fail("eight pairs of concurrent runs never recorded a task in the same second")


def test_every_journal_line_carries_its_run_and_sample_id(twins):
    a, b = twins
    for folder in (a, b):
        rows = journal(folder)
        run_id = (folder / "run-id").read_text().strip()
        assert len(rows) == TASKS and len(run_id) == 32
        assert {r["run_id"] for r in rows} == {run_id}
        assert len({r["sample_id"] for r in rows}) == TASKS
        table = pd.read_parquet(folder / "results.parquet")
        assert set(table["run_id"]) == {run_id}
        assert set(table["sample_id"]) == {r["sample_id"] for r in rows}
    assert journal(a)[0]["run_id"] != journal(b)[0]["run_id"]


def test_concurrent_runs_of_one_folder_name_merge_to_every_sample(twins, tmp_path):
    a, b = twins
    assert collisions(a, b) >= 1  # same folder name, same task, same second: still two samples
    p = cli("merge", str(a), str(b), "--out", str(tmp_path / "M"))
    assert p.returncode == 0, p.stderr
    assert f"{2 * TASKS} results" in p.stdout and "met twice" not in p.stdout
    df = pd.read_parquet(tmp_path / "M" / "results.parquet")
    assert len(df) == 2 * TASKS and df["sample_id"].nunique() == 2 * TASKS
    assert set(df["sample_id"]) == {r["sample_id"] for f in (a, b) for r in journal(f)}
    assert df.groupby("key").size().eq(2).all()
    assert set(df["wall_s"]) == {r["wall_s"] for f in (a, b) for r in journal(f)}


def test_a_resumed_run_keeps_its_run_id(tmp_path):
    out = tmp_path / "r"
    first = cli("run", SELECTION[0], *SELECTION[2:], "--out", str(out))
    assert first.returncode == 0, first.stderr
    again = cli("run", *SELECTION, "--out", str(out))  # resumes: the 5x5's tasks run now
    assert again.returncode == 0, again.stderr
    rows = journal(out)
    assert len(rows) == TASKS and len({r["sample_id"] for r in rows}) == TASKS
    assert {r["run_id"] for r in rows} == {(out / "run-id").read_text().strip()}


def test_a_reused_result_keeps_its_sample_and_is_merged_once(twins, tmp_path):
    a, _ = twins
    reused = tmp_path / "reused"
    p = cli("run", *SELECTION, "--out", str(reused), "--reuse", str(a))
    assert p.returncode == 0 and f"reused {TASKS} of {TASKS} tasks" in p.stdout, p.stderr
    ids = {r["sample_id"]: r["run_id"] for r in journal(a)}
    assert {r["sample_id"]: r["run_id"] for r in journal(reused)} == ids
    m = cli("merge", str(a), str(reused), "--out", str(tmp_path / "M"))
    assert m.returncode == 0, m.stderr
    assert f"{TASKS} results" in m.stdout and f"{TASKS} met twice" in m.stdout
    assert len(pd.read_parquet(tmp_path / "M" / "results.parquet")) == TASKS


def test_a_journal_without_sample_ids_loads_with_stable_fallback_ids(twins, tmp_path):
    from bench.run.storage import Journal

    a, b = twins
    old = tmp_path / "old"
    old.mkdir()
    lines = [{k: v for k, v in r.items() if k not in ("run_id", "sample_id")}
             for r in journal(a)]
    (old / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    first, second = Journal(old).results(), Journal(old).results()
    ids = [r.sample_id for r in first]
    assert ids == [r.sample_id for r in second] and len(set(ids)) == TASKS
    assert all(i.startswith("legacy-") for i in ids)
    assert {r.run_id for r in first} == {""}
    # a copy of an old line is the same sample; another run's lines are others
    (old / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines * 2))
    p = cli("merge", str(old), str(b), "--out", str(tmp_path / "M"))
    assert p.returncode == 0, p.stderr
    # (the copies are lines of one input: no sample is met in two inputs)
    assert f"{2 * TASKS} results" in p.stdout and "met twice" not in p.stdout


@pytest.mark.parametrize("content", [os.urandom(4000), b'{"hello": 1}\n[1, 2]\n"x"\nnull\n'],
                         ids=["bytes", "json"])
def test_merge_of_a_garbage_journal_fails_in_one_line_naming_it(twins, tmp_path, content):
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "journal.jsonl").write_bytes(content)
    out = tmp_path / "M"
    p = cli("merge", str(twins[0]), str(garbage), "--out", str(out))
    assert p.returncode == 2, p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and str(garbage / "journal.jsonl") in lines[0], p.stderr
    assert "Traceback" not in p.stderr and not (out / "journal.jsonl").exists()


def test_merge_refuses_a_run_in_progress(twins, tmp_path):
    busy = tmp_path / "busy"
    run = subprocess.Popen(command("run", str(SHIKAKU), "--formulation", "cpsat-cover",
                                   "--solver", "cpsat", "--time-limit", "5", "--out", str(busy)),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (busy / "journal.jsonl").exists() or not journal(busy):
            assert run.poll() is None and time.monotonic() < deadline, run.stderr
            time.sleep(0.02)
        out = tmp_path / "M"
        p = cli("merge", str(twins[0]), str(busy), "--out", str(out))
        assert run.poll() is None  # still running when the merge was refused
        assert p.returncode == 2, p.stdout
        assert f"{busy}: a run is in progress there" in p.stderr and "Traceback" not in p.stderr
        assert not (out / "journal.jsonl").exists()
    finally:
        run.send_signal(signal.SIGINT)
        run.communicate(timeout=120)


@pytest.fixture(scope="module")
def large(twins, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run's journal repeated 400 times as further samples (own run names, sample ids)."""
    big = tmp_path_factory.mktemp("large") / "big"
    big.mkdir()
    rows = journal(twins[0])
    with open(big / "journal.jsonl", "w") as f:
        for i in range(400):
            for r in rows:
                f.write(json.dumps({**r, "run": f"copy{i}", "sample_id": uuid.uuid4().hex})
                        + "\n")
    shutil.copyfile(twins[0] / "environment.json", big / "environment.json")
    return big


def test_two_merges_into_one_out_do_not_mix(large, tmp_path):
    out = tmp_path / "M"
    procs = [subprocess.Popen(command("merge", str(large), "--out", str(out)),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    done = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    assert codes == [0, 2], done
    refused = done[[p.returncode for p in procs].index(2)][1]
    assert "held by another run or merge" in refused or "already holds results" \
        in refused, refused
    rows = journal(out)
    assert len(rows) == 400 * TASKS
    assert len({r["sample_id"] for r in rows}) == 400 * TASKS


def test_an_interrupted_merge_leaves_nothing_report_or_compare_accept(large, twins, tmp_path):
    out = tmp_path / "M"
    merge = subprocess.Popen(command("merge", str(large), "--out", str(out)),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not ((out / "journal.jsonl").exists() or any(tmp_path.glob(".M.merge-*/*"))):
        assert merge.poll() is None and time.monotonic() < deadline
        time.sleep(0.002)
    merge.kill()  # SIGKILL: in the middle of writing
    merge.wait(timeout=60)
    assert merge.returncode == -signal.SIGKILL
    rep = cli("report", str(out), "--out", str(tmp_path / "rep"))
    assert rep.returncode != 0 and "Traceback" not in rep.stderr
    cmp = cli("compare", str(twins[0]), str(out))
    assert cmp.returncode != 0 and "Traceback" not in cmp.stderr
    again = cli("merge", str(large), "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert len(journal(out)) == 400 * TASKS
    assert not list(tmp_path.glob(".M.merge-*"))  # the killed merge's temporary folder


def test_a_measured_sample_supersedes_a_not_run_one_of_its_task(tmp_path):
    root = project(tmp_path)
    env = {"PUZZLEBENCH_ROOT": str(root)}
    laddered, measured = tmp_path / "laddered", tmp_path / "measured"
    p = cli("run", "--suite", "l", "--out", str(laddered), "--formulation", "cpsat-cover",
            "--solver", "cpsat", env=env, cwd=tmp_path)
    assert p.returncode in (0, 1), p.stderr
    skipped = [r for r in journal(laddered) if r["message"].startswith(NOT_RUN)]
    assert len(skipped) == 3
    p = cli("run", *(r["instance_path"] for r in skipped), "--formulation", "cpsat-cover",
            "--solver", "cpsat", "--time-limit", "20", "--out", str(measured), env=env,
            cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = tmp_path / "M"
    m = cli("merge", str(laddered), str(measured), "--out", str(out), cwd=tmp_path)
    assert m.returncode == 0, m.stderr
    assert "3 not-run result(s) dropped" in m.stdout
    df = pd.read_parquet(out / "results.parquet")
    assert len(df) == len(journal(laddered))  # three not-run replaced by three measured
    mine = df[df["key"].isin({r["key"] for r in skipped})]
    assert len(mine) == 3 and set(mine["status"]) == {"solved"}
    assert not df["message"].fillna("").str.startswith(NOT_RUN).any()


def test_merge_states_the_identity_parts_its_inputs_differ_in(twins, tmp_path):
    a, _ = twins
    longer = tmp_path / "t6"
    p = cli("run", *SELECTION[:-1], "6", "--out", str(longer))
    assert p.returncode == 0, p.stderr
    out = tmp_path / "M"
    m = cli("merge", str(a), str(longer), "--out", str(out))
    assert m.returncode == 0, m.stderr
    assert "the inputs differ in limits (" in m.stdout
    assert "cpsat-cover / cpsat" in m.stdout.split("differ in limits", 1)[1]
    record = json.loads((out / "environment.json").read_text())[0]
    assert set(record["differs"]) == {"limits"}
    assert len(record["differs"]["limits"]) == 2  # both pairs
    # kept apart in the data: each sample keeps its own limit
    df = pd.read_parquet(out / "results.parquet")
    limits = df.groupby("key")["time_limit"].apply(lambda s: tuple(sorted(s)))
    assert set(limits) == {(5.0, 6.0)}
    same = cli("merge", str(a), "--out", str(tmp_path / "M1"))
    assert same.returncode == 0 and "differ" not in same.stdout



def test_one_label_in_two_puzzles_is_two_pairs_to_the_identity_check():
    """cpsat-tree is a Nurikabe and a Fillomino formulation: their codes differ by design, so
    inputs holding one each differ in nothing; the same puzzle's pair run with two codes
    does, and is named with its puzzle."""
    from bench.records import Result
    from bench.run.merge import differences

    def result(puzzle: str, code: str, sample: str) -> Result:
        return Result(key=f"sha256:{puzzle}|cpsat-tree|cpsat|seed=0", puzzle=puzzle,
                      instance="i", instance_path="p", rows=1, cols=1, formulation="cpsat-tree",
                      kind="cpsat", solver="cpsat", solver_version="9", status="solved",
                      code=code, sample_id=sample)

    apart = [result("nurikabe", "code-n", "s1"), result("fillomino", "code-f", "s2")]
    assert differences(apart, {"s1": 0, "s2": 1}) == {}
    changed = [*apart, result("nurikabe", "code-n2", "s3")]
    assert differences(changed, {"s1": 0, "s2": 1, "s3": 1}) == {
        "formulation code": ["nurikabe: cpsat-tree / cpsat"]}


@pytest.mark.parametrize("keep", [0, 2], ids=["emptied", "truncated"])
def test_merge_keeps_the_rows_only_the_table_holds(twins, tmp_path, keep):
    """A journal emptied or cut short after the table was written: the rows only
    results.parquet still holds are merged too, as `report` and a resumed `run` read them."""
    a, b = twins
    damaged = tmp_path / "damaged"
    shutil.copytree(a, damaged)
    lines = (damaged / "journal.jsonl").read_text().splitlines(keepends=True)
    (damaged / "journal.jsonl").write_text("".join(lines[:keep]))
    out = tmp_path / "M"
    p = cli("merge", str(damaged), str(b), "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert len(pd.read_parquet(out / "results.parquet")) == 2 * TASKS, p.stdout

"""The run folder and its options: bad options are one-line errors, a changed
limit does not resume silently, a locked folder is refused, a full or read-only disk stops
the run with one line and leaves the journal readable."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess

import pytest

from bench.records import Task
from bench.run.lock import RunLock
from bench.run.measure import Measured
from bench.run.pool import _result
from bench.run.storage import Journal
from tests.cli.test_cli import cli
from tests.conftest import SHIKAKU_SEEDS

FAST = ("--formulation", "sat-cover[card=seqcounter]", "--solver", "minisat22")


def one_line_error(p: subprocess.CompletedProcess[str], needle: str) -> None:
    assert p.returncode == 2, (p.stdout, p.stderr)
    # argparse's own errors come after its usage lines; ours alone
    lines = [ln for ln in p.stderr.splitlines() if ln.strip() and not ln.startswith(("usage:",
                                                                                       " "))]
    assert "Traceback" not in p.stderr and len(lines) == 1, p.stderr
    assert needle in lines[0], lines[0]


@pytest.mark.parametrize(("extra", "needle"), [
    (("--formulation", "sat-cover[card"), "--formulation 'sat-cover[card'"),
    (("--formulation", "sat-cover[card=nosuch]"), "selects no formulation variant"),
    (("--time-limit", "0"), "must be a positive number"),
    (("--time-limit", "-1"), "must be a positive number"),
    (("--time-limit", "nan"), "must be a positive number"),
    (("--memory-limit", "0"), "must be 1 .."),
    (("--solver", "minisat22", "--solver", "cadical"), "--solver 'cadical': unknown solver"),
    (("--puzzle", "shikku"), "--puzzle 'shikku': no such puzzle (known: fillomino"),
])
def test_bad_run_options_are_one_line_errors(tmp_path, extra, needle):
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(tmp_path / "r"), *extra)
    one_line_error(p, needle)
    assert not (tmp_path / "r" / "journal.jsonl").exists()


def test_run_takes_folders_and_globs_and_refuses_a_changed_limit(tmp_path):
    folder = tmp_path / "inst"
    folder.mkdir()
    shutil.copy(SHIKAKU_SEEDS[0], folder / "a.txt")
    out = tmp_path / "r"
    p = cli("run", str(folder), str(folder / "*.txt"), "--out", str(out), *FAST,
            "--time-limit", "5")
    assert p.returncode == 0, p.stderr
    assert len(Journal(out).results()) == 1  # the folder and the glob name one file
    assert "time past the limit per task" in p.stdout
    p = cli("run", str(folder), "--out", str(out), *FAST, "--time-limit", "30")
    one_line_error(p, "holds results run with --time-limit 5, not 30")
    p = cli("run", str(folder), "--out", str(out), *FAST, "--time-limit", "5",
            "--memory-limit", "1000")
    one_line_error(p, "--memory-limit 8192, not 1000")
    p = cli("run", str(folder), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0, p.stderr  # the same limits resume
    one_line_error(cli("run", str(tmp_path / "nothing*.txt"), "--out", str(out)),
                   "no instance file matches")


def test_a_second_run_on_a_locked_folder_is_refused(tmp_path):
    out = tmp_path / "r"
    with RunLock(out):
        p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST)
    one_line_error(p, "is held by another run or merge (pid")
    assert not (out / "journal.jsonl").exists()
    assert cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST).returncode == 0


@pytest.mark.parametrize(("kind", "says"), [
    (fcntl.LOCK_SH, "is held by another process: a merge or a report reading it"),
    (fcntl.LOCK_EX, "is held by another run or merge (pid {pid})"),
])
def test_a_run_refused_names_the_locks_holder_by_its_kind_not_its_pid(tmp_path, kind, says):
    """A merge reading the folder (or a report) holds its lock shared and writes no pid: the
    pid in ``.lock`` is the last run's, which has ended. A run or merge writing the folder
    holds it exclusively, whether or not its pid is visible here (another pid namespace)."""
    out = tmp_path / "r"
    out.mkdir()
    gone = subprocess.Popen(["true"])
    gone.wait()
    (out / ".lock").write_text(f"{gone.pid}\n")
    fd = os.open(out / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, kind)
        p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST)
    finally:
        os.close(fd)
    one_line_error(p, says.format(pid=gone.pid))
    if kind == fcntl.LOCK_SH:
        assert str(gone.pid) not in p.stderr


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_lock_file_that_is_a_link_is_refused_by_a_run_and_no_lock_to_a_merge(tmp_path, link):
    """A run writes its pid into ``.lock``: through a link it would overwrite the target.
    A merge only reads its input: a folder whose lock is a link is being written by no run
    (a run refuses it), so it is merged."""
    first = tmp_path / "first"
    assert cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(first), *FAST).returncode == 0
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    (first / ".lock").unlink()
    if link == "symbolic":
        (first / ".lock").symlink_to(target)
    else:
        os.link(target, first / ".lock")
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(first), *FAST)
    one_line_error(p, ".lock: not a regular file of its own (a link, FIFO or device)")
    merged = cli("merge", str(first), "--out", str(tmp_path / "m"))
    assert merged.returncode == 0, merged.stderr
    assert len(Journal(tmp_path / "m").results()) == 1
    assert target.read_text() == "keep me\n"


def test_an_unreadable_file_fixed_later_leaves_no_error_row_and_an_old_one_is_said(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(SHIKAKU_SEEDS[0], folder / "good.txt")
    (folder / "empty.txt").write_text("")
    out = tmp_path / "r"
    first = cli("run", str(folder), "--out", str(out), *FAST)
    assert first.returncode == 1 and "empty.txt" in first.stderr
    again = cli("run", str(folder / "good.txt"), "--out", str(out), *FAST)
    assert again.returncode == 1  # the folder still holds the error: it is said, not silent
    assert "empty.txt" in again.stderr and "(recorded earlier)" in again.stderr
    shutil.copy(SHIKAKU_SEEDS[1], folder / "empty.txt")
    fixed = cli("run", str(folder), "--out", str(out), *FAST)
    assert fixed.returncode == 0, fixed.stderr
    assert "1 error row(s) of instance files" in fixed.stdout + fixed.stderr
    statuses = sorted(r.status for r in Journal(out).results())
    assert statuses == ["solved", "solved"]


def test_a_fixed_file_resumed_from_another_working_folder_leaves_no_error_row(tmp_path):
    """The error row recorded the path as spelled from the first run's working folder
    (``set/p.txt``); the resume names the fixed file from inside ``set`` (``p.txt``). The row
    is the same file's (its name is planned, its recorded path no longer holds its content):
    dropped. Another file of the same name elsewhere, still unreadable, keeps its row."""
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(SHIKAKU_SEEDS[0], folder / "good.txt")
    (folder / "p.txt").write_text("puzzle: shikaku\nno grid\n")
    out = tmp_path / "r"
    first = cli("run", "set/p.txt", "set/good.txt", "--out", str(out), *FAST, cwd=tmp_path)
    assert first.returncode == 1 and "set/p.txt" in first.stderr, first.stderr
    shutil.copy(SHIKAKU_SEEDS[1], folder / "p.txt")
    fixed = cli("run", "p.txt", "good.txt", "--out", str(out), *FAST, cwd=folder)
    assert fixed.returncode == 0, fixed.stderr
    assert "1 error row(s) of instance files" in fixed.stdout + fixed.stderr
    assert sorted(r.status for r in Journal(out).results()) == ["solved"] * 2
    # the same name in another folder, still unreadable there: its row is kept
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "good.txt").write_text("puzzle: shikaku\nno grid\n")
    cli("run", "other/good.txt", "set/p.txt", "--out", str(out), *FAST, cwd=tmp_path)
    again = cli("run", "set/good.txt", "set/p.txt", "--out", str(out), *FAST, cwd=tmp_path)
    assert "(recorded earlier)" in again.stderr, again.stderr
    assert [r.instance_path for r in Journal(out).results() if r.status == "error"] == \
        ["other/good.txt"]


def test_a_worker_that_exits_early_is_an_error_with_a_message():
    task = Task(str(SHIKAKU_SEEDS[0]), "sat-cover", "minisat22")
    partial = {"key": task.key, "puzzle": "shikaku", "instance": "x", "instance_path": "x",
               "rows": 1, "cols": 1, "formulation": "sat-cover", "kind": "sat",
               "solver": "minisat22", "solver_version": "", "status": "error"}
    m = Measured(returncode=0, wall_s=0.1, peak_tree_rss_mb=1, hwm_mb=1, killed=None)
    res = _result(task, m, partial, [], 0.5)
    assert res.status == "error" and "before writing its result" in res.message
    res = _result(task, m, {**partial, "status": "solved", "final": True}, [], 0.5)
    assert res.status == "solved"
    oom = _result(task, Measured(-6, 0.1, 1, 1, None), partial,
                  ["terminate called after throwing an instance of 'std::bad_alloc'"], 0.5)
    assert oom.status == "memout"
    minisat = _result(task, Measured(-6, 0.1, 1, 1, None), partial,
                      ["terminate called after throwing an instance of "
                       "'Minisat22::OutOfMemoryException'"], 0.5)
    assert minisat.status == "memout"


def mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@pytest.fixture
def small_tmpfs(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not shutil.which("mount") or not mount("-t", "tmpfs", "-o", "size=256k", "tmpfs",
                                              str(mnt)):
        pytest.skip("mounting a tmpfs is not permitted here")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_full_disk_stops_the_run_with_one_line_and_keeps_the_journal(small_tmpfs):
    out = small_tmpfs / "r"
    assert cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST).returncode == 0
    before = (out / "journal.jsonl").read_bytes()
    env_before = json.loads((out / "environment.json").read_text())
    filler = small_tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk to the last block
        while os.write(fd, b"\0" * 512):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--seeds", "4")
    one_line_error(p, "No space left on device")
    data = (out / "journal.jsonl").read_bytes()
    assert data.startswith(before)
    assert len(Journal(out).results()) >= 1  # every complete line still reads
    assert json.loads((out / "environment.json").read_text()) == env_before
    filler.unlink()  # space again: the run resumes and completes
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--seeds", "4")
    assert p.returncode == 0, p.stderr
    assert len(Journal(out).keys()) == 4


def test_a_read_only_folder_gives_one_line_and_an_untouched_journal(tmp_path):
    src = tmp_path / "src"
    assert cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(src), *FAST).returncode == 0
    ro = tmp_path / "ro"
    ro.mkdir()
    if not mount("--bind", str(src), str(ro)):
        pytest.skip("bind mounts are not permitted here")
    try:
        if not mount("-o", "remount,bind,ro", str(ro)):
            pytest.skip("read-only remounts are not permitted here")
        before = {p.name: p.read_bytes() for p in src.iterdir()}
        p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(ro), *FAST, "--seeds", "2")
        one_line_error(p, "Read-only file system")
        assert {p.name: p.read_bytes() for p in src.iterdir()} == before
    finally:
        subprocess.run(["umount", "-l", str(ro)], check=False)


def test_a_torn_last_line_is_rerun_and_nothing_is_lost(tmp_path):
    """Item 1 end to end: cut the last journal line in half (a kill mid-write), re-run the
    same command: every task ends with exactly one result."""
    out = tmp_path / "r"
    args = ("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--seeds", "2")
    assert cli(*args).returncode == 0
    path = out / "journal.jsonl"
    lines = path.read_bytes().split(b"\n")[:-1]
    assert len(lines) == 2
    path.write_bytes(lines[0] + b"\n" + lines[1][: len(lines[1]) // 2])
    p = cli(*args)
    assert p.returncode == 0, p.stderr
    results = Journal(out).results()
    assert sorted(r.seed for r in results) == [0, 1] and len({r.key for r in results}) == 2


def test_a_task_is_known_by_its_instance_content_not_its_path(tmp_path):
    """Resume from another working directory, a moved or renamed file, ``x.txt`` and
    ``./x.txt``, a file given twice: the same tasks; a changed file: new ones."""
    folder = tmp_path / "inst"
    folder.mkdir()
    shutil.copy(SHIKAKU_SEEDS[0], folder / "x.txt")
    out = tmp_path / "r"
    p = cli("run", "x.txt", "./x.txt", str(folder / "x.txt"), "--out", str(out), *FAST,
            "--time-limit", "5", cwd=folder)
    assert p.returncode == 0, p.stderr
    assert len(Journal(out).results()) == 1
    # the same run from another directory, and the file renamed and moved: nothing to do
    p = cli("run", "inst/x.txt", "--out", str(out), *FAST, "--time-limit", "5", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    (folder / "x.txt").rename(moved / "y.txt")
    p = cli("run", str(moved / "y.txt"), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0, p.stderr
    assert len(Journal(out).results()) == 1
    # a changed file is another instance
    (moved / "y.txt").write_text((moved / "y.txt").read_text() + "\n")
    p = cli("run", str(moved / "y.txt"), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0, p.stderr
    assert len({r.key for r in Journal(out).results()}) == 2


def test_journal_records_of_the_wrong_types_are_skipped_once_and_the_run_goes_on(tmp_path):
    out = tmp_path / "r"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0, p.stderr
    good = json.loads((out / "journal.jsonl").read_text())
    with open(out / "journal.jsonl", "a") as f:
        for n, bad in enumerate([{"rows": "ten"}, {"wall_s": "fast"}, {"status": "banana"}]):
            f.write(json.dumps({**good, "key": f"other{n}", **bad}) + "\n")
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.count("skipping unreadable journal line") == 3, p.stderr
    import pandas as pd

    df = pd.read_parquet(out / "results.parquet")
    assert list(df["key"]) == [good["key"]] and list(df["status"]) == ["solved"]


def test_disjoint_tasks_under_another_time_limit_are_refused(tmp_path):
    out = tmp_path / "r"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--out", str(out), *FAST, "--time-limit", "5")
    assert p.returncode == 0, p.stderr
    p = cli("run", str(SHIKAKU_SEEDS[1]), "--out", str(out), *FAST, "--time-limit", "0.01")
    one_line_error(p, "holds results run with --time-limit 5, not 0.01")
    assert "another --out" in p.stderr
    assert len(Journal(out).results()) == 1

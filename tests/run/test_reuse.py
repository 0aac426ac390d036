"""Reuse across runs, merge and compare, on real runs of an out-of-tree plugin (two
formulations, one importing a helper module) and a built-in, over the Shikaku seeds on CP-SAT.

Editing a file of the plugin reruns exactly the tasks whose identity includes it; a folder
written before identities is read and never reused, and says so. The merge test runs once and
copies the run with its machine fields rewritten (CPU, cores): the only stand-in for a second
machine here.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT, SHIKAKU_SEEDS, plugin_package

EXAMPLE = ROOT / "tests" / "examples" / "shikaku" / "cpsat_mine.py"
FORMS = ("shikaku:cpsat-a", "shikaku:cpsat-b", "shikaku:cpsat-cover")


def _form(cls: str, name: str, helper: bool) -> str:
    text = EXAMPLE.read_text().replace("CpsatMine", cls).replace('"cpsat-mine"', f'"{name}"')
    return text + ("\nfrom reuse_pkg import helper  # noqa: E402\n\nSIZE = helper.SIZE\n"
                   if helper else "")


@pytest.fixture(scope="module")
def plug(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("reuse")
    env = plugin_package(root, "reuse-pkg", "0.1",
                         {"helper": "SIZE = 1\n", "cpsat_a": _form("CpsatA", "cpsat-a", True),
                          "cpsat_b": _form("CpsatB", "cpsat-b", False)},
                         {"shikaku.cpsat.cpsat-a": "reuse_pkg.cpsat_a",
                          "shikaku.cpsat.cpsat-b": "reuse_pkg.cpsat_b"})
    return root, env


def run(env: dict[str, str], out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = [str(p) for p in SHIKAKU_SEEDS]
    for f in FORMS:
        args += ["--formulation", f]
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", *args, "--solver", "cpsat",
                        "--time-limit", "20", "--out", str(out), *extra],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr
    return p


def journal(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "journal.jsonl").read_text().splitlines() if x]


def ran_here(folder: Path) -> set[str]:
    """The formulations of the results this run produced (not reused)."""
    return {r["formulation"] for r in journal(folder) if r["run"] == folder.name}


@pytest.fixture(scope="module")
def first(plug, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "r1"
    run(plug[1], out)
    return out


def test_every_result_carries_its_identity_and_provenance(first):
    rows = journal(first)
    assert len(rows) == 3 * len(SHIKAKU_SEEDS) and {r["status"] for r in rows} == {"solved"}
    for r in rows:
        assert r["identity"].startswith("id-") and r["code"] and r["backend_code"]
        assert r["cpu"] and r["cores"] >= 1 and r["memory_gb"] > 0 and r["python"]
        assert r["run"] == "r1" and r["finished"] and r["harness"].startswith("puzzlebench")
    codes = {r["formulation"]: r["code"] for r in rows}
    assert len(set(codes.values())) == 3  # each formulation its own code


def test_reusing_the_run_folder_itself_says_its_tasks_are_there_not_that_all_are_to_run(
        plug, first, tmp_path):
    """``--reuse X --out X`` resumes X: nothing is reused or run, and the reuse line counts
    the tasks already there apart from those to run."""
    here = tmp_path / "r1"
    shutil.copytree(first, here)
    p = run(plug[1], here, "--reuse", str(here))
    n = 3 * len(SHIKAKU_SEEDS)
    assert f"reused 0 of {n} tasks; {n} already in the run folder; 0 to run" in p.stdout, p.stdout
    assert len(journal(here)) == n


def test_an_edited_file_reruns_exactly_the_tasks_whose_identity_includes_it(plug, first):
    root, env = plug
    r2 = first.parent / "r2"
    p = run(env, r2, "--reuse", str(first))
    n = len(SHIKAKU_SEEDS)
    assert f"reused {3 * n} of {3 * n} tasks ({3 * n} from r1); 0 to run" in p.stdout
    assert ran_here(r2) == set()
    helper = root / "reuse_pkg" / "helper.py"
    helper.write_text(helper.read_text() + "# edited\n")  # imported by cpsat-a only
    r3 = first.parent / "r3"
    p = run(env, r3, "--reuse", str(r2))
    assert f"reused {2 * n} of {3 * n} tasks ({2 * n} from r1); {n} to run" in p.stdout
    assert ran_here(r3) == {"cpsat-a"} and len(journal(r3)) == 3 * n
    form_b = root / "reuse_pkg" / "cpsat_b.py"
    form_b.write_text(form_b.read_text() + "# edited\n")
    r4 = first.parent / "r4"
    p = run(env, r4, "--reuse", str(r3))
    assert f"reused {2 * n} of {3 * n} tasks ({n} from r1, {n} from r3); {n} to run" in p.stdout
    assert ran_here(r4) == {"cpsat-b"}
    # compare: the diff names the changed part for exactly the rerun tasks
    c = subprocess.run([sys.executable, "-m", "bench.cli", "compare", str(first), str(r4)],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert c.returncode == 0, c.stderr
    assert f"- formulation code: {2 * n} of {3 * n} tasks" in c.stdout
    from bench.report.compare import compare

    changes, pairs = compare(first, r4)
    differs = changes.groupby(changes["pair"].str.split(" /").str[0])["differs"].agg(set)
    assert differs.to_dict() == {"cpsat-a": {"formulation code"},
                                 "cpsat-b": {"formulation code"}, "cpsat-cover": {""}}
    assert set(pairs["verdict"]) <= {"changed", "equivalent", "inconclusive"}


def test_a_folder_without_identities_loads_and_is_never_reused(plug, first):
    old = first.parent / "old"
    old.mkdir()
    rows = [{k: v for k, v in r.items() if k not in ("identity", "code", "backend_code")}
            for r in journal(first)]
    (old / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = first.parent / "after-old"
    p = run(plug[1], out, "--reuse", str(old))
    assert f"{old}: {len(rows)} results have no identity" in p.stdout
    assert f"reused 0 of {len(rows)} tasks; {len(rows)} to run" in p.stdout
    assert len(journal(out)) == len(rows)


def test_merge_keeps_both_machines_with_provenance_and_the_report_ranks_them_apart(
        first, tmp_path):
    # the second machine: the same run with its machine fields (and run name) rewritten,
    # each line a sample of its own (a new sample id)
    other = tmp_path / "r1-other"
    other.mkdir()
    rows = [{**r, "cpu": "Other CPU 9000", "cores": 64, "run": "r1-other",
             "sample_id": f"other-{i}"} for i, r in enumerate(journal(first))]
    (other / "journal.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    shutil.copyfile(first / "environment.json", other / "environment.json")
    merged = tmp_path / "merged"
    p = subprocess.run([sys.executable, "-m", "bench.cli", "merge", str(first), str(other),
                        str(first), "--out", str(merged)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    n = len(rows)
    assert f"{2 * n} results" in p.stdout and f"{n} met twice" in p.stdout
    df = pd.read_parquet(merged / "results.parquet")
    assert len(df) == 2 * n and df.groupby("key").size().eq(2).all()
    assert sorted(df["run"].unique()) == ["r1", "r1-other"]
    assert set(df["cores"]) == {64, journal(first)[0]["cores"]}
    again = subprocess.run([sys.executable, "-m", "bench.cli", "merge", str(first),
                            "--out", str(merged)], capture_output=True, text=True, cwd=ROOT,
                           timeout=60)
    assert again.returncode == 2 and "already holds results" in again.stderr
    from bench.report import write_report

    rep = write_report(merged, tmp_path / "rep")
    md = (rep / "summary.md").read_text()
    assert md.count("\n## shikaku-m-") == 2  # one ranking per machine type
    assert "On Other CPU 9000, 64 cores" in md
    assert f"{n} of {2 * n} results reused or merged from run r1 " in md
    assert f"{n} of {2 * n} results reused or merged from run r1-other " in md
    assert "Results of 2 machine types" in md


def test_reuse_latest_takes_the_newest_run_of_this_machine_type(first, tmp_path):
    from bench.run.reuse import latest_run

    env = json.loads((first / "environment.json").read_text())
    newer = tmp_path / "newer-elsewhere"
    newer.mkdir()
    shutil.copyfile(first / "journal.jsonl", newer / "journal.jsonl")
    (newer / "environment.json").write_text(json.dumps(
        [{**env[-1], "cpu": "Other CPU 9000", "recorded_at": "2999-01-01T00:00:00+00:00"}]))
    empty = tmp_path / "not-a-run"
    empty.mkdir()
    assert latest_run([first, newer, empty], tmp_path / "out") == first
    assert latest_run([first, newer], first) is None  # the --out folder itself is left out


def test_an_added_formulation_joins_the_suites_without_being_listed(plug):
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", "--suite", "default",
                        "--puzzle", "shikaku", "--dry-run"], capture_output=True, text=True,
                       env=plug[1], cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "cpsat-a" in p.stdout and "cpsat-b" in p.stdout and "cpsat-cover" in p.stdout


def test_a_dry_run_says_what_reuse_would_take_and_a_missing_folder_is_refused(plug, first):
    args = [sys.executable, "-m", "bench.cli", "run", *map(str, SHIKAKU_SEEDS), "--solver",
            "cpsat", "--time-limit", "20", "--dry-run"]
    for f in FORMS:
        args += ["--formulation", f]
    # every run so far: whichever files the other tests edited, one of them matches each task
    runs = [str(d) for d in sorted(first.parent.iterdir()) if (d / "journal.jsonl").is_file()]
    p = subprocess.run([*args, "--reuse", *runs], capture_output=True, text=True,
                       env=plug[1], cwd=ROOT, timeout=120)
    n = 3 * len(SHIKAKU_SEEDS)
    assert p.returncode == 0 and f"would have reused {n} of {n} tasks" in p.stdout, p.stderr
    p = subprocess.run([*args, "--reuse", str(first.parent / "nothing")], capture_output=True,
                       text=True, env=plug[1], cwd=ROOT, timeout=120)
    assert p.returncode == 2
    assert "nothing: no journal.jsonl or results.parquet (not a run folder)" in p.stderr


def test_a_pinned_run_reuses_only_pinned_measurements(plug, first):
    # every run so far ran unpinned: a --pin run would take none of them, an unpinned one all
    args = [str(p) for p in SHIKAKU_SEEDS]
    for f in FORMS:
        args += ["--formulation", f]
    base = [sys.executable, "-m", "bench.cli", "run", *args, "--solver", "cpsat",
            "--time-limit", "20", "--dry-run", "--reuse"]
    base += [str(d) for d in sorted(first.parent.iterdir()) if (d / "journal.jsonl").is_file()]
    n = 3 * len(SHIKAKU_SEEDS)
    p = subprocess.run([*base, "--pin"], capture_output=True, text=True,
                       env=plug[1], cwd=ROOT, timeout=120)
    assert p.returncode == 0 and f"would have reused 0 of {n} tasks" in p.stdout, p.stdout
    p = subprocess.run(base, capture_output=True, text=True, env=plug[1], cwd=ROOT, timeout=120)
    assert p.returncode == 0 and f"would have reused {n} of {n} tasks" in p.stdout, p.stdout

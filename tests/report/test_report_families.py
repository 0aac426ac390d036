"""A report's instance families do not depend on the folder it is built from: a run records
its instances' paths relative to the folder it ran in, and the report finds the files from
the run folder (bench/report/located.py), never from its own working folder; an instance
whose rows recorded several paths (a merge of runs made in different folders) has one
family."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from bench.report import load_run, prepare, write_report
from tests.conftest import ROOT

SAT = "sat-hybrid[wall=auto,islands=layers,enclose=3,card=rings]"
#: a puzz.link instance under a name the source checkout does not hold (so only the run
#: folder can lead to it), and a seed
REAL = "nurikabe-5x5-elsewhere"
EXPECTED = {"seed-p01": "seed", REAL: "real (puzz.link)"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with two instances and a run of them made from its root (paths recorded
    as ``instances/nurikabe/...``), kept in its ``results/``."""
    proj = tmp_path_factory.mktemp("families") / "proj"
    inst = proj / "instances" / "nurikabe"
    inst.mkdir(parents=True)
    for name in ("seed-p01.txt", "seed-p01.sol"):
        shutil.copy(ROOT / "instances" / "nurikabe" / name, inst / name)
    shutil.copy(ROOT / "instances" / "nurikabe" / "nurikabe-5x5-65165b5a.txt", inst / f"{REAL}.txt")
    env = {k: v for k, v in os.environ.items() if k != "PUZZLEBENCH_ROOT"}
    p = subprocess.run([sys.executable, "-m", "bench.cli", "run", "instances/nurikabe/seed-p01.txt",
                        f"instances/nurikabe/{REAL}.txt", "--formulation", SAT, "--solver",
                        "cadical195", "--time-limit", "20", "--out", "results/r"],
                       cwd=proj, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return proj


def _families(run: Path) -> dict[str, str]:
    loaded = load_run(run)
    t = prepare(loaded.df, loaded.folder)
    return dict(zip(t["instance"], t["family"], strict=True))


def _grid(md: str) -> dict[str, str]:
    """instance -> family from summary.md's status grid."""
    rows = [line.split(" | ") for line in md.splitlines() if line.startswith("| ")]
    return {r[0][2:]: r[1] for r in rows if r[0][2:] in EXPECTED}


def test_families_are_the_same_from_any_working_folder(project: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    run = project / "results" / "r"
    assert set(pd.read_parquet(run / "results.parquet")["instance_path"]) == {
        "instances/nurikabe/seed-p01.txt", f"instances/nurikabe/{REAL}.txt"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    seen = []
    for i, cwd in enumerate((project, elsewhere)):
        monkeypatch.chdir(cwd)
        seen.append(_grid((write_report(run, tmp_path / f"rep{i}") / "summary.md").read_text()))
    assert seen[0] == seen[1] == EXPECTED
    assert _families(run) == EXPECTED  # from elsewhere


def test_paths_relative_to_other_folders_give_one_family(project: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    """A merge of a run made from the project root and one made from ``instances/``, and a
    row whose file is gone: each instance keeps the family its readable file gives."""
    run = project / "results" / "merged"
    shutil.copytree(project / "results" / "r", run, ignore=shutil.ignore_patterns("journal*"))
    t = pd.read_parquet(run / "results.parquet")
    t = pd.concat([t, t.assign(instance_path=t["instance_path"].str.removeprefix("instances/"),
                               rep=1, key=t["key"] + "|rep=1", sample_id=t["sample_id"] + "1"),
                   t.assign(instance_path="/gone/" + t["instance"] + ".txt", rep=2,
                            key=t["key"] + "|rep=2", sample_id=t["sample_id"] + "2")],
                  ignore_index=True)
    t.to_parquet(run / "results.parquet")
    monkeypatch.chdir(tmp_path)
    assert _grid((write_report(run, tmp_path / "rep") / "summary.md").read_text()) == EXPECTED
    assert _families(run) == EXPECTED


def test_a_file_changed_since_the_run_is_not_read(project: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch):
    """A copy of the run kept in another project whose file of the same path was edited
    since (its source now janko): the report takes the file with the content the run
    recorded (found under $PUZZLEBENCH_ROOT), and where none has it goes by the name and
    says so once."""
    other = tmp_path / "other"
    shutil.copytree(project / "results" / "r", other / "results" / "r",
                    ignore=shutil.ignore_patterns("journal*"))
    edited = other / "instances" / "nurikabe" / f"{REAL}.txt"
    edited.parent.mkdir(parents=True)
    text = (project / "instances" / "nurikabe" / f"{REAL}.txt").read_text()
    edited.write_text(text.replace("https://puzz.link/p?", "https://www.janko.at/"))
    run = other / "results" / "r"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLEBENCH_ROOT", str(project))
    assert _families(run) == EXPECTED  # the recorded content, from the project
    md = (write_report(run, tmp_path / "rep") / "summary.md").read_text()
    assert "not read" not in md
    (project / "instances" / "nurikabe" / f"{REAL}.txt").rename(tmp_path / "moved.txt")
    try:
        fams = _families(run)
        md = (write_report(run, tmp_path / "rep2") / "summary.md").read_text()
    finally:
        (tmp_path / "moved.txt").rename(project / "instances" / "nurikabe" / f"{REAL}.txt")
    assert fams[REAL] == "other"  # by the name alone, never the edited file's janko
    notes = [line for line in md.splitlines() if "not read" in line]
    assert len(notes) == 1 and "1 changed since the run" in notes[0], notes


class _Seen(Exception):
    """Raised by the spy once it has seen the folder a caller passed."""


def test_every_caller_of_prepare_sees_the_report_s_families(project: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    """Selection training, learning, tiering and the run estimate prepare a run with its run
    folder, so they find the same files (and families) as the report; rows of several runs
    prepared together each look from their own run folder."""
    import bench.report.data as data
    from bench.run import estimate, tiers
    from bench.select import learn, train

    run = project / "results" / "r"
    monkeypatch.chdir(tmp_path)
    tr, _ = train.training_rows([run], run)
    assert dict(zip(tr["instance"], tr["family"], strict=True)) == EXPECTED
    real = data.prepare

    def spy(df: pd.DataFrame, folder: object = None) -> pd.DataFrame:
        assert folder is not None and Path(str(folder)).resolve() == run.resolve()
        assert dict(zip(*(lambda t: (t["instance"], t["family"]))(real(df, folder)),
                        strict=True)) == EXPECTED
        raise _Seen
    for module in (learn, tiers):
        monkeypatch.setattr(module, "prepare", spy, raising=False)
    monkeypatch.setattr(data, "prepare", spy)
    with pytest.raises(_Seen):
        learn.evaluate(run)
    with pytest.raises(_Seen):
        learn.held_back(run)
    with pytest.raises(_Seen):
        tiers.main([str(run)])
    with pytest.raises(_Seen):
        estimate.measured([run])

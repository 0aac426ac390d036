"""An empty path on the command line (:func:`bench.cli.args.path_arg`) is one argparse error
line naming the argument and exit 2, and nothing is read from or written to the current folder
(``Path("")`` is the current folder: ``merge --out ''`` wrote the merged run there, ``generate
--out ''`` its instances). A merge input that holds no result is one line naming it, and
``compare --out``/``--csv`` do not write over a run folder's own files (or one over the other).
One real run of one small Shikaku instance on CP-SAT."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import INSTANCES, ROOT

G = str(INSTANCES / "shikaku" / "gen-shikaku-5x5-s1-0.txt")
TASK = (G, "--formulation", "cpsat-cover", "--solver", "cpsat", "--time-limit", "5")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=300)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("run") / "r"
    p = cli("run", *TASK, "--out", str(out), cwd=ROOT)
    assert p.returncode == 0, p.stderr
    return str(out)


#: (the command, with RUN for the finished run, the argument named, what it should name)
CASES = [
    (("merge", "RUN", "--out", ""), "--out", "folder"),
    (("merge", "", "--out", "m"), "RUN", "run folder"),
    (("report", ""), "RESULTS_DIR", "run folder"),
    (("report", "RUN", "--out", ""), "--out", "folder"),
    (("compare", "", "RUN"), "RUN_A", "run folder"),
    (("compare", "RUN", "RUN", "--out", ""), "--out", "file"),
    (("compare", "RUN", "RUN", "--csv", ""), "--csv", "file"),
    (("aslib", "", "--out", "a"), "RESULTS_DIR", "run folder"),
    (("aslib", "RUN", "--out", ""), "--out", "folder"),
    (("run", *TASK, "--out", ""), "--out", "folder"),
    (("run", *TASK, "--reuse", "", "--out", "o"), "--reuse", "run folder"),
    (("run", *TASK, "--dry-run", "--estimate", ""), "--estimate", "run folder"),
    (("generate", "shikaku", "--size", "5x5", "--seed", "1", "--out", ""), "--out", "folder"),
    (("import", G, "--out", ""), "--out", "folder"),
    (("new-formulation", "shikaku", "sat", "x", "--out", ""), "--out", "folder"),
    (("new-puzzle", "x", "--out", ""), "--out", "folder"),
]


@pytest.mark.parametrize(("args", "argument", "what"), CASES,
                         ids=[f"{c[0][0]} {c[1]}-{i}" for i, c in enumerate(CASES)])
def test_an_empty_path_is_one_line_and_touches_the_current_folder_not(
        finished, tmp_path, args, argument, what):
    here = tmp_path / "here"
    here.mkdir()
    p = cli(*[finished if a == "RUN" else a for a in args], cwd=here)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    lines = [x for x in p.stderr.splitlines() if not x.startswith(("usage:", " "))]
    assert lines == [f"puzzlebench {args[0]}: error: argument {argument}: an empty path names "
                     f"no {what}"], p.stderr
    assert list(here.iterdir()) == []  # nothing written where the command ran


def test_a_merge_input_without_a_result_is_one_line_naming_it(finished, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "journal.jsonl").write_text("")
    p = cli("merge", finished, str(empty), "--out", str(tmp_path / "m"), cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr == (f"puzzlebench: {empty / 'journal.jsonl'}: holds no result (a run that "
                        "recorded none): nothing to merge from it\n")
    assert not (tmp_path / "m" / "journal.jsonl").exists()


def test_a_damaged_environment_of_a_merge_input_is_said_once(finished, tmp_path):
    import shutil

    damaged = tmp_path / "d"
    shutil.copytree(finished, damaged)
    (damaged / "environment.json").write_text('{"x":')
    p = cli("merge", str(damaged), "--out", str(tmp_path / "m"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stderr.count("environment.json") == 1, p.stderr


@pytest.mark.parametrize("option", ["--out", "--csv"])
@pytest.mark.parametrize("name", ["journal.jsonl", "results.parquet", "environment.json"])
def test_compare_does_not_write_over_a_run_folders_own_file(finished, tmp_path, option, name):
    import shutil

    victim = tmp_path / "v"
    shutil.copytree(finished, victim)
    before = (victim / name).read_bytes()
    p = cli("compare", finished, finished, option, str(victim / name), cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr == (f"puzzlebench: {victim / name}: the {name} of the run folder {victim}; "
                        "writing the comparison there would destroy its results (name another "
                        "file)\n")
    assert (victim / name).read_bytes() == before


def test_compare_refuses_one_file_for_out_and_csv(finished, tmp_path):
    p = cli("compare", finished, finished, "--out", "c.md", "--csv", "./c.md", cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr == ("puzzlebench: --out and --csv name one file (c.md): the Markdown would "
                        "replace the CSV\n")
    assert not (tmp_path / "c.md").exists()


def test_compare_refuses_a_link_to_a_run_folders_own_file(finished, tmp_path):
    from bench.cli.compare import _run_file

    link = tmp_path / "out.md"
    link.symlink_to(Path(finished) / "journal.jsonl")
    assert "the journal.jsonl of the run folder" in _run_file(str(link))
